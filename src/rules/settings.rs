//! A setting before it is checked ([`Settings`]: a preset and the parts to change) and why one
//! cannot be played ([`RulesError`], naming the setting at fault).

use super::{Deal, Deck, Gather, Preset, Ranking, Rules, ShortWar, Strength, WonPile};
use super::{MAX_FACE_DOWN, MAX_PLAYERS};

/// The parts of a preset that a setting can change, listed once: each part's name (as
/// [`Settings`], [`RulesError::setting`], summaries and Python name it), its type (read from its
/// name by `FromStr`, written by `Display`) and what it is. [`Settings`], its setters,
/// [`Settings::part`] and [`Rules::parts`] are made from this list.
macro_rules! rules_parts {
    ($($(#[$doc:meta])* $name:ident: $type:ty;)*) => {
        /// A setting before it is checked: a preset and the parts of it to change. `build` checks
        /// the whole and returns the [`Rules`] the engine plays, or the first part that cannot be
        /// played.
        ///
        /// ```
        /// use warsweep::{Deck, Preset, Settings};
        /// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x4")?).face_down(1).build()?;
        /// assert_eq!((rules.deck().size(), rules.face_down(), rules.players()), (16, 1, 2));
        ///
        /// let refused = Settings::new(Preset::Classic).face_down(9).build().unwrap_err();
        /// assert_eq!(refused.setting(), "face_down");
        /// assert_eq!(refused.to_string(), "face_down: a war puts 0 to 8 cards face down, not 9");
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Settings {
            preset: Preset,
            $( $name: Option<$type>, )*
        }

        impl Settings {
            /// The preset as it is; each setter changes one part of it.
            pub fn new(preset: Preset) -> Settings {
                Settings { preset, $( $name: None, )* }
            }

            $(
                $(#[$doc])*
                ///
                /// [`None`] keeps the preset's (so a front-end passes its optional value).
                pub fn $name(mut self, $name: impl Into<Option<$type>>) -> Settings {
                    self.$name = $name.into();
                    self
                }
            )*

            /// Changes the part called `name` to the value written `text`, as a summary writes
            /// it (`"gather"`, `"p1-first"`); refuses a name no part has, or a value it cannot
            /// read, naming the part.
            ///
            /// ```
            /// use warsweep::{Gather, Preset, Settings};
            /// let rules = Settings::new(Preset::Classic).part("gather", "p1-first")?.build()?;
            /// assert_eq!(rules.gather(), Gather::P1First);
            /// let refused = Settings::new(Preset::Classic).part("gather", "sideways").unwrap_err();
            /// assert_eq!(refused.setting(), "gather");
            /// assert!(Settings::new(Preset::Classic).part("colour", "red").is_err());
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn part(mut self, name: &'static str, text: &str) -> Result<Settings, RulesError> {
                let unreadable = |reason: String| RulesError::Unreadable { setting: name, reason };
                match name {
                    $(
                        stringify!($name) => {
                            let value = text.parse::<$type>().map_err(|e| unreadable(e.to_string()))?;
                            self.$name = Some(value);
                        }
                    )*
                    _ => return Err(unreadable("no part of a setting has this name".to_string())),
                }
                Ok(self)
            }

            /// The preset's rules with the parts given changed, not yet checked.
            fn merged(self) -> Rules {
                let mut rules = self.preset.rules();
                $( rules.$name = self.$name.unwrap_or(rules.$name); )*
                rules
            }
        }

        impl Rules {
            /// Each part of the rules by its name, with its value as a summary writes it: the
            /// preset they started from (`rules`) first, then each part in order.
            ///
            /// ```
            /// use warsweep::{Preset, Rules};
            /// let parts = Rules::preset(Preset::Bataille).parts();
            /// assert_eq!(parts[0], ("rules", "bataille".to_string()));
            /// assert_eq!(parts[1], ("deck", "4x13".to_string()));
            /// ```
            pub fn parts(&self) -> Vec<(&'static str, String)> {
                let mut parts = vec![("rules", self.preset.to_string())];
                $( parts.push((stringify!($name), self.$name.to_string())); )*
                parts
            }

            /// The flags that name these rules on the command line: the preset, then each
            /// part that differs from the preset's own.
            ///
            /// ```
            /// use warsweep::{Deck, Preset, Settings};
            /// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x7").unwrap());
            /// assert_eq!(rules.build().unwrap().flags(), "--rules bataille --deck 4x7");
            /// ```
            pub fn flags(&self) -> String {
                let preset = Rules::preset(self.from_preset()).parts();
                let mut flags = Vec::new();
                for ((name, value), (_, default)) in self.parts().into_iter().zip(preset) {
                    if name == "rules" || value != default {
                        flags.push(format!("--{} {value}", name.replace('_', "-")));
                    }
                }
                flags.join(" ")
            }
        }
    };
}

rules_parts! {
    /// The deck.
    deck: Deck;
    /// The players, 2 to [`MAX_PLAYERS`].
    players: usize;
    /// The cards a tied player puts face down, 0 to [`MAX_FACE_DOWN`].
    face_down: usize;
    /// What happens when a tied player is short of cards.
    short_war: ShortWar;
    /// The order the winner picks the table up in.
    gather: Gather;
    /// How the deck is dealt.
    deal: Deal;
    /// How cards compare.
    ranking: Ranking;
    /// Where won cards go.
    won_pile: WonPile;
}

impl Settings {
    /// The rules, checked as a whole, or why they cannot be played.
    pub fn build(self) -> Result<Rules, RulesError> {
        let mut r = self.merged();
        r.strength = Strength::new(r.ranking, r.deck);
        check_players(r.players)?;
        if r.players > 2 && r.short_war.two_players_only() {
            return Err(RulesError::TwoPlayerPolicy {
                policy: r.short_war.name(),
                players: r.players,
            });
        }
        check_face_down(r.face_down)?;
        if r.ranking == Ranking::Cyclic && r.deck.values() < 2 {
            return Err(RulesError::OneValue(r.deck));
        }
        if r.players > r.deck.size() {
            return Err(RulesError::TooFewCards {
                deck: r.deck,
                cards: r.deck.size(),
                players: r.players,
            });
        }
        Ok(r)
    }
}

impl From<Preset> for Settings {
    fn from(preset: Preset) -> Settings {
        Settings::new(preset)
    }
}

/// Why a setting cannot be played. It displays as `setting: reason`, the setting named as the
/// library names it (`face_down`); a front-end names it its own way from `setting` and `reason`.
///
/// ```
/// use warsweep::{Preset, RulesError, Settings};
/// let refused = Settings::new(Preset::Oorlog).players(13).build().unwrap_err();
/// assert_eq!(refused, RulesError::Players(13));
/// assert_eq!((refused.setting(), refused.reason()), ("players", "a game has 2 to 12 players, not 13".to_string()));
/// ```
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// Fewer than 2 or more than 12 players.
    Players(usize),
    /// A two-player short-war policy with more players.
    TwoPlayerPolicy {
        /// The policy.
        policy: &'static str,
        /// The players.
        players: usize,
    },
    /// The cyclic ranking on a deck of one value.
    OneValue(Deck),
    /// More than 8 cards face down.
    FaceDown(usize),
    /// More players than cards.
    TooFewCards {
        /// The deck.
        deck: Deck,
        /// Its cards.
        cards: usize,
        /// The players.
        players: usize,
    },
    /// A round limit of 0, which plays no game.
    MaxRounds(u64),
    /// A part's value that cannot be read ([`Settings::part`]), or a name no part has.
    Unreadable {
        /// The part.
        setting: &'static str,
        /// Why.
        reason: String,
    },
}

impl RulesError {
    /// The setting at fault, as [`Settings`] and [`Sweep`](crate::Sweep) name it: `players`,
    /// `short_war`, `ranking`, `face_down`, `max_rounds`, or the part [`Settings::part`] could
    /// not read.
    pub fn setting(&self) -> &'static str {
        match self {
            RulesError::Players(_) | RulesError::TooFewCards { .. } => "players",
            RulesError::TwoPlayerPolicy { .. } => "short_war",
            RulesError::OneValue(_) => "ranking",
            RulesError::FaceDown(_) => "face_down",
            RulesError::MaxRounds(_) => "max_rounds",
            RulesError::Unreadable { setting, .. } => setting,
        }
    }

    /// What is wrong with it, without its name.
    pub fn reason(&self) -> String {
        match self {
            RulesError::Players(n) => format!("a game has 2 to {MAX_PLAYERS} players, not {n}"),
            RulesError::TwoPlayerPolicy { policy, players } => format!(
                "the {policy} short-war policy is for 2 players, not {players}: most-cards plays more"
            ),
            RulesError::OneValue(deck) => format!(
                "the cyclic ranking needs two values or more, and the {deck} deck has one"
            ),
            RulesError::FaceDown(n) => {
                format!("a war puts 0 to {MAX_FACE_DOWN} cards face down, not {n}")
            }
            RulesError::TooFewCards {
                deck,
                cards,
                players,
            } => format!(
                "the {deck} deck has {cards} cards: {players} players would leave someone without a card"
            ),
            RulesError::MaxRounds(n) => {
                format!("a game stops after 1 round or more, not {n}")
            }
            RulesError::Unreadable { reason, .. } => reason.clone(),
        }
    }
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.setting(), self.reason())
    }
}

impl std::error::Error for RulesError {}

/// `players` if a game can have that many: 2 to [`MAX_PLAYERS`].
pub fn check_players(players: usize) -> Result<usize, RulesError> {
    match players {
        2..=MAX_PLAYERS => Ok(players),
        _ => Err(RulesError::Players(players)),
    }
}

/// `max_rounds` if games can stop after that many rounds: 1 or more (a game capped at 0 rounds
/// would be no game, and no summary could hold it).
pub fn check_max_rounds(max_rounds: u64) -> Result<u64, RulesError> {
    match max_rounds {
        0 => Err(RulesError::MaxRounds(0)),
        n => Ok(n),
    }
}

/// `face_down` if a war can put that many cards face down: 0 to [`MAX_FACE_DOWN`].
pub fn check_face_down(face_down: usize) -> Result<usize, RulesError> {
    match face_down {
        0..=MAX_FACE_DOWN => Ok(face_down),
        _ => Err(RulesError::FaceDown(face_down)),
    }
}
