//! A census of a setting's shapes: every placing within the bounds, from every size of player
//! 1's hand within them, counted by how far it gets (a shape, values that fit), row by row (each
//! word length), a chunk of placings at a time on the pool's threads: the same answer on any
//! number of them, and memory for a chunk and what was found whatever the bounds.

use super::bounds::check;
use super::gathering::Unshaped;
use super::{Asked, Bounds, Gathering, Kind, Placing, Shape, ShapesError, MOST_STATES};
use crate::engine::Engine;
use crate::rules::Rules;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Placings looked at together on the pool's threads (whole words: a word's placings may make
/// a chunk larger): many more than threads, and few enough to hold whatever the bounds.
const CHUNK: usize = 4096;

/// What a census found: printed, its counts and each shape that takes the values with the
/// command that replays its state.
///
/// ```
/// use warsweep::shapes::{census, Bounds};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x13").unwrap()).build().unwrap();
/// let found = census(&rules, &Bounds::NoWar { longest: 16, ties: false }).unwrap();
/// assert_eq!((found.placings, found.shapes, found.found.len()), (1158, 5, 0));
/// assert_eq!((found.rows.len(), found.rows[7].battles, found.rows[7].words), (8, 16, 800));
/// assert!(found.to_string().starts_with("--rules bataille: words without a war of 2..16"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// The rules it was taken under.
    pub rules: Rules,
    /// Its bounds.
    pub bounds: Bounds,
    /// The sizes of player 1's hand each placing was looked at from, the least and the most.
    pub held: (usize, usize),
    /// The kinds of war it placed.
    pub kinds: Vec<Kind>,
    /// Whether it looked for aligned cycles only ([`Options::aligned`]).
    pub aligned: bool,
    /// The most ties in a row its wars chain ([`Options::chain`]).
    pub chain: usize,
    /// Whether its words end with the hands swapped ([`Options::mirrored`]).
    pub mirrored: bool,
    /// Its counts for each length of word (each number of repeats of a super-period), in
    /// order, as far as the census went.
    pub rows: Vec<Row>,
    /// Placings within the bounds: all of them, or where the census was stopped, those of the
    /// rows it reached up to the chunk of placings it stopped in.
    pub placings: usize,
    /// Placings looked at: all of them unless the census was stopped.
    pub looked: usize,
    /// Whether the census was stopped before it looked at every placing (its counts are then
    /// of the placings it looked at, its states all on cycles).
    pub stopped: bool,
    /// Placings and hand sizes whose cards can take one value in each circle.
    pub shapes: usize,
    /// Those that take the deck's values.
    pub taking: usize,
    /// The states laid on those, in the placings' order.
    pub found: Vec<Found>,
}

/// A shape that takes the deck's values, and the state the values make: on a cycle.
///
/// ```
/// use warsweep::shapes::{census, Bounds};
/// use warsweep::{Deck, Engine, Outcome, Preset, Settings, Silent};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x11").unwrap()).build().unwrap();
/// let found = census(&rules, &Bounds::NoWar { longest: 8, ties: false }).unwrap();
/// let card = |v: &u8| rules.deck().value_card(i64::from(*v)).unwrap();
/// let hands = found.found[0].hands.clone().map(|h| h.iter().map(card).collect());
/// let game = Engine::new(rules).play_hands(&hands, 0, &mut Silent).unwrap();
/// assert_eq!(game.outcome, Outcome::Infinite { cycle_start: 0, cycle_length: 13_440 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The placing, its wars' kinds as the gather tells them.
    pub placing: Placing,
    /// Player 1's hand, then player 2's, top card first; values from 1.
    pub hands: [Vec<u8>; 2],
    /// The rounds of its cycle (it starts at round 0), as the engine plays it.
    pub cycle: u64,
    /// Whether the cycle is aligned: some state of it has equal hands.
    pub aligned: bool,
    /// A deal whose game reaches the state, player 1's hand then player 2's (values from 1),
    /// where the census was asked for deals and the backward search found one.
    pub deal: Option<[Vec<u8>; 2]>,
}

