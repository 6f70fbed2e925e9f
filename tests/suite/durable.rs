//! Sweeps that survive anything: signals, kills at random moments and resumes, outputs that are
//! never half-written, clashing paths, closed or full streams, doctored summaries, and shards.

use crate::common::grouped;
use crate::common::{binary, warsweep};
use assert_cmd::Command;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// The summary without its timings, which are the only part allowed to differ between runs.
pub(crate) fn summary_without_timings(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let object = value.as_object_mut().unwrap();
    object.remove("elapsed_seconds");
    object.remove("games_per_second");
    value
}

/// The four output files of a sweep into `dir` with names starting `stem`.
pub(crate) fn outputs(dir: &Path, stem: &str) -> Vec<String> {
    let mut args = Vec::new();
    for (flag, ext) in [
        ("--csv", "csv"),
        ("--summary", "json"),
        ("--hist", "hist.csv"),
        ("--plot", "svg"),
    ] {
        args.push(flag.to_string());
        args.push(dir.join(format!("{stem}.{ext}")).display().to_string());
    }
    args
}

/// The sweep every test interrupts: long enough to be stopped mid-way at full speed, and ten
/// times shorter in a debug build, which plays about ten times slower.
const SETTING: [&str; 6] = [
    "sweep",
    "--seeds",
    if cfg!(debug_assertions) {
        "0..60000"
    } else {
        "0..600000"
    },
    "--rules",
    "codingame",
    "-q",
];

/// Seeds between two checkpoints (and two chances to stop).
const WINDOW: &str = if cfg!(debug_assertions) {
    "2048"
} else {
    "16384"
};

/// Plays the reference sweep once, uninterrupted.
pub(crate) fn reference(dir: &Path) {
    warsweep()
        .args(SETTING)
        .args(outputs(dir, "ref"))
        .assert()
        .success();
}

/// Checks that the `stem` outputs equal the reference's, byte for byte (the summary apart from
/// timings), and that nothing else is left beside them.
pub(crate) fn same_as_reference(dir: &Path, stem: &str) {
    for ext in ["csv", "hist.csv", "svg"] {
        let a = std::fs::read(dir.join(format!("{stem}.{ext}"))).unwrap();
        let b = std::fs::read(dir.join(format!("ref.{ext}"))).unwrap();
        assert!(a == b, "{stem}.{ext} differs from the uninterrupted run's");
    }
    assert_eq!(
        summary_without_timings(&dir.join(format!("{stem}.json"))),
        summary_without_timings(&dir.join("ref.json"))
    );
    let mut left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| {
            name.starts_with(&format!("{stem}.")) || name.starts_with(&format!(".{stem}."))
        })
        .collect();
    left.sort();
    let expected: Vec<String> = ["csv", "hist.csv", "json", "svg"]
        .iter()
        .map(|ext| format!("{stem}.{ext}"))
        .collect();
    assert_eq!(left, expected, "files left beside the outputs");
}

/// Starts the sweep writing `stem` outputs, with small windows and a checkpoint at each.
pub(crate) fn start(dir: &Path, stem: &str, resume: bool) -> std::process::Child {
    let mut command = std::process::Command::new(binary());
    command
        .args(SETTING)
        .args(outputs(dir, stem))
        .args(["--window", WINDOW, "--checkpoint-seconds", "0", "-j", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if resume {
        command.arg("--resume");
    }
    command.spawn().unwrap()
}

pub(crate) fn stderr_of(child: std::process::Child) -> (Option<i32>, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// SIGKILL at many moments, each followed by `--resume`: the outputs end byte-identical to an
/// uninterrupted run's.
#[test]
fn kills_at_random_moments_then_resume_give_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    reference(dir.path());
    // A fixed pseudo-random sequence of moments, from 0 to about 0.4 s.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let (mut killed, mut resumable) = (0, 0);
    for _ in 0..10 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let child = start(dir.path(), "run", true);
        std::thread::sleep(Duration::from_millis(state % 400));
        send_signal(child.id(), "KILL");
        let (code, stderr) = stderr_of(child);
        assert!(!stderr.contains("panicked"), "{stderr}");
        if code == Some(0) {
            break;
        }
        // No exit code: the kill ended the sweep mid-way.
        assert_eq!(code, None, "{stderr}");
        killed += 1;
        resumable += usize::from(dir.path().join("run.csv.resume").is_file());
    }
    // On a slow machine every kill may come before the first checkpoint: then one more run is
    // killed once its checkpoint exists, so that a resume continues a checkpoint at least once.
    let checkpoint = dir.path().join("run.csv.resume");
    if resumable == 0 && killed > 0 {
        let child = start(dir.path(), "run", true);
        let waited = std::time::Instant::now();
        while !checkpoint.is_file() && waited.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(10));
        }
        send_signal(child.id(), "KILL");
        let (code, stderr) = stderr_of(child);
        assert!(!stderr.contains("panicked"), "{stderr}");
        if code.is_none() {
            killed += 1;
            resumable += usize::from(checkpoint.is_file());
        }
    }
    // The test means something only if kills interrupted sweeps that then resumed.
    assert!(killed >= 3, "only {killed} sweeps were interrupted");
    assert!(resumable >= 1, "no kill left a checkpoint to resume from");
    let (code, stderr) = stderr_of(start(dir.path(), "run", true));
    assert_eq!(code, Some(0), "{stderr}");
    same_as_reference(dir.path(), "run");
}

