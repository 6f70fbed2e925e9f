//! The game: one deal in, one result out.
//!
//! An [`Engine`] is built once per setting and reused for every game: `play_seed` deals into
//! fixed buffers, plays rounds until the game ends or repeats a state, and returns a
//! [`GameResult`]. Nothing in the game loop allocates.
//!
//! Unobserved games take the fast paths. Two-player games are played whole on values alone:
//! in two machine words when the deck is small (`packed`), otherwise in one byte array with
//! the hands interleaved (`pair`). Games of three or more players are played in [`Hands`]: runs
//! of tie-free battles in `crowd` (which also plays oorlog's own wars), other wars in
//! [`resolve_war`](crate::engine::round::resolve_war). An observed game (a trace, a property test) goes through [`play_round`], the
//! general path that reports every event; tests check that every path gives the same results
//! for every setting.

pub(crate) mod crowd;
pub(crate) mod cycle;
pub(crate) mod hands;
pub(crate) mod packed;
pub(crate) mod pair;
mod round;
mod short_war;

pub(crate) use round::pick_up_places;

use crate::deal::mirror::{Mirror, Weight};
use crate::deal::seeds::{RangeError, Seeds};
use crate::deal::{dealt_to, Dealer, Shuffle, SplitMix64};
use crate::rules::{Card, Rules, RulesError, WonPile};
use cycle::{Brent, History, Key, Snapshot};
use hands::Hands;
use hands::{check_hands, HandsError, MAX_CARDS};
use round::{fast_rounds, play_round, replay_rounds, Rebuild, Round, Table, NO_KEY};
use short_war::most_cards;
pub(crate) use short_war::short_war;
use std::cell::RefCell;
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
struct Counts {
    rounds: u64,
    battles: u64,
    wars: u64,
}

impl Counts {
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
    history: History<Snapshot, Counts>,
    /// Two copies of a looping game, `lambda` rounds apart, for the search of its cycle's start.
    ghosts: [(Hands, Counts); 2],
    brent: Brent<Snapshot>,
    table: Table,
    rng: SplitMix64,
    max_rounds: u64,
    events: Vec<(usize, Card)>,
    /// Where unobserved games are played, with what that path keeps ([`Path::choose`]).
    path: Path,
    /// Cards in all hands the engine was sized for.
    total: usize,
    /// Room for a deal's mirror (`play_walk`).
    mirror_scratch: Vec<u8>,
    /// Room for a written state (`least_states`).
    state_scratch: Vec<u8>,
}

/// Where unobserved games of a setting are played, with what that path keeps between games.
/// Observed games (traces, tests) always take the general round ([`play_round`]), which plays
/// every setting.
enum Path {
    /// Two players, played on values alone.
    Two(Two),
    /// Three players or more: runs of `crowd`, other wars in [`resolve_war`](crate::engine::round::resolve_war).
    Crowd,
    /// The general round: settings no fast path plays.
    General,
}

/// The two-player kernels, each with what it keeps.
enum Two {
    /// Hands that fit in machine words (`packed`), and the long cycles its walks have met.
    Packed(packed::Width, RefCell<packed::KnownCycles>),
    /// Hands interleaved in one byte array (`pair`), and its buffers (on the heap: they are
    /// large, and a game reaches them through one pointer either way).
    Pair(Box<pair::Pair>),
}

