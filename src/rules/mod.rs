//! The rules of `docs/rules.md` as data: a preset names a starting point, every part of it (deck,
//! players, cards face down, short-war policy, gather order, deal, ranking) can be changed on its
//! own ([`Settings`]), and [`Settings::build`] checks the result once. The engine only ever sees a valid [`Rules`].

pub(crate) mod deck;
mod gather;
pub(crate) mod ranking;
mod settings;

pub use deck::{Card, CardError, Deck, DeckError, Excess, Missing};
pub(crate) use gather::{gather, of_two, two_players, Direction, Order, PickUp, Place, TwoCards};
pub use ranking::{Ranking, Strength};
pub use settings::{check_face_down, check_max_rounds, check_players, RulesError, Settings};

/// Most players any setting allows.
pub const MAX_PLAYERS: usize = 12;
/// Most cards a tied player may put face down.
pub const MAX_FACE_DOWN: usize = 8;

/// The rule presets of `docs/rules.md`: where a setting starts before its knobs change it.
///
/// ```
/// use warsweep::{Preset, Rules};
/// let oorlog: Preset = "oorlog".parse()?;
/// assert_eq!((oorlog, oorlog.to_string()), (Preset::Oorlog, "oorlog".to_string()));
/// assert_eq!(Rules::preset(oorlog).players(), 3);
/// assert_eq!(Preset::ALL.len(), 5);
/// # Ok::<(), warsweep::UnknownName>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Preset {
    /// CodinGame puzzle (seed 000)
    Codingame,
    /// Seed-004 puzzle, wars shortened to the cards left
    Shortened,
    /// Classic War (seed 002)
    Classic,
    /// Dutch Oorlog (seed 003), 2 to 12 players
    Oorlog,
    /// Open War of the research on the game (no card face down, natural gather)
    Bataille,
}

/// What happens when a tied player cannot put down D + 1 cards for a war.
///
/// ```
/// use warsweep::{Preset, Settings, ShortWar};
/// let rules = Settings::new(Preset::Classic).short_war(ShortWar::Shorten).build()?;
/// assert_eq!(rules.short_war().to_string(), "shorten");
/// assert_eq!("most-cards".parse::<ShortWar>()?, ShortWar::MostCards);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ShortWar {
    /// The game ends in a draw (PAT).
    Draw,
    /// Both put down fewer cards: `n - 1` where `n` is the smaller remaining count.
    Shorten,
    /// The player who would run out first loses; running out together is a draw.
    FirstOutLoses,
    /// The game ends at once; the table is out of play; most cards wins.
    MostCards,
}

/// The order in which the winner puts the table's cards under their deck.
///
/// ```
/// use warsweep::{Gather, Preset, Rules};
/// assert_eq!(Rules::preset(Preset::Codingame).gather(), Gather::P1First);
/// let names: Vec<String> = Gather::ALL.iter().map(Gather::to_string).collect();
/// assert_eq!(names[..3], ["reveal", "p1-first", "winner-first"]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Gather {
    /// The order the cards reached the table, player order within a moment.
    Reveal,
    /// Player 1's cards as played, then player 2's, and so on.
    P1First,
    /// The winner's cards as played, then every other player's in player order.
    WinnerFirst,
    /// Every other player's cards as played, in player order, then the winner's (Code Golf
    /// question 82340).
    LoserFirst,
    /// The winner's cards, the most recent first, then every other player's in player order,
    /// each player's the most recent first (the open-war program of sashamayn/war).
    WinnerFirstLatest,
    /// The winning card, the deciding battle's other cards in player order, then the rest of
    /// the table in reverse reveal order: how a hand picks up a pile.
    Natural,
    /// The winning card, the deciding battle's other cards in player order, then the rest of
    /// the table in reveal order (the Rosetta Code solutions).
    PairFirst,
    /// Strongest value first (ace or joker highest), equal values in reveal order.
    Sorted,
    /// Shuffled by a generator seeded from the game's seed: no cycle can be detected.
    Random,
}

impl Gather {
    /// Every gather, numbered in declaration order: the const parameter of the kernels that
    /// compile one loop per gather ([`Gather::of_code`] turns it back, so that the kernels match
    /// on the gather's [`Order`], exhaustively).
    pub(crate) const fn code(self) -> u8 {
        self as u8
    }

