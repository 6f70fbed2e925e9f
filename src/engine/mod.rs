//! The game: one deal in, one result out.
//!
//! An `Engine` is built once per setting and reused for every game: `play_seed` deals into
//! fixed buffers, plays rounds until the game ends or repeats a state, and returns a
//! `GameResult`. Nothing in the game loop allocates.
//!
//! Unobserved games take the fast paths. Two-player games are played whole on values alone:
//! in two machine words when the deck is small (`packed`), otherwise in one byte array with
//! the hands interleaved (`pair`). Games of three or more players are played in `Hands`: runs
//! of tie-free battles in `crowd` (which also plays oorlog's own wars), other wars in
//! `resolve_war`. An observed game (a trace, a property test) goes through `play_round`, the
//! general path that reports every event; tests check that every path gives the same results
//! for every setting.

pub(crate) mod crowd;
pub(crate) mod cycle;
pub(crate) mod hands;
pub(crate) mod packed;
pub(crate) mod pair;

use crate::deal::mirror::{Mirror, Weight};
use crate::deal::seeds::{RangeError, Seeds};
use crate::deal::{dealt_to, Dealer, Shuffle, SplitMix64};
use crate::rules::deck::MAX_VALUES;
use crate::rules::{
    gather, holds_war, war_cards, Card, Direction, Order, PickUp, Rules, ShortWar, WonPile,
    MAX_PLAYERS,
};
use crate::text::count;
use cycle::{Brent, Copies, History, Key, Replay, Snapshot};
use hands::Hands;
use hands::{check_hands, HandsError};
use std::ops::RangeInclusive;

/// How a game ended.
///
/// ```
/// use warsweep::{Engine, Outcome, Preset, Rules, Shuffle};
/// let mut engine = Engine::new(Rules::preset(Preset::Shortened));
/// let outcomes: Vec<Outcome> = (0..100).map(|s| engine.play_seed(Shuffle::Lcg, s).unwrap().outcome).collect();
/// assert!(outcomes.iter().any(|o| matches!(o, Outcome::Win(0))));
/// assert!(outcomes.iter().any(|o| matches!(o, Outcome::Win(1))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Player index (0-based) who won.
    Win(usize),
    /// Nobody won (PAT, or a tie for the most cards).
    Draw,
    /// The game repeats forever: the state after round `cycle_start` recurs every
    /// `cycle_length` rounds.
    Infinite {
        /// The first round whose state recurs.
        cycle_start: u64,
        /// The rounds between two occurrences of a state.
        cycle_length: u64,
    },
    /// Stopped after `--max-rounds` rounds (only games whose cycles cannot be detected).
    Capped,
}

/// What one game produced. For an infinite game the counts cover its first
/// `cycle_start + cycle_length` rounds.
///
/// ```
/// use warsweep::{Engine, Outcome, Preset, Rules, Shuffle};
/// let game = Engine::new(Rules::preset(Preset::Codingame)).play_seed(Shuffle::Lcg, 0)?;
/// assert_eq!((game.outcome, game.rounds), (Outcome::Win(1), 22));
/// assert!(game.battles >= game.rounds && game.wars <= game.battles);
/// # Ok::<(), warsweep::RangeError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameResult {
    /// How the game ended.
    pub outcome: Outcome,
    /// Finished rounds (for an infinite game, its first `cycle_start + cycle_length`).
    pub rounds: u64,
    /// Battles, an unfinished last round's included (for an infinite game, those of its first
    /// `cycle_start + cycle_length` rounds).
    pub battles: u64,
    /// Wars, an unfinished last round's included (for an infinite game, those of its first
    /// `cycle_start + cycle_length` rounds).
    pub wars: u64,
}

/// Running counts of one game.
#[derive(Clone, Copy, Default, Debug)]
struct Tally {
    rounds: u64,
    battles: u64,
    wars: u64,
}

impl Tally {
    /// The game's result: `outcome`, with these counts.
    fn result(self, outcome: Outcome) -> GameResult {
        GameResult {
            outcome,
            rounds: self.rounds,
            battles: self.battles,
            wars: self.wars,
        }
    }
}

