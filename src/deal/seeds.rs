//! Seed ranges: what `--seeds`, `--shard` and a Slurm job array name, checked against the
//! shuffle that turns each seed into a deal.

use crate::deal::Shuffle;
use crate::rules::Deck;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A range of seeds, `start..end`, end excluded: `end` reaches 2^64 when the range holds the
/// last seed. Built only by [`Seeds::new`] (or read from a summary through it), so its end is
/// never before its start nor past 2^64.
///
/// ```
/// use warsweep::Seeds;
/// let seeds: Seeds = "10..=19".parse()?;
/// assert_eq!((seeds.start(), seeds.end(), seeds.len(), seeds.is_empty()), (10, 20, 10, false));
/// assert_eq!(seeds, Seeds::new(10, 20)?);
/// assert_eq!(seeds.to_string(), "10..20");
/// # Ok::<(), warsweep::RangeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SeedParts", into = "SeedParts")]
pub struct Seeds {
    start: u64,
    end: u128,
}

/// A seed range as a summary writes it, checked by [`Seeds::new`] when read.
#[derive(Serialize, Deserialize)]
struct SeedParts {
    start: u64,
    end: u128,
}

impl TryFrom<SeedParts> for Seeds {
    type Error = RangeError;

    fn try_from(parts: SeedParts) -> Result<Seeds, RangeError> {
        Seeds::new(parts.start, parts.end)
    }
}

impl From<Seeds> for SeedParts {
    fn from(seeds: Seeds) -> SeedParts {
        SeedParts {
            start: seeds.start,
            end: seeds.end,
        }
    }
}

/// One past the last 64-bit seed.
const PAST_LAST_SEED: u128 = 1 << 64;

impl Seeds {
    /// The seeds `start..end` (end excluded; 2^64 to include the last seed, [`u64::MAX`]). An
    /// empty range is one (a sweep stopped before its first seed covers one); an end before the
    /// start or past 2^64 is refused.
    pub fn new(start: u64, end: u128) -> Result<Seeds, RangeError> {
        if end < u128::from(start) {
            return Err(RangeError::Reversed(format!("{start}..{end}")));
        }
        if end > PAST_LAST_SEED {
            return Err(RangeError::PastLastSeed(end));
        }
        Ok(Seeds { start, end })
    }

    /// The range of one seed.
    pub(crate) fn one(seed: u64) -> Seeds {
        Seeds {
            start: seed,
            end: u128::from(seed) + 1,
        }
    }

    /// The seeds of `self` before `end` (all of them if `end` is past its end).
    pub(crate) fn up_to(self, end: u128) -> Seeds {
        Seeds {
            start: self.start,
            end: end.clamp(u128::from(self.start), self.end),
        }
    }

    /// The first seed.
    pub fn start(self) -> u64 {
        self.start
    }

    /// One past the last seed (2^64 when the range holds the last 64-bit seed).
    pub fn end(self) -> u128 {
        self.end
    }

    /// How many seeds the range holds (0 for an empty one).
    pub fn len(self) -> u128 {
        self.end - u128::from(self.start)
    }

    /// Whether the range holds no seed (`5..5`).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Whether every seed of `self` is one of `whole`'s.
    pub(crate) fn within(self, whole: Seeds) -> bool {
        whole.start <= self.start && self.end <= whole.end
    }
}