    /// The gather numbered `code` (see `code`).
    pub(crate) const fn of_code(code: u8) -> Gather {
        match code {
            0 => Gather::Reveal,
            1 => Gather::P1First,
            2 => Gather::WinnerFirst,
            3 => Gather::LoserFirst,
            4 => Gather::WinnerFirstLatest,
            5 => Gather::Natural,
            6 => Gather::PairFirst,
            7 => Gather::Sorted,
            8 => Gather::Random,
            _ => panic!("not the code of a gather"),
        }
    }

    /// What this gather does with the table, as a combination of [`Order`]'s parts: its one
    /// definition. What each part means is written once, in `gather`, which every kernel
    /// runs; a new gather that combines existing parts changes this function only.
    pub(crate) const fn order(self) -> Order {
        use Direction::{AsPlayed, LatestFirst};
        match self {
            Gather::Reveal => Order::Reveal,
            Gather::P1First => Order::ByPlayer(Place::InTurn, AsPlayed),
            Gather::WinnerFirst => Order::ByPlayer(Place::First, AsPlayed),
            Gather::LoserFirst => Order::ByPlayer(Place::Last, AsPlayed),
            Gather::WinnerFirstLatest => Order::ByPlayer(Place::First, LatestFirst),
            Gather::Natural => Order::DecidingFirst(LatestFirst),
            Gather::PairFirst => Order::DecidingFirst(AsPlayed),
            Gather::Sorted => Order::Strongest,
            Gather::Random => Order::Shuffled,
        }
    }
}

/// Runs `$go!(CODE)`, `CODE` being the const code of the gather `$gather` ([`Gather::code`]):
/// the one dispatch from a setting's gather to the kernels' const parameter, exhaustive.
macro_rules! with_gather_code {
    ($gather:expr, $go:ident) => {
        match $gather {
            $crate::rules::Gather::Reveal => $go!($crate::rules::Gather::Reveal.code()),
            $crate::rules::Gather::P1First => $go!($crate::rules::Gather::P1First.code()),
            $crate::rules::Gather::WinnerFirst => $go!($crate::rules::Gather::WinnerFirst.code()),
            $crate::rules::Gather::LoserFirst => $go!($crate::rules::Gather::LoserFirst.code()),
            $crate::rules::Gather::WinnerFirstLatest => {
                $go!($crate::rules::Gather::WinnerFirstLatest.code())
            }
            $crate::rules::Gather::Natural => $go!($crate::rules::Gather::Natural.code()),
            $crate::rules::Gather::PairFirst => $go!($crate::rules::Gather::PairFirst.code()),
            $crate::rules::Gather::Sorted => $go!($crate::rules::Gather::Sorted.code()),
            $crate::rules::Gather::Random => $go!($crate::rules::Gather::Random.code()),
        }
    };
}
pub(crate) use with_gather_code;

/// The cards a tied player puts into each battle of a war: `face_down` face down, then the one
/// revealed (`docs/rules.md`: "D cards face down, then reveals a new card").
#[inline(always)]
pub const fn war_cards(face_down: usize) -> usize {
    face_down + 1
}

/// Whether a tied player holding `left` cards can put down the cards of a war battle with
/// `face_down` face down; when one cannot, the short-war policy decides. The one test of every
/// path, scalar or in lanes.
#[inline(always)]
pub const fn holds_war(face_down: usize, left: usize) -> bool {
    left >= war_cards(face_down)
}

/// How the shuffled deck is split between the players.
///
/// ```
/// use warsweep::{Deal, Engine, Preset, Settings, Shuffle};
/// // Blocks: player 1 takes the first half of the shuffled deck, player 2 the rest.
/// let rules = Settings::new(Preset::Classic).deal(Deal::Blocks).build()?;
/// let hands = Engine::new(rules).deal(Shuffle::Lcg, 7)?;
/// assert_eq!((hands[0].len(), hands[1].len()), (26, 26));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Deal {
    /// One card at a time, player 1 first.
    RoundRobin,
    /// Consecutive blocks, player 1 first; the first blocks are the smaller ones.
    Blocks,
}

