//! The exhaustive walk: a run of `lex` deals played in one loop, each game resuming from the
//! rounds it shares with the previous deal's.

use super::known::KnownCycles;
use super::run::{run, run_on};
use super::step::round;
use super::word::{compare_cards, Packer, Word};
use super::{with_rules, with_word, Game, Kernel, Params, Width};
use crate::deal::mirror::{Mirror, Weight};
use crate::deal::Dealer;
use crate::engine::GameResult;
use crate::rules::Rules;
use std::cell::RefCell;
use std::hint::select_unpredictable;
use std::ops::Range;

/// Plays the `lex` deals of `seeds` in order, which `width` accepted for the deck, handing
/// each result to `each`. One loop for the whole run: the rules are dispatched once, and
/// each deal is the next arrangement stepped in place, packed, and played inline.
/// With `mirror`, a deal its mirror counts is skipped, and each played deal is handed out with
/// its weight ([`Weight::Once`] for every deal without).
pub(crate) fn play_lex(
    rules: &Rules,
    width: Width,
    dealer: &mut Dealer,
    seeds: Range<u64>,
    mirror: Option<(&Mirror, &mut [u8])>,
    known: &RefCell<KnownCycles>,
    each: impl FnMut(u64, &GameResult, Weight),
) {
    let pack = Packer::new(rules, rules.deck().size());
    let total = rules.deck().size() as u32;
    let walk = LexWalk {
        dealer,
        seeds,
        pack,
        mirror,
        each,
    };
    with_word!(width, W => with_rules::<W, _>(rules, total, Some(known), walk));
}

/// The `lex` deals of `seeds`, each packed from the dealer's arrangement and played inline.
pub(super) struct LexWalk<'a, F> {
    dealer: &'a mut Dealer,
    seeds: Range<u64>,
    pack: Packer,
    /// The walk's mirror deals, and room for one deal.
    mirror: Option<(&'a Mirror, &'a mut [u8])>,
    each: F,
}

impl<W: Word, F: FnMut(u64, &GameResult, Weight)> Kernel<W> for LexWalk<'_, F> {
    type Out = ();
    #[inline(always)]
    fn go<const RANK: u8, const GATHER: u8, const OPEN: bool>(self, p: &Params) {
        let LexWalk {
            dealer,
            seeds,
            pack,
            mirror,
            mut each,
        } = self;
        // In open war a game resumes from the rounds it shares with the previous deal's.
        let mut prefix = (p.face_down == 0).then(|| Prefix::new(pack.spans.map(|s| s.2 as u32)));
        let mut play = |seed, hands: [(W, u32); 2], weight| {
            let result = match &mut prefix {
                Some(prefix) => prefix.play::<RANK, GATHER, OPEN>(hands, p),
                None => run::<W, RANK, GATHER, OPEN>(Game::new(hands), p),
            };
            each(seed, &result, weight);
        };
        let words = mirror.as_ref().is_none_or(|(m, _)| m.weighs_words());
        if W::CARD_BITS == 4 && pack.blocks && dealer.lex_fits_nibbles() && words {
            // The arrangement comes as the packed form itself: each hand is a run of its
            // nibbles, each value plus one.
            let hand = |(start, _, count): (usize, usize, usize)| {
                let mask = u64::MAX >> (64 - 4 * count);
                (
                    4 * start as u32,
                    mask,
                    0x1111_1111_1111_1111 & mask,
                    count as u32,
                )
            };
            let hands = pack.spans.map(hand);
            let mirror = mirror.map(|(mirror, _)| mirror);
            dealer.lex_walk_nibbles(seeds, |seed, x| {
                let weight = mirror.map_or(Weight::Once, |m| m.weigh_word(x));
                if weight == Weight::Skip {
                    return;
                }
                let hands = hands
                    .map(|(shift, mask, ones, count)| (W::of64((x >> shift & mask) + ones), count));
                play(seed, hands, weight);
            });
        } else {
            // Dealt in two blocks, the hands themselves, packed, weigh against the mirror (the
            // hands exchanged) as the values do, and so do the range's bounds.
            let halves = |deal: &[u8]| pack.hands::<W>(deal).map(|(hand, _)| hand);
            let bounds = match &mirror {
                Some((m, _)) if m.halves() && pack.blocks => Some(
                    m.bounds()
                        .map(|(first, past)| (halves(first), past.map(halves))),
                ),
                _ => None,
            };
            let mut mirror = mirror;
            dealer.lex_walk(seeds, |seed, values| {
                let hands = pack.hands::<W>(values);
                let weight = match (&mut mirror, bounds) {
                    (Some((mirror, _)), Some(bounds)) => {
                        mirror.weigh_halves(hands.map(|(h, _)| h), bounds, compare_cards::<W>)
                    }
                    (Some((mirror, scratch)), None) => mirror.weigh(values, scratch),
                    (None, _) => Weight::Once,
                };
                if weight != Weight::Skip {
                    play(seed, hands, weight);
                }
            });
        }
    }
}

