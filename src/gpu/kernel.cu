// The device kernel: two-player games of decks of up to 64 cards, over a `lex` walk, a range
// of seeds of the lcg or splitmix shuffle, or a hunt's random deals.
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
// given back to the CPU, all negative and distinct, as `plan::ENDS` lists them), the layout
// of the tallies and of a game's result in the list of games played past the histograms.
// This file holds no rule of its own: it deals, moves cards between words as those tables say,
// and counts.
//
// A hand is WS_WORDS words, WS_BITS bits a card, each value stored plus one (an empty place
// reads 0); a deal is as wide. A deck whose hands fit one word takes one (three bits a card
// where four would not fit), the top card lowest, and the compilers fold every loop over the
// words away; a wider deck takes four bits a card, sixteen a word, so that no card straddles
// two words, and a hand's first card need not be the lowest (`Hand`). Everything a thread
// keeps lives in registers: a word is chosen by comparisons, never indexed at run time
// (docs/performance.md says how to look).
// Each thread plays `per_thread` consecutive seeds: in a walk the first deal by counting
// (`unrank`), the rest by stepping to the next arrangement; else each seed's shuffle of the
// sorted deck. It plays rounds in runs between deal points (WS_DEAL_EVERY), so that a warp's
// threads, which go in step, each deal their next game soon after their last ends. A game is
// watched for a cycle from round WS_ROUND_BINS - 1 on (Brent's algorithm on a fingerprint of
// its state); one that loops is handed back (its seed in the list) for the CPU to play: the
// CPU stays the reference, and its cycle detection names the cycles. A game that ends past
// the histograms is listed with its result.

#ifdef __CUDACC__
#define WS_DEV __device__ __forceinline__
// Tables every thread reads at the same place (constant memory broadcasts them), and tables
// read at each thread's own place (through the data cache).
#define WS_CONST __constant__
#define WS_TABLE __device__ const
#define WS_UNROLL _Pragma("unroll")
typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned char u8;
WS_DEV void ws_add(u64 *at, u64 v) { if (v) atomicAdd(at, v); }
WS_DEV void ws_max(u64 *at, u64 v) { if (v) atomicMax(at, v); }
WS_DEV void ws_add_bin(u32 *at, u32 v) { atomicAdd(at, v); }
WS_DEV u32 ws_trailing_zeros(u64 x) { return u32(__ffsll((long long)x) - 1); }
#else
#include <stdint.h>
#define WS_DEV static inline
#define WS_CONST static const
#define WS_TABLE static const
#define WS_UNROLL
typedef uint64_t u64;
typedef uint32_t u32;
typedef uint8_t u8;
WS_DEV void ws_add(u64 *at, u64 v) { *at += v; }
WS_DEV void ws_max(u64 *at, u64 v) { if (v > *at) *at = v; }
WS_DEV void ws_add_bin(u32 *at, u32 v) { *at += v; }
WS_DEV u32 ws_trailing_zeros(u64 x) { return u32(__builtin_ctzll(x)); }
#endif

#include "prelude.h"

#define WS_MASK ((u64(1) << WS_BITS) - 1)
// Cards a word holds.
#define WS_PER_WORD (64 / WS_BITS)

// The low `bits` bits (`bits` up to 64).
WS_DEV u64 low_bits(u32 bits) { return bits >= 64 ? ~u64(0) : (u64(1) << bits) - 1; }

// A card's lowest bit at each place of a word.
#define WS_ONES (low_bits(WS_BITS * WS_PER_WORD) / WS_MASK)

// A hand or a deal: card `i` at bit WS_BITS * i of the words, the first word lowest.
struct Wide {
    u64 w[WS_WORDS];
};

WS_DEV Wide zero() {
    Wide x;
    WS_UNROLL for (int k = 0; k < WS_WORDS; k++) x.w[k] = 0;
    return x;
}

// Word `k` of `x` (0 past the last), `k` known only at run time: chosen by comparisons, so
// that the words stay in registers.
WS_DEV u64 word_at(const Wide &x, u32 k) {
    u64 word = 0;
    WS_UNROLL for (int j = 0; j < WS_WORDS; j++) word = u32(j) == k ? x.w[j] : word;
    return word;
}