/// Watches a game as it is played (traces, property tests). The default does nothing and costs
/// nothing: the engine checks `ACTIVE` before building any event.
///
/// ```
/// use warsweep::{Card, Engine, Observer, Preset, Rules, Shuffle};
/// /// Counts the wars of a game as they are declared.
/// struct Wars(u64);
/// impl Observer for Wars {
///     fn war(&mut self, _face_down: &[(usize, Card)]) {
///         self.0 += 1;
///     }
/// }
/// let mut engine = Engine::new(Rules::preset(Preset::Codingame));
/// let mut wars = Wars(0);
/// let game = engine.play_seed_observed(Shuffle::Lcg, 0, &mut wars)?;
/// assert_eq!(wars.0, game.wars);
/// # Ok::<(), warsweep::RangeError>(())
/// ```
pub trait Observer {
    /// Whether the engine must report events (a trace), which sends games down the general path.
    const ACTIVE: bool = true;
    /// Cards revealed in a battle, as `(player, card)`.
    fn revealed(&mut self, _battle: u64, _round: u64, _cards: &[(usize, Card)]) {}
    /// A tie: the tied players put these cards face down, in the order they reached the table.
    fn war(&mut self, _face_down: &[(usize, Card)]) {}
    /// The round's winner takes `cards` in this order.
    fn took(&mut self, _winner: usize, _cards: &[Card]) {}
    /// A finished round; `hands` as they stand.
    fn round_end(&mut self, _hands: &Hands) {}
    /// Why a game stopped in the middle of a war.
    fn note(&mut self, _text: &str) {}
    /// Player `player` shuffled their won pile into `hand`, their new hand (`--won-pile`).
    fn pile_shuffled(&mut self, _player: usize, _hand: &[Card]) {}
}

/// The observer that watches nothing.
///
/// ```
/// use warsweep::{Engine, Preset, Rules, Shuffle, Silent};
/// let mut engine = Engine::new(Rules::preset(Preset::Classic));
/// let watched = engine.play_seed_observed(Shuffle::Lcg, 3, &mut Silent)?;
/// assert_eq!(watched, engine.play_seed(Shuffle::Lcg, 3)?);
/// # Ok::<(), warsweep::RangeError>(())
/// ```
pub struct Silent;
impl Observer for Silent {
    const ACTIVE: bool = false;
}

/// Cards on the table during a round, and room to gather them.
#[derive(Clone, Debug)]
struct Table {
    cards: Vec<Card>,
    owners: Vec<u8>,
    gathered: Vec<Card>,
    /// The table of a war played inside a `crowd` run: room for every card, and one more for
    /// each player (see `crowd::play_war`).
    pile: Box<[Card]>,
    /// The three-player decision table of the rules (see `crowd::trio_table`), built once.
    trio: Option<Box<crowd::TrioTable>>,
}

impl Table {
    /// Room for `total` cards, for games of `rules`.
    fn new(rules: &Rules, total: usize) -> Table {
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

/// Plays games of one setting, reusing its buffers for every game.
///
/// ```
/// use warsweep::{Engine, Preset, Rules, Seeds, Shuffle};
/// let mut engine = Engine::new(Rules::preset(Preset::Shortened));
/// let mut battles = 0;
/// engine.play_seeds(Shuffle::Lcg, Seeds::new(0, 1_000)?, |_seed, game| battles += game.battles)?;
/// assert!(battles > 100_000);
/// # Ok::<(), warsweep::RangeError>(())
/// ```
pub struct Engine {
    rules: Rules,
    sorted: Vec<Card>,
    deck: Vec<Card>,
    dealer: Dealer,
    hands: Hands,
    history: History<Snapshot, Tally>,
    /// Two copies of a looping game, `lambda` rounds apart, for the search of its cycle's start.
    ghosts: [(Hands, Tally); 2],
    brent: Brent<Snapshot>,
    table: Table,
    rng: SplitMix64,
    max_rounds: u64,
    events: Vec<(usize, Card)>,
    /// Where unobserved games are played (`choose_path`).
    path: Path,
    /// Cards in all hands the engine was sized for.
    total: usize,
    /// Where unobserved two-player games too large for a word are played (see `pair`).
    pair: pair::Pair,
    /// Room for a deal's mirror (`play_walk`).
    mirror_scratch: Vec<u8>,
    /// Room for a written state (`least_states`).
    state_scratch: Vec<u8>,
    /// The long cycles the `lex` walks of this engine have met (`packed::KnownCycles`).
    known_cycles: std::cell::RefCell<packed::KnownCycles>,
}

/// Where unobserved games of a setting are played. Observed games (traces, tests) always take
/// the general round (`play_round`), which plays every setting.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Path {
    /// Two players, whose hands fit in machine words (`packed`).
    Packed(packed::Width),
    /// Two players, the hands interleaved in one byte array (`pair`).
    Pair,
    /// Three players or more: runs of `crowd`, other wars in `resolve_war`.
    Crowd,
    /// The general round: settings no fast path plays.
    General,
}

/// The choice of path for unobserved games of `rules` with `total` cards in all, made once per
/// engine; `packed` allows the word kernel. The one place where a fast path declines a setting
/// (`packed::width` says which games fit in words).
fn choose_path(rules: &Rules, total: usize, packed: bool) -> Path {
    match rules.won_pile() {
        WonPile::None => {}
        // Won piles and their shuffles live in `Hands`, which only the general round reads.
        WonPile::Shuffled => return Path::General,
    }
    if rules.players() > 2 {
        return Path::Crowd;
    }
    match packed::width(rules, total) {
        Some(width) if packed => Path::Packed(width),
        _ => Path::Pair,
    }
}

/// Default for `--max-rounds`: where games that cannot be checked for cycles are stopped.
pub const DEFAULT_MAX_ROUNDS: u64 = 1_000_000;

/// Rounds the first tortoise of Brent's detector waits for, and rounds between snapshots at
/// the start of a game, on this path (games of three or more players, and watched games; the
/// two-player paths have their own). Every run of `crowd` stops at a move of the tortoise and
/// at a snapshot, and each stop costs a run's set-up. Measured (callgrind, seeds 0..50,000),
/// oorlog with 3 players: 256 and 256 against 64 and 128, -4.3% instructions (512 and 512:
/// -5.3%); 6 players, whose games mostly end before round 64, unchanged.
const FIRST_WINDOW: u64 = 256;
const FIRST_SPACING: u64 = 256;

/// Mixed into the game's seed to seed the `random` gather, so that it does not replay the shuffle.
const GATHER_SEED_SALT: u64 = 0x5EED_6A7E_11E2_0B5D;
/// Mixed into the game's seed to seed the shuffles of won piles (`--won-pile shuffled`).
const PILE_SEED_SALT: u64 = 0x9D1E_5EED_0FC0_DE55;

impl Engine {
    /// An engine for games of `rules` dealt from the rules' deck.
    pub fn new(rules: Rules) -> Engine {
        Engine::with_capacity(rules, rules.deck().len())
    }

