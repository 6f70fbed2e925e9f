//! Sweeps: golden results through the binary, independence from threads and chunking, summaries
//! that agree with the CSV, shards that merge into one sweep, and the faults a sweep must survive.

use crate::common::warsweep;
use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::AtomicBool;
use warsweep::Engine;
use warsweep::Metric;
use warsweep::OutcomeName;
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::Summary;
use warsweep::{CsvSink, Sweep};
use warsweep::{Deck, Gather, Preset, Rules, Settings, WonPile};

use crate::common::golden_dir;

/// The sweep flags a golden file's name stands for.
pub(crate) fn flags_for(name: &str) -> Vec<String> {
    let stem = name.strip_suffix(".csv").unwrap();
    let mut flags = Vec::new();
    let (mut start, mut count) = (0u64, None);
    for part in stem.split('.') {
        if part.parse::<Preset>().is_ok() {
            flags.extend(["--rules".to_string(), part.to_string()]);
        } else if part.parse::<Gather>().is_ok() {
            flags.extend(["--gather".to_string(), part.to_string()]);
        } else if part.parse::<Shuffle>().is_ok() {
            flags.extend(["--shuffle".to_string(), part.to_string()]);
        } else if let Some(n) = part.strip_suffix('p') {
            flags.extend(["--players".to_string(), n.to_string()]);
        } else if let Some(s) = part.strip_prefix("from") {
            start = s.parse().unwrap();
        }
    }
    let text = std::fs::read_to_string(golden_dir().join(name)).unwrap();
    count.get_or_insert(text.lines().count() as u64 - 1);
    flags.extend([
        "--seeds".to_string(),
        format!("{start}..{}", start + count.unwrap()),
    ]);
    flags
}

#[test]
fn every_golden_file_through_the_binary() {
    let mut files = 0;
    for entry in std::fs::read_dir(golden_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".csv") {
            continue;
        }
        let expected = std::fs::read_to_string(golden_dir().join(&name)).unwrap();
        for threads in ["1", "2"] {
            let out = warsweep()
                .arg("sweep")
                .args(flags_for(&name))
                .args(["--csv", "-", "--quiet", "--threads", threads])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(
                String::from_utf8(out.stdout).unwrap(),
                expected,
                "{name}, {threads} threads"
            );
        }
        files += 1;
    }
    assert_eq!(files, 9);
}

/// The chunk and window a sweep has unless told otherwise.
const DEFAULT_PACING: (usize, usize) = (2048, 1 << 17);

/// Runs a sweep through the library and returns its CSV, its summary, and the summary's JSON
/// with the timing zeroed (what must not depend on threads or chunks).
pub(crate) fn library_sweep(
    rules: Rules,
    shuffle: Shuffle,
    seeds: Seeds,
    threads: usize,
    (chunk, window): (usize, usize),
) -> (Vec<u8>, Summary, serde_json::Value) {
    let job = Sweep::new(rules, shuffle, seeds)
        .max_rounds(2_000)
        .threads(threads)
        .pacing(chunk, window);
    let mut sink = CsvSink::new(Vec::new());
    let swept = job
        .run(Some(&mut sink), &|_| {}, &AtomicBool::new(false))
        .unwrap();
    assert!(swept.stopped.is_none());
    assert_eq!(swept.summary.seeds(), seeds);
    let mut json: serde_json::Value = serde_json::from_str(&swept.summary.to_json()).unwrap();
    json["elapsed_seconds"] = 0.into();
    json["games_per_second"] = 0.into();
    (sink.into_inner().unwrap(), swept.summary, json)
}

