//! Tallies over many games: for each measured quantity an exact count, total, minimum and
//! maximum with its histogram, the outcomes, and the record games. Everything adds exactly, so
//! that the tallies of any split of a sweep (threads, chunks, shards) add up to one sweep's.

use crate::deal::mirror::Weight;
use crate::engine::{GameResult, Outcome};
use crate::output::cycles::{CycleError, Cycles};
use crate::output::metric::{Measured, Metric};
use crate::rules::MAX_PLAYERS;
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Significant digits every histogram keeps (values below [`EXACT_BELOW`] are exact; larger ones
/// are held to within [`PRECISION`]).
pub const SIGFIG: u8 = 3;
/// Values below this have a bucket of their own in every histogram, so the percentiles read
/// from them are exact; at and above it, a bucket holds several values.
pub const EXACT_BELOW: u64 = 2048;
/// How far a percentile read from a bucket holding several values may lie from the true one,
/// relative to it (a bucket spans at most 1/1024 of its values: under 0.1%).
pub const PRECISION: f64 = 1.0 / 1024.0;
/// Largest value a histogram tracks exactly to [`SIGFIG`] digits; larger ones saturate.
pub const HIGHEST: u64 = 1 << 40;

/// An empty histogram with the bounds every metric shares, so that any two add.
pub(crate) fn empty_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, HIGHEST, SIGFIG).expect("valid bounds")
}

/// Values below this are tallied in a plain array before they reach the histogram: recording
/// one is an increment, where the histogram's own record costs tens of instructions a value.
const SMALL: usize = 512;

/// Exact count, total, minimum and maximum of one quantity, plus its histogram.
///
/// Values below [`SMALL`] are only counted, one increment each, in `small`; everything else is
/// derived from those counts when read. Larger values, and any summary read back from a file,
/// are held in `hist` with their exact tallies in `held`.
#[derive(Clone, Debug)]
pub struct Tally {
    held: Held,
    /// Every value `held` covers.
    hist: Histogram<u64>,
    /// How many times each value below [`SMALL`] was recorded (not in `hist`).
    small: Box<[u64; SMALL]>,
}

/// Count, total, sum of squares and extremes of the values held in a metric's histogram.
///
/// The sums cannot overflow in any sweep: a metric's total is at most the battles played (2^64
/// of them take 585 years at a billion a second), and its sum of squares at most `max x total`,
/// below 2^128.
#[derive(Clone, Copy, Debug)]
struct Held {
    count: u64,
    total: u64,
    /// The sum of the squares of the values, [`None`] when unknown: a summary written before
    /// summaries kept it, whose histogram holds values too large to be exact.
    squares: Option<u128>,
    min: u64,
    max: u64,
}

impl Tally {
    /// A metric that has seen nothing.
    pub fn new() -> Tally {
        Tally {
            held: Held {
                count: 0,
                total: 0,
                squares: Some(0),
                min: u64::MAX,
                max: 0,
            },
            hist: empty_histogram(),
            small: Box::new([0; SMALL]),
        }
    }

    /// A metric read from a summary: its exact tallies and its histogram. A sum of squares the
    /// summary lacks (written before summaries kept it) is read from the histogram when every
    /// value it holds is exact there, and stays unknown otherwise.
    pub(crate) fn from_parts(
        count: u64,
        total: u64,
        squares: Option<u128>,
        min: u64,
        max: u64,
        hist: Histogram<u64>,
    ) -> Tally {
        let squares = squares.or_else(|| {
            (count == 0 || max < EXACT_BELOW).then(|| {
                hist.iter_recorded()
                    .map(|v| square(v.value_iterated_to()) * u128::from(v.count_at_value()))
                    .sum()
            })
        });
        Tally {
            held: Held {
                count,
                total,
                squares,
                min,
                max,
            },
            hist,
            ..Tally::new()
        }
    }

