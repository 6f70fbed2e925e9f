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
//! `run_lanes` (3 to 8 players, one card each to the winner in player order: every oorlog
//! sweep) packs a battle's cards and the hands' sizes one byte per player into words;
//! `run_three` (the default oorlog table) decides a battle with one lookup in a 4 KB table.

use super::hands::Hands;
use crate::deal::SplitMix64;
use crate::rules::{Card, Gather, Rules, ShortWar, Strength, MAX_PLAYERS};

/// Gather orders, as const parameters: player 1's card first (`reveal`, `p1-first`), the
/// winner's first (`winner-first`, `natural`), the higher value first (`sorted`), or a
/// shuffle (`random`).
const P1_FIRST: u8 = 0;
const WINNER_FIRST: u8 = 1;
const RANDOM: u8 = 2;
const HIGHER_FIRST: u8 = 3;
/// The `reveal` order with oorlog's wars played inside the run.
const REVEAL_WARS: u8 = 4;

/// What a run counted.
pub(crate) struct Counts {
    pub rounds: u64,
    pub battles: u64,
    /// Wars settled inside the run (a tie that stops the run is left to the engine).
    pub wars: u64,
    /// Completed rounds before the last one: they needed nothing but counting.
    pub quiet_rounds: u64,
}

/// Plays a run of a game of three or more players, in the most specialised loop its rules and
/// hands allow (see the module's comment). `pile` has room for every card and `MAX_PLAYERS`
/// more.
#[inline]
pub(crate) fn play(
    rules: &Rules,
    hands: &mut Hands,
    rng: &mut SplitMix64,
    pile: &mut [Card],
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    let (strength, down) = (rules.strength, rules.face_down);
    let wars_inside = rules.gather == Gather::Reveal && rules.short_war == ShortWar::MostCards;
    let one_card_each = matches!(rules.gather, Gather::Reveal | Gather::P1First);
    match rules.gather {
        _ if one_card_each
            && trio_table(strength, rules.deck.values).is_some()
            && fits_three(hands) =>
        {
            let table = trio_table(strength, rules.deck.values).expect("checked");
            if wars_inside {
                run_three::<REVEAL_WARS>(hands, strength, table, pile, down, stop_after, key)
            } else {
                run_three::<P1_FIRST>(hands, strength, table, pile, down, stop_after, key)
            }
        }
        _ if one_card_each && fits_lanes(hands) => {
            if wars_inside {
                dispatch_lanes::<REVEAL_WARS>(hands, strength, pile, down, stop_after, key)
            } else {
                dispatch_lanes::<P1_FIRST>(hands, strength, pile, down, stop_after, key)
            }
        }
        Gather::Reveal if wars_inside => {
            dispatch::<REVEAL_WARS>(hands, strength, rng, pile, down, stop_after, key)
        }
        Gather::Reveal | Gather::P1First => {
            dispatch::<P1_FIRST>(hands, strength, rng, pile, down, stop_after, key)
        }
        // One card each: the winning card, then the others in player order.
        Gather::WinnerFirst | Gather::Natural => {
            dispatch::<WINNER_FIRST>(hands, strength, rng, pile, down, stop_after, key)
        }
        Gather::Sorted => {
            dispatch::<HIGHER_FIRST>(hands, strength, rng, pile, down, stop_after, key)
        }
        Gather::Random => dispatch::<RANDOM>(hands, strength, rng, pile, down, stop_after, key),
    }
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
    /// A tied player could not put down the cards of a war (`REVEAL_WARS` only): the game is
    /// over, the cards on the table out of play.
    ShortWar,
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
            quiet_rounds: rounds_begun - 1,
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
    Won {
        winner: usize,
        pile: usize,
    },
    Short,
}

