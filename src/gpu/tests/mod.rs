//! The kernel, built for the CPU, against the library's own sweeps: the same summary, byte for
//! byte, for every kind of setting the GPU plays.

use super::host::{compile_for_a_gpu, Host};
use super::plan::Plan;
use super::{DeviceError, Unfit, Walker};
use crate::output::accumulator::Accumulator;
use crate::output::setting::SweepSetting;
use crate::output::summary::Summary;
use crate::rules::{Deal, Deck, Gather, Preset, Ranking, Rules, Settings, ShortWar};
use crate::sweep::{Covered, Sweep};
use crate::{Seeds, Shuffle};
use std::sync::atomic::{AtomicBool, Ordering};

mod hunts;
mod mutations;

/// What a comparison went through: seeds walked, games summarized (mirror deals counted
/// twice), games the kernel counted itself, games it listed with their results, deals it
/// handed back, launches.
#[derive(Default, Debug)]
struct Compared {
    seeds: u64,
    games: u64,
    counted: u64,
    listed: u64,
    handed: u64,
    launches: u64,
}

impl Compared {
    fn add(&mut self, c: &Compared) {
        self.seeds += c.seeds;
        self.games += c.games;
        self.counted += c.counted;
        self.listed += c.listed;
        self.handed += c.handed;
        self.launches += c.launches;
    }
}

/// A walk to compare: `seeds` of `rules`' walk, a shard of `0..whole` (else the whole walk),
/// with a table of cycles or not, counting mirror deals together or not.
#[derive(Clone, Copy)]
struct Walk {
    rules: Rules,
    shuffle: Shuffle,
    seeds: (u64, u64),
    whole: Option<u128>,
    cycles: bool,
    mirrors: bool,
}

impl Walk {
    /// `seeds` of a `lex` walk of `rules`, with mirror deals counted together where they can be.
    fn lex(rules: Rules, seeds: (u64, u64)) -> Walk {
        Walk {
            rules,
            shuffle: Shuffle::Lex,
            seeds,
            whole: None,
            cycles: true,
            mirrors: true,
        }
    }

    fn sweep(&self) -> (Sweep, Seeds) {
        let range = Seeds::new(self.seeds.0, self.seeds.1.into()).unwrap();
        let pairs = match self.whole {
            Some(whole) => Seeds::new(0, whole).unwrap(),
            None => range,
        };
        let sweep = Sweep::new(self.rules, self.shuffle, range)
            .threads(2)
            .cycles(self.cycles)
            .mirrors(self.mirrors)
            .shard_of(pairs);
        (sweep, pairs)
    }

    /// `seeds` of the whole `bataille` 4x5 walk, mirror deals counted together.
    fn research_4x5(seeds: (u64, u64)) -> Walk {
        Walk {
            whole: Some(305_540_235_000),
            cycles: false,
            ..Walk::lex(rules(Preset::Bataille, "4x5", |s| s), seeds)
        }
    }

    /// `seeds` of the 3x5 walk gathered strongest first, where games loop, with their cycles.
    fn looping_3x5(seeds: (u64, u64), mirrors: bool) -> Walk {
        let sorted = rules(Preset::Bataille, "3x5", |s| s.gather(Gather::Sorted));
        Walk {
            mirrors,
            ..Walk::lex(sorted, seeds)
        }
    }

    /// The kernel's plan for this walk.
    fn plan(&self) -> Plan {
        let (_, pairs) = self.sweep();
        Plan::new(&self.rules, self.shuffle, pairs, self.mirrors).expect("a setting the GPU plays")
    }

    /// The summary of what `played` covers, as a sweep writes it.
    fn summary(&self, played: &Covered) -> String {
        let (sweep, _) = self.sweep();
        let setting = SweepSetting::of(&self.rules, self.shuffle, sweep.max_rounds);
        let covered = sweep.seeds.up_to(played.covered_end);
        Summary::new(&setting, covered, &played.acc, 0.0).to_json()
    }

    /// The walk played on the CPU alone.
    fn on_the_cpu(&self) -> Covered {
        let (sweep, _) = self.sweep();
        let stop = AtomicBool::new(false);
        sweep
            .play_on(None, crate::sweep::Run::plain(&|_| {}, &stop))
            .unwrap()
    }

    /// The walk played on `device`, from `resume` if given, stopping after `windows` windows.
    fn on(
        &self,
        device: &mut dyn Walker,
        resume: Option<(u128, Accumulator)>,
        windows: Option<u64>,
    ) -> Covered {
        self.try_on(device, resume, windows).unwrap()
    }

