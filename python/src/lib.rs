//! The native part of the `warsweep` Python package: one game (`play`) and a sweep of many
//! (`sweep`), built on the warsweep library exactly as the command line is, so that a setting
//! means the same, gives the same numbers and is refused with the same sentence. The package's
//! Python side (`python/warsweep/__init__.py`) turns the rows into NumPy arrays and DataFrames.

mod game;
mod hands;
mod hunt;
mod plot;
mod shapes;

use pyo3::exceptions::{PyMemoryError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyRange, PyTuple};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use warsweep::job::{Files, Job, JobError};
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::{check_max_rounds, GameResult, DEFAULT_MAX_ROUNDS};
use warsweep::{Deal, Gather, Preset, Ranking, Rules, Settings, ShortWar, WonPile};
use warsweep::{DeviceError, SweepError, Unfit};
use warsweep::{GameRow, Metric, OutcomeName};
use warsweep::{RowSink, Summary, Sweep as Sweeping};

/// A `ValueError` carrying the library's own sentence.
pub(crate) fn bad(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The value of the argument `argument` (`gather`), from its name.
pub(crate) fn named<T: std::str::FromStr>(argument: &str, text: Option<&str>) -> PyResult<Option<T>>
where
    T::Err: std::fmt::Display,
{
    text.map(|text| {
        text.parse::<T>()
            .map_err(|e| bad(format!("{argument}: {e}")))
    })
    .transpose()
}

/// The rule knobs, as `play` and `sweep` take them (names as on the command line).
pub(crate) struct Knobbed<'a> {
    pub(crate) rules: &'a str,
    pub(crate) deck: Option<&'a str>,
    pub(crate) players: Option<usize>,
    pub(crate) face_down: Option<usize>,
    pub(crate) short_war: Option<&'a str>,
    pub(crate) gather: Option<&'a str>,
    pub(crate) deal: Option<&'a str>,
    pub(crate) ranking: Option<&'a str>,
    pub(crate) won_pile: Option<&'a str>,
}

impl Knobbed<'_> {
    /// The validated rules, `players` overriding the knob (the hands given), as the command
    /// line builds them.
    pub(crate) fn rules(&self, players: Option<usize>) -> PyResult<Rules> {
        let preset = named::<Preset>("rules", Some(self.rules))?;
        let mut settings = Settings::new(preset.expect("given"))
            .players(players.or(self.players))
            .face_down(self.face_down);
        let named_parts = [
            ("deck", self.deck),
            ("short_war", self.short_war),
            ("gather", self.gather),
            ("deal", self.deal),
            ("ranking", self.ranking),
            ("won_pile", self.won_pile),
        ];
        for (part, text) in named_parts {
            if let Some(text) = text {
                settings = settings.part(part, text).map_err(bad)?;
            }
        }
        // The library's error names the argument at fault (`face_down: ...`).
        settings.build().map_err(bad)
    }
}

/// A `UserWarning` with `message`, as the command line's notes.
pub(crate) fn warn(py: Python<'_>, message: String) -> PyResult<()> {
    let message = std::ffi::CString::new(message).map_err(bad)?;
    // 2: the line that called the module's Python function, which called this one.
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 2)
}

/// Warns of a ranking that plays as the standard one on this deck, as the command line notes.
pub(crate) fn warn_inert_ranking(py: Python<'_>, rules: &Rules) -> PyResult<()> {
    if let Some(note) = rules.inert_ranking() {
        warn(py, note)?;
    }
    Ok(())
}

pub(crate) fn shuffle_of(text: Option<&str>) -> PyResult<Shuffle> {
    Ok(named::<Shuffle>("shuffle", text)?.unwrap_or(Shuffle::Lcg))
}

pub(crate) fn max_rounds_of(max_rounds: Option<u64>) -> PyResult<u64> {
    match max_rounds {
        Some(n) => check_max_rounds(n).map_err(bad),
        None => Ok(DEFAULT_MAX_ROUNDS),
    }
}

/// One game's row, as the CSV has it, in 32 bytes: for an infinite game `a` and `b` are its
/// cycle start and length, otherwise its rounds and battles.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Row {
    a: u64,
    b: u64,
    wars: u64,
    /// `OutcomeName` in declaration order: 0 win, 1 draw, 2 infinite, 3 capped.
    outcome: u8,
    /// From 1; 0 unless a win.
    winner: u8,
}

