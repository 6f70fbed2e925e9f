//! Records the git revision the binary is built from, for `warsweep --version`.
//!
//! Cargo reruns a build script whenever a path it watches changes, and always when a watched
//! path does not exist: so it watches only the git files that are there (the HEAD of this
//! checkout, a worktree's own; the branch refs and packed refs of the repository), or the
//! script alone outside git (a source tarball), and a second `cargo build` rebuilds nothing.

use std::path::PathBuf;
use std::process::Command;

/// What `git ARGS` prints, trimmed, if it runs and succeeds.
fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let revision =
        git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=WARSWEEP_GIT_REVISION={revision}");
    println!("cargo:rerun-if-changed=build.rs");
    let own = git(&["rev-parse", "--git-dir"]).map(PathBuf::from);
    let common = git(&["rev-parse", "--git-common-dir"]).map(PathBuf::from);
    let watched = [
        own.map(|dir| dir.join("HEAD")),
        common.clone().map(|dir| dir.join("refs/heads")),
        common.map(|dir| dir.join("packed-refs")),
    ];
    for path in watched.into_iter().flatten().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