#[test]
fn results_do_not_depend_on_threads_or_chunks() {
    let settings = [
        (Rules::preset(Preset::Codingame), Shuffle::Lcg),
        (
            Settings::new(Preset::Oorlog).players(4).build().unwrap(),
            Shuffle::Splitmix,
        ),
        (
            Settings::new(Preset::Shortened)
                .gather(Gather::Random)
                .build()
                .unwrap(),
            Shuffle::Lcg,
        ),
        // The exhaustive walk: each chunk is one run of deals, whose games resume from the
        // rounds they share with the previous deal's.
        (
            Settings::new(Preset::Bataille)
                .deck(Deck::parse("4x4").unwrap())
                .build()
                .unwrap(),
            Shuffle::Lex,
        ),
        // Won piles: every game draws its shuffles from its own seed.
        (
            Settings::new(Preset::Classic)
                .won_pile(WonPile::Shuffled)
                .gather(Gather::LoserFirst)
                .build()
                .unwrap(),
            Shuffle::Splitmix,
        ),
        (
            Settings::new(Preset::Oorlog)
                .won_pile(WonPile::Shuffled)
                .players(5)
                .gather(Gather::PairFirst)
                .build()
                .unwrap(),
            Shuffle::Lcg,
        ),
    ];
    for (rules, shuffle) in settings {
        let seeds = Seeds::new(1000, 1700).unwrap();
        let reference = library_sweep(rules, shuffle, seeds, 1, DEFAULT_PACING);
        for (threads, chunk, window) in [(2, 1, 50), (2, 7, 64), (3, 64, 1000), (2, 2048, 1 << 17)]
        {
            let got = library_sweep(rules, shuffle, seeds, threads, (chunk, window));
            assert_eq!(
                got.0, reference.0,
                "{rules:?}: CSV with {threads} threads, chunk {chunk}"
            );
            assert_eq!(
                got.2, reference.2,
                "{rules:?}: summary with {threads} threads, chunk {chunk}"
            );
        }
        // And each row is what the engine gives for that seed alone.
        let mut engine = Engine::new(rules);
        engine.set_max_rounds(2_000).unwrap();
        let text = String::from_utf8(reference.0).unwrap();
        for line in text.lines().skip(1).step_by(37) {
            let seed: u64 = line.split(',').next().unwrap().parse().unwrap();
            let row = warsweep::GameRow::new(seed, &engine.play_seed(shuffle, seed).unwrap());
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            w.serialize(row).unwrap();
            assert_eq!(
                String::from_utf8(w.into_inner().unwrap())
                    .unwrap()
                    .trim_end(),
                line
            );
        }
    }
}

/// Fault: a range ending at the top of the seed space (2^64, or `..=u64::MAX`) wrote rows of
/// `draw,,0,0,0` and a summary of no games, because the last chunk's end overflowed.
#[test]
fn top_of_the_seed_space_is_played() {
    let rules = Rules::preset(Preset::Shortened);
    let mut engine = Engine::new(rules);
    engine.set_max_rounds(2_000).unwrap();
    let mut compared = 0;
    for (start, threads, chunk) in [
        (u64::MAX - 615, 1, 2048),
        (u64::MAX - 615, 2, 100),
        (u64::MAX, 1, 2048),
    ] {
        let seeds = Seeds::new(start, 1 << 64).unwrap();
        let pacing = (chunk, 256);
        let (csv, summary, _) = library_sweep(rules, Shuffle::Splitmix, seeds, threads, pacing);
        assert_eq!(summary.games() as u128, seeds.end() - start as u128);
        let text = String::from_utf8(csv).unwrap();
        let mut seen = 0;
        for (line, seed) in text.lines().skip(1).zip(start..=u64::MAX) {
            let row =
                warsweep::GameRow::new(seed, &engine.play_seed(Shuffle::Splitmix, seed).unwrap());
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            w.serialize(row).unwrap();
            let expected = String::from_utf8(w.into_inner().unwrap()).unwrap();
            assert_eq!(line, expected.trim_end(), "seed {seed}");
            seen += 1;
        }
        assert_eq!(seen as u128, seeds.end() - start as u128);
        compared += seen;
    }
    assert_eq!(compared, 616 + 616 + 1);
    // The last seed is the game `play` gives for it (docs/rules.md's splitmix; `shortened` prints
    // battles): the row must not be a placeholder.
    warsweep()
        .args(["sweep", "--shuffle", "splitmix", "--csv", "-", "-q"])
        .args(["--seeds", "18446744073709551615..=18446744073709551615"])
        .assert()
        .success()
        .stdout(predicates::str::ends_with(
            "18446744073709551615,win,1,343,360,17,,\n",
        ));
}

#[test]
fn summary_totals_are_the_sums_over_the_csv() {
    let codingame = Rules::preset(Preset::Codingame);
    let (compared, approximate) = stats_against_csv(codingame, Shuffle::Lcg, 3000, 5);
    assert_eq!(compared, 5 * 4);
    assert!(approximate > 0, "some percentile lies past the exact range");
    // Games that cannot be checked for cycles, stopped at 300 rounds: the CSV keeps their
    // lengths, and the summary measures them apart from the finished games'.
    let random = Settings::new(Preset::Classic)
        .gather(Some(Gather::Random))
        .build()
        .unwrap();
    let (compared, _) = stats_against_csv(random, Shuffle::Lcg, 2000, 6);
    assert_eq!(compared, 6 * 4);
}

