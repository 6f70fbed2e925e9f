//! The hunt against the engine's public word: every deal it reports replays to the game it
//! claims, its results depend on its seed, stream and budget alone, and what it refuses it
//! refuses in one sentence.

use super::*;
use crate::engine::Engine;
use crate::rules::{Deck, Gather, Preset, Settings};
use crate::{Card, Silent};

fn rules(deck: &str, build: impl FnOnce(Settings) -> Settings) -> Rules {
    build(Settings::new(Preset::Bataille).deck(Deck::parse(deck).unwrap()))
        .build()
        .unwrap()
}

/// The game of `hands` (values from 1), played by the engine's public entry point.
fn replay(rules: Rules, hands: &[Vec<u8>]) -> GameResult {
    let cards: Vec<Vec<Card>> = hands
        .iter()
        .map(|h| {
            h.iter()
                .map(|&v| rules.deck().value_card(i64::from(v)).unwrap())
                .collect()
        })
        .collect();
    Engine::new(rules)
        .play_hands(&cards, 0, &mut Silent)
        .unwrap()
}

/// Every strategy finds the same deals on one thread and on three, and another stream finds
/// others; every deal kept and every improvement logged replays to what the hunt says.
#[test]
fn hunts_depend_on_their_seed_and_stream_alone() {
    let setting = rules("4x5", |s| s);
    let mut checked = 0;
    // The construction and the shapes strategy build infinite games only (their own tests).
    let longest = Strategy::ALL.iter().filter(|s| !s.builds_cycles());
    for strategy in longest.copied() {
        let hunt = Hunt::new(setting, Goal::Longest(Metric::Rounds))
            .strategy(strategy)
            .games(Some(30_000))
            .keep(5)
            .seed(3);
        let one = hunt
            .clone()
            .threads(1)
            .run(&|_| {}, &AtomicBool::new(false))
            .unwrap();
        let three = hunt
            .clone()
            .threads(3)
            .run(&|_| {}, &AtomicBool::new(false))
            .unwrap();
        assert_eq!(one.best, three.best, "{strategy}");
        assert_eq!(one.games, 30_000);
        let other = hunt
            .stream(1, 2)
            .threads(2)
            .run(&|_| {}, &AtomicBool::new(false));
        assert_ne!(other.unwrap().best, one.best, "{strategy}");
        for found in &one.best {
            assert_eq!(replay(setting, &found.hands), found.result, "{strategy}");
            assert_eq!(Some(found.value), Some(found.result.rounds));
            checked += 1;
        }
        let mut last = 0;
        for step in &one.log {
            assert!(step.value > last && step.games <= one.games, "{strategy}");
            assert_eq!(replay(setting, &step.hands).rounds, step.value);
            last = step.value;
            checked += 1;
        }
        assert_eq!(one.log.last().map(|s| s.value), Some(one.best[0].value));
        assert!(one.best.windows(2).all(|w| w[0].value >= w[1].value));
    }
    assert!(checked >= 3 * 5);
}

/// The backward strategy extends a long game: from a deal of a long game it reports a deal
/// whose game reaches a state of it later, longer by the rounds before it, which the engine
/// replays to the counts the search added up (battles and wars too).
#[test]
fn games_extended_backward_replay_as_counted() {
    let setting = rules("4x7", |s| s);
    // The longest 4x7 game published (cristal-smac/bataille, Marc Lapierre): 1,611 rounds.
    let record = vec![
        vec![1, 1, 1, 1, 2, 2, 2, 2, 3, 6, 6, 3, 6, 7],
        vec![4, 3, 5, 4, 5, 4, 5, 6, 3, 7, 7, 5, 4, 7],
    ];
    let original = replay(setting, &record);
    assert_eq!(original.rounds, 1611);
    let mut extended = 0;
    for metric in [Metric::Rounds, Metric::Battles, Metric::Wars] {
        let hunt = Hunt::new(setting, Goal::Longest(metric))
            .games(Some(1))
            .backward_states(100_000)
            .start(vec![record.clone()]);
        let found = hunt.run(&|_| {}, &AtomicBool::new(false)).unwrap();
        assert!(found.steps > 0 && found.steps <= 100_000);
        let best = &found.best[0];
        let game = replay(setting, &best.hands);
        assert_eq!(game, best.result, "{metric}");
        let value = |g: &GameResult| match metric {
            Metric::Battles => g.battles,
            Metric::Wars => g.wars,
            _ => g.rounds,
        };
        assert_eq!(best.value, value(&game));
        assert!(best.value >= value(&original), "{metric}");
        extended += usize::from(best.value > value(&original));
    }
    // Rounds at least: 1,618, longer than the published game.
    assert!(extended >= 1);
}