/// Bytes a row takes in `row_bytes`.
const ROW_BYTES: usize = 32;

impl Row {
    /// The CSV row in 24 bytes.
    fn of(result: &GameResult) -> Row {
        let row = GameRow::new(0, result);
        let (a, b) = match row.outcome {
            OutcomeName::Infinite => (row.cycle_start, row.cycle_length),
            OutcomeName::Win | OutcomeName::Draw | OutcomeName::Capped => (row.rounds, row.battles),
        };
        Row {
            a: a.unwrap_or(0),
            b: b.unwrap_or(0),
            wars: row.wars.unwrap_or(0),
            outcome: row.outcome as u8,
            winner: row.winner.map_or(0, |w| w as u8),
        }
    }
}

/// Collects the rows of a sweep in seed order.
struct Rows(Vec<Row>);

impl RowSink for Rows {
    fn window(&mut self, _first_seed: u64, results: &[GameResult]) -> std::io::Result<()> {
        self.0.extend(results.iter().map(Row::of));
        Ok(())
    }

    fn sync(&mut self) -> std::io::Result<u64> {
        Ok(0)
    }

    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A finished sweep: its JSON summary and its rows.
#[pyclass(frozen, module = "warsweep")]
struct Swept {
    /// The JSON summary, as `warsweep sweep --summary` writes it.
    #[pyo3(get)]
    summary_json: String,
    /// The first seed.
    #[pyo3(get)]
    first_seed: u64,
    rows: Option<Vec<Row>>,
    /// Each row's deal, when the sweep was asked for it (`rows_with=["hands"]`).
    hands: Option<hands::Hands>,
    /// Whether Ctrl-C stopped the sweep before its last seed (the summary and rows cover the
    /// seeds played, from the first).
    #[pyo3(get)]
    stopped: bool,
}

#[pymethods]
impl Swept {
    /// Games kept as rows (0 when the sweep kept none).
    fn __len__(&self) -> usize {
        self.rows.as_ref().map_or(0, Vec::len)
    }

    /// Whether the sweep kept its rows.
    #[getter]
    fn has_rows(&self) -> bool {
        self.rows.is_some()
    }

    /// The rows, 32 bytes each (see `Row`): `a` u64, `b` u64, `wars` u64, `outcome` u8,
    /// `winner` u8, six bytes of padding; little-endian.
    fn row_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let rows = self
            .rows
            .as_ref()
            .ok_or_else(|| bad("this sweep kept no rows: run it with rows=True"))?;
        let mut bytes = Vec::with_capacity(rows.len() * ROW_BYTES);
        for r in rows {
            bytes.extend_from_slice(&r.a.to_le_bytes());
            bytes.extend_from_slice(&r.b.to_le_bytes());
            bytes.extend_from_slice(&r.wars.to_le_bytes());
            bytes.extend_from_slice(&[r.outcome, r.winner, 0, 0, 0, 0, 0, 0]);
        }
        Ok(PyBytes::new(py, &bytes))
    }

    /// Each row's hands, when the sweep dealt them (else `None`): per game, per player,
    /// `longest` bytes of card values from 1, top card first, 0 past a shorter hand's end.
    fn hand_bytes<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.hands.as_ref().map(|h| PyBytes::new(py, &h.bytes))
    }

    /// The cards each player is dealt, when the sweep dealt its rows' hands.
    #[getter]
    fn hand_sizes(&self) -> Option<Vec<usize>> {
        self.hands.as_ref().map(|h| h.sizes.clone())
    }
}

