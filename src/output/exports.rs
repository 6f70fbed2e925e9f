//! Files made from a sweep's accumulators for people to read or plot elsewhere: the game-length
//! distribution as CSV and as an SVG histogram, and the distinct cycles as CSV.

use crate::output::accumulator::Accumulator;
use crate::output::cycles::CycleRow;
use crate::output::metric::{Measured, Metric};
use crate::output::setting::said;
use crate::output::summary::Summary;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::io::{self, Write};

/// Why a plot cannot be drawn.
///
/// ```
/// use warsweep::job::{self, PlotError};
/// use warsweep::{Metric, Preset, Rules, Seeds, Shuffle, Sweep};
/// let dir = std::env::temp_dir().join(format!("warsweep-plot-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// // Classic games of seeds 0..10 all end: no cycle length to draw.
/// let sweep = Sweep::new(Rules::preset(Preset::Classic), Shuffle::Lcg, Seeds::new(0, 10)?);
/// let summary = dir.join("ends.json");
/// std::fs::write(&summary, sweep.run(None, &|_| {}, &Default::default())?.summary.to_json())?;
/// let refused = job::plot(&[summary], &dir.join("plot.svg"), Metric::CycleLength, None, false);
/// let refused = refused.unwrap_err();
/// let typed = refused.typed().and_then(|e| e.downcast_ref::<PlotError>());
/// assert!(matches!(typed, Some(PlotError::NoGames { .. })), "{refused}");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(thiserror::Error, Debug)]
#[non_exhaustive]
pub enum PlotError {
    /// A summary to plot cannot be read.
    #[error(transparent)]
    Read(#[from] crate::output::summary::ReadError),
    /// The drawing library failed.
    #[error("cannot draw the plot: {0}")]
    Draw(String),
    /// A metric no game of the summaries has.
    #[error("{none}: there is no {metric} to plot")]
    NoGames {
        /// Which summaries hold no such game.
        none: &'static str,
        /// The metric.
        metric: String,
    },
}

/// `metric,value,games`: every recorded histogram bucket of every metric. `value` is the largest
/// value the bucket holds (exact below 2,048; within 0.1% above).
pub fn write_hist_csv(acc: &Accumulator, out: impl Write) -> io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(["metric", "value", "games"])?;
    for metric in Metric::ALL {
        for (value, games) in acc.tally(metric).buckets() {
            writer.write_record([
                metric.name().to_string(),
                value.to_string(),
                games.to_string(),
            ])?;
        }
    }
    writer.flush()
}

/// The distinct cycles as CSV: `cycle_length,deals,first_seed,hands`, the summary's order.
pub fn write_cycles_csv(rows: &[CycleRow], out: impl Write) -> io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(["cycle_length", "deals", "first_seed", "hands"])?;
    for row in rows {
        writer.write_record([
            row.cycle_length.to_string(),
            row.deals.to_string(),
            row.first_seed.to_string(),
            row.hands.clone(),
        ])?;
    }
    writer.flush()
}

/// Equal-width bins of `metric` from 0 to `top` (larger values go in the last bin):
/// `(bin start, bin width, games)`.
pub(crate) fn bins(acc: &Accumulator, metric: Metric, top: u64, bins: u64) -> Vec<(u64, u64, u64)> {
    let m = acc.tally(metric);
    if m.count() == 0 {
        return Vec::new();
    }
    let width = top.max(1).div_ceil(bins).max(1);
    let mut counts = vec![0u64; bins as usize];
    let hist = m.histogram();
    for bucket in hist.iter_recorded() {
        let at = hist.median_equivalent(bucket.value_iterated_to());
        let bin = ((at / width) as usize).min(counts.len() - 1);
        counts[bin] += bucket.count_at_value();
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, n)| (i as u64 * width, width, n))
        .collect()
}

