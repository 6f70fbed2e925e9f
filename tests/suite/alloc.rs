//! The game loop allocates nothing: a counting allocator watches engines replay games they have
//! already played once. The first pass may size the snapshot history for the longest game: only
//! a game longer than every one before it, or a looping one, allocates, within a fixed bound.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use warsweep::Engine;
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::{Deck, Gather, Outcome, Preset, Rules, Settings};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed on unchanged to the system allocator, which upholds the
// contract; counting touches only a thread-local integer and allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's guarantees for `alloc` are the system allocator's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from the system's, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: as for `dealloc`, and `new_size` is the caller's, checked by its contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Allocations an engine's first pass may make: a snapshot for each of the history's 4,096
/// slots (`docs/architecture.md`), and room for a few buffers that double.
const MOST_FIRST_PASS: u64 = 4_096 + 64;

#[test]
fn playing_games_allocates_nothing() {
    let settings = [
        (Preset::Shortened, 2, None),
        (Preset::Codingame, 2, None),
        (Preset::Classic, 2, None),
        (Preset::Oorlog, 3, None),
        (Preset::Oorlog, 6, None),
        (Preset::Oorlog, 12, None),
        (Preset::Oorlog, 2, Some(Gather::WinnerFirst)),
        (Preset::Shortened, 2, Some(Gather::Random)),
        (Preset::Oorlog, 4, Some(Gather::Random)),
        (Preset::Classic, 2, Some(Gather::WinnerFirstLatest)),
        (Preset::Oorlog, 5, Some(Gather::WinnerFirstLatest)),
    ];
    let bataille = |deck: &str, gather| {
        let knobs = Settings::new(Preset::Bataille)
            .deck(Deck::parse(deck).unwrap())
            .gather(gather);
        knobs.build().unwrap()
    };
    let mut all: Vec<(Rules, Shuffle)> = settings
        .into_iter()
        .map(|(preset, players, gather)| {
            (
                Settings::new(preset)
                    .players(players)
                    .gather(gather)
                    .build()
                    .unwrap(),
                Shuffle::Lcg,
            )
        })
        .collect();
    all.push((bataille("4x4", None), Shuffle::Lex));
    all.push((bataille("8x64+8", Some(Gather::Sorted)), Shuffle::Splitmix));
    all.push((bataille("1x10", Some(Gather::Natural)), Shuffle::Lex));
    all.push((bataille("4x5", None), Shuffle::Lex));
    all.push((bataille("2x3", Some(Gather::Random)), Shuffle::Lcg));
    let mut checked = 0;
    for (rules, shuffle) in all {
        let (preset, players, gather) = (rules.from_preset(), rules.players(), rules.gather());
        let mut engine = Engine::new(rules);
        engine.set_max_rounds(20_000).unwrap();
        // The first pass: buffers grow to the longest game (the snapshot history) and to the
        // cycles met, so a game allocates only if it outlasts every finished game before it
        // or loops (its detection plays past its counts); never more than the history's slots.
        let (mut battles, mut longest, mut first_pass) = (0, 0, 0);
        for seed in 0..300 {
            let before = allocations();
            let game = engine.play_seed(shuffle, seed).unwrap();
            let made = allocations() - before;
            let loops = matches!(game.outcome, Outcome::Infinite { .. } | Outcome::Capped);
            assert!(
                made == 0 || loops || game.rounds > longest,
                "{:?} {} seed {seed}: {made} allocations in a game of {} rounds, shorter than one of {longest}",
                rules.from_preset(),
                rules.deck(),
                game.rounds
            );
            if !loops {
                longest = longest.max(game.rounds);
            }
            first_pass += made;
            battles += game.battles;
        }
        assert!(first_pass <= MOST_FIRST_PASS, "{first_pass} allocations");
        let before = allocations();
        let mut again = 0;
        for seed in 0..300 {
            again += engine.play_seed(shuffle, seed).unwrap().battles;
        }
        assert_eq!(again, battles);
        assert_eq!(
            allocations() - before,
            0,
            "{preset:?} {} {players}p {gather:?} allocated",
            rules.deck()
        );
        // The same deals as one run (the exhaustive walk's loop).
        let before = allocations();
        let mut walked = 0;
        engine
            .play_seeds(shuffle, Seeds::new(0, 300).unwrap(), |_, result| {
                walked += result.battles;
            })
            .unwrap();
        assert_eq!(walked, battles);
        assert_eq!(
            allocations() - before,
            0,
            "{preset:?} {} {players}p {gather:?} allocated in a run",
            rules.deck()
        );
        checked += 1;
    }
    assert_eq!(checked, 16);
}

/// The counter itself works: a test that could not fail would prove nothing.
#[test]
fn the_counter_sees_allocations() {
    let before = allocations();
    let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(10));
    drop(v);
    assert!(allocations() > before);
}