/// The seed range of `seeds`: `(start, end)`, a `range` of step 1, or `None` (the command
/// line's default).
fn seed_range(seeds: Option<&Bound<PyAny>>) -> PyResult<Option<Seeds>> {
    let Some(seeds) = seeds else {
        return Ok(None);
    };
    let (start, end): (i128, i128) = if let Ok(range) = seeds.cast::<PyRange>() {
        let step: i64 = range.getattr("step")?.extract()?;
        if step != 1 {
            return Err(bad(format!("a range of seeds has step 1, not {step}")));
        }
        (
            range.getattr("start")?.extract()?,
            range.getattr("stop")?.extract()?,
        )
    } else if let Some(pair) = seeds.cast::<PyTuple>().ok().filter(|p| p.len() == 2) {
        pair.extract()?
    } else {
        return Err(bad("seeds are (start, end) or a range"));
    };
    if start < 0 || end < 0 {
        return Err(bad(format!("seeds {start}..{end}: seeds are 0 or more")));
    }
    let start = u64::try_from(start)
        .map_err(|_| bad(format!("{start} is not a seed: seeds are below 2^64")))?;
    let seeds = Seeds::new(start, end as u128).map_err(bad)?;
    if seeds.is_empty() {
        return Err(bad(format!("the seed range {} is empty", seeds)));
    }
    Ok(Some(seeds))
}

/// Plays every seed of a range (see the package's documentation).
#[pyfunction]
#[pyo3(signature = (seeds=None, *, rules, threads=None, deck=None, players=None,
    face_down=None, short_war=None, gather=None, deal=None, ranking=None, shuffle=None,
    max_rounds=None, won_pile=None, rows=true, csv=None, cycles=false, memory=None,
    progress=None, chosen=None, gpu=false, resume=false, hands=false))]
