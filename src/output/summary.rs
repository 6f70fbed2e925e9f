//! Accumulators over many games, the JSON summary, and the merge of shard summaries.
//!
//! Everything a summary says is derived from integer counts and HdrHistograms, which add
//! exactly: a sweep split into shards (or over threads) and merged gives the very same summary as
//! one sweep, whatever the split.

pub use crate::deal::seeds::Seeds;
use crate::deal::Shuffle;
use crate::engine::{GameResult, Outcome};
use crate::rules::{Rules, MAX_PLAYERS};
use base64::Engine as _;
use hdrhistogram::serialization::{Deserializer, Serializer, V2DeflateSerializer};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt::Write as _;
use thiserror::Error;

/// Significant digits every histogram keeps (values below 2,048 are exact).
pub const SIGFIG: u8 = 3;
/// Largest value a histogram tracks exactly to `SIGFIG` digits; larger ones saturate.
pub const HIGHEST: u64 = 1 << 40;

/// The five measured quantities, in the order the summary lists them.
pub const METRICS: [&str; 5] = ["rounds", "battles", "wars", "cycle_start", "cycle_length"];

/// Values below this are tallied in a plain array before they reach the histogram: recording
/// one is an increment, where the histogram's own record costs tens of instructions a value.
const SMALL: usize = 512;

/// Exact count, total, minimum and maximum of one quantity, plus its histogram.
///
/// Values below `SMALL` are only counted, one increment each, in `small`; everything else is
/// derived from those counts when read. Larger values, and any summary read back from a file,
/// are held in `hist` with their exact tallies in `held`.
#[derive(Clone, Debug)]
pub struct Metric {
    held: Held,
    /// Every value `held` covers.
    hist: Histogram<u64>,
    /// How many times each value below `SMALL` was recorded (not in `hist`).
    small: Box<[u64; SMALL]>,
}

/// Count, total and extremes of the values held in a metric's histogram.
#[derive(Clone, Copy, Debug)]
struct Held {
    count: u64,
    total: u64,
    min: u64,
    max: u64,
}

impl Metric {
    pub fn new() -> Metric {
        Metric {
            held: Held {
                count: 0,
                total: 0,
                min: u64::MAX,
                max: 0,
            },
            hist: Histogram::new_with_bounds(1, HIGHEST, SIGFIG).expect("valid bounds"),
            small: Box::new([0; SMALL]),
        }
    }

    /// A metric read from a summary: its exact tallies and its histogram.
    fn from_parts(count: u64, total: u64, min: u64, max: u64, hist: Histogram<u64>) -> Metric {
        Metric {
            held: Held {
                count,
                total,
                min,
                max,
            },
            hist,
            ..Metric::new()
        }
    }

    #[inline]
    pub fn record(&mut self, value: u64) {
        match self.small.get_mut(value as usize) {
            Some(n) => *n += 1,
            None => self.hold(value),
        }
    }

    #[inline(never)]
    fn hold(&mut self, value: u64) {
        let held = &mut self.held;
        held.count += 1;
        held.total += value;
        held.min = held.min.min(value);
        held.max = held.max.max(value);
        self.hist.saturating_record(value);
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

    pub fn total(&self) -> u64 {
        self.checked_total()
            .expect("the tallies of one sweep fit in 64 bits")
    }

    /// The smallest value recorded (`u64::MAX` when none was).
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

    pub fn add(&mut self, other: &Metric) {
        self.try_add(other)
            .expect("the tallies of one sweep fit in 64 bits");
    }

    /// Adds `other`, or says which sum would overflow (summaries read from files).
    pub fn try_add(&mut self, other: &Metric) -> Result<(), &'static str> {
        self.count()
            .checked_add(other.count())
            .ok_or("game count")?;
        let (a, b) = (self.checked_total(), other.checked_total());
        a.zip(b)
            .and_then(|(a, b)| a.checked_add(b))
            .ok_or("total")?;
        let (held, more) = (&mut self.held, &other.held);
        held.count += more.count;
        held.total += more.total;
        held.min = held.min.min(more.min);
        held.max = held.max.max(more.max);
        self.hist.add(&other.hist).map_err(|_| "histogram")?;
        for (n, &m) in self.small.iter_mut().zip(other.small.iter()) {
            *n += m;
        }
        Ok(())
    }

