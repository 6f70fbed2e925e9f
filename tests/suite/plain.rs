//! A second implementation of `docs/rules.md`, deliberately plain and written apart from the
//! engine: hands are queues of values, every rule is spelt out where it applies, and nothing is
//! shared with the library but the enums that name the rules. The oracle of the differential
//! tests (`oracle.rs`) and of the `paths` fuzz target, which includes this file.

use std::collections::{HashMap, VecDeque};
use warsweep::Shuffle;
use warsweep::{Deal, Gather, Ranking, ShortWar, WonPile};
use warsweep::{GameResult, Outcome};

/// Everything a game depends on, in plain numbers and the rule enums.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Setting {
    pub(crate) copies: usize,
    pub(crate) values: usize,
    pub(crate) jokers: usize,
    pub(crate) players: usize,
    pub(crate) face_down: usize,
    pub(crate) short_war: ShortWar,
    pub(crate) gather: Gather,
    pub(crate) deal: Deal,
    pub(crate) ranking: Ranking,
    pub(crate) won_pile: WonPile,
    pub(crate) max_rounds: u64,
}

/// The program's own choices where docs/rules.md leaves the sequence to it: the generators of the
/// `random` gather and of won piles are SplitMix64 seeded with the game's seed xor these.
pub(crate) const GATHER_SALT: u64 = 0x5EED_6A7E_11E2_0B5D;
pub(crate) const PILE_SALT: u64 = 0x9D1E_5EED_0FC0_DE55;

/// docs/rules.md's SplitMix64.
pub(crate) struct Mix(pub(crate) u64);

impl Mix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fisher-Yates from the last place down, as the `splitmix` shuffle.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = ((self.next() as u128 * (i as u128 + 1)) >> 64) as usize;
            items.swap(i, j);
        }
    }
}

/// The deck before any shuffle, as values `0..V` (0 weakest): copy by copy, then the jokers.
pub(crate) fn sorted_deck(s: &Setting) -> Vec<u8> {
    let mut deck = Vec::new();
    for _ in 0..s.copies {
        deck.extend(0..s.values as u8);
    }
    deck.extend(std::iter::repeat_n(s.values as u8 - 1, s.jokers));
    deck
}

/// How many distinct arrangements `counts` (cards of each value) have, if that fits in a
/// `u128` along the way.
pub(crate) fn arrangements(counts: &[usize]) -> Option<u128> {
    let mut total = 0usize;
    let mut result: u128 = 1;
    for &c in counts {
        for i in 1..=c {
            total += 1;
            // result * total / i stays exact: it is a product of binomials at every step.
            result = result.checked_mul(total as u128)? / i as u128;
        }
    }
    Some(result)
}

/// The deck `shuffle` makes of `seed`.
pub(crate) fn shuffled(s: &Setting, shuffle: Shuffle, seed: u64) -> Vec<u8> {
    let mut deck = sorted_deck(s);
    let n = deck.len();
    match shuffle {
        Shuffle::Lcg => {
            let mut x = seed % 2_097_151;
            for i in 0..n {
                x = (445 * x + 700_001) % 2_097_151;
                deck.swap(i, (x % n as u64) as usize);
            }
        }
        Shuffle::Splitmix => Mix(seed).shuffle(&mut deck),
        Shuffle::Lex => {
            // The seed-th arrangement of the values in lexicographic order.
            let mut counts = vec![0usize; s.values];
            for &v in &deck {
                counts[v as usize] += 1;
            }
            let mut k = seed as u128;
            for place in &mut deck {
                for v in 0..s.values {
                    if counts[v] == 0 {
                        continue;
                    }
                    counts[v] -= 1;
                    let after = arrangements(&counts).expect("a lex deck numbers its deals");
                    if k < after {
                        *place = v as u8;
                        break;
                    }
                    k -= after;
                    counts[v] += 1;
                }
            }
        }
    }
    deck
}

/// The hands the deal gives, top card first.
pub(crate) fn dealt(s: &Setting, deck: &[u8]) -> Vec<VecDeque<u8>> {
    let (n, p) = (deck.len(), s.players);
    let mut hands = vec![VecDeque::new(); p];
    match s.deal {
        Deal::RoundRobin => {
            for (i, &card) in deck.iter().enumerate() {
                hands[i % p].push_back(card);
            }
        }
        Deal::Blocks => {
            // The first p - (n mod p) blocks are the smaller ones.
            let mut at = 0;
            for (q, hand) in hands.iter_mut().enumerate() {
                let size = n / p + usize::from(q >= p - n % p);
                hand.extend(&deck[at..at + size]);
                at += size;
            }
        }
    }
    hands
}