/// The 99.9th percentile of `metric`: where a plot's x-axis ends (at least 1).
fn top_of(acc: &Accumulator, metric: Metric) -> u64 {
    let m = acc.tally(metric);
    if m.count() == 0 {
        return 1;
    }
    m.histogram()
        .value_at_quantile(0.999)
        .clamp(m.min(), m.max())
        .max(1)
}

/// Equal-width bins of the battles of finished games, from 0 to the 99.9th percentile (longer
/// games go in the last bin).
pub fn battle_bins(acc: &Accumulator, n: u64) -> Vec<(u64, u64, u64)> {
    let top = top_of(acc, Metric::Battles);
    // No more bins than values, so that the x-axis ends where the data does.
    bins(acc, Metric::Battles, top, n.min(top + 1))
}

/// Cuts `text` into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

const SIZE: (u32, u32) = (1100, 620);
const TITLE_FONT: u32 = 18;
/// Characters of the title font that fit across the picture.
const TITLE_WIDTH: usize = 105;

/// Draws `title` (wrapped) at the top of `root` and returns the area left below it.
fn titled<'a>(
    root: &DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
    title: &str,
) -> Result<DrawingArea<SVGBackend<'a>, plotters::coord::Shift>, PlotError> {
    let lines: Vec<String> = title
        .split('\n')
        .flat_map(|part| wrap(part, TITLE_WIDTH))
        .collect();
    let line_height = TITLE_FONT as i32 + 6;
    let style = ("sans-serif", TITLE_FONT).into_font().color(&BLACK);
    for (i, line) in lines.iter().enumerate() {
        root.draw(&Text::new(
            line.clone(),
            (16, 12 + i as i32 * line_height),
            style.clone(),
        ))
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    }
    let (_, below) = root.split_vertically(16 + lines.len() as i32 * line_height);
    Ok(below)
}

/// The outcome line of a summary: wins per player, draws, infinite and capped games.
fn outcomes(summary: &Summary) -> String {
    let games = summary.games.max(1) as f64;
    let pct = |n: u64| 100.0 * n as f64 / games;
    let wins: Vec<String> = summary
        .wins
        .iter()
        .enumerate()
        .map(|(p, &w)| format!("P{} {:.1}%", p + 1, pct(w)))
        .collect();
    format!(
        "{} game{}: wins {}, draws {:.1}%, infinite {:.1}%, capped {:.1}%",
        crate::text::group(summary.games),
        if summary.games == 1 { "" } else { "s" },
        wins.join(" "),
        pct(summary.draws),
        pct(summary.infinite),
        pct(summary.capped)
    )
}

/// An SVG histogram of game lengths (battles of finished games), setting and outcomes in the
/// title.
pub fn plot_svg(summary: &Summary, acc: &Accumulator) -> Result<String, PlotError> {
    let bins = battle_bins(acc, 80);
    let title = format!(
        "{}, seeds {}..{}\n{}",
        summary.setting().describe(),
        summary.seeds.start(),
        summary.seeds.end(),
        outcomes(summary)
    );
    let x_end = bins.last().map(|&(s, w, _)| s + w).unwrap_or(1);
    let y_end = bins.iter().map(|&(_, _, n)| n).max().unwrap_or(1).max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let fail = |e: &dyn std::fmt::Display| PlotError::Draw(e.to_string());
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let area = titled(&root, &title)?;
        let mut chart = ChartBuilder::on(&area)
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
    }
    Ok(svg)
}