    /// An engine for games of at most `total` cards in all hands (or the deck, if larger).
    pub fn with_capacity(rules: Rules, total: usize) -> Engine {
        let deck = rules.deck();
        let total = total.max(deck.len());
        let players = rules.players();
        let hands = match rules.won_pile() {
            WonPile::None => Hands::new(players, total),
            WonPile::Shuffled => Hands::new(players, total).with_won_piles(),
        };
        Engine {
            rules,
            sorted: deck.cards(),
            deck: Vec::with_capacity(deck.len()),
            dealer: Dealer::new(deck),
            hands,
            history: History::new(),
            ghosts: [0, 1].map(|_| (Hands::new(players, total), Tally::default())),
            brent: Brent::new(Snapshot::with_capacity(total)),
            table: Table::new(&rules, total),
            rng: SplitMix64(0),
            max_rounds: DEFAULT_MAX_ROUNDS,
            events: Vec::with_capacity(total),
            path: choose_path(&rules, total, true),
            total,
            pair: pair::Pair::with_capacity(total),
            mirror_scratch: vec![0; deck.len()],
            state_scratch: Vec::with_capacity(total + players),
            known_cycles: Default::default(),
        }
    }

    /// Whether unobserved games of small decks are played in machine words (`packed`, the
    /// default where they fit) or on the general fast paths: the tests compare both.
    pub fn set_packed(&mut self, on: bool) {
        self.path = choose_path(&self.rules, self.total, on);
    }

    /// Rounds after which a game that cannot be checked for cycles (`random` gather) stops.
    pub fn set_max_rounds(&mut self, max_rounds: u64) {
        self.max_rounds = max_rounds;
    }

    /// Deals seed `seed` and plays it; a seed the shuffle has no deal for is refused (see
    /// `Dealer::check`).
    pub fn play_seed(&mut self, shuffle: Shuffle, seed: u64) -> Result<GameResult, RangeError> {
        self.play_seed_observed(shuffle, seed, &mut Silent)
    }

    /// Deals and plays every seed of `seeds` in order, handing each result to `each`: the same
    /// results as `play_seed`, but a run of `lex` deals small enough for `packed` is played in
    /// one loop (the exhaustive walk's path). Seeds the shuffle has no deal for are refused
    /// before any is played.
    pub fn play_seeds(
        &mut self,
        shuffle: Shuffle,
        seeds: Seeds,
        mut each: impl FnMut(u64, &GameResult),
    ) -> Result<(), RangeError> {
        self.dealer.check(shuffle, seeds)?;
        if let Some(last) = seeds.end().checked_sub(1) {
            let walk = seeds.start()..=last as u64;
            self.play_walk(shuffle, walk, None, |seed, result, _| each(seed, result));
        }
        Ok(())
    }

