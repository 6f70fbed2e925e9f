//! A hunt's results as a file: the setting, the budget, the best deals and the log, in JSON,
//! so that the hunts of a Slurm array's tasks join into one, and a later hunt starts from
//! what an earlier one found.

use super::{Found, Goal, Hunt, HuntError, Hunted, Improvement};
use crate::engine::{Outcome, DEFAULT_MAX_ROUNDS};
use crate::output::metric::Metric;
use crate::output::setting::{SettingText, SweepSetting};
use crate::output::summary::SummaryError;
use crate::rules::Rules;
use crate::text::{count, group};
use crate::Shuffle;
use serde::{Deserialize, Serialize};

/// The hunt report format this program writes.
const VERSION: u32 = 1;

/// A hunt and what it found, as its JSON file holds them.
///
/// ```
/// use warsweep::hunt::{Goal, Hunt, Report};
/// use warsweep::{Deck, Metric, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
/// let hunt = Hunt::new(rules, Goal::Longest(Metric::Rounds)).games(Some(5_000));
/// let part = |k| -> Result<Report, Box<dyn std::error::Error>> {
///     let hunt = hunt.clone().stream(k, 2);
///     Ok(Report::of(&hunt, &hunt.run(&|_| {}, &Default::default())?))
/// };
/// let (a, b) = (part(0)?, part(1)?);
/// let joined = Report::join(&[a.clone(), b.clone()])?;
/// assert_eq!(joined.games(), 10_000);
/// assert_eq!(joined.deals()?.len(), 10); // the best ten of both streams
/// assert_eq!(Report::from_json(&joined.to_json())?, joined);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The format's version.
    pub(crate) version: u32,
    /// The rules (`shuffle` and `max_rounds` as every hunt has them).
    #[serde(flatten)]
    pub(crate) setting: SettingText,
    /// `longest` or `cycles`.
    pub(crate) goal: String,
    /// The metric of the longest game (`rounds`, `battles`, `wars`).
    pub(crate) metric: String,
    /// The strategy.
    pub(crate) strategy: String,
    /// The seed.
    pub(crate) seed: u64,
    /// The streams hunted, each as `k/n` (one for a hunt, every task's once joined).
    pub(crate) streams: Vec<String>,
    /// Games played.
    pub(crate) games: u64,
    /// States the backward strategy expanded.
    pub(crate) steps: u64,
    /// Seconds, added up over the streams.
    pub(crate) seconds: f64,
    /// Whether it was stopped before its budget was spent.
    pub(crate) stopped: bool,
    /// The best deals, best first.
    pub(crate) best: Vec<Deal>,
    /// Each improvement, by stream and then in order.
    pub(crate) log: Vec<Logged>,
}

/// A deal of a report: the hands (values from 1, `1,2|3,4`) and its game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Deal {
    /// Each hand's values separated by commas, hands by `|`.
    pub(crate) hands: String,
    /// What it counts for: the metric, or its cycle's length.
    pub(crate) value: u64,
    /// `win`, `draw` or `infinite`.
    pub(crate) outcome: String,
    /// The winner, from 1.
    pub(crate) winner: Option<usize>,
    /// Rounds, battles and wars.
    pub(crate) rounds: u64,
    /// Battles.
    pub(crate) battles: u64,
    /// Wars.
    pub(crate) wars: u64,
    /// Where an infinite game's cycle starts, and its length.
    pub(crate) cycle_start: Option<u64>,
    /// Its cycle's length.
    pub(crate) cycle_length: Option<u64>,
    /// Its cycle's least state.
    pub(crate) cycle: Option<String>,
    /// Games its stream had played when it was found.
    pub(crate) games: u64,
    /// Its stream (`k/n`).
    pub(crate) stream: String,
}

/// An improvement in a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Logged {
    /// Its stream (`k/n`).
    pub(crate) stream: String,
    /// Seconds since its stream's hunt started.
    pub(crate) seconds: f64,
    /// Games its stream had played.
    pub(crate) games: u64,
    /// Its value.
    pub(crate) value: u64,
    /// The hands, as [`Deal::hands`].
    pub(crate) hands: String,
}

/// Why a report cannot be read or joined.
///
/// ```
/// use warsweep::hunt::{Report, ReportError};
/// assert!(matches!(Report::from_json("kept"), Err(ReportError::Format(_))));
/// assert!(matches!(Report::join(&[]), Err(ReportError::None)));
/// ```
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Not a hunt report.
    #[error("it is not a hunt report: {0}")]
    Format(String),
    /// A report of a newer format.
    #[error("it is a hunt report of format {0}, newer than this warsweep's ({VERSION}): use a newer warsweep")]
    Newer(u32),
    /// Reports of different hunts.
    #[error("the reports are of different hunts: {0}")]
    Different(String),
    /// No report to join.
    #[error("no report to join")]
    None,
    /// A deal that is not one of the report's setting.
    #[error("{0}")]
    Deal(#[from] HuntError),
}