    #[cfg(test)]
    #[inline]
    /// Counts one value.
    pub fn record(&mut self, value: u64) {
        self.record_n(value, 1);
    }

    #[inline]
    /// Counts `times` games of one value.
    pub fn record_n(&mut self, value: u64, times: u64) {
        match self.small.get_mut(value as usize) {
            Some(n) => *n += times,
            None => self.hold(value, times),
        }
    }

    #[inline(never)]
    fn hold(&mut self, value: u64, times: u64) {
        let held = &mut self.held;
        held.count += times;
        held.total += value * times;
        if let Some(squares) = &mut held.squares {
            *squares += square(value) * u128::from(times);
        }
        held.min = held.min.min(value);
        held.max = held.max.max(value);
        self.hist.saturating_record_n(value, times);
    }

    /// The small values recorded, with how many times each.
    fn smalls(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        (0..SMALL as u64)
            .zip(self.small.iter().copied())
            .filter(|&(_, n)| n > 0)
    }

    /// How many values were recorded.
    pub fn count(&self) -> u64 {
        self.smalls().fold(self.held.count, |sum, (_, n)| sum + n)
    }

    /// The sum of every value recorded, if it fits in 64 bits.
    fn checked_total(&self) -> Option<u64> {
        self.smalls().try_fold(self.held.total, |sum, (v, n)| {
            sum.checked_add(v.checked_mul(n)?)
        })
    }

    /// The sum of the squares of every value counted, [`None`] when unknown (see [`Held`]).
    pub fn squares(&self) -> Option<u128> {
        let small: u128 = self.smalls().map(|(v, n)| square(v) * u128::from(n)).sum();
        self.held.squares.map(|held| held + small)
    }

    /// The sum of every value counted.
    pub fn total(&self) -> u64 {
        self.checked_total()
            .expect("the tallies of one sweep fit in 64 bits")
    }

    /// The smallest value recorded ([`u64::MAX`] when none was).
    pub fn min(&self) -> u64 {
        let small = self.smalls().next().map_or(u64::MAX, |(v, _)| v);
        small.min(self.held.min)
    }

    /// The largest value recorded (0 when none was).
    pub fn max(&self) -> u64 {
        let small = self.smalls().last().map_or(0, |(v, _)| v);
        small.max(self.held.max)
    }