#[allow(clippy::too_many_arguments)]
fn sweep(
    py: Python<'_>,
    seeds: Option<Bound<PyAny>>,
    rules: &str,
    threads: Option<usize>,
    deck: Option<&str>,
    players: Option<usize>,
    face_down: Option<usize>,
    short_war: Option<&str>,
    gather: Option<&str>,
    deal: Option<&str>,
    ranking: Option<&str>,
    shuffle: Option<&str>,
    max_rounds: Option<u64>,
    won_pile: Option<&str>,
    rows: bool,
    csv: Option<PathBuf>,
    cycles: bool,
    memory: Option<u64>,
    progress: Option<Bound<PyAny>>,
    chosen: Option<&[u8]>,
    gpu: bool,
    resume: bool,
    hands: bool,
) -> PyResult<Swept> {
    let knobs = Knobbed {
        rules,
        deck,
        players,
        face_down,
        short_war,
        gather,
        deal,
        ranking,
        won_pile,
    };
    let rules = knobs.rules(None)?;
    let shuffle = shuffle_of(shuffle)?;
    let max_rounds = max_rounds_of(max_rounds)?;
    // Chosen seeds (little-endian u64s) are played in their order, within the range that
    // spans them, whose notes they share.
    let chosen: Option<Vec<u64>> = chosen.map(|bytes| {
        bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect()
    });
    let range = match &chosen {
        Some(list) => {
            let (least, most) = (list.iter().min(), list.iter().max());
            let (Some(&least), Some(&most)) = (least, most) else {
                return Err(bad("seeds: no seed is chosen: give one or more"));
            };
            if csv.is_some() {
                return Err(bad(
                    "rows streamed to a file take a range of seeds: keep the rows of chosen seeds (rows=True)",
                ));
            }
            Some(Seeds::new(least, u128::from(most) + 1).map_err(bad)?)
        }
        None => seed_range(seeds.as_ref())?,
    };
    let seeds = Seeds::choose(range, shuffle, rules.deck(), None).map_err(bad)?;
    let games = chosen.as_ref().map_or(seeds.len(), |c| c.len() as u128);
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let sweep = Sweeping::new(rules, shuffle, seeds)
        .max_rounds(max_rounds)
        .threads(threads)
        .cycles(cycles)
        .gpu(gpu);
    // What the GPU cannot play, every reason in one message, before anything else.
    let mut unfit = sweep.unfit_for_gpu(rows || csv.is_some());
    if gpu && chosen.is_some() {
        unfit.push(Unfit::Chosen);
    }
    if !unfit.is_empty() {
        return Err(bad(gpu_refusal("sweep", &unfit)));
    }
    if hands && !rows {
        return Err(bad(
            "rows_with: the hands join rows kept in memory: sweep with rows=True",
        ));
    }
    if rows {
        // Chosen seeds' games are held once more while they become rows.
        let held = chosen
            .as_ref()
            .map_or(0, |_| std::mem::size_of::<GameResult>());
        let players = rules.players();
        let dealt = if hands {
            rules.deck().size().div_ceil(players) * players
        } else {
            0
        };
        check_memory(games, ROW_BYTES + held + dealt, memory)?;
    }
    // The checks and notes of the command line's sweep (a job without files writes nothing):
    // a range past the lcg shuffle's distinct deals, a ranking that plays as the standard one.
    // Rows streamed to a file go through the command line's job: its checks that the file can
    // be written and clashes with no other, and its CSV, byte for byte.
    let job = Job {
        sweep,
        files: Files {
            csv: csv.clone(),
            ..Files::default()
        },
        // A file of rows keeps a checkpoint beside it, as the command line's does: a stopped
        // or killed sweep finishes with `resume=True`, byte for byte.
        resume,
        checkpoint_every: Duration::from_secs(2),
    };
    let mut notes = Vec::new();
    let ready = job
        .prepare(&mut |note| notes.push(note))
        .map_err(|e| bad(job_said(&e)))?;
    for note in notes {
        warn(py, note)?;
    }
    let stop = AtomicBool::new(false);
    let done = AtomicU64::new(0);
    let total = u64::try_from(games).unwrap_or(u64::MAX);
    let mut sink = Rows(Vec::new());
    if rows {
        sink.0.reserve_exact(total as usize);
    }
    let chosen = chosen.as_ref();
    let (summary, stopped) = std::thread::scope(|scope| -> PyResult<_> {
        let sink = &mut sink;
        let (stop, done) = (&stop, &done);
        let count = move |n: u64| {
            done.fetch_add(n, Ordering::Relaxed);
        };
        let (ended_tx, ended) = std::sync::mpsc::channel::<()>();
        let ended = std::sync::Mutex::new(ended);
        let worker = scope.spawn(move || -> Result<(Summary, bool), String> {
            // Wakes the waiting interpreter at once when the sweep returns, however it does.
            let _ended = Ended(ended_tx);
            if let Some(list) = &chosen {
                let mut results = Vec::new();
                let kept = if rows { Some(&mut results) } else { None };
                let swept = sweep
                    .run_chosen(list, kept, &count, stop)
                    .map_err(|e| said(&e))?;
                sink.0.extend(results.iter().map(Row::of));
                Ok((swept.summary, swept.stopped.is_some()))
            } else if csv.is_some() {
                let finished = ready.run(&count, stop).map_err(|e| job_said(&e))?;
                Ok((finished.summary, finished.stopped.is_some()))
            } else {
                let sink: Option<&mut dyn RowSink> = if rows { Some(sink) } else { None };
                let swept = sweep.run(sink, &count, stop).map_err(|e| said(&e))?;
                Ok((swept.summary, swept.stopped.is_some()))
            }
        });
        // The interpreter is free while the sweep plays; Ctrl-C is looked for ten times a
        // second (the waiting thread wakes no more often, and at once when the sweep ends),
        // and stops the sweep at its next window; `progress` hears the games played.
        let mut interrupted = None;
        let mut told = u64::MAX;
        let mut tell = || -> PyResult<()> {
            let now = done.load(Ordering::Relaxed).min(total);
            match &progress {
                Some(call) if now != told => {
                    told = now;
                    call.call1((now, total)).map(drop)
                }
                _ => Ok(()),
            }
        };
        while !worker.is_finished() {
            py.detach(|| {
                let ended = ended.lock().expect("only this thread waits");
                ended.recv_timeout(Duration::from_millis(100)).ok()
            });
            if interrupted.is_none() {
                if let Err(e) = py.check_signals().and_then(|()| tell()) {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(e);
                }
            }
        }
        let swept = py
            .detach(|| worker.join())
            .expect("the sweep thread panicked");
        if interrupted.is_none() {
            tell()?;
        }
        // Stopped by Ctrl-C, the sweep summarizes the seeds it played: the caller gets them.
        match (interrupted, swept) {
            (_, Ok(swept)) => Ok(swept),
            (Some(e), Err(_)) => Err(e),
            (None, Err(e)) => Err(bad(e)),
        }
    })?;
    // The deal of each row, dealt again now that the games are played.
    let hands = if hands {
        let first = seeds.start();
        let seed = |i: usize| chosen.map_or(first + i as u64, |list| list[i]);
        let dealt = py.detach(|| hands::Hands::deal(rules, shuffle, sink.0.len(), &seed, threads));
        Some(dealt?)
    } else {
        None
    };
    Ok(Swept {
        summary_json: summary.to_json(),
        first_seed: seeds.start(),
        rows: rows.then_some(sink.0),
        hands,
        stopped,
    })
}