/// The longest 4x5 game (453 rounds, the most of all 305,540,235,000 deals: the walk of
/// cristal-smac/bataille's records) cannot be extended, and the search says so.
#[test]
fn the_longest_game_of_a_whole_walk_is_not_extended() {
    let setting = rules("4x5", |s| s);
    let longest = vec![
        vec![1, 1, 1, 2, 1, 5, 3, 4, 4, 5],
        vec![2, 3, 5, 3, 4, 5, 2, 3, 4, 2],
    ];
    assert_eq!(replay(setting, &longest).rounds, 453);
    let hunt = Hunt::new(setting, Goal::Longest(Metric::Rounds))
        .games(Some(1))
        .backward_states(200_000)
        .start(vec![longest.clone()]);
    let found = hunt.run(&|_| {}, &AtomicBool::new(false)).unwrap();
    assert_eq!(found.steps, 200_000);
    assert_eq!((found.best[0].value, &found.best[0].hands), (453, &longest));
}

/// A hunt for infinite games names each cycle by its least state, as `sweep --cycles` does:
/// the 4x4 walk's four cycles of 24 rounds.
#[test]
fn cycles_are_named_as_sweeps_name_them() {
    let setting = rules("4x4", |s| s);
    let hunt = Hunt::new(setting, Goal::Cycles)
        .strategy(Strategy::Random)
        .games(Some(400_000))
        .seed(5);
    let found = hunt.run(&|_| {}, &AtomicBool::new(false)).unwrap();
    // The four cycles of the whole walk (README, `sweep --cycles`).
    let known = [
        "1 2 1 4 4 2 1 3 3|3 4 2 4 1 3 2",
        "1 3 2 3 1 2 1 4 4|4 2 1 3 3 4 2",
        "1 3 1 3 3 2 1 4 4|4 3 2 2 1 4 2",
        "1 2 1 3 3 2 1 4 4|4 3 2 3 1 4 2",
    ];
    assert_eq!(found.best.len(), 4, "{:?}", found.best);
    for cycle in &found.best {
        let named = cycle.cycle.as_deref().unwrap();
        assert!(known.contains(&named), "{named}");
        assert_eq!(cycle.value, 24);
        assert!(matches!(
            replay(setting, &cycle.hands).outcome,
            Outcome::Infinite { .. }
        ));
    }
}

/// What cannot be hunted is refused, each in one sentence naming why.
#[test]
fn what_cannot_be_hunted_is_refused() {
    let setting = rules("4x4", |s| s);
    let hunt = || Hunt::new(setting, Goal::Longest(Metric::Rounds));
    let random = rules("4x4", |s| s.gather(Gather::Random));
    let three = Settings::new(Preset::Oorlog).build().unwrap();
    let cases = [
        (hunt().games(Some(0)), "a budget of 1 game or more"),
        (hunt().games(None), "a budget of 1 game or more"),
        (hunt().games(None).time(Some(Duration::ZERO)), "a budget"),
        (
            Hunt::new(random, Goal::Cycles),
            "games that the deal decides",
        ),
        (
            Hunt::new(random, Goal::Longest(Metric::Rounds)),
            "the random gather",
        ),
        (
            Hunt::new(setting, Goal::Longest(Metric::CycleLength)),
            "rounds, battles or wars, not cycle_length",
        ),
        (
            Hunt::new(three, Goal::Longest(Metric::Rounds)).strategy(Strategy::Backward),
            "the backward strategy plays two-player games, not 3 players",
        ),
        (hunt().threads(0), "1 to 1024 threads, not 0"),
        (hunt().keep(0), "keeps 1 deal or more"),
        (hunt().stream(2, 2), "stream 2 of 2 is none of them"),
        (
            hunt().start(vec![vec![vec![1, 2, 3, 4], vec![1, 2, 3, 4]]]),
            "the starting hands #1 are not a deal of this setting: player 1 holds 4 cards",
        ),
        (
            hunt().start(vec![vec![vec![1; 8], vec![2; 8]]]),
            "they hold value 1 8 times, and the deck has it 4 times",
        ),
    ];
    for (hunt, said) in &cases {
        let why = hunt.check().unwrap_err().to_string();
        assert!(why.contains(said), "{why}");
        assert!(!why.contains('\n'));
        let run = hunt.run(&|_| {}, &AtomicBool::new(false)).unwrap_err();
        assert_eq!(run.to_string(), why);
    }
}

