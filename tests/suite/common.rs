//! What several test modules share: where the reference results are, an observer that sends
//! games down the general path, and counts written as the table writes them.

use std::path::PathBuf;

/// The binary under test, as a command to run: the one helper every test module uses.
pub fn warsweep() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("warsweep").unwrap()
}

/// The path of the binary under test, for tests that spawn it and signal it.
pub fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("warsweep")
}
use warsweep::Observer;

/// Watches nothing, but being active sends every game down the general, observed path.
pub struct Watching;
impl Observer for Watching {}

/// The reference results, copied into the repository (`tests/data/golden`, see its README).
/// Runs warsweep with `args` and `--out out` (stdout and stderr kept), sends it SIG`signal`
/// after 700 ms, and waits for it: what it printed and its exit status.
pub fn signalled(args: &[&str], out: &std::path::Path, signal: &str) -> std::process::Output {
    let child = std::process::Command::new(binary())
        .args(args)
        .arg("--out")
        .arg(out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let _ = std::process::Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status();
    child.wait_with_output().unwrap()
}

pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden")
}

/// `n` with its digits in groups of three (`1,234,567`), as the table writes counts.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