// `x` shifted toward its first card by `bits` (fewer than all its bits): the cards past them.
WS_DEV Wide shifted_down(Wide x, u32 bits) {
#if WS_WORDS == 1
    x.w[0] >>= bits;
    return x;
#else
    u32 q = bits / 64, r = bits % 64;
    Wide y;
    // `(hi << 1) << (63 - r)` is `hi << (64 - r)`, and 0 when r is 0.
    WS_UNROLL for (int k = 0; k < WS_WORDS; k++)
        y.w[k] = word_at(x, k + q) >> r | (word_at(x, k + q + 1) << 1) << (63 - r);
    return y;
#endif
}

// The first `n` cards of `x`, the others emptied.
WS_DEV Wide first_cards(Wide x, u32 n) {
    WS_UNROLL for (int k = 0; k < WS_WORDS; k++) {
        u32 bits = WS_BITS * n;
        x.w[k] &= low_bits(bits > 64u * k ? bits - 64u * k : 0);
    }
    return x;
}

// Card `i` of `x`.
WS_DEV u64 card(const Wide &x, u32 i) {
#if WS_WORDS == 1
    return x.w[0] >> (WS_BITS * i) & WS_MASK;
#else
    return word_at(x, i / WS_PER_WORD) >> (WS_BITS * (i % WS_PER_WORD)) & WS_MASK;
#endif
}

// `x` with card `i` xored with `v`.
WS_DEV void xor_card(Wide *x, u32 i, u64 v) {
#if WS_WORDS == 1
    x->w[0] ^= v << (WS_BITS * i);
#else
    u32 k = i / WS_PER_WORD, s = WS_BITS * (i % WS_PER_WORD);
    WS_UNROLL for (int j = 0; j < WS_WORDS; j++) x->w[j] ^= u32(j) == k ? v << s : 0;
#endif
}

// `x` with cards `i` and `j` exchanged.
WS_DEV Wide exchange(Wide x, u32 i, u32 j) {
    u64 d = card(x, i) ^ card(x, j);
    xor_card(&x, i, d);
    xor_card(&x, j, d);
    return x;
}

// `x` with word `k` replaced by `word`.
WS_DEV void set_word(Wide *x, u32 k, u64 word) {
    WS_UNROLL for (int j = 0; j < WS_WORDS; j++) x->w[j] = u32(j) == k ? word : x->w[j];
}

// A player's hand: its first card lowest, the rest after it. In one word, shifted down as
// cards leave. Wider, the first card in the first word at place `first`, the words shifted
// down one whole word when it passes the first (so that a card leaves by a count, and the
// first card is read without choosing a word); the places past its last card are empty.
struct Hand {
    Wide w;
#if WS_WORDS > 1
    u32 first;
#endif
};
#define WS_PLACES (WS_PER_WORD * WS_WORDS)

// A hand of the cards of `x`, the first first.
WS_DEV Hand hand_of(const Wide &x) {
    Hand h;
    h.w = x;
#if WS_WORDS > 1
    h.first = 0;
#endif
    return h;
}

// The place of card `i` of `h`.
WS_DEV u32 place(const Hand &h, u32 i) {
#if WS_WORDS == 1
    return i;
#else
    return h.first + i;
#endif
}

// Card `i` of `h` (0: its first).
WS_DEV u64 card_of(const Hand &h, u32 i) { return card(h.w, place(h, i)); }

// The first card of `h`, which lies in its first word.
WS_DEV u64 top(const Hand &h) { return h.w.w[0] >> (WS_BITS * place(h, 0)) & WS_MASK; }

// `h` without its first `m` cards.
WS_DEV void drop(Hand *h, u32 m) {
#if WS_WORDS == 1
    h->w.w[0] >>= WS_BITS * m;
#else
    h->first += m;
    while (h->first >= WS_PER_WORD) {
        WS_UNROLL for (int k = 0; k + 1 < WS_WORDS; k++) h->w.w[k] = h->w.w[k + 1];
        h->w.w[WS_WORDS - 1] = 0;
        h->first -= WS_PER_WORD;
    }
#endif
}

