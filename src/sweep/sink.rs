//! Where a sweep's rows go: the per-game CSV, to a file, a pipe or stdout, a window at a time.

use crate::engine::GameResult;
use crate::output::record::GameRow;
use std::io::{self, Write};

/// Where the rows of a sweep go, a window at a time, in seed order.
pub trait RowSink: Send {
    /// Takes the results of one window, the first being `first_seed`'s.
    fn window(&mut self, first_seed: u64, results: &[GameResult]) -> io::Result<()>;
    /// Puts every row so far on disk and says how many bytes they take.
    fn sync(&mut self) -> io::Result<u64>;
    /// Flushes what is buffered.
    fn finish(&mut self) -> io::Result<()>;
}

/// A writer whose bytes can be made durable: a file is synced, a pipe has nothing to sync.
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

/// The per-game CSV of RULES.md.
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
