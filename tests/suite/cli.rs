//! The `warsweep` binary as a user runs it: examples, golden results, and every kind of bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::PathBuf;

fn warsweep() -> Command {
    Command::cargo_bin("warsweep").unwrap()
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/puzzles")
        .join(name)
}

fn golden(name: &str) -> PathBuf {
    crate::common::golden_dir().join(name)
}

/// Runs and expects success with exactly this stdout.
fn prints(args: &[&str], stdin: &str, expected: &str) {
    warsweep()
        .args(args)
        .write_stdin(stdin)
        .assert()
        .success()
        .stdout(expected.to_string());
}

/// Runs and expects failure: a usage error keeps clap's text and exits 2; any other failure is
/// one line on stderr containing `message` and exits 1. Nothing on stdout either way.
fn refuses(args: &[&str], stdin: &[u8], message: &str) {
    let out = warsweep()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(
        stderr.contains(message),
        "{args:?}: stderr {stderr:?} lacks {message:?}"
    );
    match out.status.code() {
        Some(2) => {
            assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
            assert!(
                stderr.contains("For more information, try '--help'."),
                "{args:?}: {stderr}"
            );
            let number_tip = (0..10).any(|d| stderr.contains(&format!("'-- -{d}")));
            assert!(!number_tip, "{args:?}: a misleading tip: {stderr}");
        }
        Some(1) => assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{args:?}: one line, got {stderr:?}"
        ),
        other => panic!("{args:?} exited with {other:?}: {stderr}"),
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn play_reads_the_codingame_format_from_a_file_or_stdin() {
    let example = std::fs::read_to_string(data("codingame-example.txt")).unwrap();
    prints(
        &["play", data("codingame-example.txt").to_str().unwrap()],
        "",
        "PAT\n",
    );
    prints(&["play"], &example, "PAT\n");
    prints(&["play", "-"], &example, "PAT\n");
    prints(
        &["play", data("codingame-win.txt").to_str().unwrap()],
        "",
        "1 3\n",
    );
    prints(
        &["play", data("codingame-war.txt").to_str().unwrap()],
        "",
        "1 1\n",
    );
    // Seed 004's 28-card walk-through counts battles ("turns").
    let walk = data("walkthrough-28.txt");
    prints(
        &["play", "--rules", "shortened", walk.to_str().unwrap()],
        "",
        "2 8\n",
    );
    prints(
        &[
            "play",
            "--rules",
            "oorlog",
            data("oorlog-three.txt").to_str().unwrap(),
        ],
        "",
        "2 3\n",
    );
}

#[test]
fn play_a_dealt_seed_under_each_preset() {
    prints(&["play", "--seed", "0"], "", "2 22\n");
    prints(&["play", "--seed", "1"], "", "INFINITE 1024 52\n");
    prints(&["play", "--seed", "3"], "", "PAT\n");
    prints(
        &["play", "--seed", "0", "--rules", "shortened"],
        "",
        "2 25\n",
    );
    prints(
        &[
            "play",
            "--seed",
            "3",
            "--rules",
            "shortened",
            "--shuffle",
            "splitmix",
        ],
        "",
        "INFINITE 224 52\n",
    );
    prints(&["play", "--seed", "0", "--rules", "oorlog"], "", "3 280\n");
    prints(
        &[
            "play",
            "--seed",
            "0",
            "--rules",
            "oorlog",
            "--players",
            "5",
            "--gather",
            "winner-first",
            "--shuffle",
            "splitmix",
        ],
        "",
        "3 66\n",
    );
    prints(
        &[
            "play",
            "--seed",
            "7",
            "--gather",
            "random",
            "--max-rounds",
            "10",
        ],
        "",
        "CAPPED 10\n",
    );
}

#[test]
fn trace_shows_every_battle_then_the_result() {
    let walk = data("walkthrough-28.txt");
    let out = warsweep()
        .args([
            "play",
            "--rules",
            "shortened",
            "--trace",
            walk.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "battle 3 (round 3): P1 JH  P2 JS\n  war, face down: P1 QS KD AS  P2 AD KS 10D\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("  tie: a tied player has only 3 cards: 2 face down each\n"),
        "{text}"
    );
    assert!(
        text.contains("  P2 takes 16 cards: 8S 8D AC QC 10H 9D JC KH QH QD 10S JD AH 9C 9H 10C\n"),
        "{text}"
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("battle ")).count(), 8);
    assert!(text.ends_with("2 8\n"));
    let seeded = warsweep()
        .args(["play", "--seed", "1", "--trace"])
        .output()
        .unwrap();
    let text = String::from_utf8(seeded.stdout).unwrap();
    assert!(text.starts_with("P1 (26 cards): "));
    assert!(text.ends_with("come back every 52 rounds: the game never ends\nINFINITE 1024 52\n"));
}

/// With won piles the trace shows each pile shuffled into a new hand, and the new hand's cards
/// are the next ones that player shows.
#[test]
fn the_trace_shows_won_piles_shuffled_in() {
    let args = [
        "play",
        "--rules",
        "classic",
        "--deck",
        "1x6",
        "--seed",
        "3",
        "--won-pile",
        "shuffled",
        "--trace",
    ];
    let out = warsweep().args(args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut shuffles = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("  P1 shuffles their won pile (") else {
            continue;
        };
        // `4 cards) into a new hand: AH JH QH 9H`: the next battles show them in order.
        let hand: Vec<&str> = rest.split(": ").nth(1).unwrap().split(' ').collect();
        let shown: Vec<&str> = lines[i..]
            .iter()
            .filter_map(|l| l.strip_prefix("battle "))
            .map(|l| l.split("P1 ").nth(1).unwrap().split(' ').next().unwrap())
            .take(hand.len())
            .collect();
        // (The game may end before the hand is played out.)
        assert_eq!(shown, hand[..shown.len()], "{text}");
        shuffles += 1;
    }
    assert!(shuffles >= 2, "{text}");
    assert!(text.ends_with("\n1 13\n"), "{text}");
    // The same game again: a game replays exactly.
    let again = warsweep().args(args).output().unwrap();
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

#[test]
fn answer_solves_the_seed_004_puzzle() {
    prints(
        &["answer"],
        "3\n8756942\n0\n4775558\n",
        "1 442 2 25 2 6923\n",
    );
    prints(
        &["answer", data("seed-004-example.txt").to_str().unwrap()],
        "",
        "1 442 2 25 2 6923\n",
    );
    // Infinite games and draws in the answer's own notation.
    prints(
        &["answer", "--rules", "codingame"],
        "3\n0\n1\n3\n",
        "2 22 0 inf 0 1418\n",
    );
}

#[test]
fn battle_resolves_the_seed_003_examples() {
    let cases = [
        ("[4, 8, 11]", "2"),
        ("[7, 1, 12]", "1"),
        ("[10, 10, 13]", "2"),
        ("[3, 1, 2]", "0"),
        ("[1, 1, 2]", "2"),
        ("[3, 12, 1]", "0"),
        ("[12, 12, 9, 4, 8]", "1"),
        ("[4, 4, 4, 8, 1, 2]", "2"),
        ("[11, 5, 11, 5, 5, 10, 13]", "2"),
        ("[1, 1, 1, 9, 7, 9, 11, 3]", "0"),
        ("[13, 13, 4, 1, 3]", "1"),
        ("[13, 4, 13, 2, 3]", "2"),
    ];
    for (cards, winner) in cases {
        prints(&["battle", cards], "", &format!("{winner}\n"));
        let one_based = winner.parse::<usize>().unwrap() + 1;
        prints(
            &["battle", "--one-based", cards],
            "",
            &format!("{one_based}\n"),
        );
    }
    prints(&["battle", "4", "8", "11"], "", "2\n");
    prints(&["battle"], "4,8,11\n", "2\n");
    prints(&["battle", "--players", "2", "1,3"], "", "1\n");
}

/// A sample of every golden file through `play --seed`: the line must match the CSV row.
#[test]
fn play_agrees_with_the_golden_files() {
    let settings: [(&str, &[&str]); 4] = [
        ("codingame.lcg.csv", &["--rules", "codingame"]),
        (
            "shortened.splitmix.csv",
            &["--rules", "shortened", "--shuffle", "splitmix"],
        ),
        (
            "classic.p1-first.lcg.csv",
            &["--rules", "classic", "--gather", "p1-first"],
        ),
        (
            "oorlog.3p.lcg.csv",
            &["--rules", "oorlog", "--players", "3"],
        ),
    ];
    for (file, flags) in settings {
        let text = std::fs::read_to_string(golden(file)).unwrap();
        for row in text.lines().skip(1).step_by(17) {
            let f: Vec<&str> = row.split(',').collect();
            let count = if flags[1] == "shortened" { f[4] } else { f[3] };
            let expected = match f[1] {
                "win" => format!("{} {count}\n", f[2]),
                "draw" => "PAT\n".to_string(),
                _ => format!("INFINITE {} {}\n", f[6], f[7]),
            };
            let mut args = vec!["play", "--seed", f[0]];
            args.extend_from_slice(flags);
            prints(&args, "", &expected);
        }
    }
}

#[test]
fn bad_hands_are_refused_with_the_line_at_fault() {
    refuses(
        &["play"],
        b"2\nAH\nXQ\n1\nKS\n",
        "line 3: \"XQ\" is not a card",
    );
    refuses(
        &["play"],
        b"3\nAH\nKD\n1\nKS\n",
        "player 1's count on line 1 says 3 cards but only 2 come before it",
    );
    refuses(
        &["play"],
        b"1\nAH\nKD\n1\nKS\n",
        "where player 2's card count should be",
    );
    refuses(
        &["play"],
        b"2\nAH\nKD\n4\nKS\n",
        "player 2: the count on line 4 says 4 cards but the input ends after 1",
    );
    refuses(
        &["play"],
        b"0\nKS\n1\nKS\n",
        "line 1: player 1 has an empty deck (count 0)",
    );
    // Hands of bare values: a value outside the deck, a line that is not a hand.
    refuses(
        &["play", "--rules", "bataille", "--deck", "4x4"],
        b"1,3,2,5\n4,4,3,4\n",
        "line 1: \"5\" is not a value of the 4x4 deck (1 to 4)",
    );
    refuses(
        &["play", "--rules", "bataille", "--deck", "4x4"],
        b"1,3,2,2\n4,4,x,4\n",
        "line 2 is not a hand of bare values",
    );
    refuses(
        &["play", "--deck", "4x8"],
        b"1\n6H\n1\nAS\n",
        "\"6H\" is not in the 4x8 deck (its lowest rank is 7)",
    );
    refuses(&["play"], b"", "the input is empty");
    refuses(&["play"], b"\x00\xff\xfe\x01", "the input is not text");
    refuses(
        &["play"],
        b"two\nAH\n",
        "line 1 is not a hand of bare values (as 1,3,2,2 or [1, 3, 2, 2]): \"two\"",
    );
    refuses(&["play", "/no/such/file"], b"", "cannot read /no/such/file");
    // Hands past what a game is played with: refused as read, in one sentence, past MAX_CARDS.
    let most = warsweep::MAX_CARDS;
    let hand = |value: &str, n: usize| vec![value; n].join(" ");
    let past = format!("{}\n{}\n", hand("1", most), hand("2", 1));
    refuses(
        &["play", "--rules", "bataille", "--deck", "1x2"],
        past.as_bytes(),
        "line 2: the hands hold more than 65,536 cards",
    );
    let counted = format!("{}\nAH\n1\nKS\n", most + 1);
    refuses(
        &["play"],
        counted.as_bytes(),
        "line 1: the hands hold more than",
    );
    let at_most = format!("{}\n{}\n", hand("1", most / 2), hand("2", most / 2));
    prints(
        &["play", "--rules", "bataille", "--deck", "1x2"],
        &at_most,
        &format!("2 {}\n", most / 2),
    );
}

#[test]
fn bad_settings_are_refused() {
    refuses(
        &["play", "--rules", "poker", "--seed", "1"],
        b"",
        "invalid value 'poker' for '--rules",
    );
    refuses(
        &["play", "--gather", "sideways", "--seed", "1"],
        b"",
        "invalid value 'sideways' for '--gather",
    );
    refuses(
        &["play", "--seed", "1", "--players", "3"],
        b"",
        "the draw short-war policy is for 2 players, not 3",
    );
    refuses(
        &[
            "play",
            "--seed",
            "1",
            "--rules",
            "oorlog",
            "--players",
            "13",
        ],
        b"",
        "a game has 2 to 12 players, not 13",
    );
    refuses(
        &["play", "--seed", "1", "--rules", "oorlog", "--players", "1"],
        b"",
        "a game has 2 to 12 players, not 1",
    );
    let three = std::fs::read(data("oorlog-three.txt")).unwrap();
    refuses(
        &["play", "--deck", "8x13+4"],
        &three,
        "stdin holds 3 hands: --short-war: the draw short-war policy is for 2 players, not 3",
    );
    refuses(
        &["play"],
        &three,
        "line 6: \"JK\": the 4x13 deck has no jokers",
    );
    refuses(
        &["play", "--rules", "oorlog", "--players", "4"],
        &three,
        "stdin holds 3 hands but --players says 4",
    );
    refuses(&["play", "--seed", "-3"], b"", "--seed");
    refuses(&["play", "--seed", "18446744073709551616"], b"", "--seed");
    refuses(
        &["play", "--seed", "1", "--max-rounds", "0"],
        b"",
        "--max-rounds",
    );
    refuses(
        &["play", "--seed", "1", "x.txt"],
        b"",
        "give either a file of hands or --seed, not both",
    );
    refuses(
        &["play", "--frobnicate"],
        b"",
        "unexpected argument '--frobnicate'",
    );
    refuses(&["shuffle"], b"", "unrecognized subcommand 'shuffle'");
    // Decks and knobs.
    for (deck, message) in [
        ("4", "\"4\" is not a deck: write CxV or CxV+J"),
        ("9x4", "a deck has 1 to 8 copies of each value, not 9"),
        ("4x65", "a deck has 1 to 64 values, not 65"),
        ("4x4+99", "a deck has at most 64 jokers, not 99"),
        ("1x1", "deck 1x1 has 1 card: a game needs at least 2"),
    ] {
        refuses(&["play", "--seed", "1", "--deck", deck], b"", message);
    }
    refuses(
        &["play", "--seed", "1", "--face-down", "9"],
        b"",
        "a war puts 0 to 8 cards face down, not 9",
    );
    refuses(
        &["play", "--seed", "1", "--short-war", "sometimes"],
        b"",
        "invalid value 'sometimes' for '--short-war",
    );
    refuses(
        &[
            "play",
            "--seed",
            "1",
            "--rules",
            "oorlog",
            "--deck",
            "1x3",
            "--players",
            "4",
        ],
        b"",
        "the 1x3 deck has 3 cards: 4 players would leave someone without a card",
    );
    refuses(
        &[
            "play",
            "--seed",
            "63063000",
            "--rules",
            "bataille",
            "--deck",
            "4x4",
            "--shuffle",
            "lex",
        ],
        b"",
        "lex seed 63063000 is past the 4x4 deck's 63063000 distinct deals",
    );
    refuses(
        &["play", "--seed", "0", "--shuffle", "lex"],
        b"",
        "the 4x13 deck has about 9.20e49 distinct deals, more than 2^64 seeds can number",
    );
}

#[test]
fn bad_seed_lists_are_refused() {
    refuses(
        &["answer"],
        b"3\n1\n2\n",
        "line 1 says 3 seeds but the input has 2",
    );
    refuses(
        &["answer"],
        b"1\n1\n2\n",
        "line 1 says 1 seed but the input has 2",
    );
    refuses(&["answer"], b"2\n1\nx\n", "line 3: \"x\" is not a seed");
    refuses(
        &["answer"],
        b"many\n1\n",
        "line 1: expected the number of seeds",
    );
    refuses(&["answer"], b"", "the input is empty");
}

#[test]
fn bad_battles_are_refused() {
    refuses(
        &["battle", "[11, 5, 11, 5, 5]"],
        b"",
        "players 1 and 3 still at war after 5 cards; give 2 more",
    );
    refuses(
        &["battle", "[4, 8]"],
        b"",
        "players 1, 2 and 3 still at war after 2 cards; give 1 more",
    );
    refuses(
        &["battle", "[4, 14, 11]"],
        b"",
        "\"14\" is not a card value",
    );
    refuses(&["battle", "[0, 4, 11]"], b"", "\"0\" is not a card value");
    refuses(
        &["battle", "[4, 8, 11, 3]"],
        b"",
        "player 3 wins with card 3, but 1 more values follow",
    );
    refuses(
        &["battle", "--players", "13", "1"],
        b"",
        "a battle needs 2 to 12 players, not 13",
    );
    refuses(&["battle"], b"", "the input is empty");
}

#[test]
fn help_explains_presets_and_formats() {
    for cmd in ["play", "answer", "battle"] {
        warsweep()
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Usage:"));
    }
    warsweep()
        .args(["play", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("oorlog     2 to 12 players"))
        .stdout(predicate::str::contains("CodinGame format"));
}

/// The habits of ripgrep, hyperfine and friends: help for a bare call, a version with its git
/// revision, completions and a man page, short flags, plain messages for negative numbers.
#[test]
fn command_line_conventions() {
    let out = warsweep().output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("Usage: warsweep") && help.contains("sweep"),
        "{help}"
    );
    warsweep().arg("--version").assert().success().stdout(
        predicate::str::is_match(
            r"^warsweep \d+\.\d+\.\d+ \(git ([0-9a-f]{12}|unknown)\), (GPU support built in \(--device gpu\)|no GPU support \(build with --features gpu\))\n$",
        )
        .unwrap(),
    );
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        warsweep()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains("warsweep"))
            .stdout(predicate::str::contains("resume"));
    }
    warsweep()
        .arg("man")
        .assert()
        .success()
        .stdout(predicate::str::starts_with(".ie").or(predicate::str::contains(".TH warsweep")));
    warsweep()
        .args(["play", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("codingame preset unless --rules"));
    warsweep()
        .args(["sweep", "-j", "1", "-q", "--seeds", "0..10"])
        .assert()
        .success()
        .stdout("");
    for args in [
        &["play", "--seed", "-1"][..],
        &["battle", "--players", "-3", "1", "2"],
        &["sweep", "--max-rounds", "-5"],
    ] {
        refuses(args, b"", "is negative: give a whole number, 0 or more");
    }
    refuses(
        &["sweep", "-j", "-2"],
        b"",
        "-2 is not a thread count: give 1 to 1024",
    );
    refuses(
        &["sweep", "--frobnicate"],
        b"",
        "unexpected argument '--frobnicate'",
    );
}

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
}

