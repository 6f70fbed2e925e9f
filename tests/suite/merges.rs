//! Summaries merged: shards into one sweep, summaries of older versions, and every kind of
//! summary that cannot be merged (malformed, doctored, of other sweeps).

use crate::common::warsweep;
use crate::sweep::{read_summary, refuses};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// Summaries written before version 2 still merge: with the sums of squares read from their
/// histograms, exactly what today's sweep of the whole range writes where every value is below
/// 2,048; past it, the same but for a `null` sum of squares and a standard deviation labelled
/// approximate.
#[test]
fn summaries_of_version_1_still_merge() {
    let dir = tempfile::tempdir().unwrap();
    let old = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/summary-v1");
    let mut compared = 0;
    for (name, flags) in [
        ("small", &["--rules", "codingame", "--deck", "4x6"][..]),
        ("large", &[]),
    ] {
        let (merged, whole) = (
            dir.path().join("merged.json"),
            dir.path().join("whole.json"),
        );
        warsweep()
            .arg("merge")
            .arg(old.join(format!("{name}-a.json")))
            .arg(old.join(format!("{name}-b.json")))
            .args(["-q", "--summary"])
            .arg(&merged)
            .assert()
            .success();
        warsweep()
            .args(["sweep", "--seeds", "0..600", "-q"])
            .args(flags)
            .arg("--summary")
            .arg(&whole)
            .assert()
            .success();
        let (mut merged, mut whole) = (read_summary(&merged), read_summary(&whole));
        assert_eq!(merged["version"], 3);
        for metric in ["rounds", "battles", "wars", "cycle_start", "cycle_length"] {
            let (m, w) = (&mut merged[metric], &mut whole[metric]);
            if name == "large" && m["max"].as_u64().unwrap() >= 2048 {
                assert_eq!(m["squares"], serde_json::Value::Null, "{metric}");
                let (a, b) = (m["stdev"].as_f64().unwrap(), w["stdev"].as_f64().unwrap());
                assert!((a - b).abs() < 0.01 * b, "{metric}: {a} against {b}");
                let labels = m["approximate"].as_array_mut().unwrap();
                assert_eq!(labels.remove(0), "stdev");
                if labels.is_empty() {
                    m.as_object_mut().unwrap().remove("approximate");
                }
                for field in ["squares", "stdev"] {
                    m[field] = w[field].clone();
                }
                compared += 1;
            }
        }
        assert_eq!(merged, whole, "{name}");
        compared += 1;
    }
    assert_eq!(compared, 2 + 4);
}

/// Summaries of format 2 counted capped games but not their lengths: they merge, with every
/// other figure what today's sweep of the whole range writes, and the capped games' lengths
/// left unmeasured (no games) rather than counting some of them; merged with a part of today's,
/// the same.
#[test]
fn summaries_of_version_2_merge_without_capped_lengths() {
    let dir = tempfile::tempdir().unwrap();
    let old = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/summary-v2");
    let setting = [
        "--rules",
        "classic",
        "--gather",
        "random",
        "--max-rounds",
        "300",
        "-q",
    ];
    let sweep = |seeds: &str, out: &Path| {
        warsweep()
            .args(["sweep", "--seeds", seeds])
            .args(setting)
            .arg("--summary")
            .arg(out)
            .assert()
            .success();
    };
    let (whole, new_b) = (dir.path().join("whole.json"), dir.path().join("b.json"));
    sweep("0..600", &whole);
    sweep("300..600", &new_b);
    let whole = read_summary(&whole);
    assert!(whole["capped_rounds"]["count"].as_u64().unwrap() > 0);
    let mut compared = 0;
    for b in [old.join("capped-b.json"), new_b] {
        let merged = dir.path().join("merged.json");
        let table = warsweep()
            .arg("merge")
            .arg(old.join("capped-a.json"))
            .arg(&b)
            .arg("--summary")
            .arg(&merged)
            .output()
            .unwrap();
        assert!(table.status.success());
        let table = String::from_utf8(table.stdout).unwrap();
        assert!(
            table.contains("capped games' lengths: not kept by summaries before format 3"),
            "{table}"
        );
        let mut merged = read_summary(&merged);
        assert_eq!(
            (&merged["version"], &merged["capped"]),
            (&3.into(), &whole["capped"])
        );
        for metric in ["capped_rounds", "capped_battles", "capped_wars"] {
            assert_eq!(merged[metric]["count"], 0, "{metric}");
            merged[metric] = whole[metric].clone();
            merged["histograms"][metric] = whole["histograms"][metric].clone();
        }
        assert_eq!(merged, whole);
        compared += 1;
    }
    assert_eq!(compared, 2);
}