/// Sends `signal` (a name `kill` knows) to the process `pid`.
pub(crate) fn send_signal(pid: u32, signal: &str) {
    let _ = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status();
}

/// SIGINT, SIGTERM and SIGHUP stop a sweep with every output consistent and exit 128 + N; the
/// same sweep with --resume plays the rest.
#[test]
fn signals_stop_cleanly_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    reference(dir.path());
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let stem = format!("sig{signal}");
        let child = start(dir.path(), &stem, false);
        std::thread::sleep(Duration::from_millis(300));
        send_signal(child.id(), signal);
        let (got, stderr) = stderr_of(child);
        if got == Some(0) {
            // The sweep ended before the signal: nothing to resume.
            same_as_reference(dir.path(), &stem);
            continue;
        }
        assert_eq!(got, Some(code), "SIG{signal}: {stderr}");
        assert!(
            stderr.contains(&format!("stopped by SIG{signal}: seeds 0.."))
                && stderr.contains("the same sweep with --resume plays the rest"),
            "{stderr}"
        );
        // The outputs cover exactly the seeds played.
        let summary = summary_without_timings(&dir.path().join(format!("{stem}.json")));
        let covered = summary["seeds"]["end"].as_u64().unwrap();
        let csv = std::fs::read_to_string(dir.path().join(format!("{stem}.csv"))).unwrap();
        assert_eq!(csv.lines().count() as u64, covered + 1);
        assert_eq!(summary["games"].as_u64().unwrap(), covered);
        // Without --resume the checkpoint is protected.
        let (got, stderr) = stderr_of(start(dir.path(), &stem, false));
        assert_eq!(got, Some(1));
        assert!(
            stderr.contains("warsweep: --resume: ") && stderr.contains("resume to continue it"),
            "{stderr}"
        );
        let (got, stderr) = stderr_of(start(dir.path(), &stem, true));
        assert_eq!(got, Some(0), "{stderr}");
        same_as_reference(dir.path(), &stem);
    }
}