// The `len` cards of `h` in order from its first, the places past them empty: the same cards
// in the same order are the same words.
WS_DEV Wide in_order(const Hand &h, u32 len) {
#if WS_WORDS == 1
    (void)len;
    return h.w;
#else
    return first_cards(shifted_down(h.w, WS_BITS * h.first), len);
#endif
}

// A winner's hand taking the table: cards go after its last, one after the other, gathered in
// the word of the place they go to, which joins the hand when it is full and at the end.
struct Pickup {
    Hand hand;
    u64 word;
    u32 bits, at;
};

// The hand `rest` (what the winner kept, `kept` cards) ready to take `2 * m` cards after its
// last.
WS_DEV Pickup pickup_under(const Hand &rest, u32 kept, u32 m) {
    Pickup p;
    p.hand = rest;
#if WS_WORDS == 1
    (void)m;
    p.at = 0;
    p.bits = WS_BITS * kept;
    p.word = rest.w.w[0];
#else
    // Where the cards would pass the last place, the hand moves down to the first.
    if (rest.first + kept + 2 * m > WS_PLACES) p.hand = hand_of(in_order(rest, kept));
    u32 next = place(p.hand, kept);
    p.at = next / WS_PER_WORD;
    p.bits = WS_BITS * (next % WS_PER_WORD);
    p.word = word_at(p.hand.w, p.at);
#endif
    return p;
}

WS_DEV void put(Pickup *p, u64 v) {
#if WS_WORDS > 1
    // On to the next word, which is empty.
    if (p->bits == 64) {
        set_word(&p->hand.w, p->at, p->word);
        p->at++;
        p->word = 0;
        p->bits = 0;
    }
#endif
    p->word |= v << p->bits;
    p->bits += WS_BITS;
}

// The hand with every card put.
WS_DEV Hand picked_up(Pickup *p) {
#if WS_WORDS == 1
    p->hand.w.w[0] = p->word;
#else
    set_word(&p->hand.w, p->at, p->word);
#endif
    return p->hand;
}

// One step of a winner's pick-up of a table of `m` cards a player, the first `m` cards of `t0`
// and `t1` (the hands as the round began), the last of them `d0` and `d1`, which decided. The step is a template constant, so that each
// compiler keeps only its case: a step read at run time would make every round dispatch on it
// (and NVRTC does not fold a loop over an array of constant steps).
template <int S>
WS_DEV void put_step(Pickup *p, const Hand &t0, const Hand &t1, u32 m, u64 d0, u64 d1) {
    switch (S) {
    case WS_PUT_END: break;
    case WS_PUT_PLAYER1:
        for (u32 j = 0; j < m; j++) put(p, card_of(t0, j));
        break;
    case WS_PUT_PLAYER2:
        for (u32 j = 0; j < m; j++) put(p, card_of(t1, j));
        break;
    case WS_PUT_PLAYER1_LATEST:
        for (u32 j = m; j-- > 0;) put(p, card_of(t0, j));
        break;
    case WS_PUT_PLAYER2_LATEST:
        for (u32 j = m; j-- > 0;) put(p, card_of(t1, j));
        break;
    case WS_PUT_DECIDING1: put(p, d0); break;
    case WS_PUT_DECIDING2: put(p, d1); break;
    case WS_PUT_EARLIER:
        for (u32 j = 0; j + 1 < m; j++) {
            put(p, card_of(t0, j));
            put(p, card_of(t1, j));
        }
        break;
    case WS_PUT_EARLIER_LATEST:
        for (u32 j = m - 1; j-- > 0;) {
            put(p, card_of(t1, j));
            put(p, card_of(t0, j));
        }
        break;
    case WS_PUT_REVEALED:
        for (u32 j = 0; j < m; j++) {
            put(p, card_of(t0, j));
            put(p, card_of(t1, j));
        }
        break;
    case WS_PUT_STRONGEST:
        // By stored value, highest first: equal values cannot be told apart.
        if (m == 1) {
            put(p, d0 > d1 ? d0 : d1);
            put(p, d0 > d1 ? d1 : d0);
            break;
        }
        for (u64 v = WS_VALUES; v >= 1; v--) {
            for (u32 j = 0; j < m; j++) {
                if (card_of(t0, j) == v) put(p, v);
                if (card_of(t1, j) == v) put(p, v);
            }
        }
        break;
    }
}

