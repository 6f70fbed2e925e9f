//! The `warsweep` binary as a user runs it: examples, golden results, help and man pages (bad
//! input: `refusals.rs`; plots and merges: `plots.rs`).

use crate::common::warsweep;
use predicates::prelude::*;
use std::path::PathBuf;

pub(crate) fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/puzzles")
        .join(name)
}

pub(crate) fn golden(name: &str) -> PathBuf {
    crate::common::golden_dir().join(name)
}

/// Runs and expects success with exactly this stdout.
pub(crate) fn prints(args: &[&str], stdin: &str, expected: &str) {
    warsweep()
        .args(args)
        .write_stdin(stdin)
        .assert()
        .success()
        .stdout(expected.to_string());
}

/// Runs and expects failure: a usage error keeps clap's text and exits 2; any other failure is
/// one line on stderr containing `message` and exits 1. Nothing on stdout either way.
pub(crate) fn refuses(args: &[&str], stdin: &[u8], message: &str) {
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
    // The ranges `shapes --help` gives a war's chain and a word's wars are the library's.
    let chain = format!("(1 to {})", ::warsweep::shapes::MOST_CHAIN);
    let wars = format!("0, or 1 to {} (", ::warsweep::shapes::MOST_WARS);
    warsweep()
        .args(["shapes", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains(chain))
        .stdout(predicate::str::contains(wars));
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
    // warsweep's page and one a command: play, answer, battle, sweep, hunt, shapes, merge,
    // plot, completions, man.
    assert_eq!(checked, 3 + 3 + 11);
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
    assert_eq!(named, 10, "{main}");
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

/// A seed past the lcg shuffle's distinct deals deals what a smaller one deals: `play` says so,
/// as `sweep` does, and plays that deal.
#[test]
fn play_notes_an_lcg_seed_that_repeats_a_deal() {
    let play = |seed: &str| warsweep().args(["play", "--seed", seed]).output().unwrap();
    let (past, repeated) = (play("3000000"), play("902849"));
    let note = String::from_utf8_lossy(&past.stderr);
    assert!(note.contains("seed s deals like s mod 2,097,151"), "{note}");
    assert_eq!(past.stdout, repeated.stdout);
    assert!(repeated.stderr.is_empty());
}

/// Fault guarded: hands of 26 and 25 cards given with `--deck 4x13` played without a word,
/// where a card too many gets a note: a claimed 52-card game could hold 51. `play` names what
/// is missing (bare values, or faces where the hands have them); a hunt refuses such a start
/// naming it; hands of half a deck or fewer (CodinGame's) play without a note.
#[test]
fn hands_missing_a_card_of_their_deck_are_named() {
    let deck: Vec<u8> = (1..=13).flat_map(|v| [v; 4]).collect();
    let mut short = deck.clone();
    short.remove(short.iter().position(|&v| v == 7).unwrap());
    let text = |cards: &[u8]| {
        cards
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let hands = format!("{}\n{}\n", text(&short[..26]), text(&short[26..]));
    let said = "the hands hold 51 of the 4x13 deck's 52 cards: value 7 is missing";
    let out = warsweep()
        .args(["play", "--rules", "bataille", "--deck", "4x13"])
        .write_stdin(hands.clone())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "warsweep: note: {said}: the game is played without it"
        )),
        "{stderr}"
    );
    // Faces: the missing ones by name.
    let faces = "26\nAH\nKD\nQC\nJS\n10H\n9D\n8C\n7S\n6H\n5D\n4C\n3S\n2H\nAD\nKC\nQS\nJH\n10D\n9C\n8S\n7H\n6D\n5C\n4S\n3H\n2D\n24\nAC\nKS\nQH\nJD\n10C\n9S\n8H\n7D\n6C\n5S\n4H\n3D\n2C\nAS\nKH\nQD\nJC\n10S\n9H\n8D\n7C\n6S\n5H\n4D\n";
    let out = warsweep()
        .args(["play"])
        .write_stdin(faces)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the hands hold 50 of the 4x13 deck's 52 cards: 2S and 3C are missing"),
        "{stderr}"
    );
    // A hunt refuses to start from it.
    let dir = tempfile::tempdir().unwrap();
    let start = dir.path().join("short.txt");
    std::fs::write(&start, &hands).unwrap();
    let out = warsweep()
        .args([
            "hunt",
            "--deck",
            "4x13",
            "--games",
            "1",
            "--start",
            start.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(said) && stderr.trim_end().lines().count() == 1,
        "{stderr}"
    );
    // Half a deck or fewer: no note.
    let out = warsweep()
        .args(["play", "--rules", "bataille", "--deck", "4x13"])
        .write_stdin("1,2,3\n4,5,6\n")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