/// Fault: `timeout -s INT` signals the sweep and then its process group, and the second signal
/// used to end the process at once (no summary, no stop line). Signals within a second are one
/// request; a signal after that still ends a sweep that does not stop in time.
#[test]
fn timeouts_double_signal_is_one_request() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let long = |stem: &str, window: &str| {
        let mut command = std::process::Command::new(binary());
        command
            .args(["sweep", "--seeds", "0..400000000", "--window", window, "-q"])
            .args([
                "--summary",
                &d.join(format!("{stem}.json")).display().to_string(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        command
    };
    let mut stopped = 0;
    for attempt in 0..3 {
        let stem = format!("timeout{attempt}");
        let out = std::process::Command::new("timeout")
            .args(["-s", "INT", "0.5"])
            .arg(binary())
            .args(["sweep", "--seeds", "0..400000000", "--window", WINDOW, "-q"])
            .args([
                "--summary",
                &d.join(format!("{stem}.json")).display().to_string(),
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // timeout reports its own 124 when the time ran out.
        assert_eq!(out.status.code(), Some(124), "{stderr}");
        assert!(stderr.contains("stopped by SIGINT: seeds 0.."), "{stderr}");
        assert!(d.join(format!("{stem}.json")).is_file(), "no summary");
        stopped += 1;
    }
    assert_eq!(stopped, 3);
    // Two signals at once: still a clean stop, at the end of the (long) window.
    let child = long("twice", "30000").spawn().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    send_signal(child.id(), "INT");
    send_signal(child.id(), "INT");
    let (code, stderr) = stderr_of(child);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("stopped by SIGINT"), "{stderr}");
    assert!(d.join("twice.json").is_file());
    // A second signal well after the first ends the process at once, with no summary (a window
    // of 16,777,216 seeds, the most one holds, on 2 threads: about 20 seconds, so the sweep cannot
    // stop cleanly before the second signal).
    let child = long("forced", "16777216")
        .args(["-j", "2"])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    send_signal(child.id(), "INT");
    std::thread::sleep(Duration::from_millis(1500));
    send_signal(child.id(), "INT");
    let (code, stderr) = stderr_of(child);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(!stderr.contains("stopped by"), "{stderr}");
    assert!(!d.join("forced.json").exists());
}

/// Fault: the write-then-rename replaced a symbolic link instead of writing the file it names,
/// and a link to the CSV was not seen as the same output.
#[test]
fn links_are_followed_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::os::unix::fs::symlink("real.json", d.join("link.json")).unwrap();
    warsweep()
        .current_dir(d)
        .args(["sweep", "--seeds", "0..500", "-q", "--summary", "link.json"])
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(d.join("link.json"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(summary_without_timings(&d.join("real.json"))["games"], 500);
    // A link to the CSV, dangling until the CSV exists, is the CSV.
    std::os::unix::fs::symlink("out.csv", d.join("to-csv.json")).unwrap();
    let mut clash = warsweep();
    clash
        .current_dir(d)
        .args(["sweep", "--seeds", "0..500", "-q", "--csv", "out.csv"])
        .args(["--summary", "to-csv.json"]);
    refuses(&mut clash, "is named twice, as the CSV and as the summary");
    assert!(!d.join("out.csv").exists());
}

/// Fault: the write-then-rename turned a character device into a regular file, and a FIFO's
/// reader never got the CSV. Devices and pipes are written through.
#[test]
fn devices_and_pipes_are_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let summary = d.join("a.json");
    warsweep()
        .args(["sweep", "--seeds", "0..500", "-q", "--summary"])
        .arg(&summary)
        .assert()
        .success();
    let mut full = warsweep();
    full.arg("plot").arg(&summary).args(["-o", "/dev/full"]);
    refuses(
        &mut full,
        "cannot write the plot to /dev/full: No space left",
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());
    warsweep()
        .args(["sweep", "--seeds", "0..500", "-q"])
        .args(["--summary", "/dev/null", "--csv", "/dev/null"])
        .assert()
        .failure();
    warsweep()
        .args(["sweep", "--seeds", "0..500", "-q", "--summary", "/dev/null"])
        .assert()
        .success();
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A FIFO's reader gets the whole CSV, as stdout would.
    let fifo = d.join("pipe");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    warsweep()
        .args(["sweep", "--seeds", "0..3000", "-q", "--csv"])
        .arg(&fifo)
        .assert()
        .success();
    let through_fifo = reader.join().unwrap();
    let to_stdout = warsweep()
        .args(["sweep", "--seeds", "0..3000", "-q", "--csv", "-"])
        .output()
        .unwrap()
        .stdout;
    assert_eq!(through_fifo.len(), to_stdout.len());
    assert!(through_fifo == to_stdout);
    let mut resume = warsweep();
    resume
        .args(["sweep", "--seeds", "0..3000", "-q", "--resume", "--csv"])
        .arg(&fifo);
    refuses(
        &mut resume,
        "--resume: cannot continue a CSV written to stdout, a pipe",
    );
    // A process substitution is a pipe too: `--csv >(gzip > x.gz)` (bash).
    let gz = d.join("x.csv.gz");
    let script = format!(
        "'{}' sweep --seeds 0..3000 -q --csv >(gzip > '{}'); wait $!",
        binary().display(),
        gz.display()
    );
    let status = std::process::Command::new("bash")
        .args(["-c", &script])
        .status()
        .unwrap();
    assert!(status.success());
    // gzip finishes on its own after the pipe closes.
    let mut unzipped = Vec::new();
    for _ in 0..100 {
        let out = std::process::Command::new("gzip")
            .args(["-dc"])
            .arg(&gz)
            .output()
            .unwrap();
        if out.status.success() && out.stdout.len() == to_stdout.len() {
            unzipped = out.stdout;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        unzipped == to_stdout,
        "the gzipped CSV differs from stdout's"
    );
    let mut folder = warsweep();
    folder
        .args(["sweep", "--seeds", "0..30", "-q", "--summary"])
        .arg(d);
    refuses(&mut folder, "is a folder, not a file");
}

/// Fault: `--hist x.csv.resume` beside `--csv x.csv` was deleted as the sweep's checkpoint.
#[test]
fn an_output_named_like_the_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.csv.resume"), "mine").unwrap();
    for (other, flag) in [("x.csv.resume", "--hist"), ("x.csv.partial", "--summary")] {
        let mut command = warsweep();
        command.current_dir(d).args([
            "sweep", "--seeds", "0..100", "-q", "--csv", "x.csv", flag, other,
        ]);
        refuses(&mut command, &format!("{other} is where this sweep"));
    }
    assert_eq!(
        std::fs::read_to_string(d.join("x.csv.resume")).unwrap(),
        "mine"
    );
    assert!(!d.join("x.csv").exists());
}

/// Fault: `plot -o -` wrote a file named `-`, and `merge --summary -` pointed at a `--csv`
/// merge does not have. `-` is stdout for every output; the table then goes to stderr.
#[test]
fn dash_is_stdout_for_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    warsweep()
        .current_dir(d)
        .args(["sweep", "--seeds", "0..500", "-q", "--summary", "a.json"])
        .assert()
        .success();
    let out = warsweep()
        .current_dir(d)
        .args(["plot", "a.json", "-o", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.starts_with(b"<svg"));
    assert!(!d.join("-").exists());
    let out = warsweep()
        .current_dir(d)
        .args(["merge", "a.json", "--summary", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let merged: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(merged["games"], 500);
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("shortened rules"));
    let mut twice = warsweep();
    twice
        .current_dir(d)
        .args(["merge", "a.json", "--summary", "-", "--plot", "-"]);
    refuses(&mut twice, "only one output can go to stdout");
    assert!(!d.join("-").exists());
}

/// Runs and expects exit 1 with one line on stderr containing `message`.
pub(crate) fn refuses(command: &mut Command, message: &str) {
    let out = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(message), "{stderr:?} lacks {message:?}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr:?}");
}

/// A checkpoint is used only by the command that wrote it, over the files it describes.
#[test]
fn resuming_something_else_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let child = start(d, "a", false);
    std::thread::sleep(Duration::from_millis(300));
    send_signal(child.id(), "TERM");
    let (code, stderr) = stderr_of(child);
    assert_eq!(code, Some(143), "{stderr}");
    let checkpoint = d.join("a.csv.resume");
    let saved = std::fs::read(&checkpoint).unwrap();
    let resume = |extra: &[&str]| {
        let mut c = warsweep();
        c.args(SETTING)
            .args(outputs(d, "a"))
            .args(extra)
            .arg("--resume");
        c
    };
    let mut other_rules = warsweep();
    other_rules
        .args(["sweep", "--seeds", SETTING[2], "--rules", "classic", "-q"])
        .args(outputs(d, "a"))
        .arg("--resume");
    refuses(
        &mut other_rules,
        "it was written for another setting (rules codingame and classic",
    );
    let mut other_seeds = warsweep();
    other_seeds
        .args([
            "sweep",
            "--seeds",
            "0..700000",
            "--rules",
            "codingame",
            "-q",
        ])
        .args(outputs(d, "a"))
        .arg("--resume");
    refuses(
        &mut other_seeds,
        &format!("it was written for seeds {}, not 0..700000", SETTING[2]),
    );
    refuses(
        &mut resume(&["--max-rounds", "5"]),
        "max rounds 1000000 and 5",
    );
    // A CSV of the right length that ends with other rows is not the one either.
    let csv = std::fs::read(d.join("a.csv")).unwrap();
    let mut other = csv.clone();
    let last = other.len() - 2;
    other[last] = if other[last] == b'1' { b'2' } else { b'1' };
    std::fs::write(d.join("a.csv"), &other).unwrap();
    refuses(
        &mut resume(&[]),
        "a.csv does not hold the rows its checkpoint describes",
    );
    assert_eq!(
        std::fs::read(d.join("a.csv")).unwrap(),
        other,
        "a refused resume moved a file"
    );
    assert!(!d.join("a.csv.partial").exists());
    // A CSV shorter than its checkpoint says is not the one the sweep was writing.
    std::fs::write(d.join("a.csv"), "seed,outcome\n").unwrap();
    refuses(
        &mut resume(&[]),
        "a.csv holds 13 bytes but its checkpoint counts",
    );
    // A damaged checkpoint is named, never trusted.
    std::fs::write(&checkpoint, "{\"format\": \"something else\"}").unwrap();
    refuses(
        &mut resume(&[]),
        "a.csv.resume is not a warsweep checkpoint",
    );
    std::fs::write(&checkpoint, &saved[..saved.len() / 2]).unwrap();
    refuses(
        &mut resume(&[]),
        "a.csv.resume is not a warsweep checkpoint",
    );
    // --resume needs a file to keep its checkpoint beside, and cannot continue stdout.
    let mut no_file = warsweep();
    no_file.args(["sweep", "--resume"]);
    refuses(&mut no_file, "--resume: needs an output file");
    let mut to_stdout = warsweep();
    to_stdout.args(["sweep", "--resume", "--csv", "-"]);
    refuses(
        &mut to_stdout,
        "--resume: cannot continue a CSV written to stdout",
    );
}

/// A failure at any moment leaves the previous files untouched, and no temporary file behind.
#[test]
fn failures_leave_previous_files_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let summary = d.join("s.json");
    std::fs::write(&summary, "previous summary").unwrap();
    // The CSV fails mid-sweep (a full disk): the summary keeps its previous bytes.
    let out = std::process::Command::new(binary())
        .args([
            "sweep",
            "--seeds",
            "0..300000",
            "-q",
            "--csv",
            "-",
            "--summary",
        ])
        .arg(&summary)
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "warsweep: cannot write the CSV to stdout: No space left on device (os error 28)"
    );
    assert_eq!(
        std::fs::read_to_string(&summary).unwrap(),
        "previous summary"
    );
    // A merge that fails leaves its output alone too.
    std::fs::write(d.join("bad.json"), "{}").unwrap();
    refuses(
        warsweep()
            .arg("merge")
            .arg(d.join("bad.json"))
            .arg("--summary")
            .arg(&summary),
        "bad.json is not a warsweep summary",
    );
    assert_eq!(
        std::fs::read_to_string(&summary).unwrap(),
        "previous summary"
    );
    let names: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// An output named twice, or an output that is an input of merge, is refused before any work.
#[test]
fn clashing_paths_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = d.join("a.json");
    warsweep()
        .args(["sweep", "--seeds", "0..100", "-q", "--summary"])
        .arg(&a)
        .assert()
        .success();
    let before = std::fs::read(&a).unwrap();
    refuses(
        warsweep()
            .args(["sweep", "--seeds", "0..100", "--csv"])
            .arg(d.join("x"))
            .arg("--summary")
            .arg(d.join("x")),
        "is named twice, as the CSV and as the summary",
    );
    refuses(
        warsweep()
            .args(["sweep", "--seeds", "0..100", "--hist"])
            .arg(d.join("h.csv"))
            .arg("--plot")
            .arg(d.join(".").join("h.csv")),
        "is named twice, as the histograms and as the plot",
    );
    refuses(
        warsweep().arg("merge").arg(&a).arg("--summary").arg(&a),
        "is named twice, as an input and as the summary",
    );
    refuses(
        warsweep().arg("merge").arg(&a).arg(&a),
        "is named twice as an input",
    );
    refuses(
        warsweep().arg("plot").arg(&a).arg("-o").arg(&a),
        "is named twice, as an input and as the plot",
    );
    assert_eq!(std::fs::read(&a).unwrap(), before);
    assert!(!d.join("x").exists());
}