    /// `play_seeds`, skipping the deals that `mirror` (the mirror deals of the walk these seeds
    /// are part of) counts with a lesser one: each played deal comes with its weight. The range
    /// is inclusive so that it can end at the last seed, `u64::MAX`; the caller has checked it.
    pub(crate) fn play_walk(
        &mut self,
        shuffle: Shuffle,
        seeds: RangeInclusive<u64>,
        mirror: Option<&Mirror>,
        mut each: impl FnMut(u64, &GameResult, Weight),
    ) {
        if let (Shuffle::Lex, Path::Packed(width)) = (shuffle, self.path) {
            // A lex seed is below the deck's deal count, itself at most u64::MAX.
            if let Some(end) = seeds.end().checked_add(1) {
                let seeds = *seeds.start()..end;
                let mirror = mirror.map(|m| (m, &mut self.mirror_scratch[..]));
                let (dealer, known) = (&mut self.dealer, &self.known_cycles);
                return packed::play_lex(&self.rules, width, dealer, seeds, mirror, known, each);
            }
        }
        for seed in seeds {
            let weight = match mirror {
                Some(mirror) => {
                    let values = self.dealer.lex_values(seed);
                    mirror.weigh(values, &mut self.mirror_scratch)
                }
                None => Weight::Once,
            };
            if weight != Weight::Skip {
                each(seed, &self.play_dealt(shuffle, seed, &mut Silent), weight);
            }
        }
    }

    /// Deals seed `seed` and plays it, reporting every step to `observer`; a seed the shuffle
    /// has no deal for is refused.
    pub fn play_seed_observed<O: Observer>(
        &mut self,
        shuffle: Shuffle,
        seed: u64,
        observer: &mut O,
    ) -> Result<GameResult, RangeError> {
        self.dealer.check(shuffle, Seeds::one(seed))?;
        Ok(self.play_dealt(shuffle, seed, observer))
    }

    /// `play_seed_observed` of a seed already checked.
    fn play_dealt<O: Observer>(
        &mut self,
        shuffle: Shuffle,
        seed: u64,
        observer: &mut O,
    ) -> GameResult {
        // Unobserved two-player games need values only: no hands of cards are dealt.
        let path = if O::ACTIVE { Path::General } else { self.path };
        if shuffle == Shuffle::Lex {
            match path {
                Path::Packed(width) => {
                    let values = self.dealer.lex_values(seed);
                    return packed::play_values(&self.rules, width, values);
                }
                Path::Pair => {
                    let values = self.dealer.lex_values(seed);
                    self.rng = SplitMix64(seed ^ GATHER_SEED_SALT);
                    let rng = &mut self.rng;
                    return self
                        .pair
                        .play_deal(&self.rules, values, |v| v, rng, self.max_rounds);
                }
                Path::Crowd | Path::General => {}
            }
        }
        self.deck.clear();
        self.deck.extend_from_slice(&self.sorted);
        self.dealer.shuffle(shuffle, seed, &mut self.deck);
        match path {
            Path::Packed(width) => {
                return packed::play_deal(&self.rules, width, &self.deck, Card::value);
            }
            Path::Pair => {
                self.rng = SplitMix64(seed ^ GATHER_SEED_SALT);
                let (deck, rng) = (&self.deck, &mut self.rng);
                return self
                    .pair
                    .play_deal(&self.rules, deck, Card::value, rng, self.max_rounds);
            }
            Path::Crowd | Path::General => {}
        }
        self.hands.deal(&self.deck, self.rules.deal());
        self.play_loaded(seed, true, observer)
    }

    /// Names the cycle of seed `seed`'s game, which the fast path found to repeat every
    /// `cycle_length` rounds from round `cycle_start` (`docs/rules.md`, "Distinct cycles"): writes
    /// its least state to `least` (each hand's values from 1, then `SEPARATOR`), and with
    /// `mirrored` (two players) the least state of the mirror cycle, the hands exchanged.
    /// The cycle is walked again (on the packed path where the setting has one, else on the
    /// general round), which checks the fast path's `cycle_length` on the way.
    pub(crate) fn least_states(
        &mut self,
        shuffle: Shuffle,
        seed: u64,
        [cycle_start, cycle_length]: [u64; 2],
        least: &mut Vec<u8>,
        mut mirrored: Option<&mut Vec<u8>>,
    ) {
        self.deck.clear();
        self.deck.extend_from_slice(&self.sorted);
        self.dealer.shuffle(shuffle, seed, &mut self.deck);
        least.clear();
        if let Some(m) = mirrored.as_deref_mut() {
            m.clear();
        }
        if let Path::Packed(width) = self.path {
            let (deck, state) = (&self.deck, &mut self.state_scratch);
            let (span, known) = ([cycle_start, cycle_length], &self.known_cycles);
            let rules = &self.rules;
            return packed::least_states(rules, width, deck, span, known, state, least, mirrored);
        }
        self.hands.deal(&self.deck, self.rules.deal());
        self.rng = SplitMix64(seed ^ GATHER_SEED_SALT);
        let Engine {
            rules,
            hands,
            table,
            rng,
            events,
            state_scratch: state,
            ..
        } = self;
        let mut tally = Tally::default();
        replay_rounds(rules, hands, table, &mut tally, rng, events, cycle_start);
        let start = hands.clone();
        let players = hands.players();
        for _ in 0..cycle_length {
            let held: &Hands = hands;
            let hand = |p: usize| held.hand(p).iter().map(|c| c.value() + 1);
            keep_least((0..players).map(hand), state, least);
            if let Some(m) = mirrored.as_deref_mut() {
                keep_least((0..players).rev().map(hand), state, m);
            }
            replay_rounds(rules, hands, table, &mut tally, rng, events, 1);
        }
        assert!(
            hands.same_values(&start),
            "seed {seed}'s game does not repeat every {cycle_length} rounds"
        );
    }

