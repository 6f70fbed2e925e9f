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
//! `run_three` (the default oorlog table) decides a battle with one lookup in a 4 KB table and
//! plays its wars out of line.
//!
//! A war's table can take a tail past the room the run started with; the run's round limit is
//! then recomputed from the tails (`rounds_of_room`), rather than shortened by a guess, which
//! stopped runs early (twice as many runs as needed under oorlog with three players).

use super::cycle::Key;
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
    key: Key,
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
        if taken > players {
            stop_n = rounds_of_room(&limit, &tail, n, stop_n);
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
/// Whether a player is tied is data, not control: each visited player's cards go to the pile,
/// and only the tied players' count. Four players or more visit only the tied players, walking
/// the set bits of `leaders` (two in most wars; visiting all six cost some 200 instructions more
/// a war); three players visit all three, a walk whose length never varies (walking the tied
/// players' bits mispredicted: three-player oorlog's three-way wars, 91,000 mispredicted
/// branches over 20,000 games against 4,000).
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
            short | tied(p) & usize::from(tail[p] - (head[p] + n) <= face_down)
        });
        if short != 0 {
            return War::Short;
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
            head[p] += tied(p) * (face_down + 1);
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

/// Sixteen-bit lanes, one per player (lane 3: `run_three`'s round countdown): tails and heads
/// packed in one word each, so that the winner's tail is picked and moved by a shift, and "is
/// any hand empty" is one subtraction and a test of the lanes' high bits.
const LANE_ONES: u64 = 0x0001_0001_0001_0001;
const LANE_HIGHS: u64 = 0x8000_8000_8000_8000;
/// The three players' lanes of a word; lane 3 is `run_three`'s round countdown.
const THREE_LANES_MASK: u64 = 0x0000_FFFF_FFFF_FFFF;

/// Whether `run_three` can play this game: every position of the hands fits in a lane.
fn fits_three(hands: &Hands) -> bool {
    hands.players() == 3 && hands.cards.len() < 1 << 15
}

/// `run::<GATHER, 3>` for `P1_FIRST` and `REVEAL_WARS`, the oorlog default, specialised: a 4 KB
/// table decides each battle, and tails and heads live in sixteen-bit lanes (see `LANE_ONES`).
/// A war of two (nine ties in ten) is played in place on those lanes, its table written after
/// both tied players' tails; a three-way tie goes to `war_of_three`. The caller checks
/// `fits_three` and passes the table `trio_table` gives.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_three<const GATHER: u8>(
    hands: &mut Hands,
    strength: Strength,
    table: &TrioTable,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: Key,
) -> (Run, Counts) {
    debug_assert!(fits_three(hands) && (GATHER == P1_FIRST || GATHER == REVEAL_WARS));
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
        face_down,
        strength,
    };
    // Oorlog's one face-down card, with wars: the common war is played in the battle loop.
    let battles = if GATHER == REVEAL_WARS && face_down == 1 {
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
        // SAFETY: the heads as in `three_battles`.
        let shown = unsafe { head.map(|h| *cards.get_unchecked(h + n)) };
        n += 1;
        beyond += LANE_ONES;
        let leaders = u32::from(decision & !TRIO_TIE);
        if GATHER != REVEAL_WARS {
            break tie(&shown, leaders);
        }
        let after = if leaders == 0b111 {
            let mut head = head;
            let at = War3 { shown, n };
            let won = war_of_three(
                cards,
                pile,
                &mut head,
                unlane(tails),
                &at,
                &war,
                &mut war_tally,
            );
            beyond = lanes(head.map(|h| h + n)) + LANE_ONES + ((n as u64) << 48);
            match won {
                War::Won { winner, pile } => Some((16 * winner, pile)),
                War::Short => None,
            }
        } else {
            // The tied players' lanes: players 1 and 2, 1 and 3, or 2 and 3. (Looked up, not
            // branched on: a branch on the three pairs mispredicts in two wars out of three.)
            let [sp, sq] = TIED_PAIRS[leaders as usize & 7].shifts.map(usize::from);
            let lanes = (tails, beyond);
            let (moved, won) =
                war_of_two(cards, table, lanes, (sp, sq), shown, &war, &mut war_tally);
            beyond += moved;
            won
        };
        let Some((winner, size)) = after else {
            break Run::ShortWar;
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
fn lane(word: u64, shift: usize) -> usize {
    (word >> shift & 0xFFFF) as usize
}

/// What a run of three's wars need: the cycle key, the tails' limits in lanes, and the rules.
struct TrioWar {
    key: u32,
    limits: u64,
    face_down: usize,
    strength: Strength,
}

/// The tails after the player whose lane is at `winner` (`16 * p`) took a war's `size` cards
/// in round `n`, with the round limit in lane 3 brought forward if that tail needs it. Only the
/// winner's tail moved more than a battle's three cards, so the other players' room still lasts
/// until the current limit (see `rounds_of_room`).
#[inline(always)]
fn after_war(tails: u64, winner: usize, size: usize, n: usize, limits: u64) -> u64 {
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
#[inline(always)]
fn war_of_two(
    cards: &mut [Card],
    table: &TrioTable,
    (tails, beyond): (u64, u64),
    (sp, sq): (usize, usize),
    shown: [Card; 3],
    war: &TrioWar,
    tally: &mut WarTally,
) -> (u64, Option<(usize, usize)>) {
    let down = war.face_down;
    let (tp, tq) = (lane(tails, sp), lane(tails, sq));
    let (hp, hq) = (lane(beyond, sp) - 1, lane(beyond, sq) - 1);
    // The fewer cards of the two hands: a battle of the war needs `down + 1` from each.
    let fewer = (tp - hp).min(tq - hq);
    // SAFETY (every access below): each tail is within its limit, a whole deck (room for every
    // card of the game) before its region's end, and a table never holds more cards than the
    // game, so tp + 3 + 2 * moved and tq + 3 + 2 * moved stay inside both regions. A battle
    // puts down cards `moved..moved + down + 1` of each hand only while both hold that many
    // (checked against `fewer`), so hp + moved + k < tp and hq + moved + k < tq.
    let at = |cards: &[Card], h: usize| unsafe { *cards.get_unchecked(h) };
    let put = |cards: &mut [Card], t: usize, x: Card, y: Card| unsafe {
        *cards.get_unchecked_mut(t) = x;
        *cards.get_unchecked_mut(t + 1) = y;
    };
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
        if moved + down >= fewer {
            break None;
        }
        let (p, q, size) = (hp + moved, hq + moved, 3 + 2 * moved);
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
        moved += down + 1;
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

/// Where `run_three` stands between wars: the rounds begun, the tails (lane 3: the round
/// limit) and `tails - beyond` (see `run_three`).
struct Stretch {
    n: usize,
    tails: u64,
    less_one: u64,
}

/// `run_three`'s battles from `at` until a tie, which it returns (its decision, `TRIO_TIE`
/// set), or until a round after which the run stops (a decision without `TRIO_TIE`). Player
/// p's next card is at `head[p] + n`. With `QUICK_WARS` (wars with one face-down card) the
/// common war, two tied players who both hold the card face down and the next and reveal
/// different values, is played here too (see `quick_war`); any other tie is returned with the
/// state as it was before the tied battle. A function of its own, so that its few values keep
/// their registers whatever the other wars need.
#[inline(never)]
fn three_battles<const QUICK_WARS: bool>(
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
        // SAFETY: as in `run`: head + n < tail for every player, inside the array.
        let shown = unsafe { [h0, h1, h2].map(|h| *cards.get_unchecked(h + n)) };
        let [a, b, c] = shown.map(|card| card.value() as usize);
        // Values are below 16 (`trio_table`): the mask only spares a bounds check.
        let decision = u32::from(table[(a | b << 4 | c << 8) & 0xFFF]);
        if decision & u32::from(TRIO_TIE) != 0 {
            let quick = if QUICK_WARS {
                quick_war(
                    cards,
                    table,
                    ([h0, h1, h2], shown),
                    n,
                    tails,
                    less_one,
                    decision,
                    war,
                )
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
        debug_assert!(t + 3 <= cards.len());
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
/// below 16 (`trio_table`): the mask only spares a bounds check.
#[inline(always)]
fn second_wins(table: &TrioTable, a: usize, b: usize) -> usize {
    usize::from(table[(a | b << 4 | b << 8) & 0xFFF] != 0)
}

/// Two tied players of a run of three, found by their `leaders` bits (0b011, 0b101 or 0b110),
/// in the forms the wars of two need without a variable shift.
#[derive(Clone, Copy)]
struct TiedPair {
    /// Their lanes' shifts, lower first.
    shifts: [u8; 2],
    /// Two in each of their lanes: what the war moves their heads by, and the fewest cards
    /// each must hold after the tied one.
    two: u64,
    /// Their lanes' high bits.
    highs: u64,
}

/// `TiedPair` for each `leaders` value; the others (one player, or all three) are unused.
const TIED_PAIRS: [TiedPair; 8] = {
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

/// The war of round `n` of a run of three, which tied with `decision` showing `shown`, when it
/// is two players who each hold at least the card face down and the next, and the next two
/// differ: the round's three cards, then the face-down cards and the revealed ones (player
/// order) go to the winner's tail. Player p's tied card is at `head[p] + n`. Returns what the
/// tied players' heads move by (in lanes) and the tails after the war (the round limit in lane
/// 3 brought forward if needed, see `after_war`); for any other tie, `None`, having changed
/// nothing.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn quick_war(
    cards: &mut [Card],
    table: &TrioTable,
    (head, shown): ([usize; 3], [Card; 3]),
    n: usize,
    tails: u64,
    less_one: u64,
    decision: u32,
    war: &TrioWar,
) -> Option<(u64, u64)> {
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
    // SAFETY: both tied players hold these two cards (checked above), so p + 1 and q + 1
    // are below their tails, inside the array.
    let [x0, x1, y0, y1] = unsafe { [p, p + 1, q, q + 1].map(|i| *cards.get_unchecked(i)) };
    let (a, b) = (x1.value() as usize, y1.value() as usize);
    if a == b {
        return None;
    }
    let winner = usize::from(pair.shifts[second_wins(table, a, b)]);
    let t = lane(tails, winner);
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
/// `run_three`): a hand is empty, the hands' sizes match the key (`Key::trio`), or the round
/// limit is reached.
#[inline(always)]
fn three_stops(less_one: u64, key: u32) -> bool {
    // An empty hand's lane borrows from the lane above (from past the word, for lane 2
    // when lane 3 is spent): only the lanes' high bits are read.
    let empty = less_one & LANE_HIGHS != 0;
    // Players 1 and 2's hand sizes (lanes 0 and 1), the key being `Key::trio`: the third
    // follows, as the hands hold every card between rounds.
    let key_hit = less_one as u32 == key;
    key_hit | empty
}

/// Three positions in the lanes of a word.
fn lanes(at: [usize; 3]) -> u64 {
    at[0] as u64 | (at[1] as u64) << 16 | (at[2] as u64) << 32
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

/// The three lanes of `tails`, one position each.
fn unlane(tails: u64) -> [usize; 3] {
    [0, 1, 2].map(|p| (tails >> (16 * p) & 0xFFFF) as usize)
}

/// A three-way tie in round `n` of a run of three, which showed `shown`.
struct War3 {
    shown: [Card; 3],
    n: usize,
}

/// The war of a three-way tie in a run of three, through `play_war`, which moves the heads;
/// the winner's table is put at the bottom of its hand (its tail is within its limit, a whole
/// deck before its region's end).
#[cold]
#[inline(never)]
fn war_of_three(
    cards: &mut [Card],
    pile: &mut [Card],
    head: &mut [usize; 3],
    tail: [usize; 3],
    at: &War3,
    war: &TrioWar,
    tally: &mut WarTally,
) -> War {
    let won = play_war(
        cards,
        pile,
        head,
        &tail,
        at.n,
        at.shown,
        0b111,
        war.strength,
        war.face_down,
        tally,
    );
    if let War::Won { winner, pile: size } = won {
        let t = tail[winner];
        cards[t..t + size].copy_from_slice(&pile[..size]);
    }
    won
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
    key: Key,
) -> (Run, Counts) {
    debug_assert!(fits_lanes(hands) && (GATHER == P1_FIRST || GATHER == REVEAL_WARS));
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
    let battles = if GATHER == REVEAL_WARS && face_down == 1 {
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
        if GATHER != REVEAL_WARS {
            let shown: [Card; PLAYERS] = std::array::from_fn(|p| cards[head[p] + n - 1]);
            let tied = (0..PLAYERS).fold(0, |m, p| m | ((leaders >> (8 * p + 7)) as u32 & 1) << p);
            break tie(&shown, tied);
        }
        let war;
        (war, sizes) = lanes_war(
            cards,
            pile,
            &mut head,
            n,
            sizes,
            leaders,
            war_rules,
            &mut war_tally,
        );
        let War::Won {
            winner,
            pile: taken,
        } = war
        else {
            break Run::ShortWar;
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

/// What `lanes_battles` reads and does not change: the ranking, the cycle key (`Key::bytes`)
/// and the tails' limits.
struct LaneRun<'a, const PLAYERS: usize> {
    strength: Strength,
    key: u64,
    limit: &'a [usize; PLAYERS],
}

/// `run_lanes`'s battles from round `n` with the hands' sizes `sizes` (`at`), until a tie,
/// which it returns (the high bits of the tied players' lanes; the round counted, its cards
/// still at the heads), or until a round after which the run stops (0): a hand is empty, the
/// sizes match the key, or round `stop_n` is played. With `QUICK_WARS` (wars with one
/// face-down card) the common war, two tied players who both hold the card face down and the
/// next and reveal different values, is played here too, moving their heads and bringing
/// `stop_n` forward if the winner's room needs it; any other tie is returned with the state
/// as it was after the tied battle. A function of its own, so that the heads keep their
/// registers whatever the other wars need.
#[inline(never)]
fn lanes_battles<const PLAYERS: usize, const QUICK_WARS: bool>(
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
struct LaneWar<const PLAYERS: usize> {
    shown: [Card; PLAYERS],
    leaders: u64,
    n: usize,
}

/// The common war of `lanes_battles` (oorlog's one face-down card): two tied players who both
/// hold the card face down and the next, and reveal different values. Plays it if it is one:
/// the round's cards in player order, the face-down cards, then the revealed ones go to the
/// winner's tail, the two heads move past their cards, `sizes` counts it all, and `stop_n`
/// comes forward if the winner's room needs it. Otherwise changes nothing and returns false.
#[inline(always)]
fn lanes_quick_war<const PLAYERS: usize>(
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
const ALL_LANES: u64 = each_lane(0x01, 8);

/// What a war needs to know of the rules.
#[derive(Clone, Copy)]
struct WarRules {
    strength: Strength,
    face_down: usize,
}

/// The war of round `n` in `run_lanes` among the players whose lanes' high bits `leaders` holds,
/// on the hands' sizes `sizes` (byte p: player p's cards after the round's), until one player
/// reveals the strongest card or a tied player is short of cards. The pile gets the round's
/// cards in player order, then each battle of the war's face-down cards (one from each tied
/// player at a time) and its revealed cards, as `play_war` puts them; the tied players' heads
/// move past their cards, and the sizes returned count them out. `play_war` on byte lanes: the
/// short-war check and the new leaders are one word each, and only the tied players are visited.
#[allow(clippy::too_many_arguments)]
fn lanes_war<const PLAYERS: usize>(
    cards: &[Card],
    pile: &mut [Card],
    head: &mut [usize; PLAYERS],
    n: usize,
    mut sizes: u64,
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
    let down = face_down + 1;
    // Added to a size (below 128), sets its lane's high bit exactly when the size is `down` or
    // more.
    let enough = (0x80 - down as u64) * ones;
    loop {
        tally.wars += 1;
        if leaders & !(sizes + enough) != 0 {
            return (War::Short, sizes);
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

/// Calls `run_lanes::<GATHER, N>` for the game's player count (3 to 8).
#[allow(clippy::too_many_arguments)]
fn dispatch_lanes<const GATHER: u8>(
    hands: &mut Hands,
    strength: Strength,
    pile: &mut [Card],
    face_down: usize,
    stop_after: u64,
    key: Key,
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
    key: Key,
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