/// Plays rounds of a game of `players` (three or more) until a tie (a war, for `REVEAL_WARS`),
/// or until a round after which `stop_after` rounds have been played, a hand is empty, or player
/// 1's hand matches `key`. `pile` holds a war's table: room for every card of the game.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run<const GATHER: u8, const PLAYERS: usize>(
    hands: &mut Hands,
    strength: Strength,
    rng: &mut SplitMix64,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    let players = PLAYERS;
    let mut head = [0usize; PLAYERS];
    let mut tail = [0usize; PLAYERS];
    let mut room = usize::MAX;
    for p in 0..players {
        head[p] = hands.head[p] as usize;
        tail[p] = hands.tail[p] as usize;
        room = room.min(hands.limit[p] as usize - tail[p]);
    }
    // Each round adds at least `players` cards to one tail; a round that adds more (a war) counts
    // as several. While the rounds so far count for fewer than this, every tail is within its
    // limit, and a whole deck fits after it.
    let mut stop_n = stop_after.min((room / players) as u64 + 1).max(1) as usize;
    let key = (key.0 as usize) << 8 | key.1 as usize;
    let cards = &mut hands.cards[..];
    // Rounds begun; every player revealed one card in each, and a tied player also the cards of
    // the round's wars, which `head` has moved past.
    let mut n = 0;
    let mut war_tally = WarTally::default();
    let run = loop {
        let mut shown = [Card::default(); PLAYERS];
        let mut seen = 0u64;
        for p in 0..players {
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
            if GATHER != REVEAL_WARS {
                break tie(&shown, leaders);
            }
            let war = play_war(
                cards,
                pile,
                &mut head,
                &tail,
                n,
                shown,
                leaders,
                strength,
                face_down,
                &mut war_tally,
            );
            match war {
                War::Short => break Run::ShortWar,
                War::Won { winner, pile: size } => {
                    leaders = 1 << winner;
                    taken = size;
                    // The extra cards count as the rounds they could have filled.
                    stop_n = stop_n.saturating_sub(size.div_ceil(players) - 1);
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
            let gathered = &mut cards[t..t + PLAYERS];
            match GATHER {
                WINNER_FIRST => {
                    gathered[0] = shown[winner];
                    let mut at = 1;
                    for (p, &card) in shown.iter().enumerate() {
                        if p != winner {
                            gathered[at] = card;
                            at += 1;
                        }
                    }
                }
                RANDOM => {
                    rng.shuffle(&mut shown);
                    gathered.copy_from_slice(&shown);
                }
                HIGHER_FIRST => {
                    // Strongest value first, equal values in player order: an insertion sort.
                    gathered.copy_from_slice(&shown);
                    for i in 1..PLAYERS {
                        let mut j = i;
                        while j > 0 && gathered[j - 1].value() < gathered[j].value() {
                            gathered.swap(j - 1, j);
                            j -= 1;
                        }
                    }
                }
                // One card each: reveal order is player order.
                _ => gathered.copy_from_slice(&shown),
            }
        } else {
            cards[t..t + taken].copy_from_slice(&pile[..taken]);
        }
        for (p, end) in tail.iter_mut().enumerate() {
            *end += taken * usize::from(p == winner);
        }
        let mut empty = false;
        for p in 0..players {
            empty |= tail[p] == head[p] + n;
        }
        let len0 = tail[0] - (head[0] + n);
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

/// A tie among `leaders` in the battle that revealed `shown` (round `n` of the run): wars in
/// reveal order until one player wins, with the table built in `pile` (room for every card and
/// `MAX_PLAYERS` more). Counts each tie and each battle it leads to in `tally`.
///
/// Whether a player is tied is data, not control: every player's cards are read and written to
/// the pile, and only the tied players' count (a branch per player would mispredict in one war
/// out of two).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn play_war<const PLAYERS: usize>(
    cards: &[Card],
    pile: &mut [Card],
    head: &mut [usize; PLAYERS],
    tail: &[usize; PLAYERS],
    n: usize,
    shown: [Card; PLAYERS],
    mut leaders: u32,
    strength: Strength,
    face_down: usize,
    tally: &mut WarTally,
) -> War {
    pile[..PLAYERS].copy_from_slice(&shown);
    let mut size = PLAYERS;
    loop {
        tally.wars += 1;
        let tied = |p: usize| (leaders >> p & 1) as usize;
        let mut short = 0;
        for p in 0..PLAYERS {
            short |= tied(p) & usize::from(tail[p] - (head[p] + n) <= face_down);
        }
        if short != 0 {
            return War::Short;
        }
        tally.battles += 1;
        // Face-down cards go down together, one from each tied player at a time. A player's
        // region has room past its tail, so reading an untied player's next cards is harmless.
        for k in 0..face_down {
            for p in 0..PLAYERS {
                pile[size] = cards[head[p] + n + k];
                size += tied(p);
            }
        }
        let mut seen = 0u64;
        let mut revealed = [0u8; PLAYERS];
        for p in 0..PLAYERS {
            let card = cards[head[p] + n + face_down];
            pile[size] = card;
            size += tied(p);
            head[p] += tied(p) * (face_down + 1);
            revealed[p] = card.value();
            seen |= (tied(p) as u64) << revealed[p];
        }
        let best = strength.strongest_present(seen);
        let mut next = 0;
        for (p, &value) in revealed.iter().enumerate() {
            next |= (tied(p) as u32 & u32::from(value == best)) << p;
        }
        leaders = next;
        if leaders.count_ones() == 1 {
            return War::Won {
                winner: leaders.trailing_zeros() as usize,
                pile: size,
            };
        }
    }
}

/// What a three-player battle's values decide, indexed by `v1 | v2 << 4 | v3 << 8` (values
/// below 16): the winner's lane shift (`16 * winner`), or `TRIO_TIE | leaders` when two or
/// three cards tie.
type TrioTable = [u8; 4096];
const TRIO_TIE: u8 = 0x80;

/// The table for `strength`, generated from `Strength::strongest_present` itself.
const fn make_trio_table(strength: Strength) -> TrioTable {
    let mut table = [0u8; 4096];
    let mut index = 0;
    while index < 4096 {
        let values = [index & 15, index >> 4 & 15, index >> 8];
        let seen: u64 = 1 << values[0] | 1 << values[1] | 1 << values[2];
        let best = strength.strongest_present(seen) as usize;
        let mut leaders = 0u8;
        let mut p = 0;
        while p < 3 {
            if values[p] == best {
                leaders |= 1 << p;
            }
            p += 1;
        }
        table[index] = if leaders == 1 || leaders == 2 || leaders == 4 {
            16 * leaders.trailing_zeros() as u8
        } else {
            TRIO_TIE | leaders
        };
        index += 1;
    }
    table
}

/// The two rankings the three-player loop has tables for: plain, and oorlog's on 13 values
/// (ace 12, 2s and 3s 0 and 1).
const PLAIN: Strength = Strength {
    ace: None,
    low_top: 0,
};
const OORLOG_13: Strength = Strength {
    ace: Some(12),
    low_top: 1,
};
static TRIO_PLAIN: TrioTable = make_trio_table(PLAIN);
static TRIO_OORLOG_13: TrioTable = make_trio_table(OORLOG_13);

/// The three-player table for `strength` on a deck of `values` values, if there is one: the
/// table indexes four bits per value, and exists for two rankings only. Any other setting
/// takes the byte-lane or general loop.
fn trio_table(strength: Strength, values: u8) -> Option<&'static TrioTable> {
    if values > 16 {
        None
    } else if strength == PLAIN {
        Some(&TRIO_PLAIN)
    } else if strength == OORLOG_13 {
        Some(&TRIO_OORLOG_13)
    } else {
        None
    }
}

/// Sixteen-bit lanes, one per player (lane 3 unused): tails and heads packed in one word each,
/// so that the winner's tail is picked and moved by a shift, and "is any hand empty" is one
/// subtraction and a zero-lane test.
const LANE_ONES: u64 = 0x0001_0001_0001_0001;
const LANE_HIGHS: u64 = 0x8000_8000_8000_8000;
/// Lane 3 of the tails: keeps that unused lane of `tails - heads` from looking empty.
const LANE_3_FULL: u64 = 1 << 48;
/// One card more for each of the three players.
const THREE_LANES: u64 = 0x0000_0001_0001_0001;

/// Whether `run_three` can play this game: every position of the hands fits in a lane.
fn fits_three(hands: &Hands) -> bool {
    hands.players() == 3 && hands.cards.len() < 1 << 15
}

/// `run::<GATHER, 3>` for `P1_FIRST` and `REVEAL_WARS`, the oorlog default, specialised: a 4 KB
/// table decides each battle, the three cards are stored as one word, and tails and heads live
/// in sixteen-bit lanes (see `LANE_ONES`). About a third of the instructions of the general
/// loop. The caller checks `fits_three` and passes the table `trio_table` gives.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_three<const GATHER: u8>(
    hands: &mut Hands,
    strength: Strength,
    table: &TrioTable,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    debug_assert!(fits_three(hands) && (GATHER == P1_FIRST || GATHER == REVEAL_WARS));
    let mut head = [0, 1, 2].map(|p| hands.head[p] as usize);
    let mut room = usize::MAX;
    let mut tails = LANE_3_FULL;
    for p in 0..3 {
        tails |= (hands.tail[p] as u64) << (16 * p);
        room = room.min((hands.limit[p] - hands.tail[p]) as usize);
    }
    let lanes = |at: [usize; 3]| at[0] as u64 | (at[1] as u64) << 16 | (at[2] as u64) << 32;
    // Each player's next card, lane by lane (advanced once per round, and past a war's cards).
    let mut heads = lanes(head);
    // As in `run`: rounds that count for fewer than this keep every tail within its limit.
    let mut stop_n = stop_after.min((room / 3) as u64 + 1).max(1) as usize;
    let key = (key.0 as u64) << 8 | key.1 as u64;
    let cards = &mut hands.cards[..];
    let mut n = 0;
    let mut war_tally = WarTally::default();
    let run = loop {
        // SAFETY: as in `run`: head + n < tail for every player, inside the array.
        let shown = unsafe {
            [
                *cards.get_unchecked(head[0] + n),
                *cards.get_unchecked(head[1] + n),
                *cards.get_unchecked(head[2] + n),
            ]
        };
        n += 1;
        heads += THREE_LANES;
        let [a, b, c] = shown.map(|card| card.value() as usize);
        let decision = table[a | b << 4 | c << 8];
        let (shift, taken) = if decision & TRIO_TIE == 0 {
            (decision, 3)
        } else {
            let leaders = u32::from(decision & !TRIO_TIE);
            if GATHER != REVEAL_WARS {
                break tie(&shown, leaders);
            }
            let tail = [0, 1, 2].map(|p| (tails >> (16 * p) & 0xFFFF) as usize);
            let war = play_war(
                cards,
                pile,
                &mut head,
                &tail,
                n,
                shown,
                leaders,
                strength,
                face_down,
                &mut war_tally,
            );
            let War::Won { winner, pile: size } = war else {
                break Run::ShortWar;
            };
            heads = lanes(head.map(|h| h + n));
            stop_n = stop_n.saturating_sub(size.div_ceil(3) - 1);
            (16 * winner as u8, size)
        };
        let t = (tails >> shift & 0xFFFF) as usize;
        let word = shown[0].0 as u64 | (shown[1].0 as u64) << 16 | (shown[2].0 as u64) << 32;
        // SAFETY: the winner's tail is within its limit, a whole deck (at least 16 cards, see
        // `Hands::new`) before its region's end, so t + 4 is inside the array; the fourth card
        // lands past the tail, where nothing lives. The pointer is taken afresh from `cards`.
        unsafe {
            cards
                .as_mut_ptr()
                .add(t)
                .cast::<u64>()
                .write_unaligned(word)
        };
        if taken > 3 {
            // A war: the three revealed cards open the pile, the rest follows them.
            cards[t + 3..t + taken].copy_from_slice(&pile[3..taken]);
        }
        tails += (taken as u64) << shift;
        // Cards left, lane by lane: no lane borrows, because no head passes its tail.
        let left = tails - heads;
        let empty = (left.wrapping_sub(LANE_ONES) & !left & LANE_HIGHS) != 0;
        // SAFETY: head[0] + n <= tail[0], inside the array (an empty hand reads a stale card, and
        // stops the run anyway).
        let top0 = unsafe { cards.get_unchecked(head[0] + n) }.value();
        let key_hit = ((left & 0xFFFF) << 8 | top0 as u64) == key;
        if (n >= stop_n) | key_hit | empty {
            break Run::Round;
        }
    };
    for (p, h) in head.into_iter().enumerate() {
        hands.head[p] = (h + n) as u32;
        hands.tail[p] = (tails >> (16 * p) & 0xFFFF) as u32;
    }
    let counts = war_tally.counts(n as u64, &run);
    (run, counts)
}