    /// The `lex` seed of the mirror of seed `seed`'s deal.
    pub(crate) fn mirror_seed(&mut self, mirror: &Mirror, seed: u64) -> u64 {
        let values = self.dealer.lex_values(seed);
        mirror.mirrored(values, &mut self.mirror_scratch);
        self.dealer.lex_seed_of(&self.mirror_scratch)
    }

    /// The hands a seed deals, player by player, top card first.
    pub fn deal(&self, shuffle: Shuffle, seed: u64) -> Result<Vec<Vec<Card>>, RangeError> {
        let deck = shuffle.deal_order(self.rules.deck(), seed)?;
        let (deal, players) = (self.rules.deal(), self.rules.players());
        Ok((0..players)
            .map(|p| dealt_to(&deck, deal, players, p).collect())
            .collect())
    }

    /// Plays the given hands (top card first). `seed` only seeds the `random` gather. Hands
    /// that are not one a player, hold a card the deck does not have, or more cards than the
    /// engine was made for (`with_capacity`) are refused.
    pub fn play_hands<O: Observer>(
        &mut self,
        hands: &[Vec<Card>],
        seed: u64,
        observer: &mut O,
    ) -> Result<GameResult, HandsError> {
        let rules = &self.rules;
        check_hands(hands, rules.players(), rules.deck(), self.hands.room())?;
        self.hands.clear();
        for (p, hand) in hands.iter().enumerate() {
            for &card in hand {
                self.hands.push(p, card);
            }
        }
        Ok(self.play_loaded(seed, false, observer))
    }

    /// Plays the hands loaded. `dealt`: they are `self.deck` dealt, which stays as it is until
    /// the game ends, so the round-0 snapshot can be dealt again instead of copied.
    fn play_loaded<O: Observer>(&mut self, seed: u64, dealt: bool, observer: &mut O) -> GameResult {
        self.rng = SplitMix64(seed ^ GATHER_SEED_SALT);
        self.hands.seed_piles(seed ^ PILE_SEED_SALT);
        let mut tally = Tally::default();
        if self.hands.any_empty() {
            return tally.result(most_cards(&self.hands));
        }
        let path = if O::ACTIVE { Path::General } else { self.path };
        match path {
            Path::Packed(width) => {
                let hands = [self.hands.hand(0), self.hands.hand(1)];
                return packed::play_hands(&self.rules, width, hands);
            }
            Path::Pair => {
                let hands = [self.hands.hand(0), self.hands.hand(1)];
                return self
                    .pair
                    .play_hands(&self.rules, hands, &mut self.rng, self.max_rounds);
            }
            Path::Crowd | Path::General => {}
        }
        let detect = self.rules.detects_cycles();
        let total = self.total;
        let blank = || Snapshot::with_capacity(total);
        if detect {
            self.history.reset(FIRST_SPACING);
            if dealt {
                self.history.start_with_deal(tally, blank);
            } else {
                self.history.observe(0, &self.hands, tally, blank);
            }
            self.brent.start(FIRST_WINDOW);
            if O::ACTIVE {
                // A watched game that loops from its deal then shows one loop, not a window.
                self.brent.save(0, &self.hands);
            }
        }
        loop {
            let rounds_before = tally.rounds;
            let end = if path == Path::Crowd {
                let (stop_after, key) = self.run_limits(&tally, detect);
                fast_rounds(
                    &self.rules,
                    &mut self.hands,
                    &mut self.table,
                    &mut tally,
                    &mut self.rng,
                    &mut self.events,
                    stop_after,
                    key,
                )
            } else {
                play_round(
                    &self.rules,
                    &mut self.hands,
                    &mut self.table,
                    &mut tally,
                    &mut self.rng,
                    &mut self.events,
                    observer,
                )
            };
            if O::ACTIVE && tally.rounds > rounds_before {
                observer.round_end(&self.hands);
            }
            if let Some(outcome) = end {
                return tally.result(outcome);
            }
            if detect {
                self.history
                    .observe(tally.rounds, &self.hands, tally, blank);
                if let Some(cycle_length) = self.brent.step(tally.rounds, &self.hands, true) {
                    let (cycle_start, prefix) = self.find_cycle_start(tally.rounds, cycle_length);
                    let outcome = Outcome::Infinite {
                        cycle_start,
                        cycle_length,
                    };
                    return prefix.result(outcome);
                }
            } else if tally.rounds >= self.max_rounds {
                return tally.result(Outcome::Capped);
            }
        }
    }

