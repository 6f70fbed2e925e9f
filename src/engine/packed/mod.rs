//! Small decks played whole in two machine words.
//!
//! When two players share at most 16 cards (32 with `u128`) of at most 15 values, each hand fits
//! in one word: four bits a card, the top card in the lowest bits, each value stored plus one so
//! that an empty place reads 0. Decks of 17 to 21 cards of at most 7 values (4x5, 5x4, 3x7) take
//! three bits a card in a 64-bit word ([`Tri`]) rather than a 128-bit one, whose every shift
//! costs two or three instructions; the kernel is the same, generic over the word. Revealing is
//! a shift, taking the table is one shift and one or, and the two words are the whole state of
//! the game (values only, as `docs/rules.md` defines
//! it), so Brent's cycle detection costs one comparison a round (none in the first 64, where
//! most games end) and needs no snapshots: the cycle start is found by replaying the game, which is cheap
//! at this size.
//!
//! A run of `lex` deals (the exhaustive walk) is one loop ([`play_lex`]): the rules are read once,
//! each deal is the next arrangement stepped in place and packed, and its game played inline.
//! In open war, where each battle takes one card a hand, a game resumes from the last of the
//! previous deal's first rounds that revealed only cards the two deals share ([`Prefix`](crate::engine::packed::walk::Prefix)).
//! Open war gathered deciding battle first (`bataille`) plays a war of one battle without a
//! branch ([`round_open`](crate::engine::packed::step::round_open)): ties come at random, one round in four. The decks the research
//! studies (4x4, 4x5, 1x10, 2x8, 4x8) all fit; every other game takes the engine's general
//! fast paths.
//!
//! Every rule comes from where it is defined: the two-card comparison from `pair::p1_wins`
//! (tested against [`Strength`](crate::rules::ranking::Strength) for every pair), the short-war policy from `super::short_war`, and
//! the gather orders from `rules::gather`, which this kernel's tables implement (`PickUp`);
//! `tests/suite/engine.rs` checks every path against the general one.

mod known;
mod run;
mod step;
mod walk;
mod word;

pub(crate) use known::{least_states, KnownCycles};
pub(crate) use walk::play_lex;
pub(crate) use word::Word;

use super::pair::{OORLOG, PLAIN};
use super::{GameResult, Outcome};
use crate::deal::dealt_span;
use crate::rules::{with_gather_code, Card, Order, Rules};
use run::run_one;
use std::cell::RefCell;
use word::{pack_span, Packer, Tri};

/// The word a setting's games fit in, if any.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Width {
    /// Four bits a card in 64 bits: 16 cards.
    W64,
    /// Three bits a card in 64 bits ([`Tri`]): 21 cards of at most 7 values.
    Tri,
    /// Four bits a card in 128 bits: 32 cards.
    W128,
}

/// Whether two-player games of `rules` with `total` cards in all can be played in words, and
/// in the narrowest that holds them: values fit in four bits (plus one), the cards in one word,
/// and the gather order is fixed (`random` games cannot be checked for cycles and keep the
/// engine's round cap).
pub(crate) fn width(rules: &Rules, total: usize) -> Option<Width> {
    if rules.players() != 2 || !rules.detects_cycles() {
        return None;
    }
    word_for(usize::from(rules.deck().values()), total)
}

/// The narrowest word whose hands hold `total` cards of `values` values, if any does.
pub(crate) fn word_for(values: usize, total: usize) -> Option<Width> {
    if values > u64::VALUES {
        return None;
    }
    if total <= u64::CARDS {
        Some(Width::W64)
    } else if total <= Tri::CARDS && values <= Tri::VALUES {
        Some(Width::Tri)
    } else if total <= u128::CARDS {
        Some(Width::W128)
    } else {
        None
    }
}

