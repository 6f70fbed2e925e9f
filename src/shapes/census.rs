//! A census of a setting's shapes: every placing within the bounds, from every size of player
//! 1's hand, counted by how far it gets (a shape, values that fit), on the pool's threads and
//! in the placings' order whatever their number.

use super::gathering::Unshaped;
use super::{Gathering, Placing, Shape, War};
use crate::engine::Engine;
use crate::rules::{Ranking, Rules};
use crate::text::group;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The most battles a census's words hold: every word of a length is looked at, and there are
/// about 2^length of them.
pub const LONGEST_WORD: usize = 30;

/// The most repeats of four wins each a super-period holds: 8,192 battles, as far as the
/// researched censuses go (4x13 `sorted`, one war: 256) with room to spare.
pub const LONGEST_SUPER_PERIOD: usize = 1024;

/// What a census found: printed, its counts and each shape that takes the values with the
/// command that replays its state.
///
/// ```
/// use warsweep::shapes::{census, Bounds};
/// use warsweep::{Deck, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x13").unwrap()).build().unwrap();
/// let found = census(&rules, &Bounds::NoWar { longest: 16, ties: false }).unwrap();
/// assert_eq!((found.placings, found.shapes, found.found.len()), (1158, 5, 0));
/// assert!(found.to_string().starts_with("--rules bataille: words without a war of 2..16"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// The rules it was taken under.
    pub rules: Rules,
    /// Its bounds.
    pub bounds: Bounds,
    /// Placings within the bounds (each from every size of player 1's hand).
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
    /// A deal whose game reaches the state, player 1's hand then player 2's (values from 1),
    /// where the census was asked for deals and the backward search found one.
    pub deal: Option<[Vec<u8>; 2]>,
}

/// The bounds of a census.
///
/// ```
/// use warsweep::shapes::Bounds;
/// let bounds = Bounds::Words { longest: 18, wars: 1, ties: false };
/// assert_eq!(bounds.to_string(), "words of 4..18 battles that player 1 begins with a war, 1 war each");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bounds {
    /// Words without a war of 2 to `longest` battles, each once up to a turn (balanced Lyndon
    /// words).
    NoWar {
        /// The most battles a word holds.
        longest: usize,
        /// Whether a battle followed by one of the same winner may be the tie of a war that
        /// the gather takes as two single battles (`sorted`'s high war), at any pass.
        ties: bool,
    },
    /// Words of 4 to `longest` battles that player 1 begins with a war of any kind the gather
    /// tells apart, and with `wars` = 2 a second war of any kind after it.
    Words {
        /// The most battles a word holds.
        longest: usize,
        /// Wars a word holds, 1 or 2.
        wars: usize,
        /// As for [`Bounds::NoWar`]; the kinds of war such a tie stands for are then not
        /// placed.
        ties: bool,
    },
    /// Four wins each (`AAAABBBB`, the rhythm of every `sorted` cycle found at random on 4x7
    /// and 4x11) repeated `m` times for each `m` of `first..=last`, with wars placed at fixed
    /// battles of that super-period: one in its first eight battles, and with `wars` = 2 a
    /// second anywhere after it; each war's battle and the next have one winner.
    FourWins {
        /// The fewest repeats of the eight battles.
        first: usize,
        /// The most.
        last: usize,
        /// Wars a super-period holds, 1 or 2.
        wars: usize,
        /// As for [`Bounds::Words`].
        ties: bool,
    },
}

