//! Shuffles (a seed gives a deal) and the deals into hands: `lcg` and `splitmix` shuffle the
//! sorted deck, `lex` numbers every distinct arrangement of its values (see `lex`).

pub(crate) mod lex;
pub(crate) mod mirror;
pub(crate) mod orders;
pub(crate) mod seeds;

use crate::rules::{Card, Deal, Deck};
use lex::Lex;
use seeds::{check_seeds, RangeError, Seeds};
use std::ops::Range;

/// Modulus of the seed-004 generator: only `seed mod LCG_MODULUS` matters, so there are exactly
/// this many distinct lcg deals.
pub const LCG_MODULUS: u64 = 2_097_151;
/// The seed-004 generator's multiplier and increment.
pub(crate) const LCG_MULTIPLIER: u64 = 445;
pub(crate) const LCG_INCREMENT: u64 = 700_001;

/// How a seed becomes an order of the deck.
///
/// ```
/// use warsweep::{Deck, Engine, Preset, Rules, Seeds, Shuffle};
/// // Every distinct deal of a 4x4 deck, numbered from 0 by lex.
/// let every = Seeds::choose(None, Shuffle::Lex, Deck::parse("4x4")?, None)?;
/// assert_eq!(every.len(), 63_063_000);
/// let mut engine = Engine::new(Rules::preset(Preset::Codingame));
/// assert_eq!(engine.play_seed("splitmix".parse()?, 0)?, engine.play_seed(Shuffle::Splitmix, 0)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Shuffle {
    /// The seed-004 generator: 2,097,151 distinct deals
    Lcg,
    /// Fisher-Yates over SplitMix64: the whole 64-bit seed space
    Splitmix,
    /// Every distinct deal in lexicographic order of values (seeds 0..M)
    Lex,
}

crate::rules::named!(Shuffle, Lcg = "lcg", Splitmix = "splitmix", Lex = "lex");

impl Shuffle {
    /// What to tell a user of the seeds below `end`, where some deal what smaller seeds deal:
    /// the lcg shuffle has 2,097,151 distinct deals, and seed s deals like s mod 2,097,151.
    ///
    /// ```
    /// use warsweep::Shuffle;
    /// assert!(Shuffle::Lcg.repeats_note(2_097_151).is_none());
    /// assert!(Shuffle::Lcg.repeats_note(3_000_001).unwrap().contains("s mod 2,097,151"));
    /// assert!(Shuffle::Splitmix.repeats_note(u128::from(u64::MAX)).is_none());
    /// ```
    pub fn repeats_note(self, end: u128) -> Option<String> {
        let m = crate::text::group(LCG_MODULUS);
        (self == Shuffle::Lcg && end > u128::from(LCG_MODULUS)).then(|| {
            format!("the lcg shuffle has {m} distinct deals; seeds from {m} on repeat them (seed s deals like s mod {m})")
        })
    }
}

/// The seed-004 generator: `x = (445 x + 700001) mod 2097151`.
#[inline(always)]
pub fn lcg_next(x: u64) -> u64 {
    (LCG_MULTIPLIER * x + LCG_INCREMENT) % LCG_MODULUS
}

/// For `i` in `0..n`: advance the generator, swap cards `i` and `x mod n`.
pub fn lcg_shuffle<T: Copy>(seed: u64, deck: &mut [T]) {
    let (Some(&first), true) = (deck.first(), deck.len() <= TABLE) else {
        let mut x = seed % LCG_MODULUS;
        for i in 0..deck.len() {
            x = lcg_next(x);
            deck.swap(i, (x % deck.len() as u64) as usize);
        }
        return;
    };
    let mut xs = [0.0; TABLE];
    let xs = &mut xs[..deck.len()];
    lcg_values(seed, xs);
    swap_by(xs, deck, &mut [first; TABLE]);
}

/// `y mod (2^21 - 1)` for `y < 2^42`, by folding (the modulus is a Mersenne number).
#[inline(always)]
fn mod_lcg(y: u64) -> u64 {
    let y = (y & LCG_MODULUS) + (y >> 21);
    let y = (y & LCG_MODULUS) + (y >> 21);
    if y >= LCG_MODULUS {
        y - LCG_MODULUS
    } else {
        y
    }
}

