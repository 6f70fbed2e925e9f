//! Shuffles (a seed gives a deal) and the round-robin deal.

use crate::cards::Card;

/// Modulus of the seed-004 generator: only `seed mod LCG_MODULUS` matters, so there are exactly
/// this many distinct lcg deals.
pub const LCG_MODULUS: u64 = 2_097_151;

/// How a seed becomes an order of the deck.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shuffle {
    /// The seed-004 linear congruential generator, one swap per position.
    Lcg,
    /// Fisher-Yates driven by SplitMix64, for the full 64-bit seed space.
    Splitmix,
}

impl Shuffle {
    pub const NAMES: [&'static str; 2] = ["lcg", "splitmix"];

    pub fn name(self) -> &'static str {
        match self {
            Shuffle::Lcg => "lcg",
            Shuffle::Splitmix => "splitmix",
        }
    }

    pub fn from_name(name: &str) -> Option<Shuffle> {
        match name {
            "lcg" => Some(Shuffle::Lcg),
            "splitmix" => Some(Shuffle::Splitmix),
            _ => None,
        }
    }

    /// Shuffles `deck` in place (it should hold the sorted deck).
    pub fn shuffle(self, seed: u64, deck: &mut [Card]) {
        match self {
            Shuffle::Lcg => lcg_shuffle(seed, deck),
            Shuffle::Splitmix => splitmix_shuffle(seed, deck),
        }
    }
}

/// The seed-004 generator: `x = (445 x + 700001) mod 2097151`.
#[inline(always)]
pub fn lcg_next(x: u64) -> u64 {
    (445 * x + 700_001) % LCG_MODULUS
}

/// For `i` in `0..n`: advance the generator, swap cards `i` and `x mod n`.
pub fn lcg_shuffle(seed: u64, deck: &mut [Card]) {
    let mut xs = [0u32; MAX_LCG_DECK];
    if deck.len() <= MAX_LCG_DECK {
        let xs = &mut xs[..deck.len()];
        lcg_values(seed, xs);
        swap_by(xs, deck);
    } else {
        let mut x = seed % LCG_MODULUS;
        for i in 0..deck.len() {
            x = lcg_next(x);
            deck.swap(i, (x % deck.len() as u64) as usize);
        }
    }
}

/// The largest deck whose generator values `lcg_shuffle` keeps on the stack (the oorlog deck).
const MAX_LCG_DECK: usize = 108;

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
        a = a * 445 % LCG_MODULUS;
        c = (c * 445 + 700_001) % LCG_MODULUS;
        i += 1;
    }
    (a, c)
}

/// Independent chains the generator is split into (see `lcg_values`).
const LCG_CHAINS: usize = 8;
const LCG_JUMP: (u64, u64) = lcg_jump(LCG_CHAINS as u32);

/// `xs[k]`: the generator's value after `k + 1` steps from `seed`, the one that picks the swap
/// of card `k`. The serial chain is split in eight interleaved chains (each value is eight steps
/// after the one eight places back), so they run in parallel in the CPU.
fn lcg_values(seed: u64, xs: &mut [u32]) {
    let mut x = seed % LCG_MODULUS;
    for slot in xs.iter_mut().take(LCG_CHAINS) {
        x = mod_lcg(445 * x + 700_001);
        *slot = x as u32;
    }
    let (a, c) = LCG_JUMP;
    for i in LCG_CHAINS..xs.len() {
        xs[i] = mod_lcg(a * xs[i - LCG_CHAINS] as u64 + c) as u32;
    }
}

/// Swaps card `i` with card `xs[i] mod n`, for `i` in `0..n`.
fn swap_by(xs: &[u32], deck: &mut [Card]) {
    // The two real deck sizes get a constant divisor, which compiles to a multiply.
    match deck.len() {
        52 => swap_by_n::<52>(xs, deck),
        108 => swap_by_n::<108>(xs, deck),
        n => {
            for (i, &x) in xs.iter().enumerate() {
                deck.swap(i, x as usize % n);
            }
        }
    }
}

fn swap_by_n<const N: usize>(xs: &[u32], deck: &mut [Card]) {
    let deck: &mut [Card; N] = deck.try_into().expect("deck of N cards");
    for (i, r) in partners::<N>(xs).into_iter().enumerate() {
        deck.swap(i, r as usize);
    }
}

/// Shuffles decks of one size for a sweep's run of seeds. The generator is linear in the seed:
/// the value after `k` steps is `445^k seed + c_k (mod M)`, so from one seed to the next each
/// value grows by `445^k`. Remembering the last seed's values makes the next seed's one modular
/// addition per card (which vectorises) instead of a step of the generator.
#[derive(Clone, Debug)]
pub struct Dealer {
    /// The seed whose values `xs` holds.
    last: Option<u64>,
    /// As `lcg_values` gives them for `last`.
    xs: Box<[u32]>,
    /// `445^(k + 1) mod M`: how much `xs[k]` grows from one seed to the next.
    growth: Box<[u32]>,
}

impl Dealer {
    /// A dealer for decks of `cards` cards.
    pub fn new(cards: usize) -> Dealer {
        let mut power = 1;
        let growth = (0..cards)
            .map(|_| {
                power = power * 445 % LCG_MODULUS;
                power as u32
            })
            .collect();
        Dealer {
            last: None,
            xs: vec![0; cards].into_boxed_slice(),
            growth,
        }
    }

