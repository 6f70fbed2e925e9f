//! The rule presets of RULES.md: who plays, how wars are fought when cards run short, how the
//! winner gathers the table, and how revealed cards are ranked.

use crate::cards::{Card, DeckKind, ACE, THREE};
use thiserror::Error;

/// Most players any preset allows (oorlog).
pub const MAX_PLAYERS: usize = 12;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Preset {
    Codingame,
    Shortened,
    Classic,
    Oorlog,
}

/// What happens when a tied player cannot put down D + 1 cards for a war.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ShortWar {
    /// The game ends in a draw (PAT).
    Draw,
    /// Both put down fewer cards: `n - 1` where `n` is the smaller remaining count.
    Shorten,
    /// The player who would run out first loses; running out together is a draw.
    FirstOutLoses,
    /// The game ends at once; the table is out of play; most cards wins.
    MostCardsWins,
}

/// The order in which the winner puts the table's cards under their deck.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Gather {
    /// The order the cards reached the table, player order within a moment.
    Reveal,
    /// Player 1's cards as played, then player 2's, and so on.
    P1First,
    /// The winner's cards as played, then every other player's in player order.
    WinnerFirst,
    /// Shuffled by a generator seeded from the game's seed: no cycle can be detected.
    Random,
}

/// How revealed cards are compared.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ranking {
    /// By value, ace highest.
    Standard,
    /// Ace/joker highest, but a 2 or 3 beats them when both are on the table.
    Oorlog,
}

/// What `play` counts in its result line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Count {
    Rounds,
    Battles,
}

impl Preset {
    pub const ALL: [Preset; 4] = [
        Preset::Codingame,
        Preset::Shortened,
        Preset::Classic,
        Preset::Oorlog,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Codingame => "codingame",
            Preset::Shortened => "shortened",
            Preset::Classic => "classic",
            Preset::Oorlog => "oorlog",
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Players allowed, and the default.
    pub fn players(self) -> (usize, usize, usize) {
        match self {
            Preset::Oorlog => (2, MAX_PLAYERS, 3),
            _ => (2, 2, 2),
        }
    }

    /// Cards each tied player puts face down in a war.
    pub fn face_down(self) -> usize {
        match self {
            Preset::Codingame | Preset::Shortened => 3,
            Preset::Classic | Preset::Oorlog => 1,
        }
    }

    pub fn short_war(self) -> ShortWar {
        match self {
            Preset::Codingame => ShortWar::Draw,
            Preset::Shortened => ShortWar::Shorten,
            Preset::Classic => ShortWar::FirstOutLoses,
            Preset::Oorlog => ShortWar::MostCardsWins,
        }
    }

    pub fn gather(self) -> Gather {
        match self {
            Preset::Codingame => Gather::P1First,
            Preset::Shortened | Preset::Oorlog => Gather::Reveal,
            Preset::Classic => Gather::WinnerFirst,
        }
    }

    pub fn ranking(self) -> Ranking {
        match self {
            Preset::Oorlog => Ranking::Oorlog,
            _ => Ranking::Standard,
        }
    }

    pub fn count(self) -> Count {
        match self {
            Preset::Shortened => Count::Battles,
            _ => Count::Rounds,
        }
    }

    pub fn deck(self) -> DeckKind {
        match self {
            Preset::Oorlog => DeckKind::Oorlog,
            _ => DeckKind::Standard,
        }
    }
}

impl Gather {
    pub const ALL: [Gather; 4] = [
        Gather::Reveal,
        Gather::P1First,
        Gather::WinnerFirst,
        Gather::Random,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Gather::Reveal => "reveal",
            Gather::P1First => "p1-first",
            Gather::WinnerFirst => "winner-first",
            Gather::Random => "random",
        }
    }

    pub fn from_name(name: &str) -> Option<Gather> {
        Gather::ALL.into_iter().find(|g| g.name() == name)
    }
}

#[derive(Error, Debug, PartialEq, Eq)]
pub enum RulesError {
    #[error("{preset} is played by exactly 2 players, not {players}")]
    TwoPlayersOnly {
        preset: &'static str,
        players: usize,
    },
    #[error("{preset} is played by {min} to {max} players, not {players}")]
    PlayerCount {
        preset: &'static str,
        min: usize,
        max: usize,
        players: usize,
    },
}

/// A validated setting: everything the engine needs to play a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    pub preset: Preset,
    pub players: usize,
    pub gather: Gather,
    pub face_down: usize,
    pub short_war: ShortWar,
    pub ranking: Ranking,
}

