//! The general round: every setting, any number of players, every event reported to an
//! observer; and the runs of `crowd` it finishes for games of three players or more.

use super::cycle::{self, Copies, History, Key, Replay, Snapshot};
use super::hands::Hands;
use super::short_war::{most_cards, short_war, short_war_note};
use super::{crowd, Counts, Observer, Outcome, Silent};
use crate::deal::SplitMix64;
use crate::rules::deck::MAX_VALUES;
use crate::rules::{gather, holds_war, Card, Direction, Order, PickUp, Rules, MAX_PLAYERS};

/// Cards on the table during a round, and room to gather them.
#[derive(Clone, Debug)]
pub(super) struct Table {
    cards: Vec<Card>,
    owners: Vec<u8>,
    gathered: Vec<Card>,
    /// The table of a war played inside a `crowd` run: room for every card, and one more for
    /// each player (see `crowd::play_war`).
    pile: Box<[Card]>,
    /// The three-player decision table of the rules (see [`crowd::trio_table`]), built once.
    trio: Option<Box<crowd::TrioTable>>,
}

impl Table {
    /// Room for `total` cards, for games of `rules`.
    pub(super) fn new(rules: &Rules, total: usize) -> Table {
        let three = rules.players() == 3;
        Table {
            cards: Vec::with_capacity(total),
            owners: Vec::with_capacity(total),
            gathered: Vec::with_capacity(total),
            pile: vec![Card::default(); total + MAX_PLAYERS].into_boxed_slice(),
            trio: three
                .then(|| crowd::trio_table(rules.strength(), rules.deck().values()))
                .flatten(),
        }
    }

    #[inline(always)]
    fn put(&mut self, player: usize, card: Card) {
        self.cards.push(card);
        self.owners.push(player as u8);
    }

    fn clear(&mut self) {
        self.cards.clear();
        self.owners.clear();
    }

    fn events(&self, from: usize, out: &mut Vec<(usize, Card)>) {
        out.clear();
        out.extend(
            self.owners[from..]
                .iter()
                .zip(&self.cards[from..])
                .map(|(&p, &c)| (p as usize, c)),
        );
    }
}

/// What the general round plays on, lent for one call: the rules, the hands, the table, the
/// game's counts, the generator of the `random` gather and the buffer of revealed cards for an
/// observer. One argument where each function of the round took six.
pub(super) struct Round<'a> {
    pub(super) rules: &'a Rules,
    pub(super) hands: &'a mut Hands,
    pub(super) table: &'a mut Table,
    pub(super) tally: &'a mut Counts,
    pub(super) rng: &'a mut SplitMix64,
    pub(super) events: &'a mut Vec<(usize, Card)>,
}

/// Rounds of a looping game rebuilt from its snapshots ([`cycle::cycle_start`]).
pub(super) struct Rebuild<'a> {
    pub(super) rules: &'a Rules,
    pub(super) history: &'a History<Snapshot, Counts>,
    pub(super) table: &'a mut Table,
    pub(super) rng: &'a mut SplitMix64,
    pub(super) events: &'a mut Vec<(usize, Card)>,
}

impl Rebuild<'_> {
    /// Plays `rounds` more rounds of the looping game in `live`.
    fn play(&mut self, (hands, tally): &mut (Hands, Counts), rounds: u64) {
        let mut round = Round {
            rules: self.rules,
            hands,
            table: self.table,
            tally,
            rng: self.rng,
            events: self.events,
        };
        replay_rounds(&mut round, rounds);
    }
}

impl Replay for Rebuild<'_> {
    type Live = (Hands, Counts);

    fn rebuild(&mut self, live: &mut (Hands, Counts), round: u64) {
        let (at, snapshot, counts) = self.history.at_or_before(round);
        snapshot.restore(&mut live.0);
        live.1 = counts;
        self.play(live, round - at);
    }

    fn step(&mut self, live: &mut (Hands, Counts)) {
        self.play(live, 1);
    }

    fn same(&self, a: &(Hands, Counts), b: &(Hands, Counts)) -> bool {
        a.0.same_values(&b.0)
    }
}