/// `$go` (an expression of the type `$w`) for the word of `$width`: the one place that lists
/// the widths.
macro_rules! with_word {
    ($width:expr, $w:ident => $go:expr) => {
        match $width {
            Width::W64 => {
                type $w = u64;
                $go
            }
            Width::Tri => {
                type $w = $crate::engine::packed::word::Tri;
                $go
            }
            Width::W128 => {
                type $w = u128;
                $go
            }
        }
    };
}
use with_word;

// Gather orders are const parameters (`Gather::code`), each compiled to its own loop; so is
// whether open war's first war is played without a branch (`OPEN`, see `round_open`).

/// Plays the game dealt from `deck` (anything with a value, in deal order) under `rules`, which
/// `width` accepted for this deck.
pub(crate) fn play_deal<T: Copy>(
    rules: &Rules,
    width: Width,
    deck: &[T],
    value: impl Fn(T) -> u8 + Copy,
) -> GameResult {
    let span = |p| dealt_span(deck.len(), rules.deal(), 2, p);
    with_word!(width, W => play_words(
        rules,
        [0, 1].map(|p| pack_span::<W, T>(deck, span(p), value)),
    ))
}

/// [`play_deal`] for a deck of bare values (a `lex` arrangement).
pub(crate) fn play_values(rules: &Rules, width: Width, deck: &[u8]) -> GameResult {
    let pack = Packer::new(rules, deck.len());
    with_word!(width, W => play_words(rules, pack.hands::<W>(deck)))
}

/// Plays the game whose hands hold `hands`' cards (top card first) under `rules`, which `width`
/// accepted for these hands. Both hands hold at least one card.
pub(crate) fn play_hands(rules: &Rules, width: Width, [h0, h1]: [&[Card]; 2]) -> GameResult {
    let whole = |hand: &[Card]| (0, 1, hand.len());
    with_word!(width, W => play_words(
        rules,
        [h0, h1].map(|h| pack_span::<W, Card>(h, whole(h), Card::value)),
    ))
}

/// Plays the game whose hands are packed in `hands`.
#[inline(always)]
fn play_words<W: Word>(rules: &Rules, hands: [(W, u32); 2]) -> GameResult {
    let total = hands[0].1 + hands[1].1;
    with_rules::<W, _>(rules, total, None, OneGame(hands))
}

/// What runs once the rules' ranking and gather order are known as const parameters: one game
/// ([`OneGame`]) or a walk of `lex` deals ([`LexWalk`](crate::engine::packed::walk::LexWalk)). [`with_rules`] alone reads them.
trait Kernel<W: Word> {
    type Out;
    fn go<const RANK: u8, const GATHER: u8, const OPEN: bool>(self, p: &Params) -> Self::Out;
}

/// Runs `kernel` for `rules`' ranking and gather order, on games of `total` cards.
#[inline(always)]
fn with_rules<W: Word, K: Kernel<W>>(
    rules: &Rules,
    total: u32,
    known: Option<&RefCell<KnownCycles>>,
    kernel: K,
) -> K::Out {
    let s = rules.strength();
    let params = Params {
        known,
        total,
        ends: W::CARD_BITS * (total - 2),
        face_down: rules.face_down() as u32,
        rules,
        // In stored values (plus one); no stored value reaches u8::MAX.
        ace: s.ace.map_or(u8::MAX, |a| a + 1),
        low_top: s.low_top + 1,
    };
    // Open war's rounds play their first war without a branch (`round_open`) in every order
    // whose runs its table holds.
    let open = rules.face_down() == 0 && open_round_plays(rules.gather().order());
    macro_rules! go {
        ($gather:expr) => {
            match (s.is_plain(), open) {
                (true, false) => kernel.go::<PLAIN, { $gather }, false>(&params),
                (true, true) => kernel.go::<PLAIN, { $gather }, true>(&params),
                (false, false) => kernel.go::<OORLOG, { $gather }, false>(&params),
                (false, true) => kernel.go::<OORLOG, { $gather }, true>(&params),
            }
        };
    }
    with_gather_code!(rules.gather(), go)
}