// The winner's hand `rest` of `kept` cards, with the table after its last, taken by the steps
// `rules::gather` takes for this winner (`WS_GATHER0` when player 1 wins, `WS_GATHER1` when
// player 2 does), ended by WS_PUT_END.
template <int S0, int S1, int S2, int S3>
WS_DEV Hand pick_up(const Hand &rest, u32 kept, const Hand &t0, const Hand &t1, u32 m, u64 d0,
                    u64 d1) {
    Pickup p = pickup_under(rest, kept, m);
    put_step<S0>(&p, t0, t1, m, d0, d1);
    put_step<S1>(&p, t0, t1, m, d0, d1);
    put_step<S2>(&p, t0, t1, m, d0, d1);
    put_step<S3>(&p, t0, t1, m, d0, d1);
    return picked_up(&p);
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
// WS_WIN1, WS_DRAW, WS_HANDED_BACK), its deal's seed and weight (twice with its mirror); and
// the watch for a cycle: the round it next looks at, the fingerprint of the state saved, the
// rounds since, and the rounds until the next save (Brent's power of two; 0 before the watch
// starts).
#define WS_PLAYING 0
struct Game {
    Hand h0, h1;
    u32 len0, len1, rounds, wars;
    int end;
    u64 seed;
    u32 n;
    u32 watch_at, power, since;
    u64 saved;
};

// A fingerprint of the state of `g`: its hands and their sizes, multiplied and folded word by
// word. Equal states have equal fingerprints; unequal ones almost never do, and a game whose
// fingerprints meet by chance is only handed back to the CPU, which finds it finite.
WS_DEV u64 fingerprint(const Game *g) {
    Wide h0 = in_order(g->h0, g->len0), h1 = in_order(g->h1, g->len1);
    u64 x = g->len0;
    WS_UNROLL for (int k = 0; k < WS_WORDS; k++) {
        x = (x ^ h0.w[k]) * WS_SPLITMIX_MIX0;
        x = (x ^ h1.w[k]) * WS_SPLITMIX_MIX1;
        x ^= x >> 31;
    }
    return x;
}

// Watches `g` for a cycle, a round at a time from its first call: a state saved at each power
// of two rounds and compared with every later one (Brent's algorithm; the states of a cycle
// recur, so a game that loops meets its saved state once the power passes its cycle's length).
// A state is compared by its fingerprint, which keeps the saved state in one register. A game
// that loops (or seems to), or one so long that its count would overflow, is handed back.
WS_DEV void watch(Game *g) {
    if (g->rounds >= WS_MOST_ROUNDS) {
        g->end = WS_HANDED_BACK;
        return;
    }
    g->watch_at = g->rounds + 1;
    u64 now = fingerprint(g);
    if (g->power != 0) {
        if (now == g->saved) {
            g->end = WS_HANDED_BACK;
            return;
        }
        if (++g->since < g->power) return;
    }
    g->power = g->power == 0 ? 1 : 2 * g->power;
    g->since = 0;
    g->saved = now;
}

// Plays one round of `g`: a battle and the wars it leads to, the winner picking up the table.
WS_DEV void play_round(Game *g) {
    if (g->rounds >= g->watch_at) {
        watch(g);
        if (g->end != WS_PLAYING) return;
    }
    u64 a = top(g->h0), b = top(g->h1);
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
            m += down + 1;
            a = card_of(g->h0, m - 1);
            b = card_of(g->h1, m - 1);
            if (a != b) {
                p1 = beats(a, b);
                break;
            }
        }
    }
    g->rounds++;
    if ((p1 ? g->len1 : g->len0) == m) {
        g->end = p1 ? WS_WIN0 : WS_WIN1;
        return;
    }
    // The table: the first `m` cards of each hand as the round began.
    Hand t0 = g->h0, t1 = g->h1;
    drop(&g->h0, m);
    drop(&g->h1, m);
    if (p1) {
        g->h0 = pick_up<WS_GATHER0>(g->h0, g->len0 - m, t0, t1, m, a, b);
        g->len0 += m;
        g->len1 -= m;
    } else {
        g->h1 = pick_up<WS_GATHER1>(g->h1, g->len1 - m, t0, t1, m, a, b);
        g->len1 += m;
        g->len0 -= m;
    }
}

