//! `hunt`: the library's search for the longest games and for infinite ones, with the
//! interpreter free while it plays and Ctrl-C ending it with what it found.

use crate::{bad, Knobbed};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use warsweep::hunt::{Goal, Hunt, HuntError, Report, Strategy};
use warsweep::{DeviceError, Metric};

/// Hunts (see the package's documentation): the report's JSON, and whether Ctrl-C stopped it.
#[pyfunction]
#[pyo3(signature = (*, rules, deck=None, players=None, face_down=None, short_war=None,
    gather=None, deal=None, ranking=None, goal="longest", metric="rounds", strategy=None,
    seed=0, games=None, seconds=None, threads=None, keep=10, start=None,
    backward_states=None, stream=None, gpu=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _hunt(
    py: Python<'_>,
    rules: &str,
    deck: Option<&str>,
    players: Option<usize>,
    face_down: Option<usize>,
    short_war: Option<&str>,
    gather: Option<&str>,
    deal: Option<&str>,
    ranking: Option<&str>,
    goal: &str,
    metric: &str,
    strategy: Option<&str>,
    seed: u64,
    games: Option<u64>,
    seconds: Option<f64>,
    threads: Option<usize>,
    keep: usize,
    start: Option<Vec<Vec<Vec<u8>>>>,
    backward_states: Option<u64>,
    stream: Option<(u64, u64)>,
    gpu: bool,
) -> PyResult<(String, bool)> {
    let began = Instant::now();
    let knobs = Knobbed {
        rules,
        deck,
        players,
        face_down,
        short_war,
        gather,
        deal,
        ranking,
        won_pile: None,
    };
    let rules = knobs.rules(None)?;
    let goal = match goal {
        // The library refuses a metric of infinite games (`HuntError::Metric`).
        "longest" => Goal::Longest(
            metric
                .parse::<Metric>()
                .map_err(|e| bad(format!("metric: {e}")))?,
        ),
        "cycles" => Goal::Cycles,
        other => {
            return Err(bad(format!(
                "goal: {other:?} is neither \"longest\" nor \"cycles\""
            )))
        }
    };
    let time = match seconds.map(|s| (s, Duration::try_from_secs_f64(s))) {
        Some((s, Ok(time))) if s > 0.0 => Some(time),
        Some((s, Ok(_))) => {
            return Err(bad(format!(
                "time: a hunt needs some time, not {s} seconds"
            )))
        }
        Some((s, Err(_))) => {
            return Err(bad(format!(
                "time: {s} seconds is no time a hunt can keep (give a positive number of seconds below 10^19)"
            )))
        }
        None => None,
    };
    let games = match (games, time) {
        (None, None) => Some(1_000_000),
        (games, _) => games,
    };
    let mut hunt = Hunt::new(rules, goal)
        .seed(seed)
        .games(games)
        .time(time)
        .keep(keep)
        .gpu(gpu);
    if let Some(name) = strategy {
        let strategy: Strategy = name.parse().map_err(|e| bad(format!("strategy: {e}")))?;
        hunt = hunt.strategy(strategy);
    }
    if let Some(threads) = threads {
        hunt = hunt.threads(threads);
    }
    if let Some(states) = backward_states {
        hunt = hunt.backward_states(states);
    }
    if let Some((k, n)) = stream {
        hunt = hunt.stream(k, n);
    }
    if let Some(deals) = start {
        hunt = hunt.start(deals);
    }
    hunt.check().map_err(|e| match e {
        HuntError::Device(DeviceError::Unfit(reasons)) => bad(crate::gpu_refusal("hunt", &reasons)),
        e => bad(format!("{}: {e}", argument_of(&e))),
    })?;
    // The time is the call's: what a building strategy found before its first game (the
    // shapes census) is taken from the hunt's.
    if let Some(time) = time {
        let left = time.saturating_sub(began.elapsed());
        hunt = hunt.time(Some(left.max(Duration::from_millis(1))));
    }
    let stop = AtomicBool::new(false);
    let (report, interrupted) = std::thread::scope(|scope| -> PyResult<(Report, bool)> {
        let (hunt, stop) = (&hunt, &stop);
        let worker = scope.spawn(move || {
            hunt.run(&|_| {}, stop)
                .map(|found| Report::of(hunt, &found))
        });
        // The interpreter waits with its lock released, and looks for Ctrl-C ten times a
        // second; a Ctrl-C ends the hunt at its next generation.
        let mut interrupted = false;
        while !worker.is_finished() {
            py.detach(|| std::thread::sleep(Duration::from_millis(100)));
            if !interrupted && py.check_signals().is_err() {
                stop.store(true, Ordering::Relaxed);
                interrupted = true;
            }
        }
        let report = py
            .detach(|| worker.join())
            .expect("the hunt thread panicked")
            .map_err(|e| match e {
                HuntError::Device(DeviceError::Unfit(reasons)) => {
                    bad(crate::gpu_refusal("hunt", &reasons))
                }
                HuntError::Device(why) => bad(format!("gpu: {why}")),
                e => bad(e.to_string()),
            })?;
        Ok((report, interrupted))
    })?;
    Ok((report.to_json(), interrupted))
}

/// The argument a refusal of the library is about, named before its sentence (as `sweep`'s
/// refusals name theirs).
fn argument_of(refused: &HuntError) -> &'static str {
    match refused {
        HuntError::NoBudget => "games",
        HuntError::Undecided => "gather",
        HuntError::Metric(_) => "metric",
        HuntError::Players(..) => "strategy",
        HuntError::Threads(_) => "threads",
        HuntError::Keep => "keep",
        HuntError::NoStates => "backward_states",
        HuntError::BackwardCycles
        | HuntError::CyclesOnly(..)
        | HuntError::Unequal(..)
        | HuntError::Unbuildable(_) => "strategy",
        HuntError::Stream(..) => "stream",
        HuntError::Start { .. } => "start",
        _ => "hunt",
    }
}