/// Whether [`round_open`](crate::engine::packed::step::round_open) plays rounds gathered in `order`: those that put the deciding battle
/// first, whose table it builds from the two pairs without a branch. The others play a tie
/// through `war`; measured (4x4 walk, one thread, 5,000,000 deals), `winner-first` through
/// [`round_open`](crate::engine::packed::step::round_open) is 47% more instructions and 2 to 7% slower than through `war`, more work than
/// the mispredicted branches it saves.
const fn open_round_plays(order: Order) -> bool {
    match order {
        Order::DecidingFirst(_) => true,
        Order::Reveal | Order::ByPlayer(..) | Order::Strongest | Order::Shuffled => false,
    }
}

/// One game, from its two packed hands.
struct OneGame<W>([(W, u32); 2]);

impl<W: Word> Kernel<W> for OneGame<W> {
    type Out = GameResult;
    #[inline(always)]
    fn go<const RANK: u8, const GATHER: u8, const OPEN: bool>(self, p: &Params) -> GameResult {
        run_one::<W, RANK, GATHER, OPEN>(Game::new(self.0), p)
    }
}

/// What a game needs besides its state.
struct Params<'a> {
    /// The long cycles met so far, where the caller keeps them (a walk).
    known: Option<&'a RefCell<KnownCycles>>,
    /// Cards in both hands.
    total: u32,
    /// `CARD_BITS * (total - 2)`: where player 2's cards end once the top one is revealed is
    /// this less player 1's.
    ends: u32,
    face_down: u32,
    rules: &'a Rules,
    ace: u8,
    low_top: u8,
}

/// The state of a game (the two hands) and its counts so far.
#[derive(Clone, Copy)]
struct Game<W> {
    h0: W,
    h1: W,
    /// Where player 1's cards end once the top one is revealed: `CARD_BITS * (cards - 1)` bits.
    end0: u32,
    rounds: u64,
    /// Every war is one battle beyond the one that opens each finished round, and a war cut
    /// short counts the opening battle of the unfinished round: so battles are rounds plus wars.
    wars: u64,
}

impl<W: Word> Game<W> {
    /// The game before its first round.
    #[inline(always)]
    fn new([(h0, len0), (h1, len1)]: [(W, u32); 2]) -> Game<W> {
        debug_assert!(len0 > 0 && len1 > 0 && (len0 + len1) as usize <= W::CARDS);
        Game {
            h0,
            h1,
            end0: W::CARD_BITS * (len0 - 1),
            rounds: 0,
            wars: 0,
        }
    }

    fn result(&self, outcome: Outcome) -> GameResult {
        GameResult {
            outcome,
            rounds: self.rounds,
            battles: self.rounds + self.wars,
            wars: self.wars,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Deck, Preset, Settings};

    /// Each deck takes the narrowest word that holds it: three bits a card only past 16 cards,
    /// up to 21 cards of 7 values.
    #[test]
    fn each_deck_takes_the_narrowest_word() {
        let cases = [
            ("4x4", Some(Width::W64)),
            ("1x15+1", Some(Width::W64)),
            ("4x5", Some(Width::Tri)),
            ("5x4", Some(Width::Tri)),
            ("3x6", Some(Width::Tri)),
            ("7x3", Some(Width::Tri)),
            ("3x7", Some(Width::Tri)),
            ("2x9", Some(Width::W128)),
            ("2x11", Some(Width::W128)),
            ("4x8", Some(Width::W128)),
            ("3x11", None),
        ];
        for (deck, expected) in cases {
            let deck = Deck::parse(deck).unwrap();
            let rules = Settings::new(Preset::Bataille).deck(deck).build().unwrap();
            assert_eq!(width(&rules, deck.size()), expected, "{deck:?}");
        }
        // Every width is reached, and a deck that fits none.
        for reached in [Some(Width::W64), Some(Width::Tri), Some(Width::W128), None] {
            assert!(cases.iter().any(|c| c.1 == reached), "{reached:?}");
        }
    }
}