/// `byte` repeated in each of the lowest `PLAYERS` bytes of a word.
const fn each_lane(byte: u64, players: usize) -> u64 {
    let mut word = 0;
    let mut p = 0;
    while p < players {
        word |= byte << (8 * p);
        p += 1;
    }
    word
}

/// Whether `run_lanes` can play this game: 3 to 8 players, one per byte of a word, and hands
/// short enough for a byte lane with a spare high bit.
fn fits_lanes(hands: &Hands) -> bool {
    (3..=8).contains(&hands.players()) && hands.room() < 128
}

/// `run::<GATHER, PLAYERS>` for `P1_FIRST` and `REVEAL_WARS` (every oorlog sweep), with one byte
/// per player in two words: the values of a battle and the hands' sizes. The tied players are
/// a zero-byte test, the winner's tail its head plus its size, and "is any hand empty" another
/// zero-byte test, so a battle costs a few instructions per player instead of a dozen. The
/// caller checks `fits_lanes`.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_lanes<const GATHER: u8, const PLAYERS: usize>(
    hands: &mut Hands,
    strength: Strength,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    debug_assert!(fits_lanes(hands) && (GATHER == P1_FIRST || GATHER == REVEAL_WARS));
    let ones = const { each_lane(0x01, PLAYERS) };
    let highs = const { each_lane(0x80, PLAYERS) };
    let mut head: [usize; PLAYERS] = std::array::from_fn(|p| hands.head[p] as usize);
    let mut room = usize::MAX;
    // Byte p: player p's hand size.
    let mut sizes = 0u64;
    for p in 0..PLAYERS {
        sizes |= u64::from(hands.len(p)) << (8 * p);
        room = room.min((hands.limit[p] - hands.tail[p]) as usize);
    }
    let size_of = |sizes: u64, p: usize| (sizes >> (8 * p) & 0xFF) as usize;
    // As in `run`: rounds that count for fewer than this keep every tail within its limit.
    let mut stop_n = stop_after.min((room / PLAYERS) as u64 + 1).max(1) as usize;
    let key = (key.0 as u64) << 8 | key.1 as u64;
    let cards = &mut hands.cards[..];
    let mut n = 0;
    let mut war_tally = WarTally::default();
    let run = loop {
        // Byte p: player p's value. Bit v: some player shows value v.
        let (mut values, mut seen) = (0u64, 0u64);
        let mut shown = [Card::default(); PLAYERS];
        for (p, &h) in head.iter().enumerate() {
            // SAFETY: as in `run`: head + n < tail for every player, inside the array.
            shown[p] = unsafe { *cards.get_unchecked(h + n) };
            values |= u64::from(shown[p].value()) << (8 * p);
            seen |= 1 << shown[p].value();
        }
        n += 1;
        sizes -= ones;
        let best = u64::from(strength.strongest_present(seen));
        // Zero in the lanes of the players who show the strongest value (values are below 64,
        // so each lane's high bit is clear).
        let diff = values ^ (best * ones);
        // The high bit of each lane: set where the lane is not zero (no carry between lanes).
        let nonzero = (((diff & !highs) + !highs) | diff) & highs;
        let leaders = !nonzero & highs;
        let (shift, taken) = if leaders & (leaders - 1) == 0 {
            (leaders.trailing_zeros() - 7, PLAYERS)
        } else {
            let tied = (0..PLAYERS).fold(0, |m, p| m | ((leaders >> (8 * p + 7)) as u32 & 1) << p);
            if GATHER != REVEAL_WARS {
                break tie(&shown, tied);
            }
            let tail: [usize; PLAYERS] = std::array::from_fn(|p| head[p] + n + size_of(sizes, p));
            let war = play_war(
                cards,
                pile,
                &mut head,
                &tail,
                n,
                shown,
                tied,
                strength,
                face_down,
                &mut war_tally,
            );
            // The tied players' heads moved past the cards of the war.
            sizes = 0;
            for p in 0..PLAYERS {
                sizes |= ((tail[p] - head[p] - n) as u64) << (8 * p);
            }
            let War::Won { winner, pile: size } = war else {
                break Run::ShortWar;
            };
            stop_n = stop_n.saturating_sub(size.div_ceil(PLAYERS) - 1);
            (8 * winner as u32, size)
        };
        let winner = shift as usize / 8;
        let t = head[winner] + n + (sizes >> shift & 0xFF) as usize;
        // The winner's tail is within its limit, a whole deck (at least 16 cards) before its
        // region's end: the revealed cards, in player order, fit after it.
        cards[t..t + PLAYERS].copy_from_slice(&shown);
        if taken > PLAYERS {
            // A war: the revealed cards open the pile, the rest follows them.
            cards[t + PLAYERS..t + taken].copy_from_slice(&pile[PLAYERS..taken]);
        }
        sizes += (taken as u64) << shift;
        let empty = sizes.wrapping_sub(ones) & !sizes & highs != 0;
        // SAFETY: head[0] + n <= tail[0], inside the array (an empty hand reads a stale card, and
        // stops the run anyway).
        let top0 = unsafe { cards.get_unchecked(head[0] + n) }.value();
        let key_hit = ((sizes & 0xFF) << 8 | u64::from(top0)) == key;
        if (n >= stop_n) | key_hit | empty {
            break Run::Round;
        }
    };
    for (p, h) in head.into_iter().enumerate() {
        hands.head[p] = (h + n) as u32;
        hands.tail[p] = (h + n + size_of(sizes, p)) as u32;
    }
    let counts = war_tally.counts(n as u64, &run);
    (run, counts)
}