    /// The histogram of every value recorded.
    pub fn histogram(&self) -> Cow<'_, Histogram<u64>> {
        if self.smalls().next().is_none() {
            return Cow::Borrowed(&self.hist);
        }
        let mut hist = self.hist.clone();
        for (value, n) in self.smalls() {
            hist.saturating_record_n(value, n);
        }
        Cow::Owned(hist)
    }

    /// `(value, games)` for each recorded bucket of the histogram, in order: `value` is the
    /// largest value the bucket holds (exact below 2,048; within 0.1% above).
    pub(crate) fn buckets(&self) -> Vec<(u64, u64)> {
        let hist = self.histogram();
        let recorded = hist.iter_recorded();
        recorded
            .map(|b| (b.value_iterated_to(), b.count_at_value()))
            .collect()
    }

    #[cfg(test)]
    /// Adds the values `other` counted.
    pub fn add(&mut self, other: &Tally) {
        self.try_add(other)
            .expect("the tallies of one sweep fit in 64 bits");
    }

    /// Adds `other`, or says which sum would overflow (summaries read from files).
    pub fn try_add(&mut self, other: &Tally) -> Result<(), TallyError> {
        let too_many = |what| move || TallyError::Overflow(what);
        self.count()
            .checked_add(other.count())
            .ok_or_else(too_many("game counts"))?;
        let (a, b) = (self.checked_total(), other.checked_total());
        a.zip(b)
            .and_then(|(a, b)| a.checked_add(b))
            .ok_or_else(too_many("totals"))?;
        let squares = match (self.held.squares, other.held.squares) {
            (Some(a), Some(b)) => Some(a.checked_add(b).ok_or_else(too_many("sums of squares"))?),
            _ => None,
        };
        let (held, more) = (&mut self.held, &other.held);
        held.count += more.count;
        held.total += more.total;
        held.squares = squares;
        held.min = held.min.min(more.min);
        held.max = held.max.max(more.max);
        self.hist
            .add(&other.hist)
            .map_err(|_| TallyError::Overflow("histograms"))?;
        for (n, &m) in self.small.iter_mut().zip(other.small.iter()) {
            *n += m;
        }
        Ok(())
    }

    /// The metric as a summary prints it: the mean and standard deviation from the exact sums,
    /// the percentiles from the histogram, exact where its buckets hold one value each.
    pub fn stats(&self) -> Stats {
        let (count, total, squares) = (self.count(), self.total(), self.squares());
        let mut stats = Stats {
            count,
            total,
            squares,
            ..Stats::default()
        };
        if count == 0 {
            return stats;
        }
        let (min, max) = (self.min(), self.max());
        let hist = self.histogram();
        stats.min = Some(min);
        stats.max = Some(max);
        stats.mean = Some(exact_mean(total, count));
        stats.stdev = Some(match squares {
            Some(squares) => exact_stdev(total, squares, count),
            None => {
                stats.approximate.push("stdev".to_string());
                hist.stdev()
            }
        });
        let mut quantiles = [
            ("p50", 1, 2, &mut stats.p50),
            ("p90", 9, 10, &mut stats.p90),
            ("p99", 99, 100, &mut stats.p99),
            ("p999", 999, 1000, &mut stats.p999),
        ];
        for (name, num, den, slot) in &mut quantiles {
            let (value, exact) = percentile(&hist, count, *num, *den, min, max);
            **slot = Some(value);
            if !exact {
                stats.approximate.push((*name).to_string());
            }
        }
        stats
    }
}

/// `v` squared, which always fits in 128 bits.
fn square(v: u64) -> u128 {
    u128::from(v) * u128::from(v)
}

/// `total / count` to the precision of an `f64`, whatever the size of `total`.
fn exact_mean(total: u64, count: u64) -> f64 {
    (total / count) as f64 + (total % count) as f64 / count as f64
}

/// The population standard deviation of `count` values of sum `total` and sum of squares
/// `squares`: `sqrt((squares - total^2 / count) / count)`, the difference taken in integers so
/// that no precision is lost to cancellation.
fn exact_stdev(total: u64, squares: u128, count: u64) -> f64 {
    let (t2, n) = (square(total), u128::from(count));
    let (whole, part) = (t2 / n, t2 % n);
    // squares >= total^2 / count (Cauchy-Schwarz), so `squares - whole` cannot wrap.
    let spread = squares.saturating_sub(whole) as f64 - part as f64 / count as f64;
    (spread.max(0.0) / count as f64).sqrt()
}

/// The nearest-rank percentile `num/den` of the `count` values in `hist` (the smallest value
/// at least `ceil(count x num / den)` of them do not exceed), and whether it is exact: the
/// values its bucket can stand for, within `min..=max`, are one.
fn percentile(
    hist: &Histogram<u64>,
    count: u64,
    num: u64,
    den: u64,
    min: u64,
    max: u64,
) -> (u64, bool) {
    let rank = (u128::from(count) * u128::from(num))
        .div_ceil(u128::from(den))
        .max(1);
    let mut seen = 0u128;
    for v in hist.iter_recorded() {
        seen += u128::from(v.count_since_last_iteration());
        if seen >= rank {
            let top = v.value_iterated_to();
            let (low, high) = (hist.lowest_equivalent(top).max(min), top.min(max));
            return (high.max(low), low >= high);
        }
    }
    (max, false)
}

impl Default for Tally {
    fn default() -> Self {
        Tally::new()
    }
}