/// Where won cards go (`docs/rules.md`, "Won piles").
///
/// ```
/// use warsweep::{Preset, Settings, WonPile};
/// let rules = Settings::new(Preset::Classic).won_pile(WonPile::Shuffled).build()?;
/// assert_eq!(rules.won_pile().to_string(), "shuffled");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum WonPile {
    /// Straight to the bottom of the winner's hand.
    #[default]
    None,
    /// To a face-down won pile, shuffled into a new hand when the hand runs out (the home rule
    /// of most web simulators): no cycle can be detected.
    Shuffled,
}

/// What `play` counts in its result line.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Count {
    /// Finished rounds.
    Rounds,
    /// Battles.
    Battles,
}

macro_rules! named {
    ($type:ty, $($variant:ident = $name:literal $(| $alias:literal)*),+ $(,)?) => {
        impl $type {
            /// Every value, in the order the command line lists them.
            pub const ALL: &'static [$type] = &[$(<$type>::$variant),+];

            /// The name the command line and the summaries use.
            pub(crate) fn name(self) -> &'static str {
                match self { $(<$type>::$variant => $name),+ }
            }

            /// The value of that name, or of another name it has.
            pub(crate) fn from_name(name: &str) -> Option<$type> {
                match name {
                    $($($alias => return Some(<$type>::$variant),)*)+
                    _ => Self::ALL.iter().copied().find(|x| x.name() == name),
                }
            }
        }
        crate::rules::by_name!($type);
    };
}

/// `Display` and `FromStr` by the names the command line and the summaries use, for a type
/// with `ALL`, `name` and `from_name`.
macro_rules! by_name {
    ($type:ty) => {
        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $type {
            type Err = crate::rules::UnknownName;

            fn from_str(name: &str) -> Result<$type, crate::rules::UnknownName> {
                <$type>::from_name(name).ok_or_else(|| crate::rules::UnknownName {
                    name: name.to_string(),
                    names: <$type>::ALL.iter().map(|x| x.name()).collect(),
                })
            }
        }
    };
}
pub(crate) use by_name;
pub(crate) use named;

/// A name that is none of a rule's values (`"sideways".parse::<Gather>()`).
///
/// ```
/// use warsweep::Gather;
/// let refused = "sideways".parse::<Gather>().unwrap_err();
/// assert!(refused.to_string().starts_with("\"sideways\" is not one of reveal, p1-first"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    pub(crate) name: String,
    pub(crate) names: Vec<&'static str>,
}

impl std::fmt::Display for UnknownName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} is not one of {}", self.name, self.names.join(", "))
    }
}

impl std::error::Error for UnknownName {}

named!(
    Preset,
    Codingame = "codingame",
    Shortened = "shortened",
    Classic = "classic",
    Oorlog = "oorlog",
    Bataille = "bataille"
);
named!(
    ShortWar,
    Draw = "draw",
    Shorten = "shorten",
    FirstOutLoses = "first-out-loses",
    MostCards = "most-cards"
);
named!(
    Gather,
    Reveal = "reveal",
    P1First = "p1-first",
    WinnerFirst = "winner-first",
    LoserFirst = "loser-first",
    WinnerFirstLatest = "winner-first-latest",
    Natural = "natural",
    PairFirst = "pair-first",
    Sorted = "sorted",
    Random = "random"
);
named!(Deal, RoundRobin = "round-robin", Blocks = "blocks");
named!(WonPile, None = "none", Shuffled = "shuffled");

impl ShortWar {
    /// Whether the policy is defined for two players only.
    pub(crate) fn two_players_only(self) -> bool {
        match self {
            ShortWar::Draw | ShortWar::Shorten | ShortWar::FirstOutLoses => true,
            ShortWar::MostCards => false,
        }
    }
}

/// A validated setting: everything the engine needs to play a game.
///
/// ```
/// use warsweep::{Deck, Preset, Rules};
/// let rules = Rules::preset(Preset::Oorlog);
/// assert_eq!((rules.players(), rules.deck(), rules.face_down()), (3, Deck::OORLOG, 1));
/// assert!(!rules.symmetric());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// The preset the setting started from.
    preset: Preset,
    /// The deck.
    deck: Deck,
    /// Players, 2 to 12.
    players: usize,
    /// Cards each tied player puts face down, 0 to 8.
    face_down: usize,
    /// What happens when a tied player is short of cards.
    short_war: ShortWar,
    /// The order the winner picks the table up in.
    gather: Gather,
    /// How the deck is dealt.
    deal: Deal,
    /// How cards are compared.
    ranking: Ranking,
    /// The ranking applied to the deck (derived from `ranking` and `deck`).
    strength: Strength,
    /// Where won cards go.
    won_pile: WonPile,
}