/// `start..end`, as the command line writes a range.
impl std::fmt::Display for Seeds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// Why a seed range cannot be swept.
///
/// ```
/// use warsweep::{RangeError, Seeds};
/// assert!(matches!(Seeds::new(5, 3), Err(RangeError::Reversed(_))));
/// assert_eq!("5..5".parse::<Seeds>().unwrap_err().to_string(), "the seed range 5..5 is empty");
/// ```
#[derive(Error, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RangeError {
    #[error("{0:?} is not a seed range: seeds are 0 or more")]
    /// A bound below 0.
    Negative(String),
    #[error("{0:?} is not a seed range (write A..B, end excluded, or A..=B)")]
    /// Not written `A..B` or `A..=B`.
    Malformed(String),
    #[error("{0:?} is not a seed: seeds are whole numbers from 0 to 18446744073709551615")]
    /// A bound that is not a 64-bit whole number.
    NotASeed(String),
    #[error("the seed range {0} is empty")]
    /// A range with no seed.
    Empty(String),
    #[error("the seed range {0} is reversed: its end comes before its start")]
    /// A range whose end comes before its start.
    Reversed(String),
    #[error("the {deck} deck has {deals} distinct deals, more than 2^64 seeds can number: lex needs a smaller deck")]
    /// `lex` on a deck with more deals than seeds can number.
    TooManyDeals {
        /// The deck.
        deck: Deck,
        /// How many deals it has, written out.
        deals: String,
    },
    #[error("lex seed {seed} is past the {deck} deck's {deals} distinct deals (seeds 0..{deals})")]
    /// A `lex` seed at or past the last deal.
    PastLastDeal {
        /// The seed.
        seed: u128,
        /// The deck.
        deck: Deck,
        /// How many deals it has.
        deals: u64,
    },
    #[error("the seed range ends at {0}, past the last seed: ranges end at 2^64 = 18446744073709551616 at most")]
    /// A range that ends past 2^64.
    PastLastSeed(u128),
    #[error("{0} is not a whole number")]
    /// A Slurm variable that is not a whole number.
    SlurmVariable(String),
    #[error("a shard without K/N takes them from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, which are not set: outside a Slurm job array give K/N")]
    /// A shard without K/N outside a Slurm job array.
    NotInSlurm,
    #[error("Slurm array task {id} is not one of {count} tasks from {min}: submit the array as --array=0-{}", count.saturating_sub(1))]
    /// A Slurm task id outside the array.
    NotATask {
        /// `SLURM_ARRAY_TASK_ID`.
        id: u64,
        /// `SLURM_ARRAY_TASK_COUNT`.
        count: u64,
        /// `SLURM_ARRAY_TASK_MIN` (0 when unset).
        min: u64,
    },
    #[error("{0:?} is not a shard: write K/N, the K-th (from 0) of N parts, as in 0/4")]
    /// Not written `K/N`.
    MalformedShard(String),
    #[error("shard {k}/{n} does not exist: K counts from 0 to N - 1")]
    /// A part past the last.
    NoSuchShard {
        /// The part asked for, from 0.
        k: u64,
        /// How many parts.
        n: u64,
    },
    #[error("cannot cut seeds {start}..{end} into {n} parts: the range holds only {}", crate::text::count(*len, "seed"))]
    /// More parts than seeds.
    TooManyShards {
        /// The range's first seed.
        start: u64,
        /// One past its last seed.
        end: u128,
        /// How many parts.
        n: u64,
        /// How many seeds.
        len: u128,
    },
}

/// Parses `K/N`: the K-th (from 0) of N parts.
pub(crate) fn parse_shard(text: &str) -> Result<(u64, u64), RangeError> {
    let malformed = || RangeError::MalformedShard(text.to_string());
    let (k, n) = text.trim().split_once('/').ok_or_else(malformed)?;
    let number = |s: &str| {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return Err(malformed());
        }
        s.parse::<u64>().map_err(|_| malformed())
    };
    let (k, n) = (number(k)?, number(n)?);
    if n == 0 {
        return Err(malformed());
    }
    if k >= n {
        return Err(RangeError::NoSuchShard { k, n });
    }
    Ok((k, n))
}

/// The K-th of N near-equal contiguous parts of `seeds`: the parts cover the range exactly, in
/// order, and their lengths differ by at most one (the first ones are the longer).
pub(crate) fn shard(seeds: Seeds, k: u64, n: u64) -> Result<Seeds, RangeError> {
    if n == 0 || k >= n {
        return Err(RangeError::NoSuchShard { k, n });
    }
    let len = seeds.end - seeds.start as u128;
    if (n as u128) > len {
        return Err(RangeError::TooManyShards {
            start: seeds.start,
            end: seeds.end,
            n,
            len,
        });
    }
    let (base, extra) = (len / n as u128, len % n as u128);
    let at = |k: u128| seeds.start as u128 + k * base + k.min(extra);
    Ok(Seeds {
        start: at(k as u128) as u64,
        end: at(k as u128 + 1),
    })
}