/// A closed reader is a quiet success; a full stdout is one clear line.
#[test]
fn a_closed_reader_is_quiet_and_a_full_stdout_one_line() {
    for command in ["sweep", "merge"] {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.json");
        warsweep()
            .args(["sweep", "--seeds", "0..1000", "-q", "--summary"])
            .arg(&a)
            .assert()
            .success();
        let args: Vec<String> = match command {
            "sweep" => vec!["sweep".into(), "--seeds".into(), "0..20000".into()],
            _ => vec!["merge".into(), a.display().to_string()],
        };
        let mut child = std::process::Command::new(binary())
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{command}");
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = std::process::Command::new(binary())
            .args(&args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim_end(),
            "warsweep: cannot write to stdout: No space left on device (os error 28)"
        );
    }
}

/// A closed stderr is no reason to panic: the exit code still tells what happened.
#[test]
fn a_closed_stderr_is_no_reason_to_panic() {
    for (command, code) in [
        ("sweep --seeds 0..1000 >/dev/null", 0),
        ("sweep --seeds 0..300000 --csv - | head -1 >/dev/null", 0),
        ("sweep --seeds 0..10 --summary /no/such/folder/s.json", 1),
        ("sweep --threads 0", 2),
        ("sweep --no-such-flag", 2),
        ("merge /no/such/summary.json", 1),
    ] {
        // Fault: bash's stderr was the test's, and `cargo test` showed a stray line from the
        // pipe's sweep; it is kept here instead, and holds no panic.
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!(
                "set -o pipefail; '{}' {command} 2>&-",
                binary().display()
            ))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{command}: {stderr}");
    }
}