/// Why two tallies cannot be added (summaries read from files: one sweep's always add).
///
/// ```
/// use warsweep::{Deck, Preset, Seeds, Settings, Shuffle, Summary, SummaryError, Sweep, TallyError};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let part = |start, end, cycles| -> Result<Summary, Box<dyn std::error::Error>> {
///     let sweep = Sweep::new(rules, Shuffle::Lex, Seeds::new(start, end)?).cycles(cycles);
///     Ok(sweep.mirrors(false).run(None, &|_| {}, &Default::default())?.summary)
/// };
/// // One part lists its distinct cycles, the other does not: their sum would list some only.
/// let refused = Summary::merge(&[part(0, 100, true)?, part(100, 200, false)?]).unwrap_err();
/// assert!(matches!(refused, SummaryError::Tally(TallyError::CyclesInOne)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(thiserror::Error, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TallyError {
    /// A sum past what its integer holds.
    #[error("the {0} add up to more than 2^64")]
    Overflow(&'static str),
    /// A sum of one metric's past what its integer holds.
    #[error("the {metric} {part} add up to more than 2^64")]
    MetricOverflow {
        /// The metric.
        metric: &'static str,
        /// Which of its sums.
        part: &'static str,
    },
    /// Distinct cycles listed by one and not the other.
    #[error(
        "one lists its distinct cycles and another does not: list them in the sweep of every part"
    )]
    CyclesInOne,
    /// Tables of cycles that disagree.
    #[error(transparent)]
    Cycles(#[from] CycleError),
}

/// Tallies of many games of one setting.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    /// Games played.
    pub games: u64,
    /// Games won by each player (player 1 first).
    pub wins: [u64; MAX_PLAYERS],
    /// Games drawn.
    pub draws: u64,
    /// Games that never end.
    pub infinite: u64,
    /// Games stopped by the round limit.
    pub capped: u64,
    /// One tally a metric, in the order of [`Metric::ALL`] (`tally` reads one).
    pub metrics: [Tally; Metric::ALL.len()],
    /// Battles of every game: a finished or capped game's, and an infinite game's up to the end
    /// of its first cycle (round `cycle_start + cycle_length`). The measure of work done.
    pub battles_played: u64,
    /// The record games.
    pub records: Records,
    /// The distinct cycles and their basins, when the sweep keeps them (`--cycles`).
    pub cycles: Option<Cycles>,
}

/// Finished two-player games tallied elsewhere (a device's launch), for
/// [`Accumulator::add_finished`].
pub(crate) struct Finished<'a> {
    pub(crate) games: u64,
    pub(crate) wins: [u64; 2],
    pub(crate) draws: u64,
    pub(crate) battles_played: u64,
    /// Games by value of their rounds, battles and wars (`lengths[m][v]` games of value `v`).
    pub(crate) lengths: [&'a [u64]; 3],
    pub(crate) records: Records,
}

/// One record game: its value and its seed (the smallest seed among equal values).
///
/// ```
/// use warsweep::{Engine, Preset, Rules, Seeds, Shuffle, Sweep};
/// let rules = Rules::preset(Preset::Shortened);
/// let sweep = Sweep::new(rules, Shuffle::Lcg, Seeds::new(0, 200)?);
/// let most = sweep.run(None, &|_| {}, &Default::default())?.summary.records().most_battles;
/// let most = most.expect("a finished game");
/// // The record's seed replays the game that set it.
/// assert_eq!(Engine::new(rules).play_seed(Shuffle::Lcg, most.seed)?.battles, most.value);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The recorded quantity.
    pub value: u64,
    /// The seed of the game that set it (the smallest on a tie).
    pub seed: u64,
}

