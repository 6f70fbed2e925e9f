//! A hunt's results as a file: the setting, the budget, the best deals and the log, in JSON,
//! so that the hunts of a Slurm array's tasks join into one, and a later hunt starts from
//! what an earlier one found.

mod check;

use super::{Found, Goal, Hunt, HuntError, Hunted, Improvement};
use crate::engine::{GameResult, Outcome, DEFAULT_MAX_ROUNDS};
use crate::output::metric::Metric;
use crate::output::setting::{SettingText, SweepSetting};
use crate::output::summary::SummaryError;
use crate::rules::Rules;
use crate::text::{count, group, grouped_count};
use crate::Shuffle;
use serde::{Deserialize, Serialize};

/// The hunt report format this program writes: 2 adds the deals kept (`keep`) and the
/// generations played (`generations`), which joins and continued hunts need; a report of
/// format 1 lacks them, and is read as keeping every deal it lists. 3 logs every distinct
/// cycle reached and counts them (`cycles`), and adds the games a building strategy built and
/// those it fell back on random deals for (`built`, `fell_back`).
const VERSION: u32 = 3;

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
    /// How many deals (or distinct cycles) each stream kept at most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) keep: Option<usize>,
    /// Generations played, added up over the streams: a continued hunt draws its deals from
    /// the next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) generations: Option<u64>,
    /// Games played.
    pub(crate) games: u64,
    /// States the backward strategy expanded.
    pub(crate) steps: u64,
    /// Seconds, added up over the streams.
    pub(crate) seconds: f64,
    /// Whether it was stopped before its budget was spent.
    pub(crate) stopped: bool,
    /// Distinct cycles reached (a hunt for cycles), each logged, however many it keeps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cycles: Option<u64>,
    /// Games a strategy that builds its deals built (none for the others).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) built: Option<u64>,
    /// Games such a strategy could not build, and drew at random instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fell_back: Option<u64>,
    /// The best deals, best first.
    pub(crate) best: Vec<BestDeal>,
    /// Each improvement, by stream and then in order.
    pub(crate) log: Vec<Logged>,
}