/// A hunt asked to stop ends after its generation, with what it found; a time budget ends it
/// too.
#[test]
fn a_stopped_hunt_keeps_what_it_found() {
    let setting = rules("4x5", |s| s);
    let hunt = Hunt::new(setting, Goal::Longest(Metric::Rounds)).games(Some(1_000_000));
    let found = hunt.run(&|_| {}, &AtomicBool::new(true)).unwrap();
    assert!(found.stopped && found.games == 0 && found.best.is_empty());
    let stop = AtomicBool::new(false);
    let found = hunt
        .run(
            &|status| stop.store(status.games >= 8_000, Ordering::SeqCst),
            &stop,
        )
        .unwrap();
    assert!(found.stopped && found.games < 1_000_000 && !found.best.is_empty());
    let timed = Hunt::new(setting, Goal::Longest(Metric::Rounds))
        .games(None)
        .time(Some(Duration::from_millis(200)));
    let found = timed.run(&|_| {}, &AtomicBool::new(false)).unwrap();
    assert!(!found.stopped && found.games > 0);
}

/// `hunt` resumed from `checkpoint` written and read back, and run to its end: the checkpoint
/// read, and what the hunt found.
fn resume_and_run(hunt: &Hunt, checkpoint: &Checkpoint) -> (Checkpoint, Hunted) {
    let read = Checkpoint::from_json(&checkpoint.to_json()).unwrap();
    let stop = AtomicBool::new(false);
    let rest = hunt
        .clone()
        .resume(&read)
        .unwrap()
        .run(&|_| {}, &stop)
        .unwrap();
    (read, rest)
}

/// Fault guarded: a hunt resumed from any of its checkpoints ends as the whole hunt, for
/// every strategy and both goals: the same deals kept, log (but its seconds), games, states
/// expanded and generations; and a checkpoint of another hunt is refused.
#[test]
fn a_hunt_resumed_from_any_checkpoint_ends_as_the_whole_hunt() {
    let setting = rules("4x5", |s| s);
    let stop = AtomicBool::new(false);
    let mut resumed = 0;
    for (strategy, goal) in [
        (Strategy::Random, Goal::Longest(Metric::Rounds)),
        (Strategy::Climb, Goal::Longest(Metric::Battles)),
        (Strategy::Backward, Goal::Longest(Metric::Wars)),
        (Strategy::Random, Goal::Cycles),
        (Strategy::Climb, Goal::Cycles),
    ] {
        let hunt = Hunt::new(setting, goal)
            .strategy(strategy)
            .games(Some(5 * 4096 + 100))
            .keep(4)
            .seed(11)
            .threads(2)
            .backward_states(500)
            .start(vec![vec![
                vec![1, 2, 3, 4, 5, 1, 2, 3, 4, 5],
                vec![5, 4, 3, 2, 1, 5, 4, 3, 2, 1],
            ]]);
        let mut saved = Vec::new();
        let whole = hunt
            .run_saving(&|_| {}, &stop, Duration::ZERO, &mut |c| {
                saved.push(c.clone());
            })
            .unwrap();
        // One checkpoint at the start and after each generation but the last (a hunt that
        // spends its budget needs none).
        assert_eq!(saved.len(), 6, "{strategy} {goal}");
        let timeless = |log: &[Improvement]| -> Vec<(u64, u64, Vec<Vec<u8>>)> {
            log.iter()
                .map(|i| (i.games, i.value, i.hands.clone()))
                .collect()
        };
        for checkpoint in &saved {
            let (read, rest) = resume_and_run(&hunt, checkpoint);
            assert_eq!(rest.best, whole.best, "{strategy} {goal}");
            assert_eq!(
                timeless(&rest.log),
                timeless(&whole.log),
                "{strategy} {goal}"
            );
            assert_eq!(
                (rest.games, rest.steps, rest.generations),
                (whole.games, whole.steps, whole.generations)
            );
            assert!(rest.seconds >= read.report.seconds);
            resumed += 1;
        }
        let other = hunt.clone().seed(12).resume(&saved[0]);
        assert!(matches!(other, Err(HuntError::Resume(_))), "{other:?}");
        let other = hunt.clone().backward_states(501).resume(&saved[0]);
        assert!(matches!(other, Err(HuntError::Resume(_))), "{other:?}");
    }
    assert_eq!(resumed, 30);
}

