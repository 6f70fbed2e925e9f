//! Hunts that survive anything, as a user runs them: stopped by a signal within a second
//! whatever the backward search's budget, killed at random moments and resumed to the report
//! an uninterrupted hunt writes, continued from a finished report, joined only when the
//! reports are every stream of one hunt and say what the engine plays. Each regression test
//! is named after what broke.

use crate::common::binary;
use crate::common::warsweep;
use crate::durable::{send_signal, stderr_of};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `args` and returns stdout, asserting success.
pub(crate) fn run(args: &[&str]) -> String {
    let out = warsweep().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `args`, asserting exit `code` and one line on stderr holding `said`; returns stderr.
pub(crate) fn refused(args: &[&str], code: i32, said: &str) -> String {
    let out = warsweep().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(stderr.contains(said), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    if code == 1 {
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
    stderr
}

pub(crate) fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A report without its timings (its seconds, each improvement's seconds, and whether it was
/// stopped, which a resumed run is not).
fn without_timings(path: &Path) -> serde_json::Value {
    let mut report = json(path);
    let object = report.as_object_mut().unwrap();
    object.remove("seconds");
    object.remove("stopped");
    for entry in object["log"].as_array_mut().unwrap() {
        entry.as_object_mut().unwrap().remove("seconds");
    }
    report
}

/// The distinct cycles a report keeps.
fn cycles(path: &Path) -> std::collections::BTreeSet<String> {
    json(path)["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["cycle"].as_str().unwrap().to_string())
        .collect()
}

pub(crate) fn spawn(args: &[&str]) -> Child {
    Command::new(binary())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Fault: a CSV given to `--start` whose header has a space after its comma (`seed, hands`)
/// passed the header check and then panicked reading the rows ("a hands column"); its names
/// and fields are now trimmed, and a row that is not CSV is refused in one sentence.
#[test]
fn a_start_csv_with_spaces_after_its_commas_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let quoted = dir.path().join("quoted.csv");
    std::fs::write(&quoted, "seed, hands\n1,\"1,2|3,4\"\n").unwrap();
    let table = run(&[
        "hunt",
        "--deck",
        "1x4",
        "--start",
        quoted.to_str().unwrap(),
        "--games",
        "10",
    ]);
    assert!(table.contains("printf '1,2\\n3,4\\n'"), "{table}");
    let bare = dir.path().join("bare.csv");
    std::fs::write(&bare, "seed, hands\n1, 1,2|3,4\n").unwrap();
    refused(
        &[
            "hunt",
            "--deck",
            "1x4",
            "--start",
            bare.to_str().unwrap(),
            "--games",
            "10",
        ],
        1,
        "found record with 4 fields",
    );
}

/// Fault: `--join` kept as many cycles as the longest list of one stream, so that the union of
/// the streams' cycles lost some (3 of 4 on 4x4; 1,444 of 2,539 on 4x5 revealed). A report
/// now stores its `keep`, and a join keeps every distinct cycle up to it.
#[test]
fn join_keeps_every_distinct_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let mut checked = 0;
    for (flags, keep) in [
        (
            &["--deck", "4x4", "--games", "8000", "--seed", "9"][..],
            "10",
        ),
        (
            &["--deck", "4x5", "--gather", "reveal", "--games", "2000"][..],
            "100000",
        ),
    ] {
        let mut parts = Vec::new();
        for k in 0..2 {
            let out = path(&format!("c{checked}-{k}.json"));
            let mut args = vec!["hunt", "--for", "cycles", "--strategy", "random", "-q"];
            args.extend(flags);
            let shard = format!("{k}/2");
            args.extend([
                "--keep",
                keep,
                "--shard",
                &shard,
                "--out",
                out.to_str().unwrap(),
            ]);
            run(&args);
            parts.push(out);
        }
        let joined = path(&format!("c{checked}.json"));
        run(&[
            "hunt",
            "-q",
            "--join",
            parts[0].to_str().unwrap(),
            parts[1].to_str().unwrap(),
            "--out",
            joined.to_str().unwrap(),
        ]);
        let union: std::collections::BTreeSet<String> =
            parts.iter().flat_map(|p| cycles(p)).collect();
        assert!(union.len() > cycles(&parts[0]).len().max(cycles(&parts[1]).len()));
        assert_eq!(cycles(&joined), union, "{flags:?}");
        assert_eq!(json(&joined)["keep"], keep.parse::<u64>().unwrap());
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// Fault: `--join` joined what was not one hunt: streams of two counts, a stream missing, a
/// report edited by hand (its value, its seconds, its stream), reports of different decks (said
/// as a Rust struct), and setting flags beside `--join` ignored. Each is now refused in one
/// sentence, nothing written.
#[test]
fn join_refuses_what_is_not_one_hunt() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let hunt = |deck: &str, shard: &str, out: &str| {
        run(&[
            "hunt",
            "--deck",
            deck,
            "--for",
            "cycles",
            "--games",
            "8000",
            "--seed",
            "9",
            "-q",
            "--shard",
            shard,
            "--out",
            &path(out),
        ]);
    };
    hunt("4x4", "0/2", "a.json");
    hunt("4x4", "1/3", "b.json");
    hunt("4x5", "1/2", "c.json");
    let edit = |name: &str, change: &dyn Fn(&mut serde_json::Value)| {
        let mut report = json(Path::new(&path("a.json")));
        change(&mut report);
        std::fs::write(path(name), report.to_string()).unwrap();
        path(name)
    };
    let value = edit("value.json", &|r| r["best"][0]["rounds"] = 999_999.into());
    let seconds = edit("seconds.json", &|r| r["seconds"] = (-5).into());
    let stream = edit("stream.json", &|r| r["streams"][0] = "5/2".into());
    let out = path("out.json");
    let (a, b, c) = (path("a.json"), path("b.json"), path("c.json"));
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec![&a, &b], 1, "of 2 streams and of 3 streams"),
        (vec![&a], 1, "stream 1/2 is missing"),
        (vec![&value, &c], 1, "its deal #1 (1,"),
        (vec![&seconds], 1, "its seconds, -5, are no time"),
        (vec![&stream], 1, "\"5/2\" is no stream"),
        (
            vec![&a, &c],
            1,
            "of the settings --rules bataille --deck 4x4 and --rules bataille --deck 4x5",
        ),
        (vec![&a, &c, "--deck", "4x4"], 2, "cannot be used with"),
        (vec![&a, &c, "--seed", "9"], 2, "cannot be used with"),
        (vec![&a, &c, "--keep", "3"], 2, "cannot be used with"),
        (vec![&a, &c, "--for", "cycles"], 2, "cannot be used with"),
    ];
    for (extra, code, said) in &cases {
        let mut args = vec!["hunt", "--out", &out, "--join"];
        args.extend(extra.iter().copied());
        let stderr = refused(&args, *code, said);
        assert!(!stderr.contains("SettingText"), "{stderr}");
        assert!(!Path::new(&out).exists(), "{args:?} wrote {out}");
    }
    assert_eq!(cases.len(), 10);
}

/// Fault: `--start REPORT` started a new hunt rather than continuing it: the same games drawn
/// again, games and log not added up, and a report of another setting taken silently. Now the
/// report of the same hunt is continued: games, seconds and log add up, new deals are drawn.
#[test]
fn start_from_a_report_continues_its_hunt() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let flags = [
        "hunt",
        "--deck",
        "4x6",
        "--strategy",
        "random",
        "--games",
        "50000",
        "--keep",
        "50",
        "-q",
    ];
    let first = path("r1.json");
    let mut args = flags.to_vec();
    args.extend(["--out", first.to_str().unwrap()]);
    run(&args);
    let second = path("r2.json");
    let mut args = flags.to_vec();
    args.extend([
        "--start",
        first.to_str().unwrap(),
        "--out",
        second.to_str().unwrap(),
    ]);
    run(&args);
    let (r1, r2) = (json(&first), json(&second));
    assert_eq!(r2["games"], 100_000);
    assert!(r2["seconds"].as_f64().unwrap() >= r1["seconds"].as_f64().unwrap());
    let log1 = r1["log"].as_array().unwrap();
    let log2 = r2["log"].as_array().unwrap();
    assert_eq!(&log2[..log1.len()], &log1[..]);
    assert_eq!(
        r2["generations"].as_u64().unwrap(),
        2 * r1["generations"].as_u64().unwrap()
    );
    // New deals: had the first run's deals been drawn again, the 50 best would be the same.
    let kept = |r: &serde_json::Value| -> Vec<String> {
        r["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["hands"].to_string())
            .collect()
    };
    assert_eq!(kept(&r1).len(), 50);
    assert_ne!(kept(&r1), kept(&r2));
    let best = |r: &serde_json::Value| r["best"][0]["rounds"].as_u64().unwrap();
    assert!(best(&r2) >= best(&r1));
    let other = path("other.json");
    refused(
        &["hunt", "--deck", "4x6", "--gather", "sorted", "--strategy", "random", "--games", "10",
          "--start", first.to_str().unwrap(), "--out", other.to_str().unwrap()],
        1,
        "of the settings --rules bataille --deck 4x6 --gather sorted and --rules bataille --deck 4x6",
    );
    assert!(!other.exists());
}

/// Fault: only the first generation played the given deals, so that a start file of 5,000
/// deals lost the last 904 (the 144-round 4x4 deal at its end was never played).
#[test]
fn start_deals_past_one_generation_are_played() {
    let dir = tempfile::tempdir().unwrap();
    let start = dir.path().join("start.csv");
    let mut csv = String::from("seed,hands\n");
    let mut state = 7u64;
    for i in 0..4_999 {
        let mut deck: Vec<u8> = (1..=4).flat_map(|v| [v; 4]).collect();
        for j in (1..deck.len()).rev() {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            deck.swap(j, (state >> 33) as usize % (j + 1));
        }
        let hand = |h: &[u8]| h.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        csv.push_str(&format!(
            "{i},\"{}|{}\"\n",
            hand(&deck[..8]),
            hand(&deck[8..])
        ));
    }
    csv.push_str("4999,\"1,3,2,2,1,2,1,4|4,4,3,4,1,2,3,3\"\n");
    std::fs::write(&start, csv).unwrap();
    let table = run(&[
        "hunt",
        "--deck",
        "4x4",
        "--strategy",
        "random",
        "--games",
        "8192",
        "--keep",
        "1",
        "--start",
        start.to_str().unwrap(),
    ]);
    assert!(table.contains("#1 144 rounds"), "{table}");
    // A given deal is said to be given, not found.
    assert!(table.contains("(given to stream 0/1)"), "{table}");
}

/// Fault: the backward search never looked at the stop flag, so a SIGINT took a minute to end
/// a hunt with a large budget of states; and a second signal then lost the whole hunt. Now a
/// hunt ends within a second of a signal, its report written, and `--time` is kept within a
/// second whatever the budget.
#[test]
fn a_signal_or_the_time_ends_a_backward_search_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/puzzles/record-4x7.txt");
    let out = dir.path().join("bs.json");
    let args = [
        "hunt",
        "--deck",
        "4x7",
        "--start",
        record.to_str().unwrap(),
        "--backward-states",
        "100000000",
        "--keep",
        "1",
        "-j",
        "2",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ];
    for second in [false, true] {
        // A stopped hunt keeps its checkpoint, which a new run would refuse to overwrite.
        let _ = std::fs::remove_file(&out);
        let _ = std::fs::remove_file(dir.path().join("bs.json.resume"));
        let child = spawn(&args);
        std::thread::sleep(Duration::from_millis(1500));
        send_signal(child.id(), "INT");
        let signalled = Instant::now();
        if second {
            // The natural second Ctrl-C, after the first seemed ignored.
            std::thread::sleep(Duration::from_millis(1100));
            send_signal(child.id(), "INT");
        }
        let (code, stderr) = stderr_of(child);
        assert_eq!(code, Some(130), "{stderr}");
        if !second {
            assert!(
                signalled.elapsed() < Duration::from_secs(2),
                "{:?}",
                signalled.elapsed()
            );
        }
        let report = json(&out);
        assert_eq!(report["stopped"], true);
        assert!(
            report["best"][0]["rounds"].as_u64().unwrap() >= 1_611,
            "{report}"
        );
    }
    let started = Instant::now();
    let timed = dir.path().join("timed.json");
    run(&[
        "hunt",
        "--deck",
        "4x7",
        "--start",
        record.to_str().unwrap(),
        "--backward-states",
        "20000000",
        "--time",
        "2s",
        "-q",
        "-j",
        "2",
        "--out",
        timed.to_str().unwrap(),
    ]);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

/// Fault: nothing of a hunt was checkpointed, so `kill -9` (or Slurm's SIGKILL after its grace
/// time) lost everything. Killed at random moments and resumed with `--resume`, a hunt ends
/// with the report of an uninterrupted one, byte for byte but its timings.
#[test]
fn kills_at_random_moments_then_resume_give_the_same_report() {
    // About a second of a release build's time, a few of a debug build's.
    const GAMES: &str = if cfg!(debug_assertions) {
        "200000"
    } else {
        "2000000"
    };
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let hunt = |out: &str, resume: bool| -> Vec<String> {
        let mut args: Vec<String> = [
            "hunt",
            "--deck",
            "4x6",
            "--games",
            GAMES,
            "--seed",
            "3",
            "-q",
            "--checkpoint-seconds",
            "0",
            "--out",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        args.push(path(out));
        args.extend(["--log".to_string(), path(&format!("{out}.csv"))]);
        if resume {
            args.push("--resume".to_string());
        }
        args
    };
    let whole = hunt("whole.json", false);
    let whole: Vec<&str> = whole.iter().map(String::as_str).collect();
    run(&whole);
    let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ std::process::id() as u64;
    let (mut killed, mut resumed, mut finished) = (0, 0, false);
    let args = hunt("run.json", true);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let checkpoint = PathBuf::from(path("run.json.resume"));
    for _ in 0..12 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let child = spawn(&args);
        // At a random moment, once the run has saved a checkpoint or after 0 to 0.3 s.
        let waited = Instant::now();
        let moment = Duration::from_millis(state % 300);
        while waited.elapsed() < moment {
            std::thread::sleep(Duration::from_millis(5));
        }
        send_signal(child.id(), "KILL");
        let (code, stderr) = stderr_of(child);
        assert!(!stderr.contains("panicked"), "{stderr}");
        if code == Some(0) {
            finished = true;
            break;
        }
        assert_eq!(code, None, "{stderr}");
        killed += 1;
        resumed += usize::from(checkpoint.is_file());
    }
    assert!(killed >= 2, "only {killed} hunts were killed");
    assert!(resumed >= 1, "no kill left a checkpoint to resume from");
    if !finished {
        run(&args);
    }
    assert!(!checkpoint.exists(), "a finished hunt keeps no checkpoint");
    assert_eq!(
        without_timings(Path::new(&path("run.json"))),
        without_timings(Path::new(&path("whole.json")))
    );
    // The log too, but for its seconds.
    let log = |name: &str| -> Vec<String> {
        std::fs::read_to_string(path(name))
            .unwrap()
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.splitn(3, ',').collect();
                format!("{},{}", f[0], f[2])
            })
            .collect()
    };
    assert_eq!(log("run.json.csv"), log("whole.json.csv"));
}

/// A hunt stopped by SIGINT, SIGTERM or SIGHUP keeps its checkpoint and says how to go on;
/// `--resume` then ends with the uninterrupted report; without `--resume`, the checkpoint of
/// an unfinished hunt is refused rather than overwritten.
#[test]
fn a_stopped_hunt_resumes_to_the_uninterrupted_report() {
    // About 3 s of a release build's time on one core, and of a debug build's.
    const GAMES: &str = if cfg!(debug_assertions) {
        "300000"
    } else {
        "3000000"
    };
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let flags = |out: &str| -> Vec<String> {
        [
            "hunt", "--deck", "4x8", "--games", GAMES, "--seed", "4", "-q", "-j", "1", "--out",
        ]
        .iter()
        .map(ToString::to_string)
        .chain([path(out)])
        .collect()
    };
    let whole = flags("whole.json");
    run(&whole.iter().map(String::as_str).collect::<Vec<_>>());
    let mut stopped = 0;
    for signal in ["INT", "TERM", "HUP"] {
        let out = format!("{signal}.json");
        let args = flags(&out);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let child = spawn(&args);
        std::thread::sleep(Duration::from_millis(600));
        send_signal(child.id(), signal);
        let (code, stderr) = stderr_of(child);
        if code == Some(0) {
            continue;
        }
        assert!(
            stderr.contains("--resume goes on from its checkpoint"),
            "{stderr}"
        );
        refused(&args, 1, "holds the checkpoint of an unfinished hunt");
        let mut again = args.clone();
        again.push("--resume");
        run(&again);
        assert_eq!(
            without_timings(Path::new(&path(&out))),
            without_timings(Path::new(&path("whole.json")))
        );
        stopped += 1;
    }
    assert!(
        stopped >= 2,
        "{stopped} hunts were stopped before they ended"
    );
}

/// Fault: `--resume` where no checkpoint was but an output was (a finished run's) started over
/// and replaced it, for a sweep as for a hunt. Now it is refused, the output kept.
#[test]
fn resume_without_a_checkpoint_keeps_a_finished_output() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("keep.json");
    std::fs::write(&kept, "a finished run's\n").unwrap();
    let kept_str = kept.to_str().unwrap();
    refused(
        &["sweep", "--seeds", "0..1000", "--csv", kept_str, "--resume"],
        1,
        "there is nothing to resume",
    );
    refused(
        &[
            "hunt", "--deck", "4x4", "--games", "10", "--out", kept_str, "--resume",
        ],
        1,
        "there is nothing to resume",
    );
    assert_eq!(
        std::fs::read_to_string(&kept).unwrap(),
        "a finished run's\n"
    );
    refused(
        &["hunt", "--deck", "4x4", "--games", "10", "--resume"],
        1,
        "needs a report or a log",
    );
}

