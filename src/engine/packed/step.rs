//! One round in words: the battle, the wars, and who takes the table.

use super::word::Word;
use super::{Game, Params};
use crate::engine::cycle::{Copies, Replay};
use crate::engine::pair::{p1_wins, PLAIN};
use crate::engine::{short_war, Outcome};
use crate::rules::{gather, holds_war, war_cards, Direction};
use crate::rules::{of_two, two_players, Gather, PickUp, Rules, TwoCards};
use std::hint::select_unpredictable;

/// Plays one round; the game's end if it ended. Both hands hold cards when it starts.
#[inline(always)]
pub(super) fn round<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    game: &mut Game<W>,
    p: &Params,
) -> Option<Outcome> {
    if OPEN {
        return round_open::<W, RANK, GATHER, OPEN>(game, p);
    }
    // Values kept in full words: no narrowing or widening on the way to the pair.
    let (a, b) = (game.h0 & W::CARD, game.h1 & W::CARD);
    if a == b {
        return war::<W, RANK, GATHER, OPEN>(game, p);
    }
    // Plain: the words compare as the values do. Otherwise the one two-card comparison.
    let p1 = if RANK == PLAIN {
        a > b
    } else {
        p1_wins::<RANK>(a.card(0), b.card(0), p.ace, p.low_top)
    };
    let battle = TwoCards::new([a, b], || unreachable!("`width` refuses the random gather"));
    let [first, second] = battle.gathered(Gather::of_code(GATHER).order(), p1);
    let b = W::CARD_BITS;
    let pair = first | second << b;
    take(game, p, p1, (game.h0 >> b, game.h1 >> b), pair, b)
}

/// The end of a round: player 1 (`p1`) or player 2 takes `table` after the cards it has left
/// (`rest`: each hand past the `down` bits it put on the table), with no branch on who won;
/// or the game ends because the other has none left.
#[inline(always)]
pub(super) fn take<W: Word>(
    game: &mut Game<W>,
    p: &Params,
    p1: bool,
    (r0, r1): (W, W),
    table: W,
    down: u32,
) -> Option<Outcome> {
    let (won, lost) = if p1 { (r0, r1) } else { (r1, r0) };
    game.rounds += 1;
    if lost == W::ZERO {
        return Some(Outcome::Win(usize::from(!p1)));
    }
    // The winner's last card, in bits: tracked beside the hands rather than read off them,
    // which would lengthen the chain from one round's hands to the next.
    // Who won is a coin toss: selected, never branched on.
    let end0 = game.end0;
    let end = select_unpredictable(p1, end0, p.ends - end0) + W::CARD_BITS - down;
    game.end0 = select_unpredictable(p1, end0 + down, end0.wrapping_sub(down));
    let won = won | table << end;
    (game.h0, game.h1) = if p1 { (won, lost) } else { (lost, won) };
    None
}

/// A round of open war (no card face down), with a war of one battle played without a branch.
/// A tie opens one round in four, at random: a branch on it is mispredicted, and a
/// misprediction costs as much as the whole round. Only a war of two battles or more, or one a
/// player cannot finish, goes to `war`.
#[inline(always)]
pub(super) fn round_open<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    game: &mut Game<W>,
    p: &Params,
) -> Option<Outcome> {
    let (h0, h1) = (game.h0, game.h1);
    let (a0, b0) = (h0 & W::CARD, h1 & W::CARD);
    // Two ties in a row: a war of two battles or more, for `war`.
    if (h0 ^ h1) & W::TWO_CARDS == W::ZERO {
        return war::<W, RANK, GATHER, OPEN>(game, p);
    }
    let tie = a0 == b0;
    // The deciding battle's cards: the second ones after a tie.
    let shown = W::CARD_BITS * u32::from(tie);
    let (a, b) = (h0 >> shown & W::CARD, h1 >> shown & W::CARD);
    // A player without a second card for a war. Under the plain ranking the empty place (0)
    // loses the deciding battle below, which leaves that player nothing: the test waits for
    // the game's end. Oorlog's 2 beats an ace, and might beat an empty place.
    if RANK != PLAIN && tie && (a == W::ZERO || b == W::ZERO) {
        return war::<W, RANK, GATHER, OPEN>(game, p);
    }
    // Plain: the words compare as the values do. Otherwise the one two-card comparison.
    let p1 = if RANK == PLAIN {
        a > b
    } else {
        p1_wins::<RANK>(a.card(0), b.card(0), p.ace, p.low_top)
    };
    let mut pickup = OpenRound {
        tied: a0,
        deciding: [a, b],
        tie,
        table: Gathered::default(),
    };
    gather(
        Gather::of_code(GATHER).order(),
        &mut pickup,
        usize::from(!p1),
    );
    // Bits each player put on the table.
    let down = shown + W::CARD_BITS;
    let rest = (h0 >> down, h1 >> down);
    // A player without a second card for a war lands here too, left with nothing: `war`
    // applies the short-war policy (and plays a war that ends the game as any other).
    if (if p1 { rest.1 } else { rest.0 }) == W::ZERO && tie {
        return war::<W, RANK, GATHER, OPEN>(game, p);
    }
    game.wars += u64::from(tie);
    take(game, p, p1, rest, pickup.table.word, down)
}

