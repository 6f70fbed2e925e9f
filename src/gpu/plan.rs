//! What the device kernel is told of a setting: the prelude of constants `kernel.cu` is built
//! with, each table written from the library's own definition, and the tallies' layout.

use crate::deal::mirror::Mirror;
use crate::deal::mirror::Weight;
use crate::deal::{dealt_span, SplitMix64, LCG_INCREMENT, LCG_MODULUS, LCG_MULTIPLIER};
use crate::engine::packed::{width, Width};
use crate::engine::{short_war, GameResult, Outcome};
use crate::rules::{gather, holds_war, Card, Direction, Gather, PickUp, Rules, WonPile};
use crate::{Seeds, Shuffle, Unfit};
use std::fmt::Write;

/// The kernel's source, without its prelude.
pub(crate) const KERNEL: &str = include_str!("kernel.cu");

/// The name under which the kernel includes its prelude.
#[cfg_attr(not(any(feature = "gpu", test)), allow(dead_code))]
pub(crate) const PRELUDE: &str = "prelude.h";

/// Where the prelude goes in [`KERNEL`].
#[cfg_attr(not(all(test, feature = "gpu")), allow(dead_code))]
const PRELUDE_AT: &str = "#include \"prelude.h\"";

/// Histogram bins of rounds, battles and wars: a game with more rounds, battles or wars is
/// listed with its result, and one that loops is handed back to the CPU. The longest 4x5 game
/// has 453 rounds; one 4x13 `bataille` game in 50 has more than 1,023.
pub(crate) const ROUND_BINS: usize = 1024;
pub(crate) const BATTLE_BINS: usize = 2048;
pub(crate) const WAR_BINS: usize = 512;

/// The tallies a launch returns, in this order: counts, the three records (`MOST`), then the
/// histograms of rounds, battles and wars (`BINS`).
pub(crate) const GAMES: usize = 0;
pub(crate) const WINS0: usize = 1;
pub(crate) const WINS1: usize = 2;
pub(crate) const DRAWS: usize = 3;
pub(crate) const BATTLES_PLAYED: usize = 4;
pub(crate) const LISTED: usize = 5;
pub(crate) const MOST: usize = 6;
pub(crate) const BINS: usize = 9;
#[cfg_attr(not(feature = "gpu"), allow(dead_code))]
pub(crate) const TALLIES: usize = BINS + ROUND_BINS + BATTLE_BINS + WAR_BINS;

/// A record is its value above `SEED_BITS` bits of the seed's complement: the larger value,
/// then the smaller seed, is the larger number (11 bits of value: below [`BATTLE_BINS`]).
pub(crate) const SEED_BITS: u32 = 53;

/// Most cards a hand of the kernel holds: four words of sixteen cards.
pub(crate) const MOST_CARDS: usize = 64;

/// Most values a deck of the kernel has: each stored plus one in four bits.
pub(crate) const MOST_VALUES: u8 = 15;

/// Seeds a launch deals where hands take one word (about a second of a 4x5 walk on one GPU),
/// and where they take more ([`WIDE_WINDOW`]: their games last longer).
const WINDOW: u64 = 1 << 31;
const WIDE_WINDOW: u64 = 1 << 24;

/// A game the kernel lists rather than counts (past the histograms, or looping) is two
/// numbers, its seed and its result: 0 for a game the CPU plays (one that loops), else bit 0
/// set, the end at bit [`END_AT`] (0: player 1 won, 1: player 2 won, 2: a draw), whether it
/// counts twice (with its mirror) at [`TWICE_AT`], its rounds in the 32 bits from
/// [`ROUNDS_BIT`], its wars in the [`WARS_BITS`] bits from [`WARS_BIT`]. A game of more rounds
/// ([`MOST_ROUNDS`]) or wars is handed back.
const END_AT: u32 = 1;
const TWICE_AT: u32 = 3;
const ROUNDS_BIT: u32 = 4;
const WARS_BIT: u32 = 36;
const WARS_BITS: u32 = 28;
const MOST_ROUNDS: u64 = (1 << 32) - 2;

/// A listed game's result, as [`WARS_BIT`] and the rest lay it out: [`None`] for a game the
/// CPU plays.
pub(crate) fn listed_result(result: u64) -> Option<(GameResult, Weight)> {
    if result & 1 == 0 {
        return None;
    }
    let rounds = result >> ROUNDS_BIT & u64::from(u32::MAX);
    let wars = result >> WARS_BIT;
    let outcome = match result >> END_AT & 3 {
        0 => Outcome::Win(0),
        1 => Outcome::Win(1),
        _ => Outcome::Draw,
    };
    let weight = match result >> TWICE_AT & 1 {
        0 => Weight::Once,
        _ => Weight::Twice,
    };
    let game = GameResult {
        outcome,
        rounds,
        battles: rounds + wars,
        wars,
    };
    Some((game, weight))
}