/// What a sweep's refusal says in Python: named by its argument where one is at fault.
fn said(e: &SweepError) -> String {
    match e {
        SweepError::Device(DeviceError::Unfit(reasons)) => gpu_refusal("sweep", reasons),
        SweepError::Device(why) => format!("gpu: {why}"),
        SweepError::Threads(_) => format!("threads: {e}"),
        e => e.to_string(),
    }
}

/// What a job's refusal says in Python: a sweep's as [`said`] says it, one of the job's own
/// settings (`resume`) named by its argument, any other with its causes.
fn job_said(e: &warsweep::job::Error) -> String {
    let typed = e.typed();
    if let Some(refused) = typed.and_then(|t| t.downcast_ref::<SweepError>()) {
        return said(refused);
    }
    match typed.and_then(|t| t.downcast_ref::<JobError>()) {
        // The library names the setting at fault; Python names it as its argument.
        Some(refused) => format!("{}: {}", refused.setting(), with_causes(e)),
        None => with_causes(e),
    }
}

/// Why the GPU cannot play a sweep or a hunt (`what`), every reason in one message, in
/// Python's words where an argument or the build is at fault.
pub(crate) fn gpu_refusal(what: &str, reasons: &[Unfit]) -> String {
    let said: Vec<String> = reasons
        .iter()
        .map(|reason| match reason {
            Unfit::NotBuilt => "this module is built without GPU support (install it with MATURIN_PEP517_ARGS=\"--features gpu\" pip install .)".to_string(),
            Unfit::Rows => "the GPU keeps no per-game rows (pass rows=False)".to_string(),
            Unfit::Chosen => "the GPU walks ranges of seeds (give seeds=(start, end), not chosen seeds)".to_string(),
            reason => reason.to_string(),
        })
        .collect();
    format!("gpu: the GPU cannot play this {what}: {}", said.join("; "))
}

/// Sends on drop: the sweep thread's end, returned or unwound.
struct Ended(std::sync::mpsc::Sender<()>);

