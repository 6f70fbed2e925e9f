//! A turn-by-turn account of one game, like the table in seed 004: every battle with the cards
//! revealed, every war with its face-down cards, and who took how many cards in which order.

use crate::engine::Observer;
use crate::rules::Card;
use std::io::{self, Write};

/// Writes each event of a game as a line; keeps the first write error for the caller.
pub struct Trace<W: Write> {
    out: W,
    error: Option<io::Error>,
}

impl<W: Write> Trace<W> {
    /// A trace written to `out`.
    pub fn new(out: W) -> Trace<W> {
        Trace { out, error: None }
    }

    /// The hands before the first battle.
    pub fn deal(&mut self, hands: &[Vec<Card>]) {
        for (p, hand) in hands.iter().enumerate() {
            let cards = join(hand.iter());
            let held = crate::text::count(hand.len() as u64, "card");
            self.line(format_args!("P{} ({held}): {cards}", p + 1));
        }
    }

    /// A free-form line (the end of an infinite game, for instance).
    pub fn say(&mut self, text: &str) {
        self.line(format_args!("{text}"));
    }

    /// The output, or the first error met while writing it.
    pub fn finish(mut self) -> io::Result<W> {
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush().map(|_| self.out),
        }
    }

    fn line(&mut self, args: std::fmt::Arguments) {
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{args}") {
                self.error = Some(e);
            }
        }
    }
}

fn join<'a>(cards: impl Iterator<Item = &'a Card>) -> String {
    cards.map(Card::to_string).collect::<Vec<_>>().join(" ")
}

/// `P1 QS KD AS  P2 AD KS TD`: each player's cards in the order they reached the table.
fn by_player(cards: &[(usize, Card)]) -> String {
    let mut players: Vec<usize> = cards.iter().map(|&(p, _)| p).collect();
    players.dedup();
    players.sort_unstable();
    players.dedup();
    players
        .iter()
        .map(|&p| {
            let own = cards.iter().filter(|&&(o, _)| o == p).map(|(_, c)| c);
            format!("P{} {}", p + 1, join(own))
        })
        .collect::<Vec<_>>()
        .join("  ")
}

impl<W: Write> Observer for Trace<W> {
    fn revealed(&mut self, battle: u64, round: u64, cards: &[(usize, Card)]) {
        let shown = by_player(cards);
        self.line(format_args!("battle {battle} (round {round}): {shown}"));
    }

    fn war(&mut self, face_down: &[(usize, Card)]) {
        if face_down.is_empty() {
            self.line(format_args!("  war, no cards face down"));
        } else {
            let shown = by_player(face_down);
            self.line(format_args!("  war, face down: {shown}"));
        }
    }

    fn took(&mut self, winner: usize, cards: &[Card]) {
        let shown = join(cards.iter());
        let n = cards.len();
        self.line(format_args!("  P{} takes {n} cards: {shown}", winner + 1));
    }

    fn note(&mut self, text: &str) {
        self.line(format_args!("  tie: {text}"));
    }

    fn pile_shuffled(&mut self, player: usize, hand: &[Card]) {
        let shown = join(hand.iter());
        let held = crate::text::count(hand.len() as u64, "card");
        self.line(format_args!(
            "  P{} shuffles their won pile ({held}) into a new hand: {shown}",
            player + 1
        ));
    }
}
