//! `warsweep sweep`: a sweep's flags into a job, its progress bar, and what a stopped sweep
//! prints.

use crate::cli::signals;
use crate::cli::{self, SweepArgs};
use crate::{rules_of, say, show};
use anyhow::{bail, Result};
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;
use warsweep::job::{Files, Job};
use warsweep::{Preset, Seeds, Stop, Sweep, Unfit};

/// A progress bar on stderr when it is a terminal: at most 80 columns, even for 305,540,235,000
/// seeds (12 + 1 + 37 + 19 + 11).
fn progress_bar(total: u128, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let length = total.min(u128::from(u64::MAX)) as u64;
    let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
    let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{} games/s", HumanCount(state.per_sec() as u64));
    };
    bar.set_style(
        ProgressStyle::with_template(&bar_template(total))
            .expect("a valid template")
            .with_key("rate", rate),
    );
    bar
}

/// The bar's template for `total` seeds. A bar counts to `u64::MAX` at most, one short of every
/// seed there is (`0..=18446744073709551615`): that total is written out instead of the bar's.
fn bar_template(total: u128) -> String {
    let of = match u64::try_from(total) {
        Ok(_) => "{human_len}".to_string(),
        Err(_) => {
            let digits = total.to_string();
            let mut grouped = String::new();
            for (i, d) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i).is_multiple_of(3) {
                    grouped.push(',');
                }
                grouped.push(d);
            }
            grouped
        }
    };
    format!("{{bar:12}} {{human_pos}}/{of} seeds {{rate}} ETA {{eta}}")
}

/// The sweep the flags describe (its range, and the whole of which it is a shard), refused as
/// the library refuses it.
fn sweep_of(args: &SweepArgs) -> Result<(Sweep, Seeds)> {
    let rules = rules_of(&args.setting, Preset::Shortened, None)?;
    let (range, part) = (args.seeds, args.shard.as_deref());
    let seeds = Seeds::choose(range, args.shuffle, rules.deck(), part)?;
    let whole = Seeds::choose(range, args.shuffle, rules.deck(), None)?;
    let mut sweep = Sweep::new(rules, args.shuffle, seeds)
        .max_rounds(args.setting.max_rounds)
        .pacing(args.chunk, args.window)
        .cycles(args.outputs.cycles.is_some())
        .mirrors(!args.every_deal)
        .gpu(args.device == cli::Device::Gpu)
        .shard_of(whole);
    if let Some(threads) = args.threads {
        sweep = sweep.threads(threads);
    }
    Ok((sweep, seeds))
}

pub fn sweep(args: SweepArgs) -> Result<ExitCode> {
    let built = sweep_of(&args);
    // What the GPU cannot play comes first, a build without GPU support first of all.
    let unfit = match &built {
        Ok((sweep, _)) => sweep.unfit_for_gpu(args.csv.is_some()),
        Err(_) if args.device == cli::Device::Gpu && !warsweep::GPU_SUPPORT => {
            vec![Unfit::NotBuilt]
        }
        Err(_) => Vec::new(),
    };
    if !unfit.is_empty() {
        return Err(cli::gpu_refusal("sweep", &unfit));
    }
    let (sweep, seeds) = built?;
    if !(args.checkpoint_seconds.is_finite() && args.checkpoint_seconds >= 0.0) {
        bail!("--checkpoint-seconds must be a duration, 0 or more");
    }
    let (o, csv) = (args.outputs, args.csv);
    let files = Files {
        csv,
        summary: o.summary,
        hist: o.hist,
        plot: o.plot,
        cycles: o.cycles,
    };
    // An output on stdout sends the readable table to stderr.
    let table_to_stderr = files.to_stdout();
    let checkpoint_every = Duration::from_secs_f64(args.checkpoint_seconds);
    let job = Job {
        sweep,
        files,
        resume: args.resume,
        checkpoint_every,
    };
    let quiet = args.quiet;
    let ready = job.prepare(&mut |note| {
        if !quiet {
            say(&format!("warsweep: note: {note}"));
        }
    })?;
    let bar = progress_bar(seeds.len(), quiet);
    bar.set_position(ready.already_played());
    let signals = signals::Signals::watch();
    let done = ready.run(&|n| bar.inc(n), &signals.stop)?;
    bar.finish_and_clear();
    match done.stopped {
        Some(Stop::ReaderGone) if !quiet => say(&format!(
            "warsweep: the CSV's reader went away: {}",
            done.played(seeds, "--resume")
        )),
        Some(Stop::Interrupted) => {
            let (name, code) = signals.received();
            say(&format!(
                "warsweep: stopped by {name}: {}",
                done.played(seeds, "--resume")
            ));
            // What was played, marked as partial; a closed stdout does not change the exit code.
            if !quiet {
                let _ = show(&done.table(), table_to_stderr);
            }
            return Ok(ExitCode::from(code));
        }
        None if !quiet => show(&done.table(), table_to_stderr)?,
        _ => {}
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::bar_template;

    /// Fault: the bar of `--seeds 0..=18446744073709551615` showed a total one short (a bar
    /// counts in `u64`); its template now writes every seed's count.
    #[test]
    fn the_bar_of_every_seed_shows_its_whole_total() {
        let every = bar_template(1 << 64);
        assert!(
            every.contains("/18,446,744,073,709,551,616 seeds"),
            "{every}"
        );
        assert!(bar_template(u128::from(u64::MAX)).contains("/{human_len} seeds"));
        assert!(bar_template(100_000).contains("/{human_len} seeds"));
    }
}
