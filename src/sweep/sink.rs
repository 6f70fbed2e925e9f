//! Where a sweep's rows go: the per-game CSV, to a file, a pipe or stdout, a window at a time.

use crate::engine::GameResult;
use crate::output::record::GameRow;
use std::io::{self, Write};

/// Where the rows of a sweep go, a window at a time, in seed order.
///
/// ```
/// use std::io;
/// use warsweep::{GameResult, Metric, Preset, RowSink, Rules, Seeds, Shuffle, Sweep};
/// /// Keeps the longest game's seed and battles.
/// #[derive(Default)]
/// struct Longest(u64, u64);
/// impl RowSink for Longest {
///     fn window(&mut self, first_seed: u64, results: &[GameResult]) -> io::Result<()> {
///         for (seed, game) in (first_seed..).zip(results) {
///             if game.battles > self.1 {
///                 *self = Longest(seed, game.battles);
///             }
///         }
///         Ok(())
///     }
///     fn sync(&mut self) -> io::Result<u64> {
///         Ok(0)
///     }
///     fn finish(&mut self) -> io::Result<()> {
///         Ok(())
///     }
/// }
/// let mut longest = Longest::default();
/// let sweep = Sweep::new(Rules::preset(Preset::Shortened), Shuffle::Lcg, Seeds::new(0, 2_000)?);
/// let swept = sweep.run(Some(&mut longest), &|_| {}, &Default::default())?;
/// assert_eq!(swept.summary.stats(Metric::Battles).max, Some(longest.1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait RowSink: Send {
    /// Takes the results of one window, the first being `first_seed`'s.
    fn window(&mut self, first_seed: u64, results: &[GameResult]) -> io::Result<()>;
    /// Puts every row so far on disk and says how many bytes they take.
    fn sync(&mut self) -> io::Result<u64>;
    /// Flushes what is buffered.
    fn finish(&mut self) -> io::Result<()>;
}

/// A writer whose bytes can be made durable: a file is synced, a pipe has nothing to sync.
///
/// ```
/// use std::io::Write;
/// use warsweep::{CsvSink, Durable};
/// /// A writer that holds its bytes in memory: nothing to make durable.
/// struct Memory(Vec<u8>);
/// impl Write for Memory {
///     fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
///         self.0.write(bytes)
///     }
///     fn flush(&mut self) -> std::io::Result<()> {
///         Ok(())
///     }
/// }
/// impl Durable for Memory {
///     fn sync(&self) -> std::io::Result<()> {
///         Ok(())
///     }
/// }
/// let sink = CsvSink::new(Memory(Vec::new()));
/// assert!(sink.into_inner()?.0.is_empty());
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait Durable: Write + Send {
    /// Makes what was written durable.
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

/// The per-game CSV of `docs/rules.md`.
///
/// ```
/// use warsweep::{CsvSink, Preset, Rules, Seeds, Shuffle, Sweep};
/// let mut csv = CsvSink::new(Vec::new());
/// let sweep = Sweep::new(Rules::preset(Preset::Codingame), Shuffle::Lcg, Seeds::new(0, 3)?);
/// sweep.run(Some(&mut csv), &|_| {}, &Default::default())?;
/// let text = String::from_utf8(csv.into_inner()?)?;
/// assert_eq!(text.lines().next(), Some("seed,outcome,winner,rounds,battles,wars,cycle_start,cycle_length"));
/// assert_eq!(text.lines().count(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct CsvSink<W: Durable> {
    writer: csv::Writer<Counted<W>>,
}

impl<W: Durable> CsvSink<W> {
    /// A sink writing a new CSV, header first, to `out`.
    pub fn new(out: W) -> CsvSink<W> {
        CsvSink::after(out, 0)
    }

    /// A sink that continues a CSV of which `bytes` are already written to `out` (the header
    /// too, unless `bytes` is 0).
    pub(crate) fn after(out: W, bytes: u64) -> CsvSink<W> {
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
            .map_err(csv::IntoInnerError::into_error)
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
