//! The native part of the `warsweep` Python package: one game (`play`) and a sweep of many
//! (`sweep`), built on the warsweep library exactly as the command line is, so that a setting
//! means the same, gives the same numbers and is refused with the same sentence. The package's
//! Python side (`python/warsweep/__init__.py`) turns the rows into NumPy arrays and DataFrames.

use pyo3::exceptions::{PyKeyboardInterrupt, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyRange, PyTuple};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use warsweep::puzzles::play_line;
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::{Card, Deal, Deck, Gather, Preset, Ranking, Rules, Settings, ShortWar, WonPile};
use warsweep::{Engine, GameResult, Silent, DEFAULT_MAX_ROUNDS};
use warsweep::{GameRow, OutcomeName};
use warsweep::{RowSink, Sweep as Sweeping};

/// A `ValueError` carrying the library's own sentence.
fn bad(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The value of the argument `argument` (`gather`), from its name.
fn named<T: std::str::FromStr>(argument: &str, text: Option<&str>) -> PyResult<Option<T>>
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
struct Knobbed<'a> {
    rules: &'a str,
    deck: Option<&'a str>,
    players: Option<usize>,
    face_down: Option<usize>,
    short_war: Option<&'a str>,
    gather: Option<&'a str>,
    deal: Option<&'a str>,
    ranking: Option<&'a str>,
    won_pile: Option<&'a str>,
}

impl Knobbed<'_> {
    /// The validated rules, `players` overriding the knob (the hands given), as the command
    /// line builds them.
    fn rules(&self, players: Option<usize>) -> PyResult<Rules> {
        let preset = named::<Preset>("rules", Some(self.rules))?;
        let deck = self.deck.map(Deck::parse).transpose();
        let deck = deck.map_err(|e| bad(format!("deck: {e}")))?;
        let settings = Settings::new(preset.expect("given"))
            .deck(deck)
            .players(players.or(self.players))
            .face_down(self.face_down)
            .short_war(named::<ShortWar>("short_war", self.short_war)?)
            .gather(named::<Gather>("gather", self.gather)?)
            .deal(named::<Deal>("deal", self.deal)?)
            .ranking(named::<Ranking>("ranking", self.ranking)?)
            .won_pile(named::<WonPile>("won_pile", self.won_pile)?);
        // The library's error names the argument at fault (`face_down: ...`).
        settings.build().map_err(bad)
    }
}

/// A `UserWarning` with `message`, as the command line's notes.
fn warn(py: Python<'_>, message: String) -> PyResult<()> {
    let message = std::ffi::CString::new(message).map_err(bad)?;
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)
}

/// Warns of a ranking that plays as the standard one on this deck, as the command line notes.
fn warn_inert_ranking(py: Python<'_>, rules: &Rules) -> PyResult<()> {
    if let Some(note) = rules.inert_ranking() {
        warn(py, note)?;
    }
    Ok(())
}

fn shuffle_of(text: Option<&str>) -> PyResult<Shuffle> {
    Ok(named::<Shuffle>("shuffle", text)?.unwrap_or(Shuffle::Lcg))
}

fn max_rounds_of(max_rounds: Option<u64>) -> PyResult<u64> {
    match max_rounds {
        Some(0) => Err(bad("0 is not allowed here: give 1 or more")),
        Some(n) => Ok(n),
        None => Ok(DEFAULT_MAX_ROUNDS),
    }
}

/// One game's result.
#[pyclass(frozen, module = "warsweep")]
struct Game {
    /// `"win"`, `"draw"`, `"infinite"` or `"capped"`.
    #[pyo3(get)]
    outcome: String,
    /// The winner, from 1; `None` unless the outcome is a win.
    #[pyo3(get)]
    winner: Option<usize>,
    /// Finished rounds; `None` for an infinite game.
    #[pyo3(get)]
    rounds: Option<u64>,
    /// Battles; `None` for an infinite game.
    #[pyo3(get)]
    battles: Option<u64>,
    /// Wars; `None` for an infinite game.
    #[pyo3(get)]
    wars: Option<u64>,
    /// The first round whose state recurs; `None` unless infinite.
    #[pyo3(get)]
    cycle_start: Option<u64>,
    /// The rounds between two occurrences of a state; `None` unless infinite.
    #[pyo3(get)]
    cycle_length: Option<u64>,
    /// The line `warsweep play` prints.
    line: String,
}

#[pymethods]
impl Game {
    fn __str__(&self) -> String {
        self.line.clone()
    }

    fn __repr__(&self) -> String {
        format!("<warsweep.Game {}>", self.line)
    }
}

impl Game {
    /// The game's fields are its CSV row's.
    fn new(rules: &Rules, result: &GameResult) -> Game {
        let row = GameRow::new(0, result);
        Game {
            outcome: row.outcome.to_string(),
            winner: row.winner.map(|w| w as usize),
            rounds: row.rounds,
            battles: row.battles,
            wars: row.wars,
            cycle_start: row.cycle_start,
            cycle_length: row.cycle_length,
            line: play_line(rules, result),
        }
    }
}