/// One of a report's best deals: the hands (values from 1, `1,2|3,4`) and its game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BestDeal {
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
    /// Games that reached its cycle (reports of format 2 from before it was counted, and
    /// finished games: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) reached: Option<u64>,
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
    /// The hands, as [`BestDeal::hands`].
    pub(crate) hands: String,
    /// A building strategy's games built when it was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) built: Option<u64>,
    /// And those fallen back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fell_back: Option<u64>,
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
    /// A best deal whose hands cannot be read.
    #[error("its deal {hands:?} cannot be read: {source}")]
    Hands {
        /// The deal's hands, as the report writes them.
        hands: String,
        /// Why they cannot be read.
        source: crate::puzzles::InputError,
    },
    /// Reports of different hunts.
    #[error("the reports are of different hunts, {0}")]
    Different(String),
    /// No report to join.
    #[error("no report to join")]
    None,
    /// Streams of the hunt that no report joined holds.
    #[error("the reports are not every stream of the hunt: stream {0} is missing (join every stream's report)")]
    Missing(String),
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
            keep: Some(hunt.keep),
            generations: Some(hunted.generations),
            games: hunted.games,
            steps: hunted.steps,
            seconds: hunted.seconds,
            stopped: hunted.stopped,
            cycles: (hunt.goal == Goal::Cycles).then_some(hunted.cycles),
            built: hunt.strategy.builds_cycles().then_some(hunted.built),
            fell_back: hunt.strategy.builds_cycles().then_some(hunted.fell_back),
            best: hunted
                .best
                .iter()
                .map(|f| BestDeal::of(f, &stream))
                .collect(),
            log: hunted.log.iter().map(|i| Logged::of(i, &stream)).collect(),
        }
    }

    /// The hunt this report is of (its setting, goal, strategy, seed and deals kept, and its
    /// stream where it has one), with the default budget: the hunt that
    /// [`Hunt::continuing`] the report continues it.
    ///
    /// ```
    /// use warsweep::hunt::{Goal, Hunt, Report};
    /// use warsweep::{Deck, Metric, Preset, Settings};
    /// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).build()?;
    /// let hunt = Hunt::new(rules, Goal::Longest(Metric::Wars)).games(Some(5_000)).seed(3);
    /// let report = Report::of(&hunt, &hunt.run(&|_| {}, &Default::default())?);
    /// let more = report.hunt()?.games(Some(5_000)).continuing(&report)?;
    /// // 5,000 more games, from the next generation on.
    /// let more = more.run(&|_| {}, &Default::default())?;
    /// assert_eq!((more.games, more.generations), (10_000, 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hunt(&self) -> Result<Hunt, ReportError> {
        let mut hunt = Hunt::new(self.rules()?, self.goal_of()?)
            .strategy(self.strategy_of()?)
            .seed(self.seed);
        if let Some(keep) = self.keep {
            hunt = hunt.keep(keep);
        }
        if let [stream] = &self.streams[..] {
            let (k, n) = parse_stream(stream)?;
            hunt = hunt.stream(k, n);
        }
        Ok(hunt)
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
        // A newer format is said as such before its fields are read.
        if let Some(version) = value.get("version").and_then(serde_json::Value::as_u64) {
            if version > u64::from(VERSION) {
                return Err(ReportError::Newer(version as u32));
            }
        }
        let report: Report =
            serde_json::from_value(value).map_err(|e| ReportError::Format(e.to_string()))?;
        report.check()?;
        Ok(report)
    }

    /// Refuses a report of a newer format, or one whose rows the engine does not replay
    /// ([`Report::verify`]): what every report read passes, a checkpoint's too.
    pub(crate) fn check(&self) -> Result<(), ReportError> {
        if self.version > VERSION {
            return Err(ReportError::Newer(self.version));
        }
        self.verify()
    }

    /// The strategy it hunted with.
    fn strategy_of(&self) -> Result<super::Strategy, ReportError> {
        self.strategy
            .parse()
            .map_err(|e: crate::UnknownName| ReportError::Format(e.to_string()))
    }

    /// What it looked for, in words (`the longest game by rounds`, `infinite games`).
    fn goal_said(&self) -> String {
        self.goal_of().map_or_else(
            |_| format!("{} by {}", self.goal, self.metric),
            |g| g.to_string(),
        )
    }

    /// What the report looked for.
    pub(crate) fn goal_of(&self) -> Result<Goal, ReportError> {
        let metric = self
            .metric
            .parse::<Metric>()
            .map_err(|e| ReportError::Format(e.to_string()))?;
        match self.goal.as_str() {
            "cycles" => Ok(Goal::Cycles),
            "longest" if metric.of() == crate::output::metric::Measured::Finished => {
                Ok(Goal::Longest(metric))
            }
            other => Err(ReportError::Format(format!(
                "its goal {other:?} by {metric} is none a hunt has"
            ))),
        }
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
        let goal = self.goal_said();
        let flags = self.play_flags();
        let mut text = format!(
            "hunt for {goal}: {flags}; {} strategy, seed {}, {} ({})\n{} in {:.1} s ({})",
            self.strategy,
            self.seed,
            count(self.streams.len() as u64, "stream"),
            self.streams.join(" "),
            grouped_count(self.games, "game"),
            self.seconds,
            rate(self.games, self.seconds),
        );
        if self.steps > 0 {
            text.push_str(&format!(
                ", {} walked backward",
                grouped_count(self.steps, "state")
            ));
        }
        if let Some(cycles) = self.cycles {
            text.push_str(&format!(
                ", {} reached",
                grouped_count(cycles, "distinct cycle")
            ));
        }
        if let (Some(built), Some(fell_back)) = (self.built, self.fell_back) {
            text.push_str(&format!(
                ", {} built and {} fallen back on random deals",
                group(built),
                group(fell_back)
            ));
        }
        text.push('\n');
        if self.best.is_empty() {
            text.push_str(match self.goal.as_str() {
                "cycles" => "no infinite game found\n",
                _ => "no finished game found\n",
            });
        }
        for (i, deal) in self.best.iter().enumerate() {
            let found = match deal.games {
                0 => format!("given to stream {}", deal.stream),
                n => format!(
                    "found after {} of stream {}",
                    grouped_count(n, "game"),
                    deal.stream
                ),
            };
            text.push_str(&format!("\n#{} {} ({found})\n", i + 1, deal.said()));
            if let Some(cycle) = &deal.cycle {
                text.push_str(&format!("  cycle (least state): {cycle}\n"));
            }
            if let Some(reached) = deal.reached {
                let games = grouped_count(reached, "game");
                text.push_str(&format!("  reached by {games} of the hunt\n"));
            }
            let lines = deal.hands.replace('|', "\\n");
            text.push_str(&format!("  printf '{lines}\\n' | warsweep play {flags}\n"));
        }
        text
    }

    /// The `play` flags of the report's setting: the preset, then each part that differs from
    /// the preset's own.
    pub(crate) fn play_flags(&self) -> String {
        match self.rules() {
            Ok(rules) => rules.flags(),
            Err(_) => format!("--rules {}", self.setting.rules),
        }
    }

    /// The log as CSV (`stream,seconds,games,value,hands,built,fell_back`, the last two empty
    /// but for a building strategy), as `--log` writes it.
    pub(crate) fn log_csv(&self) -> String {
        let mut csv = String::from("stream,seconds,games,value,hands,built,fell_back\n");
        let count = |n: Option<u64>| n.map_or(String::new(), |n| n.to_string());
        for entry in &self.log {
            csv.push_str(&format!(
                "{},{:.3},{},{},\"{}\",{},{}\n",
                entry.stream,
                entry.seconds,
                entry.games,
                entry.value,
                entry.hands,
                count(entry.built),
                count(entry.fell_back)
            ));
        }
        csv
    }

    /// The best deals' hands, best first (values from 1): where a later hunt starts.
    pub fn deals(&self) -> Result<Vec<Vec<Vec<u8>>>, ReportError> {
        let rules = self.rules()?;
        (self.best.iter())
            .map(|d| {
                super::deal::read_hands(&rules, &d.hands).map_err(|source| ReportError::Hands {
                    hands: d.hands.clone(),
                    source,
                })
            })
            .collect()
    }

    /// The reports of one hunt's streams (the tasks of an array) joined: one setting, goal,
    /// metric, strategy, seed and number of deals kept, every stream of one count once; the
    /// games, steps and seconds added up; the best deals of all (each distinct cycle once, in
    /// the streams' order), as many as each kept; every log, stream by stream.
    pub fn join(reports: &[Report]) -> Result<Report, ReportError> {
        let Some(first) = reports.first() else {
            return Err(ReportError::None);
        };
        for other in &reports[1..] {
            first.same_hunt(other)?;
        }
        let mut reports: Vec<&Report> = reports.iter().collect();
        reports.sort_by_key(|r| r.streams.first().and_then(|s| parse_stream(s).ok()));
        let mut joined = first.clone();
        joined.streams = reports.iter().flat_map(|r| r.streams.clone()).collect();
        check_streams(&joined.streams)?;
        joined.games = total(&reports, "games", |r| Some(r.games))?.unwrap_or(0);
        joined.steps = total(&reports, "states expanded", |r| Some(r.steps))?.unwrap_or(0);
        joined.seconds = reports.iter().map(|r| r.seconds).sum();
        joined.generations = total(&reports, "generations", |r| r.generations)?;
        joined.built = total(&reports, "games built", |r| r.built)?;
        joined.fell_back = total(&reports, "games fallen back", |r| r.fell_back)?;
        joined.stopped = reports.iter().any(|r| r.stopped);
        joined.log = reports.iter().flat_map(|r| r.log.clone()).collect();
        let mut best: Vec<BestDeal> = reports.iter().flat_map(|r| r.best.clone()).collect();
        if first.goal == "cycles" {
            // Each cycle once, by its least state, in the streams' order, with the games of
            // every stream that reached it.
            let mut reached = std::collections::HashMap::new();
            for d in &best {
                *reached.entry(d.cycle.clone()).or_insert(0) += d.reached.unwrap_or(0);
            }
            let mut named = std::collections::HashSet::new();
            best.retain(|d| named.insert(d.cycle.clone()));
            for d in &mut best {
                d.reached = d.reached.map(|_| reached[&d.cycle]);
            }
        } else {
            // Longest first; a tie goes to the earlier stream, then to the earlier find.
            best.sort_by_key(|d| std::cmp::Reverse(d.value));
            let mut hands = std::collections::HashSet::new();
            best.retain(|d| hands.insert(d.hands.clone()));
        }
        // A report of format 1 does not say how many it kept: then none is dropped.
        best.truncate(first.keep.unwrap_or(usize::MAX));
        joined.best = best;
        Ok(joined)
    }

    /// Refuses `other` unless it searches for the same: setting, goal and metric.
    pub(crate) fn same_search(&self, other: &Report) -> Result<(), ReportError> {
        if other.setting != self.setting {
            return differ("of the settings", &self.play_flags(), &other.play_flags());
        }
        if other.goal_said() != self.goal_said() {
            return differ("for", &self.goal_said(), &other.goal_said());
        }
        Ok(())
    }

    /// Refuses `other` unless it is of the same hunt: setting, goal, metric, strategy, seed
    /// and deals kept.
    pub(crate) fn same_hunt(&self, other: &Report) -> Result<(), ReportError> {
        self.same_search(other)?;
        if other.strategy != self.strategy {
            return differ("with the strategies", &self.strategy, &other.strategy);
        }
        if other.seed != self.seed {
            return differ("of the seeds", &self.seed, &other.seed);
        }
        if other.keep != self.keep {
            let kept =
                |k: Option<usize>| k.map_or("an unsaid number".to_string(), |k| k.to_string());
            return differ("keeping", &kept(self.keep), &kept(other.keep));
        }
        Ok(())
    }
}