/// `--shard K/N` plays near-equal contiguous parts that merge into the whole; without a value
/// it reads a Slurm array's variables.
#[test]
fn shards_cover_the_range_and_merge_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let whole = d.join("whole.json");
    let base = ["sweep", "--seeds", "10..1010", "--rules", "classic", "-q"];
    warsweep()
        .args(base)
        .arg("--summary")
        .arg(&whole)
        .assert()
        .success();
    let mut parts = Vec::new();
    for k in 0..3 {
        let part = d.join(format!("part{k}.json"));
        let mut command = warsweep();
        command.args(base).arg("--summary").arg(&part);
        if k == 2 {
            // As a Slurm array task started with --array=0-2 would.
            command
                .arg("--shard")
                .env("SLURM_ARRAY_TASK_ID", "2")
                .env("SLURM_ARRAY_TASK_COUNT", "3");
        } else {
            command.args(["--shard", &format!("{k}/3")]);
        }
        command.assert().success();
        parts.push(part);
    }
    let starts: Vec<u64> = parts
        .iter()
        .map(|p| {
            summary_without_timings(p)["seeds"]["start"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(starts, [10, 344, 677]);
    let merged = d.join("merged.json");
    warsweep()
        .arg("merge")
        .args(&parts)
        .arg("--summary")
        .arg(&merged)
        .arg("-q")
        .assert()
        .success();
    assert_eq!(
        summary_without_timings(&merged),
        summary_without_timings(&whole)
    );
    // A part that does not exist is a malformed value: a usage error.
    let out = warsweep()
        .args(["sweep", "--seeds", "0..5", "--shard", "5/5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 5/5 does not exist"));
    refuses(
        warsweep().args(["sweep", "--seeds", "0..5", "--shard", "0/9"]),
        "cannot cut seeds 0..5 into 9 parts: the range holds only 5 seeds",
    );
    refuses(
        warsweep()
            .args(["sweep", "--seeds", "0..5", "--shard"])
            .env_remove("SLURM_ARRAY_TASK_ID"),
        "a shard without K/N takes them from SLURM_ARRAY_TASK_ID",
    );
}

/// Fault: a sweep stopped by a signal printed no table at all. It prints what it played, marked
/// as partial, with the same figures as its summary.
#[test]
fn a_sweep_stopped_by_a_signal_prints_the_table_of_what_it_played() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let child = std::process::Command::new(binary())
        .args([
            "sweep",
            "--seeds",
            "0..1000000000",
            "-j",
            "2",
            "--window",
            "4096",
        ])
        .arg("--summary")
        .arg(&summary)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    send_signal(child.id(), "INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let table = String::from_utf8(out.stdout).unwrap();
    let played = summary_without_timings(&summary);
    let end = played["seeds"]["end"].as_u64().unwrap();
    assert!(end > 0 && end < 1_000_000_000);
    let first = table.lines().next().unwrap();
    assert_eq!(first, format!("partial: only seeds 0..{end} were played"));
    let games = format!("games {:>20}", grouped(end));
    assert!(
        table
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")
                == games.split_whitespace().collect::<Vec<_>>().join(" ")),
        "{table}"
    );
    assert!(table.contains(" battles played ("), "{table}");
}

/// Fault: `--resume` with no checkpoint (a first run, or one that finished) starts afresh; it
/// says so in a note, and plays the whole range.
#[test]
fn resume_without_a_checkpoint_says_it_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let out = warsweep()
        .args(["sweep", "--seeds", "100..2000", "--resume", "--summary"])
        .arg(&summary)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        format!(
            "warsweep: note: no checkpoint at {}.resume: starting at seed 100\n",
            summary.display()
        )
    );
    assert_eq!(summary_without_timings(&summary)["games"], 1900);
}
