//! Plays every seed of a range under one setting, in parallel, with results in seed order.
//!
//! The range is cut into windows; each window is cut into chunks that rayon's workers play, each
//! with its own engine and accumulator (reset per game, never reallocated). A finished window goes
//! to a writer thread while the workers play the next one, so output streams in seed order with
//! memory bounded by two windows whatever the range. Results depend on the seed only: the CSV
//! and the summary are the same for any thread count and chunk size.

use crate::deal::{Shuffle, LCG_MODULUS};
use crate::engine::{Engine, GameResult, Outcome};
use crate::output::record::GameRow;
use crate::output::summary::{Accumulator, Seeds};
use crate::rules::{Deck, Rules};
use rayon::prelude::*;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;
use thiserror::Error;

#[derive(Error, Debug, PartialEq, Eq)]
pub enum RangeError {
    #[error("{0:?} is not a seed range (write A..B, end excluded, or A..=B)")]
    Malformed(String),
    #[error("{0:?} is not a seed: seeds are whole numbers from 0 to 18446744073709551615")]
    NotASeed(String),
    #[error("the seed range {0} is empty")]
    Empty(String),
    #[error("the seed range {0} is reversed: its end comes before its start")]
    Reversed(String),
    #[error("the {deck} deck has {deals} distinct deals, more than 2^64 seeds can number: lex needs a smaller deck")]
    TooManyDeals { deck: Deck, deals: String },
    #[error("lex seed {seed} is past the {deck} deck's {deals} distinct deals (seeds 0..{deals})")]
    PastLastDeal { seed: u128, deck: Deck, deals: u64 },
}

/// How many distinct deals `lex` numbers for `deck`, if they fit in 64 bits.
pub fn lex_deals(deck: Deck) -> Result<u64, RangeError> {
    let m = deck.arrangements();
    m.to_u128()
        .and_then(|m| u64::try_from(m).ok())
        .ok_or(RangeError::TooManyDeals {
            deck,
            deals: m.to_string(),
        })
}

/// Checks that every seed of `seeds` names a deal of `shuffle` on `deck` (only `lex` has a
/// last seed).
pub fn check_seeds(shuffle: Shuffle, deck: Deck, seeds: Seeds) -> Result<(), RangeError> {
    if shuffle != Shuffle::Lex {
        return Ok(());
    }
    let deals = lex_deals(deck)?;
    if seeds.end > deals as u128 {
        return Err(RangeError::PastLastDeal {
            seed: seeds.end - 1,
            deck,
            deals,
        });
    }
    Ok(())
}

/// Parses `A..B` (end excluded) or `A..=B` into `start..end` with `end` excluded.
pub fn parse_seed_range(text: &str) -> Result<Seeds, RangeError> {
    let t = text.trim();
    let (a, b, inclusive) = if let Some((a, b)) = t.split_once("..=") {
        (a, b, true)
    } else if let Some((a, b)) = t.split_once("..") {
        (a, b, false)
    } else {
        return Err(RangeError::Malformed(text.to_string()));
    };
    let seed = |s: &str| -> Result<u128, RangeError> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return Err(RangeError::Malformed(text.to_string()));
        }
        match s.parse::<u64>() {
            Ok(v) => Ok(v as u128),
            Err(_) => Err(RangeError::NotASeed(s.to_string())),
        }
    };
    let start = seed(a)?;
    let b = b.trim();
    // A half-open end may be 2^64 itself: it excludes the last seed.
    let end = if !inclusive && b == "18446744073709551616" {
        1u128 << 64
    } else {
        seed(b)? + inclusive as u128
    };
    if end < start || (inclusive && end == start) {
        return Err(RangeError::Reversed(t.to_string()));
    }
    if end == start {
        return Err(RangeError::Empty(t.to_string()));
    }
    Ok(Seeds {
        start: start as u64,
        end,
    })
}

/// Why a sweep stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The CSV's reader went away (`warsweep sweep --csv - | head`).
    ReaderGone,
    /// The user asked to stop (Ctrl-C).
    Interrupted,
}

/// Where the rows of a sweep go, a window at a time, in seed order.
pub trait RowSink: Send {
    fn window(&mut self, first_seed: u64, results: &[GameResult]) -> io::Result<()>;
    fn finish(&mut self) -> io::Result<()>;
}

/// The per-game CSV of RULES.md.
pub struct CsvSink<W: Write + Send> {
    writer: csv::Writer<W>,
}

impl<W: Write + Send> CsvSink<W> {
    pub fn new(out: W) -> CsvSink<W> {
        CsvSink {
            writer: csv::WriterBuilder::new()
                .buffer_capacity(1 << 20)
                .from_writer(out),
        }
    }

    /// The writer itself, once the sweep is done.
    pub fn into_inner(self) -> io::Result<W> {
        self.writer.into_inner().map_err(|e| e.into_error())
    }
}