/// How many distinct deals `lex` numbers for `deck`, if they fit in 64 bits.
pub(crate) fn lex_deals(deck: Deck) -> Result<u64, RangeError> {
    let m = deck.arrangements();
    m.to_u128()
        .and_then(|m| u64::try_from(m).ok())
        .ok_or(RangeError::TooManyDeals {
            deck,
            deals: m.to_string(),
        })
}

/// Checks that every seed of `seeds` names a deal of `shuffle` on `deck` (only `lex` has a
/// last seed).
pub(crate) fn check_seeds(shuffle: Shuffle, deck: Deck, seeds: Seeds) -> Result<(), RangeError> {
    if shuffle != Shuffle::Lex {
        return Ok(());
    }
    let deals = lex_deals(deck)?;
    if seeds.end > deals as u128 {
        return Err(RangeError::PastLastDeal {
            seed: seeds.end - 1,
            deck,
            deals,
        });
    }
    Ok(())
}

/// Parses `A..B` (end excluded) or `A..=B` into `start..end` with `end` excluded.
fn parse_seed_range(text: &str) -> Result<Seeds, RangeError> {
    let t = text.trim();
    let (a, b, inclusive) = if let Some((a, b)) = t.split_once("..=") {
        (a, b, true)
    } else if let Some((a, b)) = t.split_once("..") {
        (a, b, false)
    } else {
        return Err(RangeError::Malformed(text.to_string()));
    };
    if [a, b]
        .iter()
        .any(|bound| bound.trim_start().starts_with('-'))
    {
        return Err(RangeError::Negative(text.to_string()));
    }
    let seed = |s: &str| -> Result<u128, RangeError> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return Err(RangeError::Malformed(text.to_string()));
        }
        match s.parse::<u64>() {
            Ok(v) => Ok(v as u128),
            Err(_) => Err(RangeError::NotASeed(s.to_string())),
        }
    };
    let start = seed(a)?;
    let b = b.trim();
    // A half-open end may be 2^64 itself: it excludes the last seed.
    let end = if !inclusive && b == "18446744073709551616" {
        1u128 << 64
    } else {
        seed(b)? + inclusive as u128
    };
    if end < start || (inclusive && end == start) {
        return Err(RangeError::Reversed(t.to_string()));
    }
    if end == start {
        return Err(RangeError::Empty(t.to_string()));
    }
    Ok(Seeds {
        start: start as u64,
        end,
    })
}

/// `A..B` (end excluded) or `A..=B`, as a user writes a range: `"0..100".parse::<Seeds>()`.
impl std::str::FromStr for Seeds {
    type Err = RangeError;

    fn from_str(text: &str) -> Result<Seeds, RangeError> {
        parse_seed_range(text)
    }
}

impl Seeds {
    /// The seeds a sweep plays: `range` (by default `0..100000`, or every deal of `lex`),
    /// checked against the shuffle, then cut to the part `part` names (`K/N`, the K-th from 0
    /// of N near-equal parts, or `slurm` for a Slurm array task's).
    ///
    /// ```
    /// use warsweep::{Deck, Seeds, Shuffle};
    /// let every = Seeds::choose(None, Shuffle::Lex, Deck::parse("4x4")?, None)?;
    /// assert_eq!(every.len(), 63_063_000);
    /// let part = Seeds::choose(Some("0..10".parse()?), Shuffle::Lcg, Deck::STANDARD, Some("1/3"))?;
    /// assert_eq!((part.start(), part.end()), (4, 7));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn choose(
        range: Option<Seeds>,
        shuffle: Shuffle,
        deck: Deck,
        part: Option<&str>,
    ) -> Result<Seeds, RangeError> {
        let whole = match (range, shuffle) {
            (Some(seeds), _) => seeds,
            (None, Shuffle::Lex) => Seeds {
                start: 0,
                end: lex_deals(deck)? as u128,
            },
            (None, _) => Seeds {
                start: 0,
                end: 100_000,
            },
        };
        check_seeds(shuffle, deck, whole)?;
        let Some(part) = part else {
            return Ok(whole);
        };
        let (k, n) = Seeds::part(part)?;
        shard(whole, k, n)
    }

    /// The part `text` names: `K/N`, the K-th (from 0) of N, or `slurm` for a Slurm array
    /// task's (`SLURM_ARRAY_TASK_ID` of `SLURM_ARRAY_TASK_COUNT`).
    ///
    /// ```
    /// use warsweep::Seeds;
    /// assert_eq!(Seeds::part("2/5")?, (2, 5));
    /// assert!(Seeds::part("5/5").is_err());
    /// # Ok::<(), warsweep::RangeError>(())
    /// ```
    pub fn part(text: &str) -> Result<(u64, u64), RangeError> {
        match text {
            "slurm" => slurm_shard(),
            text => parse_shard(text),
        }
    }
}