/// Why a census cannot be taken.
///
/// ```
/// use warsweep::shapes::{census, Bounds, ShapesError};
/// use warsweep::{Gather, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).gather(Gather::Random).build().unwrap();
/// assert_eq!(census(&rules, &Bounds::NoWar { longest: 8, ties: false }), Err(ShapesError::Random));
/// assert_eq!(
///     census(&Settings::new(Preset::Bataille).build().unwrap(), &Bounds::NoWar { longest: 7, ties: false }),
///     Err(ShapesError::NoWarLength(7))
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapesError {
    /// More than two players.
    #[error("shapes are games of two players, not {0}")]
    Players(usize),
    /// The `random` gather.
    #[error("the random gather moves cards by a generator, which no shape can follow")]
    Random,
    /// `sorted` with cards face down.
    #[error("the sorted gather moves face-down cards by values that no battle constrains: shapes under it take --face-down 0")]
    SortedFaceDown,
    /// A ranking other than by value.
    #[error("shapes order cards by value: they need --ranking standard")]
    Ranking,
    /// A deck with jokers.
    #[error("a census lays each value on as many cards: a deck with jokers has no shapes")]
    Jokers,
    /// Words without a war of an odd length, or out of bounds.
    #[error(
        "words without a war have an even number of battles from 2 to {LONGEST_WORD}, not {0}"
    )]
    NoWarLength(usize),
    /// Words with wars of an odd length, or out of bounds.
    #[error("words with wars have an even number of battles from 4 to {LONGEST_WORD}, not {0}")]
    WordsLength(usize),
    /// Another number of wars a word than 1 or 2.
    #[error("a census places 1 or 2 wars a word, not {0}")]
    Wars(usize),
    /// Super-periods that are no range from 1 up to [`LONGEST_SUPER_PERIOD`].
    #[error("super-periods are a range FIRST-LAST with 1 <= FIRST <= LAST <= {LONGEST_SUPER_PERIOD}, not {0}-{1}")]
    SuperPeriods(usize, usize),
    /// States a shape asked for out of bounds.
    #[error("a census lays 1 to {MOST_STATES} states on each shape, not {0}")]
    States(usize),
    /// Ties asked for where no war is gathered as two single battles.
    #[error("no war of these rules is gathered as two single battles (the sorted gather's high war, no card face down), so no battle can tie in a shape")]
    Ties,
}

/// A state laid on a shape: its values, its cycle's length, and a deal walked back to it.
type Laid = (Vec<u8>, u64, Option<[Vec<u8>; 2]>);

/// A placing's shapes, and those that take the values: player 1's hand size, the shape and
/// its states.
type Counted = (usize, Vec<(usize, Shape, Vec<Laid>)>);

/// The most states a census lays on each shape that takes the values.
pub const MOST_STATES: usize = 1000;

/// Every placing within `bounds`, whose wars are of the kinds `gathering` tells apart.
fn placings(bounds: &Bounds, gathering: &Gathering) -> Vec<Placing> {
    match *bounds {
        Bounds::NoWar { longest, .. } => (2..=longest)
            .step_by(2)
            .flat_map(super::lyndon_words)
            .map(|word| Placing {
                word,
                wars: Vec::new(),
            })
            .collect(),
        Bounds::Words {
            longest,
            wars,
            ties,
        } => {
            let mut out = Vec::new();
            for word in (4..=longest).step_by(2).flat_map(super::war_words) {
                out.extend(placed(&word, &[0], wars, gathering, ties));
            }
            out
        }
        Bounds::FourWins {
            first,
            last,
            wars,
            ties,
        } => {
            let mut out = Vec::new();
            for m in first..=last {
                let word: Vec<u8> = (0..8 * m).map(|i| u8::from(i % 8 >= 4)).collect();
                let firsts: Vec<usize> = (0..7).filter(|&i| word[i] == word[i + 1]).collect();
                out.extend(placed(&word, &firsts, wars, gathering, ties));
            }
            out
        }
    }
}

/// Every placing of `wars` wars (1 or 2) in `word`: the first at a battle of `firsts`, the
/// second at any battle at least two after it, each of every kind `gathering` tells
/// apart for its winner, except the kinds a tie stands for when `ties`; a war's battle and the
/// next must have one winner.
fn placed(
    word: &[u8],
    firsts: &[usize],
    wars: usize,
    gathering: &Gathering,
    ties: bool,
) -> Vec<Placing> {
    let kinds = |battle: usize| -> Vec<&Vec<super::Kind>> {
        let w = usize::from(word[battle]);
        let tied = gathering.tie[w].as_ref().filter(|_| ties);
        (gathering.wars[w].iter().map(|(kinds, _)| kinds))
            .filter(|kinds| Some(*kinds) != tied)
            .collect()
    };
    let war = |battle: usize, kinds: &[super::Kind]| War {
        battle,
        kinds: kinds.to_vec(),
    };
    let one_winner = |j: usize| word[j] == word[j + 1];
    let mut out = Vec::new();
    for &i in firsts.iter().filter(|&&i| one_winner(i)) {
        for first in kinds(i) {
            if wars == 1 {
                out.push(Placing {
                    word: word.to_vec(),
                    wars: vec![war(i, first)],
                });
                continue;
            }
            for j in (i + 2..word.len() - 1).filter(|&j| one_winner(j)) {
                out.extend(kinds(j).into_iter().map(|second| Placing {
                    word: word.to_vec(),
                    wars: vec![war(i, first), war(j, second)],
                }));
            }
        }
    }
    out
}

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

