//! The JSON summary of a sweep: written from its accumulator, read back and checked, merged
//! across shards, and printed as a table.
//!
//! Everything a summary says is derived from integer counts and HdrHistograms, which add
//! exactly: a sweep split into shards (or over threads) and merged gives the very same summary as
//! one sweep, whatever the split.

use crate::deal::seeds::Seeds;
use crate::output::accumulator::{Accumulator, Records, Stats, Tally, TallyError};
use crate::output::cycles::{CycleError, CycleRow, Cycles};
use crate::output::histograms::{decode, encode, Histograms};
use crate::output::metric::{Measured, Metric};
use crate::output::setting::{no_won_pile, SettingText, SweepSetting};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Reads and checks the summary at `path` (files from other machines are untrusted input), with
/// the accumulator it was written from; every error names the file.
pub(crate) fn read(path: &std::path::Path) -> Result<(Summary, Accumulator), ReadError> {
    let file = path.display().to_string();
    let text = std::fs::read(path).map_err(|source| ReadError::Unreadable {
        file: file.clone(),
        source,
    })?;
    parse(&text, file)
}

/// The summary in `text`, checked, and its tallies; `file` names it in errors.
fn parse(text: &[u8], file: String) -> Result<(Summary, Accumulator), ReadError> {
    let unchecked =
        serde_json::from_slice::<Unchecked>(text).map_err(|source| ReadError::NotASummary {
            file: file.clone(),
            source,
        })?;
    let summary = unchecked
        .assume_checked()
        .map_err(|source| ReadError::Inconsistent {
            file: file.clone(),
            source,
        })?;
    let acc = summary
        .accumulator()
        .map_err(|source| ReadError::Inconsistent { file, source })?;
    Ok((summary, acc))
}

/// Why a summary file cannot be read: the file named, the cause kept as the source.
///
/// ```
/// use warsweep::{ReadError, Summary};
/// let missing = Summary::read(std::path::Path::new("no/such/summary.json")).unwrap_err();
/// assert!(matches!(missing, ReadError::Unreadable { .. }));
/// assert!(missing.to_string().contains("no/such/summary.json"));
/// ```
#[derive(Error, Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The file cannot be read.
    #[error("cannot read {file}")]
    Unreadable {
        /// The file.
        file: String,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// Not JSON of a summary.
    #[error("{file} is not a warsweep summary")]
    NotASummary {
        /// The file.
        file: String,
        /// Where the JSON fails.
        #[source]
        source: serde_json::Error,
    },
    /// A summary whose counts do not agree.
    #[error("{file} is not a consistent summary")]
    Inconsistent {
        /// The file.
        file: String,
        /// What disagrees.
        #[source]
        source: SummaryError,
    },
}

