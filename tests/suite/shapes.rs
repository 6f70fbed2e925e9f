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

/// Four wins each repeated 45 times, a mid war at a fixed battle (`--periods 45-45`), on 4x11
/// `sorted`: the counts of `scripts/four-wins-census.py --periods 45-45 4x11` (12 placings, 2
/// shapes, both taking the values); 8 states laid on each, the cycle of 42,624 rounds that
/// random sampling found among them; each printed with its cycle and replayed by its command.
#[test]
fn super_periods_and_many_states_a_shape() {
    let args = [
        "--deck",
        "4x11",
        "--gather",
        "sorted",
        "--periods",
        "45-45",
        "--ties",
        "--states",
        "8",
    ];
    let text = census(&args, "2");
    assert!(
        text.lines().next().unwrap().ends_with(
            "12 placings, each from every size of player 1's hand (1..43); shapes whose circles can be of one value: 2; taking the values: 2"
        ),
        "{text}"
    );
    let printed: Vec<u64> = (text.lines())
        .filter_map(|l| l.split(", a cycle of ").nth(1))
        .map(|rest| {
            rest.split(' ')
                .next()
                .unwrap()
                .replace(',', "")
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(printed.len(), 16, "{text}");
    assert!(printed.contains(&42_624), "{printed:?}");
    assert!(text.contains("(AAAABBBB)x45 mid@1, player 1 holding 24"));
    let mut replayed = 0;
    for ((hands, flags), cycle) in replays(&text).into_iter().zip(&printed) {
        let out = warsweep()
            .arg("play")
            .args(&flags)
            .write_stdin(hands)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!("INFINITE 0 {cycle}\n")
        );
        replayed += 1;
    }
    assert_eq!(replayed, 16);
}

/// `--deals` walks each state back to a deal of the rules, printed with the command that shows
/// it reaching the state's cycle; `--out` writes the same census as JSON.
#[test]
fn deals_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("census.json");
    let args = [
        "--deck",
        "4x11",
        "--gather",
        "sorted",
        "--periods",
        "45-45",
        "--ties",
        "--deals",
        "--out",
        out.to_str().unwrap(),
    ];
    let text = census(&args, "2");
    let deals: Vec<_> = (replays(&text).into_iter()).skip(1).step_by(2).collect();
    let printed: Vec<&str> = (text.lines())
        .filter_map(|l| l.split(", a cycle of ").nth(1))
        .map(|rest| rest.split(' ').next().unwrap())
        .collect();
    assert_eq!((deals.len(), printed.len()), (2, 2), "{text}");
    for ((hands, flags), cycle) in deals.iter().zip(&printed) {
        let out = warsweep()
            .arg("play")
            .args(flags)
            .write_stdin(hands.clone())
            .output()
            .unwrap();
        let said = String::from_utf8(out.stdout).unwrap();
        let length = said.split_whitespace().nth(2).unwrap();
        assert_eq!(length, cycle.replace(',', ""), "{said}");
        assert_eq!(
            hands
                .lines()
                .map(|h| h.split(',').count())
                .collect::<Vec<_>>(),
            [22, 22]
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        (json["placings"].as_u64(), json["taking"].as_u64()),
        (Some(12), Some(2))
    );
    assert_eq!(json["found"].as_array().unwrap().len(), 2);
    assert_eq!(json["found"][0]["word"], "(AAAABBBB)x45");
    assert!(json["found"][1]["deal"].is_array());
}

/// A census that would take minutes, stopped by `--time` with what it found so far, said on
/// stderr, exit 0.
#[test]
fn a_census_stops_at_its_time() {
    let run = warsweep()
        .args([
            "shapes",
            "--gather",
            "sorted",
            "--ties",
            "--wars",
            "1",
            "--longest",
            "20",
        ])
        .args(["--time", "1s", "-j", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("warsweep: stopped at --time after "),
        "{stderr}"
    );
    let first = String::from_utf8(run.stdout).unwrap();
    assert!(
        first
            .lines()
            .next()
            .unwrap()
            .contains(" (stopped) placings"),
        "{first}"
    );
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
            &["--gather", "sorted", "--face-down", "4", "--wars", "1"][..],
            "a census places wars under it with at most 3 cards face down (181,440 orders a war with three; 19,958,400 with four), not 4",
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
            "an even number of battles from 4 to 30 (any number with cards face down or wars chained), not 2",
        ),
        (
            &["--wars", "1", "--longest", "15"][..],
            "an even number of battles from 4 to 30 (any number with cards face down or wars chained), not 15",
        ),
        (
            &["--wars", "7"][..],
            "a census places 1 to 6 wars a word, not 7",
        ),
        (
            &["--wars", "1", "--chain", "4"][..],
            "a census that places wars (--wars or --periods) chains 1 to 3 ties in a row before a war's deciding battle, not 4",
        ),
        (
            &["--wars", "1", "--chain", "0"][..],
            "chains 1 to 3 ties in a row before a war's deciding battle, not 0",
        ),
        (
            &["--chain", "2"][..],
            "a census that places wars (--wars or --periods) chains 1 to 3 ties",
        ),
        (
            &["--wars", "1", "--chain", "2", "--gather", "sorted"][..],
            "the sorted gather orders a chained war's table by its values",
        ),
        (
            &["--wars", "1", "--mirrored", "--rules", "classic", "--gather", "natural"][..],
            "this gather lays the players' cards in player order, so a word and its mirror move them otherwise",
        ),
        (
            &["--deck", "5x3", "--mirrored"][..],
            "a mirrored census starts from equal hands, half the deck each",
        ),
        (
            &["--wars", "1", "--chain", "2", "--kinds", "low"][..],
            "a census that chains wars (--chain above 1) places wars of every kind",
        ),
        (
            &["--periods", "3-1"][..],
            "super-periods are a range FIRST-LAST with 1 <= FIRST <= LAST <= 1024, not 3-1",
        ),
        (
            &["--periods", "0-2"][..],
            "1 <= FIRST <= LAST <= 1024, not 0-2",
        ),
        (
            &["--periods", "45"][..],
            "45 is not a range of super-periods: give FIRST-LAST, like 1-24",
        ),
        (
            &["--periods", "1-2", "--wars", "7"][..],
            "a census places 1 to 6 wars a word, not 7",
        ),
        (
            &["--deck", "4x7", "--states", "0"][..],
            "a census lays 1 to 1000 states on each shape, not 0",
        ),
        (
            &["--deck", "4x7", "--states", "1001"][..],
            "a census lays 1 to 1000 states on each shape, not 1001",
        ),
        (
            &["--periods", "1-2", "--longest", "8"][..],
            "cannot be used with",
        ),
        (
            &["--held", "0-5"][..],
            "player 1 holds a range FIRST-LAST of sizes with 1 <= FIRST <= LAST <= 51 (the deck less a card), not 0-5",
        ),
        (
            &["--deck", "4x7", "--held", "20-28"][..],
            "1 <= FIRST <= LAST <= 27 (the deck less a card), not 20-28",
        ),
        (&["--held", "9-8"][..], "not 9-8"),
        (
            &["--held", "13"][..],
            "13 is not a range of hand sizes: give FIRST-LAST, like 20-26",
        ),
        (
            &["--kinds", "low"][..],
            "kinds of war narrow a census that places wars (--wars or --periods)",
        ),
        (
            &["--wars", "1", "--kinds", "low,middle"][..],
            "middle is no kind of war: give high, mid or low",
        ),
        (
            &["--deck", "4x7", "--out", "/nonexistent-folder/census.json"][..],
            "cannot write /nonexistent-folder/census.json",
        ),
    ] {
        let mut full = vec!["shapes"];
        full.extend(args);
        refuses(&full, b"", message);
    }
}