/// `x -> 445^k x + c_k (mod M)`: `k` steps of the generator at once.
const fn lcg_jump(k: u32) -> (u64, u64) {
    let (mut a, mut c) = (1, 0);
    let mut i = 0;
    while i < k {
        a = a * LCG_MULTIPLIER % LCG_MODULUS;
        c = (c * LCG_MULTIPLIER + LCG_INCREMENT) % LCG_MODULUS;
        i += 1;
    }
    (a, c)
}

/// Independent chains the generator is split into (see [`lcg_values`]).
const LCG_CHAINS: usize = 8;
const LCG_JUMP: (u64, u64) = lcg_jump(LCG_CHAINS as u32);

/// `xs[k]`: the generator's value after `k + 1` steps from `seed`, the one that picks the swap
/// of card `k`, as a float (exact: the values are below 2^21). The serial chain is split in
/// eight interleaved chains (each value is eight steps after the one eight places back), so
/// they run in parallel in the CPU.
fn lcg_values(seed: u64, xs: &mut [f32]) {
    let mut chains = [0u64; LCG_CHAINS];
    let mut x = seed % LCG_MODULUS;
    for (chain, slot) in chains.iter_mut().zip(xs.iter_mut()) {
        x = mod_lcg(LCG_MULTIPLIER * x + LCG_INCREMENT);
        (*chain, *slot) = (x, x as f32);
    }
    let (a, c) = LCG_JUMP;
    for (i, slot) in xs.iter_mut().enumerate().skip(LCG_CHAINS) {
        let chain = &mut chains[i % LCG_CHAINS];
        *chain = mod_lcg(a * *chain + c);
        *slot = *chain as f32;
    }
}

/// Decks up to this size are shuffled in a table of this many cards: a partner is a byte, so
/// the swaps need no bounds check.
const TABLE: usize = 256;

/// Swaps card `i` with card `xs[i] mod n`, for `i` in `0..n` (`xs` as [`lcg_values`] gives
/// them). `table`: room for decks up to [`TABLE`] cards.
fn swap_by<T: Copy>(xs: &[f32], deck: &mut [T], table: &mut [T; TABLE]) {
    let n = deck.len();
    if n > TABLE {
        for (i, &x) in xs.iter().enumerate() {
            deck.swap(i, x as usize % n);
        }
        return;
    }
    // Every partner first, in a loop of its own that vectorises: the swaps then know every
    // address at once.
    let mut partners = [0u8; TABLE];
    remainders(xs, &mut partners[..n]);
    swap_with(&partners[..n], deck, table);
}

/// Swaps card `i` with card `partners[i]`, for `i` in `0..n` (`n <= TABLE`: the length of
/// `deck` and of `partners`), in `table`.
fn swap_with<T: Copy>(partners: &[u8], deck: &mut [T], table: &mut [T; TABLE]) {
    let n = deck.len();
    debug_assert!(n <= TABLE && partners.len() == n);
    table[..n].copy_from_slice(deck);
    // Indexed: the compiler then knows `i < n <= TABLE` and unrolls with one exit test per
    // pair (an iterator over the partners kept a second one).
    (0..n).for_each(|i| table.swap(i, usize::from(partners[i])));
    deck.copy_from_slice(&table[..n]);
}

/// `1.5 * 2^23`: a float of magnitude below 2^22 added to it is rounded to an integer, which
/// the sum's low mantissa bits hold.
const ROUND: f32 = 12_582_912.0;

/// `rs[i] = xs[i] mod n` (`n`: the length of `rs`, at most 256; `xs`: whole numbers below 2^21),
/// in floats: baseline x86-64 has no vector 32-bit integer multiply, so the integer remainder
/// does not vectorise well (19 instructions for four values against 8).
///
/// Exact: with `x = q n + r`, `w = (x - (n - 1) / 2) / n` is `q` plus `(r - (n - 1) / 2) / n`,
/// which is at most `1/2 - 1/(2n)` either side. `x - (n - 1) / 2` is exact (23 bits); the
/// product by `1/n` is off by less than `2^-23 |w| < 2^-2 / n` (two roundings, `|w| < 2^21 / n`),
/// so rounding it to the nearest integer gives `q`. Then `x - q n` is exact. Checked for every
/// `x` in `tests::remainders_are_exact`.
fn remainders(xs: &[f32], rs: &mut [u8]) {
    let n = rs.len() as f32;
    let (inv, centre) = (1.0 / n, (n - 1.0) / 2.0);
    for (r, &x) in rs.iter_mut().zip(xs) {
        *r = remainder(x, n, inv, centre);
    }
}