/// Calls `run_lanes::<GATHER, N>` for the game's player count (3 to 8).
#[allow(clippy::too_many_arguments)]
fn dispatch_lanes<const GATHER: u8>(
    hands: &mut Hands,
    strength: Strength,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    match hands.players() {
        3 => run_lanes::<GATHER, 3>(hands, strength, pile, face_down, stop_after, key),
        4 => run_lanes::<GATHER, 4>(hands, strength, pile, face_down, stop_after, key),
        5 => run_lanes::<GATHER, 5>(hands, strength, pile, face_down, stop_after, key),
        6 => run_lanes::<GATHER, 6>(hands, strength, pile, face_down, stop_after, key),
        7 => run_lanes::<GATHER, 7>(hands, strength, pile, face_down, stop_after, key),
        8 => run_lanes::<GATHER, 8>(hands, strength, pile, face_down, stop_after, key),
        n => unreachable!("byte lanes hold 3 to 8 players, not {n}"),
    }
}

/// Calls `run::<GATHER, N>` for the game's player count, so that each table size gets its own
/// fully unrolled loop.
#[allow(clippy::too_many_arguments)]
fn dispatch<const GATHER: u8>(
    hands: &mut Hands,
    strength: Strength,
    rng: &mut SplitMix64,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    macro_rules! players {
        ($($n:literal)+) => {
            match hands.players() {
                $($n => run::<GATHER, $n>(hands, strength, rng, pile, face_down, stop_after, key),)+
                n => unreachable!("the crowd path plays 3 to 12 players, not {n}"),
            }
        };
    }
    players!(3 4 5 6 7 8 9 10 11 12)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Deck, Ranking};

    /// Every possible three-card battle: the table picks the winner `Strength` picks, or the
    /// players who tie, for every deck the tables serve.
    #[test]
    fn three_player_tables_agree_with_the_rules() {
        let mut served = 0;
        for values in 2..=20 {
            let deck = Deck::parse(&format!("4x{values}")).unwrap();
            for ranking in Ranking::ALL {
                let strength = Strength::new(ranking, deck);
                let Some(table) = trio_table(strength, values) else {
                    continue;
                };
                served += 1;
                for (index, &decision) in table.iter().enumerate() {
                    let v = [index & 15, index >> 4 & 15, index >> 8].map(|v| v as u8);
                    if v.iter().any(|&v| v >= values) {
                        continue;
                    }
                    let best = strength.strongest(v);
                    let leaders: Vec<usize> = (0..3).filter(|&p| v[p] == best).collect();
                    if let [winner] = leaders[..] {
                        assert_eq!(decision, 16 * winner as u8, "{deck} {ranking:?} {v:?}");
                    } else {
                        let mask = leaders.iter().fold(0, |m, &p| m | 1 << p);
                        assert_eq!(decision, TRIO_TIE | mask, "{deck} {ranking:?} {v:?}");
                    }
                }
            }
        }
        // Plain for 2..=16 values (both rankings below 12 values and at 14 to 16), oorlog at 13.
        assert!(served >= 20, "{served}");
        assert!(trio_table(
            Strength::new(Ranking::Oorlog, Deck::parse("4x12").unwrap()),
            12
        )
        .is_none());
        assert!(trio_table(PLAIN, 17).is_none());
        // 2 beats ace beats queen, under oorlog.
        assert_eq!(TRIO_OORLOG_13[12 | 10 << 4], 32);
        assert_eq!(TRIO_PLAIN[12 | 10 << 4], 0);
        assert_eq!(TRIO_OORLOG_13[12 | 12 << 4 | 5 << 8], TRIO_TIE | 0b011);
    }
}