/// Rounds of a game whose states [`Prefix`] keeps, at most (their counts fill one word).
pub(super) const PREFIX_ROUNDS: usize = 8;
/// Rounds [`Prefix`] plays (and keeps, while they are in the deal's cards) after resuming a game
/// before handing it to `run`: most games resume two or three rounds before their hands reach
/// the cards they won.
pub(super) const KEPT_AFTER_RESUMING: usize = 3;
/// One byte a round, as [`Prefix::played`] holds them.
pub(super) const LANES: u64 = 0x0101_0101_0101_0101;
/// [`Prefix::played`]'s byte for a round not kept: more than any count of cards.
pub(super) const NOT_KEPT: u8 = 0x7F;

/// The first rounds of the previous deal's game, from which the next deal's game resumes:
/// consecutive `lex` deals differ only in their last places, the bottoms of the hands, so
/// their games play the same first rounds until one of them reveals a card the deals do not
/// share. Every game's counts are still those of its own deal, to its end: the rounds it
/// shares are found, not assumed.
///
/// Open war (no card face down) only: there each battle takes exactly one card from each
/// hand (a player who cannot play one ends the game), so a state's rounds plus wars count the
/// dealt cards each player has played.
pub(super) struct Prefix<W> {
    /// `states[r]`: the game before its round `r`, while both players still held cards of
    /// their deal (the low cards of each hand; the deal's places past them may differ).
    /// One more slot for the states not kept.
    states: [Game<W>; PREFIX_ROUNDS + 1],
    /// Byte `r`: the cards each player had played before round `r`; [`NOT_KEPT`] for a round
    /// whose state is not kept.
    played: u64,
    /// The previous deal's hands.
    hands: [W; 2],
    /// Cards dealt to each player.
    dealt: [u32; 2],
}

impl<W: Word> Prefix<W> {
    pub(super) fn new(dealt: [u32; 2]) -> Prefix<W> {
        // Before round 0 nothing has been played: the state is the deal itself, whose hands
        // `play` fills in.
        let before = Game::new(dealt.map(|n| (W::ZERO, n)));
        Prefix {
            states: [before; PREFIX_ROUNDS + 1],
            played: (LANES * NOT_KEPT as u64) << 8,
            hands: [W::ZERO; 2],
            dealt,
        }
    }

    /// Plays the game whose packed hands are `hands`.
    #[inline(always)]
    fn play<const RANK: u8, const GATHER: u8, const OPEN: bool>(
        &mut self,
        hands: [(W, u32); 2],
        p: &Params,
    ) -> GameResult {
        let start = Game::new(hands);
        // The cards from the top of each hand this deal shares with the previous one.
        let same = |h: W, was: W| (h ^ was).trailing_zeros() / W::CARD_BITS;
        let shared = same(start.h0, self.hands[0]).min(same(start.h1, self.hands[1]));
        self.hands = [start.h0, start.h1];
        // The latest kept state whose rounds revealed only shared cards: the number of kept
        // rounds that had played at most `shared` cards, less one (round 0 always counts).
        // Each byte's subtraction stays in its byte: it never goes below 0x80 - 0x7F.
        let high = LANES << 7;
        let shared = u64::from(shared.min(NOT_KEPT as u32 - 1));
        let fit = (((shared * LANES) | high) - self.played) & high;
        let r = fit.count_ones() - 1;
        let kept = (2u64 << (8 * r + 7)).wrapping_sub(1);
        self.played = self.played & kept | (LANES * NOT_KEPT as u64) & !kept;
        let played = (self.played >> (8 * r)) as u32 & 0xFF;
        let saved = self.states[r as usize % PREFIX_ROUNDS];
        // Each hand: the cards it won then, after those of this deal it has not played.
        let hand = |saved: W, dealt: W, n: u32| {
            let b = W::CARD_BITS;
            let unplayed = (W::ONE << (b * (n - played))) - W::ONE;
            saved & !unplayed | dealt >> (b * played)
        };
        let mut game = Game {
            h0: hand(saved.h0, start.h0, self.dealt[0]),
            h1: hand(saved.h1, start.h1, self.dealt[1]),
            ..saved
        };
        // States are kept while both players hold cards of their deal, for at most
        // `PREFIX_ROUNDS` rounds (`rounds <= played`).
        let limit = self.dealt[0].min(self.dealt[1]).min(PREFIX_ROUNDS as u32) as u64;
        // A fixed number of rounds, each kept if it is still in the deal's cards: a loop
        // that stopped with them would mispredict its end once a game.
        for _ in 0..KEPT_AFTER_RESUMING {
            if let Some(outcome) = round::<W, RANK, GATHER, OPEN>(&mut game, p) {
                return game.result(outcome);
            }
            let played = game.rounds + game.wars;
            let keep = played < limit;
            // If kept, `rounds <= played < limit <= PREFIX_ROUNDS`; else the spare slot.
            let r = game.rounds as usize % PREFIX_ROUNDS;
            self.states[if keep { r } else { PREFIX_ROUNDS }] = game;
            let lane = 8 * r as u32;
            let with = self.played & !(0xFF << lane) | played << lane;
            self.played = select_unpredictable(keep, with, self.played);
        }
        run_on::<W, RANK, GATHER, OPEN>(start, game, p)
    }
}