/// Fault guarded: a hunt that continues a finished report, stopped and resumed, spends the
/// budget of games it was given on top of the report's (not less), and ends as the
/// continuation would have uninterrupted.
#[test]
fn a_continued_hunt_resumed_spends_its_own_budget() {
    let setting = rules("4x5", |s| s);
    let stop = AtomicBool::new(false);
    let hunt = Hunt::new(setting, Goal::Longest(Metric::Rounds))
        .strategy(Strategy::Random)
        .games(Some(10_000))
        .seed(4);
    let first = Report::of(&hunt, &hunt.run(&|_| {}, &stop).unwrap());
    let more = hunt.clone().games(Some(20_000)).continuing(&first).unwrap();
    let whole = more.run(&|_| {}, &stop).unwrap();
    assert_eq!(whole.games, 30_000);
    let halt = AtomicBool::new(false);
    let mut saved = None;
    let stopped = more
        .run_saving(
            &|s| halt.store(s.games >= 18_192, Ordering::Relaxed),
            &halt,
            Duration::MAX,
            &mut |c| saved = Some(c.clone()),
        )
        .unwrap();
    assert!(stopped.stopped && stopped.games == 18_192);
    let rest = more.clone().resume(&saved.unwrap()).unwrap();
    let rest = rest.run(&|_| {}, &stop).unwrap();
    assert_eq!((rest.games, &rest.best), (30_000, &whole.best));
}

/// Every deal the construction keeps is an infinite game, on its own cycle (the engine's public
/// entry point replays each to the cycle's length); the same deals on one thread and on three;
/// a stream of its own finds others; and it refuses what it cannot build.
#[test]
fn a_construction_builds_deals_that_never_end() {
    let setting = rules("4x8", |s| s);
    let hunt = Hunt::new(setting, Goal::Cycles)
        .strategy(Strategy::Construct)
        .games(Some(4096 + 500))
        .keep(1000)
        .seed(2);
    let stop = AtomicBool::new(false);
    let one = hunt.clone().threads(1).run(&|_| {}, &stop).unwrap();
    let three = hunt.clone().threads(3).run(&|_| {}, &stop).unwrap();
    assert_eq!(one.best, three.best);
    assert!(one.best.len() >= 20, "{} cycles", one.best.len());
    let mut cycles = std::collections::HashSet::new();
    for found in &one.best {
        let game = replay(setting, &found.hands);
        assert_eq!(game, found.result);
        assert!(
            matches!(game.outcome, Outcome::Infinite { cycle_length, .. } if cycle_length == found.value)
        );
        assert!(found.reached >= 1 && cycles.insert(found.cycle.clone()));
    }
    let other = hunt.clone().stream(1, 2).run(&|_| {}, &stop).unwrap();
    assert_ne!(other.best, one.best);
    let refused = |hunt: Hunt| hunt.strategy(Strategy::Construct).check();
    let longest = Hunt::new(setting, Goal::Longest(Metric::Rounds));
    assert_eq!(
        refused(longest),
        Err(HuntError::CyclesOnly(Strategy::Construct))
    );
    let odd = Hunt::new(rules("4x4+1", |s| s), Goal::Cycles);
    assert_eq!(refused(odd), Err(HuntError::Unequal(8, 9)));
    let three = rules("4x6", |s| {
        s.players(3).short_war(crate::rules::ShortWar::MostCards)
    });
    let three = Hunt::new(three, Goal::Cycles);
    assert_eq!(
        refused(three),
        Err(HuntError::Players(Strategy::Construct, 3))
    );
}

/// The deals a hunt of the shapes strategy keeps, checked: the same on one thread and on
/// `threads`, each of equal hands of `half` cards, replayed by the engine's public entry point
/// to the cycle its value names, each cycle once; with their cycle lengths and wars.
fn built_cycles(hunt: &Hunt, threads: usize, half: usize) -> (Hunted, Vec<(u64, u64)>) {
    let stop = AtomicBool::new(false);
    let one = hunt.clone().threads(1).run(&|_| {}, &stop).unwrap();
    let many = hunt.clone().threads(threads).run(&|_| {}, &stop).unwrap();
    assert_eq!(one.best, many.best);
    let mut cycles = std::collections::HashSet::new();
    let mut games = Vec::new();
    for found in &one.best {
        assert_eq!([found.hands[0].len(), found.hands[1].len()], [half, half]);
        let game = replay(hunt.rules, &found.hands);
        assert_eq!(game, found.result);
        let Outcome::Infinite { cycle_length, .. } = game.outcome else {
            panic!("{:?} ends", found.hands);
        };
        assert_eq!(cycle_length, found.value);
        assert!(cycles.insert(found.cycle.clone()));
        games.push((cycle_length, game.wars));
    }
    (one, games)
}