/// Exactly `rounds` rounds of a game already known to cycle (so it cannot end), unobserved.
/// (A two-player game comes here only when observed: unobserved ones are played in `pair`.)
pub(super) fn replay_rounds(round: &mut Round, rounds: u64) {
    let target = round.tally.rounds + rounds;
    while round.tally.rounds < target {
        let end = if round.rules.players() == 2 {
            play_round(round, &mut Silent)
        } else {
            let left = target - round.tally.rounds;
            fast_rounds(round, left, NO_KEY)
        };
        debug_assert!(end.is_none(), "a cycling game ended in its replay");
    }
}

/// A key no hand matches: runs that need not watch for cycles.
pub(super) const NO_KEY: Key = cycle::NO_MATCH;

/// Nobody watching, three or more players: plays a run of tie-free rounds in `crowd`, then
/// finishes the round that stopped it, at most `stop_after` rounds in all. No round but the
/// last left the hands matching `key`. Returns how the game ended, if it did.
pub(super) fn fast_rounds(round: &mut Round, stop_after: u64, key: Key) -> Option<Outcome> {
    let (rules, n) = (round.rules, round.rules.players());
    debug_assert!(n >= 3, "two-player games take `pair` or `packed`");
    let Round {
        hands,
        table,
        tally,
        rng,
        ..
    } = round;
    let trio = table.trio.as_deref();
    let (run, counts) = crowd::play(rules, hands, rng, &mut table.pile, trio, stop_after, key);
    tally.rounds += counts.rounds;
    tally.battles += counts.battles;
    tally.wars += counts.wars;
    let end = match run {
        crowd::Run::Tie {
            revealed,
            tied,
            count,
        } => {
            table.clear();
            for (p, &card) in revealed.iter().enumerate().take(n) {
                table.put(p, card);
            }
            resolve_war(round, &mut Silent, tied, count)
        }
        crowd::Run::ShortWar { tied } => {
            let (mut players, mut count) = ([0u8; MAX_PLAYERS], 0);
            for p in (0..n).filter(|p| tied >> p & 1 == 1) {
                players[count] = p as u8;
                count += 1;
            }
            let end = short_war(rules, &players[..count], |p| hands.len(p));
            debug_assert!(
                end.is_err(),
                "a run stopped on a war its players could play"
            );
            end.err()
        }
        crowd::Run::Round => {
            for p in 0..n {
                hands.make_room(p);
            }
            hands.any_empty().then(|| most_cards(hands))
        }
    };
    end
}

/// Plays one round, a battle and all its wars, reporting every event: the general path of
/// observed games, for any number of players. [`None`] if the game goes on.
pub(super) fn play_round<O: Observer>(round: &mut Round, observer: &mut O) -> Option<Outcome> {
    let Round {
        rules,
        hands,
        table,
        tally,
        events,
        ..
    } = round;
    tally.battles += 1;
    table.clear();
    for p in 0..rules.players() {
        table.put(p, draw(hands, p, observer));
    }
    if O::ACTIVE {
        table.events(0, events);
        observer.revealed(tally.battles, tally.rounds + 1, events);
    }
    let mut contenders = [0u8; MAX_PLAYERS];
    for (p, c) in contenders.iter_mut().enumerate().take(rules.players()) {
        *c = p as u8;
    }
    let players = rules.players();
    decide(round, observer, contenders, players, 0)
}

/// The players among `contenders` whose card (revealed from table position `from` on, one each in
/// contender order) is the strongest. Either one of them takes the table, or they go to war.
pub(super) fn decide<O: Observer>(
    round: &mut Round,
    observer: &mut O,
    contenders: [u8; MAX_PLAYERS],
    count: usize,
    from: usize,
) -> Option<Outcome> {
    let revealed = &round.table.cards[from..from + count];
    let best = (round.rules)
        .strength()
        .strongest(revealed.iter().map(|c| c.value()));
    let mut tied = [0u8; MAX_PLAYERS];
    let mut n = 0;
    for (&p, card) in contenders[..count].iter().zip(revealed) {
        if card.value() == best {
            tied[n] = p;
            n += 1;
        }
    }
    if n == 1 {
        let winner = tied[0] as usize;
        return take_table(round, observer, winner, from);
    }
    resolve_war(round, observer, tied, n)
}

