//! The fast path for three or more players: runs of battles without a tie (or, for oorlog's own
//! rules, with their wars played inside the run).
//!
//! Every player reveals one card per battle, so all heads advance together: one counter locates
//! them all, and the heads themselves stay fixed for the run (a war moves only the tied players'
//! heads). Only the winner's tail moves. The run stops after a round that needs
//! the engine's attention (a hand is empty, player 1's hand matches the cycle detector's key, an
//! event is due, or the tails near their limits).
//!
//! Three loops, from general to specialised: `run` plays any table size and gather order;
//! [`run_lanes`] (3 to 8 players, one card each to the winner in player order: every oorlog
//! sweep) packs a battle's cards and the hands' sizes one byte per player into words;
//! [`run_three`] (the default oorlog table) decides a battle with one lookup in a 4 KB table and
//! plays its wars out of line.
//!
//! A war's table can take a tail past the room the run started with; the run's round limit is
//! then recomputed from the tails ([`rounds_of_room`]), rather than shortened by a guess, which
//! stopped runs early (twice as many runs as needed under oorlog with three players).

mod lanes;
mod three;

use super::cycle::Key;
use super::hands::Hands;
use crate::deal::SplitMix64;
use crate::rules::{gather, holds_war, war_cards, with_gather_code, Card, Direction, Gather};
use crate::rules::{Order, PickUp, Rules, ShortWar, Strength, MAX_PLAYERS};
use lanes::*;
use three::*;
pub(crate) use three::{trio_table, TrioTable};

/// What a run counted.
pub(crate) struct Counts {
    pub rounds: u64,
    pub battles: u64,
    /// Wars settled inside the run (a tie that stops the run is left to the engine).
    pub wars: u64,
}

/// Plays a run of a game of three or more players, in the most specialised loop its rules and
/// hands allow (see the module's comment). `pile` has room for every card and [`MAX_PLAYERS`]
/// more; `trio` is the three-player table of the rules ([`trio_table`]), if they have one.
#[inline]
pub(crate) fn play(
    rules: &Rules,
    hands: &mut Hands,
    rng: &mut SplitMix64,
    pile: &mut [Card],
    trio: Option<&TrioTable>,
    stop_after: u64,
    key: Key,
) -> (Run, Counts) {
    let (strength, down) = (rules.strength(), rules.face_down());
    let order = rules.gather().order();
    // Oorlog's wars are played inside the run: their table goes in reveal order, and a tied
    // player short of cards ends the game on the hands.
    let wars_inside = order == Order::Reveal
        && match rules.short_war() {
            ShortWar::MostCards => true,
            ShortWar::Draw | ShortWar::Shorten | ShortWar::FirstOutLoses => false,
        };
    // Runs whose battles leave one card each in player order have loops of their own (three
    // players, byte lanes).
    if order.keeps_battle_in_player_order() {
        if let Some(table) = trio.filter(|_| fits_three(hands)) {
            return if wars_inside {
                run_three::<true>(hands, strength, table, pile, down, stop_after, key)
            } else {
                run_three::<false>(hands, strength, table, pile, down, stop_after, key)
            };
        }
        if fits_lanes(hands) {
            return if wars_inside {
                dispatch_lanes::<true>(hands, strength, pile, down, stop_after, key)
            } else {
                dispatch_lanes::<false>(hands, strength, pile, down, stop_after, key)
            };
        }
    }
    if wars_inside {
        const REVEAL: u8 = Gather::Reveal.code();
        return dispatch::<REVEAL, true>(hands, strength, rng, pile, down, stop_after, key);
    }
    macro_rules! go {
        ($gather:expr) => {
            dispatch::<{ $gather }, false>(hands, strength, rng, pile, down, stop_after, key)
        };
    }
    with_gather_code!(rules.gather(), go)
}

/// Why a run stopped.
pub(crate) enum Run {
    /// The last battle tied `tied[..count]`; `revealed[..players]` are on the table.
    Tie {
        revealed: [Card; MAX_PLAYERS],
        tied: [u8; MAX_PLAYERS],
        count: usize,
    },
    /// The last round was won and needs the engine's attention.
    Round,
    /// A tied player (one of those in the mask `tied`, bit p for player p) could not put down
    /// the cards of a war (wars inside a run only): the short-war policy ends the game.
    ShortWar { tied: u32 },
}

/// The wars played inside a run, and their battles (a war cut short has none).
#[derive(Default)]
struct WarTally {
    wars: u64,
    battles: u64,
}