/// Compares every statistic of a sweep of `games` seeds with a plain computation over its CSV,
/// for each metric with games (at least `with_games` of them): sums, extremes, mean and
/// standard deviation exact; percentiles the nearest-rank ones, exact unless labelled. Returns
/// the percentiles compared and how many of them were approximate.
fn stats_against_csv(rules: Rules, shuffle: Shuffle, games: u64, with_games: usize) -> (u32, u32) {
    let seeds = Seeds::new(0, u128::from(games)).unwrap();
    let (csv_bytes, summary, _) = library_sweep(rules, shuffle, seeds, 2, DEFAULT_PACING);
    let mut reader = csv::Reader::from_reader(csv_bytes.as_slice());
    let rows: Vec<warsweep::GameRow> = reader.deserialize().map(Result::unwrap).collect();
    assert_eq!(rows.len() as u64, summary.games());
    let warsweep::Outcomes {
        wins,
        draws,
        infinite,
        capped,
    } = summary.outcomes();
    let count = |o: OutcomeName| rows.iter().filter(|r| r.outcome == o).count() as u64;
    assert_eq!(count(OutcomeName::Draw), draws);
    assert_eq!(count(OutcomeName::Infinite), infinite);
    assert_eq!(count(OutcomeName::Capped), capped);
    assert_eq!(wins.len(), rules.players());
    for (p, &wins) in (1..).zip(wins) {
        let won = rows.iter().filter(|r| r.winner == Some(p)).count() as u64;
        assert_eq!(won, wins);
    }
    type Field = fn(&warsweep::GameRow) -> Option<u64>;
    fn finished(r: &warsweep::GameRow) -> bool {
        matches!(r.outcome, OutcomeName::Win | OutcomeName::Draw)
    }
    fn stopped(r: &warsweep::GameRow) -> bool {
        r.outcome == OutcomeName::Capped
    }
    let metrics: [(Metric, Field); 8] = [
        (Metric::Rounds, |r| r.rounds.filter(|_| finished(r))),
        (Metric::Battles, |r| r.battles.filter(|_| finished(r))),
        (Metric::Wars, |r| r.wars.filter(|_| finished(r))),
        (Metric::CycleStart, |r| r.cycle_start),
        (Metric::CycleLength, |r| r.cycle_length),
        (Metric::CappedRounds, |r| r.rounds.filter(|_| stopped(r))),
        (Metric::CappedBattles, |r| r.battles.filter(|_| stopped(r))),
        (Metric::CappedWars, |r| r.wars.filter(|_| stopped(r))),
    ];
    let (mut compared, mut approximate, mut measured) = (0, 0, 0);
    for &(metric, field) in &metrics {
        let stats = summary.stats(metric);
        let mut v: Vec<u64> = rows.iter().filter_map(field).collect();
        v.sort_unstable();
        let n = v.len() as u64;
        let total: u64 = v.iter().sum();
        let squares: u128 = v.iter().map(|&x| u128::from(x) * u128::from(x)).sum();
        assert_eq!(
            (stats.count, stats.total, stats.squares),
            (n, total, Some(squares)),
            "{metric}"
        );
        assert_eq!(
            (stats.min, stats.max),
            (v.first().copied(), v.last().copied())
        );
        if n == 0 {
            continue;
        }
        measured += 1;
        let mean = total as f64 / n as f64;
        let spread: f64 = v.iter().map(|&x| (x as f64 - mean).powi(2)).sum();
        let stdev = (spread / n as f64).sqrt();
        assert!((stats.mean.unwrap() - mean).abs() < 1e-12 * mean);
        assert!((stats.stdev.unwrap() - stdev).abs() <= 1e-9 * stdev);
        let quantiles = [
            ("p50", 500, stats.p50),
            ("p90", 900, stats.p90),
            ("p99", 990, stats.p99),
            ("p999", 999, stats.p999),
        ];
        for (name, per_mille, got) in quantiles {
            let truth = v[((n * per_mille).div_ceil(1000).max(1) - 1) as usize];
            let got = got.unwrap();
            if stats.approximate.iter().any(|a| a == name) {
                assert!(truth >= 2048 && got.abs_diff(truth) as f64 <= truth as f64 / 1024.0);
                approximate += 1;
            } else {
                assert_eq!(got, truth, "{name}");
            }
            compared += 1;
        }
    }
    assert_eq!(measured, with_games, "metrics with games");
    // The record games, read as types: each length's longest finished game, least seed on a tie.
    let records = summary.records();
    let kept = [records.most_rounds, records.most_battles, records.most_wars];
    for (record, (_, field)) in kept.iter().zip(&metrics[..3]) {
        let best = rows
            .iter()
            .filter_map(|r| field(r).map(|v| (v, std::cmp::Reverse(r.seed))))
            .max();
        assert_eq!(record.map(|r| (r.value, std::cmp::Reverse(r.seed))), best);
    }
    (compared, approximate)
}

