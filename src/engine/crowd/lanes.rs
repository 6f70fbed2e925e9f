//! Tables of 3 to 8 players whose winner takes one card from each in player order (every oorlog
//! sweep): a battle's cards and the hands' sizes one byte per player in words, the common wars
//! played inside the battle loop, the others on the lanes.

use super::*;
use crate::engine::hands::Hands;

/// `byte` repeated in each of the lowest `PLAYERS` bytes of a word.
pub(super) const fn each_lane(byte: u64, players: usize) -> u64 {
    let mut word = 0;
    let mut p = 0;
    while p < players {
        word |= byte << (8 * p);
        p += 1;
    }
    word
}

/// Whether [`run_lanes`] can play this game: 3 to 8 players, one per byte of a word, and hands
/// short enough for a byte lane with a spare high bit.
pub(super) fn fits_lanes(hands: &Hands) -> bool {
    (3..=8).contains(&hands.players()) && hands.room() < 128
}

/// `run::<GATHER, WARS, PLAYERS>` for the gathers that keep a battle in player order (every oorlog sweep), with one byte
/// per player in two words: the values of a battle and the hands' sizes. The tied players are
/// a zero-byte test, the winner's tail its head plus its size, and "is any hand empty" another
/// zero-byte test, so a battle costs a few instructions per player instead of a dozen. The
/// caller checks [`fits_lanes`]. About 100 lines, kept whole: the two words and the round's
/// counters stay in registers across battles, which is what makes a battle a few instructions.
#[inline(never)]
pub(super) fn run_lanes<const WARS: bool, const PLAYERS: usize>(
    hands: &mut Hands,
    strength: Strength,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: Key,
) -> (Run, Counts) {
    debug_assert!(fits_lanes(hands));
    let ones = const { each_lane(0x01, PLAYERS) };
    let highs = const { each_lane(0x80, PLAYERS) };
    let mut head: [usize; PLAYERS] = std::array::from_fn(|p| hands.head[p] as usize);
    let limit: [usize; PLAYERS] = std::array::from_fn(|p| hands.limit[p] as usize);
    let tail: [usize; PLAYERS] = std::array::from_fn(|p| hands.tail[p] as usize);
    // Byte p: player p's hand size.
    let mut sizes = 0u64;
    for p in 0..PLAYERS {
        sizes |= u64::from(hands.len(p)) << (8 * p);
    }
    let size_of = |sizes: u64, p: usize| (sizes >> (8 * p) & 0xFF) as usize;
    // As in `run`: every tail within its limit before each round.
    let mut stop_n = rounds_of_room(&limit, &tail, 0, stop_after.max(1) as usize);
    let key = key.bytes;
    let cards = &mut hands.cards[..];
    let mut n = 0;
    let mut war_tally = WarTally::default();
    let war_rules = WarRules {
        strength,
        face_down,
    };
    let lanes = LaneRun {
        strength,
        key,
        limit: &limit,
    };
    // Oorlog's one face-down card, with wars: the common war is played in the battle loop.
    let battles = if WARS && face_down == 1 {
        lanes_battles::<PLAYERS, true>
    } else {
        lanes_battles::<PLAYERS, false>
    };
    let run = loop {
        let (at, leaders) = battles(
            cards,
            &mut head,
            &mut stop_n,
            &lanes,
            (n, sizes),
            &mut war_tally,
        );
        (n, sizes) = at;
        if leaders == 0 {
            break Run::Round;
        }
        if !WARS {
            let shown: [Card; PLAYERS] = std::array::from_fn(|p| cards[head[p] + n - 1]);
            let tied = (0..PLAYERS).fold(0, |m, p| m | ((leaders >> (8 * p + 7)) as u32 & 1) << p);
            break tie(&shown, tied);
        }
        let war;
        (war, sizes) = lanes_war(
            cards,
            pile,
            &mut head,
            (n, sizes),
            leaders,
            war_rules,
            &mut war_tally,
        );
        let War::Won {
            winner,
            pile: taken,
        } = war
        else {
            let War::Short { tied } = war else {
                unreachable!("a war is won or cut short")
            };
            break Run::ShortWar { tied };
        };
        let t = head[winner] + n + size_of(sizes, winner);
        // Only the winner's room shrank faster than a round's cards: `rounds_of_room` on every
        // tail would give the same.
        stop_n = match limit[winner].checked_sub(t + taken) {
            Some(room) => stop_n.min(n + room / PLAYERS + 1),
            None => n,
        };
        // The winner's tail is within its limit, a whole deck before its region's end.
        cards[t..t + taken].copy_from_slice(&pile[..taken]);
        sizes += (taken as u64) << (8 * winner);
        let empty = sizes.wrapping_sub(ones) & !sizes & highs != 0;
        if (n >= stop_n) | (sizes == key) | empty {
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

/// What [`lanes_battles`] reads and does not change: the ranking, the cycle key ([`Key::bytes`])
/// and the tails' limits.
pub(super) struct LaneRun<'a, const PLAYERS: usize> {
    strength: Strength,
    key: u64,
    limit: &'a [usize; PLAYERS],
}

/// [`run_lanes`]'s battles from round `n` with the hands' sizes `sizes` (`at`), until a tie,
/// which it returns (the high bits of the tied players' lanes; the round counted, its cards
/// still at the heads), or until a round after which the run stops (0): a hand is empty, the
/// sizes match the key, or round `stop_n` is played. With `QUICK_WARS` (wars with one
/// face-down card) the common war, two tied players who both hold the card face down and the
/// next and reveal different values, is played here too, moving their heads and bringing
/// `stop_n` forward if the winner's room needs it; any other tie is returned with the state
/// as it was after the tied battle. A function of its own, so that the heads keep their
/// registers whatever the other wars need.
#[inline(never)]
pub(super) fn lanes_battles<const PLAYERS: usize, const QUICK_WARS: bool>(
    cards: &mut [Card],
    head: &mut [usize; PLAYERS],
    stop_n: &mut usize,
    run: &LaneRun<PLAYERS>,
    at: (usize, u64),
    tally: &mut WarTally,
) -> ((usize, u64), u64) {
    let ones = const { each_lane(0x01, PLAYERS) };
    let highs = const { each_lane(0x80, PLAYERS) };
    let size_of = |sizes: u64, p: usize| (sizes >> (8 * p) & 0xFF) as usize;
    let (mut n, mut sizes) = at;
    // The heads stay fixed between two wars: a copy of them, only ever indexed by constants
    // (the loops unroll), keeps them in registers for the cards' reads; `head` is indexed by
    // the winner.
    'wars: loop {
        let h = *head;
        loop {
            // Byte p: player p's value. Bit v: some player shows value v.
            // Player p's tail is h[p] + n + size: a card to show while the size is not 0.
            debug_assert!((0..PLAYERS).all(|p| size_of(sizes, p) > 0 && h[p] + n < cards.len()));
            // SAFETY: as in `run`: head + n < tail for every player, inside the array.
            let shown = h.map(|h| unsafe { *cards.get_unchecked(h + n) });
            let (mut values, mut seen) = (0u64, 0u64);
            for (p, card) in shown.iter().enumerate() {
                values |= u64::from(card.value()) << (8 * p);
                seen |= 1 << card.value();
            }
            n += 1;
            sizes -= ones;
            let best = u64::from(run.strength.strongest_present(seen));
            // Zero in the lanes of the players who show the strongest value (values are below 64,
            // so each lane's high bit is clear).
            let diff = values ^ (best * ones);
            // The high bit of each lane: set where the lane is not zero (no carry between lanes).
            let nonzero = (((diff & !highs) + !highs) | diff) & highs;
            let leaders = !nonzero & highs;
            let stops = |n: usize, sizes: u64, stop_n: usize| {
                let empty = sizes.wrapping_sub(ones) & !sizes & highs != 0;
                (n >= stop_n) | (sizes == run.key) | empty
            };
            if leaders & (leaders - 1) == 0 {
                let winner = leaders.trailing_zeros() as usize / 8;
                let t = head[winner] + n + size_of(sizes, winner);
                // The winner's tail is within its limit, a whole deck (at least 16 cards, see
                // `Hands::new`) before its region's end.
                cards[t..t + PLAYERS].copy_from_slice(&shown);
                sizes += (PLAYERS as u64) << (8 * winner);
                if stops(n, sizes, *stop_n) {
                    return ((n, sizes), 0);
                }
                continue;
            }
            let war = LaneWar { shown, leaders, n };
            if !QUICK_WARS || !lanes_quick_war(cards, head, &mut sizes, stop_n, run, &war) {
                return ((n, sizes), leaders);
            }
            tally.wars += 1;
            tally.battles += 1;
            if stops(n, sizes, *stop_n) {
                return ((n, sizes), 0);
            }
            // The heads moved.
            continue 'wars;
        }
    }
}

/// A tie in round `n` (counted) of a run on byte lanes, which showed `shown`, among the
/// players whose lanes' high bits `leaders` holds.
pub(super) struct LaneWar<const PLAYERS: usize> {
    shown: [Card; PLAYERS],
    leaders: u64,
    n: usize,
}

/// The common war of [`lanes_battles`] (oorlog's one face-down card): two tied players who both
/// hold the card face down and the next, and reveal different values. Plays it if it is one:
/// the round's cards in player order, the face-down cards, then the revealed ones go to the
/// winner's tail, the two heads move past their cards, `sizes` counts it all, and `stop_n`
/// comes forward if the winner's room needs it. Otherwise changes nothing and returns false.
#[inline(always)]
pub(super) fn lanes_quick_war<const PLAYERS: usize>(
    cards: &mut [Card],
    head: &mut [usize; PLAYERS],
    sizes: &mut u64,
    stop_n: &mut usize,
    run: &LaneRun<PLAYERS>,
    war: &LaneWar<PLAYERS>,
) -> bool {
    let size_of = |p: usize| (*sizes >> (8 * p) & 0xFF) as usize;
    let LaneWar { leaders, n, .. } = *war;
    let two = leaders & (leaders - 1);
    let (p, q) = (
        leaders.trailing_zeros() as usize / 8,
        two.trailing_zeros() as usize / 8,
    );
    if two & (two - 1) != 0 || size_of(p).min(size_of(q)) < 2 {
        return false;
    }
    let (hp, hq) = (head[p] + n, head[q] + n);
    let [x0, x1, y0, y1] = [hp, hp + 1, hq, hq + 1].map(|i| cards[i]);
    let (a, b) = (x1.value(), y1.value());
    if a == b {
        return false;
    }
    let strongest = run.strength.strongest_present(1 << a | 1 << b);
    let winner = if strongest == a { p } else { q };
    // The winner's tail, before its two cards leave: the tails do not move.
    let t = head[winner] + n + size_of(winner);
    let taken = PLAYERS + 4;
    // The winner's tail is within its limit, a whole deck before its region's end.
    cards[t..t + PLAYERS].copy_from_slice(&war.shown);
    cards[t + PLAYERS..t + taken].copy_from_slice(&[x0, y0, x1, y1]);
    head[p] += 2;
    head[q] += 2;
    *sizes = *sizes - (2 << (8 * p) | 2 << (8 * q)) + ((taken as u64) << (8 * winner));
    // As in `run_lanes` after a war: only the winner's room shrank faster.
    *stop_n = match run.limit[winner].checked_sub(t + taken) {
        Some(room) => (*stop_n).min(n + room / PLAYERS + 1),
        None => n,
    };
    true
}

/// A one in every byte of a word.
pub(super) const ALL_LANES: u64 = each_lane(0x01, 8);

/// The war of round `n` in [`run_lanes`] among the players whose lanes' high bits `leaders` holds,
/// on the hands' sizes `sizes` (byte p: player p's cards after the round's), until one player
/// reveals the strongest card or a tied player is short of cards. The pile gets the round's
/// cards in player order, then each battle of the war's face-down cards (one from each tied
/// player at a time) and its revealed cards, as [`play_war`] puts them; the tied players' heads
/// move past their cards, and the sizes returned count them out. [`play_war`] on byte lanes: the
/// short-war check and the new leaders are one word each, and only the tied players are visited.
pub(super) fn lanes_war<const PLAYERS: usize>(
    cards: &[Card],
    pile: &mut [Card],
    head: &mut [usize; PLAYERS],
    (n, mut sizes): (usize, u64),
    mut leaders: u64,
    rules: WarRules,
    tally: &mut WarTally,
) -> (War, u64) {
    let ones = const { each_lane(0x01, PLAYERS) };
    let WarRules {
        strength,
        face_down,
    } = rules;
    for (p, slot) in pile[..PLAYERS].iter_mut().enumerate() {
        *slot = cards[head[p] + n - 1];
    }
    let mut size = PLAYERS;
    // Cards each tied player puts down in a battle of the war (at most 9).
    let down = war_cards(face_down);
    // Added to a size (below 128), sets its lane's high bit exactly when the size is `down` or
    // more: `holds_war` in every lane at once.
    let enough = (0x80 - down as u64) * ones;
    loop {
        tally.wars += 1;
        if leaders & !(sizes + enough) != 0 {
            // Lane p's high bit is player p's: one bit each.
            let tied = (0..PLAYERS).fold(0, |t, p| {
                t | u32::from(leaders >> (8 * p + 7) & 1 == 1) << p
            });
            return (War::Short { tied }, sizes);
        }
        tally.battles += 1;
        // The tied players, one byte each summed into the top byte (baseline x86-64 has no
        // population count instruction).
        let count = ((leaders >> 7).wrapping_mul(ALL_LANES) >> 56) as usize;
        // Byte p: the value player p reveals (tied players only). Bit v: a tied player
        // reveals value v.
        let (mut values, mut seen) = (0u64, 0u64);
        let mut set = leaders;
        let mut i = size;
        while set != 0 {
            let p = set.trailing_zeros() as usize / 8;
            set &= set - 1;
            let at = head[p] + n;
            for k in 0..face_down {
                pile[i + k * count] = cards[at + k];
            }
            let card = cards[at + face_down];
            pile[i + face_down * count] = card;
            values |= u64::from(card.value()) << (8 * p);
            seen |= 1 << card.value();
            head[p] += down;
            i += 1;
        }
        size += down * count;
        sizes -= down as u64 * (leaders >> 7);
        let best = u64::from(strength.strongest_present(seen));
        // As in `lanes_battles`, among the tied players only.
        let diff = values ^ (best * ones);
        let highs = const { each_lane(0x80, PLAYERS) };
        let nonzero = (((diff & !highs) + !highs) | diff) & highs;
        leaders &= !nonzero;
        if leaders & (leaders - 1) == 0 {
            let winner = leaders.trailing_zeros() as usize / 8;
            return (War::Won { winner, pile: size }, sizes);
        }
    }
}
