//! The fast path for three or more players: runs of battles without a tie (or, for oorlog's own
//! rules, with their wars played inside the run).
//!
//! Every player reveals one card per battle, so all heads advance together: one counter locates
//! them all, and the heads themselves stay fixed for the run (a war moves only the tied players'
//! heads). Only the winner's tail moves. As in `duel`, the run stops after a round that needs
//! the engine's attention (a hand is empty, player 1's hand matches the cycle detector's key, an
//! event is due, or the tails near their limits).
//!
//! Three loops, from general to specialised: `run` plays any table size and gather order;
//! `run_lanes` (3 to 8 players, one card each to the winner in player order: every oorlog
//! sweep) packs a battle's cards and the hands' sizes one byte per player into words;
//! `run_three` (the default oorlog table) decides a battle with one lookup in a 4 KB table.

use crate::cards::{Card, ACE, THREE};
use crate::deal::SplitMix64;
use crate::duel::{Counts, P1_FIRST, RANDOM, WINNER_FIRST};
use crate::hands::Hands;
use crate::rules::{strongest, Gather, Ranking, Rules, ShortWar, MAX_PLAYERS};

/// Reveal order with wars played inside the run: for the `reveal` gather with the short-war
/// policy "game ends, most cards wins", a war needs nothing but the tied players' next cards,
/// so it costs a few dozen instructions here instead of a trip through the engine.
const REVEAL_WARS: u8 = 3;

/// Plays a run of a game of three or more players, in the most specialised loop its rules and
/// hands allow (see the module's comment). `pile` has room for every card and `MAX_PLAYERS`
/// more.
#[inline]
pub fn play(
    rules: &Rules,
    hands: &mut Hands,
    rng: &mut SplitMix64,
    pile: &mut [Card],
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    let (ranking, down) = (rules.ranking, rules.face_down);
    let wars_inside = rules.gather == Gather::Reveal && rules.short_war == ShortWar::MostCardsWins;
    let one_card_each = matches!(rules.gather, Gather::Reveal | Gather::P1First);
    match rules.gather {
        _ if one_card_each && fits_three(hands) => {
            if wars_inside {
                run_three::<REVEAL_WARS>(hands, ranking, pile, down, stop_after, key)
            } else {
                run_three::<P1_FIRST>(hands, ranking, pile, down, stop_after, key)
            }
        }
        _ if one_card_each && fits_lanes(hands) => {
            if wars_inside {
                dispatch_lanes::<REVEAL_WARS>(hands, ranking, pile, down, stop_after, key)
            } else {
                dispatch_lanes::<P1_FIRST>(hands, ranking, pile, down, stop_after, key)
            }
        }
        Gather::Reveal if wars_inside => {
            dispatch::<REVEAL_WARS>(hands, ranking, rng, pile, down, stop_after, key)
        }
        Gather::Reveal | Gather::P1First => {
            dispatch::<P1_FIRST>(hands, ranking, rng, pile, down, stop_after, key)
        }
        Gather::WinnerFirst => {
            dispatch::<WINNER_FIRST>(hands, ranking, rng, pile, down, stop_after, key)
        }
        Gather::Random => dispatch::<RANDOM>(hands, ranking, rng, pile, down, stop_after, key),
    }
}