#[test]
fn shards_merge_into_one_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    let sweep = |seeds: &str, out: &Path| {
        warsweep()
            .args([
                "sweep",
                "--rules",
                "oorlog",
                "--players",
                "3",
                "--seeds",
                seeds,
                "--quiet",
                "--summary",
            ])
            .arg(out)
            .assert()
            .success();
    };
    sweep("0..400", &p("whole.json"));
    sweep("0..150", &p("a.json"));
    sweep("150..=299", &p("b.json"));
    sweep("300..400", &p("c.json"));
    let merged = warsweep()
        .args(["merge", "--summary"])
        .arg(p("merged.json"))
        .args([p("c.json"), p("a.json"), p("b.json")])
        .output()
        .unwrap();
    assert!(merged.status.success());
    assert!(String::from_utf8(merged.stdout)
        .unwrap()
        .contains("player 3 wins"));
    assert_eq!(
        read_summary(&p("merged.json")),
        read_summary(&p("whole.json"))
    );
    let keys: Vec<String> = read_summary(&p("whole.json"))
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let mut expected = [
        "version",
        "rules",
        "deck",
        "face_down",
        "short_war",
        "deal",
        "ranking",
        "won_pile",
        "max_rounds",
        "battles_played",
        "records",
        "gather",
        "shuffle",
        "players",
        "seeds",
        "games",
        "wins",
        "draws",
        "infinite",
        "capped",
        "rounds",
        "battles",
        "wars",
        "cycle_start",
        "cycle_length",
        "capped_rounds",
        "capped_battles",
        "capped_wars",
        "histograms",
        "elapsed_seconds",
        "games_per_second",
    ]
    .map(String::from)
    .to_vec();
    let mut keys_sorted = keys.clone();
    keys_sorted.sort();
    expected.sort();
    assert_eq!(keys_sorted, expected);
}

#[test]
fn bad_merges_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    for (name, flags) in [
        ("a.json", vec!["--seeds", "0..100"]),
        ("b.json", vec!["--seeds", "50..150"]),
        ("c.json", vec!["--seeds", "200..300"]),
        ("d.json", vec!["--seeds", "100..200", "--rules", "classic"]),
        ("e.json", vec!["--seeds", "100..200", "--deck", "4x8"]),
        ("f.json", vec!["--seeds", "100..200", "--face-down", "2"]),
        (
            "g.json",
            vec!["--seeds", "100..200", "--won-pile", "shuffled"],
        ),
    ] {
        warsweep()
            .arg("sweep")
            .args(flags)
            .args(["--quiet", "--summary", &p(name)])
            .assert()
            .success();
    }
    std::fs::write(p("games.csv"), "seed,outcome\n1,win\n").unwrap();
    refuses(
        &["merge", &p("a.json"), &p("b.json")],
        "seed ranges 0..100 and 50..150 overlap",
    );
    refuses(
        &["merge", &p("a.json"), &p("c.json")],
        "seeds 100..200 are in no summary",
    );
    refuses(
        &["merge", &p("a.json"), &p("d.json")],
        "cannot merge different settings: rules shortened and classic",
    );
    refuses(
        &["merge", &p("a.json"), &p("e.json")],
        "cannot merge different settings: deck 4x13 and 4x8",
    );
    refuses(
        &["merge", &p("a.json"), &p("f.json")],
        "cannot merge different settings: face down 3 and 2",
    );
    refuses(
        &["merge", &p("a.json"), &p("g.json")],
        "cannot merge different settings: won pile none and shuffled",
    );
    refuses(
        &["merge", &p("a.json"), &p("games.csv")],
        "games.csv is not a warsweep summary",
    );
    refuses(&["merge", &p("missing.json")], "cannot read");
}