    pub fn stats(&self) -> Stats {
        let (count, min, max) = (self.count(), self.min(), self.max());
        let empty = count == 0;
        let hist = self.histogram();
        // Bucketed values are clamped to the exact extremes, so that p99.9 never exceeds max.
        let at = |q: f64| {
            if empty {
                0
            } else {
                hist.value_at_quantile(q).clamp(min, max)
            }
        };
        Stats {
            count,
            total: self.total(),
            min: if empty { 0 } else { min },
            max,
            mean: if empty { 0.0 } else { hist.mean() },
            stdev: if empty { 0.0 } else { hist.stdev() },
            p50: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            p999: at(0.999),
        }
    }
}

impl Default for Metric {
    fn default() -> Self {
        Metric::new()
    }
}

/// Tallies of many games of one setting.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    pub games: u64,
    pub wins: [u64; MAX_PLAYERS],
    pub draws: u64,
    pub infinite: u64,
    pub capped: u64,
    /// Rounds, battles, wars of finished games; cycle start and length of infinite ones.
    pub metrics: [Metric; 5],
    /// Battles of every game: a finished or capped game's, and an infinite game's up to the end
    /// of its first cycle (round `cycle_start + cycle_length`). The measure of work done.
    pub battles_played: u64,
    pub records: Records,
}

/// One record game: its value and its seed (the smallest seed among equal values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub value: u64,
    pub seed: u64,
}

/// The record games of a sweep. Each is the best value with the smallest seed on a tie, so
/// records combine exactly in any order (threads, shards).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Records {
    pub most_rounds: Option<Record>,
    pub most_battles: Option<Record>,
    pub most_wars: Option<Record>,
    pub longest_cycle: Option<Record>,
    pub shortest_cycle: Option<Record>,
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
    /// Counts the game dealt by `seed`.
    pub fn record(&mut self, seed: u64, result: &GameResult) {
        self.games += 1;
        self.battles_played += result.battles;
        let at = |value| Record { value, seed };
        let r = &mut self.records;
        let finished = match result.outcome {
            Outcome::Win(p) => {
                self.wins[p] += 1;
                true
            }
            Outcome::Draw => {
                self.draws += 1;
                true
            }
            Outcome::Capped => {
                self.capped += 1;
                false
            }
            Outcome::Infinite {
                cycle_start,
                cycle_length,
            } => {
                self.infinite += 1;
                self.metrics[3].record(cycle_start);
                self.metrics[4].record(cycle_length);
                keep(&mut r.longest_cycle, at(cycle_length), false);
                keep(&mut r.shortest_cycle, at(cycle_length), true);
                keep(&mut r.latest_cycle_start, at(cycle_start), false);
                false
            }
        };
        if finished {
            self.metrics[0].record(result.rounds);
            self.metrics[1].record(result.battles);
            self.metrics[2].record(result.wars);
            keep(&mut r.most_rounds, at(result.rounds), false);
            keep(&mut r.most_battles, at(result.battles), false);
            keep(&mut r.most_wars, at(result.wars), false);
        }
    }

    pub fn add(&mut self, other: &Accumulator) {
        self.try_add(other)
            .expect("the tallies of one sweep fit in 64 bits");
    }

    /// Adds `other`, or names the count that would overflow (summaries read from files).
    pub fn try_add(&mut self, other: &Accumulator) -> Result<(), String> {
        let sum = |a: &mut u64, b: u64, what: &str| -> Result<(), String> {
            *a = a
                .checked_add(b)
                .ok_or_else(|| format!("the {what} add up to more than 2^64"))?;
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
        self.records.add(&other.records);
        for (name, (a, b)) in METRICS
            .iter()
            .zip(self.metrics.iter_mut().zip(&other.metrics))
        {
            a.try_add(b)
                .map_err(|part| format!("the {name} {part}s add up to more than 2^64"))?;
        }
        Ok(())
    }
}

/// One quantity as the summary prints it: count, total, min, max exact; the rest from the
/// histogram.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub count: u64,
    pub total: u64,
    pub min: u64,
    pub max: u64,
    pub mean: f64,
    pub stdev: f64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub p999: u64,
}

