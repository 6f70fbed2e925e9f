//! The native part of the `warsweep` Python package: one game (`play`) and a sweep of many
//! (`sweep`), built on the warsweep library exactly as the command line is, so that a setting
//! means the same, gives the same numbers and is refused with the same sentence. The package's
//! Python side (`python/warsweep/__init__.py`) turns the rows into NumPy arrays and DataFrames.

mod hunt;

use pyo3::exceptions::{PyMemoryError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyRange, PyTuple};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use warsweep::job::{Files, Job};
use warsweep::puzzles::play_line;
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::{check_max_rounds, Engine, GameResult, Observer, Silent, DEFAULT_MAX_ROUNDS};
use warsweep::{Card, Deal, Deck, Gather, Preset, Ranking, Rules, Settings, ShortWar, WonPile};
use warsweep::{DeviceError, SweepError, Unfit};
use warsweep::{GameRow, OutcomeName};
use warsweep::{RowSink, Summary, Sweep as Sweeping};

/// A `ValueError` carrying the library's own sentence.
pub(crate) fn bad(e: impl std::fmt::Display) -> PyErr {
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
        Some(n) => check_max_rounds(n).map_err(bad),
        None => Ok(DEFAULT_MAX_ROUNDS),
    }
}

/// One game's result. Games are equal when every field is (their seeds and lines included),
/// hash alike then, and pickle.
#[pyclass(frozen, eq, hash, module = "warsweep")]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Game {
    /// The seed dealt; `None` for hands given.
    #[pyo3(get)]
    seed: Option<u64>,
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
    /// Every battle, when the game was played with `trace=True`.
    battles_seen: Option<Vec<Battle>>,
}

/// One battle of a traced game: the cards revealed, and what followed them.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
struct Battle {
    battle: u64,
    round: u64,
    /// `(player from 1, card)` in the order the cards reached the table.
    revealed: Vec<(usize, String)>,
    /// The cards the tied players put face down before the next battle.
    face_down: Vec<(usize, String)>,
    /// The round's winner (from 1) and the cards taken, in the order taken, when this battle
    /// ended its round.
    took: Option<(usize, Vec<String>)>,
    /// Why the game stopped in this battle's war (a war cut short).
    note: Option<String>,
    /// Won piles shuffled into new hands after this battle: `(player from 1, new hand)`.
    shuffled: Vec<(usize, Vec<String>)>,
}

impl Battle {
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("battle", self.battle)?;
        d.set_item("round", self.round)?;
        d.set_item("revealed", self.revealed.clone())?;
        d.set_item("face_down", self.face_down.clone())?;
        d.set_item("winner", self.took.as_ref().map(|t| t.0))?;
        d.set_item(
            "took",
            self.took.as_ref().map_or_else(Vec::new, |t| t.1.clone()),
        )?;
        d.set_item("note", self.note.clone())?;
        d.set_item("shuffled", self.shuffled.clone())?;
        Ok(d)
    }
}

/// Collects the battles of one game (an [`Observer`]), players numbered from 1.
#[derive(Default)]
struct Battles(Vec<Battle>);

impl Battles {
    fn last(&mut self) -> &mut Battle {
        if self.0.is_empty() {
            self.0.push(Battle::default());
        }
        self.0.last_mut().expect("one was pushed")
    }
}

fn named_cards(cards: &[(usize, Card)]) -> Vec<(usize, String)> {
    cards.iter().map(|&(p, c)| (p + 1, c.to_string())).collect()
}

fn card_names(cards: &[Card]) -> Vec<String> {
    cards.iter().map(ToString::to_string).collect()
}

impl Observer for Battles {
    fn revealed(&mut self, battle: u64, round: u64, cards: &[(usize, Card)]) {
        self.0.push(Battle {
            battle,
            round,
            revealed: named_cards(cards),
            ..Battle::default()
        });
    }

    fn war(&mut self, face_down: &[(usize, Card)]) {
        self.last().face_down = named_cards(face_down);
    }

    fn took(&mut self, winner: usize, cards: &[Card]) {
        self.last().took = Some((winner + 1, card_names(cards)));
    }

    fn note(&mut self, text: &str) {
        self.last().note = Some(text.to_string());
    }

    fn pile_shuffled(&mut self, player: usize, hand: &[Card]) {
        self.last().shuffled.push((player + 1, card_names(hand)));
    }
}

/// A game from its fields, as `Game.__reduce__` gives them (pickling).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn _game(
    seed: Option<u64>,
    outcome: String,
    winner: Option<usize>,
    rounds: Option<u64>,
    battles: Option<u64>,
    wars: Option<u64>,
    cycle_start: Option<u64>,
    cycle_length: Option<u64>,
    line: String,
    trace: Option<Vec<Bound<'_, PyDict>>>,
) -> PyResult<Game> {
    let battles_seen = trace
        .map(|t| t.iter().map(battle_of).collect())
        .transpose()?;
    Ok(Game {
        seed,
        outcome,
        winner,
        rounds,
        battles,
        wars,
        cycle_start,
        cycle_length,
        line,
        battles_seen,
    })
}

