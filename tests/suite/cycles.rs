//! Distinct cycles (`--cycles`) and mirror walks from the command line: shards merge into the
//! whole walk's table, a walk of every deal gives the same bytes, doctored tables are refused,
//! and a stopped mirror walk keeps its checkpoint and resumes to the whole.

use crate::common::warsweep;
use assert_cmd::Command;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// The walk of every `1x10` deal under `bataille`: 3,628,800 deals, 96 distinct cycles.
const WALK: [&str; 8] = [
    "sweep",
    "--rules",
    "bataille",
    "--deck",
    "1x10",
    "--shuffle",
    "lex",
    "-q",
];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The summary without its timings.
fn summary(path: &Path) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(&read(path)).unwrap();
    let object = value.as_object_mut().unwrap();
    object.remove("elapsed_seconds");
    object.remove("games_per_second");
    value
}

fn refuses(command: &mut Command, message: &str) {
    let out = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(message), "{stderr:?} lacks {message:?}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr:?}");
}

#[test]
fn shards_and_every_deal_give_the_whole_walks_cycle_table() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    warsweep()
        .args(WALK)
        .args(["--cycles", "whole.csv", "--summary", "whole.json"])
        .current_dir(d)
        .assert()
        .success();
    let table = read(&d.join("whole.csv"));
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows[0], "cycle_length,deals,first_seed,hands");
    // Every row a cycle; their basins hold every infinite game.
    let whole = summary(&d.join("whole.json"));
    let deals: u64 = rows[1..]
        .iter()
        .map(|r| r.split(',').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(deals, whole["infinite"].as_u64().unwrap());
    assert_eq!(whole["cycles"].as_array().unwrap().len(), rows.len() - 1);
    assert!(rows.len() > 10, "{table}");
    // Played deal by deal: the same table and summary.
    warsweep()
        .args(WALK)
        .args([
            "--every-deal",
            "--cycles",
            "every.csv",
            "--summary",
            "every.json",
        ])
        .current_dir(d)
        .assert()
        .success();
    assert_eq!(read(&d.join("every.csv")), table);
    assert_eq!(summary(&d.join("every.json")), whole);
    // Three shards, merged.
    for k in 0..3 {
        warsweep()
            .args(WALK)
            .args(["--shard", &format!("{k}/3"), "--cycles", "-"])
            .args(["--summary", &format!("shard-{k}.json")])
            .current_dir(d)
            .assert()
            .success();
    }
    // A shard counts the pairs it shares with the others once: its summary says so, and only
    // all of them together are the whole walk.
    let part = summary(&d.join("shard-0.json"));
    assert_eq!(part["mirrors_within"]["end"].as_u64(), Some(3_628_800));
    warsweep()
        .args([
            "merge",
            "shard-0.json",
            "shard-1.json",
            "--summary",
            "two.json",
            "-q",
        ])
        .current_dir(d)
        .assert()
        .success();
    assert!(summary(&d.join("two.json"))["mirrors_within"].is_object());
    refuses(
        warsweep()
            .args(["merge", "two.json", "every.json"])
            .current_dir(d),
        "cannot merge a part of the mirror walk 0..3628800 with a whole sweep",
    );
    let out = warsweep()
        .args(["merge", "shard-0.json", "shard-1.json", "shard-2.json"])
        .args(["--cycles", "merged.csv", "--summary", "merged.json"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(out.status.success());
    let shown = String::from_utf8_lossy(&out.stdout);
    let distinct = format!("distinct cycles {:>12}", rows.len() - 1);
    assert!(shown.contains(&distinct), "{shown}");
    assert_eq!(read(&d.join("merged.csv")), table);
    assert_eq!(summary(&d.join("merged.json")), whole);
}

#[test]
fn tables_missing_or_doctored_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = |args: &[&str]| {
        warsweep()
            .args(WALK)
            .args(args)
            .current_dir(d)
            .assert()
            .success();
    };
    run(&[
        "--seeds",
        "0..1000000",
        "--summary",
        "a.json",
        "--cycles",
        "a.csv",
    ]);
    run(&["--seeds", "1000000..2000000", "--summary", "b.json"]);
    refuses(
        warsweep()
            .args(["merge", "a.json", "b.json", "--cycles", "m.csv"])
            .current_dir(d),
        "warsweep: --cycles: b.json lists no distinct cycles: the cycles merge from summaries of sweeps that listed theirs",
    );
    refuses(
        warsweep()
            .args(["merge", "a.json", "b.json"])
            .current_dir(d),
        "one lists its distinct cycles and another does not",
    );
    assert!(!d.join("m.csv").exists());
    let value: serde_json::Value = serde_json::from_str(&read(&d.join("a.json"))).unwrap();
    let doctor = |name: &str, change: &dyn Fn(&mut serde_json::Value)| {
        let mut v = value.clone();
        change(&mut v);
        std::fs::write(d.join(name), serde_json::to_string(&v).unwrap()).unwrap();
        name.to_string()
    };
    let cases = [
        (
            doctor("deals.json", &|v| v["cycles"][0]["deals"] = 1.into()),
            "infinite games",
        ),
        (
            doctor("value.json", &|v| {
                v["cycles"][0]["hands"] = "1 2 11|3".into();
            }),
            "holds \"11\", not a value from 1 to 10",
        ),
        (
            doctor("cards.json", &|v| v["cycles"][0]["hands"] = "1 2|3".into()),
            "holds 3 cards, not 10",
        ),
        (
            doctor("twice.json", &|v| {
                let first = v["cycles"][0].clone();
                v["cycles"][1]["hands"] = first["hands"].clone();
            }),
            "twice",
        ),
        (
            doctor("seed.json", &|v| {
                v["cycles"][0]["first_seed"] = 5_000_000.into();
            }),
            "a cycle's first seed is outside its seeds",
        ),
    ];
    for (name, message) in cases {
        refuses(warsweep().args(["merge", &name]).current_dir(d), message);
    }
}

/// A mirror walk's tallies count deals past the seeds played: stopped, it writes no output but
/// its checkpoint, and `--resume` finishes it with the outputs of one uninterrupted walk.
#[test]
fn a_stopped_mirror_walk_keeps_its_checkpoint_and_resumes_to_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let walk = [
        "sweep",
        "--rules",
        "bataille",
        "--deck",
        "4x4",
        "--shuffle",
        "lex",
        "-q",
        "--seeds",
    ];
    let seeds = if cfg!(debug_assertions) {
        "0..2000000"
    } else {
        "0..20000000"
    };
    let outputs = |stem: &str| {
        [
            "--summary".to_string(),
            format!("{stem}.json"),
            "--cycles".to_string(),
            format!("{stem}.csv"),
        ]
    };
    warsweep()
        .args(walk)
        .arg(seeds)
        .args(outputs("ref"))
        .current_dir(d)
        .assert()
        .success();
    let start = |resume: bool| {
        let mut command = std::process::Command::new(crate::common::binary());
        command
            .args(walk)
            .arg(seeds)
            .args(outputs("run"))
            .args(["--window", "65536", "--checkpoint-seconds", "0", "-j", "2"])
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if resume {
            command.arg("--resume");
        }
        command.spawn().unwrap()
    };
    let child = start(false);
    std::thread::sleep(Duration::from_millis(250));
    let _ = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(130) {
        assert!(
            stderr.contains("a walk that counts mirror deals writes its outputs when it ends"),
            "{stderr}"
        );
        assert!(!d.join("run.json").exists() && !d.join("run.csv").exists());
        assert!(d.join("run.json.resume").exists());
        // Resumed as a walk of every deal, its tallies would count some deals twice.
        refuses(
            warsweep()
                .args(walk)
                .arg(seeds)
                .args(outputs("run"))
                .args(["--resume", "--every-deal"])
                .current_dir(d),
            "it was written for a walk that counts mirror deals",
        );
        let out = start(true).wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    } else {
        // The walk ended before the signal.
        assert!(out.status.success(), "{stderr}");
    }
    assert_eq!(summary(&d.join("run.json")), summary(&d.join("ref.json")));
    assert_eq!(read(&d.join("run.csv")), read(&d.join("ref.csv")));
    assert!(!d.join("run.json.resume").exists());
}

/// Fault: a stopped mirror walk printed `seeds 0..N` above twice as many games (each deal
/// played counts its mirror too, which lies past where the walk stopped); its seeds line now
/// says so.
#[test]
fn a_stopped_mirror_walk_says_its_games_count_mirror_deals() {
    let out = std::process::Command::new("timeout")
        .args(["-s", "INT", "1"])
        .arg(crate::common::binary())
        .args([
            "sweep",
            "--rules",
            "bataille",
            "--deck",
            "4x5",
            "--shuffle",
            "lex",
        ])
        .args(["--window", "100000"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let seeds = (stdout.lines())
        .find_map(|l| l.split(", seeds 0..").nth(1))
        .expect("a seeds line");
    let end: u64 = seeds.split(' ').next().unwrap().parse().unwrap();
    let games: u64 = (stdout.lines())
        .find_map(|l| l.strip_prefix("games"))
        .map(|g| g.trim().replace(',', "").parse().unwrap())
        .expect("a games line");
    assert!(end > 0 && games > end, "{stdout}");
    assert_eq!(seeds, format!("{end} and their mirror deals"), "{stdout}");
}