/// The steps of a pick-up, as the kernel reads them (`WS_PUT_*`): each code is its place here.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Step {
    End,
    Player1,
    Player2,
    Player1Latest,
    Player2Latest,
    Deciding1,
    Deciding2,
    Earlier,
    EarlierLatest,
    Revealed,
    Strongest,
}

impl Step {
    /// Every step, in the order of their codes.
    pub(crate) const ALL: [Step; 11] = [
        Step::End,
        Step::Player1,
        Step::Player2,
        Step::Player1Latest,
        Step::Player2Latest,
        Step::Deciding1,
        Step::Deciding2,
        Step::Earlier,
        Step::EarlierLatest,
        Step::Revealed,
        Step::Strongest,
    ];

    /// The kernel's name of the step, after `WS_PUT_`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Step::End => "END",
            Step::Player1 => "PLAYER1",
            Step::Player2 => "PLAYER2",
            Step::Player1Latest => "PLAYER1_LATEST",
            Step::Player2Latest => "PLAYER2_LATEST",
            Step::Deciding1 => "DECIDING1",
            Step::Deciding2 => "DECIDING2",
            Step::Earlier => "EARLIER",
            Step::EarlierLatest => "EARLIER_LATEST",
            Step::Revealed => "REVEALED",
            Step::Strongest => "STRONGEST",
        }
    }
}

/// Most steps of one pick-up, with the end.
const MOST_STEPS: usize = 4;

/// How a game ends, as the kernel codes it (`WS_WIN0`, ...) and `ws_war` holds it: negative,
/// unlike a count of cards face down; and the code of a game the kernel hands back to the CPU
/// (`WS_HANDED_BACK`), which no end of `ws_war` may take.
const ENDS: [(&str, i8); 4] = [
    ("WIN0", -1),
    ("WIN1", -2),
    ("DRAW", -3),
    ("HANDED_BACK", -4),
];

/// What of a sweep of `pairs` (a walk's whole range, or the seeds) under `rules`, dealt by
/// `shuffle`, the kernel cannot play; empty when it plays it all.
pub(crate) fn unfit(rules: &Rules, shuffle: Shuffle, pairs: Seeds) -> Vec<Unfit> {
    let mut reasons = Vec::new();
    if rules.players() != 2 {
        reasons.push(Unfit::Players(rules.players()));
    }
    if rules.gather() == Gather::Random {
        reasons.push(Unfit::Gather(rules.gather()));
    }
    if rules.won_pile() != WonPile::None {
        reasons.push(Unfit::WonPile);
    }
    let deck = rules.deck();
    let fits = deck.size() <= MOST_CARDS && deck.values() <= MOST_VALUES;
    if !fits {
        reasons.push(Unfit::Deck {
            deck,
            cards: deck.size(),
        });
    }
    // Records keep a seed in SEED_BITS bits; a walk's stepping counts up to the deals (of a
    // deck that fits, else the deck is the reason).
    let last = match shuffle {
        Shuffle::Lex if !fits => 0,
        Shuffle::Lex => deck.arrangements().to_u128().unwrap_or(u128::MAX),
        Shuffle::Lcg | Shuffle::Splitmix => pairs.end(),
    };
    if last > 1 << SEED_BITS {
        reasons.push(Unfit::Seeds(last));
    }
    reasons
}

/// The prelude being written: `#define`s and constant arrays.
struct Prelude(String);

impl Prelude {
    fn define(&mut self, name: &str, value: &dyn std::fmt::Display) {
        writeln!(self.0, "#define WS_{name} {value}").expect("a String takes every write");
    }

    fn array(&mut self, decl: &str, items: impl Iterator<Item = String>) {
        let items: Vec<String> = items.collect();
        writeln!(self.0, "{decl} = {{{}}};", items.join(", ")).expect("a String takes every write");
    }

