//! Output files that are never half-written, and outputs that are not files.
//!
//! A regular file (or a name where nothing is yet) is written beside its target under a
//! temporary name and renamed into place once it is complete and on disk: a failure or a kill
//! at any moment leaves the previous file (or no file) at the target, never an empty or torn
//! one. A rename within one folder is atomic. A symbolic link is followed first, so that the
//! file it names is the one replaced. A pipe or a character device (`/dev/null`, a FIFO,
//! `>(gzip > x.gz)`) cannot be replaced: it is written through. `-` is standard output.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Where an output goes, as found before any work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `-`: standard output.
    Stdout,
    /// A pipe or a character device, written through (never replaced, never resumed).
    Stream(PathBuf),
    /// A regular file, or a name where nothing is yet, with its links resolved: replaced whole.
    File(PathBuf),
}

/// Why a path cannot take an output.
///
/// ```
/// use warsweep::job::{self, Files, TargetError};
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Sweep};
/// let dir = std::env::temp_dir().join(format!("warsweep-target-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 10)?);
/// let shard = dir.join("shard.json");
/// std::fs::write(&shard, sweep.run(None, &|_| {}, &Default::default())?.summary.to_json())?;
/// // A folder where the merged summary should go: refused before anything is written.
/// let files = Files { summary: Some(dir.clone()), ..Files::default() };
/// let refused = job::merge(&[shard], &files).unwrap_err();
/// let typed = refused.typed().and_then(|e| e.downcast_ref::<TargetError>());
/// assert!(matches!(typed, Some(TargetError::Folder(_))), "{refused}");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Error, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TargetError {
    #[error("{0}")]
    /// One file named for two inputs or outputs.
    Clash(String),
    #[error("{0} is a folder, not a file")]
    /// A folder.
    Folder(String),
    #[error("{0} is a {1}: outputs go to files, pipes and character devices only")]
    /// A block device or a socket.
    Unsupported(String, &'static str),
    #[error("{0} is a loop of symbolic links")]
    /// Links that lead back to themselves.
    LinkLoop(String),
}

impl Target {
    /// What `path` names: `-`, a stream, or a file (the one its links lead to).
    pub fn of(path: &Path) -> Result<Target, TargetError> {
        if path == Path::new("-") {
            return Ok(Target::Stdout);
        }
        let shown = || path.display().to_string();
        // `metadata` follows links, so `/dev/fd/63` (a process substitution) is seen as a pipe.
        if let Ok(meta) = fs::metadata(path) {
            let kind = meta.file_type();
            if kind.is_dir() {
                return Err(TargetError::Folder(shown()));
            }
            if kind.is_fifo() || kind.is_char_device() {
                return Ok(Target::Stream(path.to_path_buf()));
            }
            if kind.is_block_device() {
                return Err(TargetError::Unsupported(shown(), "block device"));
            }
            if kind.is_socket() {
                return Err(TargetError::Unsupported(shown(), "socket"));
            }
        }
        resolve_links(path)
            .map(Target::File)
            .ok_or_else(|| TargetError::LinkLoop(shown()))
    }

    /// Whether this output can be resumed and kept beside: a file.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Target::File(path) => Some(path),
            _ => None,
        }
    }

    /// Tries the output before any work, so that an unwritable one fails first. A pipe is not
    /// opened: its reader would take the close for the end of the data.
    pub fn check(&self) -> io::Result<()> {
        match self {
            Target::Stdout => Ok(()),
            Target::Stream(path) => match fs::metadata(path) {
                Ok(meta) if meta.file_type().is_fifo() => Ok(()),
                _ => OpenOptions::new().write(true).open(path).map(drop),
            },
            Target::File(path) => {
                remove_stale(path);
                Pending::create(path).map(drop)
            }
        }
    }

    /// Writes the output whole with `fill`: a file is replaced once complete, a stream written
    /// through.
    pub fn write_with(
        &self,
        fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        match self {
            Target::Stdout => {
                let mut out = io::stdout().lock();
                fill(&mut out)?;
                out.flush()
            }
            Target::Stream(path) => {
                let mut out = io::BufWriter::new(Stream::open(path)?);
                fill(&mut out)?;
                out.flush()
            }
            Target::File(path) => {
                let mut pending = Pending::create(path)?;
                let mut out = io::BufWriter::new(pending.file());
                fill(&mut out)?;
                out.flush()?;
                drop(out);
                pending.commit()
            }
        }
    }

    /// What identifies the output, for finding one named twice.
    fn identity(&self) -> PathBuf {
        match self {
            Target::Stdout => PathBuf::from("-"),
            Target::Stream(path) => fs::canonicalize(path).unwrap_or_else(|_| path.clone()),
            Target::File(path) => identity(path),
        }
    }
}