/// The shapes with a war give infinite games of 52 cards, the article's open challenge: every
/// deal the strategy keeps under `natural` and `sorted` holds 26 cards a hand and reaches a
/// cycle of its own, with wars (`built_cycles`), on one thread and on two. A debug build
/// (whose census of 52 cards takes minutes) plays 4x7, whose cycles under `sorted` have wars
/// too.
#[test]
fn war_shapes_give_infinite_games_of_52_cards() {
    let (deck, half) = if cfg!(debug_assertions) {
        ("4x7", 14)
    } else {
        ("4x13", 26)
    };
    let mut compared = 0;
    for gather in [Gather::Natural, Gather::Sorted] {
        let hunt = Hunt::new(rules(deck, |s| s.gather(gather)), Goal::Cycles)
            .strategy(Strategy::Shapes)
            .games(Some(64))
            .keep(1000)
            .seed(2);
        let (_, games) = built_cycles(&hunt, 2, half);
        assert!(games.len() >= 32, "{gather:?}: {} cycles", games.len());
        if gather == Gather::Sorted || deck == "4x13" {
            assert!(games.iter().all(|&(_, wars)| wars > 0));
        }
        compared += games.len();
    }
    assert!(compared >= 64, "{compared}");
}

/// Every deal the shapes strategy keeps on 4x11 reaches a cycle without a war from a deal of 22
/// cards a hand (`built_cycles`: a multiple of its 8-round period); the same deals on one
/// thread and on three; a stream of its own finds others; and it hunts cycles only.
#[test]
fn shapes_deals_reach_cycles_without_a_war() {
    let setting = rules("4x11", |s| s);
    let hunt = Hunt::new(setting, Goal::Cycles)
        .strategy(Strategy::Shapes)
        .games(Some(200))
        .keep(1000)
        .seed(5);
    let (one, games) = built_cycles(&hunt, 3, 22);
    assert!(games.len() >= 100, "{} cycles", games.len());
    assert!(games.iter().all(|&(length, _)| length % 8 == 0));
    let stop = AtomicBool::new(false);
    let other = hunt.clone().stream(1, 2).run(&|_| {}, &stop).unwrap();
    assert_ne!(other.best, one.best);
    let longest = Hunt::new(setting, Goal::Longest(Metric::Rounds)).strategy(Strategy::Shapes);
    assert_eq!(
        longest.check(),
        Err(HuntError::CyclesOnly(Strategy::Shapes))
    );
}

/// A construction resumed from any of its checkpoints (which keep the pieces it knows) ends as
/// the whole hunt.
#[test]
fn a_construction_resumed_from_any_checkpoint_ends_as_the_whole_hunt() {
    let hunt = Hunt::new(rules("4x8", |s| s), Goal::Cycles)
        .strategy(Strategy::Construct)
        .games(Some(4096 + 300))
        .keep(50)
        .seed(9)
        .threads(2);
    let stop = AtomicBool::new(false);
    let mut saved = Vec::new();
    let whole = hunt
        .run_saving(&|_| {}, &stop, Duration::ZERO, &mut |c| {
            saved.push(c.clone());
        })
        .unwrap();
    // A checkpoint at the start and after each generation of 1,024 tasks but the last.
    assert_eq!(saved.len(), 5);
    assert!(saved[1].to_json().contains("\"pieces\":[\""));
    for checkpoint in &saved {
        let rest = resume_and_run(&hunt, checkpoint).1;
        assert_eq!((rest.games, &rest.best), (whole.games, &whole.best));
    }
    // A checkpoint whose pieces are not pieces is refused when read for the hunt, in a sentence.
    let json = saved[1].to_json();
    let at = json.find("\"pieces\":[\"").unwrap() + "\"pieces\":[".len();
    let corrupt = format!("{}\"1,2|3\",{}", &json[..at], &json[at..]);
    let read = Checkpoint::from_json(&corrupt).unwrap();
    let refused = hunt.clone().resume(&read).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "it is not a whole hunt checkpoint (its construction knows \"1,2|3\", which is no piece); move it away to start over"
    );
}

