//! `shapes`: the library's census of shapes, with the interpreter free while it runs.

use crate::{bad, Knobbed};
use pyo3::prelude::*;
use warsweep::shapes::{census_with, Bounds, Kind, Options};

/// One state laid on a shape that takes the values: its word (`A`: player 1 wins the battle),
/// its wars (`KINDS@BATTLE`, space-separated), player 1's hand and player 2's (values from
/// 1), its cycle's rounds, whether the cycle is aligned, and a deal walked back to it (asked
/// for and found).
type Row = (
    String,
    String,
    Vec<u8>,
    Vec<u8>,
    u64,
    bool,
    Option<[Vec<u8>; 2]>,
);

/// A census's counts for one length of word: battles, words, placings, those looked at,
/// shapes, those taking the values.
type Counts = (usize, usize, usize, usize, usize, usize);

/// The whole census: placings tried, shapes, those taking the values, the states, the counts
/// per length of word.
type Census = (usize, usize, usize, Vec<Row>, Vec<Counts>);

/// The census (see the package's documentation): the placings tried, the shapes, those that
/// take the values, a row a state laid on them, and a row of counts a length of word.
#[pyfunction]
#[pyo3(signature = (*, rules, deck=None, face_down=None, gather=None, longest=16, wars=None,
    ties=false, periods=None, held=None, kinds=None, aligned=false, chain=1, mirrored=false, states=1,
    deals=false, threads=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _shapes(
    py: Python<'_>,
    rules: &str,
    deck: Option<&str>,
    face_down: Option<usize>,
    gather: Option<&str>,
    longest: usize,
    wars: Option<usize>,
    ties: bool,
    periods: Option<(usize, usize)>,
    held: Option<(usize, usize)>,
    kinds: Option<Vec<String>>,
    aligned: bool,
    chain: usize,
    mirrored: bool,
    states: usize,
    deals: bool,
    threads: Option<usize>,
) -> PyResult<Census> {
    let knobs = Knobbed {
        rules,
        deck,
        players: None,
        face_down,
        short_war: None,
        gather,
        deal: None,
        ranking: None,
        won_pile: None,
    };
    let rules = knobs.rules(None)?;
    let bounds = Bounds::named(longest, wars, periods, ties);
    if threads == Some(0) {
        return Err(bad("threads: a census needs 1 thread or more"));
    }
    let kinds: Vec<Kind> = match kinds {
        None => Kind::ALL.to_vec(),
        Some(names) => (names.iter())
            .map(|name| {
                Kind::named(name).ok_or_else(|| {
                    bad(format!(
                        "kinds: {name:?} is no kind of war: give high, mid or low"
                    ))
                })
            })
            .collect::<PyResult<_>>()?,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(bad)?;
    let found = py
        .detach(|| {
            let options = Options {
                held,
                kinds: &kinds,
                states,
                aligned,
                chain,
                mirrored,
                deals,
                ..Options::default()
            };
            pool.install(|| census_with(&rules, &bounds, &options))
        })
        .map_err(bad)?;
    let rows = found
        .found
        .iter()
        .map(|f| {
            let text = f.placing.to_string();
            let (word, wars) = text.split_once(' ').unwrap_or((&text, ""));
            let [one, two] = f.hands.clone();
            (
                word.to_string(),
                wars.to_string(),
                one,
                two,
                f.cycle,
                f.aligned,
                f.deal.clone(),
            )
        })
        .collect();
    let counts = (found.rows.iter())
        .map(|r| (r.battles, r.words, r.placings, r.looked, r.shapes, r.taking))
        .collect();
    Ok((found.placings, found.shapes, found.taking, rows, counts))
}
