//! Deals into cycles built from shapes (`crate::shapes`, docs/research.md, "Shapes"): the
//! census of the setting's words without a war and with one war at their start lists the
//! shapes that take the deck's values; each task lays values on one of them afresh (the SAT
//! solver, its branching drawn from the task's generator, so that tasks reach many cycles)
//! and walks the state they make backward to a deal. The engine then plays the deal.

use super::{deal, Base, Build, Choose, Drawn, Task, Tools, Unlearned};
use crate::deal::SplitMix64;
use crate::hunt::{Halt, HuntError, Played, Unbuildable};
use crate::rules::{Gather, Rules};
use crate::shapes::{taking, Bounds, Laying, Options, ShapesError};
use std::sync::Arc;

/// The censuses a hunt builds from: words without a war of up to 16 battles, and words of up
/// to 18 battles that player 1 begins with a war (18 is the shortest that has 52-card shapes
/// taking the values: `warsweep shapes --wars 1 --longest 18`), a battle followed by one of
/// the same winner a tie or not where the gather takes some war as two single battles.
const BOUNDS: [Bounds; 2] = [
    Bounds::NoWar {
        longest: 16,
        ties: true,
    },
    Bounds::Words {
        longest: 18,
        wars: 1,
        ties: true,
    },
];

/// Shapes a task draws before it plays a random deal (a laying always succeeds; the walk
/// back may not).
const TRIES: usize = 4;

/// States the backward search from a laid state expands at most before it gives up on it.
const STATES: u64 = 20_000;

/// The shapes of a setting that take its deck's values, which each task lays values on.
pub(crate) struct Shapes {
    /// Player 1's hand size and the shape's formula, made once, for each.
    taken: Vec<(usize, Laying)>,
}

impl Build for Shapes {
    /// A deal whose game reaches a cycle: a shape drawn, values laid on it, and the backward
    /// search from the state they make; a random deal where the walks fail. `halt` is looked
    /// at before each try (a laying and a walk back cost up to about 10 ms on 4x13).
    fn draw(&self, rng: &mut SplitMix64, tools: &mut Tools, halt: &Halt) -> Option<Drawn> {
        for _ in 0..TRIES {
            if halt.now() {
                return None;
            }
            let (len0, laying) = &self.taken[rng.below(self.taken.len())];
            let Some(mut values) = laying.lay(Some(rng.next_u64())) else {
                continue;
            };
            // The search's values are from 0.
            values.iter_mut().for_each(|v| *v -= 1);
            let second = values.split_off(*len0);
            let search = tools.search.as_deref_mut().expect("a two-player setting");
            if let Some(order) = search.deal_into(tools.engine, [values, second], STATES) {
                return Some(Drawn::of_build(order, Vec::new(), true));
            }
        }
        let order = deal::random_deal(tools.sorted, rng);
        Some(Drawn::of_build(order, Vec::new(), false))
    }
}

/// The shapes of `rules` that take its deck's values (the censuses of [`BOUNDS`]), and the
/// line a hunt says of them when it starts; or why it builds nothing: the census refuses the
/// setting, or no shape takes the values (the solver's proof within the bounds).
pub(crate) fn plan(rules: &Rules) -> Result<(Arc<Shapes>, String), HuntError> {
    let refused = |why| HuntError::Unbuildable(Unbuildable::Shapes(why));
    let (mut tried, mut taken) = (0, Vec::new());
    // Under `sorted` with cards face down each war placed is one of 60 orders of its table's
    // values (2,520 with two face down, 181,440 with three): words without a war
    // only, so that the hunt starts in seconds.
    let by_order = rules.gather() == Gather::Sorted && rules.face_down() > 0;
    let bounds = if by_order { &BOUNDS[..1] } else { &BOUNDS[..] };
    for &bounds in bounds {
        let (census, found) = match taking(rules, &bounds, &Options::default()) {
            // No war of these rules is gathered as two single battles: no battle ties.
            Err(ShapesError::Ties) => taking(rules, &bounds.without_ties(), &Options::default()),
            other => other,
        }
        .map_err(refused)?;
        tried += census.shapes;
        taken.extend(found);
    }
    if taken.is_empty() {
        return Err(HuntError::Unbuildable(Unbuildable::NoShape { tried }));
    }
    let words = match by_order {
        true => "words of up to 16 battles without a war",
        false => "words of up to 16 battles without a war or 18 with one",
    };
    let line = format!(
        "the shapes strategy builds from the {} of the {tried} shapes of {words} (`warsweep shapes`) that take this deck's values, laid afresh by the SAT solver for each task; a task whose walks back fail plays a random deal, counted as fallen back",
        taken.len()
    );
    let deck = rules.deck();
    let counts = vec![usize::from(deck.copies()); usize::from(deck.values())];
    let taken = (taken.into_iter())
        .filter_map(|(len0, shape)| Some((len0, shape.laying(deck.size(), &counts)?)))
        .collect();
    Ok((Arc::new(Shapes { taken }), line))
}

/// The strategy: every task draws its shape and values afresh; nothing is learned.
pub(super) struct FromShapes {
    shapes: Arc<Shapes>,
}

impl FromShapes {
    /// The strategy from what [`plan`] made of the setting.
    pub(super) fn new(shapes: Arc<Shapes>) -> FromShapes {
        FromShapes { shapes }
    }
}

impl Choose for FromShapes {
    fn tasks(&mut self, count: usize) -> Vec<Task> {
        let shapes: Arc<dyn Build> = self.shapes.clone();
        (0..count)
            .map(|_| Task::plain(Base::Built(shapes.clone())))
            .collect()
    }

    fn learn(&mut self, _first: usize, _given: &[Option<Played>], _played: &[Option<Played>]) {}

    fn save(&self) -> serde_json::Value {
        serde_json::json!({})
    }

    fn restore(&mut self, _saved: &serde_json::Value, _sorted: &[u8]) -> Result<(), Unlearned> {
        Ok(())
    }
}