/// A two-player deal, in the form the engine has it.
#[derive(Clone, Copy)]
enum Dealt<'a> {
    /// A `lex` arrangement of values, in deal order.
    Values(&'a [u8]),
    /// A shuffled deck, in deal order.
    Deck(&'a [Card]),
    /// The two hands, top card first.
    Hands([&'a [Card]; 2]),
}

impl Path {
    /// The path for unobserved games of `rules` with `total` cards in all, chosen once per
    /// engine; `packed` allows the word kernel. The one place where a fast path declines a
    /// setting ([`packed::width`] says which games fit in words).
    fn choose(rules: &Rules, total: usize, packed: bool) -> Path {
        match rules.won_pile() {
            WonPile::None => {}
            // Won piles and their shuffles live in `Hands`, which only the general round reads.
            WonPile::Shuffled => return Path::General,
        }
        if rules.players() > 2 {
            return Path::Crowd;
        }
        Path::Two(match packed::width(rules, total) {
            Some(width) if packed => Two::Packed(width, RefCell::default()),
            _ => Two::Pair(Box::new(pair::Pair::with_capacity(total))),
        })
    }

    /// This path for a game `O` does not watch; [`None`] for a watched game, which takes the
    /// general round.
    fn unwatched<O: Observer>(&mut self) -> Option<&mut Path> {
        (!O::ACTIVE).then_some(self)
    }
}

impl Two {
    /// Plays `dealt`; `rng` seeds the `random` gather, `max_rounds` caps its games.
    fn play(
        &mut self,
        rules: &Rules,
        dealt: Dealt,
        rng: &mut SplitMix64,
        max_rounds: u64,
    ) -> GameResult {
        match (self, dealt) {
            (Two::Packed(width, _), Dealt::Values(values)) => {
                packed::play_values(rules, *width, values)
            }
            (Two::Packed(width, _), Dealt::Deck(deck)) => {
                packed::play_deal(rules, *width, deck, Card::value)
            }
            (Two::Packed(width, _), Dealt::Hands(hands)) => {
                packed::play_hands(rules, *width, hands)
            }
            (Two::Pair(pair), Dealt::Values(values)) => {
                pair.play_deal(rules, values, |v| v, rng, max_rounds)
            }
            (Two::Pair(pair), Dealt::Deck(deck)) => {
                pair.play_deal(rules, deck, Card::value, rng, max_rounds)
            }
            (Two::Pair(pair), Dealt::Hands(hands)) => {
                pair.play_hands(rules, hands, rng, max_rounds)
            }
        }
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
        // A deck holds at most 576 cards (`Deck::parse`), far below `MAX_CARDS`.
        Engine::sized(rules, rules.deck().size())
    }

    /// An engine for games of at most `total` cards in all hands (or the deck, if larger), up
    /// to [`MAX_CARDS`].
    pub fn with_capacity(rules: Rules, total: usize) -> Result<Engine, HandsError> {
        if total > MAX_CARDS {
            return Err(HandsError::Capacity { total });
        }
        Ok(Engine::sized(rules, total))
    }

    /// The engine for `total` cards, at most [`MAX_CARDS`] (each hand's room, a multiple of it,
    /// is indexed in 32 bits).
    fn sized(rules: Rules, total: usize) -> Engine {
        let deck = rules.deck();
        let total = total.max(deck.size());
        let players = rules.players();
        let hands = match rules.won_pile() {
            WonPile::None => Hands::new(players, total),
            WonPile::Shuffled => Hands::new(players, total).with_won_piles(),
        };
        Engine {
            rules,
            sorted: deck.cards(),
            deck: Vec::with_capacity(deck.size()),
            dealer: Dealer::new(deck),
            hands,
            history: History::new(),
            ghosts: [0, 1].map(|_| (Hands::new(players, total), Counts::default())),
            brent: Brent::new(Snapshot::with_capacity(total)),
            table: Table::new(&rules, total),
            rng: SplitMix64(0),
            max_rounds: DEFAULT_MAX_ROUNDS,
            events: Vec::with_capacity(total),
            path: Path::choose(&rules, total, true),
            total,
            mirror_scratch: vec![0; deck.size()],
            state_scratch: Vec::with_capacity(total + players),
        }
    }

    /// Whether unobserved games of small decks are played in machine words (`packed`, the
    /// default where they fit) or on the general fast paths: the tests compare both.
    pub fn set_packed(&mut self, on: bool) {
        self.path = Path::choose(&self.rules, self.total, on);
    }

    /// Rounds after which a game that cannot be checked for cycles (`random` gather) stops: 1 or
    /// more ([`check_max_rounds`](crate::check_max_rounds)).
    pub fn set_max_rounds(&mut self, max_rounds: u64) -> Result<(), RulesError> {
        self.max_rounds = crate::rules::check_max_rounds(max_rounds)?;
        Ok(())
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
        self.play_seeds_into(shuffle, seeds, &mut each)
    }

    /// `play_seeds` with its callback behind a pointer: the walk's kernels are compiled once,
    /// here, rather than once for every closure a caller passes (each copy of them took a test
    /// build minutes; a pointer call a game costs nothing beside the game).
    fn play_seeds_into(
        &mut self,
        shuffle: Shuffle,
        seeds: Seeds,
        each: &mut dyn FnMut(u64, &GameResult),
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
    /// is inclusive so that it can end at the last seed, [`u64::MAX`]; the caller has checked it.
    pub(crate) fn play_walk(
        &mut self,
        shuffle: Shuffle,
        seeds: RangeInclusive<u64>,
        mirror: Option<&Mirror>,
        mut each: impl FnMut(u64, &GameResult, Weight),
    ) {
        if let (Shuffle::Lex, Path::Two(Two::Packed(width, known))) = (shuffle, &self.path) {
            // A lex seed is below the deck's deal count, itself at most u64::MAX.
            if let Some(end) = seeds.end().checked_add(1) {
                let seeds = *seeds.start()..end;
                let mirror = mirror.map(|m| (m, &mut self.mirror_scratch[..]));
                let dealer = &mut self.dealer;
                return packed::play_lex(&self.rules, *width, dealer, seeds, mirror, known, each);
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
    pub(crate) fn play_dealt<O: Observer>(
        &mut self,
        shuffle: Shuffle,
        seed: u64,
        observer: &mut O,
    ) -> GameResult {
        let mut two = match self.path.unwatched::<O>() {
            Some(Path::Two(two)) => Some(two),
            _ => None,
        };
        self.rng = SplitMix64(seed ^ GATHER_SEED_SALT);
        if let (Some(two), Shuffle::Lex) = (two.as_deref_mut(), shuffle) {
            // Two-player kernels need values only: a `lex` deal is never made of cards.
            let values = Dealt::Values(self.dealer.lex_values(seed));
            return two.play(&self.rules, values, &mut self.rng, self.max_rounds);
        }
        self.deck.clear();
        self.deck.extend_from_slice(&self.sorted);
        self.dealer.shuffle(shuffle, seed, &mut self.deck);
        if let Some(two) = two {
            let deck = Dealt::Deck(&self.deck);
            return two.play(&self.rules, deck, &mut self.rng, self.max_rounds);
        }
        self.hands.deal(&self.deck, self.rules.deal());
        self.play_loaded(seed, true, observer)
    }

    /// Names the cycle of seed `seed`'s game, which the fast path found to repeat every
    /// `cycle_length` rounds from round `cycle_start` (`docs/rules.md`, "Distinct cycles"): writes
    /// its least state to `least` (each hand's values from 1, then [`SEPARATOR`]), and with
    /// `mirrored` (two players) the least state of the mirror cycle, the hands exchanged.
    /// The cycle is walked again (on the packed path where the setting has one, else on the
    /// general round), which checks the fast path's `cycle_length` on the way.
    pub(crate) fn least_states(
        &mut self,
        shuffle: Shuffle,
        seed: u64,
        [cycle_start, cycle_length]: [u64; 2],
        least: &mut Vec<u8>,
        mirrored: Option<&mut Vec<u8>>,
    ) {
        self.deck.clear();
        self.deck.extend_from_slice(&self.sorted);
        self.dealer.shuffle(shuffle, seed, &mut self.deck);
        self.least_states_dealt(seed, [cycle_start, cycle_length], least, mirrored);
    }

    /// [`Engine::least_states`] of the deal whose cards, in dealing order, have the values
    /// `order` ([`Engine::play_order`]'s deals).
    pub(crate) fn least_state_of_order(
        &mut self,
        order: &[u8],
        span: [u64; 2],
        least: &mut Vec<u8>,
    ) {
        self.deck.clear();
        self.deck.extend(order.iter().map(|&v| Card::bare(v)));
        self.least_states_dealt(0, span, least, None);
    }

    /// [`Engine::least_states`] of the deal in `self.deck` (seed `seed` seeds nothing but the
    /// `random` gather, which has no cycles to name).
    fn least_states_dealt(
        &mut self,
        seed: u64,
        [cycle_start, cycle_length]: [u64; 2],
        least: &mut Vec<u8>,
        mut mirrored: Option<&mut Vec<u8>>,
    ) {
        least.clear();
        if let Some(m) = mirrored.as_deref_mut() {
            m.clear();
        }
        if let Path::Two(Two::Packed(width, known)) = &self.path {
            let (deck, span, rules) = (&self.deck, [cycle_start, cycle_length], &self.rules);
            return packed::least_states(rules, *width, deck, span, known, least, mirrored);
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
        let mut tally = Counts::default();
        let mut round = Round {
            rules,
            hands,
            table,
            tally: &mut tally,
            rng,
            events,
        };
        replay_rounds(&mut round, cycle_start);
        let start = round.hands.clone();
        let players = round.hands.players();
        for _ in 0..cycle_length {
            let held: &Hands = round.hands;
            let hand = |p: usize| held.hand(p).iter().map(|c| c.value() + 1);
            keep_least((0..players).map(hand), state, least);
            if let Some(m) = mirrored.as_deref_mut() {
                keep_least((0..players).rev().map(hand), state, m);
            }
            replay_rounds(&mut round, 1);
        }
        assert!(
            round.hands.same_values(&start),
            "seed {seed}'s game does not repeat every {cycle_length} rounds"
        );
    }

    /// The `lex` seed of the mirror of seed `seed`'s deal.
    pub(crate) fn mirror_seed(&mut self, mirror: &Mirror, seed: u64) -> u64 {
        let values = self.dealer.lex_values(seed);
        mirror.mirrored(values, &mut self.mirror_scratch);
        self.dealer.lex_seed_of(&self.mirror_scratch)
    }

    /// The hands a seed deals, player by player, top card first (dealt by the engine's own
    /// dealer, whose tables are made once: dealing every seed of a sweep again costs about a
    /// shuffle a seed).
    pub fn deal(&mut self, shuffle: Shuffle, seed: u64) -> Result<Vec<Vec<Card>>, RangeError> {
        self.dealer.check(shuffle, Seeds::one(seed))?;
        let mut deck = self.sorted.clone();
        self.dealer.shuffle(shuffle, seed, &mut deck);
        let (deal, players) = (self.rules.deal(), self.rules.players());
        Ok((0..players)
            .map(|p| dealt_to(&deck, deal, players, p).collect())
            .collect())
    }

    /// Plays the deal whose cards, in the order the rules deal them, have the values `order`
    /// (0-based; the deck's values, each as often as the deck has it): how the hunt plays the
    /// deals it makes, on the fast path of the setting.
    #[inline]
    pub(crate) fn play_order(&mut self, order: &[u8]) -> GameResult {
        debug_assert_eq!(order.len(), self.sorted.len());
        self.rng = SplitMix64(GATHER_SEED_SALT);
        if let Path::Two(two) = &mut self.path {
            let values = Dealt::Values(order);
            return two.play(&self.rules, values, &mut self.rng, self.max_rounds);
        }
        self.deck.clear();
        self.deck.extend(order.iter().map(|&v| Card::bare(v)));
        self.hands.deal(&self.deck, self.rules.deal());
        self.play_loaded(0, true, &mut Silent)
    }

    /// The general round on this engine's hands and table, counting into `tally`.
    fn round<'a>(&'a mut self, tally: &'a mut Counts) -> Round<'a> {
        Round {
            rules: &self.rules,
            hands: &mut self.hands,
            table: &mut self.table,
            tally,
            rng: &mut self.rng,
            events: &mut self.events,
        }
    }

    /// Plays one round from the two-player state `hands` (values, top card first) on the
    /// general round, and writes the state after it to `after`: the round's battles and wars,
    /// or [`None`] where the round ends the game. The hunt steps games this way when it walks
    /// them backward.
    pub(crate) fn step_values(
        &mut self,
        hands: [&[u8]; 2],
        after: &mut [Vec<u8>; 2],
    ) -> Option<(u64, u64)> {
        debug_assert_eq!(self.rules.players(), 2);
        self.hands.clear();
        for (p, hand) in hands.iter().enumerate() {
            for &v in *hand {
                self.hands.push(p, Card::bare(v));
            }
        }
        let mut tally = Counts::default();
        let mut round = self.round(&mut tally);
        if play_round(&mut round, &mut Silent).is_some() {
            return None;
        }
        for (p, out) in after.iter_mut().enumerate() {
            out.clear();
            out.extend(self.hands.hand(p).iter().map(|c| c.value()));
        }
        Some((tally.battles, tally.wars))
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
        let mut tally = Counts::default();
        if self.hands.any_empty() {
            return tally.result(most_cards(&self.hands));
        }
        let crowd = match self.path.unwatched::<O>() {
            Some(Path::Two(two)) => {
                let hands = Dealt::Hands([self.hands.hand(0), self.hands.hand(1)]);
                return two.play(&self.rules, hands, &mut self.rng, self.max_rounds);
            }
            Some(Path::Crowd) => true,
            Some(Path::General) | None => false,
        };
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
            let limits = crowd.then(|| self.run_limits(&tally, detect));
            let mut round = self.round(&mut tally);
            let end = match limits {
                Some((stop_after, key)) => fast_rounds(&mut round, stop_after, key),
                None => play_round(&mut round, observer),
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
    fn run_limits(&self, tally: &Counts, detect: bool) -> (u64, Key) {
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
    /// ([`cycle::cycle_start`], rebuilding rounds from the snapshot history).
    fn find_cycle_start(&mut self, now: u64, lambda: u64) -> (u64, Counts) {
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
/// [`SEPARATOR`]) to `state`, and keeps it in `least` if it is less (or `least` is empty): how
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
            assert!(matches!(packed.path, Path::Two(Two::Packed(..))), "{deck}");
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
