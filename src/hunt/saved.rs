//! Where a hunt goes on from: the checkpoint that a stopped or killed hunt resumes from, and
//! the report of a finished hunt that a later one continues.
//!
//! Every task's generator comes from the hunt's seed, its stream, the generation and the
//! task's place, so a hunt's state between two generations is small: how far it has gone, the
//! book of deals kept and its log (its report so far), and what its strategy has learned. A
//! hunt resumed from that state plays what the stopped one would have played next.

use super::book::Book;
use super::report::Report;
use super::strategy::BATCH;
use super::strategy::{Learned, Strategist};
use super::{Hunt, HuntError, Hunted};
use serde::{Deserialize, Serialize};

/// What the first field of a checkpoint says, so that no other file is taken for one.
const FORMAT: &str = "warsweep hunt checkpoint 1";

/// How far a hunt has gone: games, generations, states expanded and seconds, the runs it
/// continues included.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct At {
    /// Games played before this run that its budget of games does not count: those of the
    /// finished hunt it continues (a resumed run's budget counts every game).
    pub(crate) uncounted: u64,
    pub(crate) games: u64,
    pub(crate) generations: u64,
    pub(crate) steps: u64,
    pub(crate) seconds: f64,
    /// Games a building strategy built, and those it fell back on random deals for.
    pub(crate) built: u64,
    pub(crate) fell_back: u64,
}

impl At {
    /// Adds what a turn played (counts read from a file may be near the most a count holds:
    /// they stay there).
    pub(crate) fn add(&mut self, played: &super::generations::Generation) {
        self.games = self.games.saturating_add(played.games);
        self.generations = self.generations.saturating_add(played.generations);
        self.steps = self.steps.saturating_add(played.steps);
        self.built = self.built.saturating_add(played.built);
        self.fell_back = self.fell_back.saturating_add(played.fell_back);
    }
}

/// A hunt between two generations, as it saves itself now and then and when it stops: its
/// report so far, and what its strategy has learned. [`Hunt::resume`] goes on from it.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use std::time::Duration;
/// use warsweep::hunt::{Checkpoint, Goal, Hunt, Status};
/// use warsweep::{Deck, Metric, Preset, Settings};
/// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x5")?).build()?;
/// let hunt = Hunt::new(rules, Goal::Longest(Metric::Rounds)).games(Some(40_000)).seed(5);
/// let whole = hunt.run(&|_| {}, &Default::default())?;
/// // The same hunt, stopped after 12,288 games (as a signal would stop it): its checkpoint.
/// let stop = AtomicBool::new(false);
/// let at_12288 = |status: Status| stop.store(status.games >= 12_288, Ordering::Relaxed);
/// let mut saved = None;
/// let hour = Duration::from_secs(3600);
/// let stopped = hunt.run_saving(&at_12288, &stop, hour, &mut |c| saved = Some(c.clone()))?;
/// assert!(stopped.stopped);
/// let saved = Checkpoint::from_json(&saved.unwrap().to_json())?;
/// assert_eq!(saved.games(), 12_288);
/// // Resumed with the whole budget, it finds what the whole hunt found.
/// let rest = hunt.clone().resume(&saved)?.run(&|_| {}, &Default::default())?;
/// assert_eq!((rest.games, &rest.best), (whole.games, &whole.best));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// `warsweep hunt checkpoint 1`.
    format: String,
    /// The hunt so far, as its report.
    pub(crate) report: Report,
    /// States one backward search may expand.
    backward_states: u64,
    /// How many deals the hunt was given to start from, and a digest of them.
    given: (usize, u64),
    /// What its strategy has learned.
    learned: Learned,
    /// Games of a finished hunt it continues, which its budget of games does not count.
    #[serde(default)]
    uncounted: u64,
}

impl Checkpoint {
    /// The checkpoint of `hunt`, whose report so far is `report`.
    pub(crate) fn of(hunt: &Hunt, report: Report, learned: Learned, uncounted: u64) -> Checkpoint {
        Checkpoint {
            format: FORMAT.to_string(),
            report,
            backward_states: hunt.backward_states,
            given: given(hunt),
            learned,
            uncounted,
        }
    }

    /// Games the hunt had played.
    pub fn games(&self) -> u64 {
        self.report.games()
    }

    /// The checkpoint as JSON.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string(self).expect("a checkpoint serializes");
        text.push('\n');
        text
    }

    /// A checkpoint read from its JSON, its report checked as [`Report::from_json`] checks
    /// one; or why it is none.
    pub fn from_json(text: &str) -> Result<Checkpoint, HuntError> {
        let corrupt = |why: String| HuntError::Checkpoint(why);
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| corrupt(e.to_string()))?;
        if value.get("format").and_then(serde_json::Value::as_str) != Some(FORMAT) {
            return Err(corrupt(format!("it does not say {FORMAT:?}")));
        }
        let saved: Checkpoint =
            serde_json::from_value(value).map_err(|e| corrupt(e.to_string()))?;
        saved.report.check().map_err(|e| corrupt(e.to_string()))?;
        if saved.uncounted > saved.report.games {
            return Err(corrupt(format!(
                "it says {} of its {} games were a continued hunt's",
                saved.uncounted, saved.report.games
            )));
        }
        Ok(saved)
    }
}