/// Fault: flags that did nothing, silently. `--every-deal` on an lcg sweep; `--cycles` with
/// the random gather (a header and no row: its games are never found infinite); `--ranking
/// oorlog` on a deck without a 3 or an ace (the standard ranking's games). The first and last
/// play as before, with one note saying so; the table of cycles is refused.
#[test]
fn flags_that_would_do_nothing_are_refused_or_noted() {
    let stderr_of = |args: &[&str]| {
        let out = warsweep().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        // Notes only: with the CSV on stdout the table goes to stderr.
        let stderr = String::from_utf8(out.stderr).unwrap();
        let notes: String = stderr
            .lines()
            .filter(|l| l.starts_with("warsweep: "))
            .map(|l| format!("{l}\n"))
            .collect();
        (String::from_utf8(out.stdout).unwrap(), notes)
    };
    let csv = ["sweep", "--seeds", "0..50", "--csv", "-", "-j", "1"];
    let (plain, _) = stderr_of(&csv);
    let (every, note) = stderr_of(&[&csv[..], &["--every-deal"]].concat());
    assert_eq!(plain, every);
    assert_eq!(
        note,
        "warsweep: note: --every-deal changes only lex walks of a symmetric setting, which \
         otherwise play one deal of each mirror pair: this sweep plays every seed of its range \
         anyway\n"
    );
    // Where it does something, no note.
    let lex = [
        "--rules",
        "bataille",
        "--deck",
        "4x4",
        "--shuffle",
        "lex",
        "--seeds",
        "0..50",
    ];
    let (_, quiet) = stderr_of(&[&["sweep", "-q"][..], &lex, &["--every-deal"]].concat());
    assert_eq!(quiet, "");
    let (_, note) =
        stderr_of(&[&["sweep"][..], &lex[..4], &["--ranking", "oorlog", "-q"]].concat());
    assert_eq!(note, "");
    let oorlog = "warsweep: note: the oorlog ranking lets 2 and 3 beat the ace, and the 4x4 deck \
                  has no 3 or no ace: its games are the standard ranking's\n";
    let standard = [&["sweep"][..], &lex, &["--csv", "-"]].concat();
    let (rows, _) = stderr_of(&standard);
    let (oorlog_rows, note) = stderr_of(&[&standard[..], &["--ranking", "oorlog"]].concat());
    assert_eq!((rows, note.as_str()), (oorlog_rows, oorlog));
    let (_, note) = stderr_of(&[
        "play",
        "--seed",
        "3",
        "--rules",
        "bataille",
        "--deck",
        "4x4",
        "--ranking",
        "oorlog",
    ]);
    assert_eq!(note, oorlog);
    // On a deck with 3s and aces the ranking is live: no note.
    let (_, note) = stderr_of(&["play", "--seed", "3", "--ranking", "oorlog"]);
    assert_eq!(note, "");
    let dir = tempfile::tempdir().unwrap();
    let cycles = dir.path().join("cycles.csv");
    refuses(
        &[
            "sweep",
            "--seeds",
            "0..50",
            "--gather",
            "random",
            "--cycles",
            cycles.to_str().unwrap(),
        ],
        b"",
        "a table of cycles needs games whose cycles are found",
    );
    assert!(!cycles.exists());
    refuses(
        &[
            "sweep",
            "--seeds",
            "0..50",
            "--won-pile",
            "shuffled",
            "--cycles",
            "-",
        ],
        b"",
        "games under the random gather or with shuffled won piles are not checked for cycles",
    );
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

/// Fault: help and man pages. "Presets (RULES.md)" named a file the repository does not have;
/// `merge --help` said `--cycles` finds cycles (it merges them); `completions --help` sent to the
/// README, which did not say where to put the script; the man pages had no EXIT STATUS,
/// SIGNALS or FILES; `sweep --help` did not show that `--rules` defaults to `shortened`.
#[test]
fn help_and_man_pages_say_what_is_true() {
    let help = |args: &[&str]| {
        let out = warsweep().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    assert!(root.join("docs/rules.md").exists());
    let mut checked = 0;
    for (command, default) in [
        ("play", "codingame"),
        ("answer", "shortened"),
        ("sweep", "shortened"),
    ] {
        let text = help(&[command, "--help"]);
        assert!(
            text.contains("Presets (docs/rules.md):") && !text.contains("RULES.md"),
            "{command}"
        );
        assert!(
            text.contains(&format!("Rule preset [default: {default}]")),
            "{command}: {text}"
        );
        checked += 1;
    }
    let merge = help(&["merge", "--help"]);
    assert!(
        merge.contains("Write the distinct cycles the summaries list, merged"),
        "{merge}"
    );
    assert!(!merge.contains("Find every distinct cycle"));
    let sweep = help(&["sweep", "--help"]);
    assert!(sweep.contains("Find every distinct cycle and its basin"));
    let completions = help(&["completions", "--help"]);
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap()
        + &std::fs::read_to_string(root.join("docs/guide.md")).unwrap();
    for place in [
        "~/.local/share/bash-completion/completions/warsweep",
        "~/.config/fish/completions/warsweep.fish",
        "~/.zfunc/_warsweep",
    ] {
        assert!(
            completions.contains(place) && readme.contains(place),
            "{place}"
        );
        checked += 1;
    }
    let dir = tempfile::tempdir().unwrap();
    warsweep()
        .args(["man", "--out-dir"])
        .arg(dir.path())
        .assert()
        .success();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let page = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        assert!(page.contains("\n.SH EXIT STATUS\n"), "{name}");
        assert!(!page.contains("RULES.md"), "{name}");
        let sweeps = name == "warsweep" || name == "warsweep-sweep";
        let stops = sweeps || name == "warsweep-hunt";
        assert_eq!(page.contains("\n.SH SIGNALS\n"), stops, "{name}");
        assert_eq!(page.contains("\n.SH FILES\n"), sweeps, "{name}");
        if sweeps {
            assert!(
                page.contains(".resume") && page.contains(".partial"),
                "{name}"
            );
        }
        checked += 1;
    }
    // warsweep's page and one a command: play, answer, battle, sweep, hunt, merge, plot,
    // completions, man.
    assert_eq!(checked, 3 + 3 + 10);
}

/// Fault: exit codes disagreed with the README's table. `--face-down 99` and `--players 13`
/// exited 1 while `--threads 0` and `--max-rounds 0` exited 2; `--seeds -5..10` met clap's
/// "unexpected argument '-5'" and `--seeds=-5..10` another sentence. A flag's value that is
/// wrong on its own is a usage error (2, clap's text); flags fine alone but not together exit 1.
#[test]
fn values_out_of_range_are_usage_errors_as_the_readme_says() {
    let usage = |args: &[&str], message: &str| {
        let out = warsweep().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(message),
            "{args:?}: {stderr:?} lacks {message:?}"
        );
        assert!(
            stderr.ends_with("For more information, try '--help'.\n"),
            "{stderr}"
        );
        stderr.lines().next().unwrap().to_string()
    };
    let mut checked = 0;
    for (args, message) in [
        (
            &["sweep", "--face-down", "99"][..],
            "a war puts 0 to 8 cards face down, not 99",
        ),
        (
            &["sweep", "--players", "13"],
            "a game has 2 to 12 players, not 13",
        ),
        (
            &["sweep", "--players", "-3"],
            "-3 is negative: give a whole number, 0 or more",
        ),
        (
            &["play", "--seed", "1", "--players", "0"],
            "a game has 2 to 12 players, not 0",
        ),
        (
            &["sweep", "--threads", "0"],
            "0 is not a thread count: give 1 to 1024",
        ),
        (
            &["sweep", "--max-rounds", "0"],
            "a game stops after 1 round or more, not 0",
        ),
        (&["sweep", "--shard", "0/0"], "\"0/0\" is not a shard"),
        (
            &["hunt", "--shard", "5/5"],
            "shard 5/5 does not exist: K counts from 0 to N - 1",
        ),
        (
            &["sweep", "--window", "18446744073709551615"],
            "is not a number of seeds: give 1 to 16777216",
        ),
        (
            &["sweep", "--chunk", "0"],
            "0 is not a number of seeds: give 1 to 16777216",
        ),
        (
            &["sweep", "--deck", "9x13"],
            "a deck has 1 to 8 copies of each value, not 9",
        ),
        (
            &["sweep", "--seeds", "10..5"],
            "the seed range 10..5 is reversed",
        ),
        (&["sweep", "--seeds", "five..10"], "is not a seed range"),
        (
            &["sweep", "--seeds", "5..5"],
            "the seed range 5..5 is empty",
        ),
        (
            &["sweep", "--seeds", "0..99999999999999999999"],
            "is not a seed: seeds are whole numbers from 0 to 18446744073709551615",
        ),
    ] {
        usage(args, message);
        checked += 1;
    }
    // Both spellings of a negative seed say the same.
    let spaced = usage(&["sweep", "--seeds", "-5..10"], "seeds are 0 or more");
    let joined = usage(&["sweep", "--seeds=-5..10"], "seeds are 0 or more");
    assert_eq!(spaced, joined);
    usage(
        &["sweep", "--seeds", "0..-5"],
        "\"0..-5\" is not a seed range: seeds are 0 or more",
    );
    checked += 3;
    // Flags each fine alone, refused together: exit 1, one line.
    for (args, message) in [
        (
            &["sweep", "--players", "3", "--short-war", "draw"][..],
            "is for 2 players, not 3",
        ),
        (
            &[
                "sweep",
                "--deck",
                "1x3",
                "--players",
                "4",
                "--short-war",
                "most-cards",
            ],
            "4 players would leave someone",
        ),
        (
            &[
                "sweep",
                "--deck",
                "1x3",
                "--shuffle",
                "lex",
                "--seeds",
                "0..7",
            ],
            "past the 1x3 deck's 6",
        ),
    ] {
        refuses(args, b"", message);
        checked += 1;
    }
    assert_eq!(checked, 21);
}

