//! Hunts through the kernel built for the CPU against hunts on the CPU alone: the same deals
//! kept, the same log, the same counts, for the same seed and budget.

use super::super::host::Host;
use super::{rules, skipped};
use crate::hunt::{device, Goal, Hunt, Hunted, Strategy};
use crate::rules::{Gather, Preset};
use crate::Metric;

/// What a hunt found, but its timings.
fn found(h: &Hunted) -> impl PartialEq + std::fmt::Debug {
    let log: Vec<_> = h
        .log
        .iter()
        .map(|i| (i.games, i.value, i.hands.clone()))
        .collect();
    (h.best.clone(), log, h.games, h.steps, h.stopped)
}

/// The random and backward strategies, each goal and metric, decks of one word (4x5, and 3x5
/// gathered strongest first, where games loop) and of several (4x6, gathered in reveal order
/// where games loop too, and 4x13): through the kernel,
/// in launches of three generations, a hunt finds what it finds on the CPU, and the CPU plays
/// again only the games the kernel lists (those worth what the book or the strategy needs,
/// and those that loop).
#[test]
fn hunts_through_the_kernel_find_what_the_cpu_finds() {
    let bataille = |deck| rules(Preset::Bataille, deck, |s| s);
    let sorted = rules(Preset::Bataille, "3x5", |s| s.gather(Gather::Sorted));
    let revealed = rules(Preset::Bataille, "4x6", |s| {
        s.gather(Gather::Reveal).face_down(2)
    });
    let rounds = Goal::Longest(Metric::Rounds);
    let cases = [
        (bataille("4x5"), Strategy::Random, rounds, 30_000),
        (
            bataille("4x13"),
            Strategy::Random,
            Goal::Longest(Metric::Battles),
            20_000,
        ),
        (bataille("4x13"), Strategy::Backward, rounds, 14_000),
        // One deal kept: a game as long as the best is extended but not kept, so the kernel
        // must list it for the strategy's sake (`Plan::extends_from`).
        // On 2x4 (2,520 deals), where many games tie at the best.
        (
            bataille("2x4"),
            Strategy::Backward,
            Goal::Longest(Metric::Wars),
            14_001,
        ),
        (
            bataille("4x6"),
            Strategy::Backward,
            Goal::Longest(Metric::Wars),
            14_000,
        ),
        (sorted, Strategy::Random, Goal::Cycles, 14_000),
        (revealed, Strategy::Random, Goal::Cycles, 14_000),
    ];
    let mut compared = 0;
    let (mut replayed, mut played) = (0, 0);
    for (rules, strategy, goal, games) in cases {
        // 14,001 games: the case that keeps one deal.
        let keep = if games % 2 == 1 { 1 } else { 10 };
        let hunt = Hunt::new(rules, goal)
            .strategy(strategy)
            .keep(keep)
            .games(Some(games))
            .seed(7)
            .stream(1, 3)
            .threads(2)
            .backward_states(2_000);
        let stop = Default::default();
        let cpu = hunt.run(&|_| {}, &stop).unwrap();
        let mut host = Host::build(&device::plan(&hunt).unwrap());
        host.window = 3 * 4096;
        let saving: (_, &mut dyn FnMut(&_)) = (std::time::Duration::MAX, &mut |_| {});
        let gpu = hunt
            .run_on(Some(&mut host), &|_| {}, &stop, saving)
            .unwrap();
        assert_eq!(found(&cpu), found(&gpu), "{rules:?} {strategy} {goal}");
        assert!(!cpu.best.is_empty(), "{rules:?} {goal}: nothing found");
        // The first generation on the CPU, the rest in launches of three.
        assert_eq!(
            host.launches,
            (games - 4096).div_ceil(3 * 4096),
            "{rules:?}"
        );
        if goal == Goal::Cycles {
            // A cycle hunt lists no finished game: only those that loop come back, each of
            // which the CPU names.
            assert_eq!(host.listed, 0, "{rules:?}");
            assert!(host.handed > 0, "{rules:?}");
        } else {
            replayed += host.listed + host.handed;
            played += games - 4096;
        }
        compared += 1;
    }
    assert_eq!(compared, cases.len());
    assert_eq!(compared, 7);
    // The kernel played the games: the CPU played again few of those that do not loop.
    assert!(replayed * 10 < played, "{replayed} of {played}");
}