/// A census's counts for the words of one length.
///
/// ```
/// use warsweep::shapes::{census, Bounds, Row};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x11")?).build()?;
/// let found = census(&rules, &Bounds::NoWar { longest: 8, ties: false })?;
/// let row = Row { battles: 8, words: 8, placings: 8, looked: 8, shapes: 4, taking: 4 };
/// assert_eq!(found.rows[3], row);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// The battles of a word (of a super-period).
    pub battles: usize,
    /// Its words within the bounds.
    pub words: usize,
    /// Their placings (with the census's wars and kinds).
    pub placings: usize,
    /// Those looked at: all unless the census was stopped in this row.
    pub looked: usize,
    /// Placings and hand sizes whose cards can take one value in each circle.
    pub shapes: usize,
    /// Those that take the deck's values.
    pub taking: usize,
}

/// A state laid on a shape: its values, its cycle's length, whether the cycle is aligned, and a
/// deal walked back to it.
struct Laid {
    values: Vec<u8>,
    cycle: u64,
    aligned: bool,
    deal: Option<[Vec<u8>; 2]>,
}

/// Watches a game from a state on its cycle: whether some state of it has equal hands.
struct Equal(bool);

impl crate::Observer for Equal {
    fn round_end(&mut self, hands: &crate::engine::hands::Hands) {
        self.0 |= hands.len(0) == hands.len(1);
    }
}

/// A placing's shapes, and those that take the values: player 1's hand size, the shape and
/// its states.
type Counted = (usize, Vec<(usize, Shape, Vec<Laid>)>);

/// The census of `rules` within `bounds`: every placing, from every size of player 1's hand,
/// on the threads of the pool it is called in; the same answer on any number of them.
///
/// ```
/// use warsweep::shapes::{census, Bounds};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x11").unwrap()).build().unwrap();
/// let found = census(&rules, &Bounds::NoWar { longest: 8, ties: false }).unwrap();
/// assert_eq!((found.shapes, found.found.len()), (4, 4));
/// ```
pub fn census(rules: &Rules, bounds: &Bounds) -> Result<Census, ShapesError> {
    census_with(rules, bounds, &Options::default())
}

/// How a census runs: the sizes of player 1's hand and the kinds of war that narrow its
/// bounds, how many states it lays on a shape, whether it walks each back to a deal, and a
/// flag and a count for a caller that stops it or shows progress.
///
/// ```
/// use warsweep::shapes::{census_with, Bounds, Options};
/// use warsweep::{Deck, Gather, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x7")?).gather(Gather::Sorted).build()?;
/// let bounds = Bounds::FourWins { first: 3, last: 3, wars: 1, ties: true };
/// let found = census_with(&rules, &bounds, &Options { states: 5, deals: true, ..Options::default() })?;
/// assert_eq!((found.taking, found.found.len()), (2, 10));
/// assert!(found.found.iter().all(|f| f.deal.as_ref().is_some_and(|d| d[0].len() == 14)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// The sizes of player 1's hand a placing is looked at from, the least and the most
    /// ([`None`]: every size, 1 to the deck less a card).
    pub held: Option<(usize, usize)>,
    /// The kinds of war placed (each of those the gather tells apart, or gathers alike, that
    /// these hold; [`Kind::ALL`]: every kind).
    pub kinds: &'a [Kind],
    /// Distinct states laid on each shape that takes the values, 1 to [`MOST_STATES`]: the
    /// first as [`census`] lays it, the others by the solver branching at random from seeds
    /// 1, 2, ... (twice as many tries as states at most). The states of one shape make cycles
    /// of different lengths as their equal values differ.
    pub states: usize,
    /// Only aligned cycles: shapes some round of whose period may leave the hands equal, and
    /// the states laid on them whose cycle has equal hands at some round (with ties, where
    /// values decide whether a battle ties, other values may align a shape whose states laid
    /// do not).
    pub aligned: bool,
    /// The most ties in a row a war holds before its deciding battle, 1 to
    /// [`MOST_CHAIN`](super::MOST_CHAIN): each war is placed with every chain up to it (with
    /// cards face down after each tie, as the rules say), where the gather does not look at
    /// the values (all but `sorted`). Random games of small classic decks loop through wars of
    /// three ties in a row.
    pub chain: usize,
    /// Only words that end with the hands swapped, from equal hands (half the deck each): the
    /// next period plays the word with its winners swapped, and the cycle is the word and its
    /// mirror, aligned at its start (where the gather moves both players' cards alike).
    pub mirrored: bool,
    /// Whether each state is walked back to a deal of the rules (the backward search, at most
    /// [`DEAL_STATES`] states a walk); [`Found::deal`].
    pub deals: bool,
    /// Looked at before each placing: once set, the census ends with what it has found
    /// ([`Census::stopped`]).
    pub stop: Option<&'a AtomicBool>,
    /// Counts the placings looked at, for a progress bar.
    pub done: Option<&'a AtomicUsize>,
}