/// Fault: a one-game hunt said `1 rounds` and `(0 a second)`.
#[test]
fn counts_of_one_are_singular_and_no_rate_of_zero_is_said() {
    let table = run(&[
        "hunt",
        "--deck",
        "1x2",
        "--games",
        "1",
        "--strategy",
        "random",
    ]);
    assert!(table.contains("1 game in "), "{table}");
    assert!(table.contains("1 round, 1 battle, 0 wars"), "{table}");
    assert!(!table.contains("(0 a second)"), "{table}");
}

/// Fault: `--for cycles` hunted with the backward strategy, which extends no cycle, and
/// printed it; `--time 0` was taken for a failure of the hunt rather than a bad value;
/// `--max-rounds` and a cycle hunt's `--metric` were accepted and ignored.
#[test]
fn cycle_hunts_hunt_at_random_and_flags_that_do_nothing_are_refused() {
    let cycles = run(&[
        "hunt", "--deck", "4x4", "--for", "cycles", "--games", "20000",
    ]);
    assert!(cycles.contains("random strategy"), "{cycles}");
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (
            vec!["--for", "cycles", "--strategy", "backward"],
            1,
            "the backward strategy extends the longest games",
        ),
        (vec!["--time", "0"], 2, "0 is no time"),
        (
            vec!["--max-rounds", "5"],
            1,
            "--max-rounds: a hunt plays every game to its end",
        ),
        (
            vec!["--for", "cycles", "--metric", "wars"],
            1,
            "--metric: a hunt for cycles",
        ),
        (vec!["--backward-states", "0"], 2, "0 is not allowed here"),
    ];
    for (extra, code, said) in &cases {
        let mut args = vec!["hunt", "--deck", "4x4", "--games", "10"];
        args.extend(extra.iter().copied());
        refused(&args, *code, said);
    }
    assert_eq!(cases.len(), 5);
}
