//! What a summary is about, apart from its numbers: its setting as the summary writes it, read
//! back into rules, compared between shards and described in one line.

use crate::deal::Shuffle;
use crate::rules::{Deal, Deck, Gather, Preset, Ranking, Rules, Settings, ShortWar, WonPile};

/// What a summary is about, apart from its numbers: every part of the rules, the shuffle, and
/// the round cap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepSetting {
    /// The preset the setting starts from.
    pub rules: String,
    /// The deck, as `CxV+J`.
    pub deck: String,
    /// Players.
    pub players: usize,
    /// Cards each tied player puts face down.
    pub face_down: usize,
    /// The short-war policy.
    pub short_war: String,
    /// The gather order.
    pub gather: String,
    /// The deal.
    pub deal: String,
    /// The ranking.
    pub ranking: String,
    /// Where won cards go.
    pub won_pile: String,
    /// The shuffle.
    pub shuffle: String,
    /// The round limit of games that cannot be checked for cycles.
    pub max_rounds: u64,
}

/// The `won_pile` of a summary that has none (written before won piles existed).
pub(crate) fn no_won_pile() -> String {
    WonPile::None.name().to_string()
}

impl SweepSetting {
    /// The setting of a sweep of `rules` dealt by `shuffle`.
    pub fn of(rules: &Rules, shuffle: Shuffle, max_rounds: u64) -> SweepSetting {
        SweepSetting {
            rules: rules.from_preset().name().to_string(),
            deck: rules.deck().to_string(),
            players: rules.players(),
            face_down: rules.face_down(),
            short_war: rules.short_war().name().to_string(),
            gather: rules.gather().name().to_string(),
            deal: rules.deal().name().to_string(),
            ranking: rules.ranking().name().to_string(),
            won_pile: rules.won_pile().name().to_string(),
            shuffle: shuffle.name().to_string(),
            max_rounds,
        }
    }

    /// Each part as `(name, value)`, in the order the table prints them.
    pub fn parts(&self) -> [(&'static str, String); 11] {
        [
            ("rules", self.rules.clone()),
            ("deck", self.deck.clone()),
            ("players", self.players.to_string()),
            ("face-down", self.face_down.to_string()),
            ("short-war", self.short_war.clone()),
            ("gather", self.gather.clone()),
            ("deal", self.deal.clone()),
            ("ranking", self.ranking.clone()),
            ("won-pile", self.won_pile.clone()),
            ("shuffle", self.shuffle.clone()),
            ("max-rounds", self.max_rounds.to_string()),
        ]
    }

    /// `shortened rules, deck 4x13, 2 players, ...`: the whole setting in one line (won piles
    /// named only when there are some).
    pub fn describe(&self) -> String {
        let p = self.parts();
        let piles = if p[8].1 == no_won_pile() {
            String::new()
        } else {
            format!(", {} won piles", p[8].1)
        };
        format!(
            "{} rules, deck {}, {} players, {} face down, short war {}, {} gather, {} deal, {} ranking{piles}, {} shuffle, max {} rounds",
            p[0].1, p[1].1, p[2].1, p[3].1, p[4].1, p[5].1, p[6].1, p[7].1, p[9].1, p[10].1
        )
    }

    /// The rules of this setting, checked: every name one of its values, the whole accepted by
    /// [`Settings::build`], a shuffle, a round limit; or the part at fault and why.
    pub(crate) fn rules(&self) -> Result<Rules, String> {
        fn parse<T: std::str::FromStr>(key: &str, name: &str) -> Result<T, String>
        where
            T::Err: std::fmt::Display,
        {
            name.parse::<T>().map_err(|e| format!("{key}: {e}"))
        }
        let deck = Deck::parse(&self.deck).map_err(|e| format!("deck: {e}"))?;
        let rules = Settings::new(parse::<Preset>("rules", &self.rules)?)
            .deck(deck)
            .players(self.players)
            .face_down(self.face_down)
            .short_war(parse::<ShortWar>("short_war", &self.short_war)?)
            .gather(parse::<Gather>("gather", &self.gather)?)
            .deal(parse::<Deal>("deal", &self.deal)?)
            .ranking(parse::<Ranking>("ranking", &self.ranking)?)
            .won_pile(parse::<WonPile>("won_pile", &self.won_pile)?)
            .build()
            .map_err(|e| e.to_string())?;
        parse::<Shuffle>("shuffle", &self.shuffle)?;
        crate::rules::check_max_rounds(self.max_rounds).map_err(|e| e.to_string())?;
        Ok(rules)
    }

    /// The first part in which `self` and `other` differ, as `deck 4x4 and 4x5`.
    pub fn difference(&self, other: &SweepSetting) -> Option<String> {
        self.parts()
            .into_iter()
            .zip(other.parts())
            .find(|(a, b)| a.1 != b.1)
            .map(|(a, b)| format!("{} {} and {}", a.0, a.1, b.1))
    }
}