impl WarTally {
    /// What a run of `rounds_begun` rounds, stopped by `run`, counted.
    fn counts(&self, rounds_begun: u64, run: &Run) -> Counts {
        let unfinished = !matches!(run, Run::Round);
        Counts {
            rounds: rounds_begun - u64::from(unfinished),
            battles: rounds_begun + self.battles,
            wars: self.wars,
        }
    }
}

/// The run's stop at a tie among `leaders` (bit p: player p), for the engine's general war.
fn tie(shown: &[Card], leaders: u32) -> Run {
    let mut revealed = [Card::default(); MAX_PLAYERS];
    revealed[..shown.len()].copy_from_slice(shown);
    let mut tied = [0u8; MAX_PLAYERS];
    let mut count = 0;
    for p in (0..shown.len()).filter(|p| leaders >> p & 1 == 1) {
        tied[count] = p as u8;
        count += 1;
    }
    Run::Tie {
        revealed,
        tied,
        count,
    }
}

/// How a war played inside a run ended.
enum War {
    /// `winner` takes the first `pile` cards of the pile.
    Won { winner: usize, pile: usize },
    /// A player among `tied` (bit p for player p) is short of cards for the next battle.
    Short { tied: u32 },
}

/// Plays rounds of a game of `players` (three or more) until a tie (a war, with `WARS`),
/// or until a round after which `stop_after` rounds have been played, a hand is empty, or player
/// 1's hand matches `key`. `pile` holds a war's table: room for every card of the game.
/// One loop of about 115 lines, kept whole on purpose: the hands' heads and sizes, the battle and
/// the war's state stay in registers from round to round, where calls between pieces would
/// pass them through memory on every battle (the hot loop of every sweep of 3 to 12 players).
#[inline(never)]
fn run<const GATHER: u8, const WARS: bool, const PLAYERS: usize>(
    hands: &mut Hands,
    strength: Strength,
    rng: &mut SplitMix64,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: Key,
) -> (Run, Counts) {
    let players = PLAYERS;
    let mut head = [0usize; PLAYERS];
    let mut tail = [0usize; PLAYERS];
    let mut limit = [0usize; PLAYERS];
    for p in 0..players {
        head[p] = hands.head[p] as usize;
        tail[p] = hands.tail[p] as usize;
        limit[p] = hands.limit[p] as usize;
    }
    // Every tail within its limit before each round: a whole deck fits after it.
    let mut stop_n = rounds_of_room(&limit, &tail, 0, stop_after.max(1) as usize);
    let key = (key.first.0 as usize) << 8 | key.first.1 as usize;
    let cards = &mut hands.cards[..];
    // Rounds begun; every player revealed one card in each, and a tied player also the cards of
    // the round's wars, which `head` has moved past.
    let mut n = 0;
    let mut war_tally = WarTally::default();
    let rules = WarRules {
        strength,
        face_down,
    };
    let run = loop {
        let mut shown = [Card::default(); PLAYERS];
        let mut seen = 0u64;
        for p in 0..players {
            debug_assert!(head[p] + n < tail[p], "player {p} has no card to show");
            // SAFETY: every hand had a card for each round so far (a run stops when a hand is
            // empty) and for the wars counted in `head`, so head + n < tail, inside the region.
            shown[p] = unsafe { *cards.get_unchecked(head[p] + n) };
            seen |= 1 << shown[p].value();
        }
        n += 1;
        let best = strength.strongest_present(seen);
        // Bit p set: player p shows the strongest card.
        let mut leaders = 0u32;
        for (p, card) in shown.iter().enumerate() {
            leaders |= u32::from(card.value() == best) << p;
        }
        let mut taken = players;
        if leaders.count_ones() > 1 {
            if !WARS {
                break tie(&shown, leaders);
            }
            let tied = TiedBattle { n, shown, leaders };
            let war = play_war(cards, pile, &mut head, &tail, tied, rules, &mut war_tally);
            match war {
                War::Short { tied } => break Run::ShortWar { tied },
                War::Won { winner, pile: size } => {
                    leaders = 1 << winner;
                    taken = size;
                }
            }
        }
        let winner = leaders.trailing_zeros() as usize;
        // Tails are only ever indexed by constants (the loops unroll), so they stay in
        // registers: the winner's is picked and every tail updated by multiplying with
        // `p == winner`, without a branch (a branch here mispredicts, a store by the winner's
        // index makes a store-to-load chain through the next battle).
        let mut t = 0;
        for (p, &end) in tail.iter().enumerate() {
            t += end * usize::from(p == winner);
        }
        if taken == players {
            // The run stops within `room` cards of the tails' limits, which lie a whole deck
            // before the ends of their regions: t + PLAYERS is in bounds (checked once here).
            let mut pickup = BattlePickUp {
                shown,
                to: &mut cards[t..t + PLAYERS],
                at: 0,
                rng,
            };
            gather(Gather::of_code(GATHER).order(), &mut pickup, winner);
        } else {
            cards[t..t + taken].copy_from_slice(&pile[..taken]);
        }
        for (p, end) in tail.iter_mut().enumerate() {
            *end += taken * usize::from(p == winner);
        }
        if taken > players {
            stop_n = rounds_of_room(&limit, &tail, n, stop_n);
        }
        let mut empty = false;
        for p in 0..players {
            empty |= tail[p] == head[p] + n;
        }
        let len0 = tail[0] - (head[0] + n);
        debug_assert!(head[0] + n <= tail[0] && tail[0] < cards.len());
        // SAFETY: head[0] + n <= tail[0], inside player 1's region (an empty hand reads a stale
        // card, and stops the run anyway).
        let top0 = unsafe { cards.get_unchecked(head[0] + n) }.value();
        let key_hit = (len0 << 8 | top0 as usize) == key;
        if (n >= stop_n) | key_hit | empty {
            break Run::Round;
        }
    };
    for p in 0..players {
        hands.head[p] = (head[p] + n) as u32;
        hands.tail[p] = tail[p] as u32;
    }
    let counts = war_tally.counts(n as u64, &run);
    (run, counts)
}