/// K and N of a Slurm job array task (`sbatch --array=0-(N-1)`), from the environment.
pub(crate) fn slurm_shard() -> Result<(u64, u64), RangeError> {
    let var = |name: &str| -> Result<Option<u64>, RangeError> {
        match std::env::var(name) {
            Ok(text) => text
                .trim()
                .parse::<u64>()
                .map(Some)
                .map_err(|_| RangeError::SlurmVariable(format!("{name}={text:?}"))),
            Err(_) => Ok(None),
        }
    };
    let (Some(id), Some(count)) = (var("SLURM_ARRAY_TASK_ID")?, var("SLURM_ARRAY_TASK_COUNT")?)
    else {
        return Err(RangeError::NotInSlurm);
    };
    let min = var("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
    id.checked_sub(min)
        .filter(|&k| k < count)
        .map(|k| (k, count))
        .ok_or(RangeError::NotATask { id, count, min })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_range_exactly() {
        for (start, end) in [
            (0u64, 5u128),
            (0, 9),
            (7, 8),
            (3, 1000),
            (0, 1 << 64),
            (u64::MAX - 3, 1 << 64),
        ] {
            let seeds = Seeds { start, end };
            let len = end - start as u128;
            for n in [1u64, 2, 3, 4, 7, 64] {
                if n as u128 > len {
                    assert!(matches!(
                        shard(seeds, 0, n),
                        Err(RangeError::TooManyShards { .. })
                    ));
                    continue;
                }
                let mut next = start as u128;
                for k in 0..n {
                    let part = shard(seeds, k, n).unwrap();
                    assert_eq!(part.start as u128, next, "{start}..{end} {k}/{n}");
                    let size = part.end - part.start as u128;
                    assert!(size == len / n as u128 || size == len / n as u128 + 1);
                    next = part.end;
                }
                assert_eq!(next, end);
            }
        }
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        assert_eq!(
            parse_shard("4/4"),
            Err(RangeError::NoSuchShard { k: 4, n: 4 })
        );
        assert!(matches!(
            parse_shard("1/0"),
            Err(RangeError::MalformedShard(_))
        ));
        assert!(matches!(
            parse_shard("-1/4"),
            Err(RangeError::MalformedShard(_))
        ));
        assert!(matches!(
            parse_shard("3"),
            Err(RangeError::MalformedShard(_))
        ));
    }

    #[test]
    fn seed_ranges() {
        let r = |s: &str| parse_seed_range(s);
        assert_eq!(r("0..10"), Ok(Seeds { start: 0, end: 10 }));
        assert_eq!(r("5..=5"), Ok(Seeds { start: 5, end: 6 }));
        assert_eq!(r(" 3 .. 7 "), Ok(Seeds { start: 3, end: 7 }));
        let max = u64::MAX;
        assert_eq!(
            r(&format!("{max}..={max}")),
            Ok(Seeds {
                start: max,
                end: 1 << 64
            })
        );
        assert_eq!(
            r(&format!("0..{}", 1u128 << 64)),
            Ok(Seeds {
                start: 0,
                end: 1 << 64
            })
        );
        assert!(matches!(r("10..5"), Err(RangeError::Reversed(_))));
        assert!(matches!(r("5..=4"), Err(RangeError::Reversed(_))));
        assert!(matches!(r("5..5"), Err(RangeError::Empty(_))));
        assert!(matches!(
            r("0..18446744073709551617"),
            Err(RangeError::NotASeed(_))
        ));
        assert!(matches!(r("-1..5"), Err(RangeError::Negative(_))));
        assert!(matches!(r("1..-5"), Err(RangeError::Negative(_))));
        assert!(matches!(r("1-5"), Err(RangeError::Malformed(_))));
        assert!(matches!(r("a..b"), Err(RangeError::Malformed(_))));
    }
}