/// The record games of a sweep. Each is the best value with the smallest seed on a tie, so
/// records combine exactly in any order (threads, shards).
///
/// ```
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Summary, Sweep};
/// let part = |start, end| -> Result<Summary, Box<dyn std::error::Error>> {
///     let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(start, end)?);
///     Ok(sweep.run(None, &|_| {}, &Default::default())?.summary)
/// };
/// let merged = Summary::merge(&[part(0, 300)?, part(300, 700)?])?;
/// assert_eq!(merged.records(), part(0, 700)?.records());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Records {
    /// The finished game with the most rounds.
    pub most_rounds: Option<Record>,
    /// The finished game with the most battles.
    pub most_battles: Option<Record>,
    /// The finished game with the most wars.
    pub most_wars: Option<Record>,
    /// The infinite game with the longest cycle.
    pub longest_cycle: Option<Record>,
    /// The infinite game with the shortest cycle.
    pub shortest_cycle: Option<Record>,
    /// The infinite game whose cycle starts latest.
    pub latest_cycle_start: Option<Record>,
}

/// Keeps in `slot` the larger (or, with `smallest`, the smaller) value, the smaller seed on a tie.
#[inline]
fn keep(slot: &mut Option<Record>, candidate: Record, smallest: bool) {
    let better = match slot {
        None => true,
        Some(r) if r.value == candidate.value => candidate.seed < r.seed,
        Some(r) => (candidate.value > r.value) != smallest,
    };
    if better {
        *slot = Some(candidate);
    }
}

impl Records {
    /// What each record means, for the table: label, field.
    pub fn rows(&self) -> [(&'static str, Option<Record>); 6] {
        [
            ("most rounds", self.most_rounds),
            ("most battles", self.most_battles),
            ("most wars", self.most_wars),
            ("longest cycle", self.longest_cycle),
            ("shortest cycle", self.shortest_cycle),
            ("latest cycle start", self.latest_cycle_start),
        ]
    }

    /// Keeps the better of each record of `self` and `other`.
    pub fn add(&mut self, other: &Records) {
        let pairs = [
            (&mut self.most_rounds, other.most_rounds, false),
            (&mut self.most_battles, other.most_battles, false),
            (&mut self.most_wars, other.most_wars, false),
            (&mut self.longest_cycle, other.longest_cycle, false),
            (&mut self.shortest_cycle, other.shortest_cycle, true),
            (
                &mut self.latest_cycle_start,
                other.latest_cycle_start,
                false,
            ),
        ];
        for (slot, candidate, smallest) in pairs {
            if let Some(c) = candidate {
                keep(slot, c, smallest);
            }
        }
    }
}

impl Accumulator {
    /// The tally of `metric`.
    pub(crate) fn tally(&self, metric: Metric) -> &Tally {
        &self.metrics[metric.index()]
    }

    /// Empty tallies; with `cycles`, keeping the distinct cycles.
    pub fn new(cycles: bool) -> Accumulator {
        Accumulator {
            cycles: cycles.then(Cycles::default),
            ..Accumulator::default()
        }
    }

    /// Counts the game dealt by `seed`, and with `weight` `Twice` its mirror deal's (a greater
    /// seed, whose game is this one with the players swapped: the records keep `seed`).
    #[inline]
    pub fn record_weighted(&mut self, seed: u64, result: &GameResult, weight: Weight) {
        let twice = weight == Weight::Twice;
        let n = 1 + u64::from(twice);
        self.games += n;
        self.battles_played += result.battles * n;
        let at = |value| Record { value, seed };
        let r = &mut self.records;
        let finished = match result.outcome {
            Outcome::Win(p) => {
                self.wins[p] += 1;
                // Mirror pairs exist only for two players, so `p` is 0 or 1 here.
                if twice {
                    self.wins[1 - p] += 1;
                }
                true
            }
            Outcome::Draw => {
                self.draws += n;
                true
            }
            Outcome::Capped => {
                self.capped += n;
                self.metrics[Metric::CappedRounds.index()].record_n(result.rounds, n);
                self.metrics[Metric::CappedBattles.index()].record_n(result.battles, n);
                self.metrics[Metric::CappedWars.index()].record_n(result.wars, n);
                false
            }
            Outcome::Infinite {
                cycle_start,
                cycle_length,
            } => {
                self.infinite += n;
                self.metrics[Metric::CycleStart.index()].record_n(cycle_start, n);
                self.metrics[Metric::CycleLength.index()].record_n(cycle_length, n);
                keep(&mut r.longest_cycle, at(cycle_length), false);
                keep(&mut r.shortest_cycle, at(cycle_length), true);
                keep(&mut r.latest_cycle_start, at(cycle_start), false);
                false
            }
        };
        if finished {
            self.metrics[Metric::Rounds.index()].record_n(result.rounds, n);
            self.metrics[Metric::Battles.index()].record_n(result.battles, n);
            self.metrics[Metric::Wars.index()].record_n(result.wars, n);
            keep(&mut r.most_rounds, at(result.rounds), false);
            keep(&mut r.most_battles, at(result.battles), false);
            keep(&mut r.most_wars, at(result.wars), false);
        }
    }

