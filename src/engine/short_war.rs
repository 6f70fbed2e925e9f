//! The short-war policy, in one place for every path, and the end of a game by most cards.

use super::hands::Hands;
use super::Outcome;
use crate::rules::{holds_war, war_cards, Rules, ShortWar};
use crate::text::count;

/// The short-war policy, in one place for every path: the tied players `tied` hold `left(p)`
/// cards each (`left` answers for every player). Either how many cards each puts face down, or
/// how the game ends because one of them cannot put down the D + 1 cards of a war.
pub(crate) fn short_war(
    rules: &Rules,
    tied: &[u8],
    left: impl Fn(usize) -> u32 + Copy,
) -> Result<u32, Outcome> {
    let d = rules.face_down() as u32;
    let left_of = |p: &u8| left(*p as usize);
    let fewest = tied.iter().map(left_of).min().unwrap_or(0);
    match rules.short_war() {
        _ if holds_war(d as usize, fewest as usize) => Ok(d),
        ShortWar::Draw => Err(Outcome::Draw),
        ShortWar::Shorten if fewest >= 1 => Ok(fewest - 1),
        ShortWar::Shorten => {
            // A tied player has no card left: players without cards lose.
            let mut with_cards = tied.iter().filter(|p| left_of(p) > 0);
            Err(match (with_cards.next(), with_cards.next()) {
                (Some(&p), None) => Outcome::Win(p as usize),
                _ => Outcome::Draw,
            })
        }
        ShortWar::FirstOutLoses => {
            // Cards are played in unison: whoever holds fewer of the D + 1 runs out first.
            let reach = |p: &u8| left_of(p).min(war_cards(d as usize) as u32);
            let (a, b) = (reach(&tied[0]), reach(&tied[1]));
            Err(match a.cmp(&b) {
                std::cmp::Ordering::Less => Outcome::Win(tied[1] as usize),
                std::cmp::Ordering::Greater => Outcome::Win(tied[0] as usize),
                std::cmp::Ordering::Equal => Outcome::Draw,
            })
        }
        // The table is out of play; the hands decide.
        ShortWar::MostCards => Err(most_cards_of((0..rules.players()).map(left))),
    }
}

/// What a trace says when a tied player holds only `fewest` cards, no more than `d`.
pub(super) fn short_war_note(policy: ShortWar, d: u32, fewest: u32) -> String {
    match policy {
        ShortWar::Draw => format!(
            "a tied player has {}, fewer than the {} a war needs: draw",
            count(fewest, "card"),
            d + 1
        ),
        ShortWar::Shorten if fewest >= 1 => format!(
            "a tied player has only {}: {} face down each",
            count(fewest, "card"),
            fewest - 1
        ),
        ShortWar::Shorten => "a tied player has no card left for the war".to_string(),
        ShortWar::FirstOutLoses => {
            format!(
                "a tied player cannot put down the {} of a war",
                count(d + 1, "card")
            )
        }
        ShortWar::MostCards => format!(
            "a tied player cannot put down the {} of a war: the game ends",
            count(d + 1, "card")
        ),
    }
}

/// The end of a game decided by who holds the most cards (a tie for the most is a draw).
pub(super) fn most_cards(hands: &Hands) -> Outcome {
    most_cards_of(hands.lens())
}

/// [`most_cards`] for hands holding `lens` cards, in player order.
pub(super) fn most_cards_of(lens: impl Iterator<Item = u32> + Clone) -> Outcome {
    let most = lens.clone().max().unwrap_or(0);
    let mut holders = lens.enumerate().filter(|&(_, n)| n == most);
    match (holders.next(), holders.next()) {
        (Some((p, _)), None) => Outcome::Win(p),
        _ => Outcome::Draw,
    }
}
