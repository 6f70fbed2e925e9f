// The device kernel: two-player games whose hands fit one 64-bit word each, over a `lex` walk
// or a range of seeds of the lcg or splitmix shuffle.
//
// One source for two compilers: NVRTC builds it for the GPU (`__CUDACC__`), and the tests build
// it with the host's C++ compiler and compare it with the library's sweeps, so the code that
// runs on a GPU is tested on machines without one.
//
// The setting arrives as a prelude of constants that `src/gpu/plan.rs` writes from the
// library's own definitions: which value beats which (`WS_BEATS0..3`, from the ranking), what a
// tie leads to for every pair of hand sizes (`ws_war`, from `holds_war` and the short-war policy),
// the winner's pick-up as the steps of `rules::gather` (`WS_GATHER0`, `WS_GATHER1`), where
// each hand lies in a deal (`dealt_span`), the range's bounds for mirror deals, the generators'
// constants, how a game ends (`WS_WIN0`, `WS_WIN1`, `WS_DRAW`, and `WS_HANDED_BACK` for a game
// given back to the CPU, all negative and distinct, as `plan::ENDS` lists them) and the layout
// of the tallies.
// This file holds no rule of its own: it deals, moves cards between words as those tables say,
// and counts.
//
// A hand is a word, the top card in the lowest bits, WS_BITS bits a card, each value stored
// plus one (an empty place reads 0); a deal is a word too. Everything a thread keeps lives in
// registers: ptxas reports no stack frame (docs/performance.md says how to look). Each thread
// plays `per_thread` consecutive seeds: in a walk the first deal by counting (`unrank`), the rest
// by stepping to the next arrangement; else each seed's shuffle of the sorted deck. It plays
// rounds in runs between deal points (WS_DEAL_EVERY), so that a warp's threads, which go in
// step, each deal their next game soon after their last ends. A game still going after
// WS_ROUND_BINS - 1 rounds, infinite ones included, and one whose counts fall outside the
// histograms, is handed back (its seed in `deferred`) for the CPU to play: the CPU stays the
// reference, and its cycle detection names the cycles.

#ifdef __CUDACC__
#define WS_DEV __device__ __forceinline__
// Tables every thread reads at the same place (constant memory broadcasts them), and tables
// read at each thread's own place (through the data cache).
#define WS_CONST __constant__
#define WS_TABLE __device__ const
typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned char u8;
WS_DEV void ws_add(u64 *at, u64 v) { if (v) atomicAdd(at, v); }
WS_DEV void ws_max(u64 *at, u64 v) { if (v) atomicMax(at, v); }
WS_DEV void ws_add_bin(u32 *at, u32 v) { atomicAdd(at, v); }
WS_DEV u32 ws_ones(u64 x) { return u32(__popcll(x)); }
WS_DEV u32 ws_trailing_zeros(u64 x) { return u32(__ffsll((long long)x) - 1); }
#else
#include <stdint.h>
#define WS_DEV static inline
#define WS_CONST static const
#define WS_TABLE static const
typedef uint64_t u64;
typedef uint32_t u32;
typedef uint8_t u8;
WS_DEV void ws_add(u64 *at, u64 v) { *at += v; }
WS_DEV void ws_max(u64 *at, u64 v) { if (v > *at) *at = v; }
WS_DEV void ws_add_bin(u32 *at, u32 v) { *at += v; }
WS_DEV u32 ws_ones(u64 x) { return u32(__builtin_popcountll(x)); }
WS_DEV u32 ws_trailing_zeros(u64 x) { return u32(__builtin_ctzll(x)); }
#endif

#include "prelude.h"

#define WS_MASK ((u64(1) << WS_BITS) - 1)

// The low `bits` bits (`bits` up to 64).
WS_DEV u64 low_bits(u32 bits) { return bits >= 64 ? ~u64(0) : (u64(1) << bits) - 1; }

// `n` cards of `run` in the reverse order.
WS_DEV u64 reversed(u64 run, u32 n) {
    u64 out = 0;
    for (u32 i = 0; i < n; i++) {
        out = out << WS_BITS | (run & WS_MASK);
        run >>= WS_BITS;
    }
    return out;
}