    /// Adds finished games tallied elsewhere (a device's launch), their lengths given as
    /// games by value: each recorded at once, which sums and squares exactly.
    pub(crate) fn add_finished(&mut self, f: &Finished) {
        self.games += f.games;
        for (wins, more) in self.wins.iter_mut().zip(f.wins) {
            *wins += more;
        }
        self.draws += f.draws;
        self.battles_played += f.battles_played;
        let lengths = [Metric::Rounds, Metric::Battles, Metric::Wars];
        for (metric, counts) in lengths.into_iter().zip(f.lengths) {
            let tally = &mut self.metrics[metric.index()];
            for (value, &games) in counts.iter().enumerate().filter(|(_, &g)| g > 0) {
                tally.record_n(value as u64, games);
            }
        }
        self.records.add(&f.records);
    }

    /// Adds the tallies of `other` (another chunk, thread or shard).
    pub fn add(&mut self, other: &Accumulator) {
        self.try_add(other)
            .expect("the tallies of one sweep fit in 64 bits");
    }

    /// Adds `other`, or names the count that would overflow (summaries read from files).
    pub fn try_add(&mut self, other: &Accumulator) -> Result<(), TallyError> {
        // Lengths of capped games that a side did not measure leave the sum's unknown too.
        let unmeasured = self.capped_unmeasured() || other.capped_unmeasured();
        let sum = |a: &mut u64, b: u64, what: &'static str| -> Result<(), TallyError> {
            *a = a.checked_add(b).ok_or(TallyError::Overflow(what))?;
            Ok(())
        };
        sum(&mut self.games, other.games, "games")?;
        for (a, b) in self.wins.iter_mut().zip(other.wins) {
            sum(a, b, "wins")?;
        }
        sum(&mut self.draws, other.draws, "draws")?;
        sum(&mut self.infinite, other.infinite, "infinite games")?;
        sum(&mut self.capped, other.capped, "capped games")?;
        sum(
            &mut self.battles_played,
            other.battles_played,
            "battles played",
        )?;
        match (&mut self.cycles, &other.cycles) {
            (Some(mine), Some(theirs)) => mine.add_table(theirs)?,
            (None, None) => {}
            _ => return Err(TallyError::CyclesInOne),
        }
        self.records.add(&other.records);
        for (metric, (a, b)) in Metric::ALL
            .into_iter()
            .zip(self.metrics.iter_mut().zip(&other.metrics))
        {
            a.try_add(b).map_err(|e| match e {
                TallyError::Overflow(part) => TallyError::MetricOverflow {
                    metric: metric.name(),
                    part,
                },
                e => e,
            })?;
        }
        if unmeasured {
            for metric in Metric::ALL
                .into_iter()
                .filter(|m| m.of() == Measured::Capped)
            {
                self.metrics[metric.index()] = Tally::new();
            }
        }
        Ok(())
    }