    /// Rounds a fast run may play before the engine must look (the next snapshot, the next move
    /// of Brent's tortoise, or the round cap), and the key the hands must not match meanwhile.
    fn run_limits(&self, tally: &Tally, detect: bool) -> (u64, Key) {
        if detect {
            let next_event = self.history.next_round().min(self.brent.next_save());
            let key = self.brent.tortoise().map_or(NO_KEY, Snapshot::key);
            (next_event - tally.rounds, key)
        } else {
            (self.max_rounds - tally.rounds, NO_KEY)
        }
    }

    /// The smallest round `mu` whose state recurs `lambda` rounds later, given that the state
    /// after round `now` does, and the counts of the first `mu + lambda` rounds
    /// (`cycle::cycle_start`, rebuilding rounds from the snapshot history).
    fn find_cycle_start(&mut self, now: u64, lambda: u64) -> (u64, Tally) {
        if self.history.deal_pending() {
            let ghost = &mut self.ghosts[0].0;
            ghost.deal(&self.deck, self.rules.deal());
            self.history.fill_deal(ghost);
        }
        let spacing = self.history.spacing();
        let Engine {
            rules,
            history,
            ghosts: [behind, ahead],
            table,
            rng,
            events,
            ..
        } = self;
        let mut replay = Rebuild {
            rules,
            history,
            table,
            rng,
            events,
        };
        let mu = cycle::cycle_start(&mut replay, [behind, ahead], now - lambda, spacing, lambda);
        (mu, ahead.1)
    }
}

/// In a written state (`docs/rules.md`, "Distinct cycles"), what follows each hand: stronger than
/// every value.
pub const SEPARATOR: u8 = u8::MAX;

/// Writes a state (each hand's values from 1, in the order given, each hand followed by
/// `SEPARATOR`) to `state`, and keeps it in `least` if it is less (or `least` is empty): how
/// every path names a cycle by its least state.
fn keep_least<H: Iterator<Item = u8>>(
    hands: impl Iterator<Item = H>,
    state: &mut Vec<u8>,
    least: &mut Vec<u8>,
) {
    state.clear();
    for hand in hands {
        state.extend(hand);
        state.push(SEPARATOR);
    }
    if least.is_empty() || state[..] < least[..] {
        least.clone_from(state);
    }
}

/// Rounds of a looping game rebuilt from its snapshots (`cycle::cycle_start`).
struct Rebuild<'a> {
    rules: &'a Rules,
    history: &'a History<Snapshot, Tally>,
    table: &'a mut Table,
    rng: &'a mut SplitMix64,
    events: &'a mut Vec<(usize, Card)>,
}

impl Rebuild<'_> {
    /// Plays `rounds` more rounds of the looping game in `live`.
    fn play(&mut self, (hands, tally): &mut (Hands, Tally), rounds: u64) {
        let (rules, table, rng, events) = (
            self.rules,
            &mut *self.table,
            &mut *self.rng,
            &mut *self.events,
        );
        replay_rounds(rules, hands, table, tally, rng, events, rounds);
    }
}

impl Replay for Rebuild<'_> {
    type Live = (Hands, Tally);

    fn rebuild(&mut self, live: &mut (Hands, Tally), round: u64) {
        let (at, snapshot, counts) = self.history.at_or_before(round);
        snapshot.restore(&mut live.0);
        live.1 = counts;
        self.play(live, round - at);
    }

    fn step(&mut self, live: &mut (Hands, Tally)) {
        self.play(live, 1);
    }

    fn same(&self, a: &(Hands, Tally), b: &(Hands, Tally)) -> bool {
        a.0.same_values(&b.0)
    }
}

/// Exactly `rounds` rounds of a game already known to cycle (so it cannot end), unobserved.
/// (A two-player game comes here only when observed: unobserved ones are played in `pair`.)
fn replay_rounds(
    rules: &Rules,
    hands: &mut Hands,
    table: &mut Table,
    tally: &mut Tally,
    rng: &mut SplitMix64,
    events: &mut Vec<(usize, Card)>,
    rounds: u64,
) {
    let target = tally.rounds + rounds;
    while tally.rounds < target {
        let end = if rules.players() == 2 {
            play_round(rules, hands, table, tally, rng, events, &mut Silent)
        } else {
            let left = target - tally.rounds;
            fast_rounds(rules, hands, table, tally, rng, events, left, NO_KEY)
        };
        debug_assert!(end.is_none(), "a cycling game ended in its replay");
    }
}

/// A key no hand matches: runs that need not watch for cycles.
const NO_KEY: Key = cycle::NO_MATCH;

