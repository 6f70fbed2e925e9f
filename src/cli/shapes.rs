//! `warsweep shapes`: a census's flags into its bounds and options, its progress bar, its stop
//! at `--time` or a signal, and what it prints and writes.

use crate::cli::signals::Signals;
use crate::cli::ShapesArgs;
use crate::{print_out, rules_of, say};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use warsweep::shapes::{census_with, Bounds, Kind, Options};
use warsweep::Preset;

/// Takes the census; prints it (and writes it with `--out`), stopped or not. A census stopped
/// by a signal exits with 128 + the signal's number, as a stopped sweep does.
pub fn shapes(args: ShapesArgs) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let rules = rules_of(&args.setting, Preset::Bataille, None)?;
    let bounds = Bounds::named(args.longest, args.wars, args.periods, args.ties);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("cannot start the threads")?;
    let signals = Signals::watch();
    let done = AtomicUsize::new(0);
    let kinds = if args.kinds.is_empty() {
        &Kind::ALL[..]
    } else {
        &args.kinds[..]
    };
    let options = Options {
        held: args.held,
        kinds,
        states: args.states,
        aligned: args.aligned,
        chain: args.chain,
        mirrored: args.mirrored,
        deals: args.deals,
        stop: Some(&signals.stop),
        done: Some(&done),
    };
    let (found, timed_out) = std::thread::scope(|scope| {
        let working = scope.spawn(|| pool.install(|| census_with(&rules, &bounds, &options)));
        let timed_out = watch(&working, &done, &signals, args.time, began, args.quiet);
        (
            working.join().expect("the census does not panic"),
            timed_out,
        )
    });
    let found = found?;
    if let Some(out) = &args.out {
        let _writing = signals.writing.lock();
        (found.write_json(out)).with_context(|| format!("cannot write {}", out.display()))?;
    }
    print_out(&found.to_string())?;
    if !found.stopped {
        return Ok(ExitCode::SUCCESS);
    }
    let looked = found.looked;
    let battles = found.rows.last().map_or(0, |row| row.battles);
    let stopped =
        format!("after {looked} placings, in the row of {battles} battles; the counts are theirs");
    if timed_out {
        say(&format!("warsweep: stopped at --time {stopped}"));
        return Ok(ExitCode::SUCCESS);
    }
    let (name, code) = signals.received();
    say(&format!("warsweep: stopped by {name} {stopped}"));
    Ok(ExitCode::from(code))
}

/// Shows the placings done on a bar (on a terminal, unless `quiet`) until the census ends, and
/// sets the stop flag once `time` has passed since `began`: whether it did (before a signal).
fn watch<T>(
    working: &std::thread::ScopedJoinHandle<'_, T>,
    done: &AtomicUsize,
    signals: &Signals,
    time: Option<Duration>,
    began: Instant,
    quiet: bool,
) -> bool {
    let mut timed_out = false;
    let bar = if quiet || !io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {human_pos} placings {per_sec} {elapsed}")
                .expect("a valid template"),
        );
        bar
    };
    while !working.is_finished() {
        bar.set_position(done.load(Ordering::Relaxed) as u64);
        if time.is_some_and(|time| began.elapsed() >= time) && !timed_out {
            timed_out = !signals.stop.swap(true, Ordering::SeqCst);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    bar.finish_and_clear();
    timed_out
}
