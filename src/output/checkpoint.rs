//! The small state that lets a stopped sweep continue where it stopped.
//!
//! A sweep that writes files saves a checkpoint beside them now and then: the seeds covered so
//! far, their tallies (a summary, which carries every count exactly), and how many bytes of the
//! CSV hold their rows. The CSV's bytes reach the disk before the checkpoint that counts them, and
//! the checkpoint is replaced atomically, so after a kill or a power loss the last checkpoint
//! always describes a prefix of what is on disk. `--resume` cuts the CSV back to that prefix and
//! plays on: the outputs end byte-identical to an uninterrupted run's.

use crate::deal::seeds::Seeds;
use crate::output::accumulator::Accumulator;
use crate::output::files::write_atomically;
use crate::output::setting::SweepSetting;
use crate::output::summary::{Counted, Summary, Unchecked};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What the first line of a checkpoint says, so that no other file is taken for one.
const FORMAT: &str = "warsweep checkpoint 1";

/// A saved point of a sweep.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// `warsweep checkpoint 1`: what makes the file a checkpoint.
    pub format: String,
    /// Every seed the sweep was asked to play.
    pub seeds: Seeds,
    /// The CSV's target, if the sweep writes one.
    pub csv: Option<PathBuf>,
    /// Bytes of the CSV holding the rows of the covered seeds (its header included).
    pub csv_bytes: u64,
    /// The last bytes of those (up to [`TAIL`]): a resumed CSV must end with them, or it is not
    /// the file this sweep was writing.
    pub csv_tail: String,
    /// The covered seeds (`summary.seeds`), their tallies, and the time spent so far: checked
    /// by `resume`, as a walk that counts mirror deals counts them (its tallies may count
    /// mirrors past its seeds).
    pub summary: Unchecked,
    /// The walk counts mirror deals with the deal played ([`Mirror`](crate::deal::mirror::Mirror)): its tallies also count
    /// the mirrors of covered deals, which may lie past them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mirrored: bool,
}

/// How many of the CSV's last bytes a checkpoint keeps.
const TAIL: u64 = 128;

/// The last bytes (up to [`TAIL`]) of the first `bytes` of the file at `path`.
pub fn csv_tail(path: &Path, bytes: u64) -> std::io::Result<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    let from = bytes.saturating_sub(TAIL);
    file.seek(SeekFrom::Start(from))?;
    let mut tail = Vec::with_capacity((bytes - from) as usize);
    file.take(bytes - from).read_to_end(&mut tail)?;
    Ok(String::from_utf8_lossy(&tail).into_owned())
}

/// Where a sweep resumes: the seeds left, and what the covered ones gave.
#[derive(Debug)]
pub struct Resumed {
    /// One past the last seed played.
    pub covered_end: u128,
    /// The tallies of the seeds played.
    pub acc: Accumulator,
    /// Bytes of the CSV holding their rows.
    pub csv_bytes: u64,
    /// The last of those bytes, which the CSV must end with.
    pub csv_tail: String,
    /// Seconds spent so far.
    pub elapsed_seconds: f64,
}

#[derive(Error, Debug)]
/// Why a checkpoint cannot be used.
///
/// ```
/// use std::time::Duration;
/// use warsweep::job::{CheckpointError, Files, Job};
/// use warsweep::{Preset, Rules, Seeds, Shuffle, Sweep};
/// let dir = std::env::temp_dir().join(format!("warsweep-resume-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let summary = dir.join("summary.json");
/// // A checkpoint cut short (a disk that filled up, a copy that stopped): refused, kept.
/// std::fs::write(dir.join("summary.json.resume"), "{\"version\": 1, \"seeds")?;
/// let job = Job {
///     sweep: Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 100)?),
///     files: Files { summary: Some(summary), ..Files::default() },
///     resume: true,
///     checkpoint_every: Duration::from_secs(60),
/// };
/// let refused = job.prepare(&mut |_| {}).err().expect("a corrupt checkpoint");
/// let typed = refused.typed().and_then(|e| e.downcast_ref::<CheckpointError>());
/// assert!(matches!(typed, Some(CheckpointError::Corrupt { .. })), "{refused}");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[non_exhaustive]
pub enum CheckpointError {
    #[error("cannot read {path}: {reason}")]
    /// The file cannot be read.
    Unreadable {
        /// The checkpoint.
        path: String,
        /// What the system said.
        reason: String,
    },
    #[error("{path} is not a warsweep checkpoint ({reason}); move it away to start over")]
    /// The file is not a whole checkpoint.
    Corrupt {
        /// The checkpoint.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    #[error("cannot resume from {path}: it was written for {what}; run the same command as before, or move it away to start over")]
    /// The checkpoint belongs to another sweep.
    Different {
        /// The checkpoint.
        path: String,
        /// What it was written for.
        what: String,
    },
}

/// The checkpoint file of a sweep whose first output file is `anchor`.
pub fn path_for(anchor: &Path) -> PathBuf {
    suffixed(anchor, ".resume")
}

/// Where the CSV of a running sweep streams before it is complete.
pub fn partial_csv(target: &Path) -> PathBuf {
    suffixed(target, ".partial")
}

/// `path` with `suffix` added to its file name (`out.csv` -> `out.csv.resume`).
fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Where the CSV stands at a checkpoint: its target, the bytes that hold the covered seeds'
/// rows, and the last of those bytes.
pub struct CsvMark<'a> {
    /// The CSV as named, if the sweep writes one.
    pub target: Option<&'a Path>,
    /// Bytes of its rows so far.
    pub bytes: u64,
    /// The last of those bytes.
    pub tail: String,
}

