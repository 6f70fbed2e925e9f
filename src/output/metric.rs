//! The quantities measured of every game, named once for the tallies, the table, the JSON
//! summary, the histogram CSV and the plots.

/// A quantity measured of each finished game (rounds, battles, wars), of each infinite one
/// (where its cycle starts, how long it is) or of each game stopped by the round limit (its
/// rounds, battles and wars, apart from the finished games'): what a summary's statistics and
/// histograms are of, and what `plot` draws. Written and read as its name (`cycle_length`).
///
/// ```
/// use warsweep::{Metric, Preset, Rules, Seeds, Shuffle, Sweep};
/// let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 100)?);
/// let swept = sweep.run(None, &|_| {}, &Default::default())?;
/// let battles = swept.summary.stats(Metric::Battles);
/// assert!(battles.count > 0 && battles.min <= battles.max);
/// assert_eq!(Metric::CycleLength.to_string(), "cycle_length");
/// assert_eq!("wars".parse::<Metric>()?, Metric::Wars);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[cfg_attr(feature = "cli", value(rename_all = "snake_case"))]
pub enum Metric {
    /// Rounds of finished games
    Rounds,
    /// Battles of finished games
    Battles,
    /// Wars of finished games
    Wars,
    /// The round where an infinite game's cycle starts
    CycleStart,
    /// Rounds in the cycle of an infinite game
    CycleLength,
    /// Rounds of games stopped by the round limit (the limit itself)
    CappedRounds,
    /// Battles of games stopped by the round limit
    CappedBattles,
    /// Wars of games stopped by the round limit
    CappedWars,
}

/// The games a metric is measured of.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Measured {
    /// Won or drawn games.
    Finished,
    /// Games that never end.
    Infinite,
    /// Games stopped by the round limit.
    Capped,
}

crate::rules::by_name!(Metric);

impl Metric {
    /// Every metric, in the order the summary, the table and the histogram CSV list them; the
    /// tallies are kept in this order ([`Metric::index`]).
    pub(crate) const ALL: [Metric; 8] = [
        Metric::Rounds,
        Metric::Battles,
        Metric::Wars,
        Metric::CycleStart,
        Metric::CycleLength,
        Metric::CappedRounds,
        Metric::CappedBattles,
        Metric::CappedWars,
    ];

    /// Its name in the JSON summary, the histogram CSV and `plot --metric`: the one list of
    /// names (`--metric` spells the variants in snake case: a test checks they agree).
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Metric::Rounds => "rounds",
            Metric::Battles => "battles",
            Metric::Wars => "wars",
            Metric::CycleStart => "cycle_start",
            Metric::CycleLength => "cycle_length",
            Metric::CappedRounds => "capped_rounds",
            Metric::CappedBattles => "capped_battles",
            Metric::CappedWars => "capped_wars",
        }
    }

    /// The metric of that name.
    pub(crate) fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Its row in the table.
    pub(crate) const fn label(self) -> &'static str {
        match self {
            Metric::CycleStart => "cycle start",
            Metric::CycleLength => "cycle length",
            Metric::CappedRounds => "capped rounds",
            Metric::CappedBattles => "capped battles",
            Metric::CappedWars => "capped wars",
            Metric::Rounds | Metric::Battles | Metric::Wars => self.name(),
        }
    }

    /// The games it is measured of.
    pub(crate) const fn of(self) -> Measured {
        match self {
            Metric::Rounds | Metric::Battles | Metric::Wars => Measured::Finished,
            Metric::CycleStart | Metric::CycleLength => Measured::Infinite,
            Metric::CappedRounds | Metric::CappedBattles | Metric::CappedWars => Measured::Capped,
        }
    }

    /// The label of a plot's axis.
    pub(crate) const fn axis(self) -> &'static str {
        match self {
            Metric::Rounds => "rounds per finished game",
            Metric::Battles => "battles per finished game",
            Metric::Wars => "wars per finished game",
            Metric::CycleStart => "round an infinite game's cycle starts at",
            Metric::CycleLength => "rounds per cycle of an infinite game",
            Metric::CappedRounds => "rounds per game stopped by the round limit",
            Metric::CappedBattles => "battles per game stopped by the round limit",
            Metric::CappedWars => "wars per game stopped by the round limit",
        }
    }

    /// Its place in [`Metric::ALL`].
    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each metric's place in [`ALL`] is its index, which the tallies are kept by.
    #[test]
    fn every_metric_has_its_place() {
        let mut checked = 0;
        for (i, m) in Metric::ALL.into_iter().enumerate() {
            assert_eq!(m.index(), i, "{m}");
            checked += 1;
        }
        assert_eq!(checked, 8);
    }
}
