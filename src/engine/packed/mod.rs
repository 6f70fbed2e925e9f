//! Small decks played whole in two machine words.
//!
//! When two players share at most 16 cards (32 with `u128`) of at most 15 values, each hand fits
//! in one word: four bits a card, the top card in the lowest bits, each value stored plus one so
//! that an empty place reads 0. Revealing is a shift, taking the table is one shift and one or,
//! and the two words are the whole state of the game (values only, as `docs/rules.md` defines
//! it), so Brent's cycle detection costs one comparison a round (none in the first 64, where
//! most games end) and needs no snapshots: the cycle start is found by replaying the game, which is cheap
//! at this size.
//!
//! A run of `lex` deals (the exhaustive walk) is one loop ([`play_lex`]): the rules are read once,
//! each deal is the next arrangement stepped in place and packed, and its game played inline.
//! In open war, where each battle takes one card a hand, a game resumes from the last of the
//! previous deal's first rounds that revealed only cards the two deals share ([`Prefix`](crate::engine::packed::walk::Prefix)).
//! Open war gathered deciding battle first (`bataille`) plays a war of one battle without a
//! branch ([`round_open`](crate::engine::packed::round::round_open)): ties come at random, one round in four. The decks the research
//! studies (4x4, 4x5, 1x10, 2x8, 4x8) all fit; every other game takes the engine's general
//! fast paths.
//!
//! Every rule comes from where it is defined: the two-card comparison from `pair::p1_wins`
//! (tested against [`Strength`](crate::rules::ranking::Strength) for every pair), the short-war policy from `super::short_war`, and
//! the gather orders from `rules::gather`, which this kernel's tables implement (`PickUp`);
//! `tests/suite/engine.rs` checks every path against the general one.

mod known;
mod round;
mod run;
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
use word::{pack_span, Packer};

/// The word a setting's games fit in, if any.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Width {
    W64,
    W128,
}

/// Whether two-player games of `rules` with `total` cards in all can be played in words: values
/// fit in four bits (plus one), the cards in one word, and the gather order is fixed (`random`
/// games cannot be checked for cycles and keep the engine's round cap).
pub(crate) fn width(rules: &Rules, total: usize) -> Option<Width> {
    if rules.players() != 2 || rules.deck().values() > 15 || !rules.detects_cycles() {
        return None;
    }
    if total <= u64::CARDS {
        Some(Width::W64)
    } else if total <= u128::CARDS {
        Some(Width::W128)
    } else {
        None
    }
}

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
    match width {
        Width::W64 => play_words(
            rules,
            [0, 1].map(|p| pack_span::<u64, T>(deck, span(p), value)),
        ),
        Width::W128 => play_words(
            rules,
            [0, 1].map(|p| pack_span::<u128, T>(deck, span(p), value)),
        ),
    }
}

/// [`play_deal`] for a deck of bare values (a `lex` arrangement).
pub(crate) fn play_values(rules: &Rules, width: Width, deck: &[u8]) -> GameResult {
    let pack = Packer::new(rules, deck.len());
    match width {
        Width::W64 => play_words(rules, pack.hands::<u64>(deck)),
        Width::W128 => play_words(rules, pack.hands::<u128>(deck)),
    }
}

/// Plays the game whose hands hold `hands`' cards (top card first) under `rules`, which `width`
/// accepted for these hands. Both hands hold at least one card.
pub(crate) fn play_hands(rules: &Rules, width: Width, [h0, h1]: [&[Card]; 2]) -> GameResult {
    let whole = |hand: &[Card]| (0, 1, hand.len());
    match width {
        Width::W64 => play_words(
            rules,
            [h0, h1].map(|h| pack_span::<u64, Card>(h, whole(h), Card::value)),
        ),
        Width::W128 => play_words(
            rules,
            [h0, h1].map(|h| pack_span::<u128, Card>(h, whole(h), Card::value)),
        ),
    }
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
        ends: 4 * (total - 2),
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

/// Whether [`round_open`](crate::engine::packed::round::round_open) plays rounds gathered in `order`: those that put the deciding battle
/// first, whose table it builds from the two pairs without a branch. The others play a tie
/// through `war`; measured (4x4 walk, one thread, 5,000,000 deals), `winner-first` through
/// [`round_open`](crate::engine::packed::round::round_open) is 47% more instructions and 2 to 7% slower than through `war`, more work than
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
    /// `4 * (total - 2)`: where player 2's cards end once the top one is revealed is this less
    /// player 1's.
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
    /// Where player 1's cards end once the top one is revealed: `4 * (cards - 1)` bits.
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
            end0: 4 * (len0 - 1),
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