/// A battle without a war, one card a player (`shown`), and the winner's pick-up, written to
/// `to`.
struct BattlePickUp<'a, const PLAYERS: usize> {
    shown: [Card; PLAYERS],
    to: &'a mut [Card],
    at: usize,
    rng: &'a mut SplitMix64,
}

impl<const PLAYERS: usize> PickUp for BattlePickUp<'_, PLAYERS> {
    #[inline(always)]
    fn players(&self) -> usize {
        PLAYERS
    }
    #[inline(always)]
    fn put_player(&mut self, p: usize, _: Direction) {
        self.to[self.at] = self.shown[p];
        self.at += 1;
    }
    #[inline(always)]
    fn put_deciding(&mut self, p: usize) {
        self.put_player(p, Direction::AsPlayed);
    }
    #[inline(always)]
    fn put_earlier(&mut self, _: Direction) {}
    #[inline(always)]
    fn put_revealed(&mut self) {
        // One card each: reveal order is player order.
        self.to.copy_from_slice(&self.shown);
    }
    #[inline(always)]
    fn put_strongest(&mut self) {
        // Strongest value first, equal values in player order: an insertion sort.
        let to = &mut *self.to;
        to.copy_from_slice(&self.shown);
        for i in 1..PLAYERS {
            let mut j = i;
            while j > 0 && to[j - 1].value() < to[j].value() {
                to.swap(j - 1, j);
                j -= 1;
            }
        }
    }
    #[inline(always)]
    fn put_shuffled(&mut self) {
        self.rng.shuffle(&mut self.shown);
        self.to.copy_from_slice(&self.shown);
    }
}

/// What a war needs to know of the rules.
#[derive(Clone, Copy)]
struct WarRules {
    strength: Strength,
    face_down: usize,
}

/// The battle of round `n` of a run (counted from 1) that revealed `shown` and tied `leaders`
/// (bit p: player p).
#[derive(Clone, Copy)]
struct TiedBattle<const PLAYERS: usize> {
    n: usize,
    shown: [Card; PLAYERS],
    leaders: u32,
}