/// Reads and checks the summary at `path` (files from other machines are untrusted input), with
/// the accumulator it was written from; every error names the file.
pub fn read(path: &std::path::Path) -> Result<(Summary, Accumulator), crate::error::Error> {
    use crate::error::Error;
    let text =
        std::fs::read(path).map_err(Error::context(format!("cannot read {}", path.display())))?;
    let summary = serde_json::from_slice::<Summary>(&text)
        .map_err(|e| Error::msg(format!("{} is not a warsweep summary: {e}", path.display())))?;
    let acc = summary.accumulator().map_err(|e| {
        Error::msg(format!(
            "{} is not a consistent summary: {e}",
            path.display()
        ))
    })?;
    Ok((summary, acc))
}

/// Histograms as base64 HdrHistogram V2 (deflate) strings, one per metric.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Histograms {
    pub rounds: String,
    pub battles: String,
    pub wars: String,
    pub cycle_start: String,
    pub cycle_length: String,
}

/// The JSON summary of a sweep, with exactly the keys scripts rely on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    pub rules: String,
    pub deck: String,
    pub players: usize,
    pub face_down: usize,
    pub short_war: String,
    pub gather: String,
    pub deal: String,
    pub ranking: String,
    pub shuffle: String,
    pub max_rounds: u64,
    pub seeds: Seeds,
    pub games: u64,
    pub wins: Vec<u64>,
    pub draws: u64,
    pub infinite: u64,
    pub capped: u64,
    pub rounds: Stats,
    pub battles: Stats,
    pub wars: Stats,
    pub cycle_start: Stats,
    pub cycle_length: Stats,
    /// See `Accumulator::battles_played`.
    pub battles_played: u64,
    pub records: Records,
    pub histograms: Histograms,
    pub elapsed_seconds: f64,
    pub games_per_second: f64,
}

/// What a summary is about, apart from its numbers: every part of the rules, the shuffle, and
/// the round cap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub rules: String,
    pub deck: String,
    pub players: usize,
    pub face_down: usize,
    pub short_war: String,
    pub gather: String,
    pub deal: String,
    pub ranking: String,
    pub shuffle: String,
    pub max_rounds: u64,
}

impl Setting {
    /// The setting of a sweep of `rules` dealt by `shuffle`.
    pub fn of(rules: &Rules, shuffle: Shuffle, max_rounds: u64) -> Setting {
        Setting {
            rules: rules.preset.name().to_string(),
            deck: rules.deck.to_string(),
            players: rules.players,
            face_down: rules.face_down,
            short_war: rules.short_war.name().to_string(),
            gather: rules.gather.name().to_string(),
            deal: rules.deal.name().to_string(),
            ranking: rules.ranking.name().to_string(),
            shuffle: shuffle.name().to_string(),
            max_rounds,
        }
    }

