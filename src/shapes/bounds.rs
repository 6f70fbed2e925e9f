//! A census's bounds: the words it looks at, row by row (each word length, or each number of
//! repeats of a super-period), one word at a time, and the wars each word is placed with; and
//! what a census refuses before it starts.

use super::{Gathering, Kind, Placing, War};
use crate::rules::{Ranking, Rules};

/// The most battles a census's words hold: every word of a length is looked at, and there are
/// about 2^length of them.
pub const LONGEST_WORD: usize = 30;

/// The most repeats of four wins each a super-period holds: 8,192 battles, as far as the
/// researched censuses go (4x13 `sorted`, one war: 256) with room to spare.
pub const LONGEST_SUPER_PERIOD: usize = 1024;

/// The most wars a census places in a word or super-period: the constructed aligned 4x6
/// cycle has six in each half of its period (a mirrored word); placings grow about as the
/// word length to the power of the wars, so more are out of reach at any length that holds
/// them.
pub const MOST_WARS: usize = 6;

/// The most states a census lays on each shape that takes the values.
pub const MOST_STATES: usize = 1000;

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
    /// tells apart, and with `wars` above 1 the others of any kind after it, each after the
    /// last's deciding battle.
    Words {
        /// The most battles a word holds.
        longest: usize,
        /// Wars a word holds, 1 to [`MOST_WARS`].
        wars: usize,
        /// As for [`Bounds::NoWar`]; the kinds of war such a tie stands for are then not
        /// placed.
        ties: bool,
    },
    /// Four wins each (`AAAABBBB`, the rhythm of every `sorted` cycle found at random on 4x7
    /// and 4x11) repeated `m` times for each `m` of `first..=last`, with wars placed at fixed
    /// battles of that super-period: one in its first eight battles, and with `wars` above 1
    /// the others anywhere after it; each war's battle and the next have one winner.
    FourWins {
        /// The fewest repeats of the eight battles.
        first: usize,
        /// The most.
        last: usize,
        /// Wars a super-period holds, 1 to [`MOST_WARS`].
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
    /// Wars chained beyond the bounds, or where the census places no war.
    #[error("a census that places wars (--wars or --periods) chains 1 to {most} ties in a row before a war's deciding battle, not {0}", most = super::MOST_CHAIN)]
    Chain(usize),
    /// Chained wars where the gather orders the table by its values.
    #[error("the sorted gather orders a chained war's table by its values, which a shape does not follow: wars chain (--chain above 1) under the other gathers")]
    ChainSorted,
    /// Chained wars narrowed to kinds.
    #[error("a war's kind is told by one tie: a census that chains wars (--chain above 1) places wars of every kind")]
    ChainKinds,
    /// A mirrored census asked for hand sizes, or of a deck that does not split in two.
    #[error("a mirrored census starts from equal hands, half the deck each: a deck of an even number of cards, and no --held")]
    MirroredHeld,
    /// A mirrored census where the gather tells the players apart.
    #[error("this gather lays the players' cards in player order, so a word and its mirror move them otherwise: no mirrored census")]
    MirroredGather,
    /// Wars placed under `sorted` with more than three cards face down.
    #[error("the sorted gather orders a war's face-down cards by their values, so each war placed is one order of its table's cards: a census places wars under it with at most {most} cards face down (181,440 orders a war with three; 19,958,400 with four), not {0}; words without a war take any number", most = super::gathering::SORTED_FACE_DOWN)]
    SortedFaceDown(usize),
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
    #[error("words with wars have an even number of battles from 4 to {LONGEST_WORD} (any number with cards face down or wars chained), not {0}")]
    WordsLength(usize),
    /// Another number of wars a word than 1 to [`MOST_WARS`].
    #[error("a census places 1 to {MOST_WARS} wars a word, not {0}")]
    Wars(usize),
    /// Super-periods that are no range from 1 up to [`LONGEST_SUPER_PERIOD`].
    #[error("super-periods are a range FIRST-LAST with 1 <= FIRST <= LAST <= {LONGEST_SUPER_PERIOD}, not {0}-{1}")]
    SuperPeriods(usize, usize),
    /// States a shape asked for out of bounds.
    #[error("a census lays 1 to {MOST_STATES} states on each shape, not {0}")]
    States(usize),
    /// Player 1's hand sizes that are no range within the deck.
    #[error("player 1 holds a range FIRST-LAST of sizes with 1 <= FIRST <= LAST <= {2} (the deck less a card), not {0}-{1}")]
    Held(usize, usize, usize),
    /// Kinds of war asked for where none is placed, or none at all.
    #[error("kinds of war narrow a census that places wars (--wars or --periods), and name one kind or more")]
    Kinds,
    /// Ties asked for where no war is gathered as two single battles.
    #[error("no war of these rules is gathered as two single battles (the sorted gather's high war, no card face down), so no battle can tie in a shape")]
    Ties,
}