// The first `m` cards of both hands in reveal order: player 1's, then player 2's, at each step.
WS_DEV u64 interleaved(u64 c0, u64 c1, u32 m) {
    u64 out = 0;
    for (u32 j = 0; j < m; j++) {
        out |= (c0 >> (WS_BITS * j) & WS_MASK) << (2 * WS_BITS * j);
        out |= (c1 >> (WS_BITS * j) & WS_MASK) << (2 * WS_BITS * j + WS_BITS);
    }
    return out;
}

// A card's lowest bit at each place of a word.
#define WS_ONES (low_bits(WS_BITS * (64 / WS_BITS)) / WS_MASK)

// How many of the first `n` cards of `run` hold stored value `v`.
WS_DEV u32 copies_of(u64 run, u32 n, u64 v) {
    u64 x = run ^ v * WS_ONES, any = x;
    for (int b = 1; b < WS_BITS; b++) any |= x >> b;
    return ws_ones(~any & WS_ONES & low_bits(WS_BITS * n));
}

// The pick-up being built: cards from the lowest bits.
struct Pickup {
    u64 word;
    u32 bits;
};

WS_DEV void put(Pickup *p, u64 run, u32 n) {
    if (n == 0) return;
    p->word |= run << p->bits;
    p->bits += WS_BITS * n;
}

// One step of a winner's pick-up of a table of `m` cards a player (`c0`, `c1`, each as played,
// the first lowest). The step is a template constant, so that each compiler keeps only its case:
// a step read at run time would make every round dispatch on it (and NVRTC does not fold a
// loop over an array of constant steps).
template <int S>
WS_DEV void put_step(Pickup *p, u64 c0, u64 c1, u32 m) {
    switch (S) {
    case WS_PUT_END: break;
    case WS_PUT_PLAYER1: put(p, c0, m); break;
    case WS_PUT_PLAYER2: put(p, c1, m); break;
    case WS_PUT_PLAYER1_LATEST: put(p, reversed(c0, m), m); break;
    case WS_PUT_PLAYER2_LATEST: put(p, reversed(c1, m), m); break;
    case WS_PUT_DECIDING1: put(p, c0 >> (WS_BITS * (m - 1)), 1); break;
    case WS_PUT_DECIDING2: put(p, c1 >> (WS_BITS * (m - 1)), 1); break;
    case WS_PUT_EARLIER: put(p, interleaved(c0, c1, m - 1), 2 * (m - 1)); break;
    case WS_PUT_EARLIER_LATEST:
        put(p, reversed(interleaved(c0, c1, m - 1), 2 * (m - 1)), 2 * (m - 1));
        break;
    case WS_PUT_REVEALED: put(p, interleaved(c0, c1, m), 2 * m); break;
    case WS_PUT_STRONGEST:
        // By stored value, highest first: equal values cannot be told apart.
        if (m == 1) {
            u64 a = c0 & WS_MASK, b = c1 & WS_MASK;
            put(p, a > b ? a | b << WS_BITS : b | a << WS_BITS, 2);
            break;
        }
        for (u64 v = WS_VALUES; v >= 1; v--) {
            u32 k = copies_of(c0, m, v) + copies_of(c1, m, v);
            put(p, v * WS_ONES & low_bits(WS_BITS * k), k);
        }
        break;
    }
}

// The winner's pick-up, built by the steps `rules::gather` takes for this winner (`WS_GATHER0`
// when player 1 wins, `WS_GATHER1` when player 2 does), ended by WS_PUT_END.
template <int S0, int S1, int S2, int S3>
WS_DEV u64 pick_up(u64 c0, u64 c1, u32 m) {
    Pickup p = {0, 0};
    put_step<S0>(&p, c0, c1, m);
    put_step<S1>(&p, c0, c1, m);
    put_step<S2>(&p, c0, c1, m);
    put_step<S3>(&p, c0, c1, m);
    return p.word;
}

// Whether player 1's card `a` beats player 2's card `b` (stored values that differ): bit
// `a << WS_BITS | b` of the words `WS_BEATS0..3` (cards of three bits need only the first).
WS_DEV bool beats(u64 a, u64 b) {
    u64 at = a << WS_BITS | b;
    u64 word = at < 128 ? (at < 64 ? WS_BEATS0 : WS_BEATS1) : (at < 192 ? WS_BEATS2 : WS_BEATS3);
    return word >> (at & 63) & 1;
}