impl Report {
    /// The report of `hunt`, which found `hunted`.
    pub fn of(hunt: &Hunt, hunted: &Hunted) -> Report {
        let stream = format!("{}/{}", hunt.stream.0, hunt.stream.1);
        let (goal, metric) = match hunt.goal {
            Goal::Longest(metric) => ("longest", metric),
            Goal::Cycles => ("cycles", Metric::Rounds),
        };
        Report {
            version: VERSION,
            setting: SweepSetting::of(&hunt.rules, Shuffle::Splitmix, DEFAULT_MAX_ROUNDS).text(),
            goal: goal.to_string(),
            metric: metric.to_string(),
            strategy: hunt.strategy.to_string(),
            seed: hunt.seed,
            streams: vec![stream.clone()],
            games: hunted.games,
            steps: hunted.steps,
            seconds: hunted.seconds,
            stopped: hunted.stopped,
            best: hunted.best.iter().map(|f| Deal::of(f, &stream)).collect(),
            log: hunted.log.iter().map(|i| Logged::of(i, &stream)).collect(),
        }
    }

    /// Games played, by every stream it joins.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The report as JSON, as `--out` writes it.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a report serializes");
        text.push('\n');
        text
    }

    /// A report read from its JSON, checked: its format, its setting, and each deal a deal of
    /// that setting.
    pub fn from_json(text: &str) -> Result<Report, ReportError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ReportError::Format(e.to_string()))?;
        if let Some(version) = value.get("version").and_then(serde_json::Value::as_u64) {
            if version > u64::from(VERSION) {
                return Err(ReportError::Newer(version as u32));
            }
        }
        let report: Report =
            serde_json::from_value(value).map_err(|e| ReportError::Format(e.to_string()))?;
        let rules = report.rules()?;
        for deal in &report.best {
            let hands = parse_hands(&deal.hands).map_err(ReportError::Format)?;
            super::deal::check_hands(&rules, &hands).map_err(|why| {
                ReportError::Format(format!(
                    "its deal {} is not one of its setting: {why}",
                    deal.hands
                ))
            })?;
        }
        Ok(report)
    }

    /// The rules of the report's setting.
    pub(crate) fn rules(&self) -> Result<Rules, ReportError> {
        self.setting
            .parse()
            .map(|setting| setting.rules)
            .map_err(|e| ReportError::Format(SummaryError::Setting(e).to_string()))
    }

    /// What the hunt found, to read: what it hunted and how, then each deal kept with its game
    /// and the command that replays it.
    pub fn table(&self) -> String {
        let goal = match self.goal.as_str() {
            "cycles" => "infinite games".to_string(),
            _ => format!("the longest game by {}", self.metric),
        };
        let flags = self.play_flags();
        let per_second = self.games as f64 / self.seconds.max(1e-9);
        let mut text = format!(
            "hunt for {goal}: {flags}; {} strategy, seed {}, {} ({})\n{} in {:.1} s ({} a second)",
            self.strategy,
            self.seed,
            count(self.streams.len() as u64, "stream"),
            self.streams.join(" "),
            match self.games {
                1 => "1 game".to_string(),
                n => format!("{} games", group(n)),
            },
            self.seconds,
            group(per_second as u64),
        );
        if self.steps > 0 {
            text.push_str(&format!(", {} states walked backward", group(self.steps)));
        }
        text.push('\n');
        if self.best.is_empty() {
            text.push_str(match self.goal.as_str() {
                "cycles" => "no infinite game found\n",
                _ => "no finished game found\n",
            });
        }
        for (i, deal) in self.best.iter().enumerate() {
            let game = match (deal.outcome.as_str(), deal.winner) {
                ("win", Some(w)) => format!("player {w} wins"),
                ("infinite", _) => format!(
                    "infinite: the state after round {} recurs every {} rounds",
                    deal.cycle_start.unwrap_or(0),
                    deal.cycle_length.unwrap_or(0)
                ),
                _ => "a draw".to_string(),
            };
            let after = match deal.games {
                1 => "1 game".to_string(),
                n => format!("{} games", group(n)),
            };
            text.push_str(&format!(
                "\n#{} {} rounds, {} battles, {} wars: {game} (found after {after} of stream {})\n",
                i + 1,
                group(deal.rounds),
                group(deal.battles),
                group(deal.wars),
                deal.stream
            ));
            if let Some(cycle) = &deal.cycle {
                text.push_str(&format!("  cycle (least state): {cycle}\n"));
            }
            let lines = deal.hands.replace('|', "\\n");
            text.push_str(&format!("  printf '{lines}\\n' | warsweep play {flags}\n"));
        }
        text
    }

    /// The `play` flags of the report's setting: the preset, then each part that differs from
    /// the preset's own.
    pub(crate) fn play_flags(&self) -> String {
        let Ok(rules) = self.rules() else {
            return format!("--rules {}", self.setting.rules);
        };
        let preset = Rules::preset(rules.from_preset()).parts();
        let mut flags = Vec::new();
        for ((name, value), (_, default)) in rules.parts().into_iter().zip(preset) {
            if name == "rules" || value != default {
                flags.push(format!("--{} {value}", name.replace('_', "-")));
            }
        }
        flags.join(" ")
    }

    /// The best deals' hands, best first (values from 1): where a later hunt starts.
    pub fn deals(&self) -> Result<Vec<Vec<Vec<u8>>>, ReportError> {
        self.best
            .iter()
            .map(|d| parse_hands(&d.hands).map_err(ReportError::Format))
            .collect()
    }

    /// The reports of one hunt's streams (the tasks of an array) joined: one setting, goal,
    /// metric, strategy and seed; the games, steps and seconds added up; the best deals of all,
    /// as many as the most any kept; every log, stream by stream.
    pub fn join(reports: &[Report]) -> Result<Report, ReportError> {
        let Some(first) = reports.first() else {
            return Err(ReportError::None);
        };
        for other in &reports[1..] {
            let what = |a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug, name: &str| {
                ReportError::Different(format!("{name} {a:?} and {b:?}"))
            };
            if other.setting != first.setting {
                return Err(what(&first.setting, &other.setting, "settings"));
            }
            for (name, a, b) in [
                ("goal", &first.goal, &other.goal),
                ("metric", &first.metric, &other.metric),
                ("strategy", &first.strategy, &other.strategy),
            ] {
                if a != b {
                    return Err(what(a, b, name));
                }
            }
            if other.seed != first.seed {
                return Err(what(&first.seed, &other.seed, "seeds"));
            }
        }
        let mut joined = first.clone();
        joined.streams = reports.iter().flat_map(|r| r.streams.clone()).collect();
        let mut seen = std::collections::HashSet::new();
        if let Some(twice) = joined.streams.iter().find(|s| !seen.insert(*s)) {
            return Err(ReportError::Different(format!(
                "stream {twice} is in two reports"
            )));
        }
        joined.games = reports.iter().map(|r| r.games).sum();
        joined.steps = reports.iter().map(|r| r.steps).sum();
        joined.seconds = reports.iter().map(|r| r.seconds).sum();
        joined.stopped = reports.iter().any(|r| r.stopped);
        joined.log = reports.iter().flat_map(|r| r.log.clone()).collect();
        let keep = reports.iter().map(|r| r.best.len()).max().unwrap_or(0);
        let mut best: Vec<Deal> = reports.iter().flat_map(|r| r.best.clone()).collect();
        if first.goal == "cycles" {
            // Each cycle once, by its least state, in the streams' order.
            let mut named = std::collections::HashSet::new();
            best.retain(|d| named.insert(d.cycle.clone()));
        } else {
            // Longest first; a tie goes to the earlier stream, then to the earlier find.
            best.sort_by_key(|d| std::cmp::Reverse(d.value));
            let mut hands = std::collections::HashSet::new();
            best.retain(|d| hands.insert(d.hands.clone()));
        }
        best.truncate(keep);
        joined.best = best;
        Ok(joined)
    }
}