/// Why a run stopped.
pub enum Run {
    /// The last battle tied `tied[..count]`; `revealed[..players]` are on the table.
    Tie {
        revealed: [Card; MAX_PLAYERS],
        tied: [u8; MAX_PLAYERS],
        count: usize,
    },
    /// `winner` took the last round, which needs the engine's attention.
    Round { winner: usize },
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
        let unfinished = !matches!(run, Run::Round { .. });
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
    let mut revealed = [Card(0); MAX_PLAYERS];
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
    ranking: Ranking,
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
        let mut shown = [Card(0); PLAYERS];
        for p in 0..players {
            // SAFETY: every hand had a card for each round so far (a run stops when a hand is
            // empty) and for the wars counted in `head`, so head + n < tail, inside the region.
            shown[p] = unsafe { *cards.get_unchecked(head[p] + n) };
        }
        n += 1;
        let best = strongest(ranking, &shown);
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
                best_table_of(ranking),
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
            break Run::Round { winner };
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
    best_of: &BestTable,
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
        let mut seen = 0usize;
        let mut revealed = [0u8; PLAYERS];
        for p in 0..PLAYERS {
            let card = cards[head[p] + n + face_down];
            pile[size] = card;
            size += tied(p);
            head[p] += tied(p) * (face_down + 1);
            revealed[p] = card.value();
            seen |= tied(p) << revealed[p];
        }
        let best = best_of[seen];
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

/// The strongest value of `ranking` among those present in `seen` (see `BestTable`).
fn best_table_of(ranking: Ranking) -> &'static BestTable {
    match ranking {
        Ranking::Standard => &BEST_STANDARD,
        Ranking::Oorlog => &BEST_OORLOG,
    }
}

/// What a three-player battle's values decide, indexed by `v1 | v2 << 4 | v3 << 8`: the winner's
/// lane shift (`16 * winner`), or `TRIO_TIE | leaders` when two or three cards tie.
type TrioTable = [u8; 4096];
const TRIO_TIE: u8 = 0x80;

const fn trio_table(ranking: Ranking) -> TrioTable {
    let mut table = [0u8; 4096];
    let mut index = 0;
    while index < 4096 {
        let values = [index & 15, index >> 4 & 15, index >> 8];
        if values[0] <= ACE as usize && values[1] <= ACE as usize && values[2] <= ACE as usize {
            let seen = 1 << values[0] | 1 << values[1] | 1 << values[2];
            let best = strongest_present(ranking, seen) as usize;
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
        }
        index += 1;
    }
    table
}

static TRIO_STANDARD: TrioTable = trio_table(Ranking::Standard);
static TRIO_OORLOG: TrioTable = trio_table(Ranking::Oorlog);

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
/// loop. The caller checks `fits_three`.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_three<const GATHER: u8>(
    hands: &mut Hands,
    ranking: Ranking,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    debug_assert!(fits_three(hands) && (GATHER == P1_FIRST || GATHER == REVEAL_WARS));
    let table = match ranking {
        Ranking::Standard => &TRIO_STANDARD,
        Ranking::Oorlog => &TRIO_OORLOG,
    };
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
    let at = cards.as_mut_ptr();
    let mut n = 0;
    let mut war_tally = WarTally::default();
    let run = loop {
        // SAFETY: as in `run`: head + n < tail for every player, inside the array.
        let shown = unsafe {
            [
                *at.add(head[0] + n),
                *at.add(head[1] + n),
                *at.add(head[2] + n),
            ]
        };
        n += 1;
        heads += THREE_LANES;
        let [a, b, c] = shown.map(|card| card.0 as usize);
        let decision = table[a >> 3 | (b & 0x78) << 1 | (c & 0x78) << 5];
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
                best_table_of(ranking),
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
        let word = a as u32 | (b as u32) << 8 | (c as u32) << 16;
        // SAFETY: the winner's tail is within its limit, a whole deck before its region's end,
        // so t + 4 is inside the array; the fourth byte lands past the tail, where nothing lives.
        unsafe { at.add(t).cast::<u32>().write_unaligned(word) };
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
        let top0 = unsafe { *at.add(head[0] + n) }.value();
        let key_hit = ((left & 0xFFFF) << 8 | top0 as u64) == key;
        if (n >= stop_n) | key_hit | empty {
            break Run::Round {
                winner: shift as usize / 16,
            };
        }
    };
    for (p, h) in head.into_iter().enumerate() {
        hands.head[p] = (h + n) as u32;
        hands.tail[p] = (tails >> (16 * p) & 0xFFFF) as u32;
    }
    let counts = war_tally.counts(n as u64, &run);
    (run, counts)
}

/// The strongest value among those present, indexed by the set of values shown (bit `v` for
/// value `v`): the ranking becomes one load.
type BestTable = [u8; 1 << 13];