/// Runs and expects failure with one line on stderr containing `message`.
pub(crate) fn refuses(args: &[&str], message: &str) {
    let out = warsweep().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(
        stderr.contains(message),
        "{args:?}: {stderr:?} lacks {message:?}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr:?}");
    assert!(!stderr.contains("panicked"));
}

#[test]
fn bad_sweeps_are_refused_before_any_work() {
    // Seed ranges wrong on their own are usage errors: tests/suite/cli.rs,
    // values_out_of_range_are_usage_errors_as_the_readme_says.
    // Thread counts out of range are usage errors: tests/suite/cli.rs, messages_say_what_is_wrong.
    refuses(
        &[
            "sweep",
            "--rules",
            "bataille",
            "--deck",
            "4x4",
            "--shuffle",
            "lex",
            "--seeds",
            "63062990..63063010",
        ],
        "lex seed 63063009 is past the 4x4 deck's 63063000 distinct deals",
    );
    refuses(
        &["sweep", "--shuffle", "lex"],
        "the 4x13 deck has about 9.20e49 distinct deals",
    );
    refuses(
        &["sweep", "--rules", "classic", "--players", "3"],
        "the first-out-loses short-war policy is for 2 players, not 3",
    );
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let out = warsweep()
        .args([
            "sweep",
            "--seeds",
            "0..100000000",
            "--csv",
            "/no/such/dir/games.csv",
            "--summary",
        ])
        .arg(&summary)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("cannot write the CSV to /no/such/dir/games.csv"));
    refuses(
        &["sweep", "--summary", "/no/such/dir/s.json"],
        "cannot write the summary to /no/such/dir/s.json",
    );
    // A folder that is there but takes no new file is not said to be missing.
    refuses(
        &["sweep", "--seeds", "0..10", "--csv", "/proc/version"],
        "cannot write the CSV to /proc/version: /proc takes no new file, and a file is written \
         beside its target first (No such file or directory",
    );
    refuses(
        &["sweep", "--plot", "/no/such/dir/p.svg"],
        "cannot write the plot to /no/such/dir/p.svg",
    );
    refuses(
        &["sweep", "--hist", "/no/such/dir/h.csv"],
        "cannot write the histograms to /no/such/dir/h.csv",
    );
    refuses(
        &["sweep", "--hist", "-", "--csv", "-"],
        "- is named twice, as the CSV and as the histograms: only one output can go to stdout",
    );
    refuses(
        &["sweep", "--summary", "-", "--plot", "-"],
        "- is named twice, as the summary and as the plot: only one output can go to stdout",
    );
}

#[test]
fn a_closed_reader_ends_the_sweep_quietly() {
    let mut child = std::process::Command::new(crate::common::binary())
        .args([
            "sweep",
            "--seeds",
            "0..100000000",
            "--shuffle",
            "splitmix",
            "--csv",
            "-",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    assert!(head.starts_with(b"seed,outcome,winner,"));
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "exit {status:?}, stderr {stderr:?}");
    // One line says which seeds the outputs cover.
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("warsweep: the CSV's reader went away: seeds 0..")
            && stderr.contains("every output covers exactly those"),
        "{stderr}"
    );
}

#[test]
fn lcg_ranges_past_the_distinct_deals_say_so() {
    let out = warsweep()
        .args(["sweep", "--seeds", "2097150..2097152"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "the lcg shuffle has 2,097,151 distinct deals; seeds from 2,097,151 on repeat them"
        ),
        "{stderr}"
    );
}

