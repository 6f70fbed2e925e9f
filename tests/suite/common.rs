//! What several test modules share: where the reference results are, and an observer that
//! sends games down the general path.

use std::path::PathBuf;
use warsweep::Observer;

/// Watches nothing, but being active sends every game down the general, observed path.
pub struct Watching;
impl Observer for Watching {}

/// The reference results, copied into the repository (`tests/data/golden`, see its README).
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden")
}