/// The strongest of the values shown together.
pub(crate) fn strongest(s: &Setting, shown: &[u8]) -> u8 {
    let top = s.values as u8 - 1;
    let highest = *shown.iter().max().unwrap();
    let has = |v: u8| shown.contains(&v);
    match s.ranking {
        Ranking::Standard => highest,
        Ranking::Oorlog => {
            // Values are ranks only up to 13 values: value v is rank 13 - V + v of 2..A.
            if s.values > 13 {
                return highest;
            }
            let rank = |v: u8| 13 - s.values + v as usize;
            let lows: Vec<u8> = shown.iter().copied().filter(|&v| rank(v) <= 1).collect();
            if has(top) && !lows.is_empty() {
                *lows.iter().max().unwrap()
            } else {
                highest
            }
        }
        Ranking::Cyclic => {
            if has(top) && has(0) {
                0
            } else {
                highest
            }
        }
    }
}

/// One game in progress.
pub(crate) struct Game {
    s: Setting,
    hands: Vec<VecDeque<u8>>,
    piles: Vec<Vec<u8>>,
    gather_rng: Mix,
    pile_rng: Mix,
}

impl Game {
    /// The game of `hands` under `s`, its generators seeded from `seed`.
    fn of(s: &Setting, hands: Vec<VecDeque<u8>>, seed: u64) -> Game {
        Game {
            s: *s,
            hands,
            piles: vec![Vec::new(); s.players],
            gather_rng: Mix(seed ^ GATHER_SALT),
            pile_rng: Mix(seed ^ PILE_SALT),
        }
    }

    /// Cards player `p` holds, hand and won pile.
    fn held(&self, p: usize) -> usize {
        self.hands[p].len() + self.piles[p].len()
    }

    /// Player `p`'s next card; an empty hand first takes its shuffled won pile.
    fn draw(&mut self, p: usize) -> u8 {
        if self.hands[p].is_empty() {
            let mut pile = std::mem::take(&mut self.piles[p]);
            self.pile_rng.shuffle(&mut pile);
            self.hands[p] = pile.into();
        }
        self.hands[p].pop_front().unwrap()
    }

    /// The outcome when the player(s) holding the most cards take it.
    fn most_cards(&self) -> Outcome {
        let most = (0..self.s.players).map(|p| self.held(p)).max().unwrap();
        let holders: Vec<usize> = (0..self.s.players)
            .filter(|&p| self.held(p) == most)
            .collect();
        if holders.len() == 1 {
            Outcome::Win(holders[0])
        } else {
            Outcome::Draw
        }
    }