impl Default for Options<'_> {
    /// Every hand size and kind of war, no chained war, one state a shape, no deal, no stop,
    /// no count.
    fn default() -> Self {
        Options {
            held: None,
            kinds: &Kind::ALL,
            states: 1,
            aligned: false,
            chain: 1,
            mirrored: false,
            deals: false,
            stop: None,
            done: None,
        }
    }
}

/// The states the backward search expands at most to walk a census's state back to a deal.
pub const DEAL_STATES: u64 = 20_000;

/// The census of `rules` within `bounds` as `options` say ([`census`] is this with the
/// default options).
///
/// ```
/// use warsweep::shapes::{census_with, Bounds, Options};
/// use std::sync::atomic::AtomicBool;
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x11")?).build()?;
/// let stop = AtomicBool::new(true);
/// let options = Options { stop: Some(&stop), ..Options::default() };
/// let found = census_with(&rules, &Bounds::NoWar { longest: 16, ties: false }, &options)?;
/// assert!(found.stopped && found.looked == 0 && found.found.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn census_with(
    rules: &Rules,
    bounds: &Bounds,
    options: &Options,
) -> Result<Census, ShapesError> {
    taking(rules, bounds, options).map(|(census, _)| census)
}

/// The census of `rules` within `bounds` ([`census`]), and each shape that takes the values
/// with player 1's hand size, in the census's order: what a hunt lays values on again.
pub(crate) fn taking(
    rules: &Rules,
    bounds: &Bounds,
    options: &Options,
) -> Result<(Census, Vec<(usize, Shape)>), ShapesError> {
    let (held, gathering) = prepared(rules, bounds, options)?;
    let stopped = || (options.stop).is_some_and(|stop| stop.load(Ordering::Relaxed));
    let mut census = Census {
        rules: *rules,
        bounds: *bounds,
        held,
        kinds: (Kind::ALL.into_iter())
            .filter(|k| options.kinds.contains(k))
            .collect(),
        aligned: options.aligned,
        chain: options.chain,
        mirrored: options.mirrored,
        rows: Vec::new(),
        placings: 0,
        looked: 0,
        stopped: false,
        shapes: 0,
        taking: 0,
        found: Vec::new(),
    };
    let mut taken = Vec::new();
    let most_moved = gathering.each(options.chain);
    'rows: for battles in bounds.lengths(most_moved) {
        let mut row = Row {
            battles,
            ..Row::default()
        };
        // One word's placings may fill many chunks: drawn one at a time.
        let words = std::cell::Cell::new(0);
        let mut placings = (bounds.words(battles, most_moved))
            .inspect(|_| words.set(words.get() + 1))
            .flat_map(|word| bounds.placings(&word, &gathering, options.kinds));
        loop {
            let chunk: Vec<Placing> = placings.by_ref().take(CHUNK).collect();
            row.words = words.get();
            if chunk.is_empty() {
                break;
            }
            if stopped() {
                // The chunk counted as not looked at: the row is not done.
                census.stopped = true;
                row.placings += chunk.len();
                census.rows.push(row);
                break 'rows;
            }
            let each: Vec<Option<Counted>> = (chunk.par_iter())
                .map(|placing| {
                    let counted = (!stopped()).then(|| {
                        looked_at(rules, placing, (held, bounds.ties()), &gathering, options)
                    });
                    if let Some(done) = options.done {
                        done.fetch_add(usize::from(counted.is_some()), Ordering::Relaxed);
                    }
                    counted
                })
                .collect();
            census.stopped |= each.iter().any(Option::is_none);
            row.placings += chunk.len();
            added(&mut census, &mut row, &mut taken, chunk, each);
        }
        census.rows.push(row);
        if census.stopped {
            break;
        }
    }
    let sum = |count: fn(&Row) -> usize| census.rows.iter().map(count).sum::<usize>();
    (census.placings, census.looked) = (sum(|r| r.placings), sum(|r| r.looked));
    (census.shapes, census.taking) = (sum(|r| r.shapes), sum(|r| r.taking));
    Ok((census, taken))
}