/// A battle from the dict `Battle::to_dict` gave (unpickling).
fn battle_of(d: &Bound<'_, PyDict>) -> PyResult<Battle> {
    fn item<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
        d.get_item(key)?
            .ok_or_else(|| bad(format!("a traced battle lacks {key}")))?
            .extract()
            .map_err(Into::into)
    }
    let winner: Option<usize> = item(d, "winner")?;
    let took: Vec<String> = item(d, "took")?;
    Ok(Battle {
        battle: item(d, "battle")?,
        round: item(d, "round")?,
        revealed: item(d, "revealed")?,
        face_down: item(d, "face_down")?,
        took: winner.map(|w| (w, took)),
        note: item(d, "note")?,
        shuffled: item(d, "shuffled")?,
    })
}

#[pymethods]
impl Game {
    /// How pickle rebuilds a game: `_game` and the fields.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let build = py.import("warsweep._warsweep")?.getattr("_game")?;
        let fields = (
            self.seed,
            self.outcome.clone(),
            self.winner,
            self.rounds,
            self.battles,
            self.wars,
            self.cycle_start,
            self.cycle_length,
            self.line.clone(),
            self.trace(py)?,
        );
        Ok((build, fields.into_pyobject(py)?))
    }

    /// The game battle by battle, when played with `trace=True` (else `None`): a list of
    /// dicts, one a battle, with `battle` and `round` (from 1), `revealed` (`(player, card)`
    /// in the order the cards reached the table), `face_down` (the cards the tied players put
    /// down before the next battle), `winner` and `took` (the round's winner and the cards
    /// taken, in order, when this battle ended the round), `note` (why a war was cut short)
    /// and `shuffled` (won piles turned into new hands).
    #[getter]
    fn trace<'py>(&self, py: Python<'py>) -> PyResult<Option<Vec<Bound<'py, PyDict>>>> {
        self.battles_seen
            .as_ref()
            .map(|b| b.iter().map(|b| b.to_dict(py)).collect())
            .transpose()
    }

    fn __str__(&self) -> String {
        self.line.clone()
    }

    /// The outcome and the counts, each with its name (an infinite game's: its cycle).
    fn __repr__(&self) -> String {
        let mut fields = vec![format!("outcome='{}'", self.outcome)];
        let named = [
            ("winner", self.winner.map(|w| w as u64)),
            ("rounds", self.rounds),
            ("battles", self.battles),
            ("wars", self.wars),
            ("cycle_start", self.cycle_start),
            ("cycle_length", self.cycle_length),
        ];
        for (name, value) in named {
            if let Some(value) = value {
                fields.push(format!("{name}={value}"));
            }
        }
        format!("<warsweep.Game {}>", fields.join(" "))
    }
}

impl Game {
    /// The game's fields are its CSV row's.
    fn new(
        rules: &Rules,
        seed: Option<u64>,
        result: &GameResult,
        battles_seen: Option<Battles>,
    ) -> Game {
        let row = GameRow::new(0, result);
        Game {
            seed,
            outcome: row.outcome.to_string(),
            winner: row.winner.map(|w| w as usize),
            rounds: row.rounds,
            battles: row.battles,
            wars: row.wars,
            cycle_start: row.cycle_start,
            cycle_length: row.cycle_length,
            line: play_line(rules, result),
            battles_seen: battles_seen.map(|b| b.0),
        }
    }
}

/// The hands' cards, each a bare value (a number from 1) or a card of the deck (a string such
/// as `"10H"`), read by the library as the command line reads them.
fn cards_of(hands: &[Vec<Bound<PyAny>>], deck: Deck) -> PyResult<Vec<Vec<Card>>> {
    let card = |c: &Bound<PyAny>| {
        match (c.extract::<i64>(), c.extract::<String>()) {
        (Ok(value), _) => deck.value_card(value).map_err(|e| bad(format!("hands: {e}"))),
        (_, Ok(text)) => deck.parse_card(&text).map_err(|e| bad(format!("hands: {e}"))),
        _ => Err(bad(format!(
            "hands: {} is neither a value (a whole number from 1) nor a card of the deck (a string such as \"10H\")",
            c.repr().map_or_else(|_| "a card".to_string(), |r| r.to_string())
        ))),
    }
    };
    hands
        .iter()
        .map(|hand| hand.iter().map(card).collect())
        .collect()
}

