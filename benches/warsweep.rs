//! Criterion benchmarks, one group per layer: dealing, the engine (games and battles per second
//! for each preset), the research settings (`bataille` on small decks, every deal in turn), and
//! the sweep end to end with and without CSV. Short on purpose: the whole set runs in a few
//! minutes. Full-range measurements are `scripts/measure.sh`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use warsweep::Deck;
use warsweep::Engine;
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::{CsvSink, Sweep};
use warsweep::{Preset, Rules, Settings};

fn configure() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

/// Dealing consecutive seeds into an engine's hands, as a sweep does: the generator stepped
/// from the previous seed's values, the deck shuffled and dealt.
fn deal(c: &mut Criterion) {
    let mut group = c.benchmark_group("deal");
    let deals = 1000u64;
    group.throughput(Throughput::Elements(deals));
    for (name, preset, shuffle) in [
        ("lcg-52", Preset::Shortened, Shuffle::Lcg),
        ("splitmix-52", Preset::Shortened, Shuffle::Splitmix),
        ("lcg-108", Preset::Oorlog, Shuffle::Lcg),
        ("splitmix-108", Preset::Oorlog, Shuffle::Splitmix),
    ] {
        let mut engine = Engine::new(Rules::preset(preset));
        let mut first = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                for seed in first..first + deals {
                    black_box(engine.deal(shuffle, black_box(seed)).unwrap().len());
                }
                first += deals;
            });
        });
    }
    group.finish();
}

/// The settings of the speed targets.
fn settings() -> Vec<(&'static str, Rules)> {
    vec![
        ("shortened", Rules::preset(Preset::Shortened)),
        ("codingame", Rules::preset(Preset::Codingame)),
        ("classic", Rules::preset(Preset::Classic)),
        (
            "oorlog-3p",
            Settings::new(Preset::Oorlog).players(3).build().unwrap(),
        ),
        (
            "oorlog-6p",
            Settings::new(Preset::Oorlog).players(6).build().unwrap(),
        ),
    ]
}

/// Plays seeds `0..games` of one setting; returns the battles played.
fn play_all(engine: &mut Engine, games: u64) -> u64 {
    (0..games)
        .map(|seed| engine.play_seed(Shuffle::Lcg, seed).unwrap().battles)
        .sum()
}

fn engine(c: &mut Criterion) {
    let games = 2000;
    for (per, group_name) in [("games", "engine-games"), ("battles", "engine-battles")] {
        let mut group = c.benchmark_group(group_name);
        for (name, rules) in settings() {
            let mut engine = Engine::new(rules);
            let battles = play_all(&mut engine, games);
            let elements = if per == "games" { games } else { battles };
            group.throughput(Throughput::Elements(elements));
            group.bench_function(name, |b| b.iter(|| black_box(play_all(&mut engine, games))));
        }
        group.finish();
    }
}

/// `bataille` on `deck`, as the research studies it.
fn bataille(deck: &str) -> Rules {
    let knobs = Settings::new(Preset::Bataille).deck(Deck::parse(deck).expect("a deck"));
    knobs.build().expect("bataille rules")
}

/// The exhaustive walk (`lex` deals in one loop, games resumed from the rounds consecutive
/// deals share) against the same deals played one at a time, and random deals of the 52-card
/// deck: the research's three speeds.
fn research(c: &mut Criterion) {
    let mut group = c.benchmark_group("research");
    let deals = 100_000u64;
    group.throughput(Throughput::Elements(deals));
    // Middle of each deck's range, where arrangements are typical.
    for (name, deck, first) in [
        ("lex-walk-4x4", "4x4", 20_000_000),
        ("lex-walk-4x5", "4x5", 152_770_117_500),
    ] {
        let mut engine = Engine::new(bataille(deck));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut battles = 0;
                engine
                    .play_seeds(
                        Shuffle::Lex,
                        Seeds::new(first, (first + deals).into()).unwrap(),
                        |_, result| {
                            battles += result.battles;
                        },
                    )
                    .unwrap();
                black_box(battles)
            });
        });
    }
    let mut engine = Engine::new(bataille("4x4"));
    group.bench_function("lex-one-by-one-4x4", |b| {
        b.iter(|| {
            let first = 20_000_000;
            let battles: u64 = (first..first + deals)
                .map(|seed| engine.play_seed(Shuffle::Lex, seed).unwrap().battles)
                .sum();
            black_box(battles)
        });
    });
    let mut engine = Engine::new(Rules::preset(Preset::Bataille));
    group.throughput(Throughput::Elements(deals / 10));
    group.bench_function("splitmix-4x13", |b| {
        b.iter(|| {
            let battles: u64 = (0..deals / 10)
                .map(|seed| engine.play_seed(Shuffle::Splitmix, seed).unwrap().battles)
                .sum();
            black_box(battles)
        });
    });
    group.finish();
}

fn sweep(c: &mut Criterion) {
    let mut group = c.benchmark_group("sweep");
    let seeds = Seeds::new(0, 20_000).unwrap();
    group.throughput(Throughput::Elements(20_000));
    let job = Sweep::new(Rules::preset(Preset::Shortened), Shuffle::Lcg, seeds).threads(2);
    let stop = AtomicBool::new(false);
    group.bench_function("shortened-2-threads", |b| {
        b.iter(|| black_box(job.run(None, &|_| {}, &stop).unwrap().summary.games()));
    });
    group.bench_function("shortened-2-threads-csv", |b| {
        b.iter(|| {
            let mut sink = CsvSink::new(std::io::sink());
            black_box(
                job.run(Some(&mut sink), &|_| {}, &stop)
                    .unwrap()
                    .summary
                    .games(),
            )
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = configure();
    targets = deal, engine, research, sweep
}
criterion_main!(benches);