const fn best_table(ranking: Ranking) -> BestTable {
    let mut table = [0u8; 1 << 13];
    let mut seen = 1;
    while seen < 1 << 13 {
        table[seen] = strongest_present(ranking, seen);
        seen += 1;
    }
    table
}

/// `strongest` for the values present in `seen` (bit `v` for value `v`, at least one), in a const
/// fn for the tables.
const fn strongest_present(ranking: Ranking, seen: usize) -> u8 {
    let max = 31 - (seen as u32).leading_zeros();
    let ace_and_low = seen & 1 << ACE != 0 && seen & 0b11 != 0;
    if matches!(ranking, Ranking::Oorlog) && ace_and_low {
        // The strongest of the 2s and 3s shown.
        if seen & 0b10 != 0 {
            THREE
        } else {
            0
        }
    } else {
        max as u8
    }
}

static BEST_STANDARD: BestTable = best_table(Ranking::Standard);
static BEST_OORLOG: BestTable = best_table(Ranking::Oorlog);

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
/// per player in two words: the cards of a battle, stored in one write, and the hands' sizes.
/// The ranking is one table load, the tied players a zero-byte test, the winner's tail its
/// head plus its size, and "is any hand empty" another zero-byte test, so a battle costs a few
/// instructions per player instead of a dozen. The caller checks `fits_lanes`.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_lanes<const GATHER: u8, const PLAYERS: usize>(
    hands: &mut Hands,
    ranking: Ranking,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    debug_assert!(fits_lanes(hands) && (GATHER == P1_FIRST || GATHER == REVEAL_WARS));
    let ones = const { each_lane(0x01, PLAYERS) };
    let highs = const { each_lane(0x80, PLAYERS) };
    let value_bits = const { each_lane(0x1F, PLAYERS) };
    let best_of = best_table_of(ranking);
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
    let at = cards.as_mut_ptr();
    let mut n = 0;
    let mut war_tally = WarTally::default();
    let run = loop {
        // Byte p: player p's card. Bit v: some player shows value v.
        let (mut shown, mut seen) = (0u64, 0usize);
        for (p, &h) in head.iter().enumerate() {
            // SAFETY: as in `run`: head + n < tail for every player, inside the array.
            let card = unsafe { *at.add(h + n) }.0;
            shown |= u64::from(card) << (8 * p);
            seen |= 1 << (card >> 3);
        }
        n += 1;
        sizes -= ones;
        let best = u64::from(best_of[seen]);
        // Zero in the lanes of the players who show the strongest value.
        let diff = (shown >> 3 & value_bits) ^ (best * ones);
        // The high bit of each lane: set where the lane is not zero (no carry between lanes).
        let nonzero = (((diff & !highs) + !highs) | diff) & highs;
        let leaders = !nonzero & highs;
        let (shift, taken) = if leaders & (leaders - 1) == 0 {
            (leaders.trailing_zeros() - 7, PLAYERS)
        } else {
            let tied = (0..PLAYERS).fold(0, |m, p| m | ((leaders >> (8 * p + 7)) as u32 & 1) << p);
            let table: [Card; PLAYERS] = std::array::from_fn(|p| Card((shown >> (8 * p)) as u8));
            if GATHER != REVEAL_WARS {
                break tie(&table, tied);
            }
            let tail: [usize; PLAYERS] = std::array::from_fn(|p| head[p] + n + size_of(sizes, p));
            let war = play_war(
                cards,
                pile,
                &mut head,
                &tail,
                n,
                table,
                tied,
                best_of,
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
        // SAFETY: the winner's tail is within its limit, a whole deck (at least 8 cards) before
        // its region's end; bytes past the players' land past the tail, where nothing lives.
        unsafe { at.add(t).cast::<u64>().write_unaligned(shown) };
        if taken > PLAYERS {
            // A war: the revealed cards open the pile, the rest follows them.
            cards[t + PLAYERS..t + taken].copy_from_slice(&pile[PLAYERS..taken]);
        }
        sizes += (taken as u64) << shift;
        let empty = sizes.wrapping_sub(ones) & !sizes & highs != 0;
        // SAFETY: head[0] + n <= tail[0], inside the array (an empty hand reads a stale card, and
        // stops the run anyway).
        let top0 = unsafe { *at.add(head[0] + n) }.value();
        let key_hit = ((sizes & 0xFF) << 8 | u64::from(top0)) == key;
        if (n >= stop_n) | key_hit | empty {
            break Run::Round { winner };
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
    ranking: Ranking,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    match hands.players() {
        3 => run_lanes::<GATHER, 3>(hands, ranking, pile, face_down, stop_after, key),
        4 => run_lanes::<GATHER, 4>(hands, ranking, pile, face_down, stop_after, key),
        5 => run_lanes::<GATHER, 5>(hands, ranking, pile, face_down, stop_after, key),
        6 => run_lanes::<GATHER, 6>(hands, ranking, pile, face_down, stop_after, key),
        7 => run_lanes::<GATHER, 7>(hands, ranking, pile, face_down, stop_after, key),
        8 => run_lanes::<GATHER, 8>(hands, ranking, pile, face_down, stop_after, key),
        n => unreachable!("byte lanes hold 3 to 8 players, not {n}"),
    }
}

/// Calls `run::<GATHER, N>` for the game's player count, so that each table size gets its own
/// fully unrolled loop.
#[allow(clippy::too_many_arguments)]
fn dispatch<const GATHER: u8>(
    hands: &mut Hands,
    ranking: Ranking,
    rng: &mut SplitMix64,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: (u32, u8),
) -> (Run, Counts) {
    match hands.players() {
        3 => run::<GATHER, 3>(hands, ranking, rng, pile, face_down, stop_after, key),
        4 => run::<GATHER, 4>(hands, ranking, rng, pile, face_down, stop_after, key),
        5 => run::<GATHER, 5>(hands, ranking, rng, pile, face_down, stop_after, key),
        6 => run::<GATHER, 6>(hands, ranking, rng, pile, face_down, stop_after, key),
        7 => run::<GATHER, 7>(hands, ranking, rng, pile, face_down, stop_after, key),
        8 => run::<GATHER, 8>(hands, ranking, rng, pile, face_down, stop_after, key),
        9 => run::<GATHER, 9>(hands, ranking, rng, pile, face_down, stop_after, key),
        10 => run::<GATHER, 10>(hands, ranking, rng, pile, face_down, stop_after, key),
        11 => run::<GATHER, 11>(hands, ranking, rng, pile, face_down, stop_after, key),
        12 => run::<GATHER, 12>(hands, ranking, rng, pile, face_down, stop_after, key),
        n => unreachable!("the crowd path plays 3 to 12 players, not {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every possible three-card battle: the table picks the winner `strongest` picks, or the
    /// players who tie.
    #[test]
    fn three_player_table_agrees_with_the_rules() {
        for (ranking, table) in [
            (Ranking::Standard, &TRIO_STANDARD),
            (Ranking::Oorlog, &TRIO_OORLOG),
        ] {
            for (index, &decision) in table.iter().enumerate() {
                let values = [index & 15, index >> 4 & 15, index >> 8];
                if values.iter().any(|&v| v > ACE as usize) {
                    continue;
                }
                let cards = values.map(|v| Card::new(v as u8, 0));
                let best = strongest(ranking, &cards);
                let leaders: Vec<usize> = (0..3).filter(|&p| cards[p].value() == best).collect();
                if let [winner] = leaders[..] {
                    assert_eq!(decision, 16 * winner as u8, "{ranking:?} {values:?}");
                } else {
                    let mask = leaders.iter().fold(0, |m, &p| m | 1 << p);
                    assert_eq!(decision, TRIO_TIE | mask, "{ranking:?} {values:?}");
                }
            }
        }
        // 2 beats ace beats queen, under oorlog.
        assert_eq!(TRIO_OORLOG[12 | 10 << 4], 32);
        assert_eq!(TRIO_STANDARD[12 | 10 << 4], 0);
        assert_eq!(TRIO_OORLOG[10 | 12 << 4 | 1 << 8], 32);
        assert_eq!(TRIO_OORLOG[12 | 12 << 4 | 5 << 8], TRIO_TIE | 0b011);
    }
}