impl Rules {
    /// The preset as RULES.md defines it, with its default player count.
    pub fn preset(preset: Preset) -> Rules {
        Rules {
            preset,
            players: preset.players().2,
            gather: preset.gather(),
            face_down: preset.face_down(),
            short_war: preset.short_war(),
            ranking: preset.ranking(),
        }
    }

    /// A preset with an optional player count and gather order, checked against the preset.
    pub fn new(
        preset: Preset,
        players: Option<usize>,
        gather: Option<Gather>,
    ) -> Result<Rules, RulesError> {
        let mut rules = Rules::preset(preset);
        if let Some(players) = players {
            let (min, max, _) = preset.players();
            if players < min || players > max {
                return Err(if min == max {
                    RulesError::TwoPlayersOnly {
                        preset: preset.name(),
                        players,
                    }
                } else {
                    RulesError::PlayerCount {
                        preset: preset.name(),
                        min,
                        max,
                        players,
                    }
                });
            }
            rules.players = players;
        }
        if let Some(gather) = gather {
            rules.gather = gather;
        }
        Ok(rules)
    }

    /// Whether the game is deterministic, so that a non-ending game must repeat a state.
    pub fn detects_cycles(&self) -> bool {
        self.gather != Gather::Random
    }
}

/// Whether revealed value `a` beats `b` in a two-card battle (they differ).
#[inline(always)]
pub fn beats(ranking: Ranking, a: u8, b: u8) -> bool {
    match ranking {
        Ranking::Standard => a > b,
        Ranking::Oorlog => {
            if a == ACE && b <= THREE {
                false
            } else if b == ACE && a <= THREE {
                true
            } else {
                a > b
            }
        }
    }
}

/// The strongest value among the revealed `cards` under `ranking`: every player showing it is in
/// the lead. Under oorlog ranking, when an ace or joker meets a 2 or 3, the strongest 2 or 3
/// takes it. One pass, no branches on the cards, for the fast paths.
#[inline(always)]
pub fn strongest(ranking: Ranking, cards: &[Card]) -> u8 {
    let (mut max, mut low) = (0, 0);
    for card in cards {
        let v = card.value();
        max = max.max(v);
        // low: one more than the strongest 2 or 3 shown, 0 if none.
        low = low.max(if v <= THREE { v + 1 } else { 0 });
    }
    if ranking == Ranking::Oorlog && max == ACE && low > 0 {
        low - 1
    } else {
        max
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::TWO;

    #[test]
    fn presets_follow_the_table() {
        let r = Rules::preset(Preset::Codingame);
        assert_eq!((r.players, r.face_down, r.gather), (2, 3, Gather::P1First));
        let r = Rules::preset(Preset::Oorlog);
        assert_eq!((r.players, r.face_down, r.gather), (3, 1, Gather::Reveal));
        assert_eq!(Preset::Shortened.count(), Count::Battles);
        assert_eq!(Preset::Classic.gather(), Gather::WinnerFirst);
    }

    #[test]
    fn player_counts_are_checked() {
        assert!(Rules::new(Preset::Oorlog, Some(12), None).is_ok());
        assert!(Rules::new(Preset::Oorlog, Some(13), None).is_err());
        assert!(Rules::new(Preset::Oorlog, Some(1), None).is_err());
        let err = Rules::new(Preset::Codingame, Some(3), None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "codingame is played by exactly 2 players, not 3"
        );
    }

    fn values<const N: usize>(values: [u8; N]) -> [Card; N] {
        values.map(|v| Card::new(v, 0))
    }

    #[test]
    fn oorlog_twos_and_threes_beat_aces() {
        assert!(beats(Ranking::Oorlog, TWO, ACE));
        assert!(beats(Ranking::Oorlog, THREE, ACE));
        assert!(!beats(Ranking::Oorlog, ACE, TWO));
        assert!(beats(Ranking::Oorlog, ACE, 11));
        assert!(beats(Ranking::Oorlog, 10, TWO));
        assert!(beats(Ranking::Standard, ACE, TWO));
        // 3, joker, 2: the 3 wins. Ace, joker, 2: the 2 wins.
        assert_eq!(
            strongest(Ranking::Oorlog, &values([THREE, ACE, TWO])),
            THREE
        );
        assert_eq!(strongest(Ranking::Oorlog, &values([ACE, ACE, TWO])), TWO);
        assert_eq!(strongest(Ranking::Oorlog, &values([THREE, 10, 11])), 11);
        assert_eq!(strongest(Ranking::Standard, &values([ACE, ACE, TWO])), ACE);
    }
}
