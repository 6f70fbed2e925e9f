//! A summary's histograms: one base64 HdrHistogram V2 (deflate) string per metric, exact (every
//! count kept), readable by any HdrHistogram library.

use crate::output::metric::Metric;
use base64::Engine as _;
use hdrhistogram::serialization::{Deserializer, Serializer, V2DeflateSerializer};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Histograms as base64 HdrHistogram V2 (deflate) strings, one per metric.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Histograms {
    /// Rounds of finished games.
    pub rounds: String,
    /// Battles of finished games.
    pub battles: String,
    /// Wars of finished games.
    pub wars: String,
    /// Cycle starts of infinite games.
    pub cycle_start: String,
    /// Cycle lengths of infinite games.
    pub cycle_length: String,
    /// Rounds of capped games (empty in summaries before format 3).
    #[serde(default = "empty")]
    pub capped_rounds: String,
    /// Battles of capped games.
    #[serde(default = "empty")]
    pub capped_battles: String,
    /// Wars of capped games.
    #[serde(default = "empty")]
    pub capped_wars: String,
}

/// An empty histogram, encoded: what summaries before format 3 stand for their capped games'.
fn empty() -> String {
    encode(&crate::output::accumulator::empty_histogram())
}

impl Histograms {
    /// The histogram of `metric`, encoded.
    pub(crate) fn of(&self, metric: Metric) -> &str {
        match metric {
            Metric::Rounds => &self.rounds,
            Metric::Battles => &self.battles,
            Metric::Wars => &self.wars,
            Metric::CycleStart => &self.cycle_start,
            Metric::CycleLength => &self.cycle_length,
            Metric::CappedRounds => &self.capped_rounds,
            Metric::CappedBattles => &self.capped_battles,
            Metric::CappedWars => &self.capped_wars,
        }
    }
}

/// A histogram as base64 HdrHistogram V2 (deflate).
pub(crate) fn encode(hist: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2DeflateSerializer::new()
        .serialize(hist, &mut bytes)
        .expect("serializing to memory cannot fail");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The histogram `encode` wrote, brought to the common bounds so that it adds to any other; or
/// what is wrong with the text.
pub(crate) fn decode(text: &str) -> Result<Histogram<u64>, String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| e.to_string())?;
    let hist: Histogram<u64> = Deserializer::new()
        .deserialize(&mut bytes.as_slice())
        .map_err(|e| format!("{e:?}"))?;
    let mut common = crate::output::accumulator::empty_histogram();
    common.add(&hist).map_err(|e| format!("{e:?}"))?;
    Ok(common)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::accumulator::Tally;

    #[test]
    fn histograms_survive_base64() {
        let mut m = Tally::new();
        for v in [0, 1, 5, 2047, 2048, 100_000, 7_777_777] {
            m.record(v);
        }
        let back = decode(&encode(&m.histogram())).unwrap();
        assert_eq!(back, *m.histogram());
    }
}