/// The streams of a construction join into the union of their cycles, each once, with the
/// games of every stream that reached it added up.
#[test]
fn a_construction_s_streams_join_into_the_union_of_their_cycles() {
    let stop = AtomicBool::new(false);
    let hunt = Hunt::new(rules("4x8", |s| s), Goal::Cycles)
        .strategy(Strategy::Construct)
        .games(Some(600))
        .keep(10_000)
        .threads(2);
    let streams: Vec<Report> = (0..2)
        .map(|k| {
            let one = hunt.clone().stream(k, 2);
            Report::of(&one, &one.run(&|_| {}, &stop).unwrap())
        })
        .collect();
    let joined = Report::join(&streams).unwrap();
    let mut reached = std::collections::HashMap::new();
    for row in streams.iter().flat_map(|r| &r.best) {
        *reached.entry(row.cycle.clone()).or_insert(0) += row.reached.unwrap();
    }
    assert_eq!(joined.best.len(), reached.len());
    assert!(joined.best.len() > streams[0].best.len());
    for row in &joined.best {
        assert_eq!(row.reached, Some(reached[&row.cycle]));
    }
}

/// Fault guarded: `hunt --deck 1x2 --for cycles --strategy construct` panicked (an index out
/// of bounds: no piece fits hands of one card). Every strategy, on every small deck and for
/// both goals, hunts (every deal kept replaying to what it says) or refuses in one sentence.
#[test]
fn every_strategy_on_every_small_deck_hunts_or_refuses_in_a_sentence() {
    let (mut hunted, mut refused) = (0, 0);
    for deck in [
        "1x2", "2x1", "1x3", "3x1", "2x2", "1x4", "2x3", "3x2", "1x5", "2x4",
    ] {
        let setting = rules(deck, |s| s);
        for strategy in Strategy::ALL.iter().copied() {
            for goal in [Goal::Cycles, Goal::Longest(Metric::Rounds)] {
                let hunt = Hunt::new(setting, goal)
                    .strategy(strategy)
                    .games(Some(300))
                    .threads(2);
                match hunt.check() {
                    Err(e) => {
                        let said = e.to_string();
                        assert!(!said.contains('\n') && !said.is_empty(), "{said}");
                        refused += 1;
                    }
                    Ok(()) => {
                        let found = hunt.run(&|_| {}, &AtomicBool::new(false)).unwrap();
                        assert_eq!(found.games, 300, "{deck} {strategy} {goal}");
                        for f in &found.best {
                            assert_eq!(replay(setting, &f.hands), f.result);
                        }
                        hunted += 1;
                    }
                }
            }
        }
    }
    assert_eq!(hunted + refused, 10 * Strategy::ALL.len() * 2);
    assert!(hunted >= 40 && refused >= 40, "{hunted} {refused}");
    let one_card = Hunt::new(rules("1x2", |s| s), Goal::Cycles).strategy(Strategy::Construct);
    assert_eq!(
        one_card.check(),
        Err(HuntError::Unbuildable(Unbuildable::Hands(1)))
    );
}

/// Fault guarded: a stop or the end of `--time` waited for the end of a generation of 4,096
/// tasks that walk back from shapes (about 30 s on 4x13). A generation now holds what its tasks cost, and the
/// strategies that build look at the stop before each try: a hunt given a millisecond plays
/// fewer games than one generation of the building strategies, at most one of the others.
#[test]
fn a_hunt_out_of_time_stops_inside_a_generation_of_builds() {
    let setting = rules("4x11", |s| s);
    let mut checked = 0;
    for strategy in Strategy::ALL.iter().copied() {
        let goal = match strategy {
            Strategy::Backward => Goal::Longest(Metric::Rounds),
            _ => Goal::Cycles,
        };
        let hunt = Hunt::new(setting, goal)
            .strategy(strategy)
            .games(None)
            .time(Some(Duration::from_millis(1)))
            .threads(2);
        let generation = hunt.plan().unwrap().generation as u64;
        let found = hunt.run(&|_| {}, &AtomicBool::new(false)).unwrap();
        match strategy.builds_cycles() {
            true => assert!(found.games < generation, "{strategy}: {}", found.games),
            false => assert!(found.games <= generation, "{strategy}: {}", found.games),
        }
        assert_eq!(
            found.built + found.fell_back,
            match strategy.builds_cycles() {
                true => found.games,
                false => 0,
            }
        );
        checked += 1;
    }
    assert_eq!(checked, Strategy::ALL.len());
}