/// A pipe or a character device open for writing: nothing to make durable, nothing to replace.
#[derive(Debug)]
pub struct Stream(File);

impl Stream {
    /// Opens `path` for writing without truncating or creating it.
    pub fn open(path: &Path) -> io::Result<Stream> {
        OpenOptions::new().write(true).open(path).map(Stream)
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// `path` with every link of its last part followed (a dangling one too: its target is where
/// the file will be), or [`None`] for a loop.
pub fn resolve_links(path: &Path) -> Option<PathBuf> {
    let mut at = path.to_path_buf();
    // Linux gives up after 40 links as well.
    for _ in 0..40 {
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&at).ok()?;
                at = folder_of(&at).join(link);
            }
            _ => return Some(at),
        }
    }
    None
}

/// A file being written to a temporary name beside `target`.
#[derive(Debug)]
pub struct Pending {
    target: PathBuf,
    temp: PathBuf,
    file: Option<File>,
    /// Removed on drop unless committed (false for a file a later run may resume).
    discard: bool,
}

/// `dir/.name.warsweep-PID.tmp`: hidden, unique per process, in the target's folder.
fn temp_name(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.warsweep-{}.tmp", std::process::id()))
}

/// The error of a file that could not be made beside `target`. Where its folder is there but
/// takes no new file (`/proc`), "No such file or directory" alone would be untrue of the folder:
/// the sentence says what was made, and where.
fn beside(target: &Path, e: io::Error) -> io::Error {
    let folder = target.parent().filter(|p| !p.as_os_str().is_empty());
    match folder.filter(|f| f.is_dir()) {
        Some(folder) if e.kind() == io::ErrorKind::NotFound => io::Error::new(
            e.kind(),
            format!(
                "{} takes no new file, and a file is written beside its target first ({e})",
                folder.display()
            ),
        ),
        _ => e,
    }
}

impl Pending {
    /// Starts a new file for `target` (nothing at `target` changes until `commit`).
    pub fn create(target: &Path) -> io::Result<Pending> {
        let temp = temp_name(target);
        let file = (OpenOptions::new().write(true).create(true).truncate(true))
            .open(&temp)
            .map_err(|e| beside(target, e))?;
        Ok(Pending {
            target: target.to_path_buf(),
            temp,
            file: Some(file),
            discard: true,
        })
    }

    /// Adopts `file`, open at `temp`, as the file to move to `target`; it is kept if never
    /// committed (a resumable CSV).
    pub fn kept(target: &Path, temp: PathBuf, file: File) -> Pending {
        Pending {
            target: target.to_path_buf(),
            temp,
            file: Some(file),
            discard: false,
        }
    }