/// Player `p`'s top card, revealed or put face down. With won piles, an empty hand first takes
/// its shuffled won pile (`docs/rules.md`), and the trace says so.
#[inline(always)]
pub(super) fn draw<O: Observer>(hands: &mut Hands, p: usize, observer: &mut O) -> Card {
    if hands.must_take_pile(p) {
        hands.take_pile(p);
        if O::ACTIVE {
            observer.pile_shuffled(p, hands.hand(p));
        }
    }
    hands.pop(p)
}

/// A tie among `tied[..n]`: wars until one player takes the table, or the game ends because a
/// tied player is short of cards.
#[inline(never)]
pub(super) fn resolve_war<O: Observer>(
    round: &mut Round,
    observer: &mut O,
    tied: [u8; MAX_PLAYERS],
    n: usize,
) -> Option<Outcome> {
    let Round {
        rules,
        hands,
        table,
        tally,
        events,
        ..
    } = round;
    tally.wars += 1;
    let tied_players = &tied[..n];
    let down = match face_down_count(rules, hands, tied_players, observer) {
        Ok(down) => down,
        Err(outcome) => return Some(outcome),
    };
    let face_down_from = table.cards.len();
    for _ in 0..down {
        for &p in tied_players {
            table.put(p as usize, draw(hands, p as usize, observer));
        }
    }
    if O::ACTIVE {
        table.events(face_down_from, events);
        observer.war(events);
    }
    tally.battles += 1;
    let from = table.cards.len();
    for &p in tied_players {
        table.put(p as usize, draw(hands, p as usize, observer));
    }
    if O::ACTIVE {
        table.events(from, events);
        observer.revealed(tally.battles, tally.rounds + 1, events);
    }
    decide(round, observer, tied, n, from)
}

/// How many cards each tied player puts face down, or how the game ends because a tied player is
/// short of cards (the preset's short-war policy).
pub(super) fn face_down_count<O: Observer>(
    rules: &Rules,
    hands: &Hands,
    tied: &[u8],
    observer: &mut O,
) -> Result<u32, Outcome> {
    let left = |p: usize| hands.len(p);
    let d = rules.face_down() as u32;
    let fewest = tied.iter().map(|&p| left(p as usize)).min().unwrap_or(0);
    if holds_war(d as usize, fewest as usize) {
        return Ok(d);
    }
    if O::ACTIVE {
        observer.note(&short_war_note(rules.short_war(), d, fewest));
    }
    short_war(rules, tied, left)
}

/// The winner takes the table in the gather order; then the game ends if a hand is empty.
/// `from` is where the deciding battle's cards start on the table (one per contender, in
/// player order).
pub(super) fn take_table<O: Observer>(
    round: &mut Round,
    observer: &mut O,
    winner: usize,
    from: usize,
) -> Option<Outcome> {
    let Round {
        rules,
        hands,
        table,
        tally,
        rng,
        ..
    } = round;
    let Table {
        cards,
        owners,
        gathered,
        ..
    } = table;
    gathered.clear();
    let order = rules.gather().order();
    if order == Order::Reveal {
        // The table is already in the order the winner takes it.
        if O::ACTIVE {
            observer.took(winner, cards);
        }
        hands.win(winner, cards);
        return finish_round(hands, tally, winner);
    }
    let players = rules.players();
    let mut pickup = TablePickUp {
        cards,
        owners,
        from,
        players,
        gathered,
        rng,
    };
    gather(order, &mut pickup, winner);
    if O::ACTIVE {
        observer.took(winner, gathered);
    }
    hands.win(winner, gathered);
    finish_round(hands, tally, winner)
}

/// The general round's table (`cards`, each played by `owners`; the deciding battle from
/// `from` on) as the gather reads it, and the winner's pick-up.
pub(super) struct TablePickUp<'a> {
    cards: &'a [Card],
    owners: &'a [u8],
    from: usize,
    players: usize,
    gathered: &'a mut Vec<Card>,
    rng: &'a mut SplitMix64,
}