/// Player 1's hand sizes and the gathering a census of `bounds` looks with, or why it cannot be
/// taken.
fn prepared(
    rules: &Rules,
    bounds: &Bounds,
    options: &Options,
) -> Result<((usize, usize), Gathering), ShapesError> {
    let n = rules.deck().size();
    let held = match options.mirrored {
        true if options.held.is_some() || n % 2 == 1 => return Err(ShapesError::MirroredHeld),
        true => (n / 2, n / 2),
        false => options.held.unwrap_or((1, n - 1)),
    };
    check(rules, bounds, held, (options.kinds, options.chain))?;
    if !(1..=MOST_STATES).contains(&options.states) {
        return Err(ShapesError::States(options.states));
    }
    let gathering = gathering_for(rules, bounds, options.chain)?;
    if options.mirrored && !gathering.mirrored() {
        return Err(ShapesError::MirroredGather);
    }
    Ok((held, gathering))
}

/// How the winner takes the table under `rules`, wars of 1 to `chain` ties, asked of the
/// engine; or why a census of `bounds` cannot be taken.
fn gathering_for(rules: &Rules, bounds: &Bounds, chain: usize) -> Result<Gathering, ShapesError> {
    let gathering =
        Gathering::of(rules, &mut Engine::new(*rules), chain).map_err(|why| match why {
            Unshaped::Players => ShapesError::Players(rules.players()),
            Unshaped::Random => ShapesError::Random,
        })?;
    let places_wars = !matches!(bounds, Bounds::NoWar { .. });
    if places_wars && gathering.wars.iter().any(Vec::is_empty) {
        return Err(ShapesError::SortedFaceDown(rules.face_down()));
    }
    let chained = |c: usize| (gathering.wars.iter()).all(|ways| ways.iter().any(|w| w.chain == c));
    if !(2..=chain).all(chained) {
        return Err(ShapesError::ChainSorted);
    }
    if bounds.ties() && gathering.tie.iter().any(Option::is_none) {
        return Err(ShapesError::Ties);
    }
    Ok(gathering)
}

/// The shapes of `placing` from each size of player 1's hand in `held` (a battle tying where
/// `ties`), and the states laid on those that take the values.
fn looked_at(
    rules: &Rules,
    placing: &Placing,
    (held, ties): ((usize, usize), bool),
    gathering: &Gathering,
    options: &Options,
) -> Counted {
    let deck = rules.deck();
    let (n, copies) = (deck.size(), usize::from(deck.copies()));
    let counts = vec![copies; usize::from(deck.values())];
    let mut shapes = 0;
    let mut found = Vec::new();
    let Ok(ways) = gathering.ways_of(placing) else {
        return (shapes, found);
    };
    for len0 in held.0..=held.1 {
        let asked = Asked {
            ties,
            aligned: options.aligned,
            mirrored: options.mirrored,
        };
        let Ok(shape) = Shape::of(placing, &ways, len0, n, gathering, copies, asked) else {
            continue;
        };
        shapes += 1;
        let laid = laid_states(rules, &shape, len0, &counts, options);
        if !laid.is_empty() {
            found.push((len0, shape, laid));
        }
    }
    (shapes, found)
}

