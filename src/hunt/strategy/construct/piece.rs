//! Pieces: a block of `k` cards at the same places in both hands, played as rounds that never
//! cross its end, after which each player has won `k` of its cards. The block then comes back,
//! at the bottom of both hands, as a block at the same places again (the won cards, in the
//! gather order), whatever the other cards of the hands: a deal whose hands are pieces one after
//! another plays each piece on its own. A piece that never fails, pass after pass, makes every
//! deal it is part of with other such pieces an infinite game.
//!
//! The rounds are the engine's own (`Engine::step_values`); this file only counts cards.

use crate::deal::SplitMix64;
use crate::engine::Engine;

/// Passes a piece is followed for before it is taken for one that fails: its orbit repeats
/// within them or it is not kept.
const PASSES: usize = 64;

/// A block of the same size in both hands, values 0-based, top card first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Piece(pub(crate) [Vec<u8>; 2]);

impl Piece {
    /// Cards of one hand.
    pub(crate) fn size(&self) -> usize {
        self.0[0].len()
    }

    /// Its cards, both hands.
    pub(crate) fn cards(&self) -> impl Iterator<Item = u8> + '_ {
        self.0[0].iter().chain(&self.0[1]).copied()
    }

    /// The piece as the hands are written: each hand's values from 1 separated by commas,
    /// hands by `|`.
    pub(crate) fn text(&self) -> String {
        let hand = |h: &Vec<u8>| {
            let values: Vec<String> = h.iter().map(|v| (v + 1).to_string()).collect();
            values.join(",")
        };
        format!("{}|{}", hand(&self.0[0]), hand(&self.0[1]))
    }

    /// The piece `text` writes, or [`None`].
    pub(crate) fn parse(text: &str) -> Option<Piece> {
        let (a, b) = text.split_once('|')?;
        let hand = |h: &str| -> Option<Vec<u8>> {
            h.split(',')
                .map(|v| v.parse::<u8>().ok()?.checked_sub(1))
                .collect()
        };
        let piece = Piece([hand(a)?, hand(b)?]);
        (piece.0[0].len() == piece.0[1].len() && piece.size() > 0).then_some(piece)
    }

    /// The same piece with its values renamed to `0, 1, ...` in order: pieces that differ only
    /// in their values but not in their order play the same rounds under the standard ranking.
    pub(crate) fn pattern(&self) -> Piece {
        let mut levels: Vec<u8> = self.cards().collect();
        levels.sort_unstable();
        levels.dedup();
        let rank = |v: &u8| levels.binary_search(v).expect("a value of the piece") as u8;
        Piece(self.0.clone().map(|h| h.iter().map(rank).collect()))
    }
}

/// Plays `piece` once through with `engine`'s rounds: the piece it comes back as, or [`None`]
/// where a round crosses its end, the game ends, or the players win unequal shares.
pub(crate) fn pass(engine: &mut Engine, piece: &Piece) -> Option<Piece> {
    let k = piece.size();
    let mut hands = piece.0.clone();
    let mut after = [Vec::with_capacity(2 * k), Vec::with_capacity(2 * k)];
    let mut played = 0;
    while played < k {
        let before = hands[0].len();
        engine.step_values([&hands[0], &hands[1]], &mut after)?;
        // Both players put down as many cards; the winner gains them all.
        played += before.abs_diff(after[0].len());
        if played > k {
            return None;
        }
        std::mem::swap(&mut hands, &mut after);
    }
    // Every card of the piece played: the hands hold the cards won, and nothing else.
    (hands[0].len() == k).then_some(Piece(hands))
}

/// Whether `piece` never fails: its passes repeat a piece within [`PASSES`] passes, none
/// failing.
pub(crate) fn never_fails(engine: &mut Engine, piece: &Piece) -> bool {
    let mut seen = vec![piece.clone()];
    for _ in 0..PASSES {
        let Some(next) = pass(engine, seen.last().expect("one at least")) else {
            return false;
        };
        if seen.contains(&next) {
            return true;
        }
        seen.push(next);
    }
    false
}