/// A hunt of the shapes strategy stopped inside a generation keeps what that generation found, and its
/// checkpoint (the hunt before that generation) resumes to the whole hunt's deals.
#[test]
fn a_hunt_stopped_inside_a_generation_resumes_from_the_generation_s_start() {
    let hunt = Hunt::new(rules("4x11", |s| s), Goal::Cycles)
        .strategy(Strategy::Shapes)
        .games(Some(200))
        .keep(1000)
        .seed(4)
        .threads(2);
    let whole = hunt.run(&|_| {}, &AtomicBool::new(false)).unwrap();
    // Stopped a little way into its second generation, by the time.
    let stop = AtomicBool::new(false);
    let mut saved = Vec::new();
    let (mut first, mut checked) = (None, 0);
    for millis in [1u64, 5, 20, 80] {
        saved.clear();
        let timed = hunt.clone().time(Some(Duration::from_millis(millis)));
        let cut = timed
            .run_saving(&|_| {}, &stop, Duration::MAX, &mut |c| {
                saved.push(c.clone());
            })
            .unwrap();
        let last = saved.last().unwrap();
        assert!(last.games() <= cut.games);
        assert_eq!(last.games() % 64, 0, "a generation's start");
        first.get_or_insert(cut.games);
        let rest = resume_and_run(&hunt, last).1;
        assert_eq!((rest.games, &rest.best), (whole.games, &whole.best));
        checked += 1;
    }
    assert_eq!(checked, 4);
    assert!(first.unwrap() < 64);
}