/// How a census runs beyond its bounds: how many states it lays on a shape, whether it walks
/// each back to a deal, and a flag and a count for a caller that stops it or shows progress.
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
    /// Distinct states laid on each shape that takes the values, 1 to [`MOST_STATES`]: the
    /// first as [`census`] lays it, the others by the solver branching at random from seeds
    /// 1, 2, ... (twice as many tries as states at most). The states of one shape make cycles
    /// of different lengths as their equal values differ.
    pub states: usize,
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
    /// One state a shape, no deal, no stop, no count.
    fn default() -> Self {
        Options {
            states: 1,
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
    check(rules, bounds)?;
    if !(1..=MOST_STATES).contains(&options.states) {
        return Err(ShapesError::States(options.states));
    }
    let deck = rules.deck();
    let n = deck.size();
    let kinds = usize::from(deck.values());
    let copies = usize::from(deck.copies());
    let mut engine = Engine::new(*rules);
    let gathering = Gathering::of(rules, &mut engine).map_err(|why| match why {
        Unshaped::Players => ShapesError::Players(rules.players()),
        Unshaped::Random => ShapesError::Random,
        Unshaped::SortedFaceDown => ShapesError::SortedFaceDown,
    })?;
    let ties = bounds.ties();
    if ties && gathering.tie.iter().any(Option::is_none) {
        return Err(ShapesError::Ties);
    }
    let placings = placings(bounds, &gathering);
    let counts = vec![copies; kinds];
    let face_down = rules.face_down();
    let stopped = || {
        options
            .stop
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
    };
    let each: Vec<Option<Counted>> = placings
        .par_iter()
        .map(|placing| {
            if stopped() {
                return None;
            }
            let mut shapes = 0;
            let mut found = Vec::new();
            for len0 in 1..n {
                let Ok(shape) = Shape::of(placing, len0, n, &gathering, face_down, copies, ties)
                else {
                    continue;
                };
                shapes += 1;
                let laid = laid_states(rules, &shape, len0, &counts, options);
                if !laid.is_empty() {
                    found.push((len0, shape, laid));
                }
            }
            if let Some(done) = options.done {
                done.fetch_add(1, Ordering::Relaxed);
            }
            Some((shapes, found))
        })
        .collect();
    Ok(assembled(rules, bounds, placings, each))
}

/// The census of `placings` from what each gave ([`None`]: not looked at, the census
/// stopped), in their order, and the shapes that take the values.
fn assembled(
    rules: &Rules,
    bounds: &Bounds,
    placings: Vec<Placing>,
    each: Vec<Option<Counted>>,
) -> (Census, Vec<(usize, Shape)>) {
    let mut census = Census {
        rules: *rules,
        bounds: *bounds,
        placings: placings.len(),
        looked: 0,
        stopped: false,
        shapes: 0,
        taking: 0,
        found: Vec::new(),
    };
    let mut taken = Vec::new();
    for (placing, counted) in placings.into_iter().zip(each) {
        let Some((shapes, found)) = counted else {
            census.stopped = true;
            continue;
        };
        census.looked += 1;
        census.shapes += shapes;
        for (len0, shape, laid) in found {
            census.taking += 1;
            for (mut values, cycle, deal) in laid {
                let second = values.split_off(len0);
                census.found.push(Found {
                    placing: placing.clone(),
                    hands: [values, second],
                    cycle,
                    deal,
                });
            }
            taken.push((len0, shape));
        }
    }
    (census, taken)
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
        .map(|values| {
            let hands = [&values[..len0], &values[len0..]].map(|h| h.iter().map(card).collect());
            let game = engine.play_hands(&hands, 0, &mut crate::Silent);
            let cycle = match game.map(|game| game.outcome) {
                Ok(crate::Outcome::Infinite { cycle_length, .. }) => cycle_length,
                other => unreachable!("values laid on a shape make a state on a cycle: {other:?}"),
            };
            let deal = options
                .deals
                .then(|| deal_into(rules, &mut engine, &values, len0));
            (values, cycle, deal.flatten())
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
    let mut search = crate::hunt::strategy::backward::search::Backward::new(rules);
    let order = search.deal_into(engine, hands, DEAL_STATES)?;
    let [one, two]: [Vec<u8>; 2] = crate::hunt::deal::hands_of(rules, &order).try_into().ok()?;
    Some([one, two])
}

/// What a census refuses before it starts.
fn check(rules: &Rules, bounds: &Bounds) -> Result<(), ShapesError> {
    if rules.ranking() != Ranking::Standard {
        return Err(ShapesError::Ranking);
    }
    if rules.deck().jokers() > 0 {
        return Err(ShapesError::Jokers);
    }
    let even = |length: usize, least: usize| {
        length.is_multiple_of(2) && (least..=LONGEST_WORD).contains(&length)
    };
    match *bounds {
        Bounds::NoWar { longest, .. } if !even(longest, 2) => {
            Err(ShapesError::NoWarLength(longest))
        }
        Bounds::Words { longest, .. } if !even(longest, 4) => {
            Err(ShapesError::WordsLength(longest))
        }
        Bounds::Words { wars, .. } | Bounds::FourWins { wars, .. } if !(1..=2).contains(&wars) => {
            Err(ShapesError::Wars(wars))
        }
        Bounds::FourWins { first, last, .. }
            if !(1 <= first && first <= last && last <= LONGEST_SUPER_PERIOD) =>
        {
            Err(ShapesError::SuperPeriods(first, last))
        }
        _ => Ok(()),
    }
}

impl Bounds {
    /// The bounds the command line's flags (and Python's keywords) name: four wins each at
    /// super-periods where `periods` is given (`wars` 1 unless said), words with wars where
    /// `wars` is 1 or more, words without a war otherwise.
    ///
    /// ```
    /// use warsweep::shapes::Bounds;
    /// assert_eq!(
    ///     Bounds::named(16, None, Some((45, 45)), true),
    ///     Bounds::FourWins { first: 45, last: 45, wars: 1, ties: true }
    /// );
    /// assert_eq!(Bounds::named(18, Some(0), None, false), Bounds::NoWar { longest: 18, ties: false });
    /// ```
    pub fn named(
        longest: usize,
        wars: Option<usize>,
        periods: Option<(usize, usize)>,
        ties: bool,
    ) -> Bounds {
        match (periods, wars) {
            (Some((first, last)), wars) => Bounds::FourWins {
                first,
                last,
                wars: wars.unwrap_or(1),
                ties,
            },
            (None, None | Some(0)) => Bounds::NoWar { longest, ties },
            (None, Some(wars)) => Bounds::Words {
                longest,
                wars,
                ties,
            },
        }
    }

    /// The same bounds, no battle tying.
    pub(crate) fn without_ties(self) -> Bounds {
        match self {
            Bounds::NoWar { longest, .. } => Bounds::NoWar {
                longest,
                ties: false,
            },
            Bounds::Words { longest, wars, .. } => Bounds::Words {
                longest,
                wars,
                ties: false,
            },
            Bounds::FourWins {
                first, last, wars, ..
            } => Bounds::FourWins {
                first,
                last,
                wars,
                ties: false,
            },
        }
    }

    /// Whether a battle may tie (`ties` of either kind of bounds).
    fn ties(&self) -> bool {
        match *self {
            Bounds::NoWar { ties, .. }
            | Bounds::Words { ties, .. }
            | Bounds::FourWins { ties, .. } => ties,
        }
    }
}

impl std::fmt::Display for Bounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Bounds::NoWar { longest, .. } => {
                write!(f, "words without a war of 2..{longest} battles")?;
            }
            Bounds::Words { longest, wars, .. } => write!(
                f,
                "words of 4..{longest} battles that player 1 begins with a war, {wars} war{} each",
                if wars > 1 { "s" } else { "" }
            )?,
            Bounds::FourWins {
                first, last, wars, ..
            } => write!(
                f,
                "four wins each: super-periods of {first}..{last} times 8 battles, {wars} war{} each",
                if wars > 1 { "s" } else { "" }
            )?,
        }
        if self.ties() {
            write!(
                f,
                ", a battle followed by one of the same winner a tie or not"
            )?;
        }
        Ok(())
    }
}

