//! The summary as a readable table: what `sweep` and `merge` print.

use crate::output::metric::{Measured, Metric};
use crate::output::summary::Summary;
use crate::text::group;
use std::fmt::Write as _;

impl Summary {
    /// The summary as a readable table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let games = self.games.max(1) as f64;
        let pct = |n: u64| 100.0 * n as f64 / games;
        let chosen = self
            .chosen
            .map_or(String::new(), |n| format!("{} chosen ", group(n)));
        // A mirror walk's games count each deal's mirror with it, which can lie past the seeds
        // shown (a walk stopped early).
        let span = self.seeds.end() - u128::from(self.seeds.start());
        let mirrors = match self.chosen.is_none() && u128::from(self.games) > span {
            true => " and their mirror deals",
            false => "",
        };
        let _ = writeln!(
            out,
            "{}, {chosen}seeds {}..{}{mirrors}",
            self.setting().describe(),
            self.seeds.start(),
            self.seeds.end()
        );
        let _ = writeln!(out, "{:<16}{:>12}", "games", group(self.games));
        for (p, &w) in self.wins.iter().enumerate() {
            let label = format!("player {} wins", p + 1);
            let _ = writeln!(out, "{label:<16}{:>12}  {:6.2}%", group(w), pct(w));
        }
        for (label, n) in [
            ("draws", self.draws),
            ("infinite", self.infinite),
            ("capped", self.capped),
        ] {
            let _ = writeln!(out, "{label:<16}{:>12}  {:6.2}%", group(n), pct(n));
        }
        if let Some(cycles) = &self.cycles {
            let n = group(cycles.len() as u64);
            let _ = writeln!(out, "{:<16}{n:>12}", "distinct cycles");
        }
        self.stats_table(&mut out);
        let _ = writeln!(out, "\n{:<20}{:>12}  {:>20}", "records", "value", "seed");
        for (label, record) in self.records.rows() {
            match record {
                Some(r) => {
                    let _ = writeln!(out, "{label:<20}{:>12}  {:>20}", group(r.value), r.seed);
                }
                None => {
                    let _ = writeln!(out, "{label:<20}{:>12}  {:>20}", "-", "-");
                }
            }
        }
        let _ = writeln!(
            out,
            "\n{:.2} s, {} games/s",
            self.elapsed_seconds,
            group(self.games_per_second.round() as u64)
        );
        let per_second = self.battles_played as f64 / self.elapsed_seconds.max(1e-9);
        let _ = writeln!(
            out,
            "{} battles played ({} per second; an infinite game's up to the end of its first cycle)",
            group(self.battles_played),
            group(per_second.round() as u64),
        );
        out
    }
    /// The statistics of each metric, a row each: what a metric with no games lacks as `-`,
    /// an approximate figure after `~`.
    fn stats_table(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "\n{:<13}{:>10}{:>10}{:>9}{:>7}{:>8}{:>8}{:>8}{:>8}{:>8}",
            "", "games", "mean", "stdev", "min", "p50", "p90", "p99", "p99.9", "max"
        );
        let mut approximate = false;
        // Capped games' lengths only where there are capped games.
        let shown = Metric::ALL
            .into_iter()
            .filter(|m| m.of() != Measured::Capped || self.capped > 0);
        for metric in shown {
            let (label, s) = (metric.label(), self.stats(metric));
            // `-` for what a metric with no games lacks, `~` before an approximate figure.
            let cell = |name: &str, value: Option<String>| {
                let value = value.unwrap_or_else(|| "-".to_string());
                if s.approximate.iter().any(|a| a == name) {
                    format!("~{value}")
                } else {
                    value
                }
            };
            let real = |name, v: Option<f64>| cell(name, v.map(|v| format!("{v:.1}")));
            let whole = |name, v: Option<u64>| cell(name, v.map(|v| v.to_string()));
            approximate |= !s.approximate.is_empty();
            let _ = writeln!(
                out,
                "{label:<13}{:>10}{:>10}{:>9}{:>7}{:>8}{:>8}{:>8}{:>8}{:>8}",
                group(s.count),
                real("mean", s.mean),
                real("stdev", s.stdev),
                whole("min", s.min),
                whole("p50", s.p50),
                whole("p90", s.p90),
                whole("p99", s.p99),
                whole("p999", s.p999),
                whole("max", s.max)
            );
        }
        if self.capped_unmeasured() {
            let _ = writeln!(
                out,
                "- capped games' lengths: not kept by summaries before format 3"
            );
        }
        if approximate {
            let _ = writeln!(
                out,
                "~ within {:.1}% (a histogram bucket holding several values)",
                100.0 * crate::output::accumulator::PRECISION
            );
        }
    }
}