// A game going on: the hands (top card lowest), how many cards each holds, its rounds and
// wars so far, how it ended (WS_PLAYING while it goes on, else a negative end code: WS_WIN0,
// WS_WIN1, WS_DRAW, WS_HANDED_BACK), and its deal's seed and weight (twice with its mirror).
#define WS_PLAYING 0
struct Game {
    u64 h0, h1;
    u32 len0, len1, rounds, wars;
    int end;
    u64 seed;
    u32 n;
};

// Plays one round of `g`: a battle and the wars it leads to, the winner picking up the table.
WS_DEV void play_round(Game *g) {
    if (g->rounds >= WS_ROUND_BINS - 1) {
        g->end = WS_HANDED_BACK;
        return;
    }
    u64 a = g->h0 & WS_MASK, b = g->h1 & WS_MASK;
    u64 r0 = g->h0 >> WS_BITS, r1 = g->h1 >> WS_BITS;
    u32 m = 1;
    bool p1;
    if (a != b) {
        p1 = beats(a, b);
    } else {
        for (;;) {
            g->wars++;
            // Cards each holds past the table decide what the war can be.
            int down = ws_war[(g->len0 - m) * (WS_CARDS + 1) + (g->len1 - m)];
            if (down < 0) {
                g->end = down;
                return;
            }
            r0 >>= WS_BITS * down;
            r1 >>= WS_BITS * down;
            m += down + 1;
            u64 x = r0 & WS_MASK, y = r1 & WS_MASK;
            r0 >>= WS_BITS;
            r1 >>= WS_BITS;
            if (x != y) {
                p1 = beats(x, y);
                break;
            }
        }
    }
    g->rounds++;
    if ((p1 ? r1 : r0) == 0) {
        g->end = p1 ? WS_WIN0 : WS_WIN1;
        return;
    }
    u64 mask = low_bits(WS_BITS * m);
    u64 c0 = g->h0 & mask, c1 = g->h1 & mask;
    if (p1) {
        g->h0 = r0 | pick_up<WS_GATHER0>(c0, c1, m) << (WS_BITS * (g->len0 - m));
        g->h1 = r1;
        g->len0 += m;
        g->len1 -= m;
    } else {
        g->h1 = r1 | pick_up<WS_GATHER1>(c0, c1, m) << (WS_BITS * (g->len1 - m));
        g->h0 = r0;
        g->len1 += m;
        g->len0 -= m;
    }
}

// A deal is one word too: the deck's values in dealing order, WS_BITS bits each (a value, not
// plus one), the first card lowest. The whole deck fits a word wherever hands do.

// Card `i` of `deal`.
WS_DEV u64 card(u64 deal, int i) { return deal >> (WS_BITS * i) & WS_MASK; }

// `deal` with cards `i` and `j` exchanged.
WS_DEV u64 exchange(u64 deal, int i, int j) {
    u64 x = card(deal, i) ^ card(deal, j);
    return deal ^ (x << (WS_BITS * i) | x << (WS_BITS * j));
}

#if WS_SHUFFLE == WS_LEX
// The `rank`-th arrangement (lexicographic, from 0) of the deck's values. Each count is
// `total * copies / remaining`, computed without overflow as `q * copies + s * copies /
// remaining` where `total = q * remaining + s`.
WS_DEV u64 unrank(u64 rank) {
    u32 left[WS_VALUES];
    for (int v = 0; v < WS_VALUES; v++) left[v] = ws_copies[v];
    u32 remaining = WS_CARDS;
    u64 total = WS_DEALS;
    u64 k = rank, deal = 0;
    for (int i = 0; i < WS_CARDS; i++) {
        for (int v = 0; v < WS_VALUES; v++) {
            if (left[v] == 0) continue;
            u64 with_v = total / remaining * left[v] + total % remaining * left[v] / remaining;
            if (k < with_v) {
                deal |= u64(v) << (WS_BITS * i);
                left[v]--;
                remaining--;
                total = with_v;
                break;
            }
            k -= with_v;
        }
    }
    return deal;
}