impl Preset {
    /// The preset as docs/rules.md's table defines it.
    pub(crate) fn rules(self) -> Rules {
        use Preset::*;
        let deck = if self == Oorlog {
            Deck::OORLOG
        } else {
            Deck::STANDARD
        };
        let ranking = if self == Oorlog {
            Ranking::Oorlog
        } else {
            Ranking::Standard
        };
        let (face_down, short_war, gather) = match self {
            Codingame => (3, ShortWar::Draw, Gather::P1First),
            Shortened => (3, ShortWar::Shorten, Gather::Reveal),
            Classic => (1, ShortWar::FirstOutLoses, Gather::WinnerFirst),
            Oorlog => (1, ShortWar::MostCards, Gather::Reveal),
            Bataille => (0, ShortWar::FirstOutLoses, Gather::Natural),
        };
        Rules {
            preset: self,
            deck,
            players: if self == Oorlog { 3 } else { 2 },
            face_down,
            short_war,
            gather,
            deal: if self == Bataille {
                Deal::Blocks
            } else {
                Deal::RoundRobin
            },
            ranking,
            strength: Strength::new(ranking, deck),
            won_pile: WonPile::None,
        }
    }

    /// What `play` and `answer` print for a finished game.
    pub(crate) fn count(self) -> Count {
        match self {
            Preset::Shortened => Count::Battles,
            _ => Count::Rounds,
        }
    }
}

impl Rules {
    /// The preset the setting started from.
    #[inline(always)]
    pub fn from_preset(&self) -> Preset {
        self.preset
    }

    /// The deck.
    #[inline(always)]
    pub fn deck(&self) -> Deck {
        self.deck
    }

    /// Players, 2 to 12.
    #[inline(always)]
    pub fn players(&self) -> usize {
        self.players
    }

    /// Cards each tied player puts face down, 0 to 8.
    #[inline(always)]
    pub fn face_down(&self) -> usize {
        self.face_down
    }

    /// What happens when a tied player is short of cards.
    #[inline(always)]
    pub fn short_war(&self) -> ShortWar {
        self.short_war
    }

    /// The order the winner picks the table up in.
    #[inline(always)]
    pub fn gather(&self) -> Gather {
        self.gather
    }

    /// How the deck is dealt.
    #[inline(always)]
    pub fn deal(&self) -> Deal {
        self.deal
    }

    /// How cards are compared.
    #[inline(always)]
    pub fn ranking(&self) -> Ranking {
        self.ranking
    }

    /// The ranking applied to the deck (derived from `ranking` and `deck`).
    #[inline(always)]
    pub(crate) fn strength(&self) -> Strength {
        self.strength
    }

    /// The preset with its own defaults.
    pub fn preset(preset: Preset) -> Rules {
        preset.rules()
    }

    /// Where won cards go.
    #[inline(always)]
    pub fn won_pile(&self) -> WonPile {
        self.won_pile
    }

    /// What a player should know when the ranking compares as the standard one on this deck:
    /// the oorlog ranking on a deck without a 3 or without an ace, where its exception (2 and 3
    /// beat the ace) never applies. The games are the standard ranking's; the front-ends say so.
    pub fn inert_ranking(&self) -> Option<String> {
        let inert = match self.ranking {
            Ranking::Oorlog => self.strength.is_plain(),
            Ranking::Standard | Ranking::Cyclic => false,
        };
        inert.then(|| format!("the oorlog ranking lets 2 and 3 beat the ace, and the {} deck has no 3 or no ace: its games are the standard ranking's", self.deck))
    }

    /// Whether the game is deterministic, so that a non-ending game must repeat a state: not
    /// with the random gather or shuffled won piles, whose games `--max-rounds` caps.
    pub(crate) fn detects_cycles(&self) -> bool {
        self.gather.order() != Order::Shuffled && self.won_pile == WonPile::None
    }

