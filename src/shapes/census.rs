//! A census of a setting's shapes: every placing within the bounds, from every size of player
//! 1's hand, counted by how far it gets (a shape, values that fit), on the pool's threads and
//! in the placings' order whatever their number.

use super::gathering::Unshaped;
use super::{Gathering, Placing, Shape, War};
use crate::engine::Engine;
use crate::rules::{Ranking, Rules};
use crate::text::group;
use rayon::prelude::*;

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
    /// Placings tried (each from every size of player 1's hand).
    pub placings: usize,
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

/// A placing's shapes, and those that take the values: player 1's hand size, the shape and
/// its states (values and cycle length).
type Counted = (usize, Vec<(usize, Shape, Vec<(Vec<u8>, u64)>)>);

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
    census_states(rules, bounds, 1)
}

/// The census of `rules` within `bounds` ([`census`]), with up to `states` distinct states
/// laid on each shape that takes the values (1 to [`MOST_STATES`]): the first as [`census`]
/// lays it, the others by the solver branching at random from seeds 1, 2, ... (twice as
/// many tries as states at most). The states of one shape are on cycles of different
/// lengths as their equal values differ.
///
/// ```
/// use warsweep::shapes::{census_states, Bounds};
/// use warsweep::{Deck, Gather, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x7")?).gather(Gather::Sorted).build()?;
/// let bounds = Bounds::FourWins { first: 3, last: 3, wars: 1, ties: true };
/// let found = census_states(&rules, &bounds, 5)?;
/// assert_eq!((found.taking, found.found.len()), (2, 10));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn census_states(rules: &Rules, bounds: &Bounds, states: usize) -> Result<Census, ShapesError> {
    taking(rules, bounds, states).map(|(census, _)| census)
}

/// The census of `rules` within `bounds` ([`census`]), and each shape that takes the values
/// with player 1's hand size, in the census's order: what a hunt lays values on again.
pub(crate) fn taking(
    rules: &Rules,
    bounds: &Bounds,
    states: usize,
) -> Result<(Census, Vec<(usize, Shape)>), ShapesError> {
    check(rules, bounds)?;
    if !(1..=MOST_STATES).contains(&states) {
        return Err(ShapesError::States(states));
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
    let each: Vec<Counted> = placings
        .par_iter()
        .map(|placing| {
            let mut shapes = 0;
            let mut found = Vec::new();
            for len0 in 1..n {
                let Ok(shape) = Shape::of(placing, len0, n, &gathering, face_down, copies, ties)
                else {
                    continue;
                };
                shapes += 1;
                let laid = laid_states(rules, &shape, len0, &counts, states);
                if !laid.is_empty() {
                    found.push((len0, shape, laid));
                }
            }
            (shapes, found)
        })
        .collect();
    let mut census = Census {
        rules: *rules,
        bounds: *bounds,
        placings: placings.len(),
        shapes: 0,
        taking: 0,
        found: Vec::new(),
    };
    let mut taken = Vec::new();
    for (placing, (shapes, found)) in placings.into_iter().zip(each) {
        census.shapes += shapes;
        for (len0, shape, laid) in found {
            census.taking += 1;
            for (mut values, cycle) in laid {
                let second = values.split_off(len0);
                census.found.push(Found {
                    placing: placing.clone(),
                    hands: [values, second],
                    cycle,
                });
            }
            taken.push((len0, shape));
        }
    }
    Ok((census, taken))
}

/// Up to `states` distinct states laid on `shape` (player 1 holding `len0`), each with the
/// length of its cycle as the engine plays it: none where the values do not fit.
fn laid_states(
    rules: &Rules,
    shape: &Shape,
    len0: usize,
    counts: &[usize],
    states: usize,
) -> Vec<(Vec<u8>, u64)> {
    let n = rules.deck().size();
    let Some(first) = shape.lay(n, counts, None) else {
        return Vec::new();
    };
    let mut laid = vec![first];
    for seed in 1..2 * states as u64 {
        if laid.len() == states {
            break;
        }
        let values = shape
            .lay(n, counts, Some(seed))
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
            (values, cycle)
        })
        .collect()
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

impl std::fmt::Display for Census {
    /// A line of counts, then each shape that takes the values: its placing, the state, and
    /// the command that plays the state (to `INFINITE 0`, the state being on its cycle).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let flags = self.rules.flags();
        let n = self.rules.deck().size();
        writeln!(
            f,
            "{flags}: {}: {} placings, each from every size of player 1's hand (1..{}); shapes whose circles can be of one value: {}; taking the values: {}",
            self.bounds,
            group(self.placings as u64),
            n - 1,
            group(self.shapes as u64),
            group(self.taking as u64),
        )?;
        for found in &self.found {
            let [one, two] = found.hands.clone().map(|h| {
                let text: Vec<String> = h.iter().map(u8::to_string).collect();
                text.join(",")
            });
            let held = found.hands[0].len();
            writeln!(
                f,
                "  {}, player 1 holding {held}, a cycle of {} rounds: {one}|{two}",
                found.placing,
                group(found.cycle)
            )?;
            writeln!(f, "    printf '{one}\\n{two}\\n' | warsweep play {flags}")?;
        }
        Ok(())
    }
}