impl PickUp for TablePickUp<'_> {
    #[inline(always)]
    fn players(&self) -> usize {
        self.players
    }

    #[inline(always)]
    fn put_player(&mut self, p: usize, direction: Direction) {
        let own = self.cards.iter().zip(self.owners);
        let mut put = |(&card, &owner): (&Card, &u8)| {
            if owner as usize == p {
                self.gathered.push(card);
            }
        };
        match direction {
            Direction::AsPlayed => own.for_each(&mut put),
            Direction::LatestFirst => own.rev().for_each(&mut put),
        }
    }

    #[inline(always)]
    fn put_deciding(&mut self, p: usize) {
        let battle = self.cards[self.from..].iter();
        for (&card, &owner) in battle.zip(&self.owners[self.from..]) {
            if owner as usize == p {
                self.gathered.push(card);
            }
        }
    }

    #[inline(always)]
    fn put_earlier(&mut self, direction: Direction) {
        let earlier = &self.cards[..self.from];
        match direction {
            Direction::AsPlayed => self.gathered.extend_from_slice(earlier),
            Direction::LatestFirst => self.gathered.extend(earlier.iter().rev()),
        }
    }

    #[inline(always)]
    fn put_revealed(&mut self) {
        self.gathered.extend_from_slice(self.cards);
    }

    #[inline(always)]
    fn put_strongest(&mut self) {
        strongest_first(self.cards, self.gathered);
    }

    #[inline(always)]
    fn put_shuffled(&mut self) {
        let from = self.gathered.len();
        self.gathered.extend_from_slice(self.cards);
        self.rng.shuffle(&mut self.gathered[from..]);
    }
}

/// The `sorted` gather: `cards` by value, strongest first, equal values in their order on the
/// table. A counting sort: stable, and no allocation (`out` has room for every card).
pub(super) fn strongest_first(cards: &[Card], out: &mut Vec<Card>) {
    const SLOTS: usize = MAX_VALUES as usize + 1;
    let mut starts = [0usize; SLOTS];
    let top = MAX_VALUES as usize - 1;
    for card in cards {
        starts[top - card.value() as usize + 1] += 1;
    }
    for i in 1..SLOTS {
        starts[i] += starts[i - 1];
    }
    let from = out.len();
    out.resize(from + cards.len(), Card::default());
    for &card in cards {
        let slot = &mut starts[top - card.value() as usize];
        out[from + *slot] = card;
        *slot += 1;
    }
}

/// After the winner took the table: room for the next round, the round counted, and the end of
/// the game if a hand is empty.
pub(super) fn finish_round(
    hands: &mut Hands,
    tally: &mut Counts,
    winner: usize,
) -> Option<Outcome> {
    hands.make_room(winner);
    tally.rounds += 1;
    if hands.any_empty() {
        return Some(most_cards(hands));
    }
    None
}

/// The places of a two-player round's table in the order the winner picks them up, for the
/// gathers whose order does not depend on the cards' values (all but `sorted` and `random`):
/// each player played `m` cards (the last ones deciding), and place `2 * j + p` is player
/// `p`'s `j`-th card, as the general round lays out its table (one card a player a moment).
/// The pick-up the round takes, read with places for cards: the hunt undoes it.
pub(crate) fn pick_up_places(rules: &Rules, winner: usize, m: usize) -> Vec<u8> {
    debug_assert!(rules.players() == 2 && (1..=64).contains(&m));
    let cards: Vec<Card> = (0..2 * m).map(|place| Card::bare(place as u8)).collect();
    let owners: Vec<u8> = (0..2 * m).map(|place| (place % 2) as u8).collect();
    let order = rules.gather().order();
    if order == Order::Reveal {
        return (0..2 * m as u8).collect();
    }
    let mut gathered = Vec::with_capacity(2 * m);
    let mut rng = SplitMix64(0);
    let mut pickup = TablePickUp {
        cards: &cards,
        owners: &owners,
        from: 2 * (m - 1),
        players: 2,
        gathered: &mut gathered,
        rng: &mut rng,
    };
    gather(order, &mut pickup, winner);
    gathered.iter().map(|card| card.value()).collect()
}
