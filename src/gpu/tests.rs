//! The kernel, built for the CPU, against the library's own sweeps: the same summary, byte for
//! byte, for every kind of setting the GPU plays.

use super::host::{compile_for_a_gpu, Host};
use super::plan::{Plan, Unfit};
use super::Walker;
use crate::output::summary::{Setting, Summary};
use crate::rules::{Deal, Deck, Gather, Preset, Ranking, Rules, Settings, ShortWar};
use crate::sweep::{Played, Sweep};
use crate::{Seeds, Shuffle};
use std::sync::atomic::AtomicBool;

/// What a comparison went through: seeds walked, games summarized (mirror deals counted
/// twice), games the kernel counted itself, deals it handed back.
#[derive(Default, Debug)]
struct Compared {
    seeds: u64,
    games: u64,
    counted: u64,
    handed: u64,
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
            rules: rules(Preset::Bataille, "4x5", |s| s),
            shuffle: Shuffle::Lex,
            seeds,
            whole: Some(305_540_235_000),
            cycles: false,
            mirrors: true,
        }
    }

    /// `seeds` of the 3x5 walk gathered strongest first, where games loop, with their cycles.
    fn looping_3x5(seeds: (u64, u64), mirrors: bool) -> Walk {
        Walk {
            rules: rules(Preset::Bataille, "3x5", |s| s.gather(Gather::Sorted)),
            shuffle: Shuffle::Lex,
            seeds,
            whole: None,
            cycles: true,
            mirrors,
        }
    }

    /// The kernel's plan for this walk.
    fn plan(&self) -> Plan {
        let (_, pairs) = self.sweep();
        Plan::new(&self.rules, self.shuffle, pairs, self.mirrors).expect("a setting the GPU plays")
    }

    /// Plays the walk on the CPU and on `device`, asserts the two summaries are the same, and
    /// says what was compared.
    fn compare_on(&self, device: &mut dyn Walker) -> Compared {
        let (sweep, _) = self.sweep();
        let stop = AtomicBool::new(false);
        let cpu = sweep
            .play_on(None, None, None, None, &|_| {}, &stop, None)
            .unwrap();
        let gpu = sweep
            .play_on(Some(device), None, None, None, &|_| {}, &stop, None)
            .unwrap();
        let summary = |played: &Played| {
            let setting = Setting::of(&self.rules, self.shuffle, sweep.max_rounds);
            let covered = sweep.seeds.up_to(played.covered_end);
            Summary::new(&setting, covered, &played.acc, 0.0).to_json()
        };
        assert_eq!(
            summary(&cpu),
            summary(&gpu),
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
            handed: host.handed,
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
        total.seeds += c.seeds;
        total.games += c.games;
        total.counted += c.counted;
        total.handed += c.handed;
    }
    assert_eq!(
        total.seeds,
        40_000 + 20_000 + 30_000 + 20_000 + 2_520 + 369_600 + 2_520 + 10_000
    );
    assert!(
        total.counted > total.games / 2 && total.counted <= total.games,
        "{total:?}"
    );
}