/// An overlay chart of the summaries read from `inputs` (each with its path, for a legend of
/// last resort): each line labelled by the parts of the setting that differ (the seed range
/// included), the title naming what they share unless `title` is given.
pub fn overlay(
    paths: &[std::path::PathBuf],
    metric: Metric,
    title: Option<String>,
    log: bool,
) -> Result<String, PlotError> {
    let x_desc = metric.axis();
    let read = paths
        .iter()
        .map(|path| crate::output::summary::read(path).map(|(s, acc)| (path.clone(), s, acc)));
    let inputs = &read.collect::<Result<Vec<_>, _>>()?;
    if inputs
        .iter()
        .all(|(_, _, acc)| acc.tally(metric).count() == 0)
    {
        let none = match (metric.of(), inputs.len()) {
            (Measured::Infinite, 1) => "the summary holds no infinite game",
            (Measured::Infinite, _) => "none of the summaries holds an infinite game",
            (Measured::Capped, 1) => "the summary holds no capped game it measured",
            (Measured::Capped, _) => "none of the summaries holds a capped game it measured",
            (Measured::Finished, 1) => "the summary holds no finished game",
            (Measured::Finished, _) => "none of the summaries holds a finished game",
        };
        return Err(PlotError::NoGames {
            none,
            metric: metric.name().to_string(),
        });
    }
    let summaries: Vec<(&std::path::Path, &Summary)> =
        inputs.iter().map(|(p, s, _)| (p.as_path(), s)).collect();
    let (mut labels, shared) = legend(&summaries);
    for (label, (_, summary, _)) in labels.iter_mut().zip(inputs) {
        let infinite = 100.0 * summary.infinite as f64 / summary.games.max(1) as f64;
        let games = crate::text::group(summary.games);
        let s = if summary.games == 1 { "" } else { "s" };
        label.push_str(&format!(" ({games} game{s}, {infinite:.1}% infinite)"));
    }
    let title = title.unwrap_or_else(|| format!("{x_desc}: {}", shared.join(", ")));
    let series: Vec<(String, Accumulator)> = labels
        .into_iter()
        .zip(inputs.iter().map(|(_, _, acc)| acc.clone()))
        .collect();
    overlay_svg(&series, metric, x_desc, &title, log)
}