// A deal is as wide as a hand: the deck's values in dealing order, WS_BITS bits each (a value,
// not plus one), the first card lowest.

#if WS_SHUFFLE == WS_LEX
// The `rank`-th arrangement (lexicographic, from 0) of the deck's values. Each count is
// `total * copies / remaining`, computed without overflow as `q * copies + s * copies /
// remaining` where `total = q * remaining + s`.
WS_DEV Wide unrank(u64 rank) {
    u32 left[WS_VALUES];
    for (int v = 0; v < WS_VALUES; v++) left[v] = ws_copies[v];
    u32 remaining = WS_CARDS;
    u64 total = WS_DEALS;
    u64 k = rank;
    Wide deal = zero();
    for (int i = 0; i < WS_CARDS; i++) {
        for (int v = 0; v < WS_VALUES; v++) {
            if (left[v] == 0) continue;
            u64 with_v = total / remaining * left[v] + total % remaining * left[v] / remaining;
            if (k < with_v) {
                xor_card(&deal, i, u64(v));
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
WS_DEV Wide next_arrangement(Wide deal) {
    int i = WS_CARDS - 2;
    while (i >= 0 && card(deal, i) >= card(deal, i + 1)) i--;
    if (i >= 0) {
        int j = WS_CARDS - 1;
        while (card(deal, j) <= card(deal, i)) j--;
        deal = exchange(deal, i, j);
    }
    // The cards past `i`, which fall from there on, in the reverse order.
    for (int a = i + 1, b = WS_CARDS - 1; a < b; a++, b--) deal = exchange(deal, a, b);
    return deal;
}

#endif

// Player `p`'s hand from the deal: the cards the deal gives it, the first dealt on top, each
// stored plus one.
WS_DEV Wide hand(const Wide &deal, int start, int step, int count) {
    // Dealt in blocks, a hand is a run of the deal's cards, each plus one (a value is at most
    // WS_MASK - 1, so no card carries into the next).
    if (step == 1) {
        Wide h = first_cards(shifted_down(deal, WS_BITS * start), count);
        Wide ones = zero();
        WS_UNROLL for (int k = 0; k < WS_WORDS; k++) ones.w[k] = WS_ONES;
        ones = first_cards(ones, count);
        WS_UNROLL for (int k = 0; k < WS_WORDS; k++) h.w[k] += ones.w[k];
        return h;
    }
    Wide h = zero();
    for (int i = 0; i < count; i++) xor_card(&h, i, card(deal, start + i * step) + 1);
    return h;
}

// The two hands of a deal.
struct Hands {
    Wide h0, h1;
};

// The deal's hands, each player's cards where the deal puts them (`dealt_span`).
WS_DEV Hands deal_hands(const Wide &deal) {
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
WS_DEV u32 first_difference(const Wide &x, const Wide &y) {
    u32 at = WS_CARDS;
    for (int k = WS_WORDS - 1; k >= 0; k--) {
        u64 d = x.w[k] ^ y.w[k];
        if (d != 0) at = k * WS_PER_WORD + ws_trailing_zeros(d) / WS_BITS;
    }
    return at;
}

// -1, 0 or 1 as card `at` of `x` is less than, equal to or greater than card `at` of `y`
// (0 at WS_CARDS: no card differs).
WS_DEV int compare_at(const Wide &x, const Wide &y, u32 at) {
    if (at >= WS_CARDS) return 0;
    u64 a = card(x, at), b = card(y, at);
    return a < b ? -1 : a > b ? 1 : 0;
}

// The mirror of deal `d` against deal `f`, in lexicographic order of their values: -1, 0 or 1.
WS_DEV int mirror_to(const Hands &d, const Hands &f) {
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
WS_DEV u32 weigh(const Hands &d, const Bounds *bounds) {
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

// Lists game `g` in `listed` (two numbers a game: its seed, then its result as
// `plan::listed_result` reads it, or 0 for a game the CPU plays), as the launch's
// `out[WS_LISTED]`-th game.
WS_DEV void list_game(const Game *g, u64 *out, u64 *listed, u64 capacity) {
    u64 result = 0;
    if (g->end != WS_HANDED_BACK && g->wars < (1u << WS_WARS_BITS)) {
        u64 end = g->end == WS_WIN0 ? 0 : g->end == WS_WIN1 ? 1 : 2;
        result = 1 | end << WS_END_AT | u64(g->n - 1) << WS_TWICE_AT |
                 u64(g->rounds) << WS_ROUNDS_BIT | u64(g->wars) << WS_WARS_BIT;
    }
#ifdef __CUDACC__
    u64 k = atomicAdd(&out[WS_LISTED], u64(1));
#else
    u64 k = out[WS_LISTED]++;
#endif
    if (k < capacity) {
        listed[2 * k] = g->seed;
        listed[2 * k + 1] = result;
    }
}

// What a hunt measures a finished game by (WS_METRIC: 0 rounds, 1 battles, 2 wars).
WS_DEV u64 value(const Game *g) {
    return WS_METRIC == 0 ? g->rounds : WS_METRIC == 1 ? u64(g->rounds) + g->wars : g->wars;
}

// Counts the game `g`, which ended, into `counts` and `bins`; or lists it, when it loops, is
// worth `least` or more (a hunt's; a sweep's is past every game), or (in a sweep) falls
// outside the histograms. A hunt counts nothing it does not list.
WS_DEV void count_game(const Game *g, Counts *c, u32 *bins, u64 *out, u64 *listed,
                       u64 capacity, u64 least) {
    u32 rounds = g->rounds, wars = g->wars, fought = rounds + wars, n = g->n;
    bool outside = rounds >= WS_ROUND_BINS || fought >= WS_BATTLE_BINS || wars >= WS_WAR_BINS;
    if (g->end == WS_HANDED_BACK || value(g) >= least || (outside && WS_SHUFFLE != WS_HUNT)) {
        list_game(g, out, listed, capacity);
        return;
    }
    if (WS_SHUFFLE == WS_HUNT) return;
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
WS_DEV Wide shuffle(u64 seed, Wide deal) {
    u64 x = seed % WS_LCG_MODULUS;
    for (int i = 0; i < WS_CARDS; i++) {
        x = (WS_LCG_MULTIPLIER * x + WS_LCG_INCREMENT) % WS_LCG_MODULUS;
        deal = exchange(deal, i, u32(x % WS_CARDS));
    }
    return deal;
}
#else
// The high 64 bits of `a * b`.
WS_DEV u64 high_product(u64 a, u64 b) {
#ifdef __CUDACC__
    return __umul64hi(a, b);
#else
    return (u64)(((unsigned __int128)a * b) >> 64);
#endif
}

// The next number of the SplitMix64 sequence of `state` (`deal::SplitMix64`).
WS_DEV u64 splitmix_next(u64 *state) {
    *state += WS_SPLITMIX_GAMMA;
    u64 z = *state;
    z = (z ^ (z >> 30)) * WS_SPLITMIX_MIX0;
    z = (z ^ (z >> 27)) * WS_SPLITMIX_MIX1;
    return z ^ (z >> 31);
}

// Fisher-Yates from the top place down, driven by SplitMix64 from the seed
// (`deal::splitmix_shuffle`).
WS_DEV Wide shuffle(u64 seed, Wide deal) {
    u64 state = seed;
    for (int i = WS_CARDS - 1; i >= 1; i--)
        deal = exchange(deal, i, u32(high_product(splitmix_next(&state), u64(i + 1))));
    return deal;
}
#endif

#if WS_SHUFFLE == WS_HUNT
// `x` mixed into `seed`, as a hunt mixes its generators' seeds (`generations::mix`).
WS_DEV u64 mix(u64 seed, u64 x) {
    u64 state = seed ^ x * WS_SPLITMIX_GAMMA;
    return splitmix_next(&state);
}

// The seed of a hunt's `j`-th random deal: task `j % WS_HUNT_BATCH` of generation
// `j / WS_HUNT_BATCH`, its generator seeded from the hunt's seed and stream (WS_HUNT_BASE).
WS_DEV u64 deal_seed(u64 j) { return mix(mix(WS_HUNT_BASE, j / WS_HUNT_BATCH), j % WS_HUNT_BATCH); }
#else
// The seed of the `j`-th deal of a range: `j`.
WS_DEV u64 deal_seed(u64 j) { return j; }
#endif

// A thread's deals: seeds `seed..end`, and in a walk the deal of `seed`, stepped to.
struct Deals {
    u64 seed, end;
    Wide deal;
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
    w.bounds.first.h0 = w.bounds.first.h1 = w.bounds.past.h0 = w.bounds.past.h1 = zero();
#if WS_HAS_FIRST
    const Wide first = WS_FIRST;
    w.bounds.first = deal_hands(first);
#endif
#if WS_HAS_PAST
    const Wide past = WS_PAST;
    w.bounds.past = deal_hands(past);
#endif
#endif
#else
    const Wide sorted = WS_DECK;
    w.deal = sorted;
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
        Hands d = deal_hands(shuffle(deal_seed(seed), w->deal));
        u32 n = 1;
#endif
        g->h0 = hand_of(d.h0);
        g->h1 = hand_of(d.h1);
        g->len0 = WS_COUNT0;
        g->len1 = WS_COUNT1;
        g->rounds = g->wars = 0;
        g->end = WS_PLAYING;
        g->seed = seed;
        g->n = n;
        g->watch_at = WS_ROUND_BINS - 1;
        g->power = g->since = 0;
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
// and `bins` (this block's histograms); games it does not count go to `listed`, those worth
// `least` or more among them.
WS_DEV void walk_deals(u64 seed, u64 end, u32 *bins, u64 *out, u64 *listed, u64 capacity,
                       u64 least) {
    Counts c = {0, 0, 0, 0, 0, {0, 0, 0}};
    Deals w = open_deals(seed, end);
    Game g = Game();
    bool live = deal_next(&w, &g);
    while (live) {
        for (u32 i = 0; i < WS_DEAL_EVERY && g.end == WS_PLAYING; i++) play_round(&g);
        if (g.end != WS_PLAYING) {
            count_game(&g, &c, bins, out, listed, capacity, least);
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
// `first..first + count`, listing the games worth `least` or more; each block keeps its
// histograms in shared memory.
extern "C" __global__ void ws_walk(u64 first, u64 count, u64 per_thread, u64 *out, u64 *listed,
                                   u64 capacity, u64 least) {
    __shared__ u32 bins[WS_ALL_BINS];
    for (u32 i = threadIdx.x; i < WS_ALL_BINS; i += blockDim.x) bins[i] = 0;
    __syncthreads();
    u64 t = u64(blockIdx.x) * blockDim.x + threadIdx.x;
    u64 start = first + t * per_thread, stop = first + count;
    if (t * per_thread < count) {
        u64 end = stop - start < per_thread ? stop : start + per_thread;
        walk_deals(start, end, bins, out, listed, capacity, least);
    }
    __syncthreads();
    for (u32 i = threadIdx.x; i < WS_ALL_BINS; i += blockDim.x)
        if (bins[i]) atomicAdd(&out[WS_BINS + i], u64(bins[i]));
}
#endif