/// The war of the `tied` battle: wars in reveal order until one player wins, with the table
/// built in `pile` (room for every card and [`MAX_PLAYERS`] more). Counts each tie and each
/// battle it leads to in `tally`.
///
/// Whether a player is tied is data, not control: each visited player's cards go to the pile,
/// and only the tied players' count. Four players or more visit only the tied players, walking
/// the set bits of `leaders` (two in most wars; visiting all six cost some 200 instructions more
/// a war); three players visit all three, a walk whose length never varies (walking the tied
/// players' bits mispredicted: three-player oorlog's three-way wars, 91,000 mispredicted
/// branches over 20,000 games against 4,000).
#[inline(always)]
fn play_war<const PLAYERS: usize>(
    cards: &[Card],
    pile: &mut [Card],
    head: &mut [usize; PLAYERS],
    tail: &[usize; PLAYERS],
    tied: TiedBattle<PLAYERS>,
    rules: WarRules,
    tally: &mut WarTally,
) -> War {
    let TiedBattle {
        n,
        shown,
        mut leaders,
    } = tied;
    let WarRules {
        strength,
        face_down,
    } = rules;
    pile[..PLAYERS].copy_from_slice(&shown);
    let mut size = PLAYERS;
    // The players visited, lowest first: the tied ones, or all of them.
    let each = |leaders: u32| {
        let mut set = if PLAYERS == 3 { 0b111 } else { leaders };
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                let p = set.trailing_zeros() as usize;
                set &= set - 1;
                p
            })
        })
    };
    loop {
        tally.wars += 1;
        let tied = |p: usize| (leaders >> p & 1) as usize;
        // A player's region has room past its tail, so reading an untied player's next cards
        // is harmless.
        let short = each(leaders).fold(0, |short, p| {
            short | tied(p) & usize::from(!holds_war(face_down, tail[p] - (head[p] + n)))
        });
        if short != 0 {
            return War::Short { tied: leaders };
        }
        tally.battles += 1;
        // Face-down cards go down together, one from each tied player at a time.
        for k in 0..face_down {
            for p in each(leaders) {
                pile[size] = cards[head[p] + n + k];
                size += tied(p);
            }
        }
        let mut seen = 0u64;
        let mut revealed = [0u8; PLAYERS];
        for p in each(leaders) {
            let card = cards[head[p] + n + face_down];
            pile[size] = card;
            size += tied(p);
            head[p] += tied(p) * war_cards(face_down);
            revealed[p] = card.value();
            seen |= (tied(p) as u64) << revealed[p];
        }
        let best = strength.strongest_present(seen);
        leaders = each(leaders).fold(0, |next, p| {
            next | (tied(p) as u32 & u32::from(revealed[p] == best)) << p
        });
        if leaders.count_ones() == 1 {
            return War::Won {
                winner: leaders.trailing_zeros() as usize,
                pile: size,
            };
        }
    }
}

/// The round after which a run must stop, `n` rounds in with its tails at `tail`: the engine's
/// stop `stop_n`, or earlier, so that before every later round each tail is within its limit
/// (a battle adds one card a player to one tail; a war's table counts only once it is won).
/// A war's table can take a tail past its limit: then the run stops now.
fn rounds_of_room(limit: &[usize], tail: &[usize], n: usize, stop_n: usize) -> usize {
    let mut room = usize::MAX;
    for (&end, &at) in limit.iter().zip(tail) {
        let Some(left) = end.checked_sub(at) else {
            return n;
        };
        room = room.min(left);
    }
    stop_n.min(n + room / tail.len() + 1)
}

/// Calls `run_lanes::<WARS, N>` for the game's player count (3 to 8).
fn dispatch_lanes<const WARS: bool>(
    hands: &mut Hands,
    strength: Strength,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: Key,
) -> (Run, Counts) {
    match hands.players() {
        3 => run_lanes::<WARS, 3>(hands, strength, pile, face_down, stop_after, key),
        4 => run_lanes::<WARS, 4>(hands, strength, pile, face_down, stop_after, key),
        5 => run_lanes::<WARS, 5>(hands, strength, pile, face_down, stop_after, key),
        6 => run_lanes::<WARS, 6>(hands, strength, pile, face_down, stop_after, key),
        7 => run_lanes::<WARS, 7>(hands, strength, pile, face_down, stop_after, key),
        8 => run_lanes::<WARS, 8>(hands, strength, pile, face_down, stop_after, key),
        n => unreachable!("byte lanes hold 3 to 8 players, not {n}"),
    }
}

/// Calls `run::<GATHER, WARS, N>` for the game's player count, so that each table size gets
/// its own fully unrolled loop.
fn dispatch<const GATHER: u8, const WARS: bool>(
    hands: &mut Hands,
    strength: Strength,
    rng: &mut SplitMix64,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: Key,
) -> (Run, Counts) {
    macro_rules! players {
        ($($n:literal)+) => {
            match hands.players() {
                $($n => run::<GATHER, WARS, $n>(hands, strength, rng, pile, face_down, stop_after, key),)+
                n => unreachable!("the crowd path plays 3 to 12 players, not {n}"),
            }
        };
    }
    players!(3 4 5 6 7 8 9 10 11 12)
}
