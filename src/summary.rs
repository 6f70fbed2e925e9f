//! Accumulators over many games, the JSON summary, and the merge of shard summaries.
//!
//! Everything a summary says is derived from integer counts and HdrHistograms, which add
//! exactly: a sweep split into shards (or over threads) and merged gives the very same summary as
//! one sweep, whatever the split.

use crate::engine::{GameResult, Outcome};
use crate::rules::MAX_PLAYERS;
use base64::Engine as _;
use hdrhistogram::serialization::{Deserializer, Serializer, V2DeflateSerializer};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use thiserror::Error;

/// Significant digits every histogram keeps (values below 2,048 are exact).
pub const SIGFIG: u8 = 3;
/// Largest value a histogram tracks exactly to `SIGFIG` digits; larger ones saturate.
pub const HIGHEST: u64 = 1 << 40;

/// The five measured quantities, in the order the summary lists them.
pub const METRICS: [&str; 5] = ["rounds", "battles", "wars", "cycle_start", "cycle_length"];

/// Exact count, total, minimum and maximum of one quantity, plus its histogram.
#[derive(Clone, Debug)]
pub struct Metric {
    pub count: u64,
    pub total: u64,
    pub min: u64,
    pub max: u64,
    pub hist: Histogram<u64>,
}

impl Metric {
    pub fn new() -> Metric {
        Metric {
            count: 0,
            total: 0,
            min: u64::MAX,
            max: 0,
            hist: Histogram::new_with_bounds(1, HIGHEST, SIGFIG).expect("valid bounds"),
        }
    }

    #[inline]
    pub fn record(&mut self, value: u64) {
        self.count += 1;
        self.total += value;
        self.min = self.min.min(value);
        self.max = self.max.max(value);
        self.hist.saturating_record(value);
    }

    pub fn add(&mut self, other: &Metric) {
        self.count += other.count;
        self.total += other.total;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.hist
            .add(&other.hist)
            .expect("histograms share their bounds");
    }

    pub fn stats(&self) -> Stats {
        let empty = self.count == 0;
        // Bucketed values are clamped to the exact extremes, so that p99.9 never exceeds max.
        let at = |q: f64| {
            if empty {
                0
            } else {
                self.hist.value_at_quantile(q).clamp(self.min, self.max)
            }
        };
        Stats {
            count: self.count,
            total: self.total,
            min: if empty { 0 } else { self.min },
            max: self.max,
            mean: if empty { 0.0 } else { self.hist.mean() },
            stdev: if empty { 0.0 } else { self.hist.stdev() },
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
}

impl Accumulator {
    pub fn record(&mut self, result: &GameResult) {
        self.games += 1;
        self.battles_played += result.battles;
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
                false
            }
        };
        if finished {
            self.metrics[0].record(result.rounds);
            self.metrics[1].record(result.battles);
            self.metrics[2].record(result.wars);
        }
    }

    pub fn add(&mut self, other: &Accumulator) {
        self.games += other.games;
        for (a, b) in self.wins.iter_mut().zip(other.wins) {
            *a += b;
        }
        self.draws += other.draws;
        self.infinite += other.infinite;
        self.capped += other.capped;
        self.battles_played += other.battles_played;
        for (a, b) in self.metrics.iter_mut().zip(&other.metrics) {
            a.add(b);
        }
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

/// The seeds a sweep covered: `start..end`, end excluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seeds {
    pub start: u64,
    pub end: u128,
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
    pub gather: String,
    pub shuffle: String,
    pub players: usize,
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
    pub histograms: Histograms,
    pub elapsed_seconds: f64,
    pub games_per_second: f64,
}

/// What a summary is about, apart from its numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub rules: String,
    pub gather: String,
    pub shuffle: String,
    pub players: usize,
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
            gather: setting.gather.clone(),
            shuffle: setting.shuffle.clone(),
            players: setting.players,
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
            histograms: Histograms {
                rounds: encode(&m[0].hist),
                battles: encode(&m[1].hist),
                wars: encode(&m[2].hist),
                cycle_start: encode(&m[3].hist),
                cycle_length: encode(&m[4].hist),
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
            gather: self.gather.clone(),
            shuffle: self.shuffle.clone(),
            players: self.players,
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
            ..Accumulator::default()
        };
        acc.wins[..self.players].copy_from_slice(&self.wins);
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
                    "the {} histogram holds {} games but its count says {}",
                    METRICS[i],
                    hist.len(),
                    stats.count
                )));
            }
            acc.metrics[i] = Metric {
                count: stats.count,
                total: stats.total,
                min: if stats.count == 0 {
                    u64::MAX
                } else {
                    stats.min
                },
                max: stats.max,
                hist,
            };
        }
        Ok(acc)
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
            if shard.setting() != setting {
                return Err(SummaryError::Mismatch(format!(
                    "cannot merge different settings: {} and {}",
                    describe(&setting),
                    describe(&shard.setting())
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
            acc.add(&shard.accumulator()?);
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
            "{} rules, {} gather, {} shuffle, {} players, seeds {}..{}",
            self.rules, self.gather, self.shuffle, self.players, self.seeds.start, self.seeds.end
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
        let _ = writeln!(
            out,
            "\n{:.2} s, {} games/s",
            self.elapsed_seconds,
            group(self.games_per_second.round() as u64)
        );
        out
    }
}

fn describe(s: &Setting) -> String {
    format!(
        "{} rules, {} gather, {} shuffle, {} players",
        s.rules, s.gather, s.shuffle, s.players
    )
}

/// `1234567` as `1,234,567`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let back = decode("rounds", &encode(&m.hist)).unwrap();
        assert_eq!(back, m.hist);
    }
}