impl Bounds {
    /// The lengths of its words, a row of the census each: every even length of the bounds
    /// (every length for words with wars where a war may move more cards than its two battles,
    /// `each` cards a player at most, as with cards face down or chained ties), or eight
    /// battles times each number of repeats.
    pub(crate) fn lengths(&self, each: usize) -> Vec<usize> {
        match *self {
            Bounds::NoWar { longest, .. } => (2..=longest).step_by(2).collect(),
            Bounds::Words { longest, .. } if each > 2 => (4..=longest).collect(),
            Bounds::Words { longest, .. } => (4..=longest).step_by(2).collect(),
            Bounds::FourWins { first, last, .. } => (first..=last).map(|m| 8 * m).collect(),
        }
    }

    /// Its words of `length` battles, one at a time (there are up to about 2^30 / 30); those
    /// with wars of up to `each` cards a player.
    pub(crate) fn words(&self, length: usize, each: usize) -> Box<dyn Iterator<Item = Vec<u8>>> {
        match *self {
            Bounds::NoWar { .. } => Box::new(lyndon_words(length)),
            Bounds::Words { .. } => Box::new(war_words(length, each)),
            Bounds::FourWins { .. } => Box::new(std::iter::once(
                (0..length).map(|i| u8::from(i % 8 >= 4)).collect(),
            )),
        }
    }

    /// The placings of `word`: no war, or its wars of every kind that `gathering` tells apart
    /// and `kinds` allows (a kind alone where `kinds` takes only some of the kinds gathered
    /// alike). Words with wars take their first at battle 0; four wins each, at any battle
    /// of the first eight.
    pub(crate) fn placings<'a>(
        &self,
        word: &[u8],
        gathering: &'a Gathering,
        kinds: &[Kind],
    ) -> Placings<'a> {
        let (firsts, wars, ties) = match *self {
            Bounds::NoWar { ties, .. } => (vec![0], 0, ties),
            Bounds::Words { wars, ties, .. } => (vec![0], wars, ties),
            Bounds::FourWins { wars, ties, .. } => ((0..7).collect(), wars, ties),
        };
        Placings {
            word: word.to_vec(),
            at: (0..word.len())
                .map(|battle| wars_at(word, battle, gathering, ties, kinds))
                .collect(),
            firsts,
            wars,
            gathering,
            chosen: Vec::with_capacity(wars),
            started: false,
        }
    }
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
    pub(crate) fn ties(&self) -> bool {
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

/// What a census of `bounds` refuses before it starts, player 1 holding `held` cards (a range)
/// and its wars of `kinds`, of 1 to `chain` ties.
pub(crate) fn check(
    rules: &Rules,
    bounds: &Bounds,
    held: (usize, usize),
    (kinds, chain): (&[Kind], usize),
) -> Result<(), ShapesError> {
    let most = rules.deck().size() - 1;
    if !(1 <= held.0 && held.0 <= held.1 && held.1 <= most) {
        return Err(ShapesError::Held(held.0, held.1, most));
    }
    if kinds.is_empty() || (matches!(bounds, Bounds::NoWar { .. }) && kinds.len() < 3) {
        return Err(ShapesError::Kinds);
    }
    let places_wars = !matches!(bounds, Bounds::NoWar { .. });
    if !(1..=super::MOST_CHAIN).contains(&chain) || chain > 1 && !places_wars {
        return Err(ShapesError::Chain(chain));
    }
    if chain > 1 && kinds.len() < Kind::ALL.len() {
        return Err(ShapesError::ChainKinds);
    }
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
        // A war with cards face down, or chained, moves more cards than its two battles:
        // words of any length balance them.
        Bounds::Words { longest, .. }
            if !(even(longest, 4)
                || (rules.face_down() > 0 || chain > 1)
                    && (4..=LONGEST_WORD).contains(&longest)) =>
        {
            Err(ShapesError::WordsLength(longest))
        }
        Bounds::Words { wars, .. } | Bounds::FourWins { wars, .. }
            if !(1..=MOST_WARS).contains(&wars) =>
        {
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

/// Every placing of `wars` wars (0 to [`MOST_WARS`]) in a word, one at a time (a word may
/// hold millions: they are never all in memory): the first at a battle of `firsts`, each
/// other at any battle after the last one's deciding battle, each of every chain and every
/// kind the gathering tells apart for its winner and the census allows (where it allows only
/// some of the kinds gathered alike, each of those alone), except the kinds a tie stands for
/// when ties are let be; a war's battles (its ties and its deciding battle) must have one
/// winner, and the cards must come back to each hand over the word. In order: by the first
/// war's battle and way, then the second's, and so on.
pub(crate) struct Placings<'a> {
    word: Vec<u8>,
    /// The wars that may be placed at each battle.
    at: Vec<Vec<War>>,
    firsts: Vec<usize>,
    wars: usize,
    gathering: &'a Gathering,
    /// The wars chosen, by battle and index into `at`.
    chosen: Vec<(usize, usize)>,
    started: bool,
}

impl Iterator for Placings<'_> {
    type Item = Placing;

    fn next(&mut self) -> Option<Placing> {
        while self.step() {
            let wars: Vec<War> = (self.chosen.iter())
                .map(|&(b, k)| self.at[b][k].clone())
                .collect();
            if balanced(&self.word, &wars, self.gathering) {
                let word = self.word.clone();
                return Some(Placing { word, wars });
            }
        }
        None
    }
}

impl Placings<'_> {
    /// Moves to the next choice of all the wars (the first, on the first call); `false`
    /// after the last.
    fn step(&mut self) -> bool {
        if !self.started {
            self.started = true;
            if self.fill() {
                return true;
            }
        }
        // Past a whole choice, or a part no war could follow: the last war chosen moves on.
        while !self.chosen.is_empty() {
            if self.bump() && self.fill() {
                return true;
            }
        }
        false
    }

    /// Chooses the first of each war not chosen yet; `false` where one has no battle left.
    fn fill(&mut self) -> bool {
        while self.chosen.len() < self.wars {
            let from = match self.chosen.last() {
                Some(&(b, k)) => b + self.at[b][k].chain + 1,
                None => 0,
            };
            if !self.first_from(from) {
                return false;
            }
        }
        true
    }

    /// Moves the last war chosen to its battle's next way, or else to the first way of a later
    /// battle; `false` (and it is dropped) where there is none.
    fn bump(&mut self) -> bool {
        let Some((b, k)) = self.chosen.pop() else {
            return false;
        };
        if k + 1 < self.at[b].len() {
            self.chosen.push((b, k + 1));
            return true;
        }
        self.first_from(b + 1)
    }

    /// Chooses the next war's first way at the first battle from `from` that holds one (the
    /// first war's among `firsts`); `false` where none does.
    fn first_from(&mut self, from: usize) -> bool {
        let first = self.chosen.is_empty();
        let battle = (from..self.word.len())
            .filter(|b| !first || self.firsts.contains(b))
            .find(|&b| !self.at[b].is_empty());
        battle.map(|b| self.chosen.push((b, 0))).is_some()
    }
}