/// The sum of a count of `reports` ([`None`] where one lacks it), or why it is none: more
/// than a count holds.
fn total(
    reports: &[&Report],
    what: &str,
    count: impl Fn(&Report) -> Option<u64>,
) -> Result<Option<u64>, ReportError> {
    let mut sum = Some(0u64);
    for report in reports {
        sum = match (sum, count(report)) {
            (Some(sum), Some(n)) => Some(sum.checked_add(n).ok_or_else(|| {
                ReportError::Format(format!("their {what} add up to more than {}", u64::MAX))
            })?),
            _ => None,
        };
    }
    Ok(sum)
}

/// Two reports' `what` differ: `a` and `b`.
fn differ(
    what: &str,
    a: &dyn std::fmt::Display,
    b: &dyn std::fmt::Display,
) -> Result<(), ReportError> {
    Err(ReportError::Different(format!("{what} {a} and {b}")))
}

/// A stream `k/n`, checked: `k < n`.
fn parse_stream(text: &str) -> Result<(u64, u64), ReportError> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
        .filter(|(k, n)| k < n);
    parsed.ok_or_else(|| ReportError::Format(format!("{text:?} is no stream (k/n, k < n)")))
}

/// Refuses streams that are not every stream of one count, each once.
fn check_streams(streams: &[String]) -> Result<(), ReportError> {
    let parsed = streams
        .iter()
        .map(|s| parse_stream(s))
        .collect::<Result<Vec<_>, _>>()?;
    let n = parsed.first().map_or(1, |s| s.1);
    if let Some(other) = parsed.iter().find(|s| s.1 != n) {
        return Err(ReportError::Different(format!(
            "of {n} streams and of {} streams (stream {}/{})",
            other.1, other.0, other.1
        )));
    }
    let mut seen = std::collections::BTreeSet::new();
    if let Some(&(k, _)) = parsed.iter().find(|&&(k, _)| !seen.insert(k)) {
        return Err(ReportError::Different(format!(
            "with stream {k}/{n} in two reports"
        )));
    }
    let missing: Vec<String> = (0..n)
        .filter(|k| !seen.contains(k))
        .take(4)
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(ReportError::Missing(missing.join(", ")));
    }
    Ok(())
}

