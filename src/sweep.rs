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
use std::time::Instant;
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
    #[error("{0:?} is not a shard: write K/N, the K-th (from 0) of N parts, as in 0/4")]
    MalformedShard(String),
    #[error("shard {k}/{n} does not exist: K counts from 0 to N - 1")]
    NoSuchShard { k: u64, n: u64 },
    #[error("cannot cut seeds {start}..{end} into {n} parts: the range holds only {}", crate::text::count(*len, "seed"))]
    TooManyShards {
        start: u64,
        end: u128,
        n: u64,
        len: u128,
    },
}

/// Parses `K/N`: the K-th (from 0) of N parts.
pub fn parse_shard(text: &str) -> Result<(u64, u64), RangeError> {
    let malformed = || RangeError::MalformedShard(text.to_string());
    let (k, n) = text.trim().split_once('/').ok_or_else(malformed)?;
    let number = |s: &str| {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return Err(malformed());
        }
        s.parse::<u64>().map_err(|_| malformed())
    };
    let (k, n) = (number(k)?, number(n)?);
    if n == 0 {
        return Err(malformed());
    }
    if k >= n {
        return Err(RangeError::NoSuchShard { k, n });
    }
    Ok((k, n))
}

/// The K-th of N near-equal contiguous parts of `seeds`: the parts cover the range exactly, in
/// order, and their lengths differ by at most one (the first ones are the longer).
pub fn shard(seeds: Seeds, k: u64, n: u64) -> Result<Seeds, RangeError> {
    if n == 0 || k >= n {
        return Err(RangeError::NoSuchShard { k, n });
    }
    let len = seeds.end - seeds.start as u128;
    if (n as u128) > len {
        return Err(RangeError::TooManyShards {
            start: seeds.start,
            end: seeds.end,
            n,
            len,
        });
    }
    let (base, extra) = (len / n as u128, len % n as u128);
    let at = |k: u128| seeds.start as u128 + k * base + k.min(extra);
    Ok(Seeds {
        start: at(k as u128) as u64,
        end: at(k as u128 + 1),
    })
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
    /// The user or the system asked it to stop (a signal).
    Interrupted,
}

/// Where the rows of a sweep go, a window at a time, in seed order.
pub trait RowSink: Send {
    fn window(&mut self, first_seed: u64, results: &[GameResult]) -> io::Result<()>;
    /// Puts every row so far on disk and says how many bytes they take.
    fn sync(&mut self) -> io::Result<u64>;
    fn finish(&mut self) -> io::Result<()>;
}

/// A writer whose bytes can be made durable: a file is synced, a pipe has nothing to sync.
pub trait Durable: Write + Send {
    fn sync(&self) -> io::Result<()>;
}

impl Durable for std::fs::File {
    fn sync(&self) -> io::Result<()> {
        self.sync_data()
    }
}

impl Durable for crate::output::files::Stream {
    fn sync(&self) -> io::Result<()> {
        Ok(())
    }
}

impl Durable for io::Stdout {
    fn sync(&self) -> io::Result<()> {
        Ok(())
    }
}

impl Durable for io::Sink {
    fn sync(&self) -> io::Result<()> {
        Ok(())
    }
}

impl Durable for Vec<u8> {
    fn sync(&self) -> io::Result<()> {
        Ok(())
    }
}

/// Counts the bytes that pass through to `inner`.
struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The per-game CSV of RULES.md.
pub struct CsvSink<W: Durable> {
    writer: csv::Writer<Counted<W>>,
}

impl<W: Durable> CsvSink<W> {
    pub fn new(out: W) -> CsvSink<W> {
        CsvSink::after(out, 0)
    }

    /// A sink that continues a CSV of which `bytes` are already written to `out` (the header
    /// too, unless `bytes` is 0).
    pub fn after(out: W, bytes: u64) -> CsvSink<W> {
        CsvSink {
            writer: csv::WriterBuilder::new()
                .buffer_capacity(1 << 20)
                .has_headers(bytes == 0)
                .from_writer(Counted { inner: out, bytes }),
        }
    }

    /// The writer itself, once the sweep is done.
    pub fn into_inner(self) -> io::Result<W> {
        self.writer
            .into_inner()
            .map(|counted| counted.inner)
            .map_err(|e| e.into_error())
    }
}

impl<W: Durable> RowSink for CsvSink<W> {
    fn window(&mut self, first_seed: u64, results: &[GameResult]) -> io::Result<()> {
        for (i, result) in results.iter().enumerate() {
            let row = GameRow::new(first_seed + i as u64, result);
            self.writer.serialize(row).map_err(csv_to_io)?;
        }
        Ok(())
    }