/// Nobody watching, three or more players: plays a run of tie-free rounds in `crowd`, then
/// finishes the round that stopped it, at most `stop_after` rounds in all. No round but the
/// last left the hands matching `key`. Returns how the game ended, if it did.
#[allow(clippy::too_many_arguments)]
fn fast_rounds(
    rules: &Rules,
    hands: &mut Hands,
    table: &mut Table,
    tally: &mut Tally,
    rng: &mut SplitMix64,
    events: &mut Vec<(usize, Card)>,
    stop_after: u64,
    key: Key,
) -> Option<Outcome> {
    let n = rules.players();
    debug_assert!(n >= 3, "two-player games take `pair` or `packed`");
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
            resolve_war(
                rules,
                hands,
                table,
                tally,
                rng,
                events,
                &mut Silent,
                tied,
                count,
            )
        }
        crowd::Run::ShortWar => Some(most_cards(hands)),
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
/// observed games, for any number of players. `None` if the game goes on.
fn play_round<O: Observer>(
    rules: &Rules,
    hands: &mut Hands,
    table: &mut Table,
    tally: &mut Tally,
    rng: &mut SplitMix64,
    events: &mut Vec<(usize, Card)>,
    observer: &mut O,
) -> Option<Outcome> {
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
    decide(
        rules,
        hands,
        table,
        tally,
        rng,
        events,
        observer,
        contenders,
        rules.players(),
        0,
    )
}

/// The players among `contenders` whose card (revealed from table position `from` on, one each in
/// contender order) is the strongest. Either one of them takes the table, or they go to war.
#[allow(clippy::too_many_arguments)]
fn decide<O: Observer>(
    rules: &Rules,
    hands: &mut Hands,
    table: &mut Table,
    tally: &mut Tally,
    rng: &mut SplitMix64,
    events: &mut Vec<(usize, Card)>,
    observer: &mut O,
    contenders: [u8; MAX_PLAYERS],
    count: usize,
    from: usize,
) -> Option<Outcome> {
    let revealed = &table.cards[from..from + count];
    let best = rules
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
        return take_table(rules, hands, table, tally, rng, observer, winner, from);
    }
    resolve_war(rules, hands, table, tally, rng, events, observer, tied, n)
}

