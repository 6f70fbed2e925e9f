// The kernel's walk on the CPU, for tests: `host FIRST COUNT PER_THREAD CAPACITY LEAST` walks
// the deals as a launch of blocks of 256 threads would, one thread after the other, and prints
// the tallies on one line and the games listed (seed, then result) on the next.
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 6) return 2;
    u64 first = strtoull(argv[1], 0, 10), count = strtoull(argv[2], 0, 10);
    u64 per_thread = strtoull(argv[3], 0, 10), capacity = strtoull(argv[4], 0, 10);
    u64 least = strtoull(argv[5], 0, 10);
    static u64 out[WS_BINS + WS_ALL_BINS];
    static u32 bins[WS_ALL_BINS];
    u64 *listed = (u64 *)calloc(2 * capacity + 2, sizeof(u64));
    u64 threads = (count + per_thread - 1) / per_thread;
    for (u64 block = 0; block * 256 < threads; block++) {
        for (u64 t = block * 256; t < threads && t < (block + 1) * 256; t++) {
            u64 start = first + t * per_thread, stop = first + count;
            u64 end = stop - start < per_thread ? stop : start + per_thread;
            walk_deals(start, end, bins, out, listed, capacity, least);
        }
        for (int i = 0; i < WS_ALL_BINS; i++) {
            out[WS_BINS + i] += bins[i];
            bins[i] = 0;
        }
    }
    for (int i = 0; i < WS_BINS + WS_ALL_BINS; i++) printf("%llu ", (unsigned long long)out[i]);
    printf("\n");
    u64 games = out[WS_LISTED] < capacity ? out[WS_LISTED] : capacity;
    for (u64 i = 0; i < 2 * games; i++) printf("%llu ", (unsigned long long)listed[i]);
    printf("\n");
    return 0;
}