/// A pick-up being built in a word: its cards from the lowest bits, `bits` of them so far.
#[derive(Clone, Copy, Default)]
pub(super) struct Gathered<W> {
    word: W,
    bits: u32,
}

impl<W: Word> Gathered<W> {
    /// Puts `count` cards (`run`, the first lowest) after those so far.
    #[inline(always)]
    fn put(&mut self, run: W, count: u32) {
        self.word = self.word | run << self.bits;
        self.bits += W::CARD_BITS * count;
    }
}

/// The table of a round of open war that [`round_open`] plays, a tie or not, and its pick-up:
/// the deciding pair, and with a tie the tied pair before it (the same value for both).
pub(super) struct OpenRound<W> {
    tied: W,
    deciding: [W; 2],
    tie: bool,
    table: Gathered<W>,
}

impl<W: Word> PickUp for OpenRound<W> {
    two_players!();
    #[inline(always)]
    fn put_player(&mut self, _: usize, _: Direction) {
        unreachable!("`open_round_plays` takes the orders that put the deciding battle first")
    }
    #[inline(always)]
    fn put_deciding(&mut self, p: usize) {
        self.table.put(of_two(self.deciding, p), 1);
    }
    #[inline(always)]
    fn put_earlier(&mut self, direction: Direction) {
        // Two cards of the same value: either direction reads them alike.
        let (Direction::AsPlayed | Direction::LatestFirst) = direction;
        let pair = self.tied | self.tied << W::CARD_BITS;
        self.table
            .put(pair & W::all_if(self.tie), 2 * u32::from(self.tie));
    }
    #[inline(always)]
    fn put_revealed(&mut self) {
        unreachable!("`open_round_plays` takes the orders that put the deciding battle first")
    }
    fn put_strongest(&mut self) {
        unreachable!("`open_round_plays` takes the orders that put the deciding battle first")
    }
    fn put_shuffled(&mut self) {
        unreachable!("`width` refuses the random gather")
    }
}

/// The tie opening a round (both top cards equal): wars until one player takes the table, or
/// the game ends because a player is short of cards (the short-war policy).
#[inline(always)]
pub(super) fn war<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool>(
    game: &mut Game<W>,
    p: &Params,
) -> Option<Outcome> {
    let b = W::CARD_BITS;
    let len0 = game.end0 / b + 1;
    let len1 = p.total - len0;
    // What each hand holds past the table, and how many cards each has put on it.
    let (mut r0, mut r1) = (game.h0 >> b, game.h1 >> b);
    let mut m = 1;
    // The cards before the deciding battle, built as they come in the direction the gather
    // reads them (`Order::earlier`): player 1's card, then player 2's, at each step, or the
    // reverse of that. Unused by the other gathers.
    let earlier_direction = Gather::of_code(GATHER).order().earlier();
    let mut earlier = W::ZERO;
    let mut lay = |r0: W, r1: W, step: u32| match earlier_direction {
        Some(Direction::LatestFirst) => {
            earlier = earlier << (2 * b) | W::of(r1.card(0)) | W::of(r0.card(0)) << b;
        }
        Some(Direction::AsPlayed) => {
            let pair = W::of(r0.card(0)) | W::of(r1.card(0)) << b;
            earlier = earlier | pair << (2 * b * step);
        }
        None => {}
    };
    lay(game.h0, game.h1, 0);
    // Cards the shorter hand holds past the table.
    let mut spare = len0.min(len1) - 1;
    let p1 = loop {
        game.wars += 1;
        let down = if holds_war(p.face_down as usize, spare as usize) {
            p.face_down
        } else {
            match short(p.rules, len0 - m, len1 - m) {
                Ok(down) => down,
                // The war counted is the round's opening battle, which no finished round
                // counts.
                Err(outcome) => return Some(outcome),
            }
        };
        spare -= war_cards(down as usize) as u32;
        if earlier_direction.is_some() {
            // Each player has put `m + i` cards down before this one.
            for i in 0..down {
                lay(r0, r1, m + i);
                (r0, r1) = (r0 >> b, r1 >> b);
            }
        } else {
            (r0, r1) = (r0 >> (b * down), r1 >> (b * down));
        }
        m += war_cards(down as usize) as u32;
        let (x, y) = (r0.card(0), r1.card(0));
        if x != y {
            (r0, r1) = (r0 >> b, r1 >> b);
            break p1_wins::<RANK>(x, y, p.ace, p.low_top);
        }
        lay(r0, r1, m - 1);
        (r0, r1) = (r0 >> b, r1 >> b);
    };
    // The table: the first `m` cards of each hand.
    let mask = (W::ONE << (b * m)) - W::ONE;
    let mut pickup = WarTable {
        cards: [game.h0 & mask, game.h1 & mask],
        m,
        earlier,
        table: Gathered::default(),
    };
    gather(
        Gather::of_code(GATHER).order(),
        &mut pickup,
        usize::from(!p1),
    );
    take(game, p, p1, (r0, r1), pickup.table.word, b * m)
}

