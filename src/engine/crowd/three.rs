//! The default oorlog table of three players: a battle decided by one lookup in a 4 KB table
//! generated from the ranking, the hands' heads and tails in lanes of one word, and the common
//! wars of two played inside the battle loop.

use super::*;
use crate::engine::hands::Hands;

/// What a three-player battle's values decide, indexed by `v1 | v2 << 4 | v3 << 8` (values
/// below 16): the winner's lane shift (`16 * winner`), or `TRIO_TIE | leaders` when two or
/// three cards tie.
pub(crate) type TrioTable = [u8; 4096];
pub(super) const TRIO_TIE: u8 = 0x80;

/// The table for `strength`, generated from [`Strength::strongest_present`] itself.
pub(super) const fn make_trio_table(strength: Strength) -> TrioTable {
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

/// The three-player table for `strength` on a deck of `values` values, built once per engine
/// (any ranking): the table indexes four bits per value, so decks of more than 16 values take
/// the byte-lane or general loop.
pub(crate) fn trio_table(strength: Strength, values: u8) -> Option<Box<TrioTable>> {
    (values <= 16).then(|| Box::new(make_trio_table(strength)))
}

/// Sixteen-bit lanes, one per player (lane 3: [`run_three`]'s round countdown): tails and heads
/// packed in one word each, so that the winner's tail is picked and moved by a shift, and "is
/// any hand empty" is one subtraction and a test of the lanes' high bits.
pub(super) const LANE_ONES: u64 = 0x0001_0001_0001_0001;
pub(super) const LANE_HIGHS: u64 = 0x8000_8000_8000_8000;
/// The three players' lanes of a word; lane 3 is [`run_three`]'s round countdown.
pub(super) const THREE_LANES_MASK: u64 = 0x0000_FFFF_FFFF_FFFF;

/// Whether [`run_three`] can play this game: every position of the hands fits in a lane.
pub(super) fn fits_three(hands: &Hands) -> bool {
    hands.players() == 3 && hands.cards.len() < 1 << 15
}

/// `run::<GATHER, WARS, 3>` for the gathers that keep a battle in player order, the oorlog default, specialised: a 4 KB
/// table decides each battle, and tails and heads live in sixteen-bit lanes (see [`LANE_ONES`]).
/// A war of two (nine ties in ten) is played in place on those lanes, its table written after
/// both tied players' tails; a three-way tie goes to [`war_of_three`]. The caller checks
/// [`fits_three`] and passes the table [`trio_table`] gives. About 110 lines, kept whole: its
/// lanes and counters live in registers across rounds (see [`three_battles`] for the part that
/// is a function of its own, and why).
#[inline(never)]
pub(super) fn run_three<const WARS: bool>(
    hands: &mut Hands,
    strength: Strength,
    table: &TrioTable,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: Key,
) -> (Run, Counts) {
    debug_assert!(fits_three(hands));
    let limit = [0, 1, 2].map(|p| hands.limit[p] as usize);
    let tails = lanes([0, 1, 2].map(|p| hands.tail[p] as usize));
    let stop_n = rounds_of_room(&limit, &unlane(tails), 0, stop_after.max(1) as usize);
    // One past each player's next card, lane by lane (advanced once per round, and past a war's
    // cards): `tails - beyond` is each hand's size less one, which borrows into the lane's high
    // bit exactly when a hand is empty (sizes stay below 2^15, see `fits_three`). Lane 3 counts
    // the rounds down: `stop_n` in the tails, one more than the rounds played in `beyond`, so
    // that it borrows too once the run has played `stop_n` rounds (fewer than 2^14: a third
    // of the array, `rounds_of_room`), and one test stops the run for either reason.
    let mut tails = tails & THREE_LANES_MASK | (stop_n as u64) << 48;
    let mut beyond = lanes([0, 1, 2].map(|p| hands.head[p] as usize)) + LANE_ONES;
    // What the wars need, behind one reference: the run's own values then keep their
    // registers through a war.
    let war = TrioWar {
        // The hands' sizes less one, as `tails - beyond` gives them in lanes 0 to 2, a lane up.
        key: key.trio,
        limits: lanes(limit),
        rules: WarRules {
            strength,
            face_down,
        },
    };
    // Oorlog's one face-down card, with wars: the common war is played in the battle loop.
    let battles = if WARS && face_down == 1 {
        three_battles::<true>
    } else {
        three_battles::<false>
    };
    let cards = &mut hands.cards[..];
    // Rounds begun.
    let mut n = 0;
    let mut war_tally = WarTally::default();
    // Battles until a tie, the heads fixed (in registers: player p's next card is at h_p + n);
    // then the war, which moves the tied players' heads, and the heads are taken again from
    // `beyond`.
    let run = loop {
        let head = [0, 1, 2].map(|p| lane(beyond, 16 * p) - 1 - n);
        let stretch = Stretch {
            n,
            tails,
            less_one: tails.wrapping_sub(beyond),
        };
        let (stretch, decision) = battles(cards, table, head, &war, stretch, &mut war_tally);
        (n, tails) = (stretch.n, stretch.tails);
        beyond = tails.wrapping_sub(stretch.less_one);
        if decision & TRIO_TIE == 0 {
            break Run::Round;
        }
        // The heads again: the wars played in `three_battles` moved them.
        let head = [0, 1, 2].map(|p| lane(beyond, 16 * p) - 1 - n);
        debug_assert!((0..3).all(|p| head[p] + n < lane(tails, 16 * p)));
        // SAFETY: the heads as in `three_battles`.
        let shown = unsafe { head.map(|h| *cards.get_unchecked(h + n)) };
        n += 1;
        beyond += LANE_ONES;
        let leaders = u32::from(decision & !TRIO_TIE);
        if !WARS {
            break tie(&shown, leaders);
        }
        let after = if leaders == 0b111 {
            let mut head = head;
            let tied = TiedBattle { n, shown, leaders };
            let tail = unlane(tails);
            let won = war_of_three(cards, pile, &mut head, tail, &tied, &war, &mut war_tally);
            beyond = lanes(head.map(|h| h + n)) + LANE_ONES + ((n as u64) << 48);
            match won {
                War::Won { winner, pile } => Ok((16 * winner, pile)),
                War::Short { tied } => Err(tied),
            }
        } else {
            // The tied players' lanes: players 1 and 2, 1 and 3, or 2 and 3. (Looked up, not
            // branched on: a branch on the three pairs mispredicts in two wars out of three.)
            let [sp, sq] = TIED_PAIRS[leaders as usize & 7].shifts.map(usize::from);
            let lanes = (tails, beyond);
            let (moved, won) =
                war_of_two(cards, table, lanes, (sp, sq), shown, &war, &mut war_tally);
            beyond += moved;
            // Two players stay tied until one wins: the pair is who was short.
            won.ok_or(leaders)
        };
        let (winner, size) = match after {
            Ok(won) => won,
            Err(tied) => break Run::ShortWar { tied },
        };
        tails = after_war(tails, winner, size, n, war.limits);
        if three_stops(tails.wrapping_sub(beyond), war.key) {
            break Run::Round;
        }
    };
    for p in 0..3 {
        hands.head[p] = (lane(beyond, 16 * p) - 1) as u32;
        hands.tail[p] = lane(tails, 16 * p) as u32;
    }
    let counts = war_tally.counts(n as u64, &run);
    (run, counts)
}

/// The position in the lane at `shift` (`16 * p` for player p) of a word.
#[inline(always)]
pub(super) fn lane(word: u64, shift: usize) -> usize {
    (word >> shift & 0xFFFF) as usize
}

/// What a run of three's wars need: the cycle key, the tails' limits in lanes, and the rules.
pub(super) struct TrioWar {
    key: u32,
    limits: u64,
    rules: WarRules,
}

/// The tails after the player whose lane is at `winner` (`16 * p`) took a war's `size` cards
/// in round `n`, with the round limit in lane 3 brought forward if that tail needs it. Only the
/// winner's tail moved more than a battle's three cards, so the other players' room still lasts
/// until the current limit (see [`rounds_of_room`]).
#[inline(always)]
pub(super) fn after_war(tails: u64, winner: usize, size: usize, n: usize, limits: u64) -> u64 {
    let won = lane(tails, winner) + size;
    let stop_n = (tails >> 48) as usize;
    let stop_n = match lane(limits, winner).checked_sub(won) {
        Some(room) => stop_n.min(n + room / 3 + 1),
        None => n,
    };
    (tails + ((size as u64) << winner)) & THREE_LANES_MASK | (stop_n as u64) << 48
}

/// The war of two tied players, whose lanes are at shifts `sp < sq`, in a run of three with
/// lanes `(tails, beyond)` just after the tied battle, which showed `shown`. Each tied player
/// writes the table after its own tail: the winner's copy becomes the bottom of its hand, the
/// loser's lies past its tail, where nothing lives. No pile and no copy. Returns what to add to
/// `beyond` (the tied players' heads move past their cards on the table) and, unless a tied
/// player could not put down its cards, the winner's lane shift and the table's size.
/// About 85 lines, inlined into [`run_three`]'s loop: the common war, played on the lanes in
/// registers.
#[inline(always)]
pub(super) fn war_of_two(
    cards: &mut [Card],
    table: &TrioTable,
    (tails, beyond): (u64, u64),
    (sp, sq): (usize, usize),
    shown: [Card; 3],
    war: &TrioWar,
    tally: &mut WarTally,
) -> (u64, Option<(usize, usize)>) {
    let down = war.rules.face_down;
    let (tp, tq) = (lane(tails, sp), lane(tails, sq));
    let (hp, hq) = (lane(beyond, sp) - 1, lane(beyond, sq) - 1);
    // The fewer cards of the two hands: a battle of the war needs `down + 1` from each.
    let fewer = (tp - hp).min(tq - hq);
    // SAFETY (every access below): each tail is within its limit, a whole deck (room for every
    // card of the game) before its region's end, and a table never holds more cards than the
    // game, so tp + 3 + 2 * moved and tq + 3 + 2 * moved stay inside both regions. A battle
    // puts down cards `moved..moved + down + 1` of each hand only while both hold that many
    // (checked against `fewer`), so hp + moved + k < tp and hq + moved + k < tq.
    let at = |cards: &[Card], h: usize| {
        debug_assert!(h < cards.len());
        // SAFETY: a head of a tied player below its tail (above), inside its region.
        unsafe { *cards.get_unchecked(h) }
    };
    let put = |cards: &mut [Card], t: usize, x: Card, y: Card| {
        debug_assert!(t + 1 < cards.len());
        // SAFETY: a tail and the next card, inside its region (above).
        unsafe {
            *cards.get_unchecked_mut(t) = x;
            *cards.get_unchecked_mut(t + 1) = y;
        }
    };
    debug_assert!(tp.max(tq) + 3 <= cards.len());
    // SAFETY: both tails have room for the battle's three cards (above).
    unsafe {
        for (i, &card) in shown.iter().enumerate() {
            *cards.get_unchecked_mut(tp + i) = card;
            *cards.get_unchecked_mut(tq + i) = card;
        }
    }
    // Cards each tied player has put down in the war so far: one count drives the heads and
    // both copies of the table (`3 + 2 * moved` cards).
    let (mut moved, mut battles) = (0, 0);
    let won = loop {
        if !holds_war(down, fewer - moved) {
            break None;
        }
        let (p, q, size) = (hp + moved, hq + moved, 3 + 2 * moved);
        // Each tied player puts cards `p..=p + down` down (and `q..=q + down`): below the tails.
        debug_assert!(p + down < tp && q + down < tq);
        debug_assert!(tp.max(tq) + size + 2 * down + 1 < cards.len());
        // Face-down cards, then the revealed ones, one from each tied player at a time
        // (oorlog's one face-down card without a loop).
        let (a, b) = if down == 1 {
            let (x0, y0, x1, y1) = (
                at(cards, p),
                at(cards, q),
                at(cards, p + 1),
                at(cards, q + 1),
            );
            for t in [tp + size, tq + size] {
                put(cards, t, x0, y0);
                put(cards, t + 2, x1, y1);
            }
            (x1, y1)
        } else {
            for k in 0..=down {
                let (x, y) = (at(cards, p + k), at(cards, q + k));
                put(cards, tp + size + 2 * k, x, y);
                put(cards, tq + size + 2 * k, x, y);
            }
            (at(cards, p + down), at(cards, q + down))
        };
        moved += war_cards(down);
        battles += 1;
        let (a, b) = (a.value() as usize, b.value() as usize);
        if a != b {
            break Some([sp, sq][second_wins(table, a, b)]);
        }
    };
    tally.wars += battles + u64::from(won.is_none());
    tally.battles += battles;
    let shift = moved as u64;
    (
        shift << sp | shift << sq,
        won.map(|winner| (winner, 3 + 2 * moved)),
    )
}

/// Where [`run_three`] stands between wars: the rounds begun, the tails (lane 3: the round
/// limit) and `tails - beyond` (see [`run_three`]).
pub(super) struct Stretch {
    n: usize,
    tails: u64,
    less_one: u64,
}

/// [`run_three`]'s battles from `at` until a tie, which it returns (its decision, [`TRIO_TIE`]
/// set), or until a round after which the run stops (a decision without [`TRIO_TIE`]). Player
/// p's next card is at `head[p] + n`. With `QUICK_WARS` (wars with one face-down card) the
/// common war, two tied players who both hold the card face down and the next and reveal
/// different values, is played here too (see [`quick_war`]); any other tie is returned with the
/// state as it was before the tied battle. A function of its own, so that its few values keep
/// their registers whatever the other wars need.
#[inline(never)]
pub(super) fn three_battles<const QUICK_WARS: bool>(
    cards: &mut [Card],
    table: &TrioTable,
    head: [usize; 3],
    war: &TrioWar,
    at: Stretch,
    tally: &mut WarTally,
) -> (Stretch, u8) {
    let Stretch {
        mut n,
        mut tails,
        mut less_one,
    } = at;
    let [mut h0, mut h1, mut h2] = head;
    loop {
        debug_assert!([h0, h1, h2]
            .iter()
            .enumerate()
            .all(|(p, &h)| h + n < lane(tails, 16 * p)));
        // SAFETY: as in `run`: head + n < tail for every player, inside the array.
        let shown = unsafe { [h0, h1, h2].map(|h| *cards.get_unchecked(h + n)) };
        let [a, b, c] = shown.map(|card| card.value() as usize);
        // Values are below 16 (`trio_table`): the mask only spares a bounds check.
        let decision = u32::from(table[(a | b << 4 | c << 8) & 0xFFF]);
        if decision & u32::from(TRIO_TIE) != 0 {
            let quick = if QUICK_WARS {
                let at = Stretch { n, tails, less_one };
                quick_war(cards, table, ([h0, h1, h2], shown), &at, decision, war)
            } else {
                None
            };
            let Some((moved, after)) = quick else {
                return (Stretch { n, tails, less_one }, decision as u8);
            };
            tally.wars += 1;
            tally.battles += 1;
            n += 1;
            (h0, h1, h2) = (
                h0 + lane(moved, 0),
                h1 + lane(moved, 16),
                h2 + lane(moved, 32),
            );
            // The tied players' heads moved past the war's cards, every head past the round's.
            less_one = after.wrapping_sub(tails.wrapping_sub(less_one) + LANE_ONES + moved);
            tails = after;
            if three_stops(less_one, war.key) {
                return (Stretch { n, tails, less_one }, 0);
            }
            continue;
        }
        let t = (tails >> decision & 0xFFFF) as usize;
        // SAFETY: the winner's tail is within its limit, a whole deck (at least 16 cards, see
        // `Hands::new`) before its region's end, so t + 2 is inside the array. Volatile: three
        // plain stores of the cards already in registers. Otherwise the compiler either reads
        // two of them again (the store might alias them) or merges the three stores into one
        // word built with five shifts and ors: 2.6% more instructions either way.
        debug_assert!(t <= lane(war.limits, decision as usize) && t + 3 <= cards.len());
        // SAFETY: t + 2 is inside the array, as said above.
        unsafe {
            let at = cards.as_mut_ptr().add(t);
            at.write_volatile(shown[0]);
            at.add(1).write_volatile(shown[1]);
            at.add(2).write_volatile(shown[2]);
        }
        n += 1;
        let won = 3 << decision;
        tails += won;
        less_one = less_one.wrapping_add(won).wrapping_sub(LANE_ONES);
        if three_stops(less_one, war.key) {
            // The last battle's decision: no `TRIO_TIE`.
            return (Stretch { n, tails, less_one }, decision as u8);
        }
    }
}

/// Which of two different values wins between two players, read from a run of three's
/// `table`: 0 when `a` does, 1 when `b` does. `a` wins when it alone is the strongest of
/// (a, b, b), the table's decision 0 (player 1 wins; else players 2 and 3 tie). Values are
/// below 16 ([`trio_table`]): the mask only spares a bounds check.
#[inline(always)]
pub(super) fn second_wins(table: &TrioTable, a: usize, b: usize) -> usize {
    usize::from(table[(a | b << 4 | b << 8) & 0xFFF] != 0)
}

/// Two tied players of a run of three, found by their `leaders` bits (0b011, 0b101 or 0b110),
/// in the forms the wars of two need without a variable shift.
#[derive(Clone, Copy)]
pub(super) struct TiedPair {
    /// Their lanes' shifts, lower first.
    shifts: [u8; 2],
    /// Two in each of their lanes: what the war moves their heads by, and the fewest cards
    /// each must hold after the tied one.
    two: u64,
    /// Their lanes' high bits.
    highs: u64,
}

/// [`TiedPair`] for each `leaders` value; the others (one player, or all three) are unused.
pub(super) const TIED_PAIRS: [TiedPair; 8] = {
    let mut pairs = [TiedPair {
        shifts: [0, 0],
        two: 0,
        highs: 0,
    }; 8];
    let mut leaders = 0;
    while leaders < 8 {
        if leaders == 0b011 || leaders == 0b101 || leaders == 0b110 {
            let (sp, sq) = (
                16 * (leaders as u32).trailing_zeros(),
                16 * (31 - (leaders as u32).leading_zeros()),
            );
            pairs[leaders] = TiedPair {
                shifts: [sp as u8, sq as u8],
                two: 2 << sp | 2 << sq,
                highs: 0x8000 << sp | 0x8000 << sq,
            };
        }
        leaders += 1;
    }
    pairs
};

/// The war of round `at.n` of a run of three (its tails and `tails - beyond` in `at`), which
/// tied with `decision` showing `shown`, when it is two players who each hold at least the card
/// face down and the next, and the next two differ: the round's three cards, then the face-down
/// cards and the revealed ones (player order) go to the winner's tail. Player p's tied card is
/// at `head[p] + n`. Returns what the tied players' heads move by (in lanes) and the tails after
/// the war (the round limit in lane 3 brought forward if needed, see [`after_war`]); for any
/// other tie, [`None`], having changed nothing.
#[inline(always)]
pub(super) fn quick_war(
    cards: &mut [Card],
    table: &TrioTable,
    (head, shown): ([usize; 3], [Card; 3]),
    at: &Stretch,
    decision: u32,
    war: &TrioWar,
) -> Option<(u64, u64)> {
    let &Stretch { n, tails, less_one } = at;
    let leaders = decision & !u32::from(TRIO_TIE);
    if leaders == 0b111 {
        return None;
    }
    let pair = TIED_PAIRS[leaders as usize & 7];
    // Cards left after the tied one (`less_one`'s lanes, below 2^15): the war needs two of
    // each. A lane below two borrows into its high bit.
    if less_one.wrapping_sub(pair.two) & pair.highs != 0 {
        return None;
    }
    // The tied players' face-down cards: players 1 and 2, 1 and 3, or 2 and 3.
    let p = if leaders & 1 != 0 { head[0] } else { head[1] } + n + 1;
    let q = if leaders & 4 != 0 { head[2] } else { head[1] } + n + 1;
    debug_assert!(p + 1 < lane(tails, pair.shifts[0] as usize));
    debug_assert!(q + 1 < lane(tails, pair.shifts[1] as usize));
    // SAFETY: both tied players hold these two cards (checked above), so p + 1 and q + 1
    // are below their tails, inside the array.
    let [x0, x1, y0, y1] = unsafe { [p, p + 1, q, q + 1].map(|i| *cards.get_unchecked(i)) };
    let (a, b) = (x1.value() as usize, y1.value() as usize);
    if a == b {
        return None;
    }
    let winner = usize::from(pair.shifts[second_wins(table, a, b)]);
    let t = lane(tails, winner);
    debug_assert!(t <= lane(war.limits, winner) && t + 7 <= cards.len());
    // SAFETY: the winner's tail is within its limit, a whole deck before its region's end,
    // so t + 6 is inside the array.
    unsafe {
        let [s0, s1, s2] = shown;
        let table = [s0, s1, s2, x0, y0, x1, y1];
        cards.get_unchecked_mut(t..t + 7).copy_from_slice(&table);
    }
    Some((pair.two, after_war(tails, winner, 7, n + 1, war.limits)))
}

/// Whether a run of three stops after a round, `less_one` being `tails - beyond` (see
/// [`run_three`]): a hand is empty, the hands' sizes match the key ([`Key::trio`]), or the round
/// limit is reached.
#[inline(always)]
pub(super) fn three_stops(less_one: u64, key: u32) -> bool {
    // An empty hand's lane borrows from the lane above (from past the word, for lane 2
    // when lane 3 is spent): only the lanes' high bits are read.
    let empty = less_one & LANE_HIGHS != 0;
    // Players 1 and 2's hand sizes (lanes 0 and 1), the key being `Key::trio`: the third
    // follows, as the hands hold every card between rounds.
    let key_hit = less_one as u32 == key;
    key_hit | empty
}

/// Three positions in the lanes of a word.
pub(super) fn lanes(at: [usize; 3]) -> u64 {
    at[0] as u64 | (at[1] as u64) << 16 | (at[2] as u64) << 32
}

/// The three lanes of `tails`, one position each.
pub(super) fn unlane(tails: u64) -> [usize; 3] {
    [0, 1, 2].map(|p| (tails >> (16 * p) & 0xFFFF) as usize)
}

/// The war of a three-way tie in a run of three, through [`play_war`], which moves the heads;
/// the winner's table is put at the bottom of its hand (its tail is within its limit, a whole
/// deck before its region's end).
#[cold]
#[inline(never)]
pub(super) fn war_of_three(
    cards: &mut [Card],
    pile: &mut [Card],
    head: &mut [usize; 3],
    tail: [usize; 3],
    tied: &TiedBattle<3>,
    war: &TrioWar,
    tally: &mut WarTally,
) -> War {
    let won = play_war(cards, pile, head, &tail, *tied, war.rules, tally);
    if let War::Won { winner, pile: size } = won {
        let t = tail[winner];
        cards[t..t + size].copy_from_slice(&pile[..size]);
    }
    won
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Deck, Ranking};

    /// Every possible three-card battle: the table picks the winner [`Strength`] picks, or the
    /// players who tie, for every deck the tables serve.
    #[test]
    fn three_player_tables_agree_with_the_rules() {
        let mut served = 0;
        for values in 2..=20 {
            let deck = Deck::parse(&format!("4x{values}")).unwrap();
            for &ranking in Ranking::ALL {
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
        // Every ranking on 2..=16 values.
        assert_eq!(served, 15 * Ranking::ALL.len());
        let plain = Strength::new(Ranking::Standard, Deck::STANDARD);
        assert!(trio_table(plain, 17).is_none());
        // 2 beats ace beats queen, under oorlog; a 2 beats an ace under cyclic too.
        let oorlog = trio_table(Strength::new(Ranking::Oorlog, Deck::STANDARD), 13).unwrap();
        let standard = trio_table(plain, 13).unwrap();
        let cyclic = trio_table(Strength::new(Ranking::Cyclic, Deck::STANDARD), 13).unwrap();
        assert_eq!(oorlog[12 | 10 << 4], 32);
        assert_eq!(standard[12 | 10 << 4], 0);
        assert_eq!(cyclic[12 | 1 << 4], 32);
        assert_eq!(oorlog[12 | 12 << 4 | 5 << 8], TRIO_TIE | 0b011);
    }
}