/// Fault guarded: dropping `reached += 1` (the count that feeds cycles.csv's `deals_found`)
/// passed every test. The same looping deal given three times and a budget of three games: its
/// cycle reached three times.
#[test]
fn a_cycle_reached_by_three_deals_counts_three() {
    let setting = rules("4x4", |s| s);
    let hunt = Hunt::new(setting, Goal::Cycles).games(Some(20_000)).seed(1);
    let found = hunt.run(&|_| {}, &AtomicBool::new(false)).unwrap();
    let looping = found.best[0].hands.clone();
    let given = Hunt::new(setting, Goal::Cycles)
        .games(Some(3))
        .start(vec![looping.clone(); 3])
        .run(&|_| {}, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(given.best.len(), 1);
    assert_eq!((given.best[0].reached, given.cycles), (3, 1));
}

/// Fault guarded: cycles past `--keep` were neither counted nor logged. A hunt keeping one
/// cycle counts and logs as many distinct cycles as one keeping them all, and its log's deals
/// replayed name that many (the plain second implementation replays a report's log in
/// tests/suite/hunt.rs).
#[test]
fn every_distinct_cycle_is_counted_and_logged_whatever_is_kept() {
    let setting = rules("4x4", |s| s);
    let hunt = Hunt::new(setting, Goal::Cycles)
        .games(Some(100_000))
        .seed(7);
    let all = hunt
        .clone()
        .keep(10_000)
        .run(&|_| {}, &AtomicBool::new(false))
        .unwrap();
    let one = hunt.keep(1).run(&|_| {}, &AtomicBool::new(false)).unwrap();
    assert_eq!(one.best.len(), 1);
    assert!(all.best.len() >= 3, "{}", all.best.len());
    assert_eq!(one.cycles, all.best.len() as u64);
    assert_eq!(one.log.len() as u64, one.cycles);
    let mut engine = Engine::new(setting);
    let mut least = Vec::new();
    let mut named = std::collections::HashSet::new();
    for entry in &one.log {
        let order = deal::order_of(&setting, &entry.hands);
        let game = engine.play_order(&order);
        let Outcome::Infinite {
            cycle_start,
            cycle_length,
        } = game.outcome
        else {
            panic!("{:?} ends", entry.hands);
        };
        engine.least_state_of_order(&order, [cycle_start, cycle_length], &mut least);
        named.insert(least.clone());
    }
    assert_eq!(named.len() as u64, one.cycles);
}

/// Fault guarded: a report's or checkpoint's counts were trusted (`games` 2^64 - 1 finished a
/// hunt that played nothing, `generations` 2^64 - 1 wrapped, `uncounted` wrapped the budget, a
/// cycle kept twice was kept twice, a row found after 10^12 games of 8,192 was taken). Each
/// edit of a real report and checkpoint is refused in one sentence naming what is wrong.
#[test]
fn counts_read_from_files_are_checked() {
    let (_, json) = counted_report();
    assert!(Report::from_json(&json.to_string()).is_ok());
    assert!(json["best"].as_array().unwrap().len() >= 2, "{json}");
    let max = u64::MAX;
    let edits: Vec<(&str, Edit)> = vec![
        ("tasks hold", Box::new(move |r| r["games"] = max.into())),
        (
            "each plays one or more",
            Box::new(move |r| r["generations"] = max.into()),
        ),
        (
            "more than its 8192",
            Box::new(|r| r["best"][0]["games"] = 1_000_000_000_000u64.into()),
        ),
        (
            "kept twice",
            Box::new(|r| {
                let first = r["best"][0].clone();
                r["best"].as_array_mut().unwrap()[1] = first;
            }),
        ),
        (
            "games reached its cycle",
            Box::new(|r| r["best"][0]["reached"] = 0.into()),
        ),
        (
            "games reached its cycle",
            Box::new(|r| r["best"][0]["reached"] = 9_000.into()),
        ),
        (
            "only the backward strategy",
            Box::new(|r| r["steps"] = 5.into()),
        ),
        (
            "more than the 1 it keeps",
            Box::new(|r| r["keep"] = 1.into()),
        ),
        (
            "logged before",
            Box::new(|r| {
                let first = r["log"][0].clone();
                r["log"].as_array_mut().unwrap()[1] = first;
            }),
        ),
        ("distinct cycles", Box::new(|r| r["cycles"] = 99.into())),
        (
            "do not fit the random strategy",
            Box::new(|r| r["built"] = 3.into()),
        ),
    ];
    let mut refused = 0;
    for (said, edit) in &edits {
        let mut edited = json.clone();
        edit(&mut edited);
        let error = Report::from_json(&edited.to_string())
            .unwrap_err()
            .to_string();
        assert!(error.contains(said), "{said}: {error}");
        assert!(!error.contains('\n'), "{error}");
        refused += 1;
    }
    assert_eq!(refused, edits.len());
}

/// A change to a report's JSON.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

/// A hunt for cycles of 8,192 games keeping 4, and its report as JSON.
fn counted_report() -> (Hunt, serde_json::Value) {
    let setting = rules("4x4", |s| s);
    let hunt = Hunt::new(setting, Goal::Cycles)
        .games(Some(8_192))
        .keep(4)
        .seed(1);
    let report = Report::of(&hunt, &hunt.run(&|_| {}, &AtomicBool::new(false)).unwrap());
    (hunt, serde_json::from_str(&report.to_json()).unwrap())
}

/// Counts read from a checkpoint and summed by a join are checked too: a checkpoint whose
/// games of a continued hunt are more than its games, and two reports whose games, each
/// within a count, add up to more than one holds, are refused in one sentence.
#[test]
fn counts_of_checkpoints_and_joins_are_checked() {
    let (hunt, json) = counted_report();
    let (max, stop) = (u64::MAX, AtomicBool::new(true));
    let mut saved = None;
    hunt.run_saving(&|_| {}, &stop, Duration::MAX, &mut |c| {
        saved = Some(c.clone());
    })
    .unwrap();
    let mut checkpoint: serde_json::Value =
        serde_json::from_str(&saved.unwrap().to_json()).unwrap();
    checkpoint["uncounted"] = max.into();
    let error = Checkpoint::from_json(&checkpoint.to_string()).unwrap_err();
    assert!(
        error.to_string().contains("were a continued hunt's"),
        "{error}"
    );
    // Counts that read, each within a count, but whose sum is not.
    let mut huge = json.clone();
    huge["games"] = (1u64 << 63).into();
    huge["generations"] = (1u64 << 52).into();
    let mut other = huge.clone();
    huge["streams"] = serde_json::json!(["0/2"]);
    other["streams"] = serde_json::json!(["1/2"]);
    for r in [&mut huge, &mut other] {
        let stream = r["streams"][0].clone();
        for rows in ["best", "log"] {
            for row in r[rows].as_array_mut().unwrap() {
                row["stream"] = stream.clone();
            }
        }
    }
    let read = |r: &serde_json::Value| Report::from_json(&r.to_string()).unwrap();
    let error = Report::join(&[read(&huge), read(&other)]).unwrap_err();
    assert!(error.to_string().contains("add up to more than"), "{error}");
}
