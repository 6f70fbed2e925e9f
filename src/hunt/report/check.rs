//! A report read is checked whole before anything goes on from it: every deal kept and every
//! improvement logged replayed by the engine to what it claims, and every count against the
//! others (a report from another machine, or edited by hand, is untrusted input).

use super::{parse_stream, BestDeal, Report, ReportError};
use crate::engine::{Engine, Outcome};
use crate::hunt::{Found, Goal};
use crate::rules::Rules;
use std::collections::HashSet;

impl Report {
    /// Checks what the report says against the engine and against itself: its goal,
    /// strategy, streams and times; each deal kept and each improvement logged replayed to
    /// the game and the value it claims; and every count what it can be (games against
    /// generations, rows against games, no cycle or deal twice, no more kept than it keeps).
    /// The first row or count that fails is named.
    pub(super) fn verify(&self) -> Result<(), ReportError> {
        let rules = self.rules()?;
        let goal = self.goal_of()?;
        let strategy = self.strategy_of()?;
        if self.streams.is_empty() {
            return Err(bad("it lists no stream".to_string()));
        }
        for stream in &self.streams {
            parse_stream(stream)?;
        }
        if !time(self.seconds) {
            return Err(bad(format!("its seconds, {}, are no time", self.seconds)));
        }
        self.check_counts(goal, strategy)?;
        let mut replay = Replay {
            rules,
            goal,
            engine: Engine::new(rules),
            least: Vec::new(),
        };
        let named = self.verify_best(&mut replay)?;
        let cycles = self.verify_log(&mut replay)?;
        // Format 3 logs every distinct cycle, kept or not.
        if let Some(count) = self.cycles {
            if count != cycles.len() as u64 || named.iter().any(|c| !cycles.contains(c)) {
                return Err(bad(format!(
                    "it says it reached {count} distinct cycles, and its log and its deals name {}",
                    cycles.len()
                )));
            }
        }
        Ok(())
    }

    /// Checks each deal kept: of a stream it lists, found within its games, its cycle reached
    /// by some of them, replayed to what it says, none twice. Returns their names (each
    /// cycle's least state, or a finished game's hands).
    fn verify_best(&self, replay: &mut Replay) -> Result<HashSet<String>, ReportError> {
        let (mut named, mut reached) = (HashSet::new(), 0u64);
        for (i, deal) in self.best.iter().enumerate() {
            let row = format!("its deal #{} ({})", i + 1, deal.hands);
            if !self.streams.contains(&deal.stream) {
                return Err(bad(format!(
                    "{row} is of stream {}, which it does not list",
                    deal.stream
                )));
            }
            if deal.games > self.games {
                return Err(bad(format!(
                    "{row} was found after {} games, more than its {}",
                    deal.games, self.games
                )));
            }
            if let Some(r) = deal.reached.filter(|_| replay.goal == Goal::Cycles) {
                reached = reached.saturating_add(r);
                if r == 0 || reached > self.games {
                    return Err(bad(format!(
                        "{row} says {r} games reached its cycle: none, or more than the report's games with the others"
                    )));
                }
            }
            let found = replay.row(&row, &deal.hands)?;
            let found = Found {
                games: deal.games,
                reached: deal.reached.unwrap_or(0),
                ..found
            };
            let replayed = BestDeal::of(&found, &deal.stream);
            if replayed != *deal {
                return Err(bad(format!(
                    "{row} does not replay to what it says: the engine plays {}",
                    replayed.said()
                )));
            }
            let name = deal.cycle.clone().unwrap_or_else(|| deal.hands.clone());
            if !named.insert(name) {
                return Err(bad(format!("{row} is kept twice")));
            }
        }
        Ok(named)
    }

    /// Checks each improvement logged: of a stream it lists, found within the report's games
    /// and seconds and after the one before it in its stream, its counts of games built
    /// within its games, replayed to its value; in a hunt for cycles each cycle once a stream,
    /// else each longer than the one before it. Returns the distinct cycles logged.
    fn verify_log(&self, replay: &mut Replay) -> Result<HashSet<String>, ReportError> {
        let mut streams: std::collections::HashMap<&str, Stream> = Default::default();
        let mut cycles = HashSet::new();
        for (i, entry) in self.log.iter().enumerate() {
            let row = format!("its improvement #{} ({})", i + 1, entry.hands);
            if !self.streams.contains(&entry.stream) || !time(entry.seconds) {
                return Err(bad(format!(
                    "{row} is of no stream it lists, or at no time"
                )));
            }
            if entry.games > self.games || entry.seconds > self.seconds {
                return Err(bad(format!(
                    "{row} was found after {} games and {} seconds, more than the report's {} and {}",
                    entry.games, entry.seconds, self.games, self.seconds
                )));
            }
            let found = replay.row(&row, &entry.hands)?;
            if found.value != entry.value {
                return Err(bad(format!(
                    "{row} says {} but the engine plays {}",
                    entry.value, found.value
                )));
            }
            let stream = streams.entry(&entry.stream).or_default();
            if entry.games < stream.games {
                return Err(bad(format!(
                    "{row} was found after {} games, fewer than the improvement before it",
                    entry.games
                )));
            }
            stream.games = entry.games;
            let built = (entry.built.unwrap_or(0)).checked_add(entry.fell_back.unwrap_or(0));
            if built.is_none_or(|built| built > entry.games) {
                return Err(bad(format!(
                    "{row} says more games built and fallen back than games played"
                )));
            }
            match &found.cycle {
                Some(cycle) if !stream.cycles.insert(cycle.clone()) => {
                    return Err(bad(format!("{row} reaches a cycle it logged before")));
                }
                Some(cycle) => {
                    cycles.insert(cycle.clone());
                }
                None if stream.value.is_some_and(|v| found.value <= v) => {
                    return Err(bad(format!(
                        "{row} is no longer than the improvement before it"
                    )));
                }
                None => stream.value = Some(found.value),
            }
        }
        Ok(cycles)
    }