/// A war's table, the first `m` cards of each hand (`cards`, each its player's run as played,
/// the first lowest), and its pick-up.
pub(super) struct WarTable<W> {
    cards: [W; 2],
    m: u32,
    /// The cards before the deciding battle, as `war` built them in the gather's direction.
    earlier: W,
    table: Gathered<W>,
}

impl<W: Word> WarTable<W> {
    /// Both players' cards in reveal order: player 1's, then player 2's, at each step.
    #[inline(always)]
    fn interleaved(&self) -> W {
        let [c0, c1] = self.cards;
        let mut table = W::ZERO;
        let b = W::CARD_BITS;
        for j in 0..self.m {
            table = table | W::of(c0.card(j)) << (2 * b * j) | W::of(c1.card(j)) << (2 * b * j + b);
        }
        table
    }

    /// Puts `run`, `count` cards, read in `direction`.
    #[inline(always)]
    fn put(&mut self, run: W, count: u32, direction: Direction) {
        let run = match direction {
            Direction::AsPlayed => run,
            Direction::LatestFirst => run.reverse_cards(count),
        };
        self.table.put(run, count);
    }
}

impl<W: Word> PickUp for WarTable<W> {
    two_players!();
    #[inline(always)]
    fn put_player(&mut self, p: usize, direction: Direction) {
        self.put(of_two(self.cards, p), self.m, direction);
    }
    #[inline(always)]
    fn put_deciding(&mut self, p: usize) {
        // The deciding card is the last of each player's run.
        self.table
            .put(of_two(self.cards, p) >> (W::CARD_BITS * (self.m - 1)), 1);
    }
    #[inline(always)]
    fn put_earlier(&mut self, _: Direction) {
        // Built in this direction already (`Order::earlier`).
        self.table.put(self.earlier, 2 * (self.m - 1));
    }
    #[inline(always)]
    fn put_revealed(&mut self) {
        let all = self.interleaved();
        self.table.put(all, 2 * self.m);
    }
    #[inline(always)]
    fn put_strongest(&mut self) {
        // Strongest value first; equal values cannot be told apart here.
        let mut count = [0u32; 16];
        for j in 0..self.m {
            count[self.cards[0].card(j) as usize] += 1;
            count[self.cards[1].card(j) as usize] += 1;
        }
        for v in (1..16u8).rev() {
            for _ in 0..count[v as usize] {
                self.table.put(W::of(v), 1);
            }
        }
    }
    fn put_shuffled(&mut self) {
        unreachable!("`width` refuses the random gather")
    }
}

/// The short-war policy when the players hold `left0` and `left1` cards past the table: out of
/// the war's loop, which then keeps no array of them.
#[cold]
#[inline(never)]
pub(super) fn short(rules: &Rules, left0: u32, left1: u32) -> Result<u32, Outcome> {
    short_war(rules, &[0, 1], |q| if q == 0 { left0 } else { left1 })
}

/// A looping game replayed from its deal: no snapshots are kept, since a game of so few cards
/// replays cheaply.
pub(super) struct FromStart<'a, 'b, W, const RANK: u8, const GATHER: u8, const OPEN: bool> {
    pub(super) start: Game<W>,
    pub(super) p: &'a Params<'b>,
}

impl<W: Word, const RANK: u8, const GATHER: u8, const OPEN: bool> Replay
    for FromStart<'_, '_, W, RANK, GATHER, OPEN>
{
    type Live = Game<W>;

    fn rebuild(&mut self, game: &mut Game<W>, round: u64) {
        *game = self.start;
        for _ in 0..round {
            self.step(game);
        }
    }

    #[inline(always)]
    fn step(&mut self, game: &mut Game<W>) {
        let end = round::<W, RANK, GATHER, OPEN>(game, self.p);
        debug_assert!(end.is_none(), "a cycling game ended in its replay");
    }

    fn same(&self, a: &Game<W>, b: &Game<W>) -> bool {
        a.matches(b)
    }
}