    fn sync(&mut self) -> io::Result<u64> {
        self.writer.flush()?;
        let counted = self.writer.get_ref();
        counted.inner.sync()?;
        Ok(counted.bytes)
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
    /// The tallies of `seeds.start..covered_end` (a resumed part included).
    pub acc: Accumulator,
    /// The seeds actually played: `seeds.start..covered_end`.
    pub covered_end: u128,
    pub stopped: Option<Stop>,
}

/// Where a sweep is at the end of a window: what a checkpoint saves.
pub struct Progress<'a> {
    pub covered_end: u128,
    pub acc: &'a Accumulator,
    /// Bytes of the CSV holding the rows of the covered seeds (0 without a CSV).
    pub csv_bytes: u64,
}

/// Saves a sweep's progress every `every` (at a window's end, once its rows are on disk).
pub struct Checkpoints<'a> {
    pub every: std::time::Duration,
    pub save: &'a mut (dyn FnMut(Progress) -> io::Result<()> + Send),
}

/// A worker's own engine and tallies.
struct Worker {
    engine: Engine,
    acc: Accumulator,
}

/// The workers of a sweep: a task borrows one for as long as it runs and gives it back, so an
/// engine and its tallies live as long as the sweep whatever rayon's splits.
struct Workers<'a> {
    idle: Mutex<Vec<Worker>>,
    sweep: &'a Sweep,
}

/// A worker on loan, given back on drop.
struct Loan<'w, 'a> {
    worker: Option<Worker>,
    pool: &'w Workers<'a>,
}

impl<'a> Workers<'a> {
    fn borrow(&self) -> Loan<'_, 'a> {
        let idle = self.idle.lock().expect("a worker panicked").pop();
        let worker = idle.unwrap_or_else(|| {
            let mut engine = Engine::new(self.sweep.rules);
            engine.set_max_rounds(self.sweep.max_rounds);
            Worker {
                engine,
                acc: Accumulator::default(),
            }
        });
        Loan {
            worker: Some(worker),
            pool: self,
        }
    }

    /// The tallies of every worker added to `base` (between windows, when all are idle).
    fn total(&self, base: &Accumulator) -> Accumulator {
        let mut acc = base.clone();
        for worker in self.idle.lock().expect("a worker panicked").iter() {
            acc.add(&worker.acc);
        }
        acc
    }
}

impl Drop for Loan<'_, '_> {
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            if let Ok(mut idle) = self.pool.idle.lock() {
                idle.push(worker);
            }
        }
    }
}

impl Sweep {
    /// Whether the range reaches past the distinct lcg deals (and so repeats some).
    pub fn repeats_deals(&self) -> bool {
        self.shuffle == Shuffle::Lcg && self.seeds.end > LCG_MODULUS as u128
    }