/// Defines [`Summary`] and [`Unchecked`] (what a file holds, before it is checked) from one list
/// of fields: the summary holds its setting typed, the file each of its parts by name.
macro_rules! summary_and_unchecked {
    (
        $(#[$meta:meta])*
        pub struct Summary {
            $(#[$version_meta:meta])* pub(crate) version: u32,
            setting {
                $( $(#[$part_meta:meta])* $part:ident: $part_type:ty, )*
            }
            $( $(#[$field_meta:meta])* pub(crate) $field:ident: $type:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct Summary {
            $(#[$version_meta])* pub(crate) version: u32,
            /// What it is about: the rules, the shuffle, the round limit.
            #[serde(skip)]
            pub(crate) setting: SweepSetting,
            $( $(#[$field_meta])* pub(crate) $field: $type, )*
        }

        /// A summary as read, before its setting and numbers are checked: what a file holds,
        /// and what a checkpoint keeps (its tallies may count mirrors past its seeds).
        #[derive(Clone, Debug, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct Unchecked {
            $(#[$version_meta])* pub(crate) version: u32,
            $( $(#[$part_meta])* pub(crate) $part: $part_type, )*
            $( $(#[$field_meta])* pub(crate) $field: $type, )*
        }

        impl From<Summary> for Unchecked {
            fn from(s: Summary) -> Unchecked {
                let text = s.setting.text();
                Unchecked { version: s.version, $( $part: text.$part, )* $( $field: s.$field, )* }
            }
        }

        impl Unchecked {
            /// The summary, its setting read but its numbers not yet checked: `check` them, or
            /// check them as a checkpoint does.
            pub(crate) fn assume_checked(self) -> Result<Summary, SummaryError> {
                let text = SettingText { $( $part: self.$part, )* };
                let setting = text.parse().map_err(SummaryError::Setting)?;
                Ok(Summary { version: self.version, setting, $( $field: self.$field, )* })
            }
        }
    };
}

summary_and_unchecked! {
/// The JSON summary of a sweep, with exactly the keys scripts rely on.
///
/// ```
/// use warsweep::{Metric, Preset, Rules, Seeds, Shuffle, Summary, Sweep};
/// let rules = Rules::preset(Preset::Classic);
/// let part = |start, end| -> Result<Summary, Box<dyn std::error::Error>> {
///     let sweep = Sweep::new(rules, Shuffle::Lcg, Seeds::new(start, end)?);
///     Ok(sweep.run(None, &|_| {}, &Default::default())?.summary)
/// };
/// // Two shards merge into the summary of the whole range.
/// let merged = Summary::merge(&[part(0, 600)?, part(600, 1_000)?])?;
/// let whole = part(0, 1_000)?;
/// assert_eq!((merged.seeds(), merged.games()), (whole.seeds(), 1_000));
/// assert_eq!(merged.stats(Metric::Rounds), whole.stats(Metric::Rounds));
/// assert!(merged.table().contains("games"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "Unchecked", try_from = "Unchecked")]
pub struct Summary {
    /// The summary format: 3 since summaries measure capped games (`capped_rounds`, ...); 2
    /// since they keep each metric's sum of squares and write `null` for what a metric with no
    /// games lacks; absent (1) before.
    #[serde(default = "first_version")]
    pub(crate) version: u32,
    setting {
    /// The preset the setting starts from.
    rules: String,
    /// The deck, as `CxV+J`.
    deck: String,
    /// Players.
    players: usize,
    /// Cards each tied player puts face down.
    face_down: usize,
    /// The short-war policy.
    short_war: String,
    /// The gather order.
    gather: String,
    /// The deal.
    deal: String,
    /// The ranking.
    ranking: String,
    /// Where won cards go (`none` in summaries written before won piles existed).
    #[serde(default = "no_won_pile")]
    won_pile: String,
    /// The shuffle.
    shuffle: String,
    /// The round limit of games that cannot be checked for cycles.
    max_rounds: u64,
    }
    /// The seeds covered.
    pub(crate) seeds: Seeds,
    /// A part of a mirror walk over this larger range (`--shard` of a symmetric `lex` walk):
    /// its tallies count the deals of `seeds` that are the lesser of their mirror pair in it,
    /// each with its mirror, so that its parts merge into the whole walk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) mirrors_within: Option<Seeds>,
    /// A sweep of chosen seeds ([`Sweep::run_chosen`](crate::Sweep::run_chosen)): how many it
    /// played, all within `seeds` but not every seed of them. Such a summary merges with none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) chosen: Option<u64>,
    /// Games played.
    pub(crate) games: u64,
    /// Games won by each player.
    pub(crate) wins: Vec<u64>,
    /// Games drawn.
    pub(crate) draws: u64,
    /// Games that never end.
    pub(crate) infinite: u64,
    /// Games stopped by the round limit.
    pub(crate) capped: u64,
    /// Rounds of finished games.
    pub(crate) rounds: Stats,
    /// Battles of finished games.
    pub(crate) battles: Stats,
    /// Wars of finished games.
    pub(crate) wars: Stats,
    /// Cycle starts of infinite games.
    pub(crate) cycle_start: Stats,
    /// Cycle lengths of infinite games.
    pub(crate) cycle_length: Stats,
    /// Rounds of capped games (no games in summaries before format 3, which did not measure
    /// them).
    #[serde(default = "no_games")]
    pub(crate) capped_rounds: Stats,
    /// Battles of capped games.
    #[serde(default = "no_games")]
    pub(crate) capped_battles: Stats,
    /// Wars of capped games.
    #[serde(default = "no_games")]
    pub(crate) capped_wars: Stats,
    /// See [`Accumulator::battles_played`].
    pub(crate) battles_played: u64,
    /// The record games.
    pub(crate) records: Records,
    /// Every metric's histogram.
    pub(crate) histograms: Histograms,
    /// The distinct cycles and their basins, largest first, when the sweep kept them
    /// (`--cycles`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cycles: Option<Vec<CycleRow>>,
    /// Seconds spent.
    pub(crate) elapsed_seconds: f64,
    /// Games played a second.
    pub(crate) games_per_second: f64,
}
}

/// A summary deserialized is a checked one: its setting is one warsweep can play and its numbers
/// agree (`Summary::accumulator`), so no [`Summary`] value describes an impossible sweep.
impl TryFrom<Unchecked> for Summary {
    type Error = SummaryError;

    fn try_from(unchecked: Unchecked) -> Result<Summary, SummaryError> {
        let summary = unchecked.assume_checked()?;
        summary.accumulator()?;
        Ok(summary)
    }
}

/// Which games a summary's tallies count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Counted {
    /// One game for every seed of its range.
    EverySeed,
    /// The checkpoint of a walk that counts mirror deals with the deal played: the games of
    /// its seeds, and the mirrors of those, which may lie past them.
    WithMirrors,
}

/// How a summary's games ended ([`Summary::outcomes`]); the counts add up to its games.
///
/// ```
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Sweep};
/// let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 500)?);
/// let summary = sweep.run(None, &|_| {}, &Default::default())?.summary;
/// let ended = summary.outcomes();
/// let won: u64 = ended.wins.iter().sum();
/// assert_eq!(won + ended.draws + ended.infinite + ended.capped, summary.games());
/// let longest = summary.records().most_rounds.expect("a finished game");
/// assert!(longest.value >= summary.stats(warsweep::Metric::Rounds).max.unwrap());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcomes<'a> {
    /// Games won by each player, player 1 first.
    pub wins: &'a [u64],
    /// Games drawn.
    pub draws: u64,
    /// Games that never end.
    pub infinite: u64,
    /// Games stopped by the round limit.
    pub capped: u64,
}

/// The summary format this program writes.
pub const VERSION: u32 = 3;

/// The statistics of a metric no game has: what summaries before format 3 stand for their
/// capped games' lengths.
fn no_games() -> Stats {
    Tally::new().stats()
}

fn first_version() -> u32 {
    1
}

#[derive(Error, Debug)]
/// Why a summary cannot be read or merged.
///
/// ```
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Summary, Sweep};
/// let part = |preset, start, end| -> Result<Summary, Box<dyn std::error::Error>> {
///     let sweep = Sweep::new(Rules::preset(preset), Shuffle::Lcg, Seeds::new(start, end)?);
///     Ok(sweep.run(None, &|_| {}, &Default::default())?.summary)
/// };
/// // Shards of two settings do not merge.
/// let refused = Summary::merge(&[part(Preset::Classic, 0, 10)?, part(Preset::Codingame, 10, 20)?]);
/// assert!(refused.is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[non_exhaustive]
pub enum SummaryError {
    /// Its own numbers disagree (a damaged or edited file): what disagrees.
    #[error("{0}")]
    Inconsistent(String),
    /// A summary of a newer format than this warsweep reads.
    #[error(
        "it is a version {0} summary, from a newer warsweep than this one (version {VERSION})"
    )]
    NewerVersion(u32),
    /// A setting warsweep does not play: the part at fault and why.
    #[error("its setting is not one warsweep plays: {0}")]
    Setting(String),
    /// A merge of no summaries.
    #[error("no summaries to merge")]
    NothingToMerge,
    /// Shards of different settings: the parts that differ.
    #[error("cannot merge different settings: {0}")]
    DifferentSettings(String),
    /// Parts of different walks: a whole sweep and a part of a mirror walk, or parts of two.
    #[error("cannot merge {0} with {1}: merge the parts of one sweep")]
    DifferentWalks(String, String),
    /// A summary of chosen seeds, which is no shard of a range.
    #[error("a summary of chosen seeds merges with no other: sweep a range to merge its shards")]
    Chosen,
    /// Shards whose seeds overlap.
    #[error("seed ranges {0} and {1} overlap")]
    Overlap(Seeds, Seeds),
    /// Shards whose seeds leave a gap: the seeds no shard has.
    #[error("seeds {0} are in no summary: the ranges must join up")]
    Gap(String),
    /// Merged seeds that are no range.
    #[error(transparent)]
    Range(#[from] crate::deal::seeds::RangeError),
    /// Tallies that cannot be added.
    #[error(transparent)]
    Tally(#[from] TallyError),
    /// A table of cycles that is not one.
    #[error(transparent)]
    Cycles(#[from] CycleError),
    #[error("the {metric} histogram is not a valid base64 HdrHistogram: {reason}")]
    /// A histogram that cannot be read.
    Histogram {
        /// Which metric's.
        metric: &'static str,
        /// What is wrong with it.
        reason: String,
    },
}

impl Summary {
    /// The summary of `acc`, for `setting` over `seeds`, timed at `elapsed_seconds`.
    pub(crate) fn new(
        setting: &SweepSetting,
        seeds: Seeds,
        acc: &Accumulator,
        elapsed_seconds: f64,
    ) -> Summary {
        let stats = |m: Metric| acc.tally(m).stats();
        let histogram = |m: Metric| encode(&acc.tally(m).histogram());
        Summary {
            version: VERSION,
            setting: *setting,
            seeds,
            mirrors_within: None,
            chosen: None,
            games: acc.games,
            wins: acc.wins[..setting.rules.players()].to_vec(),
            draws: acc.draws,
            infinite: acc.infinite,
            capped: acc.capped,
            rounds: stats(Metric::Rounds),
            battles: stats(Metric::Battles),
            wars: stats(Metric::Wars),
            cycle_start: stats(Metric::CycleStart),
            cycle_length: stats(Metric::CycleLength),
            capped_rounds: stats(Metric::CappedRounds),
            capped_battles: stats(Metric::CappedBattles),
            capped_wars: stats(Metric::CappedWars),
            battles_played: acc.battles_played,
            records: acc.records,
            histograms: Histograms {
                rounds: histogram(Metric::Rounds),
                battles: histogram(Metric::Battles),
                wars: histogram(Metric::Wars),
                cycle_start: histogram(Metric::CycleStart),
                cycle_length: histogram(Metric::CycleLength),
                capped_rounds: histogram(Metric::CappedRounds),
                capped_battles: histogram(Metric::CappedBattles),
                capped_wars: histogram(Metric::CappedWars),
            },
            cycles: acc.cycles.as_ref().map(Cycles::rows),
            elapsed_seconds,
            games_per_second: if elapsed_seconds > 0.0 {
                acc.games as f64 / elapsed_seconds
            } else {
                0.0
            },
        }
    }

    /// The seeds the summary covers.
    pub fn seeds(&self) -> Seeds {
        self.seeds
    }

    /// The games played.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// How the games ended: won by each player, drawn, infinite, stopped by the round limit.
    pub fn outcomes(&self) -> Outcomes<'_> {
        Outcomes {
            wins: &self.wins,
            draws: self.draws,
            infinite: self.infinite,
            capped: self.capped,
        }
    }

    /// The record games: the longest finished ones, the longest, shortest and latest cycles.
    pub fn records(&self) -> &Records {
        &self.records
    }

    /// The distinct cycles and their basins, largest first, when the sweep listed them.
    ///
    /// ```
    /// use warsweep::{Deck, Preset, Seeds, Settings, Shuffle, Sweep};
    /// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("3x3")?).build()?;
    /// let sweep = Sweep::new(rules, Shuffle::Lex, Seeds::new(0, 1_680)?).cycles(true);
    /// let summary = sweep.run(None, &|_| {}, &Default::default())?.summary;
    /// let cycles = summary.cycles().expect("listed");
    /// let deals: u64 = cycles.iter().map(|c| c.deals).sum();
    /// // Every deal of 3x3 that never ends, 629 of 1,680, lies in one of these cycles' basins.
    /// assert_eq!((deals, summary.outcomes().infinite), (629, 629));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cycles(&self) -> Option<&[CycleRow]> {
        self.cycles.as_deref()
    }

    /// The statistics of `metric` (rounds, battles or wars of finished games, cycle start or
    /// length of infinite ones, rounds, battles or wars of capped ones): the one place that
    /// maps metrics to the summary's keys.
    pub fn stats(&self, metric: Metric) -> &Stats {
        match metric {
            Metric::Rounds => &self.rounds,
            Metric::Battles => &self.battles,
            Metric::Wars => &self.wars,
            Metric::CycleStart => &self.cycle_start,
            Metric::CycleLength => &self.cycle_length,
            Metric::CappedRounds => &self.capped_rounds,
            Metric::CappedBattles => &self.capped_battles,
            Metric::CappedWars => &self.capped_wars,
        }
    }

    /// Whether it counts capped games whose lengths it does not hold: a summary written before
    /// summaries measured them (format 2 and older), or merged with one.
    pub(crate) fn capped_unmeasured(&self) -> bool {
        crate::output::accumulator::capped_unmeasured(self.capped, self.capped_rounds.count)
    }

    /// The histogram of `metric`, as `--hist` writes it: `(value, games)` for each recorded
    /// bucket, in order, `value` the largest value the bucket holds (exact below 2,048; within
    /// 0.1% above). The games add up to the metric's count.
    ///
    /// ```
    /// use warsweep::{Metric, Preset, Rules, Seeds, Shuffle, Sweep};
    /// let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 300)?);
    /// let summary = sweep.run(None, &|_| {}, &Default::default())?.summary;
    /// let buckets = summary.histogram(Metric::Rounds)?;
    /// let games: u64 = buckets.iter().map(|&(_, games)| games).sum();
    /// assert_eq!(games, summary.stats(Metric::Rounds).count);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn histogram(&self, metric: Metric) -> Result<Vec<(u64, u64)>, SummaryError> {
        Ok(self.accumulator()?.tally(metric).buckets())
    }

    /// The summary as the JSON document `--summary` writes (docs/guide.md describes its keys).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a summary is plain data") + "\n"
    }

    /// What the summary is about, apart from its numbers.
    pub(crate) fn setting(&self) -> &SweepSetting {
        &self.setting
    }

    /// The accumulator this summary was written from (exact: histograms carry every count).
    pub(crate) fn accumulator(&self) -> Result<Accumulator, SummaryError> {
        self.accumulator_of(Counted::EverySeed)
    }

    /// `accumulator`, for a summary whose games are `counted` so.
    pub(crate) fn accumulator_of(&self, counted: Counted) -> Result<Accumulator, SummaryError> {
        let counted = self.counted(counted)?;
        let players = self.setting.rules.players();
        if self.wins.len() != players {
            return Err(SummaryError::Inconsistent(format!(
                "the summary lists {} win counts for {} players",
                self.wins.len(),
                players
            )));
        }
        let mut acc = Accumulator {
            games: self.games,
            draws: self.draws,
            infinite: self.infinite,
            capped: self.capped,
            battles_played: self.battles_played,
            records: self.records,
            ..Accumulator::default()
        };
        acc.wins[..players].copy_from_slice(&self.wins);
        self.check_counts(counted)?;
        if let Some(rows) = &self.cycles {
            let deck = self.setting.rules.deck();
            let cycles = Cycles::from_rows(rows, players, deck.values(), deck.size())?;
            if cycles.deals() != self.infinite as u128 {
                return Err(SummaryError::Inconsistent(format!(
                    "its cycles hold {} deals but it counts {} infinite games",
                    cycles.deals(),
                    self.infinite
                )));
            }
            let in_range = |seed: u64| {
                (self.seeds.start() as u128..self.seeds.end()).contains(&(seed as u128))
            };
            if counted == Counted::EverySeed && !rows.iter().all(|r| in_range(r.first_seed)) {
                return Err(SummaryError::Inconsistent(
                    "a cycle's first seed is outside its seeds".to_string(),
                ));
            }
            acc.cycles = Some(cycles);
        }
        for metric in Metric::ALL {
            let (stats, text) = (self.stats(metric), self.histograms.of(metric));
            let hist = decode(text).map_err(|reason| SummaryError::Histogram {
                metric: metric.name(),
                reason,
            })?;
            if hist.len() != stats.count {
                return Err(SummaryError::Inconsistent(format!(
                    "the {} histogram holds {} but its count says {}",
                    metric.name(),
                    crate::text::count(hist.len(), "game"),
                    stats.count
                )));
            }
            let (min, max) = (stats.min.unwrap_or(u64::MAX), stats.max.unwrap_or(0));
            acc.metrics[metric.index()] =
                Tally::from_parts(stats.count, stats.total, stats.squares, min, max, hist);
        }
        Ok(acc)
    }

    /// How its games are counted: `counted`, or with their mirrors for a part of a mirror walk
    /// (whose seeds must lie within the walk).
    fn counted(&self, counted: Counted) -> Result<Counted, SummaryError> {
        match self.mirrors_within {
            None => Ok(counted),
            Some(whole)
                if whole.start() <= self.seeds.start() && self.seeds.end() <= whole.end() =>
            {
                Ok(Counted::WithMirrors)
            }
            Some(whole) => Err(SummaryError::Inconsistent(format!(
                "its seeds {}..{} are not part of its mirror walk {}..{}",
                self.seeds.start(),
                self.seeds.end(),
                whole.start(),
                whole.end()
            ))),
        }
    }

    /// Checks that the counts agree with each other and with the seed range, so that a doctored
    /// or damaged summary is refused rather than merged.
    fn check_counts(&self, counted: Counted) -> Result<(), SummaryError> {
        let bad = |what: String| Err(SummaryError::Inconsistent(what));
        if self.version > VERSION {
            return Err(SummaryError::NewerVersion(self.version));
        }
        let seeds = self.seeds.len();
        if let Some(chosen) = self.chosen {
            if self.games != chosen {
                return bad(format!(
                    "it counts {} of {chosen} chosen seeds",
                    crate::text::count(self.games, "game"),
                ));
            }
        } else if counted == Counted::EverySeed && self.games as u128 != seeds {
            return bad(format!(
                "it counts {} over the {} {}..{}",
                crate::text::count(self.games, "game"),
                crate::text::count(seeds, "seed"),
                self.seeds.start(),
                self.seeds.end()
            ));
        }
        let finished = self
            .wins
            .iter()
            .try_fold(self.draws, |a, &w| a.checked_add(w));
        let outcomes = finished
            .and_then(|f| f.checked_add(self.infinite))
            .and_then(|n| n.checked_add(self.capped));
        if outcomes != Some(self.games) {
            return bad(format!(
                "its wins, draws, infinite and capped games do not add up to its {} games",
                self.games
            ));
        }
        for metric in Metric::ALL {
            let (name, stats) = (metric.name(), self.stats(metric));
            let games = match metric.of() {
                Measured::Finished => finished,
                Measured::Infinite => Some(self.infinite),
                // No capped game measured: a summary from before format 3 (or merged with one).
                Measured::Capped if self.capped_unmeasured() => Some(0),
                Measured::Capped => Some(self.capped),
            };
            check_stats(name, stats, games)?;
        }
        if !(self.elapsed_seconds.is_finite() && self.elapsed_seconds >= 0.0) {
            return bad("its elapsed_seconds is not a duration".to_string());
        }
        self.check_records()
    }

    /// Checks that each record is its metric's extreme, of a seed of the summary's range.
    fn check_records(&self) -> Result<(), SummaryError> {
        let r = &self.records;
        let records = [
            ("most_rounds", r.most_rounds, &self.rounds, true),
            ("most_battles", r.most_battles, &self.battles, true),
            ("most_wars", r.most_wars, &self.wars, true),
            ("longest_cycle", r.longest_cycle, &self.cycle_length, true),
            (
                "shortest_cycle",
                r.shortest_cycle,
                &self.cycle_length,
                false,
            ),
            (
                "latest_cycle_start",
                r.latest_cycle_start,
                &self.cycle_start,
                true,
            ),
        ];
        for (name, record, stats, largest) in records {
            let expected = if largest { stats.max } else { stats.min }.unwrap_or(0);
            let fits = match record {
                None => stats.count == 0,
                Some(rec) => {
                    stats.count > 0
                        && rec.value == expected
                        && (self.seeds.start() as u128..self.seeds.end())
                            .contains(&(rec.seed as u128))
                }
            };
            if !fits {
                return Err(SummaryError::Inconsistent(format!(
                    "its {name} record does not match its counts and seeds"
                )));
            }
        }
        Ok(())
    }

    /// Reads and checks the summary at `path`: a file from another machine is untrusted input,
    /// and every error names it.
    pub fn read(path: &std::path::Path) -> Result<Summary, ReadError> {
        read(path).map(|(summary, _)| summary)
    }

    /// Merges shard summaries of one setting over disjoint seed ranges that join up into one
    /// range: the result is what one sweep over that range writes (timings are added up).
    pub fn merge(shards: &[Summary]) -> Result<Summary, SummaryError> {
        Summary::merge_tallies(shards).map(|(merged, _)| merged)
    }

    /// [`Summary::merge`], with the merged tallies, which the outputs are written from (their
    /// histograms as added, not decoded again from the summary's text).
    pub(crate) fn merge_tallies(
        shards: &[Summary],
    ) -> Result<(Summary, Accumulator), SummaryError> {
        let first = shards.first().ok_or(SummaryError::NothingToMerge)?;
        let setting = first.setting;
        let mut order: Vec<&Summary> = shards.iter().collect();
        order.sort_by_key(|s| s.seeds.start());
        let mut acc = Accumulator::new(first.cycles.is_some());
        let mut elapsed = 0.0;
        for (i, shard) in order.iter().enumerate() {
            if shard.chosen.is_some() {
                return Err(SummaryError::Chosen);
            }
            if let Some(difference) = setting.difference(&shard.setting) {
                return Err(SummaryError::DifferentSettings(difference));
            }
            if shard.mirrors_within != first.mirrors_within {
                let walk = |s: &Summary| match s.mirrors_within {
                    Some(w) => format!("a part of the mirror walk {}..{}", w.start(), w.end()),
                    None => "a whole sweep".to_string(),
                };
                return Err(SummaryError::DifferentWalks(walk(first), walk(shard)));
            }
            if i > 0 {
                let prev = order[i - 1].seeds;
                let here = shard.seeds;
                if (here.start() as u128) < prev.end() {
                    return Err(SummaryError::Overlap(prev, here));
                }
                if (here.start() as u128) > prev.end() {
                    let gap = format!("{}..{}", prev.end(), here.start());
                    return Err(SummaryError::Gap(gap));
                }
            }
            acc.try_add(&shard.accumulator()?)?;
            elapsed += shard.elapsed_seconds;
        }
        let seeds = Seeds::new(order[0].seeds.start(), order[order.len() - 1].seeds.end())?;
        let mut merged = Summary::new(&setting, seeds, &acc, elapsed);
        // Parts of one mirror walk that make up the whole are the whole walk's summary.
        merged.mirrors_within = first.mirrors_within.filter(|&whole| whole != seeds);
        // The counts checked as a file's are (its histograms come from `acc` itself).
        merged.check_counts(merged.counted(Counted::EverySeed)?)?;
        Ok((merged, acc))
    }
}

/// Checks one metric's statistics: its count is the `games` it describes, and its sums and
/// extremes fit each other.
fn check_stats(name: &str, stats: &Stats, games: Option<u64>) -> Result<(), SummaryError> {
    let bad = |what: String| Err(SummaryError::Inconsistent(what));
    if Some(stats.count) != games {
        return bad(format!(
            "its {name} count {} is not the number of games it describes",
            stats.count
        ));
    }
    if stats.count == 0 {
        if stats.total != 0 || stats.squares.is_some_and(|s| s != 0) {
            return bad(format!("its {name} sums are not 0 for no games"));
        }
        return Ok(());
    }
    let (Some(min), Some(max)) = (stats.min, stats.max) else {
        return bad(format!("its {name} has games but no minimum or maximum"));
    };
    if min > max {
        return bad(format!("its {name} minimum is above its maximum"));
    }
    let n = u128::from(stats.count);
    let (low, high) = (u128::from(min) * n, u128::from(max) * n);
    if !(low..=high).contains(&u128::from(stats.total)) {
        return bad(format!(
            "its {name} total does not lie between count x min and count x max"
        ));
    }
    // Sum of squares: at least total^2 / count (Cauchy-Schwarz), at most max x total.
    let fits = |s: u128| {
        let t = u128::from(stats.total);
        t.checked_mul(t).is_some_and(|t2| s >= t2 / n)
            && u128::from(max).checked_mul(t).is_some_and(|top| s <= top)
    };
    if stats.squares.is_some_and(|s| !fits(s)) {
        return bad(format!(
            "its {name} sum of squares does not fit its count, total and maximum"
        ));
    }
    Ok(())
}

/// A summary from its JSON text (what `to_json` writes), checked as [`Summary::read`] checks a
/// file: errors name it "the JSON text".
impl std::str::FromStr for Summary {
    type Err = ReadError;

    fn from_str(text: &str) -> Result<Summary, ReadError> {
        parse(text.as_bytes(), "the JSON text".to_string()).map(|(summary, _)| summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A summary's JSON text reads back as the same summary; other text is refused by name.
    #[test]
    fn summaries_read_back_from_their_text() {
        use crate::{Preset, Rules, Shuffle, Sweep};
        let seeds = Seeds::new(0, 300).unwrap();
        let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, seeds);
        let summary = sweep
            .run(None, &|_| {}, &Default::default())
            .unwrap()
            .summary;
        let back: Summary = summary.to_json().parse().unwrap();
        assert_eq!(back.to_json(), summary.to_json());
        let refused = "{}".parse::<Summary>().unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the JSON text is not a warsweep summary"
        );
    }
}