    /// Each part as `(name, value)`, in the order the table prints them.
    pub fn parts(&self) -> [(&'static str, String); 10] {
        [
            ("rules", self.rules.clone()),
            ("deck", self.deck.clone()),
            ("players", self.players.to_string()),
            ("face-down", self.face_down.to_string()),
            ("short-war", self.short_war.clone()),
            ("gather", self.gather.clone()),
            ("deal", self.deal.clone()),
            ("ranking", self.ranking.clone()),
            ("shuffle", self.shuffle.clone()),
            ("max-rounds", self.max_rounds.to_string()),
        ]
    }

    /// `shortened rules, deck 4x13, 2 players, ...`: the whole setting in one line.
    pub fn describe(&self) -> String {
        let p = self.parts();
        format!(
            "{} rules, deck {}, {} players, {} face down, short war {}, {} gather, {} deal, {} ranking, {} shuffle, max {} rounds",
            p[0].1, p[1].1, p[2].1, p[3].1, p[4].1, p[5].1, p[6].1, p[7].1, p[8].1, p[9].1
        )
    }

    /// The first part in which `self` and `other` differ, as `deck 4x4 and 4x5`.
    pub fn difference(&self, other: &Setting) -> Option<String> {
        self.parts()
            .into_iter()
            .zip(other.parts())
            .find(|(a, b)| a.1 != b.1)
            .map(|(a, b)| format!("{} {} and {}", a.0, a.1, b.1))
    }
}

#[derive(Error, Debug)]
pub enum SummaryError {
    #[error("{0}")]
    Mismatch(String),
    #[error("the {metric} histogram is not a valid base64 HdrHistogram: {reason}")]
    Histogram {
        metric: &'static str,
        reason: String,
    },
}

fn encode(hist: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2DeflateSerializer::new()
        .serialize(hist, &mut bytes)
        .expect("serializing to memory cannot fail");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn decode(metric: &'static str, text: &str) -> Result<Histogram<u64>, SummaryError> {
    let bad = |reason: String| SummaryError::Histogram { metric, reason };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| bad(e.to_string()))?;
    let hist: Histogram<u64> = Deserializer::new()
        .deserialize(&mut bytes.as_slice())
        .map_err(|e| bad(format!("{e:?}")))?;
    // Bring it to the common bounds so that it adds to any other.
    let mut common = Metric::new().hist;
    common.add(&hist).map_err(|e| bad(format!("{e:?}")))?;
    Ok(common)
}

impl Summary {
    /// The summary of `acc`, for `setting` over `seeds`, timed at `elapsed_seconds`.
    pub fn new(
        setting: &Setting,
        seeds: Seeds,
        acc: &Accumulator,
        elapsed_seconds: f64,
    ) -> Summary {
        let m = &acc.metrics;
        Summary {
            rules: setting.rules.clone(),
            deck: setting.deck.clone(),
            players: setting.players,
            face_down: setting.face_down,
            short_war: setting.short_war.clone(),
            gather: setting.gather.clone(),
            deal: setting.deal.clone(),
            ranking: setting.ranking.clone(),
            shuffle: setting.shuffle.clone(),
            max_rounds: setting.max_rounds,
            seeds,
            games: acc.games,
            wins: acc.wins[..setting.players].to_vec(),
            draws: acc.draws,
            infinite: acc.infinite,
            capped: acc.capped,
            rounds: m[0].stats(),
            battles: m[1].stats(),
            wars: m[2].stats(),
            cycle_start: m[3].stats(),
            cycle_length: m[4].stats(),
            battles_played: acc.battles_played,
            records: acc.records,
            histograms: Histograms {
                rounds: encode(&m[0].histogram()),
                battles: encode(&m[1].histogram()),
                wars: encode(&m[2].histogram()),
                cycle_start: encode(&m[3].histogram()),
                cycle_length: encode(&m[4].histogram()),
            },
            elapsed_seconds,
            games_per_second: if elapsed_seconds > 0.0 {
                acc.games as f64 / elapsed_seconds
            } else {
                0.0
            },
        }
    }

    pub fn setting(&self) -> Setting {
        Setting {
            rules: self.rules.clone(),
            deck: self.deck.clone(),
            players: self.players,
            face_down: self.face_down,
            short_war: self.short_war.clone(),
            gather: self.gather.clone(),
            deal: self.deal.clone(),
            ranking: self.ranking.clone(),
            shuffle: self.shuffle.clone(),
            max_rounds: self.max_rounds,
        }
    }