// The arrangement after `deal` in lexicographic order (the first after the last).
WS_DEV u64 next_arrangement(u64 deal) {
    int i = WS_CARDS - 2;
    while (i >= 0 && card(deal, i) >= card(deal, i + 1)) i--;
    if (i >= 0) {
        int j = WS_CARDS - 1;
        while (card(deal, j) <= card(deal, i)) j--;
        deal = exchange(deal, i, j);
    }
    // The cards past `i`, which fall from there on, in the reverse order.
    u32 kept = WS_BITS * (i + 1);
    return (deal & low_bits(kept)) | reversed(deal >> kept, WS_CARDS - 1 - i) << kept;
}

#endif

// Player `p`'s hand from the deal: the cards the deal gives it, the first dealt on top, each
// stored plus one.
WS_DEV u64 hand(u64 deal, int start, int step, int count) {
    u64 held = low_bits(WS_BITS * count);
    // Dealt in blocks, a hand is a run of the deal's cards, each plus one (a value is at most
    // WS_MASK - 1, so no card carries into the next).
    if (step == 1) return (deal >> (WS_BITS * start) & held) + (WS_ONES & held);
    u64 word = 0;
    for (int i = count - 1; i >= 0; i--) word = word << WS_BITS | (card(deal, start + i * step) + 1);
    return word;
}

// The two hands of a deal.
struct Hands {
    u64 h0, h1;
};

// The deal's hands, each player's cards where the deal puts them (`dealt_span`).
WS_DEV Hands deal_hands(u64 deal) {
    Hands h = {hand(deal, WS_START0, WS_STEP0, WS_COUNT0),
               hand(deal, WS_START1, WS_STEP1, WS_COUNT1)};
    return h;
}

#if WS_SHUFFLE == WS_LEX && WS_MIRRORS
// Mirror deals are weighed on the packed hands, as `deal::mirror` weighs two-block deals: the
// deal (A, B) against its mirror (B, A) is A against B at the first card where they differ,
// dealt in blocks or round robin alike; the mirror against a bound (F, G) is B against F and
// A against G at their first differences, one hand after the other in blocks, interleaved
// card by card round robin.

// The first card (0 = top) where hands `x` and `y` differ; WS_CARDS where none does.
WS_DEV u32 first_difference(u64 x, u64 y) {
    u64 d = x ^ y;
    return d == 0 ? WS_CARDS : ws_trailing_zeros(d) / WS_BITS;
}

// -1, 0 or 1 as card `at` of `x` is less than, equal to or greater than card `at` of `y`
// (0 at WS_CARDS: no card differs).
WS_DEV int compare_at(u64 x, u64 y, u32 at) {
    if (at >= WS_CARDS) return 0;
    u64 a = x >> (WS_BITS * at) & WS_MASK, b = y >> (WS_BITS * at) & WS_MASK;
    return a < b ? -1 : a > b ? 1 : 0;
}

// The mirror of deal `d` against deal `f`, in lexicographic order of their values: -1, 0 or 1.
WS_DEV int mirror_to(Hands d, Hands f) {
    u32 k0 = first_difference(d.h1, f.h0), k1 = first_difference(d.h0, f.h1);
#if WS_STEP0 == 1
    return k0 < WS_CARDS ? compare_at(d.h1, f.h0, k0) : compare_at(d.h0, f.h1, k1);
#else
    return k0 <= k1 ? compare_at(d.h1, f.h0, k0) : compare_at(d.h0, f.h1, k1);
#endif
}

// The range's bounds, packed: its first deal, and the deal just past it.
struct Bounds {
    Hands first, past;
};

// How many times deal `d` counts: 0 when its mirror (the players' places exchanged), a lesser
// deal of the walk, counts it; 2 when it counts its mirror too; 1 otherwise (`deal::mirror`).
WS_DEV u32 weigh(Hands d, const Bounds *bounds) {
    int order = compare_at(d.h0, d.h1, first_difference(d.h0, d.h1));
    if (order == 0) return 1;
    bool in_range = true;
#if WS_HAS_FIRST
    in_range = in_range && mirror_to(d, bounds->first) >= 0;
#endif
#if WS_HAS_PAST
    in_range = in_range && mirror_to(d, bounds->past) < 0;
#endif
    if (!in_range) return 1;
    return order < 0 ? 2 : 0;
}
#endif

