//! Plots from Python: the chart `warsweep plot` draws, from summaries held in memory.

use crate::bad;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use warsweep::{job, Metric};

/// The SVG `warsweep plot` draws of `metric` for these JSON summaries: each is written to a
/// file of its own in a fresh temporary folder, drawn by the library's `job::plot`, and the
/// folder removed. Where the legend falls back on the files' names (one sweep, or sweeps of one
/// setting and range), it says `sweep1.json`, ..., without the folder.
#[pyfunction]
#[pyo3(signature = (summaries, metric, title=None, log=false))]
pub(crate) fn _plot(
    summaries: Vec<String>,
    metric: &str,
    title: Option<String>,
    log: bool,
) -> PyResult<String> {
    static FOLDERS: AtomicU64 = AtomicU64::new(0);
    let metric = metric
        .parse::<Metric>()
        .map_err(|e| bad(format!("metric: {e}")))?;
    let n = FOLDERS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("warsweep-plot-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(bad)?;
    let drawn = (|| -> PyResult<String> {
        let mut inputs = Vec::new();
        for (i, summary) in summaries.iter().enumerate() {
            let path = dir.join(format!("sweep{}.json", i + 1));
            std::fs::write(&path, summary).map_err(bad)?;
            inputs.push(path);
        }
        let svg = dir.join("plot.svg");
        job::plot(&inputs, &svg, metric, title, log).map_err(bad)?;
        let drawn = std::fs::read_to_string(&svg).map_err(bad)?;
        Ok(drawn.replace(&format!("{}/", dir.display()), ""))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    drawn
}