/// Fault (a regression): CodinGame's own inputs repeat cards (one holds `KD`, `AH`, `QH` and
/// `2D` twice), and `play` refused them as hands no deck could deal. They are played as given,
/// and a note on stderr names what the deck does not hold. The expected results come from a
/// plain solver of the puzzle's statement (`2 2282`) and from the oracle's rules (the engine
/// plays such hands as the oracle does: `oracle::hands_beyond_the_decks_copies_...`).
#[test]
fn codingame_inputs_with_repeated_cards_play() {
    let plays = |args: &[&str], stdin: &str, stdout: &str, note: &str| {
        let out = warsweep().args(args).write_stdin(stdin).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), stdout, "{args:?}");
        let expected = if note.is_empty() {
            String::new()
        } else {
            format!("warsweep: note: {note}: they are played as given\n")
        };
        assert_eq!(stderr, expected, "{args:?}");
    };
    let file = data("codingame-repeated.txt");
    plays(
        &["play", file.to_str().unwrap()],
        "",
        "2 2282\n",
        "the hands hold 2D, QH, KD and AH twice, but the 4x13 deck has each once",
    );
    let bataille = ["play", "--rules", "bataille", "--deck", "4x4"];
    plays(
        &bataille,
        "1,1,1,1,1\n2,2,2\n",
        "2 4\n",
        "the hands hold 5 cards of value 1, but the 4x4 deck has 4",
    );
    plays(
        &["play"],
        "2\nAH\nAH\n1\nKS\n",
        "1 1\n",
        "the hands hold AH twice, but the 4x13 deck has it once",
    );
    plays(
        &["play", "--deck", "4x13+1"],
        "3\nJK\nJK\nAH\n1\nKS\n",
        "1 1\n",
        "the hands hold JK twice, but the 4x13+1 deck has it once",
    );
    plays(
        &["play", "--deck", "1x13"],
        "1\nAS\n1\nKH\n",
        "1 1\n",
        "AS is not a card of the 1x13 deck",
    );
    // Hands of 999 cards each, the puzzle's largest (N, M < 1000): 1,998 cards of one deck.
    let hand = |card: &str| format!("999\n{}", format!("{card}\n").repeat(999));
    plays(
        &["play"],
        &format!("{}{}", hand("AH"), hand("KS")),
        "1 999\n",
        "the hands hold KS and AH 999 times, but the 4x13 deck has each once",
    );
    // As many as the deck holds plays without a note: two AH from the oorlog deck, a value's
    // every card.
    plays(
        &["play", "--rules", "oorlog", "--players", "2"],
        "2\nAH\nAH\n1\nKS\n",
        "1 1\n",
        "",
    );
    plays(&bataille, "1,1,1,1\n2,2,2,2\n", "2 4\n", "");
}