/// scripts/shard.sh splits a sweep, and its merged CSV and summary equal one sweep's.
#[test]
fn the_shard_script_reassembles_one_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/shard.sh");
    let status = std::process::Command::new("bash")
        .arg(script)
        .args(["100", "400", "3"])
        .arg(dir.path())
        .args(["--rules", "codingame"])
        .env("WARSWEEP", crate::common::binary())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let whole = dir.path().join("whole.json");
    let out = warsweep()
        .args([
            "sweep",
            "--seeds",
            "100..400",
            "--rules",
            "codingame",
            "--quiet",
            "--csv",
            "-",
            "--summary",
        ])
        .arg(&whole)
        .output()
        .unwrap();
    assert_eq!(
        std::fs::read(dir.path().join("all.csv")).unwrap(),
        out.stdout
    );
    assert_eq!(
        read_summary(&dir.path().join("all.json")),
        read_summary(&whole)
    );
}

/// merge checks what it reads: doctored or damaged summaries are refused with one line.
#[test]
fn doctored_summaries_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let original = d.join("a.json");
    warsweep()
        .args(["sweep", "--seeds", "0..2000", "-q", "--summary"])
        .arg(&original)
        .assert()
        .success();
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&original).unwrap()).unwrap();
    let doctor = |name: &str, change: &dyn Fn(&mut serde_json::Value)| -> PathBuf {
        let mut v = value.clone();
        change(&mut v);
        let path = d.join(name);
        std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
        path
    };
    let cases: Vec<(PathBuf, &str)> = vec![
        (
            doctor("games.json", &|v| v["games"] = 2001.into()),
            "it counts 2001 games over the 2000 seeds 0..2000",
        ),
        (
            doctor("wins.json", &|v| {
                v["wins"][0] = (v["wins"][0].as_u64().unwrap() + 1).into();
            }),
            "do not add up to its 2000 games",
        ),
        (
            doctor("count.json", &|v| v["rounds"]["count"] = 5.into()),
            "its rounds count 5 is not the number of games it describes",
        ),
        (
            doctor("minmax.json", &|v| v["battles"]["min"] = 1_000_000.into()),
            "its battles minimum is above its maximum",
        ),
        (
            doctor("record.json", &|v| {
                v["records"]["most_rounds"]["value"] = 3.into();
            }),
            "its most_rounds record does not match",
        ),
        (
            doctor("hist.json", &|v| v["histograms"]["wars"] = "AAAA".into()),
            "the wars histogram is not a valid base64 HdrHistogram",
        ),
        (
            doctor("negative.json", &|v| v["games"] = (-5).into()),
            "negative.json is not a warsweep summary",
        ),
        (
            doctor("squares.json", &|v| v["wars"]["squares"] = 1.into()),
            "its wars sum of squares does not fit its count, total and maximum",
        ),
        (
            doctor("null.json", &|v| {
                v["rounds"]["min"] = serde_json::Value::Null;
            }),
            "its rounds has games but no minimum or maximum",
        ),
        (
            doctor("version.json", &|v| v["version"] = 4.into()),
            "it is a version 4 summary, from a newer warsweep than this one (version 3)",
        ),
    ];
    for (path, message) in cases {
        crate::durable::refuses(warsweep().arg("merge").arg(&path), message);
    }
    // Sums past 2^64 are refused, not wrapped.
    let big = |name: &str, start: u64| {
        doctor(name, &|v| {
            v["battles_played"] = (u64::MAX - 1).into();
            let (a, b) = (
                v["seeds"]["start"].as_u64().unwrap(),
                v["seeds"]["end"].as_u64().unwrap(),
            );
            v["seeds"]["start"] = (a + start).into();
            v["seeds"]["end"] = (b + start).into();
        })
    };
    let (x, y) = (big("x.json", 0), big("y.json", 2000));
    // Records name seeds in the range: move them with it.
    let mut yv: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&y).unwrap()).unwrap();
    for record in yv["records"].as_object_mut().unwrap().values_mut() {
        if let Some(seed) = record.get("seed").and_then(serde_json::Value::as_u64) {
            record["seed"] = (seed + 2000).into();
        }
    }
    std::fs::write(&y, serde_json::to_string(&yv).unwrap()).unwrap();
    crate::durable::refuses(
        warsweep().arg("merge").arg(&x).arg(&y),
        "the battles played add up to more than 2^64",
    );
}
