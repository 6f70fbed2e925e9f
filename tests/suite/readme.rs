//! The console examples of the README and of `docs/`, run as they are written: each
//! `$ warsweep ...` line of a ```console block is run from the repository's root and its stdout
//! compared with the lines below it. `[..]` in an expected line matches any text (timings), and a line `...` any number
//! of lines. Release builds only: one example walks 63,063,000 deals.
#![cfg(not(debug_assertions))]

use crate::common::grouped;
use std::path::PathBuf;

/// `(command, expected lines)` of every console block.
fn examples(readme: &str) -> Vec<(String, Vec<String>)> {
    let mut examples: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_console = false;
    for line in readme.lines() {
        if !in_console {
            in_console = line.trim_end() == "```console";
            continue;
        }
        if line.starts_with("```") {
            in_console = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            examples.push((command.to_string(), Vec::new()));
        } else if let Some((_, expected)) = examples.last_mut() {
            expected.push(line.to_string());
        }
    }
    examples
}

/// Whether `actual` matches `pattern`, where each `[..]` matches any text.
fn line_matches(pattern: &str, actual: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || !actual[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `actual` lines match `expected`, where a line `...` skips any number of lines.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            !actual.is_empty() && line_matches(first, actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every page of `docs/`, where the longer examples live.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

#[test]
fn the_readme_console_examples_print_what_it_shows() {
    let examples: Vec<(String, Vec<String>)> = pages()
        .iter()
        .flat_map(|page| examples(&std::fs::read_to_string(page).unwrap()))
        .collect();
    assert!(
        examples.len() >= 15,
        "only {} examples found",
        examples.len()
    );
    let bin = crate::common::binary();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for (command, expected) in &examples {
        let out = std::process::Command::new("bash")
            .args(["-c", command])
            .current_dir(root())
            .env("PATH", &path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let actual: Vec<&str> = stdout.lines().collect();
        if !out.status.success() || !lines_match(expected, &actual) {
            failures.push(format!(
                "$ {command}\n-- expected:\n{}\n-- got (exit {:?}):\n{stdout}{}",
                expected.join("\n"),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Fault: the committed picture was stale (its title lacked what the build writes), and the
/// README's recipe drew battles where the picture is rounds. The script the README names draws
/// it again here, byte for byte.
#[test]
fn the_readme_picture_is_what_its_recipe_draws() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains("scripts/presets-plot.sh") && readme.contains("(data/presets-rounds.svg)")
    );
    let dir = tempfile::tempdir().unwrap();
    let drawn = dir.path().join("presets-rounds.svg");
    let out = std::process::Command::new("bash")
        .arg(root().join("scripts/presets-plot.sh"))
        .arg(&drawn)
        .env("WARSWEEP", crate::common::binary())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let drawn = std::fs::read_to_string(drawn).unwrap();
    let committed = std::fs::read_to_string(root().join("data/presets-rounds.svg")).unwrap();
    assert!(
        drawn.contains("rounds per finished game: "),
        "not a chart of rounds"
    );
    assert_eq!(drawn.lines().count(), committed.lines().count());
    assert!(
        drawn == committed,
        "data/presets-rounds.svg is stale: run scripts/presets-plot.sh"
    );
}

#[test]
fn patterns_match_as_documented() {
    assert!(line_matches(
        "0.23 s, [..] games/s",
        "0.23 s, 1,234 games/s"
    ));
    assert!(!line_matches(
        "0.23 s, [..] games/s",
        "0.25 s, 1,234 games/s"
    ));
    assert!(line_matches(
        "[..] s, [..] games/s",
        "15.94 s, 3,957,199 games/s"
    ));
    assert!(!line_matches(
        "[..] s, [..] games/s",
        "15.94 s, 3,957,199 games"
    ));
    let lines = |v: &[&str]| {
        v.iter()
            .map(std::string::ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert!(lines_match(
        &lines(&["a", "...", "d"]),
        &["a", "b", "c", "d"]
    ));
    assert!(!lines_match(&lines(&["a", "...", "d"]), &["a", "b", "c"]));
    assert!(!lines_match(&lines(&["a", "b"]), &["a", "b", "c"]));
}

/// Fault: the documents contradicted each other or the repository: the README's resume example
/// wrote a CSV of every 4x5 deal (305 billion rows) without a word, the README and the Slurm
/// README gave different 4x5 costs, and Cargo.toml said MIT with no LICENSE file.
#[test]
fn the_documents_agree_with_each_other() {
    let read = |path: &str| std::fs::read_to_string(root().join(path)).unwrap();
    let (readme, slurm) = (read("README.md"), read("scripts/slurm/README.md"));
    let guide = read("docs/guide.md");
    // The cost of the full 4x5 walk, where each document states it.
    let cost = |text: &str| -> Vec<String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let found = words
            .windows(2)
            .filter(|w| w[1].starts_with("CPU-hours"))
            .map(|w| w[0].to_string())
            .collect::<Vec<_>>();
        assert!(!found.is_empty(), "no CPU-hours figure");
        found
    };
    let figures: Vec<String> = [cost(&readme), cost(&slurm), cost(&guide)].concat();
    // The README's plan, as measured (`docs/runs/2026-11-27-vm-24/three-bit-cards.md`).
    assert_eq!(
        figures[0], "7",
        "the README's 4x5 cost is not the measured one"
    );
    for figure in &figures {
        assert_eq!(
            figure, &figures[0],
            "the 4x5 walk's cost differs between the documents"
        );
    }
    assert!(figures.len() >= 3, "{figures:?}");
    // No command of a full 4x5 walk writes a CSV of every deal.
    let walks = readme
        .lines()
        .chain(slurm.lines())
        .chain(guide.lines())
        .filter(|l| {
            l.contains("--deck 4x5") && l.contains("--shuffle lex") && !l.contains("--seeds")
        });
    let mut commands = 0;
    for line in walks {
        assert!(!line.contains("--csv") && !line.contains("CSV=1"), "{line}");
        commands += 1;
    }
    assert!(commands >= 3, "{commands} walk commands found");
    let cargo = read("Cargo.toml");
    assert!(cargo.contains("license = \"MIT\""));
    assert!(read("LICENSE").starts_with("MIT License"));
}

/// The table of won-pile games of `docs/research.md` is what the sweeps it names give: each mean (rounds
/// and battles, from the summary's exact totals) with its standard error, and the shares of
/// wins, rounded as printed.
#[test]
fn the_won_pile_figures_are_what_the_sweeps_give() {
    let readme = std::fs::read_to_string(root().join("docs/research.md")).unwrap();
    let mut rows = 0;
    for preset in ["classic", "bataille"] {
        let prefix = format!("| `{preset}` | ");
        let row = readme
            .lines()
            .find(|l| l.starts_with(&prefix) && l.contains(" ± "))
            .unwrap_or_else(|| panic!("no won-pile row for {preset}"));
        let out = crate::common::warsweep()
            .args(["sweep", "--rules", preset, "--won-pile", "shuffled"])
            .args(["--shuffle", "splitmix", "--seeds", "0..1000000", "-q"])
            .args(["--summary", "-"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let n = s["games"].as_f64().unwrap();
        let stat = |metric: &str| {
            let m = &s[metric];
            let count = m["count"].as_f64().unwrap();
            let mean = m["total"].as_f64().unwrap() / count;
            let se = m["stdev"].as_f64().unwrap() / count.sqrt();
            format!("{mean:.2} ± {se:.2}")
        };
        let share = |p: usize| format!("{:.2}%", s["wins"][p].as_f64().unwrap() / n * 100.0);
        let expected = format!(
            "{prefix}{} | {} | {} | {} |",
            stat("rounds"),
            stat("battles"),
            share(0),
            share(1)
        );
        assert_eq!(row, expected);
        rows += 1;
    }
    assert_eq!(rows, 2);
}

/// The census tables of `docs/research.md` are `data/research/census.csv` and the larger shapes'
/// `census-large.csv`: each looping shape's cell (looping deals, distinct cycles, their
/// lengths) under each gather, the shapes that never loop, and the time each census took.
#[test]
fn the_census_table_is_the_committed_census() {
    let readme = std::fs::read_to_string(root().join("docs/research.md")).unwrap();
    let read = |name: &str| {
        let mut census = csv::Reader::from_path(root().join("data/research").join(name)).unwrap();
        let rows: Vec<csv::StringRecord> = census.records().map(Result::unwrap).collect();
        (census.headers().unwrap().clone(), rows)
    };
    let (headers, mut rows) = read("census.csv");
    let (large_headers, large) = read("census-large.csv");
    assert_eq!(headers, large_headers);
    let small = rows.len();
    rows.extend(large);
    let field = |r: &csv::StringRecord, name: &str| {
        let i = headers.iter().position(|h| h == name);
        r[i.unwrap_or_else(|| panic!("no column {name}"))].to_string()
    };
    let thousands = |n: &str| grouped(n.parse().unwrap());
    // Each shape's cells, natural then sorted, as the README writes them.
    let mut cells: Vec<(String, String, [String; 2])> = Vec::new();
    for r in &rows {
        let deck = field(r, "deck");
        let cell = if field(r, "infinite") == "0" {
            "none".to_string()
        } else {
            let lengths = field(r, "cycle_lengths");
            let lengths: Vec<&str> = lengths.split(' ').collect();
            let lengths = match lengths.len() {
                n if n > 4 => format!(
                    "{n} lengths from {} to {}",
                    thousands(lengths[0]),
                    thousands(lengths[n - 1])
                ),
                _ => lengths
                    .iter()
                    .map(|l| thousands(l))
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            let (loops, cycles) = (field(r, "infinite"), field(r, "distinct_cycles"));
            format!("{}, {}, {lengths}", thousands(&loops), thousands(&cycles))
        };
        let slot = usize::from(field(r, "gather") == "sorted");
        if cells.last().is_none_or(|c| c.0 != deck) {
            let deals = thousands(&field(r, "deals"));
            cells.push((deck, deals, [String::new(), String::new()]));
        }
        cells.last_mut().unwrap().2[slot] = cell;
    }
    let looping = |c: &&(String, String, [String; 2])| c.2.iter().any(|x| x != "none");
    let mut shown = Vec::new();
    // Every table of the census, the larger shapes' included.
    let mut table = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("| deck | deals | natural | sorted |") {
            table.extend(lines.by_ref().skip(1).take_while(|l| l.starts_with('|')));
        }
    }
    assert_eq!(table.len(), 10);
    for line in table {
        let columns: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        let decks: Vec<&str> = columns[0].split(", ").collect();
        let deals: Vec<&str> = columns[1].split(", ").collect();
        let natural: Vec<&str> = columns[2].split("; ").collect();
        let sorted: Vec<&str> = match columns[3] {
            "the same" => natural.clone(),
            other => other.split("; ").collect(),
        };
        assert!(
            [deals.len(), natural.len(), sorted.len()] == [decks.len(); 3],
            "{line}"
        );
        for (i, deck) in decks.iter().enumerate() {
            let c = cells.iter().find(|c| c.0 == *deck).expect(deck);
            assert_eq!(
                [deals[i], natural[i], sorted[i]],
                [&c.1, &c.2[0], &c.2[1]][..],
                "{deck}"
            );
            shown.push(deck.to_string());
        }
    }
    // Every looping shape once, in any order.
    shown.sort_by_key(|deck| cells.iter().position(|c| &c.0 == deck));
    let looping_shapes: Vec<&String> = cells.iter().filter(looping).map(|c| &c.0).collect();
    assert_eq!(shown.iter().collect::<Vec<_>>(), looping_shapes);
    // "No other shape loops: 1x2, ..., 2x1 to 2x6, ... (...)"
    let others = readme
        .split("No other shape loops: ")
        .nth(1)
        .expect("the shapes that never loop");
    let others = others[..others.find(" (").unwrap()].replace('\n', " ");
    let mut listed = Vec::new();
    for item in others.split(", ") {
        match item.split_once(" to ") {
            Some((from, to)) => {
                let (c, a) = from.split_once('x').unwrap();
                let (_, b) = to.split_once('x').unwrap();
                let (a, b): (u32, u32) = (a.parse().unwrap(), b.parse().unwrap());
                listed.extend((a..=b).map(|v| format!("{c}x{v}")));
            }
            None => listed.push(item.to_string()),
        }
    }
    // The larger shapes that never loop, each in a sentence of their own.
    let text = readme.replace('\n', " ");
    let small_shapes = small / 2;
    for c in cells[small_shapes..].iter().filter(|c| !looping(c)) {
        let claim = format!("No deal of {} loops under either gather", c.0);
        assert!(text.contains(&claim), "{claim}");
        listed.push(c.0.clone());
    }
    let never: Vec<&String> = cells.iter().filter(|c| !looping(c)).map(|c| &c.0).collect();
    assert_eq!(listed.iter().collect::<Vec<_>>(), never);
    assert_eq!(shown.len() + listed.len(), cells.len());
    assert_eq!(cells.len() * 2, rows.len());
    // "Its 38 shapes took 33 minutes", and the larger shapes' "took 68 minutes".
    let minutes = |rows: &[csv::StringRecord]| {
        let seconds: u64 = rows
            .iter()
            .map(|r| field(r, "seconds").parse::<u64>().unwrap())
            .sum();
        (seconds + 30) / 60
    };
    let claim = format!(
        "Its {small_shapes} shapes took {} minutes",
        minutes(&rows[..small])
    );
    assert!(text.contains(&claim), "{claim}");
    let claim = format!("took {} minutes on 2 cores here", minutes(&rows[small..]));
    assert!(text.contains(&claim), "{claim}");
}

/// `docs/research.md`'s paragraph on the 1x13 walk says what its committed summary holds: the
/// whole walk's setting, its outcomes, records, cycle lengths (from `merge --hist`) and time.
#[test]
fn the_1x13_paragraph_is_its_summary() {
    let text = std::fs::read_to_string(root().join("docs/research.md"))
        .unwrap()
        .replace('\n', " ");
    let path = root().join("data/research/1x13.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let number = |pointer: &str| {
        json.pointer(pointer)
            .and_then(serde_json::Value::as_u64)
            .expect(pointer)
    };
    let setting: Vec<&str> = ["rules", "deck", "gather", "shuffle"]
        .map(|key| json[key].as_str().expect(key))
        .to_vec();
    assert_eq!(setting, ["bataille", "1x13", "natural", "lex"]);
    let games = number("/games");
    assert_eq!((number("/seeds/start"), number("/seeds/end")), (0, games));
    assert_eq!((number("/draws"), number("/capped")), (0, 0));
    let infinite = number("/infinite");
    let hist = crate::common::warsweep()
        .args(["merge", path.to_str().unwrap(), "--hist", "-"])
        .output()
        .unwrap();
    assert!(hist.status.success());
    let lengths: Vec<(u64, u64)> = String::from_utf8(hist.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| line.strip_prefix("cycle_length,"))
        .map(|rest| {
            let (value, count) = rest.split_once(',').unwrap();
            (value.parse().unwrap(), count.parse().unwrap())
        })
        .collect();
    assert_eq!(lengths.len(), 3);
    assert_eq!(lengths.iter().map(|l| l.1).sum::<u64>(), infinite);
    let claims = [
        format!("**1x13** ({} deals;", grouped(games)),
        format!(
            "finds {} looping deals ({:.1}%)",
            grouped(infinite),
            infinite as f64 * 100.0 / games as f64
        ),
        format!(
            "on cycles of {}, {} and {} rounds ({}, {} and {} deals,",
            lengths[0].0,
            lengths[1].0,
            lengths[2].0,
            grouped(lengths[0].1),
            grouped(lengths[1].1),
            grouped(lengths[2].1)
        ),
        format!(
            "player 1 wins {} deals and player 2 {};",
            grouped(number("/wins/0")),
            grouped(number("/wins/1"))
        ),
        format!(
            "the longest finished game is {} rounds (lex seed {}),",
            number("/records/most_rounds/value"),
            grouped(number("/records/most_rounds/seed"))
        ),
        format!(
            "the latest cycle start round {}.",
            number("/records/latest_cycle_start/value")
        ),
        format!(
            "{} minutes on 2 cores here",
            (json["elapsed_seconds"].as_f64().unwrap() / 60.0).round()
        ),
    ];
    for claim in &claims {
        assert!(text.contains(claim.as_str()), "{claim}");
    }
}