    /// Whether the setting is symmetric (`docs/rules.md`, "Mirror deals"): swapping the two players'
    /// hands of every state swaps the players of the rest of the game, so that a deal and its
    /// mirror play the same game with the winner swapped.
    pub fn symmetric(&self) -> bool {
        let fair_gather = match self.gather {
            Gather::WinnerFirst
            | Gather::LoserFirst
            | Gather::WinnerFirstLatest
            | Gather::Sorted => true,
            // Every earlier card is one of a tied pair of equal values only in open war.
            Gather::Natural | Gather::PairFirst => self.face_down == 0,
            Gather::Reveal | Gather::P1First | Gather::Random => false,
        };
        let fair_ranking = match self.ranking {
            Ranking::Standard | Ranking::Cyclic => true,
            Ranking::Oorlog => false,
        };
        self.players == 2
            && self.deck.size().is_multiple_of(2)
            && fair_ranking
            && fair_gather
            && self.won_pile == WonPile::None
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn gather_codes_name_each_gather_once() {
        use super::*;
        for (i, &gather) in Gather::ALL.iter().enumerate() {
            assert_eq!(gather.code() as usize, i);
            assert_eq!(Gather::of_code(gather.code()), gather);
        }
    }

    use super::*;

    #[test]
    fn presets_follow_the_table() {
        let r = Rules::preset(Preset::Codingame);
        assert_eq!((r.players, r.face_down, r.gather), (2, 3, Gather::P1First));
        let r = Rules::preset(Preset::Oorlog);
        assert_eq!((r.players, r.face_down, r.gather), (3, 1, Gather::Reveal));
        assert_eq!(r.deck.size(), 108);
        assert_eq!(Preset::Shortened.count(), Count::Battles);
        assert_eq!(Rules::preset(Preset::Classic).gather, Gather::WinnerFirst);
        let b = Rules::preset(Preset::Bataille);
        assert_eq!(
            (b.face_down, b.short_war, b.gather, b.deal, b.deck),
            (
                0,
                ShortWar::FirstOutLoses,
                Gather::Natural,
                Deal::Blocks,
                Deck::STANDARD
            )
        );
    }

    #[test]
    fn settings_are_checked_as_a_whole() {
        assert!(Settings::new(Preset::Oorlog).players(12).build().is_ok());
        assert_eq!(
            Settings::new(Preset::Oorlog).players(13).build(),
            Err(RulesError::Players(13))
        );
        assert!(Settings::new(Preset::Oorlog).players(1).build().is_err());
        let err = Settings::new(Preset::Codingame)
            .players(3)
            .build()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "short_war: the draw short-war policy is for 2 players, not 3: most-cards plays more"
        );
        let mut named = std::collections::BTreeSet::new();
        for (settings, setting) in [
            (Settings::new(Preset::Oorlog).players(13), "players"),
            (Settings::new(Preset::Codingame).players(3), "short_war"),
            (Settings::new(Preset::Classic).face_down(9), "face_down"),
            (
                Settings::new(Preset::Classic)
                    .deck(Deck::parse("4x1").unwrap())
                    .ranking(Ranking::Cyclic),
                "ranking",
            ),
            (
                Settings::new(Preset::Oorlog)
                    .deck(Deck::parse("1x3").unwrap())
                    .players(4),
                "players",
            ),
        ] {
            let e = settings.build().unwrap_err();
            assert_eq!(e.setting(), setting);
            assert_eq!(e.to_string(), format!("{setting}: {}", e.reason()));
            named.insert(e.setting());
        }
        // Every setting `Settings` can refuse (`max_rounds` is the sweep's and the engine's).
        let parts = ["players", "short_war", "face_down", "ranking"];
        assert_eq!(named, parts.into_iter().collect());
        let knobs = |players, short_war| {
            Settings::new(Preset::Codingame)
                .players(players)
                .short_war(short_war)
        };
        assert!(knobs(5, ShortWar::MostCards).build().is_ok());
        let tiny = Settings::new(Preset::Oorlog)
            .deck(Deck::parse("1x3").unwrap())
            .players(4);
        assert!(matches!(tiny.build(), Err(RulesError::TooFewCards { .. })));
        let deep = Settings::new(Preset::Classic).face_down(9);
        assert_eq!(deep.build(), Err(RulesError::FaceDown(9)));
    }
}