impl Census {
    /// The census as JSON: the rules' flags, the bounds, the counts, and each state laid
    /// (`word`, `wars`, `held`, `hands`, `cycle`, `deal`, hands as lists of values from 1).
    ///
    /// ```
    /// use warsweep::shapes::{census, Bounds};
    /// use warsweep::{Deck, Preset, Settings};
    /// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x11")?).build()?;
    /// let found = census(&rules, &Bounds::NoWar { longest: 8, ties: false })?;
    /// let json: serde_json::Value = serde_json::from_str(&found.to_json())?;
    /// assert_eq!(json["taking"], 4);
    /// assert_eq!(json["found"][0]["cycle"], found.found[0].cycle);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_json(&self) -> String {
        let found: Vec<serde_json::Value> = (self.found.iter())
            .map(|f| {
                let text = f.placing.to_string();
                let (word, wars) = text.split_once(' ').unwrap_or((&text, ""));
                serde_json::json!({
                    "word": word,
                    "wars": wars,
                    "held": f.hands[0].len(),
                    "hands": f.hands,
                    "cycle": f.cycle,
                    "deal": f.deal,
                })
            })
            .collect();
        let json = serde_json::json!({
            "rules": self.rules.flags(),
            "bounds": self.bounds.to_string(),
            "placings": self.placings,
            "looked": self.looked,
            "stopped": self.stopped,
            "shapes": self.shapes,
            "taking": self.taking,
            "found": found,
        });
        format!("{json:#}\n")
    }

    /// Writes [`Census::to_json`] to `path` whole or not at all (a temporary file renamed
    /// into place).
    ///
    /// # Errors
    ///
    /// The file system's, where the file cannot be written.
    pub fn write_json(&self, path: &std::path::Path) -> std::io::Result<()> {
        crate::output::files::write_atomically(path, self.to_json().as_bytes())
    }
}

