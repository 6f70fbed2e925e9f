//! What several test files share: where the reference results are, and an observer that sends
//! games down the general path. Each test file uses only part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use warsweep::engine::Observer;

/// Watches nothing, but being active sends every game down the general, observed path.
pub struct Watching;
impl Observer for Watching {}

/// `../shared/golden` beside the repository, or a one-line explanation of what is missing.
pub fn golden_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/golden");
    if !dir.join("README.md").is_file() {
        panic!(
            "{} is missing: these tests compare with the reference results of ../shared/golden, which must sit beside the repository",
            dir.display()
        );
    }
    dir
}
