//! Output files that are never half-written.
//!
//! Each file is written beside its target under a temporary name and renamed into place once it
//! is complete and on disk: a failure or a kill at any moment leaves the previous file (or no
//! file) at the target, never an empty or torn one. A rename within one folder is atomic.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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

impl Pending {
    /// Starts a new file for `target` (nothing at `target` changes until `commit`).
    pub fn create(target: &Path) -> io::Result<Pending> {
        let temp = temp_name(target);
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temp)?;
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

    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("the file is open until commit")
    }

    pub fn target(&self) -> &Path {
        &self.target
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

/// The path `path` names, made absolute with its folder's links resolved, so that two spellings
/// of one file compare equal (`out.csv`, `./out.csv`, `dir/../out.csv`).
pub fn identity(path: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent(), absolute.file_name()) {
        (Some(folder), Some(name)) => fs::canonicalize(folder)
            .map(|f| f.join(name))
            .unwrap_or(absolute.clone()),
        _ => absolute,
    }
}

/// The first file named twice among `(role, path)` pairs, as an error message.
pub fn clash(named: &[(&str, &Path)]) -> Option<String> {
    let ids: Vec<PathBuf> = named.iter().map(|(_, p)| identity(p)).collect();
    for j in 1..named.len() {
        for i in 0..j {
            if ids[i] == ids[j] {
                let (a, b) = (named[i].0, named[j].0);
                return Some(if a == b {
                    format!("{} is named twice as {a}", named[j].1.display())
                } else {
                    format!(
                        "{} is named twice, as {a} and as {b}: each output needs its own file",
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
        assert!(clash(&[("--csv", &a), ("--summary", &c)]).is_none());
        let message = clash(&[("--csv", &a), ("--summary", &b)]).unwrap();
        assert!(message.contains("as --csv and as --summary"), "{message}");
    }
}