// A record candidate: the larger value first, the smaller seed on a tie, as one number.
WS_DEV u64 record(u32 value, u64 seed) {
    return u64(value) << WS_SEED_BITS | (low_bits(WS_SEED_BITS) - seed);
}

// A thread's counts, added to the launch's once its deals are done.
struct Counts {
    u64 games, wins0, wins1, draws, battles;
    u64 most[3];
};

// Counts the game `g`, which ended, into `counts` and `bins`; or hands it back (its seed in
// `deferred`).
WS_DEV void count_game(const Game *g, Counts *c, u32 *bins, u64 *out, u64 *deferred,
                       u64 capacity) {
    u32 rounds = g->rounds, wars = g->wars, fought = rounds + wars, n = g->n;
    if (g->end == WS_HANDED_BACK || fought >= WS_BATTLE_BINS || wars >= WS_WAR_BINS) {
#ifdef __CUDACC__
        u64 k = atomicAdd(&out[WS_DEFERRED], u64(1));
#else
        u64 k = out[WS_DEFERRED]++;
#endif
        if (k < capacity) deferred[k] = g->seed;
        return;
    }
    c->games += n;
    c->battles += u64(fought) * n;
    if (g->end == WS_WIN0) {
        c->wins0 += 1;
        if (n == 2) c->wins1 += 1;
    } else if (g->end == WS_WIN1) {
        c->wins1 += 1;
        if (n == 2) c->wins0 += 1;
    } else {
        c->draws += n;
    }
    ws_add_bin(&bins[WS_ROUNDS_AT + rounds], n);
    ws_add_bin(&bins[WS_BATTLES_AT + fought], n);
    ws_add_bin(&bins[WS_WARS_AT + wars], n);
    u64 candidates[3] = {record(rounds, g->seed), record(fought, g->seed), record(wars, g->seed)};
    for (int i = 0; i < 3; i++)
        if (candidates[i] > c->most[i]) c->most[i] = candidates[i];
}

#if WS_SHUFFLE == WS_LCG
// The sorted deck's shuffle by the seed-004 generator (`deal::lcg_shuffle`): for each place in
// turn, advance the generator and swap the card there with the one at the generator's value
// modulo the deck's size.
WS_DEV u64 shuffle(u64 seed, u64 deal) {
    u64 x = seed % WS_LCG_MODULUS;
    for (int i = 0; i < WS_CARDS; i++) {
        x = (WS_LCG_MULTIPLIER * x + WS_LCG_INCREMENT) % WS_LCG_MODULUS;
        deal = exchange(deal, i, int(x % WS_CARDS));
    }
    return deal;
}
#elif WS_SHUFFLE == WS_SPLITMIX
// The high 64 bits of `a * b`.
WS_DEV u64 high_product(u64 a, u64 b) {
#ifdef __CUDACC__
    return __umul64hi(a, b);
#else
    return (u64)(((unsigned __int128)a * b) >> 64);
#endif
}

// Fisher-Yates from the top place down, driven by SplitMix64 from the seed
// (`deal::splitmix_shuffle`).
WS_DEV u64 shuffle(u64 seed, u64 deal) {
    u64 state = seed;
    for (int i = WS_CARDS - 1; i >= 1; i--) {
        state += WS_SPLITMIX_GAMMA;
        u64 z = state;
        z = (z ^ (z >> 30)) * WS_SPLITMIX_MIX0;
        z = (z ^ (z >> 27)) * WS_SPLITMIX_MIX1;
        z ^= z >> 31;
        deal = exchange(deal, i, int(high_product(z, u64(i + 1))));
    }
    return deal;
}
#endif

// A thread's deals: seeds `seed..end`, and in a walk the deal of `seed`, stepped to.
struct Deals {
    u64 seed, end, deal;
#if WS_SHUFFLE == WS_LEX && WS_MIRRORS
    Bounds bounds;
#endif
};

