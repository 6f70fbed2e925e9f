//! The prelude the kernel is built with, mutated: each mutation must make some walk of the
//! kernel's tests summarize unlike the CPU.

use super::super::host::Host;
use super::super::plan::Plan;
use super::{rules, Walk};
use crate::rules::{Preset, ShortWar};
use crate::Shuffle;

/// `plan` with the prelude's definition of `WS_{name}` replaced by `value`.
fn mutated(plan: &Plan, name: &str, value: &str) -> Plan {
    let define = format!("#define WS_{name} ");
    let line = plan
        .prelude
        .lines()
        .find(|line| line.starts_with(&define))
        .unwrap_or_else(|| panic!("no {define} in the prelude"));
    let prelude = plan.prelude.replace(line, &format!("{define}{value}"));
    assert_ne!(prelude, plan.prelude, "{name} is already {value}");
    Plan {
        prelude,
        window: plan.window,
    }
}

/// `plan` with its table of what a tie leads to changed by `change` (an entry's value to
/// another).
fn mutated_war(plan: &Plan, change: impl Fn(i8) -> i8) -> Plan {
    let line = plan
        .prelude
        .lines()
        .find(|line| line.contains("ws_war["))
        .expect("the war table");
    let (decl, entries) = line.split_once(" = {").unwrap();
    let entries: Vec<String> = entries
        .trim_end_matches("};")
        .split(", ")
        .map(|e| change(e.parse().unwrap()).to_string())
        .collect();
    let table = format!("{decl} = {{{}}};", entries.join(", "));
    assert_ne!(table, line, "the mutation changes no entry");
    Plan {
        prelude: plan.prelude.replace(line, &table),
        window: plan.window,
    }
}

/// Whether the kernel built with `plan` summarizes `walk` unlike the CPU; a kernel that fails
/// (its walk crashes on the cards a mutation misplaces) is caught too.
fn caught(walk: &Walk, plan: Plan) -> bool {
    let mut host = Host::build(&plan);
    let cpu = walk.summary(&walk.on_the_cpu());
    match walk.try_on(&mut host, None, None) {
        Ok(gpu) => cpu != walk.summary(&gpu),
        Err(_) => true,
    }
}

/// Every mutation tried of the prelude the kernel is built with is caught: the kernel then
/// summarizes some walk of these tests unlike the CPU. Which value beats which, each step of
/// each gather's pick-up, and the table of what a tie leads to.
#[test]
fn every_mutation_of_the_prelude_is_caught() {
    let mut tried = beats_mutations();
    tried.extend(gather_mutations());
    tried.extend(war_mutations());
    // Steps of each winner's pick-up (docs/rules.md): reveal 1; p1-first, winner-first,
    // loser-first and winner-first-latest 2 (two players' runs); natural and pair-first 3 (the
    // deciding battle's two cards, then the rest); sorted 1.
    let steps = 1 + 4 * 2 + 2 * 3 + 1;
    assert_eq!(tried.len(), 5 + 2 * steps + 5);
    println!(
        "{} mutations tried, each caught: {}",
        tried.len(),
        tried.join("; ")
    );
}

/// Which value beats which, each of the four words emptied: 1x13 reads all four words (stored
/// values 1 to 13), 4x5 the first. The mutations tried.
fn beats_mutations() -> Vec<String> {
    let mut tried = Vec::new();
    let thirteen = Walk {
        shuffle: Shuffle::Splitmix,
        ..Walk::lex(rules(Preset::Bataille, "1x13", |s| s), (0, 20_000))
    };
    for k in 0..4 {
        let name = format!("BEATS{k}");
        assert!(
            caught(&thirteen, mutated(&thirteen.plan(), &name, "u64(0)")),
            "{name}"
        );
        tried.push(name);
    }
    let five = Walk {
        whole: None,
        mirrors: false,
        ..Walk::research_4x5((150_000_000_000, 150_000_010_000))
    };
    assert!(caught(&five, mutated(&five.plan(), "BEATS0", "u64(0)")));
    tried.push("BEATS0 (three-bit cards)".to_string());
    tried
}

/// Each step of each gather's pick-up, replaced by the next step, on a deck with wars. The
/// mutations tried.
fn gather_mutations() -> Vec<String> {
    use super::super::plan::Step;
    let mut tried = Vec::new();
    for gather in super::fixed_gathers() {
        let walk = Walk::lex(
            rules(Preset::Bataille, "4x4", |s| s.gather(gather).face_down(1)),
            (5_000_000, 5_005_000),
        );
        let plan = walk.plan();
        for winner in 0..2 {
            let steps = super::super::plan::pick_up_steps(&walk.rules, winner);
            for (i, step) in steps.iter().enumerate().filter(|(_, s)| **s != Step::End) {
                let at = Step::ALL.iter().position(|s| s == step).unwrap();
                let next = Step::ALL[at % (Step::ALL.len() - 1) + 1];
                let mut changed = steps;
                changed[i] = next;
                let list: Vec<String> = changed
                    .iter()
                    .map(|s| format!("WS_PUT_{}", s.name()))
                    .collect();
                let name = format!("GATHER{winner}");
                let plan = mutated(&plan, &name, &list.join(", "));
                assert!(
                    caught(&walk, plan),
                    "{gather} {name} step {i}: {step:?} -> {next:?}"
                );
                tried.push(format!("{gather} {name} step {i}"));
            }
        }
    }
    tried
}

/// What a tie leads to: one more card face down in a war; each way a short war ends, the next.
/// The mutations tried.
fn war_mutations() -> Vec<String> {
    let [win0, win1, draw] = [-1, -2, -3];
    let wars = [
        (
            ShortWar::FirstOutLoses,
            "a war of one more card face down",
            None,
        ),
        (
            ShortWar::FirstOutLoses,
            "player 1 out first wins",
            Some((win1, win0)),
        ),
        (
            ShortWar::FirstOutLoses,
            "player 2 out first wins",
            Some((win0, win1)),
        ),
        (
            ShortWar::Draw,
            "a short war won by player 1",
            Some((draw, win0)),
        ),
        (
            ShortWar::MostCards,
            "a tie for the most cards won",
            Some((draw, win1)),
        ),
    ];
    let mut tried = Vec::new();
    for (policy, what, change) in wars {
        let walk = Walk::lex(
            rules(Preset::Bataille, "4x4", |s| {
                s.face_down(1).short_war(policy)
            }),
            (7_000_000, 7_010_000),
        );
        let plan = match change {
            None => mutated_war(&walk.plan(), |e| if e >= 0 { e + 1 } else { e }),
            Some((from, to)) => mutated_war(&walk.plan(), |e| if e == from { to } else { e }),
        };
        assert!(caught(&walk, plan), "{policy}: {what}");
        tried.push(format!("{policy}: {what}"));
    }
    tried
}