impl Drop for Ended {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

/// Refuses, before the first game, a sweep whose rows (`per_game` bytes a game) would not fit
/// in the `memory` bytes the caller found available.
fn check_memory(games: u128, per_game: usize, memory: Option<u64>) -> PyResult<()> {
    let need = games.saturating_mul(per_game as u128);
    let fits = need <= isize::MAX as u128 && memory.is_none_or(|m| need <= u128::from(m));
    if fits {
        return Ok(());
    }
    let available = memory.map_or_else(String::new, |m| {
        format!(", and {} is available", size(m as f64))
    });
    Err(PyMemoryError::new_err(format!(
        "keeping a row for each of {games} games takes {}{available}: sweep with rows=False \
         (the summary only) or rows=\"games.csv\" (the rows streamed to a file)",
        size(need as f64)
    )))
}

/// A number of bytes for people (`2.1 GB`).
fn size(bytes: f64) -> String {
    let units = ["bytes", "kB", "MB", "GB", "TB", "PB", "EB", "ZB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < units.len() {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} bytes")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// The error `e` with its causes, as the command line prints them.
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}

/// Merges the JSON summaries `summaries` of shards of one sweep, as `warsweep merge` does.
#[pyfunction]
fn merge(summaries: Vec<String>) -> PyResult<String> {
    let read = summaries
        .iter()
        .enumerate()
        .map(|(i, text)| {
            text.parse::<Summary>()
                .map_err(|e| bad(format!("summaries[{i}]: {}", with_causes(&e))))
        })
        .collect::<PyResult<Vec<Summary>>>()?;
    let merged = Summary::merge(&read).map_err(|e| bad(with_causes(&e)))?;
    Ok(merged.to_json())
}

/// A sweep from what `Sweep.__reduce__` keeps (pickling): its summary, first seed, rows (as
/// `row_bytes` gives them, or `None`), whether it was stopped, and its hands (`hand_sizes`
/// and `hand_bytes`, or `None`).
#[pyfunction]
#[pyo3(signature = (summary_json, first_seed, rows, stopped, hands=None))]
fn _swept(
    summary_json: String,
    first_seed: u64,
    rows: Option<&[u8]>,
    stopped: bool,
    hands: Option<(Vec<usize>, Vec<u8>)>,
) -> PyResult<Swept> {
    let rows = rows.map(|bytes| {
        bytes
            .chunks_exact(ROW_BYTES)
            .map(|r| {
                let word = |i: usize| u64::from_le_bytes(r[8 * i..8 * i + 8].try_into().unwrap());
                Row {
                    a: word(0),
                    b: word(1),
                    wars: word(2),
                    outcome: r[24],
                    winner: r[25],
                }
            })
            .collect()
    });
    let hands = hands.map(|(sizes, bytes)| hands::Hands { sizes, bytes });
    Ok(Swept {
        summary_json,
        first_seed,
        rows,
        hands,
        stopped,
    })
}

/// Every valid name of each knob, in the library's order, for the package's constants.
#[pyfunction]
fn _names() -> Vec<(&'static str, Vec<String>)> {
    fn all<T: ToString>(values: &[T]) -> Vec<String> {
        values.iter().map(ToString::to_string).collect()
    }
    vec![
        ("rules", all(Preset::ALL)),
        ("short_war", all(ShortWar::ALL)),
        ("gather", all(Gather::ALL)),
        ("deal", all(Deal::ALL)),
        ("ranking", all(Ranking::ALL)),
        ("won_pile", all(WonPile::ALL)),
        ("shuffle", all(Shuffle::ALL)),
    ]
}

/// The knobs of preset `name` as a summary writes them (`deck`, `players`, ... and the
/// defaults of `shuffle` and `max_rounds`), for `Sweep`'s `repr`.
#[pyfunction]
fn _preset(name: &str) -> PyResult<Vec<(&'static str, String)>> {
    let preset = named::<Preset>("rules", Some(name))?.expect("a name was given");
    let r = Rules::preset(preset);
    Ok(vec![
        ("deck", r.deck().to_string()),
        ("players", r.players().to_string()),
        ("face_down", r.face_down().to_string()),
        ("short_war", r.short_war().to_string()),
        ("gather", r.gather().to_string()),
        ("deal", r.deal().to_string()),
        ("ranking", r.ranking().to_string()),
        ("won_pile", r.won_pile().to_string()),
        ("shuffle", Shuffle::Lcg.to_string()),
        ("max_rounds", DEFAULT_MAX_ROUNDS.to_string()),
    ])
}

/// The histogram of `metric` in a summary: the values (each bucket's largest) and the games.
#[pyfunction]
fn _histogram(summary_json: &str, metric: &str) -> PyResult<(Vec<u64>, Vec<u64>)> {
    let metric = metric
        .parse::<Metric>()
        .map_err(|e| bad(format!("metric: {e}")))?;
    let summary = summary_json.parse::<Summary>().map_err(bad)?;
    let buckets = summary.histogram(metric).map_err(bad)?;
    Ok(buckets.into_iter().unzip())
}

/// The native module.
#[pymodule]
fn _warsweep(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(game::play, m)?)?;
    m.add_function(wrap_pyfunction!(game::deal, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(game::_game, m)?)?;
    m.add_function(wrap_pyfunction!(_preset, m)?)?;
    m.add_function(wrap_pyfunction!(_swept, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(_histogram, m)?)?;
    m.add_function(wrap_pyfunction!(plot::_plot, m)?)?;
    m.add_function(wrap_pyfunction!(_names, m)?)?;
    m.add_function(wrap_pyfunction!(hunt::_hunt, m)?)?;
    m.add_function(wrap_pyfunction!(shapes::_shapes, m)?)?;
    m.add_class::<game::Game>()?;
    m.add_class::<Swept>()?;
    Ok(())
}