    /// Refuses counts that no hunt writes: more games than its generations hold, more
    /// generations than games, states expanded by a strategy that expands none, more games
    /// built than played, more deals than it keeps, a longest game kept before a longer one.
    fn check_counts(&self, goal: Goal, strategy: crate::hunt::Strategy) -> Result<(), ReportError> {
        let bad = |why: String| Err(ReportError::Format(why));
        if let Some(generations) = self.generations {
            let most = generations.checked_mul(crate::hunt::strategy::BATCH as u64);
            if most.is_some_and(|most| self.games > most) {
                return bad(format!(
                    "its {} games are more than {generations} generations of at most {} tasks hold",
                    self.games,
                    crate::hunt::strategy::BATCH
                ));
            }
            if generations > self.games {
                return bad(format!(
                    "its {generations} generations are more than its {} games, and each plays one or more",
                    self.games
                ));
            }
        }
        if self.steps > 0 && strategy != crate::hunt::Strategy::Backward {
            return bad(format!(
                "it says the {strategy} strategy expanded {} states, and only the backward strategy expands any",
                self.steps
            ));
        }
        let built = self
            .built
            .unwrap_or(0)
            .checked_add(self.fell_back.unwrap_or(0));
        if built.is_none_or(|built| built > self.games) {
            return bad(format!(
                "its games built and fallen back add up to more than its {} games",
                self.games
            ));
        }
        if self.built.is_some() != strategy.builds_cycles()
            || self.fell_back.is_some() != strategy.builds_cycles()
        {
            return bad(format!(
                "its counts of games built do not fit the {strategy} strategy"
            ));
        }
        if self.cycles.is_some() && goal != Goal::Cycles {
            return bad("it counts cycles in a hunt for the longest games".to_string());
        }
        if self.keep.is_some_and(|keep| self.best.len() > keep) {
            return bad(format!(
                "it lists {} deals, more than the {} it keeps",
                self.best.len(),
                self.keep.unwrap_or(0)
            ));
        }
        if goal != Goal::Cycles && self.best.windows(2).any(|w| w[0].value < w[1].value) {
            return bad("its deals are not longest first".to_string());
        }
        Ok(())
    }
}

/// A report's error: `why` it is not one.
fn bad(why: String) -> ReportError {
    ReportError::Format(why)
}

/// Whether `t` is a time: finite, and not negative.
fn time(t: f64) -> bool {
    t.is_finite() && t >= 0.0
}

/// What replays a report's rows: its rules and goal, an engine, a buffer for least states.
struct Replay {
    rules: Rules,
    goal: Goal,
    engine: Engine,
    least: Vec<u8>,
}

impl Replay {
    /// The game of the hands `text` of the row named `row`, or why it is none a hunt keeps.
    fn row(&mut self, row: &str, text: &str) -> Result<Found, ReportError> {
        let (rules, goal) = (&self.rules, self.goal);
        replayed(rules, goal, text, &mut self.engine, Some(&mut self.least))
            .map_err(|why| bad(format!("{row} {why}")))
    }
}

/// What a stream's log has said so far: its games, its longest game, its cycles.
#[derive(Default)]
struct Stream {
    games: u64,
    value: Option<u64>,
    cycles: HashSet<String>,
}

/// Why a report's row does not replay: said after the row's name.
#[derive(Debug, thiserror::Error)]
enum RowError {
    /// Hands that do not read.
    #[error("{0}")]
    Hands(#[from] crate::puzzles::InputError),
    /// Hands that are not a deal of the report's setting.
    #[error("is not a deal of its setting: {0}")]
    NotADeal(crate::hunt::deal::NotADeal),
    /// A finished game in a hunt for cycles, or an infinite one in a hunt for the longest.
    #[error("plays a game that does not count for its hunt")]
    Uncounted,
}

/// The game of the hands `text` under `rules`, as a hunt for `goal` keeps it (`games` 0, its
/// cycle named where `least` is given, the buffer for its least state), or why it is not one
/// a hunt keeps.
fn replayed(
    rules: &Rules,
    goal: Goal,
    text: &str,
    engine: &mut Engine,
    least: Option<&mut Vec<u8>>,
) -> Result<Found, RowError> {
    let hands = crate::hunt::deal::read_hands(rules, text)?;
    crate::hunt::deal::check_hands(rules, &hands).map_err(RowError::NotADeal)?;
    let order = crate::hunt::deal::order_of(rules, &hands);
    let result = engine.play_order(&order);
    let value = goal.value(&result).ok_or(RowError::Uncounted)?;
    let cycle = match (goal, result.outcome, least) {
        (
            Goal::Cycles,
            Outcome::Infinite {
                cycle_start,
                cycle_length,
            },
            Some(least),
        ) => {
            engine.least_state_of_order(&order, [cycle_start, cycle_length], least);
            Some(crate::output::cycles::hands_text(least))
        }
        _ => None,
    };
    Ok(Found {
        hands,
        result,
        value,
        games: 0,
        cycle,
        reached: 0,
    })
}