/// A piece of `k` cards a hand drawn at random from a few of the deck's values (`counts[v]`:
/// the copies of value `v`): between 2 and 5 values, as pieces that never fail tie often.
pub(crate) fn random(k: usize, counts: &[u8], rng: &mut SplitMix64) -> Option<Piece> {
    let values: Vec<u8> = (0..counts.len() as u8)
        .filter(|&v| counts[v as usize] > 0)
        .collect();
    let few = 2 + rng.below(4.min(values.len().saturating_sub(1)).max(1));
    let mut chosen = values;
    rng.shuffle(&mut chosen);
    chosen.truncate(few);
    let mut pool: Vec<u8> = chosen
        .iter()
        .flat_map(|&v| std::iter::repeat_n(v, counts[v as usize] as usize))
        .collect();
    if pool.len() < 2 * k {
        return None;
    }
    rng.shuffle(&mut pool);
    Some(Piece([pool[..k].to_vec(), pool[k..2 * k].to_vec()]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Deck, Gather, Preset, Settings};

    fn engine(deck: &str, gather: Gather) -> Engine {
        let rules = Settings::new(Preset::Bataille)
            .deck(Deck::parse(deck).unwrap())
            .gather(gather)
            .build()
            .unwrap();
        Engine::new(rules)
    }

    /// A deliberately plain pass of a piece under the `bataille` preset's open war, written
    /// from docs/rules.md and sharing no code with the engine: the `natural` gather (the
    /// winning card, the other card of the deciding battle, then the earlier cards latest
    /// first) or `sorted` (strongest first).
    fn plain_pass(piece: &Piece, sorted: bool) -> Option<Piece> {
        let [x, y] = &piece.0;
        let k = x.len();
        let (mut won_x, mut won_y) = (Vec::new(), Vec::new());
        let mut at = 0;
        while at < k {
            let mut decides = at;
            while decides < k && x[decides] == y[decides] {
                decides += 1;
            }
            if decides == k {
                return None;
            }
            let x_wins = x[decides] > y[decides];
            let (w, l) = if x_wins { (x, y) } else { (y, x) };
            let mut table = vec![w[decides], l[decides]];
            for i in (at..decides).rev() {
                table.extend([y[i], x[i]]);
            }
            if sorted {
                table.sort_unstable_by(|a, b| b.cmp(a));
            }
            if x_wins {
                won_x.extend(table);
            } else {
                won_y.extend(table);
            }
            at = decides + 1;
        }
        (won_x.len() == k).then_some(Piece([won_x, won_y]))
    }

    /// A pass of a piece is the plain pass, on random pieces of both gathers, of every size a
    /// construction draws; both say "fails" and "comes back" often.
    #[test]
    fn a_pass_is_the_plain_pass() {
        let mut rng = SplitMix64(7);
        let (mut compared, mut back) = (0, 0);
        for (gather, sorted) in [(Gather::Natural, false), (Gather::Sorted, true)] {
            let mut engine = engine("4x13", gather);
            let counts = [4u8; 13];
            for _ in 0..20_000 {
                let k = 2 * (1 + rng.below(6));
                let Some(piece) = random(k, &counts, &mut rng) else {
                    continue;
                };
                let plain = plain_pass(&piece, sorted);
                assert_eq!(pass(&mut engine, &piece), plain, "{}", piece.text());
                compared += 1;
                back += usize::from(plain.is_some());
            }
        }
        assert!(compared > 20_000, "{compared} compared");
        assert!(back > 1_000 && back < compared - 1_000, "{back} came back");
    }

    /// A piece worked by hand: `2 3 1 1 | 2 1 2 3` (values from 1) under `natural`: the tied
    /// 2s go to war, 3 beats 1 (player 1 takes 3 1 2 2), 2 beats 1 (player 2 takes 2 1), 3
    /// beats 1 (player 2 takes 3 1).
    #[test]
    fn a_piece_comes_back_as_worked_by_hand() {
        let mut engine = engine("4x13", Gather::Natural);
        let piece = Piece::parse("2,3,1,1|2,1,2,3").unwrap();
        let back = pass(&mut engine, &piece).unwrap();
        assert_eq!(back.text(), "3,1,2,2|2,1,3,1");
        // A war at its end crosses it: the piece fails.
        assert_eq!(pass(&mut engine, &Piece::parse("1,2|2,2").unwrap()), None);
        // Unequal shares: player 1 wins all four cards.
        assert_eq!(pass(&mut engine, &Piece::parse("3,3|1,2").unwrap()), None);
        assert_eq!(piece.pattern().text(), "2,3,1,1|2,1,2,3");
        assert_eq!(Piece::parse("5,9|5,7").unwrap().pattern().text(), "1,3|1,2");
        for bad in ["", "1,2|3", "0,1|1,1", "1,x|1,1", "1,2"] {
            assert_eq!(Piece::parse(bad), None, "{bad}");
        }
    }
}

/// The census of pieces: every piece of `k` cards a hand whose values are exactly `0..m`, at
/// most four copies of each (a deck of four suits), checked by [`never_fails`] under
/// `engine`'s rules: how many never fail, of how many.
#[cfg(test)]
pub(crate) fn census(engine: &mut Engine, k: usize, m: u8) -> (u64, u64) {
    let mut cards = vec![0u8; 2 * k];
    let (mut never, mut all) = (0, 0);
    loop {
        let mut copies = [0u8; 16];
        for &v in &cards {
            copies[v as usize] += 1;
        }
        if copies.iter().all(|&n| n <= 4) && copies[..m as usize].iter().all(|&n| n > 0) {
            all += 1;
            let piece = Piece([cards[..k].to_vec(), cards[k..].to_vec()]);
            never += u64::from(never_fails(engine, &piece));
        }
        // The next piece, as a number in base `m`.
        let Some(i) = cards.iter().position(|&v| v + 1 < m) else {
            return (never, all);
        };
        cards[i] += 1;
        cards[..i].fill(0);
    }
}

/// The passes `piece` survives before one fails, or [`None`] where it never fails (its orbit
/// repeats within [`PASSES`] passes, as [`never_fails`] judges).
#[cfg(test)]
fn passes_survived(engine: &mut Engine, piece: &Piece) -> Option<usize> {
    let mut seen = vec![piece.clone()];
    for survived in 0..PASSES {
        let Some(next) = pass(engine, seen.last().expect("one at least")) else {
            return Some(survived);
        };
        if seen.contains(&next) {
            return None;
        }
        seen.push(next);
    }
    Some(PASSES)
}

/// A random piece of `k` cards a hand whose values are exactly `0..m`, each at least once and
/// at most four times (a deck of four suits).
#[cfg(test)]
fn random_of_values(k: usize, m: usize, rng: &mut SplitMix64) -> Piece {
    let mut pool: Vec<u8> = (0..m as u8).flat_map(|v| [v; 3]).collect();
    rng.shuffle(&mut pool);
    pool.truncate(2 * k - m);
    pool.extend(0..m as u8);
    rng.shuffle(&mut pool);
    Piece([pool[..k].to_vec(), pool[k..].to_vec()])
}

#[cfg(test)]
mod census_tests {
    use super::*;
    use crate::rules::{Deck, Gather, Preset, Settings};

    fn engine(gather: Gather) -> Engine {
        let deck = Deck::parse("4x13").unwrap();
        Engine::new(
            Settings::new(Preset::Bataille)
                .deck(deck)
                .gather(gather)
                .build()
                .unwrap(),
        )
    }

    /// The census's finding that decks whose hands are 2 mod 4 cannot be covered: under
    /// `natural` no piece of 2 or 6 cards a hand of at most 4 values never fails (the run
    /// records go to 5), where 48 pieces of 4 cards a hand of 4 values do; under `sorted`
    /// none of 2, 4 or 6 cards.
    #[test]
    fn no_piece_of_2_mod_4_cards_a_hand_never_fails() {
        let mut natural = engine(Gather::Natural);
        assert_eq!(census(&mut natural, 4, 4), (48, 39_480));
        // Four values of 6 cards a hand take seconds in release, minutes with debug assertions.
        let most = if cfg!(debug_assertions) { 3 } else { 4 };
        let census_of = |engine: &mut Engine, sizes: &[(usize, u8)]| -> Vec<(u64, u64)> {
            (sizes.iter().filter(|s| s.0 < 6 || s.1 <= most))
                .map(|&(k, m)| census(engine, k, m))
                .collect()
        };
        let counted = census_of(&mut natural, &[(2, 2), (2, 3), (2, 4), (6, 3), (6, 4)]);
        let all = [(0, 14), (0, 36), (0, 24), (0, 34_650), (0, 6_606_600)];
        assert_eq!(counted, all[..counted.len()]);
        let mut sorted = engine(Gather::Sorted);
        let counted = census_of(&mut sorted, &[(2, 4), (4, 3), (4, 4), (6, 3), (6, 4)]);
        let all = [
            (0, 24),
            (0, 4_620),
            (0, 39_480),
            (0, 34_650),
            (0, 6_606_600),
        ];
        assert_eq!(counted, all[..counted.len()]);
    }

    /// The census at a size given by `CENSUS=k,m,gather` (the run records' larger counts).
    #[test]
    #[ignore = "minutes: run with CENSUS=k,m,gather"]
    fn census_of_a_size() {
        let given = std::env::var("CENSUS").expect("CENSUS=k,m,gather");
        let parts: Vec<&str> = given.split(',').collect();
        let gather: Gather = parts[2].parse().expect("a gather");
        let (k, m) = (parts[0].parse().unwrap(), parts[1].parse().unwrap());
        let (never, all) = census(&mut engine(gather), k, m);
        println!("{k} cards a hand, values 0..{m}, {gather}: {never} of {all} pieces never fail");
    }

    /// The census sampled where it is too large to count (`SAMPLE=k,n,gather`): `n` random
    /// pieces of `k` cards a hand, as many of each number of values, from the fewest a deck of
    /// four suits allows to 13; how many never fail, and how many passes the others survive.
    #[test]
    #[ignore = "minutes: run with SAMPLE=k,n,gather"]
    fn sampled_census() {
        let given = std::env::var("SAMPLE").expect("SAMPLE=k,n,gather");
        let parts: Vec<&str> = given.split(',').collect();
        let (k, n): (usize, usize) = (parts[0].parse().unwrap(), parts[1].parse().unwrap());
        let gather: Gather = parts[2].parse().expect("a gather");
        let mut engine = engine(gather);
        let mut rng = SplitMix64(k as u64);
        let fewest = (2 * k).div_ceil(4).max(2);
        let values: Vec<usize> = (fewest..=13.min(2 * k)).collect();
        let (mut longest, mut sampled) = (0, 0);
        for &m in &values {
            let (mut never, mut survived) = (0, [0u64; PASSES + 1]);
            for _ in 0..n / values.len() {
                match passes_survived(&mut engine, &random_of_values(k, m, &mut rng)) {
                    None => never += 1,
                    Some(s) => survived[s] += 1,
                }
                sampled += 1;
            }
            let most = survived.iter().rposition(|&c| c > 0).unwrap_or(0);
            longest = longest.max(most);
            println!(
                "{k} cards a hand, {m} values, {gather}: {never} of {} never fail; the others \
                 survive at most {most} passes (0, 1, 2, 3+: {:?})",
                n / values.len(),
                [
                    survived[0],
                    survived[1],
                    survived[2],
                    survived[3..].iter().sum()
                ],
            );
        }
        assert_eq!(sampled, n / values.len() * values.len());
        println!("{k} cards a hand, {gather}: {sampled} sampled, the longest-lived that fails survives {longest} passes");
    }
}