/// Games a second, as a reader wants it: grouped from 10 up, with a decimal below.
fn rate(games: u64, seconds: f64) -> String {
    if seconds <= 0.0 {
        return "in no measurable time".to_string();
    }
    match games as f64 / seconds {
        r if r >= 10.0 => format!("{} a second", group(r.round() as u64)),
        r => format!("{r:.1} a second"),
    }
}

impl BestDeal {
    /// Its game, as the row says it (rows are replayed when a report is read, so this is the
    /// engine's game).
    pub(crate) fn result(&self) -> GameResult {
        let outcome = match (
            self.outcome.as_str(),
            self.winner,
            self.cycle_start,
            self.cycle_length,
        ) {
            ("win", Some(w), ..) => Outcome::Win(w.saturating_sub(1)),
            ("infinite", _, Some(cycle_start), Some(cycle_length)) => Outcome::Infinite {
                cycle_start,
                cycle_length,
            },
            ("capped", ..) => Outcome::Capped,
            _ => Outcome::Draw,
        };
        GameResult {
            outcome,
            rounds: self.rounds,
            battles: self.battles,
            wars: self.wars,
        }
    }

    /// Its game in words: `144 rounds, 160 battles, 8 wars: player 1 wins`.
    fn said(&self) -> String {
        let game = match (self.outcome.as_str(), self.winner) {
            ("win", Some(w)) => format!("player {w} wins"),
            ("infinite", _) => format!(
                "infinite: the state after round {} recurs every {} rounds",
                self.cycle_start.unwrap_or(0),
                self.cycle_length.unwrap_or(0)
            ),
            _ => "a draw".to_string(),
        };
        format!(
            "{}, {}, {}: {game}",
            grouped_count(self.rounds, "round"),
            grouped_count(self.battles, "battle"),
            grouped_count(self.wars, "war"),
        )
    }

    fn of(found: &Found, stream: &str) -> BestDeal {
        let (outcome, winner, cycle) = match found.result.outcome {
            Outcome::Win(p) => ("win", Some(p + 1), None),
            Outcome::Draw => ("draw", None, None),
            Outcome::Infinite {
                cycle_start,
                cycle_length,
            } => ("infinite", None, Some((cycle_start, cycle_length))),
            Outcome::Capped => ("capped", None, None),
        };
        BestDeal {
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
            reached: (found.reached > 0).then_some(found.reached),
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
            built: improvement.built,
            fell_back: improvement.fell_back,
        }
    }
}