/// Player `p`'s top card, revealed or put face down. With won piles, an empty hand first takes
/// its shuffled won pile (`docs/rules.md`), and the trace says so.
#[inline(always)]
fn draw<O: Observer>(hands: &mut Hands, p: usize, observer: &mut O) -> Card {
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
#[allow(clippy::too_many_arguments)]
fn resolve_war<O: Observer>(
    rules: &Rules,
    hands: &mut Hands,
    table: &mut Table,
    tally: &mut Tally,
    rng: &mut SplitMix64,
    events: &mut Vec<(usize, Card)>,
    observer: &mut O,
    tied: [u8; MAX_PLAYERS],
    n: usize,
) -> Option<Outcome> {
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
    decide(
        rules, hands, table, tally, rng, events, observer, tied, n, from,
    )
}

/// How many cards each tied player puts face down, or how the game ends because a tied player is
/// short of cards (the preset's short-war policy).
fn face_down_count<O: Observer>(
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

/// The short-war policy, in one place for every path: the tied players `tied` hold `left(p)`
/// cards each (`left` answers for every player). Either how many cards each puts face down, or
/// how the game ends because one of them cannot put down the D + 1 cards of a war.
pub(crate) fn short_war(
    rules: &Rules,
    tied: &[u8],
    left: impl Fn(usize) -> u32 + Copy,
) -> Result<u32, Outcome> {
    let d = rules.face_down() as u32;
    let left_of = |p: &u8| left(*p as usize);
    let fewest = tied.iter().map(left_of).min().unwrap_or(0);
    match rules.short_war() {
        _ if holds_war(d as usize, fewest as usize) => Ok(d),
        ShortWar::Draw => Err(Outcome::Draw),
        ShortWar::Shorten if fewest >= 1 => Ok(fewest - 1),
        ShortWar::Shorten => {
            // A tied player has no card left: players without cards lose.
            let mut with_cards = tied.iter().filter(|p| left_of(p) > 0);
            Err(match (with_cards.next(), with_cards.next()) {
                (Some(&p), None) => Outcome::Win(p as usize),
                _ => Outcome::Draw,
            })
        }
        ShortWar::FirstOutLoses => {
            // Cards are played in unison: whoever holds fewer of the D + 1 runs out first.
            let reach = |p: &u8| left_of(p).min(war_cards(d as usize) as u32);
            let (a, b) = (reach(&tied[0]), reach(&tied[1]));
            Err(match a.cmp(&b) {
                std::cmp::Ordering::Less => Outcome::Win(tied[1] as usize),
                std::cmp::Ordering::Greater => Outcome::Win(tied[0] as usize),
                std::cmp::Ordering::Equal => Outcome::Draw,
            })
        }
        // The table is out of play; the hands decide.
        ShortWar::MostCards => Err(most_cards_of((0..rules.players()).map(left))),
    }
}

/// What a trace says when a tied player holds only `fewest` cards, no more than `d`.
fn short_war_note(policy: ShortWar, d: u32, fewest: u32) -> String {
    match policy {
        ShortWar::Draw => format!(
            "a tied player has {}, fewer than the {} a war needs: draw",
            count(fewest, "card"),
            d + 1
        ),
        ShortWar::Shorten if fewest >= 1 => format!(
            "a tied player has only {}: {} face down each",
            count(fewest, "card"),
            fewest - 1
        ),
        ShortWar::Shorten => "a tied player has no card left for the war".to_string(),
        ShortWar::FirstOutLoses => {
            format!(
                "a tied player cannot put down the {} of a war",
                count(d + 1, "card")
            )
        }
        ShortWar::MostCards => format!(
            "a tied player cannot put down the {} of a war: the game ends",
            count(d + 1, "card")
        ),
    }
}

/// The winner takes the table in the gather order; then the game ends if a hand is empty.
/// `from` is where the deciding battle's cards start on the table (one per contender, in
/// player order).
#[allow(clippy::too_many_arguments)]
fn take_table<O: Observer>(
    rules: &Rules,
    hands: &mut Hands,
    table: &mut Table,
    tally: &mut Tally,
    rng: &mut SplitMix64,
    observer: &mut O,
    winner: usize,
    from: usize,
) -> Option<Outcome> {
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
struct TablePickUp<'a> {
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
fn strongest_first(cards: &[Card], out: &mut Vec<Card>) {
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
fn finish_round(hands: &mut Hands, tally: &mut Tally, winner: usize) -> Option<Outcome> {
    hands.make_room(winner);
    tally.rounds += 1;
    if hands.any_empty() {
        return Some(most_cards(hands));
    }
    None
}

/// The end of a game decided by who holds the most cards (a tie for the most is a draw).
fn most_cards(hands: &Hands) -> Outcome {
    most_cards_of(hands.lens())
}

/// `most_cards` for hands holding `lens` cards, in player order.
fn most_cards_of(lens: impl Iterator<Item = u32> + Clone) -> Outcome {
    let most = lens.clone().max().unwrap_or(0);
    let mut holders = lens.enumerate().filter(|&(_, n)| n == most);
    match (holders.next(), holders.next()) {
        (Some((p, _)), None) => Outcome::Win(p),
        _ => Outcome::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Deal, Deck, Gather, Preset, Ranking, Settings, ShortWar};

    /// The general round names a cycle as the packed path does (which the test suite checks
    /// against the oracle, deal by deal): the first loops of symmetric `lex` walks, named both
    /// ways.
    #[test]
    fn the_general_round_names_cycles_as_the_packed_path_does() {
        // The looping cases of the suite's mirror-walk test against the oracle.
        let cases = [
            (
                "1x10",
                0,
                Gather::Natural,
                Deal::Blocks,
                Ranking::Standard,
                900_000..960_000,
            ),
            (
                "4x4",
                0,
                Gather::Natural,
                Deal::Blocks,
                Ranking::Standard,
                8_000_000..8_040_000,
            ),
        ];
        let (mut named, mut cases_named) = (0, 0);
        for (deck, face_down, gather, deal, ranking, seeds) in cases {
            let rules = Settings::new(Preset::Bataille)
                .deck(Deck::parse(deck).unwrap())
                .face_down(face_down)
                .short_war(ShortWar::FirstOutLoses)
                .gather(gather)
                .deal(deal)
                .ranking(ranking)
                .build()
                .unwrap();
            let (mut packed, mut general) = (Engine::new(rules), Engine::new(rules));
            general.set_packed(false);
            assert!(matches!(packed.path, Path::Packed(_)), "{deck}");
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            let before = named;
            for seed in seeds {
                let game = packed.play_seed(Shuffle::Lex, seed).unwrap();
                let Outcome::Infinite {
                    cycle_start,
                    cycle_length,
                } = game.outcome
                else {
                    continue;
                };
                let span = [cycle_start, cycle_length];
                packed.least_states(Shuffle::Lex, seed, span, &mut fast, None);
                general.least_states(Shuffle::Lex, seed, span, &mut slow, None);
                assert_eq!(fast, slow, "{rules:?} seed {seed}");
                named += 1;
                if named - before == 200 {
                    break;
                }
            }
            cases_named += usize::from(named > before);
        }
        assert_eq!(cases_named, 2, "every case loops");
        assert_eq!(named, 200 + 25, "cycles named");
    }
}