/// Every gather the GPU plays, with and without cards face down, each short-war policy, both
/// deals and every ranking, on decks of both card widths; games that loop are handed back and
/// their cycles tabled on the CPU.
#[test]
fn every_rule_summarizes_alike() {
    let gathers = [
        Gather::Reveal,
        Gather::P1First,
        Gather::WinnerFirst,
        Gather::LoserFirst,
        Gather::WinnerFirstLatest,
        Gather::Natural,
        Gather::PairFirst,
        Gather::Sorted,
    ];
    let policies = [
        ShortWar::Draw,
        ShortWar::Shorten,
        ShortWar::FirstOutLoses,
        ShortWar::MostCards,
    ];
    let rankings = [Ranking::Standard, Ranking::Oorlog, Ranking::Cyclic];
    let decks = ["4x4", "3x5", "4x5", "2x7", "1x10+2"];
    let mut total = Compared::default();
    let mut settings = 0;
    for (i, gather) in gathers.into_iter().enumerate() {
        for face_down in [0, 1, 3] {
            let k = i * 3 + face_down;
            let deck = decks[k % decks.len()];
            let rules = rules(Preset::Bataille, deck, |s| {
                s.gather(gather)
                    .face_down(face_down)
                    .short_war(policies[k % policies.len()])
                    .ranking(rankings[k % rankings.len()])
                    .deal(if k % 2 == 0 {
                        Deal::Blocks
                    } else {
                        Deal::RoundRobin
                    })
            });
            let start = 1_000_000 + 7_919 * k as u64;
            let c = compare(
                rules,
                (start, start + 4_000),
                None,
                true,
                k % 3 != 0,
                super::CAPACITY,
            );
            total.seeds += c.seeds;
            total.games += c.games;
            total.counted += c.counted;
            total.handed += c.handed;
            settings += 1;
        }
    }
    assert_eq!(settings, 24);
    assert_eq!(total.seeds, 24 * 4_000);
    assert!(total.counted > 0 && total.handed > 0, "{total:?}");
}

/// A launch that hands back more deals than it has room for is played whole on the CPU, and
/// one with room for a few plays those few there.
#[test]
fn launches_past_their_room_are_played_on_the_cpu() {
    for capacity in [0, 3, super::CAPACITY] {
        let c = Walk::looping_3x5((2_000_000, 2_010_000), true).compare(capacity);
        assert!(c.handed > 3, "{c:?}");
        assert_eq!(c.seeds, 10_000);
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
            rules: rules(Preset::Codingame, "4x4", |s| s.face_down(1)),
            shuffle: Shuffle::Splitmix,
            seeds: (0, 10_000),
            whole: None,
            cycles: true,
            mirrors: true,
        },
    ];
    let mut compared = 0;
    for walk in walks {
        for every in ["1", "3", "1000000"] {
            let define = format!("-DWS_DEAL_EVERY={every}");
            let mut host = Host::build_with(&walk.plan(), &[&define]);
            compared += walk.compare_on(&mut host).seeds;
            assert!(host.counted > 0);
        }
    }
    assert_eq!(compared, 3 * (30_000 + 10_000 + 10_000));
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
    let (mut total, mut handed) = (0, 0);
    for (shuffle, rules, seeds) in settings {
        let walk = Walk {
            rules,
            shuffle,
            seeds,
            whole: None,
            cycles: true,
            mirrors: true,
        };
        let c = walk.compare(super::CAPACITY);
        assert_eq!(c.games, c.seeds);
        total += c.seeds;
        handed += c.handed;
    }
    assert_eq!(total, 30_000 + 4 * 20_000);
    assert!(handed > 0);
}

/// What the GPU does not play is refused with its reason.
#[test]
fn settings_beyond_the_kernel_are_refused() {
    let all = Seeds::new(0, 100).unwrap();
    let bataille = |deck| rules(Preset::Bataille, deck, |s| s);
    let plan = |rules: &Rules, shuffle| Plan::new(rules, shuffle, all, true).map(|_| ());
    assert_eq!(plan(&bataille("4x5"), Shuffle::Lcg), Ok(()));
    let far = Seeds::new(1 << 53, (1u128 << 53) + 10).unwrap();
    let plan_far = Plan::new(&bataille("4x4"), Shuffle::Splitmix, far, true).map(|_| ());
    assert_eq!(plan_far, Err(Unfit::Seeds));
    assert_eq!(plan(&bataille("4x8"), Shuffle::Lex), Err(Unfit::Words));
    assert_eq!(
        plan(&Rules::preset(Preset::Classic), Shuffle::Lex),
        Err(Unfit::Words)
    );
    let random = rules(Preset::Bataille, "4x4", |s| s.gather(Gather::Random));
    assert_eq!(plan(&random, Shuffle::Lex), Err(Unfit::Words));
    assert_eq!(plan(&bataille("4x4"), Shuffle::Lex), Ok(()));
}