    /// Plays one round; the game's end if it ended, and whether the round was finished (won)
    /// first. Adds its battles and wars.
    fn round(&mut self, battles: &mut u64, wars: &mut u64) -> Option<(Outcome, bool)> {
        let s = self.s;
        // Two-player policies: a player without a card at a battle's start loses.
        if s.short_war != ShortWar::MostCards {
            match (self.held(0), self.held(1)) {
                (0, 0) => return Some((Outcome::Draw, false)),
                (0, _) => return Some((Outcome::Win(1), false)),
                (_, 0) => return Some((Outcome::Win(0), false)),
                _ => {}
            }
        }
        // The table: (player, value) in the order the cards reached it.
        let mut table: Vec<(usize, u8)> = Vec::new();
        *battles += 1;
        for p in 0..s.players {
            let card = self.draw(p);
            table.push((p, card));
        }
        let mut from = 0;
        let winner = loop {
            let shown: Vec<u8> = table[from..].iter().map(|&(_, v)| v).collect();
            let best = strongest(&s, &shown);
            let tied: Vec<usize> = table[from..]
                .iter()
                .filter(|&&(_, v)| v == best)
                .map(|&(p, _)| p)
                .collect();
            if tied.len() == 1 {
                break tied[0];
            }
            *wars += 1;
            let d = s.face_down;
            let fewest = tied.iter().map(|&p| self.held(p)).min().unwrap();
            let down = if fewest > d {
                d
            } else {
                let unfinished = |outcome| Some((outcome, false));
                match s.short_war {
                    ShortWar::Draw => return unfinished(Outcome::Draw),
                    ShortWar::Shorten => {
                        if fewest >= 1 {
                            fewest - 1
                        } else {
                            let with: Vec<usize> =
                                tied.iter().copied().filter(|&p| self.held(p) > 0).collect();
                            return unfinished(if with.len() == 1 {
                                Outcome::Win(with[0])
                            } else {
                                Outcome::Draw
                            });
                        }
                    }
                    ShortWar::FirstOutLoses => {
                        let a = self.held(tied[0]).min(d + 1);
                        let b = self.held(tied[1]).min(d + 1);
                        return unfinished(if a < b {
                            Outcome::Win(tied[1])
                        } else if b < a {
                            Outcome::Win(tied[0])
                        } else {
                            Outcome::Draw
                        });
                    }
                    ShortWar::MostCards => return unfinished(self.most_cards()),
                }
            };
            // Face down card by card, the tied players in player order, then one shown each.
            for _ in 0..down {
                for &p in &tied {
                    let card = self.draw(p);
                    table.push((p, card));
                }
            }
            *battles += 1;
            from = table.len();
            for &p in &tied {
                let card = self.draw(p);
                table.push((p, card));
            }
        };
        let gathered = self.gather(&table, from, winner);
        match s.won_pile {
            WonPile::None => self.hands[winner].extend(gathered),
            WonPile::Shuffled => self.piles[winner].extend(gathered),
        }
        // Most cards: the game ends after any round that leaves a player without cards.
        if s.short_war == ShortWar::MostCards && (0..s.players).any(|p| self.held(p) == 0) {
            return Some((self.most_cards(), true));
        }
        None
    }

    /// The table in the order the winner takes it; `from` is where the deciding battle starts.
    fn gather(&mut self, table: &[(usize, u8)], from: usize, winner: usize) -> Vec<u8> {
        let players = self.s.players;
        let of = |p: usize| table.iter().filter(move |&&(o, _)| o == p).map(|&(_, v)| v);
        let others = (0..players).filter(|&p| p != winner);
        let deciding = || {
            let battle = &table[from..];
            let won = battle
                .iter()
                .filter(|&&(p, _)| p == winner)
                .map(|&(_, v)| v);
            let lost = battle
                .iter()
                .filter(|&&(p, _)| p != winner)
                .map(|&(_, v)| v);
            won.chain(lost).collect::<Vec<u8>>()
        };
        let values = |cards: &[(usize, u8)]| cards.iter().map(|&(_, v)| v).collect::<Vec<u8>>();
        match self.s.gather {
            Gather::Reveal => values(table),
            Gather::P1First => (0..players).flat_map(of).collect(),
            Gather::WinnerFirst => of(winner).chain(others.flat_map(of)).collect(),
            Gather::LoserFirst => others.flat_map(of).chain(of(winner)).collect(),
            Gather::WinnerFirstLatest => {
                let latest_first = |p: usize| of(p).rev();
                latest_first(winner)
                    .chain(others.flat_map(latest_first))
                    .collect()
            }
            Gather::Natural => {
                let mut out = deciding();
                out.extend(values(&table[..from]).iter().rev());
                out
            }
            Gather::PairFirst => {
                let mut out = deciding();
                out.extend(values(&table[..from]));
                out
            }
            Gather::Sorted => {
                let mut out = values(table);
                // Stable: equal values keep their order on the table.
                out.sort_by(|a, b| b.cmp(a));
                out
            }
            Gather::Random => {
                let mut out = values(table);
                self.gather_rng.shuffle(&mut out);
                out
            }
        }
    }
}

/// The game `shuffle` deals from `seed`, played to its end, its first repeated state, or the
/// round cap (`random` gather, won piles); `None` past `most_rounds` rounds (every state is
/// kept, so a long game costs memory).
pub(crate) fn play(
    s: &Setting,
    shuffle: Shuffle,
    seed: u64,
    most_rounds: u64,
) -> Option<GameResult> {
    let deck = shuffled(s, shuffle, seed);
    play_hands(s, dealt(s, &deck), seed, most_rounds)
}