    /// Whether it counts capped games without their lengths: tallies read from a summary
    /// written before summaries measured capped games (format 2 and older).
    pub(crate) fn capped_unmeasured(&self) -> bool {
        capped_unmeasured(self.capped, self.tally(Metric::CappedRounds).count())
    }
}

/// Whether `capped` games are counted with none of their lengths (`measured` games of
/// `capped_rounds`): the one test for tallies and summaries alike.
pub(crate) fn capped_unmeasured(capped: u64, measured: u64) -> bool {
    capped > 0 && measured == 0
}

/// One quantity as the summary prints it. Count, total, sum of squares, extremes, mean and
/// standard deviation are exact (the mean and standard deviation to an `f64`'s precision); each
/// percentile is the nearest-rank one, read from the histogram: exact unless `approximate`
/// names it, and then within `PRECISION` of the true value. All but the sums are [`None`] for a
/// quantity no game has.
///
/// ```
/// use warsweep::{Metric, Preset, Rules, Seeds, Shuffle, Sweep};
/// let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 2_000)?);
/// let summary = sweep.run(None, &|_| {}, &Default::default())?.summary;
/// let rounds = summary.stats(Metric::Rounds);
/// // The mean is the exact one: the total over the count.
/// assert_eq!(rounds.mean, Some(rounds.total as f64 / rounds.count as f64));
/// assert!(rounds.min <= rounds.p50 && rounds.p50 <= rounds.max);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Values counted.
    pub count: u64,
    /// Their sum.
    pub total: u64,
    /// The sum of their squares; [`None`] only after merging a summary written before summaries
    /// kept it, with values too large for its histogram to give it exactly.
    #[serde(default)]
    pub squares: Option<u128>,
    /// The smallest.
    pub min: Option<u64>,
    /// The largest.
    pub max: Option<u64>,
    /// The mean, `total / count`.
    pub mean: Option<f64>,
    /// The population standard deviation, from `squares` and `total`.
    pub stdev: Option<f64>,
    /// The median.
    pub p50: Option<u64>,
    /// The 90th percentile.
    pub p90: Option<u64>,
    /// The 99th percentile.
    pub p99: Option<u64>,
    /// The 99.9th percentile.
    pub p999: Option<u64>,
    /// The fields above that are approximate: percentiles in histogram buckets that hold
    /// several values, and `stdev` where `squares` is unknown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approximate: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small values (counted in an array) and large ones (in the histogram) give the same
    /// tallies as a plain histogram, recorded in one metric or split and added, and after a
    /// round trip through a summary's parts.
    #[test]
    fn small_and_large_values_tally_exactly() {
        let values = [0, 3, 3, 511, 512, 5_000, 2, 1 << 41, 77];
        let mut plain: Histogram<u64> = Histogram::new_with_bounds(1, HIGHEST, SIGFIG).unwrap();
        let (mut one, mut left, mut right) = (Tally::new(), Tally::new(), Tally::new());
        for (i, &v) in values.iter().enumerate() {
            plain.saturating_record(v);
            one.record(v);
            if i % 2 == 0 {
                left.record(v);
            } else {
                right.record(v);
            }
        }
        left.add(&right);
        let total: u64 = values.iter().sum();
        for m in [&one, &left] {
            assert_eq!(
                (m.count(), m.total(), m.min(), m.max()),
                (9, total, 0, 1 << 41)
            );
            assert_eq!(*m.histogram(), plain);
        }
        let s = one.stats();
        let (min, max) = (s.min.unwrap(), s.max.unwrap());
        let back = Tally::from_parts(
            s.count,
            s.total,
            s.squares,
            min,
            max,
            one.histogram().into_owned(),
        );
        let mut merged = back.clone();
        merged.add(&one);
        assert_eq!(
            (merged.count(), merged.total(), merged.min()),
            (18, 2 * total, 0)
        );
        assert_eq!(back.stats().p50, s.p50);
        assert_eq!(
            Tally::new().try_add(&Tally::from_parts(1, u64::MAX, None, 9, 9, plain)),
            Ok(())
        );
        let mut full = Tally::from_parts(1, u64::MAX, None, 9, 9, Tally::new().hist);
        full.record(1);
        assert_eq!(full.try_add(&one), Err(TallyError::Overflow("totals")));
    }

    /// The mean and standard deviation are the exact ones, whatever the values' size, and each
    /// percentile is the nearest-rank one of the values, labelled approximate exactly where its
    /// bucket holds several values; a metric with no values has none of them.
    #[test]
    fn statistics_are_exact_and_say_where_they_are_not() {
        let (mut compared, mut approximate) = (0, 0);
        let sets: [&[u64]; 5] = [
            &[7],
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            &[300, 300, 300, 2047, 2047, 1],
            &[5_000, 5_001, 5_002, 100, 7, 7, 7, 7, 7, 7, 7, 7],
            &[1 << 39, (1 << 39) + 1, (1 << 39) + 2, 12, 13],
        ];
        for values in sets {
            let mut m = Tally::new();
            values.iter().for_each(|&v| m.record(v));
            let s = m.stats();
            let n = values.len() as u128;
            let total: u128 = values.iter().map(|&v| u128::from(v)).sum();
            let squares: u128 = values.iter().map(|&v| u128::from(v) * u128::from(v)).sum();
            assert_eq!((u128::from(s.total), s.squares), (total, Some(squares)));
            let mean = total as f64 / n as f64;
            let deviations: f64 = values.iter().map(|&v| (v as f64 - mean).powi(2)).sum();
            assert!((s.mean.unwrap() - mean).abs() <= mean * 1e-15);
            let stdev = (deviations / n as f64).sqrt();
            assert!(
                (s.stdev.unwrap() - stdev).abs() <= 1e-9 * stdev.max(1.0),
                "{values:?}"
            );
            let mut sorted = values.to_vec();
            sorted.sort_unstable();
            let quantiles = [
                (1, 2, s.p50, "p50"),
                (9, 10, s.p90, "p90"),
                (99, 100, s.p99, "p99"),
            ];
            for (num, den, got, name) in quantiles {
                let rank = (n * num).div_ceil(den).max(1) as usize;
                let truth = sorted[rank - 1];
                let got = got.unwrap();
                if truth < EXACT_BELOW {
                    assert_eq!(got, truth, "{name} of {values:?}");
                } else {
                    assert!((got as f64 - truth as f64).abs() <= truth as f64 * PRECISION);
                }
                let labelled = s.approximate.iter().any(|a| a == name);
                // Unlabelled means exact, and every value below 2,048 is.
                assert!(labelled || got == truth, "{name} of {values:?}");
                assert!(!labelled || truth >= EXACT_BELOW, "{name} of {values:?}");
                approximate += usize::from(labelled);
                compared += 1;
            }
        }
        assert_eq!((compared, approximate), (15, 5));
        let empty = Tally::new().stats();
        assert_eq!((empty.count, empty.total, empty.squares), (0, 0, Some(0)));
        assert_eq!(
            (empty.min, empty.mean, empty.p50, empty.stdev),
            (None, None, None, None)
        );
        // A summary from before squares were kept: exact from the histogram below 2,048 only.
        let mut small = Tally::new();
        [3, 2047, 2047].iter().for_each(|&v| small.record(v));
        let hist = small.histogram().into_owned();
        let old = Tally::from_parts(3, 4097, None, 3, 2047, hist);
        assert_eq!(old.stats().squares, small.stats().squares);
        let mut large = Tally::new();
        large.record(5_000);
        let old = Tally::from_parts(1, 5_000, None, 5_000, 5_000, large.histogram().into_owned());
        let s = old.stats();
        assert_eq!(
            (s.squares, s.approximate.clone()),
            (None, vec!["stdev".to_string()])
        );
        let mut merged = large.clone();
        merged.add(&old);
        assert_eq!(merged.squares(), None);
    }
}