    /// Shuffles `deck` (the sorted deck, of the dealer's size) as `shuffle.shuffle` would.
    pub fn shuffle(&mut self, shuffle: Shuffle, seed: u64, deck: &mut [Card]) {
        if shuffle != Shuffle::Lcg || deck.len() != self.xs.len() {
            self.last = None;
            return shuffle.shuffle(seed, deck);
        }
        if self.last.and_then(|last| last.checked_add(1)) == Some(seed) {
            const M: u32 = LCG_MODULUS as u32;
            for (x, &step) in self.xs.iter_mut().zip(self.growth.iter()) {
                // Both below M < 2^21: the sum is below 2^22, and `M - 1 - sum` is negative
                // exactly when the sum needs M taken off (no branch, so the loop vectorises).
                let sum = *x + step;
                let wraps = ((M - 1).wrapping_sub(sum) as i32 >> 31) as u32;
                *x = sum - (M & wraps);
            }
        } else {
            lcg_values(seed, &mut self.xs);
        }
        self.last = Some(seed);
        swap_by(&self.xs, deck);
    }
}

/// Every swap's partner, in a loop of its own that vectorises: the swaps then know every
/// address at once.
fn partners<const N: usize>(xs: &[u32]) -> [u8; N] {
    let xs: &[u32; N] = xs.try_into().expect("one value per card");
    std::array::from_fn(|i| (xs[i] % N as u32) as u8)
}

/// SplitMix64: a tiny, well-mixed generator whose whole state is one `u64`.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` by multiply-shift (no modulo bias worth speaking of).
    #[inline(always)]
    pub fn below(&mut self, bound: usize) -> usize {
        ((self.next_u64() as u128 * bound as u128) >> 64) as usize
    }

    /// Fisher-Yates from the top index down, as RULES.md specifies.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

pub fn splitmix_shuffle(seed: u64, deck: &mut [Card]) {
    SplitMix64(seed).shuffle(deck);
}

/// The cards player `p` (0-based) receives from a round-robin deal to `players` players: cards
/// `p`, `p + players`, ... in that order, the first one on top.
pub fn dealt_to(deck: &[Card], players: usize, p: usize) -> impl Iterator<Item = Card> + '_ {
    deck.iter().skip(p).step_by(players).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::DeckKind;

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
        let mut deck = DeckKind::Standard.sorted();
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
        for kind in [DeckKind::Standard, DeckKind::Oorlog] {
            for shuffle in [Shuffle::Lcg, Shuffle::Splitmix] {
                for seed in [0, 1, 8_756_942, u64::MAX] {
                    let mut deck = kind.sorted();
                    shuffle.shuffle(seed, &mut deck);
                    let mut sorted = deck.clone();
                    sorted.sort();
                    let mut reference = kind.sorted();
                    reference.sort();
                    assert_eq!(sorted, reference);
                    assert_ne!(deck, kind.sorted(), "seed {seed} left the deck sorted");
                }
            }
        }
    }

    /// A dealer gives every seed the shuffle `lcg_shuffle` gives, whether the seeds come in a
    /// row, jump, wrap past the modulus or reach the end of the seed space.
    #[test]
    fn dealer_follows_any_order_of_seeds() {
        let m = LCG_MODULUS;
        let seeds = (0..300)
            .chain(m - 5..m + 5)
            .chain([7, 7, 8, 3, 4])
            .chain(u64::MAX - 3..=u64::MAX)
            .chain(0..3);
        for kind in [DeckKind::Standard, DeckKind::Oorlog] {
            let mut dealer = Dealer::new(kind.len());
            for seed in seeds.clone() {
                let mut dealt = kind.sorted();
                dealer.shuffle(Shuffle::Lcg, seed, &mut dealt);
                let mut plain = kind.sorted();
                lcg_shuffle(seed, &mut plain);
                assert_eq!(dealt, plain, "seed {seed}");
            }
            let mut dealt = kind.sorted();
            dealer.shuffle(Shuffle::Splitmix, 9, &mut dealt);
            let mut plain = kind.sorted();
            splitmix_shuffle(9, &mut plain);
            assert_eq!(dealt, plain);
        }
    }

    /// The eight-chain shuffle equals the plain one-step-at-a-time definition.
    #[test]
    fn interleaved_lcg_equals_the_plain_definition() {
        for kind in [DeckKind::Standard, DeckKind::Oorlog] {
            for seed in (0..5000).chain([2_097_150, 8_756_942, u64::MAX]) {
                let mut fast = kind.sorted();
                lcg_shuffle(seed, &mut fast);
                let mut plain = kind.sorted();
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
        let mut a = DeckKind::Standard.sorted();
        let mut b = DeckKind::Standard.sorted();
        lcg_shuffle(5, &mut a);
        lcg_shuffle(5 + LCG_MODULUS, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn round_robin_deal_gives_the_first_players_the_extra_cards() {
        let deck = DeckKind::Oorlog.sorted();
        let sizes: Vec<usize> = (0..5).map(|p| dealt_to(&deck, 5, p).count()).collect();
        assert_eq!(sizes, [22, 22, 22, 21, 21]);
        let first: Vec<Card> = dealt_to(&deck, 2, 1).take(2).collect();
        assert_eq!(first, [deck[1], deck[3]]);
    }
}