WS_DEV Deals open_deals(u64 seed, u64 end) {
    Deals w;
    w.seed = seed;
    w.end = end;
#if WS_SHUFFLE == WS_LEX
    // Every distinct deal: the first counted, the rest stepped to.
    w.deal = unrank(seed);
#if WS_MIRRORS
    w.bounds = Bounds{{0, 0}, {0, 0}};
#if WS_HAS_FIRST
    w.bounds.first = deal_hands(WS_FIRST);
#endif
#if WS_HAS_PAST
    w.bounds.past = deal_hands(WS_PAST);
#endif
#endif
#else
    w.deal = WS_DECK;
#endif
    return w;
}

// Starts `g` on the next deal of `w` that counts (a walk's mirror deals count with the lesser
// of the two); false when `w` has none left.
WS_DEV bool deal_next(Deals *w, Game *g) {
    while (w->seed < w->end) {
        u64 seed = w->seed++;
#if WS_SHUFFLE == WS_LEX
        Hands d = deal_hands(w->deal);
        w->deal = next_arrangement(w->deal);
#if WS_MIRRORS
        u32 n = weigh(d, &w->bounds);
        if (n == 0) continue;
#else
        u32 n = 1;
#endif
#else
        // The sorted deck, shuffled by each seed.
        Hands d = deal_hands(shuffle(seed, WS_DECK));
        u32 n = 1;
#endif
        *g = Game{d.h0, d.h1, WS_COUNT0, WS_COUNT1, 0, 0, WS_PLAYING, seed, n};
        return true;
    }
    return false;
}

// Rounds a thread plays between the points where the threads whose games ended count them and
// deal their next. On a GPU a warp's threads go in step, so a game's end waits for the next
// point rather than for the warp's longest game; the counts do not depend on it. NVRTC takes
// another with `-DWS_DEAL_EVERY=N` (the environment's WARSWEEP_GPU_DEAL_EVERY).
#ifndef WS_DEAL_EVERY
#define WS_DEAL_EVERY 16
#endif

// Plays the deals of seeds `seed..end` into `out` (the tallies, laid out as the prelude says)
// and `bins` (this block's histograms); seeds of games handed back go to `deferred`.
WS_DEV void walk_deals(u64 seed, u64 end, u32 *bins, u64 *out, u64 *deferred, u64 capacity) {
    Counts c = {0, 0, 0, 0, 0, {0, 0, 0}};
    Deals w = open_deals(seed, end);
    Game g = {0, 0, 0, 0, 0, 0, WS_PLAYING, 0, 0};
    bool live = deal_next(&w, &g);
    while (live) {
        for (u32 i = 0; i < WS_DEAL_EVERY && g.end == WS_PLAYING; i++) play_round(&g);
        if (g.end != WS_PLAYING) {
            count_game(&g, &c, bins, out, deferred, capacity);
            live = deal_next(&w, &g);
        }
    }
    ws_add(&out[WS_GAMES], c.games);
    ws_add(&out[WS_WINS0], c.wins0);
    ws_add(&out[WS_WINS1], c.wins1);
    ws_add(&out[WS_DRAWS], c.draws);
    ws_add(&out[WS_BATTLES_PLAYED], c.battles);
    for (int i = 0; i < 3; i++) ws_max(&out[WS_MOST + i], c.most[i]);
}

#ifdef __CUDACC__
// Thread `t` of the launch walks `per_thread` deals from `first + t * per_thread`, within
// `first..first + count`; each block keeps its histograms in shared memory.
extern "C" __global__ void ws_walk(u64 first, u64 count, u64 per_thread, u64 *out, u64 *deferred,
                                   u64 capacity) {
    __shared__ u32 bins[WS_ALL_BINS];
    for (u32 i = threadIdx.x; i < WS_ALL_BINS; i += blockDim.x) bins[i] = 0;
    __syncthreads();
    u64 t = u64(blockIdx.x) * blockDim.x + threadIdx.x;
    u64 start = first + t * per_thread, stop = first + count;
    if (t * per_thread < count) {
        u64 end = stop - start < per_thread ? stop : start + per_thread;
        walk_deals(start, end, bins, out, deferred, capacity);
    }
    __syncthreads();
    for (u32 i = threadIdx.x; i < WS_ALL_BINS; i += blockDim.x)
        if (bins[i]) atomicAdd(&out[WS_BINS + i], u64(bins[i]));
}
#endif