/// `x mod n`, `inv` being `1 / n` and `centre` `(n - 1) / 2` (see `remainders`).
#[inline(always)]
fn remainder(x: f32, n: f32, inv: f32, centre: f32) -> u8 {
    let q = ((x - centre) * inv + ROUND) - ROUND;
    ((x - q * n) + ROUND).to_bits() as u8
}

/// Steps every value of `xs` from one seed to the next (adds its `growth`, mod M) and puts its
/// remainder mod `n` (the length of `rs`) in `rs`: `remainders` after the step, in the same
/// loop, so that each value is loaded once.
#[inline(always)]
fn step_remainders(xs: &mut [f32], growth: &[f32], rs: &mut [u8]) {
    let n = rs.len() as f32;
    let (inv, centre) = (1.0 / n, (n - 1.0) / 2.0);
    for ((x, &step), r) in xs.iter_mut().zip(growth).zip(rs.iter_mut()) {
        *x = next_value(*x, step);
        *r = remainder(*x, n, inv, centre);
    }
}

/// [`step_remainders`] compiled for AVX2: eight values a vector instead of four, and
/// three-operand instructions (no copies).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn step_remainders_avx2(xs: &mut [f32], growth: &[f32], rs: &mut [u8]) {
    step_remainders(xs, growth, rs);
}

/// A generator value `x` for the next seed: `x + step mod M`.
#[inline(always)]
fn next_value(x: f32, step: f32) -> f32 {
    const M: f32 = LCG_MODULUS as f32;
    // Both below M < 2^21: the sum is exact, and so is taking M off.
    let sum = x + step;
    sum - if sum >= M { M } else { 0.0 }
}

/// Shuffles one deck for a run of seeds, remembering what makes the next seed cheap.
///
/// The lcg generator is linear in the seed: the value after `k` steps is
/// `445^k seed + c_k (mod M)`, so from one seed to the next each value grows by `445^k`.
/// Remembering the last seed's values makes the next seed's one modular addition per card
/// (which vectorises) instead of a step of the generator. `lex` steps from one arrangement to
/// the next instead of computing each from its number.
#[derive(Clone, Debug)]
pub struct Dealer {
    deck: Deck,
    lex: Lex,
    /// The seed whose values `xs` holds.
    last: Option<u64>,
    /// As [`lcg_values`] gives them for `last`.
    xs: Box<[f32]>,
    /// `445^(k + 1) mod M`: how much `xs[k]` grows from one seed to the next.
    growth: Box<[f32]>,
    /// Where the deck is shuffled (see [`swap_by`]).
    table: Box<[Card; TABLE]>,
    /// Each card's partner in the swaps (see [`swap_with`]).
    partners: Box<[u8; TABLE]>,
}

impl Dealer {
    /// A dealer for `deck`.
    pub fn new(deck: Deck) -> Dealer {
        let cards = deck.size();
        let mut power = 1;
        let growth = (0..cards)
            .map(|_| {
                power = power * LCG_MULTIPLIER % LCG_MODULUS;
                power as f32
            })
            .collect();
        Dealer {
            deck,
            lex: Lex::new(deck),
            last: None,
            xs: vec![0.0; cards].into_boxed_slice(),
            growth,
            table: Box::new([Card::default(); TABLE]),
            partners: Box::new([0; TABLE]),
        }
    }

    /// Refuses `seeds` the shuffle has no deal for: `lex` seeds past the deck's last deal, or
    /// any `lex` seed of a deck with more deals than seeds can number (see [`check_seeds`]). The
    /// check made before every game: one comparison with the count of deals kept here.
    #[inline]
    pub fn check(&self, shuffle: Shuffle, seeds: Seeds) -> Result<(), RangeError> {
        match (shuffle, self.lex.deals()) {
            (Shuffle::Lex, Some(deals)) if seeds.end() <= u128::from(deals) => Ok(()),
            _ => check_seeds(shuffle, self.deck, seeds),
        }
    }

    /// Seed `seed`'s `lex` arrangement of the deck's values, without building cards.
    pub fn lex_values(&mut self, seed: u64) -> &[u8] {
        self.lex.values(seed)
    }

    /// The `lex` arrangements of `seeds`' values in turn, handed to `each` (see [`Lex::walk`]).
    #[inline(always)]
    pub fn lex_walk(&mut self, seeds: Range<u64>, each: impl FnMut(u64, &[u8])) {
        self.lex.walk(seeds, each);
    }

    /// The `lex` seed of the arrangement `values` (`lex_values`' inverse).
    pub fn lex_seed_of(&mut self, values: &[u8]) -> u64 {
        self.lex.seed_of(values)
    }