/// On a machine with a GPU and a build with the `gpu` feature, the GPU's summaries are the
/// CPU's (the 4x4 walk's start, a shard of the 4x5 walk, a looping setting with its cycles);
/// elsewhere the test says on stderr, past the harness's capture, why it did not run.
#[test]
fn the_gpu_summarizes_as_the_cpu() {
    let bataille = |deck| rules(Preset::Bataille, deck, |s| s);
    let walks = [
        Walk {
            rules: bataille("4x4"),
            shuffle: Shuffle::Lex,
            seeds: (0, 5_000_000),
            whole: Some(63_063_000),
            cycles: true,
            mirrors: true,
        },
        Walk::research_4x5((150_000_000_000, 150_200_000_000)),
        Walk::looping_3x5((0, 2_000_000), false),
        Walk {
            rules: rules(Preset::Classic, "4x5", |s| s),
            shuffle: Shuffle::Splitmix,
            seeds: (0, 20_000_000),
            whole: None,
            cycles: true,
            mirrors: true,
        },
    ];
    let mut seeds = 0;
    for walk in walks {
        let mut device = match super::open(&walk.plan()) {
            Ok(device) => device,
            Err(why) => return skipped("the_gpu_summarizes_as_the_cpu", &why),
        };
        seeds += walk.compare_on(&mut *device).seeds;
    }
    assert_eq!(seeds, 5_000_000 + 200_000_000 + 2_000_000 + 20_000_000);
}

/// Plans of walks and both shuffles and each card width, to compile for a GPU, in this order
/// (the numbers of `nvrtc_compiles_the_kernel`'s PTX files): the 4x4 walk and a shard of the
/// 4x5 walk with mirror deals, 4x5 without, lcg `classic` 4x5, splitmix `shortened` 4x4 sorted.
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
    ]
    .map(|plan| plan.expect("a setting the GPU plays"))
    .to_vec()
}

/// Says on stderr, past the harness's capture, that `test` did not run, and why.
fn skipped(test: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED gpu::tests::{test}: {why}");
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
                return skipped("the_kernel_compiles_for_a_gpu", why);
            }
        }
    }
    assert_eq!(compiled, 5);
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
                        std::fs::write(dir.join(format!("plan{i}.cu")), &plan.source).unwrap();
                    }
                    compiled += 1;
                }
                Err(why) if why.starts_with("NVRTC (libnvrtc.so") => {
                    return skipped("nvrtc_compiles_the_kernel", &why);
                }
                Err(why) => panic!("{why}"),
            }
        }
    }
    assert_eq!(compiled, 20);
    // A GPU older than every architecture NVRTC knows is refused in one sentence.
    match super::cuda::compile(&plans_for_a_gpu()[0], 1, 0) {
        Err(why) => {
            assert!(why.contains("this GPU's is 1.0"), "{why}");
            assert!(!why.contains('\n'), "{why}");
        }
        Ok(code) => panic!("compiled for {}", code.arch),
    }
}

/// ptxas, the assembler a GPU's driver runs on NVRTC's PTX, finds every plan's thread in
/// registers for sm_90: no stack frame (local memory), no spill, and at most 64 registers, so
/// that four blocks of 256 threads share a multiprocessor. Where ptxas (`WARSWEEP_PTXAS`, else
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
    for (i, plan) in plans_for_a_gpu().iter().enumerate() {
        let ptx = match super::cuda::compile(plan, 9, 0) {
            Ok(code) => code.ptx,
            Err(why) => return skipped("ptxas_keeps_each_thread_in_registers", &why),
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
        assert!(registers <= 64, "plan {i}: {registers} registers\n{report}");
        assembled += 1;
    }
    assert_eq!(assembled, 5);
}