/// The legend of an overlay of `summaries` (each with its path, the label of last resort):
/// each one's label, the parts of the setting that differ (the seed range included), and the
/// parts they share, for the title.
fn legend(summaries: &[(&std::path::Path, &Summary)]) -> (Vec<String>, Vec<String>) {
    let parts: Vec<Vec<(&str, String)>> = summaries
        .iter()
        .map(|(_, s)| {
            let mut parts = s.setting().parts();
            parts.push(("seeds", format!("{}..{}", s.seeds.start(), s.seeds.end())));
            parts
        })
        .collect();
    let varies = |i: usize| parts.iter().any(|p| p[i].1 != parts[0][i].1);
    // When the presets differ and each preset comes with one setting, its name says it all.
    let by_rules_alone = varies(0)
        && parts.iter().all(|p| {
            parts
                .iter()
                .filter(|q| q[0].1 == p[0].1)
                .all(|q| q.iter().zip(p.iter()).all(|(a, b)| a.1 == b.1))
        });
    let mut labels: Vec<String> = parts
        .iter()
        .map(|p| {
            (0..p.len())
                .filter(|&i| varies(i) && (i == 0 || !by_rules_alone))
                .map(|i| format!("{} {}", said(p[i].0), p[i].1))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let distinct = labels
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .len()
        == labels.len();
    if !distinct || labels.iter().any(String::is_empty) {
        labels = summaries
            .iter()
            .map(|(p, _)| p.display().to_string())
            .collect();
    }
    let shared: Vec<String> = (0..parts.first().map_or(0, Vec::len))
        .filter(|&i| !varies(i))
        .map(|i| format!("{} {}", said(parts[0][i].0), parts[0][i].1))
        .collect();
    (labels, shared)
}

/// Line colours, told apart by most readers whatever their colour vision (Okabe and Ito's
/// palette without its yellow, which is hard to see on white).
const LINE_COLOURS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
];

/// One SVG chart of the distributions of `metric` of several summaries, each a line of the
/// share of its games per bin (so that sweeps of any size compare), with a legend. `log`
/// draws the shares on a logarithmic axis, where long tails show.
pub(crate) fn overlay_svg(
    series: &[(String, Accumulator)],
    metric: Metric,
    x_desc: &str,
    title: &str,
    log: bool,
) -> Result<String, PlotError> {
    const BINS: u64 = 100;
    let top = series
        .iter()
        .map(|(_, acc)| top_of(acc, metric))
        .max()
        .unwrap_or(1);
    let curves: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|(_, acc)| {
            let total = acc.tally(metric).count().max(1) as f64;
            bins(acc, metric, top, BINS)
                .into_iter()
                .map(|(start, width, n)| {
                    (start as f64 + width as f64 / 2.0, 100.0 * n as f64 / total)
                })
                .collect()
        })
        .collect();
    let x_end = (top.div_ceil(BINS).max(1) * BINS) as f64;
    let y_end = curves
        .iter()
        .flatten()
        .map(|&(_, y)| y)
        .fold(0.0f64, f64::max)
        .max(0.1)
        * 1.08;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let fail = |e: &dyn std::fmt::Display| PlotError::Draw(e.to_string());
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let area = titled(&root, title)?;
        let builder = || {
            let mut builder = ChartBuilder::on(&area);
            builder
                .margin(16)
                .x_label_area_size(48)
                .y_label_area_size(80);
            builder
        };
        let x_desc = format!("{x_desc} (last point: the longest 0.1% as well)");
        if log {
            // A logarithmic axis has no 0: empty bins are left out of the lines.
            let y_min = curves
                .iter()
                .flatten()
                .map(|&(_, y)| y)
                .filter(|&y| y > 0.0)
                .fold(f64::INFINITY, f64::min)
                .min(y_end / 10.0)
                / 2.0;
            let chart = builder()
                .build_cartesian_2d(0f64..x_end, (y_min..y_end).log_scale())
                .map_err(|e| fail(&e))?;
            // 0.01, 0.1, 1, 10: the powers of ten as plain numbers.
            draw_lines(chart, series, &curves, &x_desc, true, &|y| {
                format!("{}", (y * 1e6).round() / 1e6)
            })?;
        } else {
            let chart = builder()
                .build_cartesian_2d(0f64..x_end, 0f64..y_end)
                .map_err(|e| fail(&e))?;
            draw_lines(chart, series, &curves, &x_desc, false, &|y| {
                format!("{y:.1}")
            })?;
        }
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(svg)
}

/// The grid, the lines and the legend of an overlay chart, on a linear or logarithmic axis.
fn draw_lines<'a, Y>(
    mut chart: ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, Y>>,
    series: &[(String, Accumulator)],
    curves: &[Vec<(f64, f64)>],
    x_desc: &str,
    log: bool,
    y_format: &dyn Fn(&f64) -> String,
) -> Result<(), PlotError>
where
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let fail = |e: &dyn std::fmt::Display| PlotError::Draw(e.to_string());
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(y_format)
        .y_desc("% of games per bin")
        .axis_desc_style(("sans-serif", 16))
        .label_style(("sans-serif", 14))
        .bold_line_style(BLACK.mix(0.12))
        .light_line_style(BLACK.mix(0.03))
        .draw()
        .map_err(|e| fail(&e))?;
    for (i, ((label, _), curve)) in series.iter().zip(curves).enumerate() {
        let color = LINE_COLOURS[i % LINE_COLOURS.len()];
        // On a logarithmic axis, which has no 0, the line breaks at empty bins.
        let runs: Vec<&[(f64, f64)]> = match log {
            true => curve
                .split(|&(_, y)| y <= 0.0)
                .filter(|r| !r.is_empty())
                .collect(),
            false => vec![curve],
        };
        let mut labelled = false;
        for run in runs {
            let drawn = chart
                .draw_series(LineSeries::new(run.iter().copied(), color.stroke_width(2)))
                .map_err(|e| fail(&e))?;
            if !labelled {
                drawn.label(label.clone()).legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2))
                });
                labelled = true;
            }
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    Ok(())
}