impl<W: Write + Send> RowSink for CsvSink<W> {
    fn window(&mut self, first_seed: u64, results: &[GameResult]) -> io::Result<()> {
        for (i, result) in results.iter().enumerate() {
            let row = GameRow::new(first_seed + i as u64, result);
            self.writer.serialize(row).map_err(csv_to_io)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

fn csv_to_io(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

/// How a sweep is cut up; results never depend on it.
#[derive(Clone, Copy, Debug)]
pub struct Pacing {
    /// Seeds one worker plays before taking the next chunk (and advancing the progress bar).
    pub chunk: usize,
    /// Seeds played before their rows are handed to the writer; two windows are in memory.
    pub window: usize,
}

impl Default for Pacing {
    fn default() -> Pacing {
        Pacing {
            chunk: 2048,
            window: 1 << 17,
        }
    }
}

/// One sweep: a setting and a seed range.
#[derive(Clone, Copy, Debug)]
pub struct Sweep {
    pub rules: Rules,
    pub shuffle: Shuffle,
    pub seeds: Seeds,
    pub max_rounds: u64,
    pub threads: usize,
    pub pacing: Pacing,
}

/// What a sweep produced.
#[derive(Debug)]
pub struct Swept {
    pub acc: Accumulator,
    /// The seeds actually played: `seeds.start..covered_end`.
    pub covered_end: u128,
    pub stopped: Option<Stop>,
}

/// A worker's own engine and tallies.
struct Worker {
    engine: Engine,
    acc: Accumulator,
}

impl Sweep {
    /// Whether the range reaches past the distinct lcg deals (and so repeats some).
    pub fn repeats_deals(&self) -> bool {
        self.shuffle == Shuffle::Lcg && self.seeds.end > LCG_MODULUS as u128
    }

    /// Plays the range. `sink` gets the rows in seed order; `progress` is called with the
    /// number of seeds each chunk finished; `stop` is checked between windows.
    pub fn run(
        &self,
        mut sink: Option<&mut dyn RowSink>,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
    ) -> io::Result<Swept> {
        let threads = self.threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(io::Error::other)?;
        let workers: Vec<Mutex<Worker>> = (0..threads)
            .map(|_| {
                let mut engine = Engine::new(self.rules);
                engine.set_max_rounds(self.max_rounds);
                Mutex::new(Worker {
                    engine,
                    acc: Accumulator::default(),
                })
            })
            .collect();
        let chunk = self.pacing.chunk.max(1);
        let window = self.pacing.window.max(chunk);
        let placeholder = GameResult {
            outcome: Outcome::Draw,
            rounds: 0,
            battles: 0,
            wars: 0,
        };
        let mut covered_end = self.seeds.start as u128;
        let mut stopped = None;

        let written = std::thread::scope(|scope| -> io::Result<()> {
            // Full windows go to the writer; emptied buffers come back for reuse.
            let (full_tx, full_rx) = mpsc::sync_channel::<(u64, Vec<GameResult>)>(1);
            let (empty_tx, empty_rx) = mpsc::channel::<Vec<GameResult>>();
            let writer = sink.as_mut().map(|sink| {
                scope.spawn(move || -> io::Result<()> {
                    for (first, buffer) in full_rx {
                        sink.window(first, &buffer)?;
                        let _ = empty_tx.send(buffer);
                    }
                    sink.finish()
                })
            });
            let mut spare = Vec::with_capacity(window);
            while covered_end < self.seeds.end {
                if stop.load(Ordering::Relaxed) {
                    stopped = Some(Stop::Interrupted);
                    break;
                }
                let first = covered_end as u64;
                let n = (self.seeds.end - covered_end).min(window as u128) as usize;
                let mut buffer = empty_rx.try_recv().unwrap_or(std::mem::take(&mut spare));
                buffer.clear();
                buffer.resize(n, placeholder);
                pool.install(|| {
                    buffer
                        .par_chunks_mut(chunk)
                        .enumerate()
                        .for_each(|(c, results)| {
                            let index = rayon::current_thread_index().unwrap_or(0) % threads;
                            let mut worker = workers[index].lock().expect("a worker panicked");
                            let Worker { engine, acc } = &mut *worker;
                            let base = first + (c * chunk) as u64;
                            for (i, slot) in results.iter_mut().enumerate() {
                                *slot = engine.play_seed(self.shuffle, base + i as u64);
                                acc.record(base + i as u64, slot);
                            }
                            progress(results.len() as u64);
                        })
                });
                covered_end += n as u128;
                if writer.is_some() {
                    if full_tx.send((first, buffer)).is_err() {
                        // The writer stopped on an error; it reports it below.
                        break;
                    }
                } else {
                    spare = buffer;
                }
            }
            drop(full_tx);
            match writer.map(|w| w.join().expect("the CSV writer panicked")) {
                Some(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
                    stopped = Some(Stop::ReaderGone);
                    Ok(())
                }
                Some(Err(e)) => Err(e),
                _ => Ok(()),
            }
        });
        written?;
        let mut acc = Accumulator::default();
        for worker in workers {
            acc.add(&worker.into_inner().expect("a worker panicked").acc);
        }
        Ok(Swept {
            acc,
            covered_end,
            stopped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_ranges() {
        let r = |s: &str| parse_seed_range(s);
        assert_eq!(r("0..10"), Ok(Seeds { start: 0, end: 10 }));
        assert_eq!(r("5..=5"), Ok(Seeds { start: 5, end: 6 }));
        assert_eq!(r(" 3 .. 7 "), Ok(Seeds { start: 3, end: 7 }));
        let max = u64::MAX;
        assert_eq!(
            r(&format!("{max}..={max}")),
            Ok(Seeds {
                start: max,
                end: 1 << 64
            })
        );
        assert_eq!(
            r(&format!("0..{}", 1u128 << 64)),
            Ok(Seeds {
                start: 0,
                end: 1 << 64
            })
        );
        assert!(matches!(r("10..5"), Err(RangeError::Reversed(_))));
        assert!(matches!(r("5..=4"), Err(RangeError::Reversed(_))));
        assert!(matches!(r("5..5"), Err(RangeError::Empty(_))));
        assert!(matches!(
            r("0..18446744073709551617"),
            Err(RangeError::NotASeed(_))
        ));
        assert!(matches!(r("-1..5"), Err(RangeError::Malformed(_))));
        assert!(matches!(r("1-5"), Err(RangeError::Malformed(_))));
        assert!(matches!(r("a..b"), Err(RangeError::Malformed(_))));
    }
}