    /// The shuffle (or a hunt's deals) and its generators' constants, and how many deals the
    /// deck has.
    fn shuffle(&mut self, shuffle: Shuffle, deck: crate::rules::Deck, hunt: Option<HuntDeals>) {
        self.define("LEX", &0);
        self.define("LCG", &1);
        self.define("SPLITMIX", &2);
        self.define("HUNT", &3);
        self.define("METRIC", &hunt.map_or(0, |h| h.metric));
        if let Some(h) = hunt {
            self.define("HUNT_BASE", &format!("u64({}ull)", h.base));
            self.define("HUNT_BATCH", &format!("u64({}ull)", h.batch));
        }
        let code = match (shuffle, hunt) {
            (_, Some(_)) => "HUNT",
            (Shuffle::Lex, None) => "LEX",
            (Shuffle::Lcg, None) => "LCG",
            (Shuffle::Splitmix, None) => "SPLITMIX",
        };
        self.define("SHUFFLE", &format!("WS_{code}"));
        let deals = deck.arrangements().to_u128().unwrap_or(u128::MAX);
        self.define("DEALS", &format!("u64({}ull)", deals.min(u64::MAX.into())));
        self.define("LCG_MODULUS", &format!("u64({LCG_MODULUS}ull)"));
        self.define("LCG_MULTIPLIER", &format!("u64({LCG_MULTIPLIER}ull)"));
        self.define("LCG_INCREMENT", &format!("u64({LCG_INCREMENT}ull)"));
        self.define("SPLITMIX_GAMMA", &format!("u64({}ull)", SplitMix64::GAMMA));
        self.define("SPLITMIX_MIX0", &format!("u64({}ull)", SplitMix64::MIX[0]));
        self.define("SPLITMIX_MIX1", &format!("u64({}ull)", SplitMix64::MIX[1]));
    }

    /// Where the kernel's tallies lie in the buffer the host reads, and how a listed game's
    /// result is laid out.
    fn tally_layout(&mut self) {
        for (name, at) in [
            ("END_AT", END_AT as usize),
            ("TWICE_AT", TWICE_AT as usize),
            ("ROUNDS_BIT", ROUNDS_BIT as usize),
            ("WARS_BIT", WARS_BIT as usize),
            ("WARS_BITS", WARS_BITS as usize),
            ("GAMES", GAMES),
            ("WINS0", WINS0),
            ("WINS1", WINS1),
            ("DRAWS", DRAWS),
            ("BATTLES_PLAYED", BATTLES_PLAYED),
            ("LISTED", LISTED),
            ("MOST", MOST),
            ("BINS", BINS),
            ("ROUND_BINS", ROUND_BINS),
            ("BATTLE_BINS", BATTLE_BINS),
            ("WAR_BINS", WAR_BINS),
            ("ROUNDS_AT", 0),
            ("BATTLES_AT", ROUND_BINS),
            ("WARS_AT", ROUND_BINS + BATTLE_BINS),
            ("ALL_BINS", ROUND_BINS + BATTLE_BINS + WAR_BINS),
            ("SEED_BITS", SEED_BITS as usize),
        ] {
            self.define(name, &at);
        }
        self.define("MOST_ROUNDS", &format!("{MOST_ROUNDS}u"));
    }

    /// The rules as constants: the gathers' pick-up steps, how a round ends, which value
    /// beats which.
    fn rules(&mut self, rules: &Rules, bits: u32) {
        for (code, step) in Step::ALL.iter().enumerate() {
            self.define(&format!("PUT_{}", step.name()), &code);
        }
        for (end, code) in ENDS {
            self.define(end, &format!("({code})"));
        }
        // Which value beats which as words, read with shifts rather than from memory.
        for (k, word) in beats(rules, bits).iter().enumerate() {
            self.define(&format!("BEATS{k}"), &format!("u64({word:#x}ull)"));
        }
        // The steps as constants, which the compiler folds into each winner's pick-up.
        for winner in 0..2 {
            let steps = pick_up_steps(rules, winner).map(|s| format!("WS_PUT_{}", s.name()));
            self.define(&format!("GATHER{winner}"), &steps.join(", "));
        }
    }
}

/// A walk as the kernel plays it: the prelude of constants the kernel is built with.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// The prelude, which the kernel includes as `prelude.h`.
    #[cfg_attr(not(any(feature = "gpu", test)), allow(dead_code))]
    pub(crate) prelude: String,
    /// Deals a launch walks at most.
    #[cfg_attr(not(any(feature = "gpu", test)), allow(dead_code))]
    pub(crate) window: u64,
}

/// A hunt's random deals as the kernel draws them: its `j`-th deal is the sorted deck
/// shuffled by splitmix from the seed `mix(mix(base, j / batch), j % batch)` (task `j % batch`
/// of generation `j / batch`, `base` its seed mixed with its stream), and a finished game's
/// value is its rounds, battles or wars (`metric`, 0 to 2).
#[derive(Clone, Copy, Debug)]
pub(crate) struct HuntDeals {
    pub(crate) base: u64,
    pub(crate) batch: u64,
    pub(crate) metric: u8,
}