/// Plays one game and returns its result (see the package's documentation).
#[pyfunction]
#[pyo3(signature = (hands=None, *, seed=None, rules, deck=None, players=None,
    face_down=None, short_war=None, gather=None, deal=None, ranking=None, shuffle=None,
    max_rounds=None, won_pile=None, trace=false))]
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
    trace: bool,
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
            let mut engine = Engine::new(rules);
            engine.set_max_rounds(max_rounds).map_err(bad)?;
            let (result, seen) = py
                .detach(move || {
                    if trace {
                        let mut seen = Battles::default();
                        let result = engine.play_seed_observed(shuffle, seed, &mut seen);
                        result.map(|r| (r, Some(seen)))
                    } else {
                        engine.play_seed(shuffle, seed).map(|r| (r, None))
                    }
                })
                .map_err(bad)?;
            Ok(Game::new(&rules, Some(seed), &result, seen))
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
            let mut engine = Engine::with_capacity(rules, total).map_err(bad)?;
            engine.set_max_rounds(max_rounds).map_err(bad)?;
            let (result, seen) = py
                .detach(move || {
                    if trace {
                        let mut seen = Battles::default();
                        let result = engine.play_hands(&hands, 0, &mut seen);
                        result.map(|r| (r, Some(seen)))
                    } else {
                        engine.play_hands(&hands, 0, &mut Silent).map(|r| (r, None))
                    }
                })
                .map_err(bad)?;
            Ok(Game::new(&rules, None, &result, seen))
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
    if seeds.len() == 0 {
        return Err(bad(format!("the seed range {} is empty", seeds)));
    }
    Ok(Some(seeds))
}

/// Plays every seed of a range (see the package's documentation).
#[pyfunction]
#[pyo3(signature = (seeds=None, *, rules, threads=None, deck=None, players=None,
    face_down=None, short_war=None, gather=None, deal=None, ranking=None, shuffle=None,
    max_rounds=None, won_pile=None, rows=true, csv=None, cycles=false, memory=None,
    progress=None, chosen=None, gpu=false))]
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
        return Err(bad(gpu_refusal(&unfit)));
    }
    if rows {
        // Chosen seeds' games are held once more while they become rows.
        let held = chosen
            .as_ref()
            .map_or(0, |_| std::mem::size_of::<GameResult>());
        check_memory(games, ROW_BYTES + held, memory)?;
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
        resume: false,
        checkpoint_every: Duration::MAX,
    };
    let mut notes = Vec::new();
    let ready = job
        .prepare(&mut |note| notes.push(note))
        .map_err(|e| bad(with_causes(&e)))?;
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
                let swept = sweep.run_chosen(list, kept, &count, stop).map_err(said)?;
                sink.0.extend(results.iter().map(Row::of));
                Ok((swept.summary, swept.stopped.is_some()))
            } else if csv.is_some() {
                let finished = ready.run(&count, stop).map_err(|e| with_causes(&e))?;
                Ok((finished.summary, finished.stopped.is_some()))
            } else {
                let sink: Option<&mut dyn RowSink> = if rows { Some(sink) } else { None };
                let swept = sweep.run(sink, &count, stop).map_err(said)?;
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
    Ok(Swept {
        summary_json: summary.to_json(),
        first_seed: seeds.start(),
        rows: rows.then_some(sink.0),
        stopped,
    })
}

/// What a sweep's refusal says in Python: the GPU's, named by its argument.
fn said(e: SweepError) -> String {
    match e {
        SweepError::Device(DeviceError::Unfit(reasons)) => gpu_refusal(&reasons),
        SweepError::Device(why) => format!("gpu: {why}"),
        e => e.to_string(),
    }
}

/// Why the GPU cannot play a sweep, every reason in one message, in Python's words where an
/// argument or the build is at fault.
fn gpu_refusal(reasons: &[Unfit]) -> String {
    let said: Vec<String> = reasons
        .iter()
        .map(|reason| match reason {
            Unfit::NotBuilt => "this module is built without GPU support (install it with MATURIN_PEP517_ARGS=\"--features gpu\" pip install .)".to_string(),
            Unfit::Rows => "the GPU keeps no per-game rows (pass rows=False)".to_string(),
            Unfit::Chosen => "the GPU walks ranges of seeds (give seeds=(start, end), not chosen seeds)".to_string(),
            reason => reason.to_string(),
        })
        .collect();
    format!("gpu: the GPU cannot play this sweep: {}", said.join("; "))
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
/// `row_bytes` gives them, or `None`) and whether it was stopped.
#[pyfunction]
fn _swept(
    summary_json: String,
    first_seed: u64,
    rows: Option<&[u8]>,
    stopped: bool,
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
    Ok(Swept {
        summary_json,
        first_seed,
        rows,
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
        ("ranking", all(&Ranking::ALL)),
        ("won_pile", all(WonPile::ALL)),
        ("shuffle", all(&Shuffle::ALL)),
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

/// The native module.
#[pymodule]
fn _warsweep(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(_game, m)?)?;
    m.add_function(wrap_pyfunction!(_preset, m)?)?;
    m.add_function(wrap_pyfunction!(_swept, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(_names, m)?)?;
    m.add_function(wrap_pyfunction!(hunt::_hunt, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<Swept>()?;
    Ok(())
}