    /// Whether `lex_walk_nibbles` can step this deck (see [`Lex::fits_nibbles`]).
    pub fn lex_fits_nibbles(&self) -> bool {
        self.lex.fits_nibbles()
    }

    /// The `lex` arrangements of `seeds` in turn, each as one word, value `k` in nibble `k`
    /// (see [`Lex::walk_nibbles`]).
    #[inline(always)]
    pub fn lex_walk_nibbles(&mut self, seeds: Range<u64>, each: impl FnMut(u64, u64)) {
        self.lex.walk_nibbles(seeds, each);
    }

    /// Puts seed `seed`'s order of the deck in `deck`, which holds the sorted deck.
    pub fn shuffle(&mut self, shuffle: Shuffle, seed: u64, deck: &mut [Card]) {
        match shuffle {
            Shuffle::Splitmix => return splitmix_shuffle(seed, deck),
            Shuffle::Lex => return self.lex.arrange(seed, deck),
            Shuffle::Lcg if deck.len() != self.xs.len() => return lcg_shuffle(seed, deck),
            Shuffle::Lcg => {}
        }
        let next = self.last.and_then(|last| last.checked_add(1)) == Some(seed);
        self.last = Some(seed);
        if deck.len() > TABLE {
            if next {
                for (x, &step) in self.xs.iter_mut().zip(self.growth.iter()) {
                    *x = next_value(*x, step);
                }
            } else {
                lcg_values(seed, &mut self.xs);
            }
            return swap_by(&self.xs, deck, &mut self.table);
        }
        let partners = &mut self.partners[..deck.len()];
        if next {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, just checked.
                unsafe { step_remainders_avx2(&mut self.xs, &self.growth, partners) };
            } else {
                step_remainders(&mut self.xs, &self.growth, partners);
            }
            #[cfg(not(target_arch = "x86_64"))]
            step_remainders(&mut self.xs, &self.growth, partners);
        } else {
            lcg_values(seed, &mut self.xs);
            remainders(&self.xs, partners);
        }
        swap_with(partners, deck, &mut self.table);
    }
}