    /// Plays the range from `resume` (seeds already covered and their tallies) or its start.
    /// `sink` gets the rows in seed order; `progress` is called with the number of seeds each
    /// chunk finished; `stop` is checked between windows.
    pub fn run(
        &self,
        resume: Option<(u128, Accumulator)>,
        mut sink: Option<&mut dyn RowSink>,
        progress: &(dyn Fn(u64) + Sync),
        stop: &AtomicBool,
        checkpoints: Option<Checkpoints>,
    ) -> io::Result<Swept> {
        let threads = self.threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(io::Error::other)?;
        let workers = Workers {
            idle: Mutex::new(Vec::new()),
            sweep: self,
        };
        let chunk = self.pacing.chunk.max(1);
        let window = self.pacing.window.max(chunk);
        let placeholder = GameResult {
            outcome: Outcome::Draw,
            rounds: 0,
            battles: 0,
            wars: 0,
        };
        let (mut covered_end, base) =
            resume.unwrap_or((self.seeds.start as u128, Accumulator::default()));
        let mut stopped = None;
        let mut last_save = Instant::now();
        let (every, mut save) = match checkpoints {
            Some(c) => (Some(c.every), Some(c.save)),
            None => (None, None),
        };

        let written = std::thread::scope(|scope| -> io::Result<()> {
            // Full windows go to the writer (with the tallies to save once their rows are on
            // disk); emptied buffers come back for reuse.
            type Full = (u64, Vec<GameResult>, Option<(u128, Accumulator)>);
            let (full_tx, full_rx) = mpsc::sync_channel::<Full>(1);
            let (empty_tx, empty_rx) = mpsc::channel::<Vec<GameResult>>();
            let writer = sink.as_mut().map(|sink| {
                let mut save = save.take();
                scope.spawn(move || -> io::Result<()> {
                    for (first, buffer, snapshot) in full_rx {
                        sink.window(first, &buffer)?;
                        let _ = empty_tx.send(buffer);
                        if let (Some(save), Some((covered_end, acc))) = (save.as_mut(), snapshot) {
                            let csv_bytes = sink.sync()?;
                            save(Progress {
                                covered_end,
                                acc: &acc,
                                csv_bytes,
                            })?;
                        }
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
                // Plays chunk `c` of the window, keeping its results in `rows` if given.
                let play_chunk =
                    |loan: &mut Loan, c: usize, mut rows: Option<&mut [GameResult]>| {
                        let Worker { engine, acc } =
                            loan.worker.as_mut().expect("on loan until dropped");
                        let seeds = c * chunk..((c + 1) * chunk).min(n);
                        let games = seeds.len() as u64;
                        // Inclusive: the last chunk of the seed space ends at u64::MAX.
                        let at = first + seeds.start as u64;
                        let last = at + (games - 1);
                        let mut played = 0;
                        engine.play_seeds(self.shuffle, at..=last, |seed, result| {
                            acc.record(seed, result);
                            if let Some(rows) = rows.as_deref_mut() {
                                rows[(seed - at) as usize] = *result;
                            }
                            played += 1;
                        });
                        // A row left unplayed would be written as a game it is not.
                        assert_eq!(played, games, "chunk from seed {at} not played whole");
                        progress(games);
                    };
                pool.install(|| {
                    if writer.is_some() {
                        buffer.resize(n, placeholder);
                        buffer.par_chunks_mut(chunk).enumerate().for_each_init(
                            || workers.borrow(),
                            |loan, (c, rows)| play_chunk(loan, c, Some(rows)),
                        )
                    } else {
                        // No rows to write: the tallies are all a game leaves, no buffer.
                        (0..n.div_ceil(chunk))
                            .into_par_iter()
                            .for_each_init(|| workers.borrow(), |loan, c| play_chunk(loan, c, None))
                    }
                });
                covered_end += n as u128;
                let snapshot = match every {
                    Some(every) if last_save.elapsed() >= every && covered_end < self.seeds.end => {
                        last_save = Instant::now();
                        Some((covered_end, workers.total(&base)))
                    }
                    _ => None,
                };
                if writer.is_some() {
                    if full_tx.send((first, buffer, snapshot)).is_err() {
                        // The writer stopped on an error; it reports it below.
                        break;
                    }
                } else {
                    spare = buffer;
                    if let (Some(save), Some((covered_end, acc))) = (save.as_mut(), snapshot) {
                        save(Progress {
                            covered_end,
                            acc: &acc,
                            csv_bytes: 0,
                        })?;
                    }
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
        let acc = workers.total(&base);
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
    fn shards_cover_the_range_exactly() {
        for (start, end) in [
            (0u64, 5u128),
            (0, 9),
            (7, 8),
            (3, 1000),
            (0, 1 << 64),
            (u64::MAX - 3, 1 << 64),
        ] {
            let seeds = Seeds { start, end };
            let len = end - start as u128;
            for n in [1u64, 2, 3, 4, 7, 64] {
                if n as u128 > len {
                    assert!(matches!(
                        shard(seeds, 0, n),
                        Err(RangeError::TooManyShards { .. })
                    ));
                    continue;
                }
                let mut next = start as u128;
                for k in 0..n {
                    let part = shard(seeds, k, n).unwrap();
                    assert_eq!(part.start as u128, next, "{start}..{end} {k}/{n}");
                    let size = part.end - part.start as u128;
                    assert!(size == len / n as u128 || size == len / n as u128 + 1);
                    next = part.end;
                }
                assert_eq!(next, end);
            }
        }
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        assert_eq!(
            parse_shard("4/4"),
            Err(RangeError::NoSuchShard { k: 4, n: 4 })
        );
        assert!(matches!(
            parse_shard("1/0"),
            Err(RangeError::MalformedShard(_))
        ));
        assert!(matches!(
            parse_shard("-1/4"),
            Err(RangeError::MalformedShard(_))
        ));
        assert!(matches!(
            parse_shard("3"),
            Err(RangeError::MalformedShard(_))
        ));
    }

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