/// The hands' cards, each a bare value (a number from 1) or a card of the deck (a string such
/// as `"10H"`), read by the library as the command line reads them.
fn cards_of(hands: &[Vec<Bound<PyAny>>], deck: Deck) -> PyResult<Vec<Vec<Card>>> {
    let card = |c: &Bound<PyAny>| match (c.extract::<i64>(), c.extract::<String>()) {
        (Ok(value), _) => deck.value_card(value).map_err(bad),
        (_, Ok(text)) => deck.parse_card(&text).map_err(bad),
        _ => Err(bad(
            "a card is a value (a number from 1) or a card of the deck (a string such as \"10H\")",
        )),
    };
    hands
        .iter()
        .map(|hand| hand.iter().map(card).collect())
        .collect()
}

/// Plays one game and returns its result (see the package's documentation).
#[pyfunction]
#[pyo3(signature = (hands=None, *, seed=None, rules="codingame", deck=None, players=None,
    face_down=None, short_war=None, gather=None, deal=None, ranking=None, shuffle=None,
    max_rounds=None, won_pile=None))]
#[allow(clippy::too_many_arguments)]
fn play(
    py: Python<'_>,
    hands: Option<Vec<Vec<Bound<PyAny>>>>,
    seed: Option<u64>,
    rules: &str,
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
) -> PyResult<Game> {
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
    let max_rounds = max_rounds_of(max_rounds)?;
    let shuffle = shuffle_of(shuffle)?;
    match (hands, seed) {
        (Some(_), Some(_)) => Err(bad("give either hands or a seed, not both")),
        (None, None) => Err(bad("give hands, or a seed to deal them")),
        (None, Some(seed)) => {
            let rules = knobs.rules(None)?;
            warn_inert_ranking(py, &rules)?;
            let result = py.detach(|| {
                let mut engine = Engine::new(rules);
                engine.set_max_rounds(max_rounds);
                engine.play_seed(shuffle, seed)
            });
            let result = result.map_err(bad)?;
            Ok(Game::new(&rules, &result))
        }
        (Some(hands), None) => {
            // The deck the knobs name decides which values the hands may hold.
            let deck = knobs.rules(Some(2))?.deck();
            let hands = cards_of(&hands, deck)?;
            if let Some(excess) = deck.excess(&hands.concat()) {
                warn(py, format!("{excess}: they are played as given"))?;
            }
            if let Some(n) = players.filter(|&n| n != hands.len()) {
                return Err(bad(format!(
                    "{} hands are given but players says {n}",
                    hands.len()
                )));
            }
            let rules = knobs.rules(Some(hands.len()))?;
            warn_inert_ranking(py, &rules)?;
            let total = hands.iter().map(Vec::len).sum();
            let result = py.detach(|| {
                let mut engine = Engine::with_capacity(rules, total);
                engine.set_max_rounds(max_rounds);
                engine.play_hands(&hands, 0, &mut Silent)
            });
            let result = result.map_err(bad)?;
            Ok(Game::new(&rules, &result))
        }
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
#[pyo3(signature = (seeds=None, *, rules="shortened", threads=None, deck=None, players=None,
    face_down=None, short_war=None, gather=None, deal=None, ranking=None, shuffle=None,
    max_rounds=None, won_pile=None, rows=true, cycles=false))]
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
    cycles: bool,
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
    let range = seed_range(seeds.as_ref())?;
    let seeds = Seeds::choose(range, shuffle, rules.deck(), None).map_err(bad)?;
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    if rows && seeds.len() > (isize::MAX as u128) / ROW_BYTES as u128 {
        return Err(bad(
            "too many seeds to keep a row each: sweep with rows=False",
        ));
    }
    let sweep = Sweeping::new(rules, shuffle, seeds)
        .max_rounds(max_rounds)
        .threads(threads)
        .cycles(cycles);
    warn_inert_ranking(py, &rules)?;
    let stop = AtomicBool::new(false);
    let mut sink = Rows(Vec::new());
    let swept = std::thread::scope(|scope| -> PyResult<_> {
        let want_rows = rows;
        let sink = &mut sink;
        let stop = &stop;
        let worker = scope.spawn(move || {
            let sink: Option<&mut dyn RowSink> = if want_rows { Some(sink) } else { None };
            sweep.run(sink, &|_| {}, stop)
        });
        // The interpreter is free while the sweep plays; Ctrl-C is looked for ten times a
        // second, and stops the sweep at its next window.
        let mut interrupted = None;
        while !worker.is_finished() {
            py.detach(|| std::thread::sleep(Duration::from_millis(20)));
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(e);
                }
            }
        }
        let swept = py
            .detach(|| worker.join())
            .expect("the sweep thread panicked");
        match interrupted {
            Some(e) => Err(e),
            None => swept.map_err(bad),
        }
    })?;
    if swept.stopped.is_some() {
        return Err(PyKeyboardInterrupt::new_err("the sweep was stopped"));
    }
    Ok(Swept {
        summary_json: swept.summary.to_json(),
        first_seed: seeds.start(),
        rows: rows.then_some(sink.0),
    })
}

/// The native module.
#[pymodule]
fn _warsweep(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<Swept>()?;
    Ok(())
}