/// The game of `hands` (top card first); `seed` seeds the random gather and won piles.
pub(crate) fn play_hands(
    s: &Setting,
    hands: Vec<VecDeque<u8>>,
    seed: u64,
    most_rounds: u64,
) -> Option<GameResult> {
    let mut game = Game::of(s, hands, seed);
    let detect = s.gather != Gather::Random && s.won_pile == WonPile::None;
    let result = |outcome, rounds, battles, wars| {
        Some(GameResult {
            outcome,
            rounds,
            battles,
            wars,
        })
    };
    if (0..s.players).any(|p| game.held(p) == 0) {
        return result(game.most_cards(), 0, 0, 0);
    }
    // Every state seen (values of every hand) and the round after which it was seen.
    let mut seen: HashMap<Vec<VecDeque<u8>>, u64> = HashMap::new();
    if detect {
        seen.insert(game.hands.clone(), 0);
    }
    let (mut rounds, mut battles, mut wars) = (0, 0, 0);
    loop {
        if let Some((outcome, finished)) = game.round(&mut battles, &mut wars) {
            return result(outcome, rounds + u64::from(finished), battles, wars);
        }
        rounds += 1;
        if rounds > most_rounds {
            return None;
        }
        if detect {
            if let Some(&mu) = seen.get(&game.hands) {
                let outcome = Outcome::Infinite {
                    cycle_start: mu,
                    cycle_length: rounds - mu,
                };
                return result(outcome, rounds, battles, wars);
            }
            seen.insert(game.hands.clone(), rounds);
        } else if rounds >= s.max_rounds {
            return result(Outcome::Capped, rounds, battles, wars);
        }
    }
}

/// The least state of the cycle that seed `seed`'s game repeats every `lambda` rounds from
/// round `mu`, written as `docs/rules.md` says: each hand's values from 1, then a separator stronger
/// than every value.
pub(crate) fn least_state(
    s: &Setting,
    shuffle: Shuffle,
    seed: u64,
    mu: u64,
    lambda: u64,
) -> Vec<u8> {
    let deck = shuffled(s, shuffle, seed);
    least_state_of_hands(s, dealt(s, &deck), seed, mu, lambda)
}

/// [`least_state`] of the game of `hands` (top card first).
pub(crate) fn least_state_of_hands(
    s: &Setting,
    hands: Vec<VecDeque<u8>>,
    seed: u64,
    mu: u64,
    lambda: u64,
) -> Vec<u8> {
    let mut game = Game::of(s, hands, seed);
    let (mut battles, mut wars) = (0, 0);
    let mut least: Option<Vec<u8>> = None;
    for round in 0..mu + lambda {
        if round >= mu {
            let written: Vec<u8> = game
                .hands
                .iter()
                .flat_map(|hand| hand.iter().map(|v| v + 1).chain([u8::MAX]))
                .collect();
            if least.as_ref().is_none_or(|l| written < *l) {
                least = Some(written);
            }
        }
        assert!(game.round(&mut battles, &mut wars).is_none(), "seed {seed}");
    }
    least.expect("a cycle has a state")
}

/// Whether some state of the cycle that the game of `hands` repeats every `lambda` rounds from
/// round `mu` has hands of equal sizes (an aligned cycle).
pub(crate) fn aligned_of_hands(
    s: &Setting,
    hands: Vec<VecDeque<u8>>,
    mu: u64,
    lambda: u64,
) -> bool {
    let mut game = Game::of(s, hands, 0);
    let (mut battles, mut wars, mut aligned) = (0, 0, false);
    for round in 0..mu + lambda {
        let equal = game.hands.iter().all(|h| h.len() == game.hands[0].len());
        aligned |= round >= mu && equal;
        assert!(game.round(&mut battles, &mut wars).is_none());
    }
    aligned
}

/// The states of the game of `hands` after rounds 1 to `rounds` (fewer where it ends first),
/// each with the wars its round fought.
pub(crate) fn states_of_hands(
    s: &Setting,
    hands: Vec<VecDeque<u8>>,
    rounds: u64,
) -> Vec<(Vec<VecDeque<u8>>, u64)> {
    let mut game = Game::of(s, hands, 0);
    let (mut battles, mut out) = (0, Vec::new());
    for _ in 0..rounds {
        let mut wars = 0;
        if game.round(&mut battles, &mut wars).is_some() {
            break;
        }
        out.push((game.hands.clone(), wars));
    }
    out
}
