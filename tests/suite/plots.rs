//! `plot` and `merge` as a user runs them: summaries drawn on one chart, merged tables.

use crate::cli::refuses;
use crate::common::warsweep;

/// `plot` overlays several summaries, names what differs in the legend, and refuses bad input.
#[test]
fn plot_overlays_summaries() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    for players in ["3", "4"] {
        warsweep()
            .args([
                "sweep",
                "--rules",
                "oorlog",
                "--seeds",
                "0..2000",
                "-q",
                "--players",
                players,
            ])
            .args(["--summary", &p(&format!("o{players}.json"))])
            .assert()
            .success();
    }
    warsweep()
        .args([
            "plot",
            &p("o3.json"),
            &p("o4.json"),
            "-o",
            &p("o.svg"),
            "--metric",
            "wars",
        ])
        .assert()
        .success()
        .stdout("");
    let svg = std::fs::read_to_string(p("o.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(
        svg.contains("players 3 (2,000 games, 0.0% infinite)"),
        "{svg}"
    );
    assert!(svg.contains("players 4 (2,000 games"));
    assert!(svg.contains("wars per finished game: rules oorlog, deck 8x13+4"));
    refuses(
        &[
            "plot",
            &p("o3.json"),
            "-o",
            &p("o.svg"),
            "--metric",
            "colour",
        ],
        b"",
        "invalid value 'colour' for '--metric",
    );
    refuses(
        &["plot", &p("none.json"), "-o", &p("x.svg")],
        b"",
        "cannot read",
    );
    refuses(
        &["plot", &p("o3.json"), "-o", "/no/such/dir/x.svg"],
        b"",
        "cannot write the plot to /no/such/dir/x.svg",
    );
}

/// Fault: `plot --metric cycle_length` of summaries without an infinite game wrote an empty
/// chart (a y-axis labelled 0.1, 0.1, ... 0.0) and exited 0. It is refused in one sentence, and
/// no file is written; summaries that hold some infinite game still plot.
#[test]
fn plot_of_a_metric_without_games_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    for (name, rules, seeds) in [
        ("classic.json", "classic", "0..2000"),
        ("classic-2.json", "classic", "2000..4000"),
        ("codingame.json", "codingame", "0..2000"),
    ] {
        warsweep()
            .args([
                "sweep",
                "--rules",
                rules,
                "--seeds",
                seeds,
                "-q",
                "--summary",
                &p(name),
            ])
            .assert()
            .success();
    }
    let plot = |inputs: &[&str], svg: &str| {
        let mut args = vec!["plot".to_string()];
        args.extend(inputs.iter().map(|i| p(i)));
        args.extend(["--metric", "cycle_length", "-o"].map(String::from));
        args.push(p(svg));
        warsweep().args(&args).output().unwrap()
    };
    let out = plot(&["classic.json"], "none.svg");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "warsweep: the summary holds no infinite game: there is no cycle_length to plot\n"
    );
    assert!(!dir.path().join("none.svg").exists());
    let out = plot(&["classic.json", "classic-2.json"], "none.svg");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("none of the summaries holds"), "{stderr}");
    // codingame loops (a tenth of its deals): its cycles plot beside classic's none.
    let out = plot(&["classic.json", "codingame.json"], "some.svg");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(dir.path().join("some.svg")).unwrap();
    assert!(svg.contains("rounds per cycle of an infinite game"));
    // Where the cycles start plots too, as every metric of the summary does.
    let start = [
        &p("codingame.json"),
        "--metric",
        "cycle_start",
        "-o",
        &p("start.svg"),
    ];
    warsweep().arg("plot").args(start).assert().success();
    let svg = std::fs::read_to_string(dir.path().join("start.svg")).unwrap();
    assert!(
        svg.contains("round an infinite game&apos;s cycle starts at")
            || svg.contains("round an infinite game's cycle starts at"),
        "{svg}"
    );
    // Capped games' lengths plot where a summary measured some, and are refused where not.
    let capped = [
        "sweep",
        "--rules",
        "classic",
        "--gather",
        "random",
        "--max-rounds",
        "300",
        "--seeds",
        "0..500",
        "-q",
        "--summary",
    ];
    warsweep()
        .args(capped)
        .arg(p("capped.json"))
        .assert()
        .success();
    let battles = |input: &str, svg: &str| {
        let args = [
            "plot",
            &p(input),
            "--metric",
            "capped_battles",
            "-o",
            &p(svg),
        ];
        warsweep().args(args).output().unwrap()
    };
    let out = battles("capped.json", "capped.svg");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(dir.path().join("capped.svg")).unwrap();
    assert!(svg.contains("battles per game stopped by the round limit"));
    let out = battles("classic.json", "none.svg");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "warsweep: the summary holds no capped game it measured: there is no capped_battles to plot\n"
    );
    assert!(!dir.path().join("none.svg").exists());
}

/// Fault: the `merge` table left out the "N battles played" line the sweep table prints. The
/// merge of two shards prints the whole sweep's table, timings aside.
#[test]
fn merge_table_says_the_battles_played() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let table = |args: &[&str]| {
        let out = warsweep().args(args).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        // Timings differ: the lines with seconds are compared up to their figures.
        text.lines()
            .map(|l| match l.split_once(" battles played (") {
                Some((n, _)) => format!("{n} battles played"),
                None if l.ends_with(" games/s") => "time".to_string(),
                None => l.to_string(),
            })
            .collect::<Vec<_>>()
    };
    let whole = table(&["sweep", "--seeds", "0..3000", "-j", "1"]);
    for (k, range) in ["0..1000", "1000..3000"].iter().enumerate() {
        let summary = p(&format!("{k}.json"));
        table(&["sweep", "--seeds", range, "-q", "--summary", &summary]);
    }
    let merged = table(&["merge", &p("0.json"), &p("1.json")]);
    assert!(
        whole.last().unwrap().ends_with(" battles played"),
        "{whole:?}"
    );
    assert_eq!(merged, whole);
}

/// Fault: the overlay plot fell back to file names when summaries differed only by their seed
/// ranges, drew one line in a yellow hard to see on white, and had no logarithmic axis for
/// long tails.
#[test]
fn plot_legends_name_seed_ranges_and_tails_show_on_a_log_axis() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    for (name, seeds) in [("a.json", "0..3000"), ("b.json", "3000..6000")] {
        warsweep()
            .args(["sweep", "--seeds", seeds, "-q", "--summary", &p(name)])
            .assert()
            .success();
    }
    for log in [false, true] {
        let mut command = warsweep();
        command.args(["plot", &p("a.json"), &p("b.json"), "-o", &p("ab.svg")]);
        if log {
            command.arg("--log");
        }
        command.assert().success();
        let svg = std::fs::read_to_string(p("ab.svg")).unwrap();
        assert!(svg.contains("seeds 0..3000 (3,000 games"), "{svg}");
        assert!(svg.contains("seeds 3000..6000 (3,000 games"));
        assert!(!svg.contains("a.json"), "file names in the legend");
        // The first two lines in the palette's blue and vermillion; nothing yellow.
        assert!(svg.contains("stroke=\"#0072B2\"") && svg.contains("stroke=\"#D55E00\""));
        for yellow in ["#F0E442", "#FFFF00", "#FFE119"] {
            assert!(!svg.contains(yellow));
        }
        // Powers of ten label a logarithmic axis; a linear one starts at 0.0.
        assert_eq!(svg.contains("\n0.1\n"), log, "log {log}");
        assert_eq!(svg.contains("\n0.0\n"), !log, "log {log}");
    }
}