/// Fault: messages that misled. Numbers past 2^64 said "is not a whole number"; `--threads -1`
/// suggested "0 or more" and `--threads 0` was then refused with another exit code; counts of
/// one read "1 hands"; `11H` in the CodinGame format was "not a hand of bare values"; a
/// byte-order mark made the first value unreadable; an unwritable summary was reported as an
/// unreadable checkpoint.
#[test]
fn messages_say_what_is_wrong() {
    refuses(
        &["play", "--seed", "99999999999999999999"],
        b"",
        "99999999999999999999 is too large: the largest is 18446744073709551615",
    );
    for n in ["-1", "0", "1025"] {
        refuses(
            &["sweep", "--threads", n],
            b"",
            &format!("{n} is not a thread count: give 1 to 1024"),
        );
    }
    refuses(
        &["play", "--players", "3", "--rules", "oorlog"],
        b"1,2\n",
        "stdin holds 1 hand but --players says 3",
    );
    refuses(
        &["play"],
        b"1\nAH\nKD\n1\nKS\n",
        "player 1 was given 1 card but has more",
    );
    refuses(
        &["play"],
        b"2\n11H\n2H\n1\nKS\n",
        "line 2: \"11H\" is not a card",
    );
    prints(
        &["play", "--rules", "bataille", "--deck", "4x4"],
        "\u{feff}1,3,2,2,1,2,1,4\n4,4,3,4,1,2,3,3\n",
        "1 144\n",
    );
    prints(&["answer"], "\u{feff}1\n0\n", "2 25\n");
    // The cyclic ranking needs two values; a misspelt ranking is a usage error.
    refuses(
        &[
            "sweep",
            "--rules",
            "bataille",
            "--deck",
            "3x1",
            "--ranking",
            "cyclic",
        ],
        b"",
        "the cyclic ranking needs two values or more, and the 3x1 deck has one",
    );
    refuses(
        &["sweep", "--ranking", "cyclical"],
        b"",
        "invalid value 'cyclical' for '--ranking",
    );
    // The literature's rules, misspelt: usage errors that name the flag and the value.
    refuses(
        &["sweep", "--won-pile", "shufled"],
        b"",
        "invalid value 'shufled' for '--won-pile",
    );
    refuses(
        &["play", "--won-pile", "reshuffled"],
        b"",
        "invalid value 'reshuffled' for '--won-pile",
    );
    refuses(
        &["sweep", "--gather", "loser-firts"],
        b"",
        "invalid value 'loser-firts' for '--gather",
    );
    refuses(
        &["sweep", "--gather", "pairfirst"],
        b"",
        "invalid value 'pairfirst' for '--gather",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let summary = file.join("s.json").display().to_string();
    refuses(
        &["sweep", "--seeds", "0..10", "--summary", &summary],
        b"",
        &format!("cannot write the summary to {summary}: Not a directory"),
    );
}

/// Fault: the man page referred to warsweep-sweep(1) pages that were never generated, listed no
/// command's flags, and reflowed the presets table. Every page it names is written, each
/// command's page lists its flags, and the table keeps its lines.
#[test]
fn man_pages_exist_for_every_command_they_name() {
    let dir = tempfile::tempdir().unwrap();
    warsweep()
        .args(["man", "--out-dir"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout("");
    let main = std::fs::read_to_string(dir.path().join("warsweep.1")).unwrap();
    let mut named = 0;
    for line in main.lines() {
        if let Some(page) = line.strip_suffix("(1)") {
            let file = dir.path().join(format!("{}.1", page.replace("\\-", "-")));
            assert!(file.is_file(), "{line} names a page that was not written");
            named += 1;
        }
    }
    assert_eq!(named, 9, "{main}");
    let sweep = std::fs::read_to_string(dir.path().join("warsweep-sweep.1")).unwrap();
    for flag in ["\\-\\-resume", "\\-\\-shard", "\\-\\-csv", "\\-\\-gather"] {
        assert!(sweep.contains(flag), "warsweep-sweep.1 lacks {flag}");
    }
    // The presets table in no-fill mode, line for line.
    let table = main
        .split(".SH PRESETS\n.nf\n")
        .nth(1)
        .expect("a presets section");
    assert!(table.contains("\n  codingame  2 players,"), "{table}");
    assert!(table.contains("\n.fi\n"));
    // One page printed, and the same page as written.
    let out = warsweep().args(["man", "sweep"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), sweep);
    refuses(&["man", "nope"], b"", "\"nope\" is not a warsweep command");
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

/// What `--device gpu` cannot play is refused in one sentence before any game, naming what
/// (the deck and its cards, the players, the gather, the seeds), every reason at once; no file
/// is left, and an output file already there is left whole. A build without the `gpu` feature
/// says so first, and how to build one.
#[test]
fn gpu_sweeps_it_cannot_play_are_refused() {
    let walk = "sweep --rules bataille --deck 4x4 --shuffle lex --device gpu --seeds 0..100";
    let with = |extra: &str| format!("{walk} {extra}");
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let csv = dir.path().join("games.csv");
    std::fs::write(&csv, "kept\n").unwrap();
    let to_csv = with(&format!("--csv {}", path("games.csv")));
    let new_files = with(&format!(
        "--csv {} --summary {} --hist {}",
        path("new.csv"),
        path("s.json"),
        path("h.csv")
    ));
    let cases = [
        (
            to_csv,
            "the GPU keeps no per-game rows (drop --csv, or sweep on the CPU)",
        ),
        (new_files, "the GPU keeps no per-game rows"),
        (
            "sweep --rules classic --seeds 0..100 --device gpu".to_string(),
            "the 4x13 deck has 52 cards of 13 values",
        ),
        (
            "sweep --rules oorlog --seeds 0..100 --device gpu".to_string(),
            "the GPU plays two players, not 3",
        ),
        (
            with("--gather random"),
            "the random gather's games are not checked for cycles",
        ),
        (
            "sweep --rules bataille --deck 4x4 --shuffle splitmix --device gpu \
             --seeds 9007199254740992..9007199254740999"
                .to_string(),
            "the GPU plays seeds below 2^53",
        ),
    ];
    for (args, message) in &cases {
        refuses(&args.split_whitespace().collect::<Vec<_>>(), b"", message);
    }
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "kept\n");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "files left by refused sweeps: {left:?}");
    if !cfg!(feature = "gpu") {
        // First of all, before the rows and the deck; and before a range the deck cannot deal.
        let said = "the GPU cannot play this sweep: this warsweep is built without GPU support \
                    (build it with `cargo build --release --features gpu`); the GPU keeps no";
        let args = format!(
            "sweep --rules classic --device gpu --seeds 0..10 --csv {}",
            path("x")
        );
        refuses(&args.split_whitespace().collect::<Vec<_>>(), b"", said);
        let args = "sweep --rules bataille --deck 2x2 --shuffle lex --seeds 0..99 --device gpu";
        let said = "this warsweep is built without GPU support";
        refuses(&args.split_whitespace().collect::<Vec<_>>(), b"", said);
    }
}