/// SIGINT, SIGTERM and SIGHUP stop a census with what it found so far printed and written
/// (`--out`, marked stopped), stderr saying so, and the signal's exit code.
#[test]
fn signals_stop_a_census_with_what_it_found() {
    let dir = tempfile::tempdir().unwrap();
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let out = dir.path().join(format!("{signal}.json"));
        let args = [
            "shapes",
            "--gather",
            "sorted",
            "--ties",
            "--wars",
            "1",
            "--longest",
            "20",
            "-q",
            "-j",
            "1",
        ];
        let done = crate::common::signalled(&args, &out, signal);
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(code), "SIG{signal}: {stderr}");
        assert!(
            stderr.contains(&format!("stopped by SIG{signal} after")),
            "{stderr}"
        );
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert!(json["stopped"] == true && json["looked"].as_u64() < json["placings"].as_u64());
        assert!(String::from_utf8(done.stdout)
            .unwrap()
            .contains(" (stopped) placings"));
    }
}

/// A row of counts for each length of word, the states under their row; `--held` and `--kinds`
/// narrow the census (the 52-card cycle of 1,020 rounds: a low war, player 1 holding 13),
/// said on its first line, and `--aligned` keeps the aligned cycles.
#[test]
fn rows_and_narrowed_censuses() {
    let text = census(&["--deck", "4x11"], "2");
    let rows: Vec<&str> = (text.lines())
        .filter(|l| l.starts_with("  ") && l.contains(" battles: "))
        .collect();
    assert_eq!(rows.len(), 8, "{text}");
    assert_eq!(
        rows[3],
        "  8 battles: 8 words, 8 placings, 4 shapes, 4 taking the values"
    );
    assert_eq!(
        rows[0],
        "  2 battles: 1 word, 1 placing, 0 shapes, 0 taking the values"
    );
    let under: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("  8 "))
        .collect();
    assert!(
        under[1].starts_with("    AAAABBBB, player 1 holding 8,"),
        "{text}"
    );
    let args = [
        "--wars",
        "1",
        "--longest",
        "18",
        "--held",
        "12-14",
        "--kinds",
        "low",
    ];
    let narrow = census(&args, "2");
    assert!(
        narrow.lines().next().unwrap().contains(
            ", 1 war each, wars of kinds low: 15,521 placings, each from player 1 holding 12..14 cards;"
        ),
        "{narrow}"
    );
    let found = replays(&narrow);
    assert_eq!(found.len(), 1, "{narrow}");
    // Aligned cycles only: 1x10's AABB from 4 cards, whose hands reach 5 and 5.
    let aligned = census(&["--deck", "1x10", "--aligned"], "2");
    assert!(aligned
        .lines()
        .next()
        .unwrap()
        .contains(", aligned cycles only: 1,158 placings"));
    assert!(aligned.contains("    AABB, player 1 holding 4, a cycle of 60 rounds (aligned): "));
    assert_eq!(replays(&aligned).len(), 1);
    assert!(
        narrow.contains("AABAABBAABBAABBBBA low@0, player 1 holding 13, a cycle of 1,020 rounds")
    );
}

/// Every row of `data/research/cycles.csv` found by a census (method `census`) is found again
/// by the command its row names, `warsweep shapes --deck D --gather G RULES BUDGET`: its deal
/// is among the deals the census walks back.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: censuses of 500,000 placings"
)]
fn every_census_row_of_cycles_csv_is_found_again_by_its_command() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/research/cycles.csv");
    let mut found = 0;
    for row in csv::Reader::from_path(path).unwrap().records() {
        let row = row.unwrap();
        if &row[6] != "census" {
            continue;
        }
        let mut args = vec!["--deck", &row[0], "--gather", &row[1]];
        args.extend(row[10].split_whitespace());
        args.extend(row[7].split_whitespace());
        args.push("-q");
        let said = census(&args, "2");
        assert!(
            said.contains(&format!("a deal into it: {}\n", &row[4])),
            "{args:?}: {said}"
        );
        found += 1;
    }
    assert_eq!(found, 10);
}