/// The wars that may be placed at `battle` of `word`, as [`Placings`] says.
fn wars_at(
    word: &[u8],
    battle: usize,
    gathering: &Gathering,
    ties: bool,
    allowed: &[Kind],
) -> Vec<War> {
    let w = usize::from(word[battle]);
    let tied = gathering.tie[w].as_ref().filter(|_| ties);
    let mut out = Vec::new();
    let war = |way: &super::Way, kinds: Vec<Kind>| War {
        battle,
        chain: way.chain,
        kinds,
        order: way.order.clone(),
    };
    for way in gathering.wars[w]
        .iter()
        .filter(|way| Some(&way.kinds) != tied)
        .filter(|way| {
            (battle..battle + way.chain).all(|b| b + 1 < word.len() && word[b] == word[b + 1])
        })
    {
        if way.kinds.iter().all(|k| allowed.contains(k)) {
            out.push(war(way, way.kinds.clone()));
        } else {
            let each = way.kinds.iter().filter(|k| allowed.contains(k));
            out.extend(each.map(|&k| war(way, vec![k])));
        }
    }
    out
}

/// The words of `length` battles with as many won by each player, each once: the least of its
/// rotations (as a number, the first battle its highest bit), and not a repeat of a shorter
/// one (balanced Lyndon words): the periods of shapes without a war.
fn lyndon_words(length: usize) -> impl Iterator<Item = Vec<u8>> {
    let full = (1u64 << length) - 1;
    let rotate = move |m: u64, r: usize| ((m << r) | (m >> (length - r))) & full;
    (0..=full)
        .filter(move |m| m.count_ones() as usize == length / 2)
        .filter(move |&m| (1..length).all(|r| rotate(m, r) > m))
        .map(move |m| bits(m, length))
}

/// The words of `length` battles whose first two battles are player 1's: with a war placed
/// there, every placing of one war up to a turn of the word or the players' swap. Where a
/// war moves two cards a player (`each`), as two battles do, those with as many battles won
/// by each player; otherwise every such word, the placings keeping the cards balanced.
fn war_words(length: usize, each: usize) -> impl Iterator<Item = Vec<u8>> {
    (0..1u64 << (length - 2))
        .filter(move |m| each > 2 || m.count_ones() as usize == length / 2)
        .map(move |m| [0, 0].into_iter().chain(bits(m, length - 2)).collect())
}

/// Whether the cards come back to each hand over `word` with `wars` (each its ties and its
/// deciding battle): every single battle moves one card to its winner, every war as many as
/// each player puts on the table (`gathering`).
fn balanced(word: &[u8], wars: &[War], gathering: &Gathering) -> bool {
    let mut net = 0i64;
    let mut battle = 0;
    while battle < word.len() {
        let sign = if word[battle] == 0 { 1 } else { -1 };
        if let Some(war) = wars.iter().find(|war| war.battle == battle) {
            net += sign * gathering.each(war.chain) as i64;
            battle += war.chain + 1;
        } else {
            net += sign;
            battle += 1;
        }
    }
    net == 0
}

/// The `length` low bits of `m`, the highest first.
fn bits(m: u64, length: usize) -> Vec<u8> {
    (0..length)
        .map(|i| ((m >> (length - 1 - i)) & 1) as u8)
        .collect()
}