impl std::fmt::Display for Census {
    /// A line of counts, then each state laid on a shape that takes the values: its placing,
    /// its cycle, the state and the command that plays it (to `INFINITE 0`, the state being on
    /// its cycle), and a deal walked back to it with its command where there is one.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let flags = self.rules.flags();
        let n = self.rules.deck().size();
        let placings = match self.stopped {
            false => group(self.placings as u64),
            true => format!(
                "{} of {} (stopped)",
                group(self.looked as u64),
                group(self.placings as u64)
            ),
        };
        writeln!(
            f,
            "{flags}: {}: {placings} placings, each from every size of player 1's hand (1..{}); shapes whose circles can be of one value: {}; taking the values: {}",
            self.bounds,
            n - 1,
            group(self.shapes as u64),
            group(self.taking as u64),
        )?;
        let text = |hands: &[Vec<u8>; 2]| {
            hands.clone().map(|h| {
                let text: Vec<String> = h.iter().map(u8::to_string).collect();
                text.join(",")
            })
        };
        for found in &self.found {
            let [one, two] = text(&found.hands);
            let held = found.hands[0].len();
            writeln!(
                f,
                "  {}, player 1 holding {held}, a cycle of {} rounds: {one}|{two}",
                found.placing,
                group(found.cycle)
            )?;
            writeln!(f, "    printf '{one}\\n{two}\\n' | warsweep play {flags}")?;
            if let Some(deal) = &found.deal {
                let [one, two] = text(deal);
                writeln!(f, "    a deal into it: {one}|{two}")?;
                writeln!(f, "    printf '{one}\\n{two}\\n' | warsweep play {flags}")?;
            }
        }
        Ok(())
    }
}