    /// [`Walk::on`], or how the device failed.
    fn try_on(
        &self,
        device: &mut dyn Walker,
        resume: Option<(u128, Accumulator)>,
        windows: Option<u64>,
    ) -> Result<Covered, crate::sweep::SweepError> {
        let (sweep, _) = self.sweep();
        let stop = AtomicBool::new(false);
        let window = device.window();
        let (first, total) = (self.seeds.0, self.seeds.1 - self.seeds.0);
        let base = resume.as_ref().map_or(first, |(end, _)| *end as u64) - first;
        let played = std::sync::atomic::AtomicU64::new(0);
        let progress = |n: u64| {
            let now = played.fetch_add(n, Ordering::SeqCst) + n;
            if windows.is_some_and(|w| now >= w * window) && base + now < total {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let run = crate::sweep::Run {
            resume,
            ..crate::sweep::Run::plain(&progress, &stop)
        };
        sweep.play_on(Some(device), run)
    }

    /// Plays the walk on the CPU and on `device`, asserts the two summaries are the same, and
    /// says what was compared.
    fn compare_on(&self, device: &mut dyn Walker) -> Compared {
        let cpu = self.on_the_cpu();
        let gpu = self.on(device, None, None);
        assert_eq!(
            self.summary(&cpu),
            self.summary(&gpu),
            "{:?} over {:?}",
            self.rules,
            self.seeds
        );
        Compared {
            seeds: self.seeds.1 - self.seeds.0,
            games: cpu.acc.games,
            ..Compared::default()
        }
    }

    /// [`Walk::compare_on`] the kernel built for the CPU, with room for `capacity` deals handed
    /// back a launch.
    fn compare(&self, capacity: usize) -> Compared {
        let mut host = Host::build(&self.plan());
        host.capacity = capacity;
        let compared = self.compare_on(&mut host);
        Compared {
            counted: host.counted,
            listed: host.listed,
            handed: host.handed,
            launches: host.launches,
            ..compared
        }
    }
}

/// Plays `seeds` of `rules`' walk (a shard of `whole`) on the CPU and through the kernel built
/// for the CPU, asserts the two summaries are the same, and says what was compared.
fn compare(
    rules: Rules,
    seeds: (u64, u64),
    whole: Option<u128>,
    cycles: bool,
    mirrors: bool,
    capacity: usize,
) -> Compared {
    let walk = Walk {
        rules,
        shuffle: Shuffle::Lex,
        seeds,
        whole,
        cycles,
        mirrors,
    };
    walk.compare(capacity)
}

/// Every gather of a fixed order: all the GPU plays.
fn fixed_gathers() -> Vec<Gather> {
    let fixed = Gather::ALL.iter().filter(|&&g| g != Gather::Random);
    let gathers: Vec<Gather> = fixed.copied().collect();
    assert_eq!(gathers.len(), 8);
    gathers
}

fn rules(preset: Preset, deck: &str, build: impl FnOnce(Settings) -> Settings) -> Rules {
    build(Settings::new(preset).deck(Deck::parse(deck).unwrap()))
        .build()
        .unwrap()
}

/// The research walks: `bataille` on 4x4 (four bits a card) and 4x5 (three bits), shards of
/// the whole walk whose mirror deals count together, and every deal of a range; and walks
/// dealt round robin, whose mirror interleaves the hands.
#[test]
fn research_walks_summarize_alike() {
    let mut total = Compared::default();
    let (blocks, round_robin) = (Deal::Blocks, Deal::RoundRobin);
    let cases = [
        (
            "4x4",
            (30_000_000, 30_040_000),
            Some(63_063_000),
            true,
            blocks,
        ),
        ("4x4", (0, 20_000), Some(63_063_000), true, blocks),
        (
            "4x5",
            (150_000_000_000, 150_000_030_000),
            Some(305_540_235_000),
            true,
            blocks,
        ),
        (
            "4x5",
            (150_000_000_000, 150_000_020_000),
            None,
            false,
            blocks,
        ),
        ("2x4", (0, 2_520), None, true, blocks),
        ("3x4", (0, 369_600), None, true, blocks),
        ("2x4", (0, 2_520), None, true, round_robin),
        ("3x4", (120_000, 130_000), None, true, round_robin),
    ];
    for (deck, seeds, whole, mirrors, deal) in cases {
        let c = compare(
            rules(Preset::Bataille, deck, |s| s.deal(deal)),
            seeds,
            whole,
            false,
            mirrors,
            super::CAPACITY,
        );
        // The kernel played the games itself: the comparison is not of the CPU with itself.
        assert!(c.counted > 0, "{deck} {seeds:?}: {c:?}");
        total.add(&c);
    }
    // The whole 3x4 walk, mirror deals counted together: each of its 369,600 deals once.
    assert!(total.games >= 369_600, "{total:?}");
}

/// The `k`-th of 24 settings that together hold every gather the GPU plays with 0, 1 and 3
/// cards face down, and, in turn, each short-war policy, ranking (of `rankings`), deck (of
/// `decks`) and deal: `(k, deck, rules)` for each.
fn every_rule(decks: &[&'static str], rankings: &[Ranking]) -> Vec<(usize, &'static str, Rules)> {
    let mut settings = Vec::new();
    for gather in fixed_gathers() {
        for face_down in [0, 1, 3] {
            let k = settings.len();
            let deck = decks[k % decks.len()];
            let deal = [Deal::Blocks, Deal::RoundRobin][k % 2];
            let rules = rules(Preset::Bataille, deck, |s| {
                s.gather(gather)
                    .face_down(face_down)
                    .short_war(ShortWar::ALL[k % ShortWar::ALL.len()])
                    .ranking(rankings[k % rankings.len()])
                    .deal(deal)
            });
            settings.push((k, deck, rules));
        }
    }
    assert_eq!(settings.len(), 24);
    settings
}

/// Every gather the GPU plays, with and without cards face down, each short-war policy, both
/// deals, on decks of both card widths; games that loop are handed back and their cycles
/// tabled on the CPU.
#[test]
fn every_rule_summarizes_alike() {
    let decks = ["4x4", "3x5", "4x5", "2x7", "1x10+2"];
    let mut total = Compared::default();
    for (k, _, rules) in every_rule(&decks, &[Ranking::Standard]) {
        let start = 1_000_000 + 7_919 * k as u64;
        let seeds = (start, start + 4_000);
        let c = compare(rules, seeds, None, true, k % 3 != 0, super::CAPACITY);
        assert!(c.counted > 0, "{rules:?}: {c:?}");
        total.add(&c);
    }
    assert!(total.handed > 0, "{total:?}");
}

/// Decks past one word: 4x6 and 4x8 in two words a hand, 4x13 in four, and 1x13 in one, under
/// every fixed gather with 0, 1 and 3 cards face down, each short-war policy and ranking, both
/// deals; `lex` walks of 4x6 (mirror deals counted together or not), lcg and splitmix deals of
/// the others. The kernel counts most games, lists those past its histograms with their
/// results, and hands back those that loop, whose cycles the CPU tables.
#[test]
fn wide_decks_summarize_alike() {
    let rankings = [Ranking::Standard, Ranking::Oorlog, Ranking::Cyclic];
    let decks = ["4x6", "4x8", "4x13", "1x13"];
    let mut total = Compared::default();
    let mut seen = std::collections::BTreeSet::new();
    for (k, deck, rules) in every_rule(&decks, &rankings) {
        let shuffle = match (deck, k / decks.len() % 2) {
            ("4x6", _) => Shuffle::Lex,
            (_, 0) => Shuffle::Splitmix,
            _ => Shuffle::Lcg,
        };
        let start = 1_000_000 + 7_919 * k as u64;
        let walk = Walk {
            shuffle,
            mirrors: k % 3 != 0,
            ..Walk::lex(rules, (start, start + 3_000))
        };
        let c = walk.compare(super::CAPACITY);
        assert!(c.counted > 0, "{rules:?}: {c:?}");
        seen.insert((deck, shuffle.to_string()));
        total.add(&c);
    }
    // Every deck, each way of dealing it; games listed past the histograms, and games that
    // loop handed back.
    assert_eq!(seen.len(), 7, "{seen:?}");
    assert!(total.listed > 0 && total.handed > 0, "{total:?}");
}

/// Every ranking, on decks of 12 and 13 values (whose comparisons read the highest word of
/// which value beats which) and smaller ones: `cyclic`, and `oorlog` on decks where it changes
/// games (a 3, or a 2 and a 3, beside an ace), which the CPU's own summaries show.
#[test]
fn every_ranking_summarizes_alike() {
    let cases = [
        ("1x13", Ranking::Standard, Gather::Natural, 0),
        ("1x13", Ranking::Oorlog, Gather::Natural, 0),
        ("1x12", Ranking::Oorlog, Gather::WinnerFirst, 0),
        ("1x13", Ranking::Cyclic, Gather::Sorted, 0),
        ("1x12", Ranking::Cyclic, Gather::Reveal, 1),
        ("4x4", Ranking::Cyclic, Gather::Natural, 1),
        ("3x5", Ranking::Oorlog, Gather::LoserFirst, 0),
    ];
    let mut compared = 0;
    for (deck, ranking, gather, face_down) in cases {
        let setting = rules(Preset::Bataille, deck, |s| {
            s.ranking(ranking).gather(gather).face_down(face_down)
        });
        // Deals of every kind: shuffled, where a walk's first cards would stay the lowest.
        let shuffle = if deck.starts_with("1x") {
            Shuffle::Splitmix
        } else {
            Shuffle::Lex
        };
        let walk = Walk {
            shuffle,
            ..Walk::lex(setting, (2_000_000, 2_012_000))
        };
        if ranking == Ranking::Oorlog && setting.inert_ranking().is_none() {
            // The ranking changes these games: the standard ranking's summary differs.
            let standard = rules(Preset::Bataille, deck, |s| {
                s.ranking(Ranking::Standard)
                    .gather(gather)
                    .face_down(face_down)
            });
            let plain = Walk {
                shuffle,
                ..Walk::lex(standard, walk.seeds)
            };
            let (a, b) = (walk.on_the_cpu(), plain.on_the_cpu());
            assert_ne!(
                walk.summary(&a),
                plain.summary(&b),
                "{deck}: oorlog is inert"
            );
        }
        let c = walk.compare(super::CAPACITY);
        assert!(c.counted > 0, "{deck} {ranking}: {c:?}");
        compared += 1;
    }
    assert_eq!(compared, cases.len());
}

/// A record of value 0 at the last seed a record holds (2^53 - 1) encodes to 0, as no record
/// does: the kernel's record is still the CPU's (a sweep of that seed alone, whose game has no
/// war).
#[test]
fn a_record_of_value_0_at_the_last_seed_is_kept() {
    let last = (1u64 << 53) - 1;
    let walk = Walk {
        shuffle: Shuffle::Splitmix,
        ..Walk::lex(rules(Preset::Bataille, "1x8", |s| s), (last, last + 1))
    };
    let cpu = walk.on_the_cpu();
    let wars = cpu.acc.records.most_wars.expect("a record of the one game");
    assert_eq!((wars.value, wars.seed), (0, last));
    let c = walk.compare(super::CAPACITY);
    assert_eq!((c.counted, c.games), (1, 1));
}

/// Seeds past what a record holds are refused, each setting the kernel cannot play is named,
/// and every reason is given at once.
#[test]
fn settings_beyond_the_kernel_are_refused_by_name() {
    let all = Seeds::new(0, 100).unwrap();
    let bataille = |deck| rules(Preset::Bataille, deck, |s| s);
    let plan = |rules: &Rules, shuffle| Plan::new(rules, shuffle, all, true).map(|_| ());
    assert_eq!(plan(&bataille("4x5"), Shuffle::Lcg), Ok(()));
    assert_eq!(plan(&bataille("4x4"), Shuffle::Lex), Ok(()));
    let last = Seeds::new(0, 1 << 53).unwrap();
    let plan_last = Plan::new(&bataille("1x8"), Shuffle::Splitmix, last, true).map(|_| ());
    assert_eq!(plan_last, Ok(()));
    let far = Seeds::new(1 << 53, (1u128 << 53) + 10).unwrap();
    let plan_far = Plan::new(&bataille("4x4"), Shuffle::Splitmix, far, true).map(|_| ());
    assert_eq!(plan_far, Err(vec![Unfit::Seeds((1 << 53) + 10)]));
    let deck = |d: &str| Unfit::Deck {
        deck: Deck::parse(d).unwrap(),
        cards: Deck::parse(d).unwrap().size(),
    };
    // A walk of more deals than a record's seed holds; wide decks shuffled; decks past 64
    // cards or 15 values.
    let deals = Deck::parse("4x8")
        .unwrap()
        .arrangements()
        .to_u128()
        .unwrap();
    let refused = Err(vec![Unfit::Seeds(deals)]);
    assert_eq!(plan(&bataille("4x8"), Shuffle::Lex), refused);
    assert_eq!(plan(&bataille("4x6"), Shuffle::Lex), Ok(()));
    let classic = Rules::preset(Preset::Classic);
    assert_eq!(plan(&classic, Shuffle::Lcg), Ok(()));
    assert_eq!(plan(&bataille("4x15"), Shuffle::Splitmix), Ok(()));
    for past in ["5x13", "1x16", "3x22"] {
        let refused = Err(vec![deck(past)]);
        assert_eq!(plan(&bataille(past), Shuffle::Splitmix), refused, "{past}");
    }
    let random = rules(Preset::Bataille, "4x4", |s| s.gather(Gather::Random));
    let refused = vec![Unfit::Gather(Gather::Random)];
    assert_eq!(plan(&random, Shuffle::Lex), Err(refused));
    let oorlog = Rules::preset(Preset::Oorlog);
    let refused = vec![Unfit::Players(3), deck("8x13+4")];
    assert_eq!(plan(&oorlog, Shuffle::Lcg), Err(refused));
    // Each reason names what: the deck and its cards, the players, the gather.
    let said = DeviceError::Unfit(vec![Unfit::Players(3), deck("5x13")]).to_string();
    assert!(
        said.contains("not 3") && said.contains("the 5x13 deck has 65 cards"),
        "{said}"
    );
    assert!(!said.contains('\n'));
}

/// A walk of several launches (windows of 7,000 deals), and launches that hand back more deals
/// than they have room for, which are walked again in smaller launches: the CPU plays only the
/// deals handed back, and the summary is the CPU's.
#[test]
fn several_launches_and_launches_past_their_room_summarize_alike() {
    let walk = Walk::looping_3x5((2_000_000, 2_030_000), true);
    let mut host = Host::build(&walk.plan());
    host.window = 7_000;
    walk.compare_on(&mut host);
    assert_eq!(host.launches, 5);
    let everything = (host.counted, host.handed);
    for room in [1, 40] {
        let walk = Walk::looping_3x5((2_000_000, 2_003_000), true);
        let mut host = Host::build(&walk.plan());
        host.capacity = room;
        walk.compare_on(&mut host);
        // More handed back than the room: walked again in parts, each handing back at most
        // `room`, so there are more launches than one.
        assert!(host.handed > room as u64, "{room}: {}", host.handed);
        assert!(host.launches > host.handed / room as u64, "{room}");
        assert!(host.counted > 0);
    }
    assert!(everything.0 > 0 && everything.1 > 0);
}

/// A GPU sweep stopped after its first window and resumed from what it had counted (as a
/// checkpoint keeps it) ends with the summary of one uninterrupted walk: a walk whose mirror
/// deals count together, and a splitmix range.
#[test]
fn a_stopped_gpu_sweep_resumes_to_the_same_summary() {
    let walks = [
        Walk::lex(
            rules(Preset::Bataille, "4x4", |s| s),
            (1_000_000, 1_030_000),
        ),
        Walk {
            shuffle: Shuffle::Splitmix,
            ..Walk::lex(rules(Preset::Classic, "4x4", |s| s), (0, 30_000))
        },
    ];
    for walk in walks {
        let cpu = walk.on_the_cpu();
        let mut host = Host::build(&walk.plan());
        host.window = 10_000;
        let stopped = walk.on(&mut host, None, Some(1));
        assert_eq!(stopped.covered_end, u128::from(walk.seeds.0) + 10_000);
        let mut fresh = Host::build(&walk.plan());
        fresh.window = 10_000;
        let resumed = walk.on(&mut fresh, Some((stopped.covered_end, stopped.acc)), None);
        assert_eq!(resumed.covered_end, u128::from(walk.seeds.1));
        assert_eq!(walk.summary(&resumed), walk.summary(&cpu));
        assert_eq!(fresh.launches, 2);
    }
}

/// How often a thread's finished game is counted and its next dealt (every round, every third,
/// once a game) changes nothing counted: a walk with mirror deals, a looping one, a shuffle.
#[test]
fn deal_points_change_no_count() {
    let walks = [
        Walk::research_4x5((150_000_000_000, 150_000_030_000)),
        Walk::looping_3x5((2_000_000, 2_010_000), true),
        Walk {
            shuffle: Shuffle::Splitmix,
            ..Walk::lex(
                rules(Preset::Codingame, "4x4", |s| s.face_down(1)),
                (0, 10_000),
            )
        },
    ];
    let mut compared = 0;
    for walk in walks {
        for every in ["1", "3", "1000000"] {
            let define = format!("-DWS_DEAL_EVERY={every}");
            let mut host = Host::build_with(&walk.plan(), &[&define]);
            walk.compare_on(&mut host);
            assert!(host.counted > 0);
            compared += 1;
        }
    }
    assert_eq!(compared, 9);
}

/// Seeded sweeps: the sorted deck shuffled by lcg or splitmix, each rule family, both deals,
/// a deck of each card width; a range past lcg's distinct deals repeats them on both sides.
#[test]
fn seeded_sweeps_summarize_alike() {
    let settings = [
        (
            Shuffle::Lcg,
            rules(Preset::Classic, "4x4", |s| s),
            (0, 30_000),
        ),
        (
            Shuffle::Lcg,
            rules(Preset::Codingame, "3x6", |s| s.ranking(Ranking::Cyclic)),
            (2_090_000, 2_110_000),
        ),
        (
            Shuffle::Splitmix,
            rules(Preset::Shortened, "4x5", |s| s),
            (1 << 40, (1 << 40) + 20_000),
        ),
        (
            Shuffle::Splitmix,
            rules(Preset::Bataille, "5x4", |s| {
                s.gather(Gather::Sorted).deal(Deal::RoundRobin)
            }),
            (7, 20_007),
        ),
        (
            Shuffle::Lcg,
            rules(Preset::Oorlog, "2x8", |s| {
                s.players(2).short_war(ShortWar::MostCards)
            }),
            (500, 20_500),
        ),
    ];
    let mut handed = 0;
    for (shuffle, rules, seeds) in settings {
        let walk = Walk {
            shuffle,
            ..Walk::lex(rules, seeds)
        };
        let c = walk.compare(super::CAPACITY);
        assert_eq!(c.games, c.seeds);
        assert!(c.counted > 0);
        handed += c.handed;
    }
    assert!(handed > 0);
}

/// Says on stderr, past the harness's capture, that `test` did not run, and why.
fn not_here(test: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED gpu::tests::{test}: {why}");
}

/// Where `test` could not run: with `WARSWEEP_GPU=1` (set where a GPU is, by
/// `scripts/gpu-check.sh`) it fails with the reason; elsewhere it says on stderr, past the
/// harness's capture, that it did not run, and why.
pub(super) fn skipped(test: &str, why: &str) {
    if std::env::var_os("WARSWEEP_GPU").is_some_and(|v| v == "1") {
        panic!("gpu::tests::{test} did not run, and WARSWEEP_GPU=1 says it must: {why}");
    }
    not_here(test, why);
}

/// On a machine with a GPU and a build with the `gpu` feature, the GPU's summaries are the
/// CPU's (the 4x4 walk's start, a shard of the 4x5 walk, a looping setting with its cycles, a
/// splitmix range, a 1x13 walk of every ranking's word; 52 cards in four words, and a 4x8
/// setting that loops in two); elsewhere the test says why it did not run (and fails, with
/// `WARSWEEP_GPU=1`).
#[test]
fn the_gpu_summarizes_as_the_cpu() {
    let bataille = |deck| rules(Preset::Bataille, deck, |s| s);
    let walks = [
        Walk {
            whole: Some(63_063_000),
            ..Walk::lex(bataille("4x4"), (0, 5_000_000))
        },
        Walk::research_4x5((150_000_000_000, 150_200_000_000)),
        Walk::looping_3x5((0, 2_000_000), false),
        Walk {
            shuffle: Shuffle::Splitmix,
            ..Walk::lex(rules(Preset::Classic, "4x5", |s| s), (0, 20_000_000))
        },
        Walk::lex(
            rules(Preset::Bataille, "1x13", |s| s.ranking(Ranking::Oorlog)),
            (0, 20_000_000),
        ),
        Walk {
            shuffle: Shuffle::Splitmix,
            ..Walk::lex(bataille("4x13"), (0, 2_000_000))
        },
        Walk {
            shuffle: Shuffle::Lcg,
            ..Walk::lex(
                rules(Preset::Bataille, "4x8", |s| {
                    s.gather(Gather::Reveal).face_down(2)
                }),
                (0, 200_000),
            )
        },
    ];
    let mut compared = 0;
    for walk in walks {
        let mut device = match super::open(&walk.plan()) {
            Ok(device) => device,
            Err(why) => return skipped("the_gpu_summarizes_as_the_cpu", &why.to_string()),
        };
        walk.compare_on(&mut *device);
        compared += 1;
    }
    assert_eq!(compared, walks.len());
}

/// Plans of walks and both shuffles and each card width, to compile for a GPU, in this order
/// (the numbers of `nvrtc_compiles_the_kernel`'s PTX files): the 4x4 walk and a shard of the
/// 4x5 walk with mirror deals, 4x5 without, lcg `classic` 4x5, splitmix `shortened` 4x4
/// sorted; and hands of several words, splitmix `bataille` 4x13 and a shard of the 4x6 walk.
fn plans_for_a_gpu() -> Vec<Plan> {
    let bataille = |deck| rules(Preset::Bataille, deck, |s| s);
    let all = Seeds::new(0, 1_000).unwrap();
    let shard = Seeds::new(0, 305_540_235_000).unwrap();
    [
        Plan::new(&bataille("4x4"), Shuffle::Lex, all, true),
        Plan::new(&bataille("4x5"), Shuffle::Lex, shard, true),
        Plan::new(&bataille("4x5"), Shuffle::Lex, all, false),
        Plan::new(
            &rules(Preset::Classic, "4x5", |s| s),
            Shuffle::Lcg,
            all,
            true,
        ),
        Plan::new(
            &rules(Preset::Shortened, "4x4", |s| s.gather(Gather::Sorted)),
            Shuffle::Splitmix,
            all,
            true,
        ),
        Plan::new(&bataille("4x13"), Shuffle::Splitmix, all, true),
        Plan::new(
            &bataille("4x6"),
            Shuffle::Lex,
            Seeds::new(5, 3_000_000_000).unwrap(),
            true,
        ),
    ]
    .map(|plan| plan.expect("a setting the GPU plays"))
    .to_vec()
}

/// The kernel's GPU side (what the CPU build leaves out: shared memory, atomics, the launch)
/// compiles as CUDA, with clang where it is installed (CI installs it), for walks and both
/// shuffles and each card width; elsewhere the test says why it did not run.
#[test]
fn the_kernel_compiles_for_a_gpu() {
    let mut compiled = 0;
    for plan in plans_for_a_gpu() {
        match compile_for_a_gpu(&plan) {
            Some(Ok(())) => compiled += 1,
            Some(Err(why)) => panic!("the kernel does not compile as CUDA:\n{why}"),
            None => {
                let why = "clang is not installed (apt-get install clang)";
                return not_here("the_kernel_compiles_for_a_gpu", why);
            }
        }
    }
    assert_eq!(compiled, 7);
}

/// NVRTC, the compiler a sweep on a GPU uses, compiles the same plans for the GPUs of the last
/// three generations, each into the GPU's own code (a cubin, which a driver older than NVRTC
/// still loads) and into PTX, where NVRTC is installed (CI installs it from NVIDIA's Python
/// wheel; no GPU or driver is needed); elsewhere the test says why it did not run. A GPU newer
/// than NVRTC gets the PTX of the newest architecture NVRTC knows, for its driver to assemble.
/// With `WARSWEEP_PTX_DIR` set, it writes each plan's source, PTX and cubin there, for `ptxas -v`
/// or `cuobjdump -res-usage` to tell its registers and local memory (docs/performance.md).
#[cfg(feature = "gpu")]
#[test]
fn nvrtc_compiles_the_kernel() {
    let keep = std::env::var_os("WARSWEEP_PTX_DIR").map(std::path::PathBuf::from);
    let mut compiled = 0;
    for (i, plan) in plans_for_a_gpu().iter().enumerate() {
        for (major, minor) in [(8, 0), (8, 9), (9, 0), (99, 9)] {
            match super::cuda::compile(plan, major, minor) {
                Ok(code) => {
                    assert!(code.ptx.contains(".entry ws_walk("));
                    if major == 99 {
                        assert!(code.arch.starts_with("compute_"), "{}", code.arch);
                        assert!(code.cubin.is_none());
                    } else {
                        assert_eq!(code.arch, format!("sm_{major}{minor}"));
                        let cubin = code.cubin.as_ref().expect("a cubin for its architecture");
                        assert_eq!(&cubin[..4], b"\x7fELF");
                        assert!(cubin.windows(7).any(|w| w == b"ws_walk"));
                    }
                    if let Some(dir) = &keep {
                        if let Some(cubin) = &code.cubin {
                            let path = dir.join(format!("plan{i}-{}.cubin", code.arch));
                            std::fs::write(path, cubin).unwrap();
                        }
                        let path = dir.join(format!("plan{i}-{}.ptx", code.arch));
                        std::fs::write(path, &code.ptx).unwrap();
                        std::fs::write(dir.join(format!("plan{i}.cu")), plan.source()).unwrap();
                    }
                    compiled += 1;
                }
                Err(why @ DeviceError::NoNvrtc) => {
                    return skipped("nvrtc_compiles_the_kernel", &why.to_string());
                }
                Err(why) => panic!("{why}"),
            }
        }
    }
    assert_eq!(compiled, 28);
    // A GPU older than every architecture NVRTC knows is refused in one sentence.
    match super::cuda::compile(&plans_for_a_gpu()[0], 1, 0) {
        Err(why @ DeviceError::TooOld { .. }) => {
            let said = why.to_string();
            assert!(said.contains("this GPU's is 1.0"), "{said}");
            assert!(!said.contains('\n'), "{said}");
        }
        Err(why) => panic!("{why}"),
        Ok(code) => panic!("compiled for {}", code.arch),
    }
}

/// ptxas, the assembler a GPU's driver runs on NVRTC's PTX, finds every plan's thread in
/// registers for sm_90: no stack frame (local memory), no spill, and at most 64 registers for
/// hands of one word, so that four blocks of 256 threads share a multiprocessor (96 for wider
/// hands: two blocks). Where ptxas (`WARSWEEP_PTXAS`, else
/// on the `PATH`; CI installs it from NVIDIA's Python wheel) or NVRTC is missing, the test says
/// why it did not run.
#[cfg(feature = "gpu")]
#[test]
fn ptxas_keeps_each_thread_in_registers() {
    use std::process::Command;
    let ptxas = std::env::var_os("WARSWEEP_PTXAS").unwrap_or_else(|| "ptxas".into());
    if Command::new(&ptxas).arg("--version").output().is_err() {
        let why = "ptxas was not found (set WARSWEEP_PTXAS, or add CUDA's bin folder to PATH)";
        return skipped("ptxas_keeps_each_thread_in_registers", why);
    }
    let dir = tempfile::tempdir().unwrap();
    let mut assembled = 0;
    let mut used = Vec::new();
    for (i, plan) in plans_for_a_gpu().iter().enumerate() {
        let ptx = match super::cuda::compile(plan, 9, 0) {
            Ok(code) => code.ptx,
            Err(why) => return skipped("ptxas_keeps_each_thread_in_registers", &why.to_string()),
        };
        let path = dir.path().join(format!("plan{i}.ptx"));
        std::fs::write(&path, ptx).unwrap();
        let out = Command::new(&ptxas)
            .args(["-arch=sm_90", "-v", "-o"])
            .arg(dir.path().join(format!("plan{i}.cubin")))
            .arg(&path)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{report}");
        let registers: u32 = report
            .split("Used ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no register count in\n{report}"));
        assert!(
            report.contains("0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"),
            "plan {i} keeps memory on the stack:\n{report}"
        );
        // Hands of one word in 64 registers (four blocks of 256 threads a multiprocessor);
        // hands of two or four words, in which a game and its deal take four times as many,
        // in 96 (two blocks).
        let most = if plan.prelude.contains("#define WS_WORDS 1\n") {
            64
        } else {
            96
        };
        assert!(
            registers <= most,
            "plan {i}: {registers} registers\n{report}"
        );
        used.push(registers);
        assembled += 1;
    }
    assert_eq!(assembled, 7);
    eprintln!("registers of each plan: {used:?}");
}

/// With `WARSWEEP_HOST_DIR` set, writes there the kernel built for the CPU of the plans whose
/// instructions docs/performance.md counts with callgrind: `walk-4x5` (a shard of the 4x5
/// `bataille` walk, mirror deals counted together) and `splitmix-4x13` (`bataille` on the
/// whole deck), each a folder of its sources and its executable `walk`, which takes `FIRST
/// COUNT PER_THREAD CAPACITY` as `host.cpp` says. Elsewhere the test says why it wrote nothing.
#[test]
fn kernels_to_measure() {
    let Some(dir) = std::env::var_os("WARSWEEP_HOST_DIR") else {
        return not_here("kernels_to_measure", "WARSWEEP_HOST_DIR is not set");
    };
    let bataille = |deck| rules(Preset::Bataille, deck, |s| s);
    let walks = [
        ("walk-4x5", Walk::research_4x5((0, 1))),
        (
            "splitmix-4x13",
            Walk {
                shuffle: Shuffle::Splitmix,
                ..Walk::lex(bataille("4x13"), (0, 1))
            },
        ),
    ];
    for (name, walk) in walks {
        let host = Host::build(&walk.plan());
        let to = std::path::Path::new(&dir).join(name);
        std::fs::create_dir_all(&to).unwrap();
        // The sources too, for a build with `-g` that callgrind can annotate.
        for file in std::fs::read_dir(host.exe().parent().unwrap()).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, to.join(file.file_name().unwrap())).unwrap();
        }
    }
}