impl Deal {
    fn of(found: &Found, stream: &str) -> Deal {
        let (outcome, winner, cycle) = match found.result.outcome {
            Outcome::Win(p) => ("win", Some(p + 1), None),
            Outcome::Draw => ("draw", None, None),
            Outcome::Infinite {
                cycle_start,
                cycle_length,
            } => ("infinite", None, Some((cycle_start, cycle_length))),
            Outcome::Capped => ("capped", None, None),
        };
        Deal {
            hands: found.joined(),
            value: found.value,
            outcome: outcome.to_string(),
            winner,
            rounds: found.result.rounds,
            battles: found.result.battles,
            wars: found.result.wars,
            cycle_start: cycle.map(|c| c.0),
            cycle_length: cycle.map(|c| c.1),
            cycle: found.cycle.clone(),
            games: found.games,
            stream: stream.to_string(),
        }
    }
}

impl Logged {
    fn of(improvement: &Improvement, stream: &str) -> Logged {
        let hands: Vec<String> = improvement
            .hands
            .iter()
            .map(|h| h.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
            .collect();
        Logged {
            stream: stream.to_string(),
            seconds: improvement.seconds,
            games: improvement.games,
            value: improvement.value,
            hands: hands.join("|"),
        }
    }
}

/// Hands written `1,2,3|4,5,6` (values from 1; commas or spaces between values).
pub(crate) fn parse_hands(text: &str) -> Result<Vec<Vec<u8>>, String> {
    text.split('|')
        .map(|hand| {
            hand.split([',', ' '])
                .filter(|v| !v.trim().is_empty())
                .map(|v| {
                    v.trim()
                        .parse::<u8>()
                        .map_err(|_| format!("{v:?} in {text:?} is not a card's value"))
                })
                .collect()
        })
        .collect()
}