impl Plan {
    /// The plan of a sweep of `pairs` under `rules` dealt by `shuffle`; in a `lex` walk,
    /// counting mirror deals together within `pairs` when `mirrors` (and the setting is
    /// symmetric), else every deal once.
    pub(crate) fn new(
        rules: &Rules,
        shuffle: Shuffle,
        pairs: Seeds,
        mirrors: bool,
    ) -> Result<Plan, Vec<Unfit>> {
        let reasons = unfit(rules, shuffle, pairs);
        if !reasons.is_empty() {
            return Err(reasons);
        }
        Ok(Plan::of(rules, shuffle, pairs, mirrors, None))
    }

    /// The plan of a hunt's random deals under `rules` (`deals`); the kernel lists the games
    /// a launch is asked for by their value, and those that loop.
    pub(crate) fn hunt(rules: &Rules, deals: HuntDeals) -> Result<Plan, Vec<Unfit>> {
        let none = Seeds::new(0, 1).expect("a range of one seed");
        let reasons = unfit(rules, Shuffle::Splitmix, none);
        if !reasons.is_empty() {
            return Err(reasons);
        }
        Ok(Plan::of(rules, Shuffle::Splitmix, none, false, Some(deals)))
    }

    /// The plan of a setting the kernel plays: a sweep's, or a hunt's (`hunt`, whose deals
    /// are splitmix's).
    fn of(
        rules: &Rules,
        shuffle: Shuffle,
        pairs: Seeds,
        mirrors: bool,
        hunt: Option<HuntDeals>,
    ) -> Plan {
        let deck = rules.deck();
        let n = deck.size();
        // One word where the hands fit one (three bits a card where four would not), else
        // four bits a card, sixteen a word.
        let (bits, words): (u32, usize) = match width(rules, n) {
            Some(Width::W64) => (4, 1),
            Some(Width::Tri) => (3, 1),
            Some(Width::W128) | None => (4, n.div_ceil(16)),
        };
        let mirror = mirrors.then(|| Mirror::of(rules, shuffle, pairs)).flatten();
        let mut p = Prelude(String::new());
        p.define("CARDS", &n);
        p.define("BITS", &bits);
        p.define("WORDS", &words);
        p.define("VALUES", &deck.values());
        p.shuffle(shuffle, deck, hunt);
        for player in 0..2 {
            let (start, step, count) = dealt_span(n, rules.deal(), 2, player);
            p.define(&format!("START{player}"), &start);
            p.define(&format!("STEP{player}"), &step);
            p.define(&format!("COUNT{player}"), &count);
        }
        p.define("MIRRORS", &u8::from(mirror.is_some()));
        let bounds = mirror.as_ref().and_then(Mirror::bounds);
        p.define("HAS_FIRST", &u8::from(bounds.is_some()));
        p.define(
            "HAS_PAST",
            &u8::from(bounds.is_some_and(|(_, past)| past.is_some())),
        );
        p.tally_layout();
        p.rules(rules, bits);
        // Deals as the kernel holds them: a shuffle's sorted deck, a walk's bounds.
        if shuffle != Shuffle::Lex {
            let sorted: Vec<u8> = deck.cards().into_iter().map(Card::value).collect();
            p.define("DECK", &packed(&sorted, bits, words));
        }
        if let Some((first, past)) = bounds {
            p.define("FIRST", &packed(first, bits, words));
            if let Some(past) = past {
                p.define("PAST", &packed(past, bits, words));
            }
        }
        // A walk counts its deals from the copies of each value.
        if shuffle == Shuffle::Lex {
            let copies = (0..deck.values()).map(|v| deck.count_of(v).to_string());
            p.array("WS_CONST u8 ws_copies[WS_VALUES]", copies);
        }
        p.array(
            "WS_TABLE signed char ws_war[(WS_CARDS + 1) * (WS_CARDS + 1)]",
            war_table(rules, n).iter().map(i8::to_string),
        );
        let window = if words == 1 { WINDOW } else { WIDE_WINDOW };
        Plan {
            prelude: p.0,
            window,
        }
    }

