//! The builders (`Settings`, `Engine`, `Sweep`) given arbitrary values, extremes included: each
//! refuses what it cannot play with a typed error and never panics, and every summary a sweep
//! returns reads back as itself and merges alone into itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::atomic::AtomicBool;
use warsweep::{Deal, Deck, Gather, Preset, Ranking, Settings, ShortWar, WonPile};
use warsweep::{Engine, Seeds, Shuffle, Summary, Sweep, SweepError};
use warsweep::{MAX_CARDS, MAX_PACING, MAX_THREADS};

/// Reads the input eight bytes at a time, 0 once it runs out.
struct Words<'a>(&'a [u8]);
impl Words<'_> {
    fn next(&mut self) -> u64 {
        let mut word = [0; 8];
        let n = self.0.len().min(8);
        word[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        u64::from_le_bytes(word)
    }
    fn size(&mut self) -> usize {
        self.next() as usize
    }
    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.size() % from.len()]
    }
}

fuzz_target!(|data: &[u8]| {
    let mut w = Words(data);
    // Any numbers in a deck's text: the parser refuses those outside its limits.
    let (copies, values, jokers) = (w.next() % 12, w.next() % 80, w.next() % 80);
    let Ok(deck) = Deck::parse(&format!("{copies}x{values}+{jokers}")) else {
        return;
    };
    let knobs = Settings::new(w.pick(&[Preset::Bataille, Preset::Classic, Preset::Oorlog]))
        .deck(deck)
        .players(w.size())
        .face_down(w.size())
        .short_war(w.pick(ShortWar::ALL))
        .gather(w.pick(Gather::ALL))
        .deal(w.pick(Deal::ALL))
        .ranking(w.pick(Ranking::ALL))
        .won_pile(w.pick(WonPile::ALL));
    let rules = match knobs.build() {
        Ok(rules) => rules,
        Err(refused) => return assert!(!refused.to_string().is_empty()),
    };
    // An engine of any capacity and round limit: refused past MAX_CARDS and at 0.
    let (capacity, limit) = (w.size(), w.next());
    match Engine::with_capacity(rules, capacity) {
        Ok(mut engine) => {
            assert!(capacity <= MAX_CARDS);
            assert_eq!(engine.set_max_rounds(limit).is_ok(), limit > 0);
            // Games in engines of a few thousand cards at most: one of 65,536 cards' room plays
            // on the general path with snapshots of that size, slowly under AddressSanitizer.
            if deck.size() <= 40 && capacity <= 4_096 {
                engine.set_max_rounds(1 + limit % 3_000).unwrap();
                let seed = w.next();
                let _ = engine.play_seed(w.pick(Shuffle::ALL), seed);
            }
        }
        Err(_) => assert!(capacity > MAX_CARDS),
    }
    // A sweep of any pacing, threads and round limit, of a few seeds of a small deck. Values in
    // range are kept small (a window of 2^24 rows is 0.8 GB; a thousand threads is slow).
    if deck.size() > 40 {
        return;
    }
    let start = w.next();
    let Ok(seeds) = Seeds::new(start, u128::from(start) + 1 + u128::from(w.next() % 40)) else {
        return;
    };
    let small = |n: usize, most: usize, room: usize| match n {
        1.. if n <= most => 1 + n % room,
        n => n,
    };
    let threads = small(w.size(), MAX_THREADS, 2);
    let (chunk, window) = (
        small(w.size(), MAX_PACING, 64),
        small(w.size(), MAX_PACING, 300),
    );
    let max_rounds = match w.next() {
        0 => 0,
        n => 1 + n % 3_000,
    };
    let sweep = Sweep::new(rules, w.pick(Shuffle::ALL), seeds)
        .max_rounds(max_rounds)
        .threads(threads)
        .pacing(chunk, window)
        .cycles(w.next() % 2 == 0)
        .mirrors(w.next() % 2 == 0);
    match sweep.run(None, &|_| {}, &AtomicBool::new(false)) {
        Ok(swept) => {
            assert!(max_rounds > 0 && (1..=MAX_THREADS).contains(&threads));
            let summary = swept.summary;
            let read = serde_json::from_str::<Summary>(&summary.to_json()).expect("reads back");
            assert_eq!(read.to_json(), summary.to_json());
            let merged = Summary::merge(std::slice::from_ref(&summary)).expect("merges");
            assert_eq!(merged.games(), summary.games());
        }
        Err(SweepError::Io(e)) => panic!("no sink, yet {e}"),
        Err(refused) => assert!(!refused.to_string().is_empty()),
    }
});