/// On a machine with a GPU and a build with the `gpu` feature, a hunt on the GPU finds what it
/// finds on the CPU (4x13, the random and backward strategies); elsewhere the test says why it
/// did not run (and fails, with `WARSWEEP_GPU=1`).
#[test]
fn the_gpu_hunts_as_the_cpu() {
    let rules = rules(Preset::Bataille, "4x13", |s| s);
    let mut compared = 0;
    for strategy in [Strategy::Random, Strategy::Backward] {
        let hunt = Hunt::new(rules, Goal::Longest(Metric::Rounds))
            .strategy(strategy)
            .games(Some(2_000_000))
            .backward_states(2_000);
        let stop = Default::default();
        let gpu = match hunt.clone().gpu(true).run(&|_| {}, &stop) {
            Ok(gpu) => gpu,
            Err(why) => return skipped("hunts::the_gpu_hunts_as_the_cpu", &why.to_string()),
        };
        let cpu = hunt.run(&|_| {}, &stop).unwrap();
        assert_eq!(found(&cpu), found(&gpu), "{strategy}");
        compared += 1;
    }
    assert_eq!(compared, 2);
}

/// The listing rule at its tie (`device::lists`): through the kernel built for the CPU, a
/// finished game worth exactly the least listed is listed, and with the least one more it is
/// not; for every metric.
#[test]
fn the_kernel_lists_a_game_worth_exactly_the_least() {
    let mut ties = 0;
    for metric in [Metric::Rounds, Metric::Battles, Metric::Wars] {
        let hunt = Hunt::new(rules(Preset::Bataille, "4x5", |s| s), Goal::Longest(metric))
            .strategy(Strategy::Random)
            .seed(2);
        let mut host = Host::build(&device::plan(&hunt).unwrap());
        let listed_with = |host: &mut Host, least: u64| {
            let mut listed: Vec<(u64, u64)> = Vec::new();
            crate::gpu::walk(host, 0, 4096, least, &mut |_, games| {
                listed.extend(games.chunks_exact(2).map(|p| (p[0], p[1])));
            })
            .unwrap();
            listed
        };
        let value = |result: u64| {
            let (game, _) = crate::gpu::plan::listed_result(result).expect("a finished game");
            match metric {
                Metric::Battles => game.battles,
                Metric::Wars => game.wars,
                _ => game.rounds,
            }
        };
        // Every game, then those worth the median value or more.
        let all = listed_with(&mut host, 0);
        assert_eq!(all.len(), 4096);
        let mut values: Vec<u64> = all.iter().map(|&(_, r)| value(r)).collect();
        values.sort_unstable();
        let least = values[values.len() / 2];
        let at = listed_with(&mut host, least);
        let above = listed_with(&mut host, least + 1);
        let tied = all.iter().filter(|&&(_, r)| value(r) == least).count();
        assert!(tied > 0);
        assert_eq!(
            at.len(),
            values.iter().filter(|&&v| device::lists(v, least)).count()
        );
        assert_eq!(at.len() - above.len(), tied, "{metric}");
        ties += tied;
    }
    assert!(ties >= 3);
}

/// Fault: under a budget of time alone each launch held one generation (4,096 deals: 16
/// threads of a GPU busy); launches are sized from the window whatever the budget.
#[test]
fn launches_under_a_budget_of_time_fill_their_window() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let hunt = Hunt::new(
        rules(Preset::Bataille, "4x5", |s| s),
        Goal::Longest(Metric::Rounds),
    )
    .strategy(Strategy::Random)
    .games(None)
    .time(Some(std::time::Duration::from_secs(3600)))
    .threads(2);
    let mut host = Host::build(&device::plan(&hunt).unwrap());
    host.window = 3 * 4096;
    let stop = AtomicBool::new(false);
    let enough = 4096 + 2 * 3 * 4096;
    let progress = |s: crate::hunt::Status| stop.store(s.games >= enough, Ordering::Relaxed);
    let saving: (_, &mut dyn FnMut(&_)) = (std::time::Duration::MAX, &mut |_| {});
    let hunted = hunt
        .run_on(Some(&mut host), &progress, &stop, saving)
        .unwrap();
    // The first generation on the CPU, then two launches of three generations each.
    assert_eq!(hunted.games, enough);
    assert_eq!(host.launches, 2);
}
