//! Hunts that stop when told, count what they did and trust no file (the faults a review of
//! the durable hunts and the building strategies found), each test named after what broke.

use crate::common::warsweep;
use crate::durable::{send_signal, stderr_of};
use crate::hunt_durable::{json, refused, run, spawn};
use std::path::Path;
use std::time::{Duration, Instant};

/// Waits until `path` exists (a hunt's first checkpoint: it is hunting), at most a minute.
fn wait_for(path: &Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "{path:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Faults guarded: a stop waited for the end of a generation of 4,096 built tasks (33 s after
/// a SIGINT on 4x13), and a second Ctrl-C then ended the process with nothing written but the
/// checkpoint of the hunt's start. Each building strategy now ends soon after one signal, and
/// after two, a second apart; either way its report, its log and its checkpoint are on disk
/// (the report counting the games built and fallen back) and stderr says where.
#[test]
fn a_building_hunt_ends_at_a_signal_and_a_second_signal_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (strategy, deck) in [("shapes", "4x11"), ("construct", "4x8")] {
        for second in [false, true] {
            let out = dir.path().join(format!("{strategy}-{second}.json"));
            let log = dir.path().join(format!("{strategy}-{second}.csv"));
            let checkpoint = dir.path().join(format!("{strategy}-{second}.json.resume"));
            let child = spawn(&[
                "hunt",
                "--deck",
                deck,
                "--for",
                "cycles",
                "--strategy",
                strategy,
                "--games",
                "100000000",
                "-j",
                "2",
                "-q",
                "--out",
                out.to_str().unwrap(),
                "--log",
                log.to_str().unwrap(),
            ]);
            wait_for(&checkpoint);
            std::thread::sleep(Duration::from_millis(700));
            send_signal(child.id(), "INT");
            let signalled = Instant::now();
            if second {
                std::thread::sleep(Duration::from_millis(1100));
                send_signal(child.id(), "INT");
            }
            let (code, stderr) = stderr_of(child);
            assert_eq!(code, Some(130), "{stderr}");
            // A generation of 4,096 such tasks took minutes in a debug build.
            let took = signalled.elapsed();
            assert!(took < Duration::from_secs(10), "{strategy}: {took:?}");
            assert!(stderr.contains("--resume"), "{stderr}");
            let report = json(&out);
            assert_eq!(report["stopped"], true);
            let games = report["games"].as_u64().unwrap();
            let built = report["built"].as_u64().unwrap() + report["fell_back"].as_u64().unwrap();
            assert_eq!(built, games, "{report}");
            assert!(std::fs::read_to_string(&log)
                .unwrap()
                .starts_with("stream,"));
            assert!(checkpoint.exists());
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}

/// Fault guarded: `--start a.json` with another `--keep` than a.json's hunt started afresh from
/// its deals with the same seed, and spent its budget on the deals already played. It now
/// continues that hunt (its games, generations and deals carried on, as many kept as asked);
/// a report of this seed and stream by another strategy is refused in one sentence.
#[test]
fn start_with_another_keep_continues_the_hunt() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    let flags = [
        "hunt",
        "--deck",
        "4x8",
        "--for",
        "cycles",
        "--strategy",
        "construct",
        "--games",
        "2048",
        "-j",
        "2",
        "-q",
    ];
    let mut args = flags.to_vec();
    args.extend(["--keep", "5", "--out", a.to_str().unwrap()]);
    run(&args);
    let mut args = flags.to_vec();
    args.extend([
        "--keep",
        "20",
        "--start",
        a.to_str().unwrap(),
        "--out",
        b.to_str().unwrap(),
    ]);
    run(&args);
    let (ra, rb) = (json(&a), json(&b));
    assert_eq!(
        (ra["games"].as_u64(), rb["games"].as_u64()),
        (Some(2048), Some(4096))
    );
    assert_eq!(rb["generations"], 4);
    let best_a = ra["best"].as_array().unwrap();
    assert_eq!(best_a.len(), 5);
    assert_eq!(&rb["best"].as_array().unwrap()[..5], &best_a[..]);
    assert_eq!(rb["keep"], 20);
    let other = dir.path().join("other.json");
    let said = refused(
        &[
            "hunt",
            "--deck",
            "4x8",
            "--for",
            "cycles",
            "--strategy",
            "random",
            "--games",
            "10",
            "--start",
            a.to_str().unwrap(),
            "--out",
            other.to_str().unwrap(),
        ],
        1,
        "the construct strategy hunted it with this seed and stream",
    );
    assert!(said.contains("give another --seed"), "{said}");
    assert!(!other.exists());
}

/// Fault guarded: a strategy that could not build played random deals under its own name.
/// What cannot build anything is refused in one sentence; what builds says so in one line
/// when it starts, and its report counts the games built and fallen back.
#[test]
fn a_strategy_that_cannot_build_is_refused_and_one_that_builds_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let refusals = [
        (
            vec![
                "--deck",
                "4x8",
                "--gather",
                "sorted",
                "--strategy",
                "shapes",
            ],
            "none of the",
        ),
        (
            vec![
                "--deck",
                "4x11",
                "--ranking",
                "cyclic",
                "--strategy",
                "war-free",
            ],
            "shapes order cards by value: they need --ranking standard",
        ),
        (
            vec!["--deck", "1x2", "--strategy", "construct"],
            "hands of 1 cards",
        ),
        (
            vec!["--deck", "2x1", "--strategy", "construct"],
            "hands of 1 cards",
        ),
    ];
    let mut checked = 0;
    for (flags, said) in &refusals {
        let mut args = vec!["hunt", "--for", "cycles", "--games", "10"];
        args.extend(flags);
        refused(&args, 1, said);
        checked += 1;
    }
    let out = dir.path().join("wf.json");
    let run = warsweep()
        .args([
            "hunt",
            "--deck",
            "4x11",
            "--for",
            "cycles",
            "--strategy",
            "war-free",
            "--games",
            "64",
            "-j",
            "2",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("note: the shapes strategy builds from "),
        "{stderr}"
    );
    let report = json(&out);
    assert_eq!(
        report["built"].as_u64().unwrap() + report["fell_back"].as_u64().unwrap(),
        64
    );
    assert!(report["built"].as_u64().unwrap() > 32, "{report}");
    let table = String::from_utf8_lossy(&run.stdout);
    assert!(table.contains(" built and "), "{table}");
    assert_eq!(checked, 4);
}

/// What a late second signal writes ([`warsweep::job::Rescue`]): while a hunt runs, the report
/// and the log of its last checkpoint, marked stopped; once the hunt has written its own,
/// nothing.
#[test]
fn a_rescue_writes_the_last_checkpoint_until_the_hunt_writes_its_own() {
    use std::sync::Mutex;
    use warsweep::hunt::{Goal, Hunt};
    use warsweep::job::{HuntFiles, HuntJob, Rescue};
    use warsweep::{Deck, Metric, Preset, Settings};
    let dir = tempfile::tempdir().unwrap();
    let files = HuntFiles {
        report: Some(dir.path().join("r.json")),
        log: Some(dir.path().join("r.csv")),
    };
    let rules = Settings::new(Preset::Bataille)
        .deck(Deck::parse("4x5").unwrap())
        .build()
        .unwrap();
    let job = HuntJob {
        hunt: Hunt::new(rules, Goal::Longest(Metric::Rounds))
            .games(Some(40_000))
            .threads(1),
        files: files.clone(),
        start: None,
        resume: false,
        checkpoint_every: Duration::ZERO,
    };
    let rescue = Rescue::default();
    let seen = Mutex::new(None);
    let job = job.prepare(&mut |_| {}).unwrap();
    let run = job
        .run(
            &|status| {
                // After the fifth generation, whose checkpoint is not saved yet.
                if status.games == 5 * 4096 {
                    let rescued = rescue.write(&files).unwrap().unwrap();
                    let written = json(files.report.as_ref().unwrap());
                    let log = std::fs::read_to_string(files.log.as_ref().unwrap()).unwrap();
                    *seen.lock().unwrap() = Some((rescued.games(), written, log));
                }
            },
            &Default::default(),
            &Default::default(),
            &rescue,
        )
        .unwrap();
    let (games, written, log) = seen.into_inner().unwrap().unwrap();
    // A checkpoint of an earlier generation (one is saved at most every ten times as long as
    // saving one takes).
    assert!(
        games % 4096 == 0 && (4096..=4 * 4096).contains(&games),
        "{games}"
    );
    assert_eq!(
        (written["games"].as_u64(), &written["stopped"]),
        (Some(games), &serde_json::json!(true))
    );
    assert!(
        log.starts_with("stream,seconds,games,value,hands,built,fell_back\n")
            && log.lines().count() > 1
    );
    assert_eq!(run.report.games(), 40_000);
    assert!(rescue.write(&files).unwrap().is_none());
    assert_eq!(json(files.report.as_ref().unwrap())["games"], 40_000);
}