/// SplitMix64: a tiny, well-mixed generator whose whole state is one `u64`.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// What the state grows by at each step, and the two multipliers of the mix.
    pub(crate) const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    pub(crate) const MIX: [u64; 2] = [0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB];

    #[inline(always)]
    /// The next value of the SplitMix64 sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(Self::GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(Self::MIX[0]);
        z = (z ^ (z >> 27)).wrapping_mul(Self::MIX[1]);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` by multiply-shift (no modulo bias worth speaking of).
    #[inline(always)]
    pub fn below(&mut self, bound: usize) -> usize {
        ((self.next_u64() as u128 * bound as u128) >> 64) as usize
    }

    /// Fisher-Yates from the top index down, as `docs/rules.md` specifies.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Shuffles `deck` by Fisher-Yates, driven by SplitMix64 from `seed` (docs/rules.md's `splitmix`).
pub fn splitmix_shuffle<T>(seed: u64, deck: &mut [T]) {
    SplitMix64(seed).shuffle(deck);
}

/// The cards player `p` (0-based) receives from `deal` of `deck` to `players` players, the first
/// one on top. Round-robin: cards `p`, `p + players`, ...; with `N mod P` extra cards the first
/// players get one more. Blocks: consecutive blocks, player 1's first; the first
/// `P - (N mod P)` blocks are one card smaller.
pub fn dealt_to<T: Copy>(
    deck: &[T],
    deal: Deal,
    players: usize,
    p: usize,
) -> impl Iterator<Item = T> + '_ {
    let (start, step, count) = dealt_span(deck.len(), deal, players, p);
    deck[start.min(deck.len())..]
        .iter()
        .step_by(step)
        .take(count)
        .copied()
}

/// Where player `p`'s cards lie in a deck of `n` cards: `count` cards from `start`, `step` apart.
pub fn dealt_span(n: usize, deal: Deal, players: usize, p: usize) -> (usize, usize, usize) {
    match deal {
        Deal::RoundRobin => (p, players, (n + players - 1 - p) / players),
        Deal::Blocks => {
            let (small, extra) = (n / players, n % players);
            let smaller = players - extra;
            let start = p * small + p.saturating_sub(smaller);
            (start, 1, small + usize::from(p >= smaller))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Test decks: the standard one and oorlog's.
    const KINDS: [Deck; 2] = [Deck::STANDARD, Deck::OORLOG];

    /// The swap table printed in seed 004, for seed 8756942.
    #[test]
    fn lcg_matches_the_seed_004_swap_table() {
        let mut x = 8_756_942 % LCG_MODULUS;
        let expected = [
            (1_032_633, 17),
            (945_617, 49),
            (2_069_366, 26),
            (918_582, 2),
            (524_546, 22),
        ];
        for (value, r) in expected {
            x = lcg_next(x);
            assert_eq!((x, x % 52), (value, r));
        }
        // The first five swaps of the shuffle itself, with the cards the table names.
        let mut deck = Deck::STANDARD.cards();
        let mut x = 8_756_942 % LCG_MODULUS;
        let names = [
            ("2H", "6D"),
            ("3H", "QS"),
            ("4H", "2C"),
            ("5H", "2C"),
            ("6H", "JD"),
        ];
        for (i, (a, b)) in names.iter().enumerate() {
            x = lcg_next(x);
            let r = (x % 52) as usize;
            assert_eq!(
                (deck[i].to_string(), deck[r].to_string()),
                (a.to_string(), b.to_string())
            );
            deck.swap(i, r);
        }
    }

    #[test]
    fn shuffles_are_permutations() {
        for kind in KINDS {
            for shuffle in [Shuffle::Lcg, Shuffle::Splitmix] {
                for seed in [0, 1, 8_756_942, u64::MAX] {
                    let mut deck = kind.cards();
                    Dealer::new(kind).shuffle(shuffle, seed, &mut deck);
                    let mut sorted = deck.clone();
                    sorted.sort();
                    let mut reference = kind.cards();
                    reference.sort();
                    assert_eq!(sorted, reference);
                    assert_ne!(deck, kind.cards(), "seed {seed} left the deck sorted");
                }
            }
        }
    }

    /// The float remainder is the integer one for every generator value, for the two decks of
    /// the presets and the extremes of the table.
    #[test]
    fn stepped_remainders_agree_with_integers_on_every_path() {
        for n in [1, 2, 3, 7, 52, 100, 108, 255, 256] {
            let dealer = Dealer::new(Deck::OORLOG);
            let growth: Vec<f32> = (0..n)
                .map(|k| dealer.growth[k % dealer.growth.len()])
                .collect();
            for start in [0, 1_000_000, LCG_MODULUS - 40] {
                let mut xs = vec![0.0; n];
                lcg_values(start, &mut xs);
                let mut fast = xs.clone();
                let (mut rs, mut fast_rs) = (vec![0u8; n], vec![0u8; n]);
                for _ in 0..40 {
                    let expected: Vec<f32> = xs
                        .iter()
                        .zip(&growth)
                        .map(|(&x, &g)| ((x as u64 + g as u64) % LCG_MODULUS) as f32)
                        .collect();
                    step_remainders(&mut xs, &growth, &mut rs);
                    assert_eq!(xs, expected);
                    for (&x, &r) in xs.iter().zip(&rs) {
                        assert_eq!(u64::from(r), x as u64 % n as u64, "{x} mod {n}");
                    }
                    #[cfg(target_arch = "x86_64")]
                    if std::arch::is_x86_feature_detected!("avx2") {
                        // SAFETY: the CPU has AVX2, just checked.
                        unsafe { step_remainders_avx2(&mut fast, &growth, &mut fast_rs) };
                        assert_eq!((&fast, &fast_rs), (&xs, &rs), "AVX2, {n} cards");
                    }
                }
            }
        }
        // The dealer itself (whichever path this CPU takes) against docs/rules.md's loop, across
        // the generator's wrap.
        let mut dealer = Dealer::new(Deck::OORLOG);
        for seed in (LCG_MODULUS - 50)..(LCG_MODULUS + 50) {
            let mut deck = Deck::OORLOG.cards();
            dealer.shuffle(Shuffle::Lcg, seed, &mut deck);
            let mut plain = Deck::OORLOG.cards();
            let (mut x, n) = (seed % LCG_MODULUS, plain.len());
            for i in 0..n {
                x = lcg_next(x);
                plain.swap(i, (x % n as u64) as usize);
            }
            assert_eq!(deck, plain, "seed {seed}");
        }
    }

    #[test]
    fn remainders_are_exact() {
        for n in [1, 2, 3, 7, 52, 100, 108, 255, 256] {
            let mut rs = vec![0u8; n];
            let values: Vec<u32> = (0..LCG_MODULUS as u32).collect();
            for chunk in values.chunks(n) {
                let xs: Vec<f32> = chunk.iter().map(|&x| x as f32).collect();
                remainders(&xs, &mut rs[..chunk.len()]);
                if chunk.len() < n {
                    // The last, shorter chunk: checked against its own length.
                    for (&x, &r) in chunk.iter().zip(&rs) {
                        assert_eq!(
                            u32::from(r),
                            x % chunk.len() as u32,
                            "{x} mod {}",
                            chunk.len()
                        );
                    }
                    continue;
                }
                for (&x, &r) in chunk.iter().zip(&rs) {
                    assert_eq!(u32::from(r), x % n as u32, "{x} mod {n}");
                }
            }
        }
    }

    /// A dealer gives every seed the shuffle [`lcg_shuffle`] gives, whether the seeds come in a
    /// row, jump, wrap past the modulus or reach the end of the seed space.
    #[test]
    fn dealer_follows_any_order_of_seeds() {
        let m = LCG_MODULUS;
        let seeds = (0..300)
            .chain(m - 5..m + 5)
            .chain([7, 7, 8, 3, 4])
            .chain(u64::MAX - 3..=u64::MAX)
            .chain(0..3);
        for kind in KINDS {
            let mut dealer = Dealer::new(kind);
            for seed in seeds.clone() {
                let mut dealt = kind.cards();
                dealer.shuffle(Shuffle::Lcg, seed, &mut dealt);
                let mut plain = kind.cards();
                lcg_shuffle(seed, &mut plain);
                assert_eq!(dealt, plain, "seed {seed}");
            }
            let mut dealt = kind.cards();
            dealer.shuffle(Shuffle::Splitmix, 9, &mut dealt);
            let mut plain = kind.cards();
            splitmix_shuffle(9, &mut plain);
            assert_eq!(dealt, plain);
        }
    }

    /// The eight-chain shuffle equals the plain one-step-at-a-time definition.
    #[test]
    fn interleaved_lcg_equals_the_plain_definition() {
        for kind in KINDS {
            for seed in (0..5000).chain([2_097_150, 8_756_942, u64::MAX]) {
                let mut fast = kind.cards();
                lcg_shuffle(seed, &mut fast);
                let mut plain = kind.cards();
                let n = plain.len() as u64;
                let mut x = seed % LCG_MODULUS;
                for i in 0..plain.len() {
                    x = lcg_next(x);
                    plain.swap(i, (x % n) as usize);
                }
                assert_eq!(fast, plain, "seed {seed}");
            }
        }
    }

    #[test]
    fn lcg_seeds_repeat_after_the_modulus() {
        let mut a = Deck::STANDARD.cards();
        let mut b = Deck::STANDARD.cards();
        lcg_shuffle(5, &mut a);
        lcg_shuffle(5 + LCG_MODULUS, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn round_robin_deal_gives_the_first_players_the_extra_cards() {
        let deck = Deck::OORLOG.cards();
        let rr = Deal::RoundRobin;
        let sizes: Vec<usize> = (0..5).map(|p| dealt_to(&deck, rr, 5, p).count()).collect();
        assert_eq!(sizes, [22, 22, 22, 21, 21]);
        let first: Vec<Card> = dealt_to(&deck, rr, 2, 1).take(2).collect();
        assert_eq!(first, [deck[1], deck[3]]);
    }

    #[test]
    fn blocks_deal_gives_the_last_players_the_extra_cards() {
        let deck = Deck::OORLOG.cards();
        let b = Deal::Blocks;
        let sizes: Vec<usize> = (0..5).map(|p| dealt_to(&deck, b, 5, p).count()).collect();
        assert_eq!(sizes, [21, 21, 22, 22, 22]);
        let all: Vec<Card> = (0..5).flat_map(|p| dealt_to(&deck, b, 5, p)).collect();
        assert_eq!(all, deck);
        let odd = &deck[..7];
        let p1: Vec<Card> = dealt_to(odd, b, 2, 0).collect();
        assert_eq!(p1, odd[..3]);
        for players in 2..=12 {
            for n in players..40 {
                for deal in [Deal::RoundRobin, Deal::Blocks] {
                    let total: usize = (0..players)
                        .map(|p| dealt_to(&deck[..n], deal, players, p).count())
                        .sum();
                    assert_eq!(total, n, "{deal:?} {players} {n}");
                }
            }
        }
    }
}