    /// The accumulator this summary was written from (exact: histograms carry every count).
    pub fn accumulator(&self) -> Result<Accumulator, SummaryError> {
        if self.wins.len() != self.players || self.players > MAX_PLAYERS {
            return Err(SummaryError::Mismatch(format!(
                "the summary lists {} win counts for {} players",
                self.wins.len(),
                self.players
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
        acc.wins[..self.players].copy_from_slice(&self.wins);
        self.check_counts()?;
        let h = &self.histograms;
        let parts = [
            (&self.rounds, &h.rounds),
            (&self.battles, &h.battles),
            (&self.wars, &h.wars),
            (&self.cycle_start, &h.cycle_start),
            (&self.cycle_length, &h.cycle_length),
        ];
        for (i, (stats, text)) in parts.into_iter().enumerate() {
            let hist = decode(METRICS[i], text)?;
            if hist.len() != stats.count {
                return Err(SummaryError::Mismatch(format!(
                    "the {} histogram holds {} but its count says {}",
                    METRICS[i],
                    crate::text::count(hist.len(), "game"),
                    stats.count
                )));
            }
            let min = if stats.count == 0 {
                u64::MAX
            } else {
                stats.min
            };
            acc.metrics[i] = Metric::from_parts(stats.count, stats.total, min, stats.max, hist);
        }
        Ok(acc)
    }

    /// Checks that the counts agree with each other and with the seed range, so that a doctored
    /// or damaged summary is refused rather than merged.
    fn check_counts(&self) -> Result<(), SummaryError> {
        let bad = |what: String| Err(SummaryError::Mismatch(what));
        let seeds = self.seeds.end.checked_sub(self.seeds.start as u128);
        if seeds.is_none() || self.seeds.end > 1u128 << 64 {
            return bad(format!(
                "its seed range {}..{} is not a range of seeds",
                self.seeds.start, self.seeds.end
            ));
        }
        if Some(self.games as u128) != seeds {
            return bad(format!(
                "it counts {} over the {} {}..{}",
                crate::text::count(self.games, "game"),
                crate::text::count(seeds.unwrap_or(0), "seed"),
                self.seeds.start,
                self.seeds.end
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
        let parts = [
            ("rounds", &self.rounds, finished),
            ("battles", &self.battles, finished),
            ("wars", &self.wars, finished),
            ("cycle_start", &self.cycle_start, Some(self.infinite)),
            ("cycle_length", &self.cycle_length, Some(self.infinite)),
        ];
        for (name, stats, games) in parts {
            if Some(stats.count) != games {
                return bad(format!(
                    "its {name} count {} is not the number of games it describes",
                    stats.count
                ));
            }
            if stats.count > 0 && stats.min > stats.max {
                return bad(format!("its {name} minimum is above its maximum"));
            }
            let (low, high) = (
                (stats.min as u128) * stats.count as u128,
                (stats.max as u128) * stats.count as u128,
            );
            if stats.count > 0 && !(low..=high).contains(&(stats.total as u128)) {
                return bad(format!(
                    "its {name} total does not lie between count x min and count x max"
                ));
            }
        }
        if !(self.elapsed_seconds.is_finite() && self.elapsed_seconds >= 0.0) {
            return bad("its elapsed_seconds is not a duration".to_string());
        }
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
            let expected = if largest { stats.max } else { stats.min };
            let fits = match record {
                None => stats.count == 0,
                Some(rec) => {
                    stats.count > 0
                        && rec.value == expected
                        && (self.seeds.start as u128..self.seeds.end).contains(&(rec.seed as u128))
                }
            };
            if !fits {
                return bad(format!(
                    "its {name} record does not match its counts and seeds"
                ));
            }
        }
        Ok(())
    }

    /// Merges shard summaries of one setting over disjoint seed ranges that join up into one
    /// range: the result is what one sweep over that range writes (timings are added up).
    pub fn merge(shards: &[Summary]) -> Result<Summary, SummaryError> {
        let first = shards
            .first()
            .ok_or_else(|| SummaryError::Mismatch("no summaries to merge".into()))?;
        let setting = first.setting();
        let mut order: Vec<&Summary> = shards.iter().collect();
        order.sort_by_key(|s| s.seeds.start);
        let mut acc = Accumulator::default();
        let mut elapsed = 0.0;
        for (i, shard) in order.iter().enumerate() {
            if let Some(difference) = setting.difference(&shard.setting()) {
                return Err(SummaryError::Mismatch(format!(
                    "cannot merge different settings: {difference}"
                )));
            }
            if i > 0 {
                let prev = order[i - 1].seeds;
                let here = shard.seeds;
                if (here.start as u128) < prev.end {
                    return Err(SummaryError::Mismatch(format!(
                        "seed ranges {}..{} and {}..{} overlap",
                        prev.start, prev.end, here.start, here.end
                    )));
                }
                if (here.start as u128) > prev.end {
                    return Err(SummaryError::Mismatch(format!(
                        "seeds {}..{} are in no summary: the ranges must join up",
                        prev.end, here.start
                    )));
                }
            }
            acc.try_add(&shard.accumulator()?)
                .map_err(SummaryError::Mismatch)?;
            elapsed += shard.elapsed_seconds;
        }
        let seeds = Seeds {
            start: order[0].seeds.start,
            end: order[order.len() - 1].seeds.end,
        };
        Ok(Summary::new(&setting, seeds, &acc, elapsed))
    }

    /// The summary as a readable table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let games = self.games.max(1) as f64;
        let pct = |n: u64| 100.0 * n as f64 / games;
        let _ = writeln!(
            out,
            "{}, seeds {}..{}",
            self.setting().describe(),
            self.seeds.start,
            self.seeds.end
        );
        let _ = writeln!(out, "{:<16}{:>12}", "games", group(self.games));
        for (p, &w) in self.wins.iter().enumerate() {
            let label = format!("player {} wins", p + 1);
            let _ = writeln!(out, "{label:<16}{:>12}  {:6.2}%", group(w), pct(w));
        }
        for (label, n) in [
            ("draws", self.draws),
            ("infinite", self.infinite),
            ("capped", self.capped),
        ] {
            let _ = writeln!(out, "{label:<16}{:>12}  {:6.2}%", group(n), pct(n));
        }
        let _ = writeln!(
            out,
            "\n{:<13}{:>10}{:>10}{:>9}{:>7}{:>8}{:>8}{:>8}{:>8}{:>8}",
            "", "games", "mean", "stdev", "min", "p50", "p90", "p99", "p99.9", "max"
        );
        let rows = [
            ("rounds", &self.rounds),
            ("battles", &self.battles),
            ("wars", &self.wars),
            ("cycle start", &self.cycle_start),
            ("cycle length", &self.cycle_length),
        ];
        for (label, s) in rows {
            let _ = writeln!(
                out,
                "{label:<13}{:>10}{:>10.1}{:>9.1}{:>7}{:>8}{:>8}{:>8}{:>8}{:>8}",
                group(s.count),
                s.mean,
                s.stdev,
                s.min,
                s.p50,
                s.p90,
                s.p99,
                s.p999,
                s.max
            );
        }
        let _ = writeln!(out, "\n{:<20}{:>12}  {:>20}", "records", "value", "seed");
        for (label, record) in self.records.rows() {
            match record {
                Some(r) => {
                    let _ = writeln!(out, "{label:<20}{:>12}  {:>20}", group(r.value), r.seed);
                }
                None => {
                    let _ = writeln!(out, "{label:<20}{:>12}  {:>20}", "-", "-");
                }
            }
        }
        let _ = writeln!(
            out,
            "\n{:.2} s, {} games/s",
            self.elapsed_seconds,
            group(self.games_per_second.round() as u64)
        );
        out
    }
}

/// `1234567` as `1,234,567`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_of_three_digits() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (2097151, "2,097,151"),
        ];
        for (n, text) in cases {
            assert_eq!(group(n), text);
        }
        assert_eq!(group(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(2_097_151), "2,097,151");
    }

    #[test]
    fn histograms_survive_base64() {
        let mut m = Metric::new();
        for v in [0, 1, 5, 2047, 2048, 100_000, 7_777_777] {
            m.record(v);
        }
        let back = decode("rounds", &encode(&m.histogram())).unwrap();
        assert_eq!(back, *m.histogram());
    }

    /// Small values (counted in an array) and large ones (in the histogram) give the same
    /// tallies as a plain histogram, recorded in one metric or split and added, and after a
    /// round trip through a summary's parts.
    #[test]
    fn small_and_large_values_tally_exactly() {
        let values = [0, 3, 3, 511, 512, 5_000, 2, 1 << 41, 77];
        let mut plain: Histogram<u64> = Histogram::new_with_bounds(1, HIGHEST, SIGFIG).unwrap();
        let (mut one, mut left, mut right) = (Metric::new(), Metric::new(), Metric::new());
        for (i, &v) in values.iter().enumerate() {
            plain.saturating_record(v);
            one.record(v);
            if i % 2 == 0 {
                left.record(v)
            } else {
                right.record(v)
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
        let back = Metric::from_parts(s.count, s.total, s.min, s.max, one.histogram().into_owned());
        let mut merged = back.clone();
        merged.add(&one);
        assert_eq!(
            (merged.count(), merged.total(), merged.min()),
            (18, 2 * total, 0)
        );
        assert_eq!(back.stats().p50, s.p50);
        assert_eq!(
            Metric::new().try_add(&Metric::from_parts(1, u64::MAX, 9, 9, plain)),
            Ok(())
        );
        let mut full = Metric::from_parts(1, u64::MAX, 9, 9, Metric::new().hist);
        full.record(1);
        assert_eq!(full.try_add(&one), Err("total"));
    }
}