    /// The file being written.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("the file is open until commit")
    }

    /// Puts the finished file in place: flushed to disk first, so that the target is never
    /// a file whose blocks are not yet written.
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().expect("the file is open until commit");
        file.sync_all()?;
        drop(file);
        fs::rename(&self.temp, &self.target)?;
        sync_folder(&self.target);
        self.discard = false;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if self.discard {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// The folder `path` is in (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Makes a rename in the folder of `path` durable (best effort: not every file system allows
/// opening a folder).
pub fn sync_folder(path: &Path) {
    if let Ok(dir) = File::open(folder_of(path)) {
        let _ = dir.sync_all();
    }
}

/// Removes the temporary files of `target` that processes no longer running left behind (a
/// kill while writing). Only where `/proc` tells which processes run.
pub fn remove_stale(target: &Path) {
    let proc = Path::new("/proc/self");
    if !proc.exists() {
        return;
    }
    let name = match target.file_name() {
        Some(n) => n.to_string_lossy().into_owned(),
        None => return,
    };
    let prefix = format!(".{name}.warsweep-");
    let Ok(entries) = fs::read_dir(folder_of(target)) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let pid = file
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid {
            if pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists() {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// Writes `bytes` to `target` through a temporary file.
pub fn write_atomically(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut pending = Pending::create(target)?;
    pending.file().write_all(bytes)?;
    pending.commit()
}

/// The first of `paths` that exists as a regular file: a finished run's output, where a
/// resume finds no checkpoint.
pub fn first_existing<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) -> Option<PathBuf> {
    paths
        .into_iter()
        .find(|path| fs::metadata(path).is_ok_and(|m| m.is_file()))
        .map(|path| path.as_ref().to_path_buf())
}

/// The path `path` names, made absolute with its folder's links resolved, so that two spellings
/// of one file compare equal (`out.csv`, `./out.csv`, `dir/../out.csv`).
pub fn identity(path: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    // A dangling link: the file it will create.
    let path = resolve_links(path).unwrap_or_else(|| path.to_path_buf());
    let absolute = std::path::absolute(&path).unwrap_or_else(|_| path.clone());
    match (absolute.parent(), absolute.file_name()) {
        (Some(folder), Some(name)) => fs::canonicalize(folder)
            .map(|f| f.join(name))
            .unwrap_or(absolute.clone()),
        _ => absolute,
    }
}

/// Refuses an output that is also one of `inputs`, or any file named twice, in one sentence.
pub fn check_inputs_and_outputs(
    inputs: &[PathBuf],
    outputs: &[(&str, Option<&Path>)],
) -> Result<(), TargetError> {
    let mut named: Vec<(&str, &Path)> = inputs.iter().map(|p| ("an input", p.as_path())).collect();
    named.extend(outputs.iter().filter_map(|(role, p)| p.map(|p| (*role, p))));
    clash(&named).map_or(Ok(()), |clash| Err(TargetError::Clash(clash)))
}

/// The first file named twice among `(role, path)` pairs, as an error message (inputs are
/// named by their paths; outputs by their targets, `-` being stdout).
pub fn clash(named: &[(&str, &Path)]) -> Option<String> {
    let ids: Vec<PathBuf> = named
        .iter()
        .map(|(_, p)| match Target::of(p) {
            Ok(target) => target.identity(),
            Err(_) => identity(p),
        })
        .collect();
    for j in 1..named.len() {
        for i in 0..j {
            if ids[i] == ids[j] {
                let (a, b) = (named[i].0, named[j].0);
                let what = if ids[j] == Path::new("-") {
                    "only one output can go to stdout"
                } else {
                    "each output needs its own file"
                };
                return Some(if a == b {
                    format!("{} is named twice as {a}", named[j].1.display())
                } else {
                    format!(
                        "{} is named twice, as {a} and as {b}: {what}",
                        named[j].1.display()
                    )
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_file_leaves_the_target_alone() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        fs::write(&target, "old").unwrap();
        {
            let mut p = Pending::create(&target).unwrap();
            p.file().write_all(b"new, half").unwrap();
        }
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temp left");
        write_atomically(&target, b"new").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn spellings_of_one_file_clash() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.csv");
        let b = dir.path().join("sub/../a.csv");
        fs::create_dir(dir.path().join("sub")).unwrap();
        let c = dir.path().join("c.csv");
        assert!(clash(&[("the CSV", &a), ("the summary", &c)]).is_none());
        let message = clash(&[("the CSV", &a), ("the summary", &b)]).unwrap();
        assert!(
            message.contains("as the CSV and as the summary"),
            "{message}"
        );
    }
}
