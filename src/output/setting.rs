//! What a summary is about, apart from its numbers: its setting, typed, and as a summary writes
//! it (each part by name), read back into rules, compared between shards and described in one
//! line.

use crate::deal::Shuffle;
use crate::rules::{Preset, Rules, Settings, WonPile};
use serde::{Deserialize, Serialize};

/// What a summary is about, apart from its numbers: the rules, the shuffle, and the round cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepSetting {
    /// The rules.
    pub rules: Rules,
    /// The shuffle.
    pub shuffle: Shuffle,
    /// The round limit of games that cannot be checked for cycles.
    pub max_rounds: u64,
}

/// A setting as a summary file writes it: each part by its name (`"bataille"`, `"4x13"`). A hunt
/// report writes it too, but for the won pile, the shuffle and the round limit, which are every
/// hunt's own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SettingText {
    /// The preset the setting starts from.
    pub(crate) rules: String,
    /// The deck, as `CxV+J`.
    pub(crate) deck: String,
    /// Players.
    pub(crate) players: usize,
    /// Cards each tied player puts face down.
    pub(crate) face_down: usize,
    /// The short-war policy.
    pub(crate) short_war: String,
    /// The gather order.
    pub(crate) gather: String,
    /// The deal.
    pub(crate) deal: String,
    /// The ranking.
    pub(crate) ranking: String,
    /// Where won cards go.
    #[serde(skip, default = "no_won_pile")]
    pub(crate) won_pile: String,
    /// The shuffle.
    #[serde(skip, default = "hunt_shuffle")]
    pub(crate) shuffle: String,
    /// The round limit.
    #[serde(skip, default = "hunt_max_rounds")]
    pub(crate) max_rounds: u64,
}

/// The shuffle of a hunt's setting.
fn hunt_shuffle() -> String {
    Shuffle::Splitmix.name().to_string()
}

/// The round limit of a hunt's setting.
fn hunt_max_rounds() -> u64 {
    crate::engine::DEFAULT_MAX_ROUNDS
}

/// The `won_pile` of a summary that has none (written before won piles existed).
pub(crate) fn no_won_pile() -> String {
    WonPile::None.name().to_string()
}

impl SweepSetting {
    /// The setting of a sweep of `rules` dealt by `shuffle`.
    pub fn of(rules: &Rules, shuffle: Shuffle, max_rounds: u64) -> SweepSetting {
        SweepSetting {
            rules: *rules,
            shuffle,
            max_rounds,
        }
    }

    /// The setting as a summary writes it.
    pub(crate) fn text(&self) -> SettingText {
        let rules = &self.rules;
        SettingText {
            rules: rules.from_preset().name().to_string(),
            deck: rules.deck().to_string(),
            players: rules.players(),
            face_down: rules.face_down(),
            short_war: rules.short_war().name().to_string(),
            gather: rules.gather().name().to_string(),
            deal: rules.deal().name().to_string(),
            ranking: rules.ranking().name().to_string(),
            won_pile: rules.won_pile().name().to_string(),
            shuffle: self.shuffle.name().to_string(),
            max_rounds: self.max_rounds,
        }
    }

    /// Each part as `(name, value)`: the rules' parts ([`Rules::parts`]), the shuffle and the
    /// round limit.
    pub fn parts(&self) -> Vec<(&'static str, String)> {
        let mut parts = self.rules.parts();
        parts.push(("shuffle", self.shuffle.to_string()));
        parts.push(("max_rounds", self.max_rounds.to_string()));
        parts
    }

    /// `shortened rules, deck 4x13, 2 players, ...`: the whole setting in one line (won piles
    /// named only when there are some).
    pub fn describe(&self) -> String {
        let t = self.text();
        let piles = if self.rules.won_pile() == WonPile::None {
            String::new()
        } else {
            format!(", {} won piles", t.won_pile)
        };
        format!(
            "{} rules, deck {}, {} players, {} face down, short war {}, {} gather, {} deal, {} ranking{piles}, {} shuffle, max {} rounds",
            t.rules, t.deck, t.players, t.face_down, t.short_war, t.gather, t.deal, t.ranking, t.shuffle, t.max_rounds
        )
    }

    /// The first part in which `self` and `other` differ, as `deck 4x4 and 4x5`.
    pub fn difference(&self, other: &SweepSetting) -> Option<String> {
        self.parts()
            .into_iter()
            .zip(other.parts())
            .find(|(a, b)| a.1 != b.1)
            .map(|(a, b)| format!("{} {} and {}", said(a.0), a.1, b.1))
    }
}

/// A part's name in a sentence: `face_down` is `face down`.
pub(crate) fn said(part: &str) -> String {
    part.replace('_', " ")
}

impl SettingText {
    /// The setting these names describe, checked: every name one of its values, the whole
    /// accepted by [`Settings::build`], a round limit; or the part at fault and why.
    pub(crate) fn parse(&self) -> Result<SweepSetting, String> {
        fn parse<T: std::str::FromStr>(key: &str, name: &str) -> Result<T, String>
        where
            T::Err: std::fmt::Display,
        {
            name.parse::<T>().map_err(|e| format!("{key}: {e}"))
        }
        let mut settings = Settings::new(parse::<Preset>("rules", &self.rules)?)
            .players(self.players)
            .face_down(self.face_down);
        // The parts written by name are read as `Settings::part` reads any part by name.
        let named = [
            ("deck", &self.deck),
            ("short_war", &self.short_war),
            ("gather", &self.gather),
            ("deal", &self.deal),
            ("ranking", &self.ranking),
            ("won_pile", &self.won_pile),
        ];
        for (part, text) in named {
            settings = settings.part(part, text).map_err(|e| e.to_string())?;
        }
        let rules = settings.build().map_err(|e| e.to_string())?;
        let shuffle = parse::<Shuffle>("shuffle", &self.shuffle)?;
        crate::rules::check_max_rounds(self.max_rounds).map_err(|e| e.to_string())?;
        Ok(SweepSetting::of(&rules, shuffle, self.max_rounds))
    }
}
