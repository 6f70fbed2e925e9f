//! Every kind of bad input to the binary, and options that would do nothing: one sentence on
//! stderr and exit 1, or clap's usage error and exit 2, as the README's table of exit codes says.

use crate::cli::{data, prints, refuses};
use crate::common::warsweep;

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
        "warsweep: note: playing every deal changes only lex walks of a symmetric setting, which \
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

/// Fault: exit codes disagreed with the README's table. `--face-down 99` and `--players 13`
/// exited 1 while `--threads 0` and `--max-rounds 0` exited 2; `--seeds -5..10` met clap's
/// "unexpected argument '-5'" and `--seeds=-5..10` another sentence. A flag's value that is
/// wrong on its own is a usage error (2, clap's text); flags fine alone but not together exit 1.
/// Fault: `--seeds 0..18446744073709551616` started without a word, its bar showing 558,779
/// years. A range past 10^15 seeds is noted; stopped, the sweep writes what it played.
#[test]
fn a_range_no_machine_finishes_is_noted() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let out = std::process::Command::new("timeout")
        .args(["-s", "INT", "1"])
        .arg(crate::common::binary())
        .args([
            "sweep",
            "--seeds",
            "0..18446744073709551616",
            "-q",
            "--summary",
        ])
        .arg(&summary)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stopped by SIGINT"), "{stderr}");
    assert!(summary.is_file());
    // -q keeps notes quiet; without it the note comes first.
    let out = std::process::Command::new("timeout")
        .args(["-s", "INT", "1"])
        .arg(crate::common::binary())
        .args(["sweep", "--seeds", "0..18446744073709551616", "--summary"])
        .arg(dir.path().join("t.json"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "warsweep: note: 18,446,744,073,709,551,616 seeds are more than any machine plays (10^15 \
         take a year at 30 million games a second): stop the sweep when it has played enough, and \
         what it played is written"
    );
    // A range a machine finishes has no note.
    let out = warsweep()
        .args(["sweep", "--seeds", "0..1000"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("note"));
}

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
            "sweep --rules classic --deck 5x13 --seeds 0..100 --device gpu".to_string(),
            "the 5x13 deck has 65 cards of 13 values",
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

/// What a hunt on the GPU cannot play is refused in one sentence before any game: the climb
/// (each generation depends on the last), decks past 64 cards, more than two players; a build
/// without the `gpu` feature says so first. No report is left.
#[test]
fn gpu_hunts_it_cannot_play_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hunt.json");
    let out = out.to_str().unwrap();
    let hunt = |extra: &str| format!("hunt --device gpu --games 100 --out {out} {extra}");
    let mut cases = vec![
        (
            hunt("--strategy climb"),
            "the GPU plays the random and backward strategies",
        ),
        (
            hunt("--deck 5x13"),
            "the 5x13 deck has 65 cards of 13 values",
        ),
        (
            hunt("--strategy random --players 3 --short-war most-cards"),
            "the GPU plays two players, not 3",
        ),
        // Every reason at once: the climb's among them.
        (
            hunt("--strategy climb --players 3 --short-war most-cards"),
            "not the climb strategy, whose deals are not drawn at random; the GPU plays two players, not 3",
        ),
        (
            hunt("--for cycles --strategy construct"),
            "not the construct strategy, whose deals are not drawn at random",
        ),
    ];
    if !cfg!(feature = "gpu") {
        // First of all, before the deck.
        let said = "the GPU cannot play this hunt: this warsweep is built without GPU support \
                    (build it with `cargo build --release --features gpu`); the GPU plays decks";
        cases.push((hunt("--deck 5x13"), said));
        cases.push((hunt(""), "this warsweep is built without GPU support"));
    }
    for (args, message) in &cases {
        refuses(&args.split_whitespace().collect::<Vec<_>>(), b"", message);
    }
    assert!(cases.len() >= 3);
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "files left by refused hunts: {left:?}");
}