/// The deals a hunt was given: how many, and a digest of their values (FNV-1a).
fn given(hunt: &Hunt) -> (usize, u64) {
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    for byte in hunt
        .start
        .iter()
        .flatten()
        .flat_map(|hand| hand.iter().chain([&0]))
    {
        digest = (digest ^ u64::from(*byte)).wrapping_mul(0x100_0000_01b3);
    }
    (hunt.start.len(), digest)
}

/// What a hunt goes on from: a report (a checkpoint's, or a finished hunt's), and what the
/// strategy had learned (a checkpoint's; a finished hunt's is learned again from its deals).
#[derive(Clone, Debug)]
pub(crate) struct Carried {
    report: Report,
    learned: Option<Learned>,
    uncounted: u64,
}

impl Carried {
    /// Fills `book` and `strategist` with what the hunt had found and learned, and says how far it
    /// had gone.
    pub(crate) fn restore(
        &self,
        book: &mut Book,
        strategist: &mut Strategist,
        sorted: &[u8],
    ) -> Result<At, HuntError> {
        let report = &self.report;
        let kept = book.restore(report);
        match &self.learned {
            Some(learned) => strategist
                .restore(learned, sorted)
                .map_err(|e| HuntError::Checkpoint(e.to_string()))?,
            None => strategist.go_on_from(&kept),
        }
        Ok(At {
            uncounted: self.uncounted,
            games: report.games,
            generations: report
                .generations
                .unwrap_or(report.games.div_ceil(BATCH as u64)),
            steps: report.steps,
            seconds: report.seconds,
            built: report.built.unwrap_or(0),
            fell_back: report.fell_back.unwrap_or(0),
        })
    }
}

impl Hunt {
    /// The hunt resumed from `checkpoint`, which a run of this same hunt saved (its budget of
    /// games or time aside): it plays on as if it had never stopped. A checkpoint of another
    /// hunt is refused, naming what differs.
    pub fn resume(mut self, checkpoint: &Checkpoint) -> Result<Hunt, HuntError> {
        let mine = Report::of(&self, &Hunted::nothing());
        checkpoint
            .report
            .same_hunt(&mine)
            .map_err(|e| HuntError::Resume(what_differs(e)))?;
        let differs = |what: &str| Err(HuntError::Resume(what.to_string()));
        if checkpoint.report.streams != mine.streams {
            return differs("of another stream");
        }
        if checkpoint.backward_states != self.backward_states {
            return differs("whose backward searches expand another number of states");
        }
        if checkpoint.given != given(&self) {
            return differs("started from other deals");
        }
        // What the strategy learned is its own to read: read it now, before anything runs.
        let sorted = super::deal::sorted_values(&self.rules);
        self.strategist()?
            .restore(&checkpoint.learned, &sorted)
            .map_err(|e| HuntError::Checkpoint(e.to_string()))?;
        self.from = Some(Box::new(Carried {
            report: checkpoint.report.clone(),
            learned: Some(checkpoint.learned.clone()),
            uncounted: checkpoint.uncounted,
        }));
        Ok(self)
    }

    /// The hunt going on from `report`, a finished hunt's of the same setting and goal: where
    /// that hunt drew from this one's generators (its seed, strategy and stream), this hunt
    /// continues it (its games, seconds, deals and log carried on, new deals drawn, as many
    /// deals kept as this hunt keeps); otherwise it starts from the report's deals. A report
    /// of this seed and stream by another strategy is refused: its generators would be drawn
    /// from again.
    pub fn continuing(mut self, report: &Report) -> Result<Hunt, HuntError> {
        let mine = Report::of(&self, &Hunted::nothing());
        mine.same_search(report)
            .map_err(|e| HuntError::Continue(what_differs(e)))?;
        let same_generators = report.seed == mine.seed && report.streams == mine.streams;
        if same_generators && report.strategy != mine.strategy {
            return Err(HuntError::SameGenerators(report.strategy.clone()));
        }
        if same_generators {
            self.from = Some(Box::new(Carried {
                report: report.clone(),
                learned: None,
                uncounted: report.games,
            }));
            return Ok(self);
        }
        let deals = report
            .deals()
            .map_err(|e| HuntError::Continue(e.to_string()))?;
        Ok(self.start(deals))
    }
}

/// What differs between two reports, in words.
fn what_differs(e: super::ReportError) -> String {
    match e {
        super::ReportError::Different(what) => what,
        e => e.to_string(),
    }
}

impl Hunted {
    /// A hunt that has played nothing.
    fn nothing() -> Hunted {
        Hunted {
            best: Vec::new(),
            log: Vec::new(),
            games: 0,
            steps: 0,
            generations: 0,
            seconds: 0.0,
            stopped: false,
            cycles: 0,
            built: 0,
            fell_back: 0,
        }
    }
}
