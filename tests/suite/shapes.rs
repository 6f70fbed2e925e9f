//! `warsweep shapes`: a census of shapes as the command prints it, the same on any number of
//! threads, every state it prints replayed by its own `play` command, and its refusals.

use crate::cli::refuses;
use crate::common::warsweep;

/// The census's output with `threads` threads.
fn census(args: &[&str], threads: &str) -> String {
    let out = warsweep()
        .arg("shapes")
        .args(args)
        .args(["-j", threads])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Each `printf … | warsweep play …` line of `text`, run as it says: the hands and the flags.
fn replays(text: &str) -> Vec<(String, Vec<String>)> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("printf '"))
        .map(|rest| {
            let (hands, command) = rest.split_once("' | warsweep play ").unwrap();
            let flags = command.split_whitespace().map(str::to_string).collect();
            (hands.replace("\\n", "\n"), flags)
        })
        .collect()
}

/// The 4x11 shapes without a war and the 52-card one with a war (in a debug build, the 4x7
/// one of bataille_cpp's 52-round cycle) print the counts of the census
/// (tests/data/census/shapes.txt), the same bytes on 1 and 2 threads, and each state printed
/// plays to `INFINITE 0` by the command printed under it.
#[test]
fn a_census_prints_its_shapes_and_the_command_that_replays_each() {
    let mut replayed = 0;
    let with_a_war = if cfg!(debug_assertions) {
        (
            &["--deck", "4x7", "--wars", "1", "--longest", "14"][..],
            "1,078 placings, each from every size of player 1's hand (1..27); shapes whose circles can be of one value: 3; taking the values: 1",
            &[52][..],
        )
    } else {
        (
            &["--wars", "1", "--longest", "18"][..],
            "15,521 placings, each from every size of player 1's hand (1..51); shapes whose circles can be of one value: 20; taking the values: 1",
            &[1020][..],
        )
    };
    for (args, counts, lengths) in [
        (
            &["--deck", "4x11"][..],
            "1,158 placings, each from every size of player 1's hand (1..43); shapes whose circles can be of one value: 8; taking the values: 4",
            &[1152, 13_440][..],
        ),
        with_a_war,
    ] {
        let one = census(args, "1");
        assert_eq!(one, census(args, "2"), "{args:?}");
        assert!(one.lines().next().unwrap().ends_with(counts), "{one}");
        let found = replays(&one);
        assert_eq!(found.len(), one.lines().filter(|l| l.contains("holding")).count());
        for (hands, flags) in found {
            let out = warsweep().arg("play").args(&flags).write_stdin(hands).output().unwrap();
            let said = String::from_utf8(out.stdout).unwrap();
            let length: u64 = said.trim().strip_prefix("INFINITE 0 ").unwrap().parse().unwrap();
            assert!(lengths.contains(&length), "{said}");
            replayed += 1;
        }
    }
    assert_eq!(replayed, 4 + 1);
}

/// What a census cannot take is refused in one sentence, before any work.
#[test]
fn a_census_refuses_what_has_no_shapes() {
    for (args, message) in [
        (
            &["--gather", "random"][..],
            "the random gather moves cards by a generator",
        ),
        (
            &["--gather", "sorted", "--face-down", "1"][..],
            "shapes under it take --face-down 0",
        ),
        (&["--ranking", "cyclic"][..], "shapes order cards by value"),
        (
            &["--deck", "4x13+2"][..],
            "a deck with jokers has no shapes",
        ),
        (
            &["--players", "3", "--short-war", "most-cards"][..],
            "shapes are games of two players, not 3",
        ),
        (
            &["--longest", "7"][..],
            "an even number of battles from 2 to 30, not 7",
        ),
        (
            &["--longest", "32"][..],
            "an even number of battles from 2 to 30, not 32",
        ),
        (
            &["--wars", "1", "--longest", "2"][..],
            "an even number of battles from 4 to 30, not 2",
        ),
        (
            &["--wars", "3"][..],
            "a census places 1 or 2 wars a word, not 3",
        ),
    ] {
        let mut full = vec!["shapes"];
        full.extend(args);
        refuses(&full, b"", message);
    }
}
