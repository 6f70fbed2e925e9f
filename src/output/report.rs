//! Files made from a sweep's accumulators for people to read or plot elsewhere: the game-length
//! distribution as CSV and as an SVG histogram.

use crate::output::summary::{Accumulator, Summary, METRICS};
use plotters::prelude::*;
use std::io::{self, Write};
use std::path::Path;

/// `metric,value,games`: every recorded histogram bucket of every metric. `value` is the largest
/// value the bucket holds (exact below 2,048; within 0.1% above).
pub fn write_hist_csv(acc: &Accumulator, out: impl Write) -> io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(["metric", "value", "games"])?;
    for (name, metric) in METRICS.iter().zip(&acc.metrics) {
        for bucket in metric.hist.iter_recorded() {
            writer.write_record([
                name.to_string(),
                bucket.value_iterated_to().to_string(),
                bucket.count_at_value().to_string(),
            ])?;
        }
    }
    writer.flush()
}

/// Equal-width bins of the battles of finished games, from 0 to the 99.9th percentile (longer
/// games go in the last bin): `(bin start, bin width, games)`.
pub fn battle_bins(acc: &Accumulator, bins: u64) -> Vec<(u64, u64, u64)> {
    let metric = &acc.metrics[1];
    if metric.count == 0 {
        return Vec::new();
    }
    let top = metric.hist.value_at_quantile(0.999).max(1);
    let width = top.div_ceil(bins).max(1);
    let mut counts = vec![0u64; bins as usize];
    for bucket in metric.hist.iter_recorded() {
        let at = metric.hist.median_equivalent(bucket.value_iterated_to());
        let bin = ((at / width) as usize).min(counts.len() - 1);
        counts[bin] += bucket.count_at_value();
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, n)| (i as u64 * width, width, n))
        .collect()
}

/// An SVG histogram of game lengths (battles of finished games), outcomes in the title.
pub fn write_plot(summary: &Summary, acc: &Accumulator, path: &Path) -> Result<(), String> {
    let bins = battle_bins(acc, 80);
    let games = summary.games.max(1) as f64;
    let pct = |n: u64| 100.0 * n as f64 / games;
    let wins: Vec<String> = summary
        .wins
        .iter()
        .enumerate()
        .map(|(p, &w)| format!("P{} {:.1}%", p + 1, pct(w)))
        .collect();
    let title = format!(
        "{} ({} gather), {} seeds {}..{}: wins {}, draws {:.1}%, infinite {:.1}%",
        summary.rules,
        summary.gather,
        summary.shuffle,
        summary.seeds.start,
        summary.seeds.end,
        wins.join(" "),
        pct(summary.draws),
        pct(summary.infinite)
    );
    let x_end = bins.last().map(|&(s, w, _)| s + w).unwrap_or(1);
    let y_end = bins.iter().map(|&(_, _, n)| n).max().unwrap_or(1).max(1);
    let root = SVGBackend::new(path, (1100, 620)).into_drawing_area();
    let fail = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(80)
        .build_cartesian_2d(0u64..x_end, 0u64..y_end + y_end / 20 + 1)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("battles per finished game (last bar: the longest 0.1% as well)")
        .y_desc("games")
        .axis_desc_style(("sans-serif", 16))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    chart
        .draw_series(bins.iter().map(|&(start, width, n)| {
            Rectangle::new([(start, 0), (start + width, n)], BLUE.mix(0.6).filled())
        }))
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
