//! `play --certify`: a certificate of an infinite game, its figures checked against the plain
//! second implementation (the wars of a period, the game under the other gather, where the two
//! gathers' games part), its cards told apart, and its refusals.

use crate::cli::refuses;
use crate::common::warsweep;
use crate::hunt::plain_bataille;
use crate::plain::states_of_hands;
use std::collections::VecDeque;
use warsweep::Gather;

/// The deal of `data/research/cycles.csv`'s first row of 4x13 `gather` with `period`.
fn row(gather: &str, period: u64) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/research/cycles.csv");
    let mut rows = csv::Reader::from_path(path).unwrap();
    let found = rows
        .records()
        .map(Result::unwrap)
        .find(|r| &r[0] == "4x13" && &r[1] == gather && r[2].parse::<u64>().unwrap() == period);
    found.unwrap()[4].to_string()
}

/// The certificates of two 52-card cycles, the 1,020-round `natural` one and the 507-round
/// `sorted` one: the wars of one period and the rounds they fill as the plain implementation
/// plays them, every card told apart back in its place after the periods said, and the deal
/// under the other gather as the plain implementation plays it, with the first round after
/// which the two games' states differ.
#[test]
fn certificates_of_52_card_cycles() {
    let mut compared = 0;
    for (gather, period, mu, back, wars, kinds, other) in [
        (Gather::Natural, 1020, 13, 1, 60, "60 low", None),
        (Gather::Sorted, 507, 13, 12, 33, "3 high, 30 low", Some(52)),
    ] {
        let deal = row(&gather.to_string(), period);
        let text = warsweep()
            .args([
                "play",
                "--rules",
                "bataille",
                "--gather",
                &gather.to_string(),
            ])
            .arg("--certify")
            .write_stdin(deal.replace('|', "\n") + "\n")
            .output()
            .unwrap();
        assert!(text.status.success());
        let text = String::from_utf8(text.stdout).unwrap();
        let end = mu + period;
        assert!(text.contains(&format!(
            "The cycle: the state after round {mu} comes back after round {end} ("
        )));
        assert!(
            text.contains(&format!("\nThe wars of one period: {wars}\n")),
            "{text}"
        );
        let said: Vec<&str> = text.lines().filter(|l| l.starts_with("  round ")).collect();
        let count = |kind: &str| {
            said.iter()
                .filter(|l| l.ends_with(&format!("a {kind} war")))
                .count()
        };
        let named = match (count("high"), count("low")) {
            (0, low) => format!("{low} low"),
            (high, low) => format!("{high} high, {low} low"),
        };
        assert_eq!((said.len(), named.as_str()), (wars, kinds));
        let periods = if back == 1 {
            "1 period"
        } else {
            &format!("{back} periods")
        };
        assert!(
            text.contains(&format!(
                "every card is back in its place after {periods} ("
            )),
            "{text}"
        );
        // The plain implementation: the rounds of the period with a war, and each its round.
        let hands: Vec<VecDeque<u8>> = (deal.split('|'))
            .map(|h| h.split(',').map(|v| v.parse::<u8>().unwrap() - 1).collect())
            .collect();
        let ours = states_of_hands(&plain_bataille(4, 13, gather), hands.clone(), end);
        let war_rounds: Vec<u64> = (mu + 1..=end)
            .filter(|&r| ours[r as usize - 1].1 > 0)
            .map(|r| r - mu)
            .collect();
        let printed: Vec<u64> = (said.iter())
            .map(|l| {
                l["  round ".len()..]
                    .split(':')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_eq!(printed, war_rounds);
        assert_eq!(ours[mu as usize - 1].0, ours[end as usize - 1].0);
        // The other gather: its outcome, and where its states part from these.
        let flip = if gather == Gather::Natural {
            Gather::Sorted
        } else {
            Gather::Natural
        };
        let theirs = states_of_hands(&plain_bataille(4, 13, flip), hands, end);
        let parted = (0..end as usize)
            .find(|&i| ours.get(i).map(|s| &s.0) != theirs.get(i).map(|s| &s.0))
            .map(|i| i as u64 + 1);
        assert_eq!(parted, other);
        let verdict = match other {
            None => "; the same game: the same state after every round up to the cycle's end"
                .to_string(),
            Some(r) => format!("; different games: their states differ after round {r}"),
        };
        assert!(text.contains(&verdict), "{text}");
        compared += 1;
    }
    assert_eq!(compared, 2);
}

/// What has no certificate is refused in one sentence: a game that ends, rules that move
/// cards at random, a certificate asked with a trace.
#[test]
fn a_certificate_is_refused_where_there_is_no_infinite_game() {
    let refused: [(&[&str], &[u8], &str); 4] = [
        (
            &["play", "--rules", "bataille", "--deck", "1x4", "--certify"],
            b"4,1\n3,2\n",
            "the game is not infinite (1 4): there is nothing to certify",
        ),
        (
            &[
                "play",
                "--rules",
                "bataille",
                "--deck",
                "1x4",
                "--gather",
                "random",
                "--certify",
            ],
            b"4,1\n3,2\n",
            "the random gather shuffles the table: no cycle can be checked",
        ),
        (
            &[
                "play",
                "--rules",
                "bataille",
                "--deck",
                "1x4",
                "--won-pile",
                "shuffled",
                "--certify",
            ],
            b"4,1\n3,2\n",
            "shuffled won piles: no cycle can be checked",
        ),
        (
            &["play", "--rules", "bataille", "--certify", "--trace"],
            b"",
            "cannot be used with",
        ),
    ];
    for (args, stdin, message) in refused {
        refuses(args, stdin, message);
    }
}

/// The certificate shown in `docs/research.md` is what the command above it prints: each line
/// the page shows (`...` standing for those it leaves out) is a line of the certificate.
#[test]
fn the_certificate_of_research_md_is_the_command_s() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/research.md")).unwrap();
    let block = page
        .split("\n$ printf '")
        .nth(1)
        .unwrap()
        .split("\n```")
        .next()
        .unwrap();
    let (command, shown) = block.split_once('\n').unwrap();
    let (hands, flags) = command.split_once("' | warsweep play ").unwrap();
    let out = warsweep()
        .arg("play")
        .args(flags.split_whitespace())
        .write_stdin(hands.replace("\\n", "\n"))
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    let printed: Vec<&str> = printed.lines().collect();
    let mut compared = 0;
    for line in shown.lines().filter(|l| *l != "...") {
        assert!(printed.contains(&line), "{line:?} is not printed");
        compared += 1;
    }
    assert!(compared >= 6, "{compared} lines");
}

/// Hands that hold a value more often than the deck has it are certified as given (`play`
/// plays them so), their cards not told apart: five 1s of a 4x2 deck.
#[test]
fn hands_beyond_the_deck_are_not_told_apart() {
    let out = warsweep()
        .args(["play", "--rules", "bataille", "--deck", "4x2", "--certify"])
        .write_stdin("1,2,1,1,2,1\n2,1,2\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let plain = warsweep()
        .args(["play", "--rules", "bataille", "--deck", "4x2"])
        .write_stdin("1,2,1,1,2,1\n2,1,2\n")
        .output()
        .unwrap();
    let said = String::from_utf8(plain.stdout).unwrap();
    let (mu, lambda) = said
        .trim()
        .strip_prefix("INFINITE ")
        .unwrap()
        .split_once(' ')
        .unwrap();
    let end = mu.parse::<u64>().unwrap() + lambda.parse::<u64>().unwrap();
    assert!(
        text.contains(&format!(
            "The cycle: the state after round {mu} comes back after round {end} ("
        )),
        "{text}"
    );
    assert!(text.contains("\nThe cards are not told apart"), "{text}");
}