/// Adds what each placing of `chunk` gave ([`None`]: not looked at, the census stopped) to
/// `row` and `census`, in their order, and the shapes that take the values to `taken`.
fn added(
    census: &mut Census,
    row: &mut Row,
    taken: &mut Vec<(usize, Shape)>,
    chunk: Vec<Placing>,
    each: Vec<Option<Counted>>,
) {
    for (placing, counted) in chunk.into_iter().zip(each) {
        let Some((shapes, found)) = counted else {
            continue;
        };
        row.looked += 1;
        row.shapes += shapes;
        for (len0, shape, laid) in found {
            row.taking += 1;
            for Laid {
                mut values,
                cycle,
                aligned,
                deal,
            } in laid
            {
                let second = values.split_off(len0);
                census.found.push(Found {
                    placing: placing.clone(),
                    hands: [values, second],
                    cycle,
                    aligned,
                    deal,
                });
            }
            taken.push((len0, shape));
        }
    }
}

/// Up to `options.states` distinct states laid on `shape` (player 1 holding `len0`), each with
/// the length of its cycle as the engine plays it and, if `options.deals`, a deal walked back
/// to it: none where the values do not fit.
fn laid_states(
    rules: &Rules,
    shape: &Shape,
    len0: usize,
    counts: &[usize],
    options: &Options,
) -> Vec<Laid> {
    let states = options.states;
    let n = rules.deck().size();
    let Some(laying) = shape.laying(n, counts) else {
        return Vec::new();
    };
    let Some(first) = laying.lay(None) else {
        return Vec::new();
    };
    let mut laid = vec![first];
    for seed in 1..2 * states as u64 {
        if laid.len() == states {
            break;
        }
        let values = laying
            .lay(Some(seed))
            .expect("a shape that took the values once");
        if !laid.contains(&values) {
            laid.push(values);
        }
    }
    let mut engine = Engine::new(*rules);
    let card = |v: &u8| {
        rules
            .deck()
            .value_card(i64::from(*v))
            .expect("a value of the deck")
    };
    (laid.into_iter())
        .filter_map(|values| {
            let hands = [&values[..len0], &values[len0..]].map(|h| h.iter().map(card).collect());
            let mut equal = Equal(2 * len0 == n);
            let game = engine.play_hands(&hands, 0, &mut equal);
            let cycle = match game.map(|game| game.outcome) {
                Ok(crate::Outcome::Infinite { cycle_length, .. }) => cycle_length,
                other => unreachable!("values laid on a shape make a state on a cycle: {other:?}"),
            };
            if options.aligned && !equal.0 {
                return None;
            }
            let deal = options
                .deals
                .then(|| deal_into(rules, &mut engine, &values, len0));
            Some(Laid {
                values,
                cycle,
                aligned: equal.0,
                deal: deal.flatten(),
            })
        })
        .collect()
}

/// A deal of `rules` whose game reaches the state `values` (player 1 holding `len0`, values
/// from 1), by the backward search within [`DEAL_STATES`]; [`None`] where it finds none.
fn deal_into(
    rules: &Rules,
    engine: &mut Engine,
    values: &[u8],
    len0: usize,
) -> Option<[Vec<u8>; 2]> {
    let from_zero: Vec<u8> = values.iter().map(|v| v - 1).collect();
    let hands = [from_zero[..len0].to_vec(), from_zero[len0..].to_vec()];
    let mut search = crate::backward::Backward::new(rules);
    let order = search.deal_into(engine, hands, DEAL_STATES)?;
    let [one, two]: [Vec<u8>; 2] = crate::deal::orders::hands_of(rules, &order)
        .try_into()
        .ok()?;
    Some([one, two])
}