/// Fault: `-q` printed the lcg note, and the line saying the CSV's reader went away.
#[test]
fn quiet_silences_notes() {
    let out = warsweep()
        .args(["sweep", "--seeds", "2000000..2100000", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    let mut child = std::process::Command::new(crate::common::binary())
        .args(["sweep", "--seeds", "0..100000000", "--csv", "-", "-q"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 64];
    let stdout = child.stdout.as_mut().unwrap();
    stdout.read_exact(&mut head).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// `lex` with no range sweeps every deal; the records name seeds that `play` replays.
#[test]
fn lex_sweeps_every_deal_and_records_replay() {
    let out = warsweep()
        .args([
            "sweep",
            "--rules",
            "bataille",
            "--deck",
            "1x7",
            "--shuffle",
            "lex",
            "--quiet",
            "--csv",
            "-",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    assert_eq!(csv.lines().count(), 1 + 5040, "every deal of 1x7");
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    warsweep()
        .args([
            "sweep",
            "--rules",
            "bataille",
            "--deck",
            "4x4",
            "--shuffle",
            "lex",
            "--seeds",
            "0..200000",
            "--quiet",
            "--summary",
        ])
        .arg(&json)
        .assert()
        .success();
    let summary = read_summary(&json);
    let most = &summary["records"]["most_rounds"];
    let (value, seed) = (
        most["value"].as_u64().unwrap(),
        most["seed"].as_u64().unwrap(),
    );
    let line = warsweep()
        .args([
            "play",
            "--rules",
            "bataille",
            "--deck",
            "4x4",
            "--shuffle",
            "lex",
            "--seed",
            &seed.to_string(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(line.stdout).unwrap();
    assert!(text.ends_with(&format!(" {value}\n")), "{text} vs {value}");
    let cycle = &summary["records"]["shortest_cycle"];
    let seed = cycle["seed"].as_u64().unwrap();
    let line = warsweep()
        .args([
            "play",
            "--rules",
            "bataille",
            "--deck",
            "4x4",
            "--shuffle",
            "lex",
            "--seed",
            &seed.to_string(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(line.stdout).unwrap();
    assert!(
        text.starts_with("INFINITE ") && text.trim_end().ends_with(&format!(" {}", cycle["value"])),
        "{text}"
    );
}

#[test]
fn a_bare_sweep_prints_a_useful_summary() {
    let out = warsweep().arg("sweep").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "shortened rules, deck 4x13, 2 players, 3 face down, short war shorten, reveal gather, \
             round-robin deal, standard ranking, lcg shuffle, max 1000000 rounds, seeds 0..100000\n"
        ),
        "{text}"
    );
    assert!(text.contains("games                100,000"), "{text}");
    assert!(text.contains("infinite"));
    assert!(
        text.contains("most rounds                6,692                 47197"),
        "{text}"
    );
}

#[test]
fn outputs_are_complete_files() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    warsweep()
        .args(["sweep", "--seeds", "0..1000", "--quiet", "--csv"])
        .arg(p("g.csv"))
        .arg("--summary")
        .arg(p("s.json"))
        .arg("--hist")
        .arg(p("h.csv"))
        .arg("--plot")
        .arg(p("p.svg"))
        .assert()
        .success()
        .stdout("");
    assert_eq!(
        std::fs::read_to_string(p("g.csv")).unwrap().lines().count(),
        1001
    );
    let hist = std::fs::read_to_string(p("h.csv")).unwrap();
    assert!(hist.starts_with("metric,value,games\n"));
    let games_in = |metric: &str| -> u64 {
        hist.lines()
            .filter(|l| l.starts_with(&format!("{metric},")))
            .map(|l| l.rsplit(',').next().unwrap().parse::<u64>().unwrap())
            .sum()
    };
    let summary = read_summary(&p("s.json"));
    assert_eq!(
        games_in("battles"),
        summary["battles"]["count"].as_u64().unwrap()
    );
    assert_eq!(
        games_in("cycle_length"),
        summary["infinite"].as_u64().unwrap()
    );
    let svg = std::fs::read_to_string(p("p.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("infinite"));
}

/// Every file of `tests/data/golden/variants/` through the binary, byte for byte, on 1 and 2
/// threads, with the flags its FLAGS line gives.
#[test]
fn every_variant_golden_file_through_the_binary() {
    let dir = golden_dir().join("variants");
    let flags =
        std::fs::read_to_string(dir.join("FLAGS")).expect("tests/data/golden/variants/FLAGS");
    let mut files = 0;
    for line in flags.lines().filter(|l| !l.trim().is_empty()) {
        let (name, flags) = line.split_once('|').unwrap();
        let expected = std::fs::read_to_string(dir.join(name)).unwrap();
        for threads in ["1", "2"] {
            let out = warsweep()
                .arg("sweep")
                .args(flags.split_whitespace())
                .args(["--threads", threads, "--csv", "-", "--quiet"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{name}");
            assert_eq!(
                String::from_utf8(out.stdout).unwrap(),
                expected,
                "{name} on {threads} threads"
            );
        }
        files += 1;
    }
    assert_eq!(files, 9);
}

/// bataille_cpp's published count: 8,235 loops among the first 31,531,501 deals of the 4x4
/// deck in lexicographic order (a few seconds in release mode on two cores).
#[test]
fn the_first_half_of_the_4x4_deals_has_8235_loops() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("half.json");
    warsweep()
        .args([
            "sweep",
            "--rules",
            "bataille",
            "--deck",
            "4x4",
            "--shuffle",
            "lex",
            "--seeds",
            "0..31531501",
            "--quiet",
            "--summary",
        ])
        .arg(&json)
        .assert()
        .success();
    let summary = read_summary(&json);
    assert_eq!(summary["infinite"], 8235);
    assert_eq!(summary["games"], 31_531_501u64);
    assert_eq!(summary["records"]["most_rounds"]["value"], 144);
}

/// The orchestration of a sweep (outputs, checkpoint, resume) works as a library call, without
/// a process: a job stopped after some windows and resumed writes the bytes one run writes.
#[test]
fn a_job_stopped_and_resumed_writes_what_one_run_writes() {
    use std::sync::atomic::{AtomicU64, Ordering};
    use warsweep::job::{Files, Job};
    use warsweep::Stop;
    let dir = tempfile::tempdir().unwrap();
    let files = |stem: &str| Files {
        csv: Some(dir.path().join(format!("{stem}.csv"))),
        summary: Some(dir.path().join(format!("{stem}.json"))),
        hist: Some(dir.path().join(format!("{stem}.hist.csv"))),
        plot: None,
        cycles: None,
    };
    let seeds = Seeds::new(500, 30_500).unwrap();
    let pacing = (256, 2048);
    let job = |stem: &str, resume: bool| Job {
        sweep: Sweep::new(Rules::preset(Preset::Codingame), Shuffle::Lcg, seeds)
            .threads(2)
            .pacing(pacing.0, pacing.1),
        files: files(stem),
        resume,
        checkpoint_every: std::time::Duration::ZERO,
    };
    let never = AtomicBool::new(false);
    let whole = job("whole", false).prepare(&mut |_| {}).unwrap();
    let done = whole.run(&|_| {}, &never).unwrap();
    assert_eq!(done.stopped, None);
    // Stopped once 5,000 seeds are played, then resumed by the same job.
    let (played, stop) = (AtomicU64::new(0), AtomicBool::new(false));
    let progress = |n: u64| {
        if played.fetch_add(n, Ordering::SeqCst) + n >= 5_000 {
            stop.store(true, Ordering::SeqCst);
        }
    };
    let first = job("parts", false).prepare(&mut |_| {}).unwrap();
    let stopped = first.run(&progress, &stop).unwrap();
    assert_eq!(stopped.stopped, Some(Stop::Interrupted));
    assert!(stopped.summary.games() < 30_000);
    assert!(dir.path().join("parts.csv.resume").is_file());
    let mut notes = Vec::new();
    let rest = job("parts", true).prepare(&mut |n| notes.push(n)).unwrap();
    assert_eq!(rest.already_played(), stopped.summary.games());
    let done = rest.run(&|_| {}, &never).unwrap();
    assert_eq!((done.stopped, notes.len()), (None, 0));
    assert!(!dir.path().join("parts.csv.resume").exists());
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    assert!(read("whole.csv") == read("parts.csv"));
    assert!(read("whole.hist.csv") == read("parts.hist.csv"));
    assert_eq!(
        read("whole.csv").iter().filter(|&&b| b == b'\n').count(),
        30_001
    );
    let summary = |name: &str| read_summary(&dir.path().join(name));
    assert_eq!(summary("whole.json"), summary("parts.json"));
}

/// Chosen seeds (`Sweep::run_chosen`): each played as `Engine::play_seed` plays it, in the
/// order given, for any thread count; the seeds of a whole range, in order, summarize as the
/// range's sweep does; the summary reads back and merges with none.
#[test]
fn chosen_seeds_are_the_games_of_those_seeds() {
    let stop = AtomicBool::new(false);
    let mut compared = 0;
    for (preset, shuffle) in [
        (Preset::Classic, Shuffle::Lcg),
        (Preset::Oorlog, Shuffle::Splitmix),
        (Preset::Bataille, Shuffle::Lcg),
    ] {
        let rules = Rules::preset(preset);
        let chosen: Vec<u64> = (0..3000u64)
            .map(|i| (i * 7919) % 5003)
            .chain([17, 17])
            .collect();
        let sweep = Sweep::new(rules, shuffle, Seeds::new(0, 1).unwrap()).pacing(64, 512);
        let mut engine = Engine::new(rules);
        let mut first = None;
        for threads in [1, 3] {
            let mut rows = Vec::new();
            let swept = sweep
                .threads(threads)
                .cycles(true)
                .run_chosen(&chosen, Some(&mut rows), &|_| {}, &stop)
                .unwrap();
            assert_eq!(rows.len(), chosen.len());
            for (&seed, row) in chosen.iter().zip(&rows) {
                assert_eq!(
                    *row,
                    engine.play_seed(shuffle, seed).unwrap(),
                    "{preset} {seed}"
                );
                compared += 1;
            }
            let json = swept.summary.to_json();
            assert_eq!(untimed(&json)["chosen"], 3002, "{json}");
            let read: Summary = json.parse().unwrap();
            assert_eq!(read.games(), 3002);
            let min = *chosen.iter().min().unwrap();
            let max = *chosen.iter().max().unwrap();
            assert_eq!(read.seeds(), Seeds::new(min, u128::from(max) + 1).unwrap());
            let err = Summary::merge(&[read]).unwrap_err().to_string();
            assert!(err.contains("chosen seeds merges with no other"), "{err}");
            match &first {
                None => first = Some(untimed(&json)),
                Some(f) => assert_eq!(f, &untimed(&json), "{preset}: threads change it"),
            }
        }
        // A whole range, in order: the range's own summary, and a "chosen" count.
        let range: Vec<u64> = (100..900).collect();
        let chosen = sweep.run_chosen(&range, None, &|_| {}, &stop).unwrap();
        let whole = Sweep::new(rules, shuffle, Seeds::new(100, 900).unwrap())
            .run(None, &|_| {}, &stop)
            .unwrap();
        let mut chosen = untimed(&chosen.summary.to_json());
        assert_eq!(chosen["chosen"], 800);
        chosen.as_object_mut().unwrap().remove("chosen");
        assert_eq!(chosen, untimed(&whole.summary.to_json()), "{preset}");
    }
    assert_eq!(compared, 3 * 2 * 3002);
    let none = Sweep::new(
        Rules::preset(Preset::Classic),
        Shuffle::Lcg,
        Seeds::new(0, 1).unwrap(),
    );
    let err = none.run_chosen(&[], None, &|_| {}, &stop).unwrap_err();
    assert_eq!(err.to_string(), "no seed is chosen: give one or more");
    // A lex seed past the deck's deals is refused, as in a range.
    let lex = Settings::new(Preset::Bataille)
        .deck(Some(Deck::parse("4x4").unwrap()))
        .build()
        .unwrap();
    let past = Sweep::new(lex, Shuffle::Lex, Seeds::new(0, 1).unwrap());
    let err = past
        .run_chosen(&[3, 63_063_000], None, &|_| {}, &stop)
        .unwrap_err();
    assert!(err.to_string().contains("63063000"), "{err}");
}

/// A JSON summary without its timings.
pub(crate) fn untimed(json: &str) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(json).unwrap();
    let object = value.as_object_mut().unwrap();
    object.remove("elapsed_seconds");
    object.remove("games_per_second");
    value
}

pub(crate) fn read_summary(path: &Path) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    v["elapsed_seconds"] = 0.into();
    v["games_per_second"] = 0.into();
    v
}
