//! One game from Python: `play` (a seed's deal or given hands, battle by battle on request),
//! `deal` (the hands a seed deals), and the `Game` they return.

use crate::{bad, max_rounds_of, shuffle_of, warn, warn_inert_ranking, Knobbed};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use warsweep::puzzles::play_line;
use warsweep::{Card, Deck, Engine, GameResult, GameRow, Observer, Rules, Silent};

/// One game's result. Games are equal when every field is (their seeds and lines included),
/// hash alike then, and pickle.
#[pyclass(frozen, eq, hash, module = "warsweep")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Game {
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
    /// The hands the game started from, player by player, top card first: values from 1.
    #[pyo3(get)]
    hands: Vec<Vec<u32>>,
    /// The same hands as card names (`"10H"`, or the bare value on decks without suits).
    #[pyo3(get)]
    cards: Vec<Vec<String>>,
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
        d.set_item("dealt", Vec::<(usize, Vec<String>)>::new())?;
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
pub(crate) fn _game(
    seed: Option<u64>,
    outcome: String,
    winner: Option<usize>,
    rounds: Option<u64>,
    battles: Option<u64>,
    wars: Option<u64>,
    cycle_start: Option<u64>,
    cycle_length: Option<u64>,
    hands: Vec<Vec<u32>>,
    cards: Vec<Vec<String>>,
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
        hands,
        cards,
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
            self.hands.clone(),
            self.cards.clone(),
            self.line.clone(),
            self.battles_seen
                .as_ref()
                .map(|b| {
                    b.iter()
                        .map(|b| b.to_dict(py))
                        .collect::<PyResult<Vec<_>>>()
                })
                .transpose()?,
        );
        Ok((build, fields.into_pyobject(py)?))
    }

    /// The game from its deal, battle by battle, when played with `trace=True` (else `None`):
    /// a list of dicts, first the deal (`battle` and `round` 0, `dealt`: `(player, hand)` for
    /// each player, top card first, as `play --trace` prints it first), then one a battle, with
    /// `battle` and `round` (from 1), `revealed` (`(player, card)` in the order the cards
    /// reached the table), `face_down` (the cards the tied players put down before the next
    /// battle), `winner` and `took` (the round's winner and the cards taken, in order, when this
    /// battle ended the round), `note` (why a war was cut short) and `shuffled` (won piles
    /// turned into new hands). Every dict has every key, so that the list is a table.
    #[getter]
    fn trace<'py>(&self, py: Python<'py>) -> PyResult<Option<Vec<Bound<'py, PyDict>>>> {
        let Some(battles) = &self.battles_seen else {
            return Ok(None);
        };
        let deal = Battle::default().to_dict(py)?;
        let dealt: Vec<(usize, Vec<String>)> = (1..).zip(self.cards.iter().cloned()).collect();
        deal.set_item("dealt", dealt)?;
        let mut trace = vec![deal];
        for battle in battles {
            trace.push(battle.to_dict(py)?);
        }
        Ok(Some(trace))
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
        dealt: &[Vec<Card>],
        result: &GameResult,
        battles_seen: Option<Battles>,
    ) -> Game {
        let row = GameRow::new(0, result);
        let (hands, cards) = named_hands(dealt);
        Game {
            seed,
            outcome: row.outcome.to_string(),
            winner: row.winner.map(|w| w as usize),
            rounds: row.rounds,
            battles: row.battles,
            wars: row.wars,
            cycle_start: row.cycle_start,
            cycle_length: row.cycle_length,
            hands,
            cards,
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
pub(crate) fn play(
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
            if let Some(repeats) = shuffle.repeats_note(u128::from(seed) + 1) {
                warn(py, repeats)?;
            }
            let mut engine = Engine::new(rules);
            engine.set_max_rounds(max_rounds).map_err(bad)?;
            let dealt = engine.deal(shuffle, seed).map_err(bad)?;
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
            Ok(Game::new(&rules, Some(seed), &dealt, &result, seen))
        }
        (Some(hands), None) => {
            // The deck the knobs name decides which values the hands may hold.
            let deck = knobs.rules(Some(2))?.deck();
            let hands = cards_of(&hands, deck)?;
            if let Some(excess) = deck.excess(&hands.concat()) {
                warn(py, format!("{excess}: they are played as given"))?;
            }
            if let Some(missing) = deck.missing(&hands.concat()) {
                warn(py, format!("{missing}: the game is played without it"))?;
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
            let given = hands.clone();
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
            Ok(Game::new(&rules, None, &given, &result, seen))
        }
    }
}

/// Hands as values from 1 and as card names, player by player, top card first.
fn named_hands(hands: &[Vec<Card>]) -> (Vec<Vec<u32>>, Vec<Vec<String>>) {
    let values = hands
        .iter()
        .map(|hand| {
            hand.iter()
                .map(|card| u32::from(card.value()) + 1)
                .collect()
        })
        .collect();
    let names = hands.iter().map(|hand| card_names(hand)).collect();
    (values, names)
}

/// The hands seed `seed` deals (see the package's documentation): a dict of `hands` (values
/// from 1) and `cards` (their names), player by player, top card first, as `play` deals them.
#[pyfunction]
#[pyo3(signature = (seed, *, rules, deck=None, players=None, face_down=None, short_war=None,
    gather=None, deal=None, ranking=None, shuffle=None, won_pile=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn deal<'py>(
    py: Python<'py>,
    seed: u64,
    rules: &str,
    deck: Option<&str>,
    players: Option<usize>,
    face_down: Option<usize>,
    short_war: Option<&str>,
    gather: Option<&str>,
    deal: Option<&str>,
    ranking: Option<&str>,
    shuffle: Option<&str>,
    won_pile: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
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
    let dealt = Engine::new(rules)
        .deal(shuffle_of(shuffle)?, seed)
        .map_err(bad)?;
    let (hands, cards) = named_hands(&dealt);
    let d = PyDict::new(py);
    d.set_item("hands", hands)?;
    d.set_item("cards", cards)?;
    Ok(d)
}