impl Checkpoint {
    /// The checkpoint of a sweep of `setting` over `seeds` that has covered the seeds before
    /// `covered_end`, with tallies `acc`, after `elapsed_seconds`.
    pub fn new(
        setting: &SweepSetting,
        seeds: Seeds,
        covered_end: u128,
        acc: &Accumulator,
        elapsed_seconds: f64,
        csv: CsvMark,
        mirrored: bool,
    ) -> Checkpoint {
        let covered = seeds.up_to(covered_end);
        Checkpoint {
            format: FORMAT.to_string(),
            seeds,
            csv: csv.target.map(Path::to_path_buf),
            csv_bytes: csv.bytes,
            csv_tail: csv.tail,
            summary: Summary::new(setting, covered, acc, elapsed_seconds).into(),
            mirrored,
        }
    }

    /// Replaces the checkpoint at `path` (atomically).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut text = serde_json::to_vec(self).map_err(std::io::Error::from)?;
        text.push(b'\n');
        write_atomically(path, &text)
    }

    /// Reads the checkpoint at `path`, if there is one.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, CheckpointError> {
        let shown = path.display().to_string();
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(CheckpointError::Unreadable {
                    path: shown,
                    reason: e.to_string(),
                })
            }
        };
        let corrupt = |reason: String| CheckpointError::Corrupt {
            path: shown.clone(),
            reason,
        };
        let checkpoint: Checkpoint =
            serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
        if checkpoint.format != FORMAT {
            return Err(corrupt(format!("its format is {:?}", checkpoint.format)));
        }
        Ok(Some(checkpoint))
    }

    /// Checks that this checkpoint belongs to a sweep of `setting` over `seeds` writing a CSV
    /// to `csv`, and that its tallies are whole; returns where to resume.
    pub fn resume(
        &self,
        path: &Path,
        setting: &SweepSetting,
        seeds: Seeds,
        csv: Option<&Path>,
        mirrored: bool,
    ) -> Result<Resumed, CheckpointError> {
        let shown = path.display().to_string();
        let corrupt = |reason: String| CheckpointError::Corrupt {
            path: shown.clone(),
            reason,
        };
        // Its numbers are checked below, as its walk counts games (`accumulator_of`).
        let summary = self
            .summary
            .clone()
            .assume_checked()
            .map_err(|e| corrupt(e.to_string()))?;
        self.check_same_sweep(path, &summary, (setting, seeds, csv, mirrored))?;
        let covered = summary.seeds;
        if covered.start() != seeds.start()
            || covered.end() < seeds.start() as u128
            || covered.end() > seeds.end()
        {
            return Err(corrupt(format!(
                "it covers seeds {}..{}, outside {}..{}",
                covered.start(),
                covered.end(),
                seeds.start(),
                seeds.end()
            )));
        }
        let counted = if self.mirrored {
            Counted::WithMirrors
        } else {
            Counted::EverySeed
        };
        let acc = summary
            .accumulator_of(counted)
            .map_err(|e| corrupt(e.to_string()))?;
        let games = acc.games as u128;
        let seeds_covered = covered.len();
        let whole = seeds.len();
        let fits = if self.mirrored {
            // Each covered deal counts once, or with its mirror in the range.
            games <= whole && games <= 2 * seeds_covered
        } else {
            games == seeds_covered
        };
        if !fits {
            return Err(corrupt(format!(
                "it counts {} for {}",
                crate::text::count(acc.games, "game"),
                crate::text::count(covered.len(), "seed")
            )));
        }
        Ok(Resumed {
            covered_end: covered.end(),
            acc,
            csv_bytes: self.csv_bytes,
            csv_tail: self.csv_tail.clone(),
            elapsed_seconds: summary.elapsed_seconds,
        })
    }

    /// Refuses the checkpoint (whose `summary` is given) of another sweep than one of
    /// `setting` over `seeds` writing a CSV to `csv`, mirrored or not.
    fn check_same_sweep(
        &self,
        path: &Path,
        summary: &Summary,
        (setting, seeds, csv, mirrored): (&SweepSetting, Seeds, Option<&Path>, bool),
    ) -> Result<(), CheckpointError> {
        let shown = path.display().to_string();
        let different = |what: String| CheckpointError::Different {
            path: shown.clone(),
            what,
        };
        if let Some(difference) = summary.setting().difference(setting) {
            return Err(different(format!(
                "another setting ({difference}, checkpoint first)"
            )));
        }
        if self.seeds != seeds {
            return Err(different(format!(
                "seeds {}..{}, not {}..{}",
                self.seeds.start(),
                self.seeds.end(),
                seeds.start(),
                seeds.end()
            )));
        }
        if self.mirrored != mirrored {
            let what = if self.mirrored {
                "a walk that counts mirror deals with the deal played, not one of every deal"
            } else {
                "a walk of every deal, not one that counts mirror deals with the deal played"
            };
            return Err(different(what.to_string()));
        }
        match (&self.csv, csv) {
            (Some(a), Some(b)) if a != b => {
                return Err(different(format!(
                    "a CSV at {}, not {}",
                    a.display(),
                    b.display()
                )))
            }
            (Some(a), None) => {
                return Err(different(format!(
                    "a sweep writing a CSV to {}",
                    a.display()
                )))
            }
            (None, Some(_)) => return Err(different("a sweep writing no CSV".to_string())),
            _ => {}
        }
        Ok(())
    }
}