    /// The kernel with its prelude in place of its `#include`: one file, for a compiler given
    /// no headers (the PTX files tests keep).
    #[cfg_attr(not(all(test, feature = "gpu")), allow(dead_code))]
    pub(crate) fn source(&self) -> String {
        let source = KERNEL.replacen(PRELUDE_AT, &self.prelude, 1);
        debug_assert_ne!(source, KERNEL, "the kernel has its prelude's place");
        source
    }
}

/// A deal's values as the kernel holds a deal, an initializer of its `words` words: `bits`
/// bits a value, the first lowest, no value across two words.
fn packed(values: &[u8], bits: u32, words: usize) -> String {
    let per_word = 64 / bits as usize;
    let mut packed = vec![0u64; words];
    for (i, &v) in values.iter().enumerate() {
        packed[i / per_word] |= u64::from(v) << (bits as usize * (i % per_word));
    }
    let words: Vec<String> = packed.iter().map(|w| format!("u64({w:#x}ull)")).collect();
    format!("{{{{{}}}}}", words.join(", "))
}

/// Bit `a << bits | b` (of four words of 64) is set when stored value `a` (a value plus one)
/// beats stored value `b` in a battle of two cards: the ranking's own comparison
/// ([`Strength::strongest`](crate::rules::Strength::strongest)). Cards of three bits take one
/// word, of four bits all four.
fn beats(rules: &Rules, bits: u32) -> [u64; 4] {
    let strength = rules.strength();
    let values = rules.deck().values();
    let mut words = [0u64; 4];
    for a in 0..values {
        for b in (0..values).filter(|&b| b != a) {
            if strength.strongest([a, b]) == a {
                let at = (u32::from(a) + 1) << bits | (u32::from(b) + 1);
                words[at as usize / 64] |= 1 << (at % 64);
            }
        }
    }
    words
}

/// What a tie leads to when the players hold `left0` and `left1` cards past the table, at
/// `left0 * (n + 1) + left1`: the cards each puts face down (`holds_war`, else the short-war
/// policy), or the game's end as the kernel codes it ([`ENDS`]).
fn war_table(rules: &Rules, n: usize) -> Vec<i8> {
    let d = rules.face_down();
    let mut table = Vec::with_capacity((n + 1) * (n + 1));
    for left0 in 0..=n as u32 {
        for left1 in 0..=n as u32 {
            let down = if holds_war(d, left0.min(left1) as usize) {
                Ok(d as u32)
            } else {
                short_war(rules, &[0, 1], |q| if q == 0 { left0 } else { left1 })
            };
            let [(_, win0), (_, win1), (_, draw), _] = ENDS;
            table.push(match down {
                Ok(down) => i8::try_from(down).expect("at most MAX_FACE_DOWN face down"),
                Err(Outcome::Win(0)) => win0,
                Err(Outcome::Win(_)) => win1,
                Err(_) => draw,
            });
        }
    }
    table
}

/// The steps of `rules`' gather when `winner` (0 or 1) takes the table, as [`gather`] takes
/// them, ended by [`Step::End`].
pub(crate) fn pick_up_steps(rules: &Rules, winner: usize) -> [Step; MOST_STEPS] {
    let mut steps = Steps([Step::End; MOST_STEPS], 0);
    gather(rules.gather().order(), &mut steps, winner);
    steps.0
}

/// A pick-up that notes its steps rather than putting cards down.
struct Steps([Step; MOST_STEPS], usize);

impl Steps {
    fn note(&mut self, step: Step) {
        assert!(self.1 < MOST_STEPS - 1, "a pick-up of at most three steps");
        self.0[self.1] = step;
        self.1 += 1;
    }
}

impl PickUp for Steps {
    crate::rules::two_players!();
    fn put_player(&mut self, p: usize, direction: Direction) {
        let latest = direction == Direction::LatestFirst;
        self.note(match (p, latest) {
            (0, false) => Step::Player1,
            (_, false) => Step::Player2,
            (0, true) => Step::Player1Latest,
            (_, true) => Step::Player2Latest,
        });
    }
    fn put_deciding(&mut self, p: usize) {
        self.note(if p == 0 {
            Step::Deciding1
        } else {
            Step::Deciding2
        });
    }
    fn put_earlier(&mut self, direction: Direction) {
        self.note(match direction {
            Direction::AsPlayed => Step::Earlier,
            Direction::LatestFirst => Step::EarlierLatest,
        });
    }
    fn put_revealed(&mut self) {
        self.note(Step::Revealed);
    }
    fn put_strongest(&mut self) {
        self.note(Step::Strongest);
    }
    fn put_shuffled(&mut self) {
        unreachable!("`unfit` refuses the random gather")
    }
}
