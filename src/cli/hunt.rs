//! `warsweep hunt`: a hunt's flags into a search (or reports joined), its progress bar, and
//! what a stopped hunt prints.

use crate::cli::signals;
use crate::cli::{self, HuntArgs};
use crate::{note_rules, rules_of, say, show};
use anyhow::{anyhow, bail, Result};
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};
use warsweep::hunt::{Goal, Hunt, HuntError, Status};
use warsweep::job::{self, HuntFiles, HuntJob, Rescue};
use warsweep::{DeviceError, Metric, Preset, Seeds, DEFAULT_MAX_ROUNDS};

pub fn hunt(args: HuntArgs) -> Result<ExitCode> {
    let began = Instant::now();
    let files = HuntFiles {
        report: args.out.clone(),
        log: args.log.clone(),
    };
    if !args.join.is_empty() {
        return join(&args, &files);
    }
    let rules = rules_of(&args.setting, Preset::Bataille, None)?;
    if args.setting.max_rounds != DEFAULT_MAX_ROUNDS {
        bail!("--max-rounds: a hunt plays every game to its end or its cycle, which it detects exactly, so a limit of rounds does nothing here");
    }
    if !args.quiet {
        note_rules(&rules);
    }
    let (hunt, goal, games) = hunt_of(&args, rules)?;
    let every = Duration::try_from_secs_f64(args.checkpoint_seconds);
    let every = every.map_err(|_| {
        anyhow!(
            "--checkpoint-seconds: {} is no time",
            args.checkpoint_seconds
        )
    })?;
    let job = HuntJob {
        hunt,
        files: files.clone(),
        start: args.start.clone(),
        resume: args.resume,
        checkpoint_every: every,
    };
    let quiet = args.quiet;
    let job = job.prepare(&mut |note| {
        if !quiet {
            say(&format!("warsweep: note: {note}"));
        }
    });
    let mut job = job.map_err(refusal)?;
    // `--time` is the command's: what a building strategy found before its first game (the
    // shapes census takes seconds on 4x13) is taken from the hunt's.
    if let Some(time) = args.time {
        let left = time.saturating_sub(began.elapsed());
        job.hunt = job.hunt.time(Some(left.max(Duration::from_millis(1))));
    }
    let bar = hunt_bar(games, args.time, args.quiet);
    let signals = signals::Signals::watch();
    let rescue = Arc::new(Rescue::default());
    signals.on_last_signal(last_words(
        rescue.clone(),
        files.clone(),
        quiet,
        bar.clone(),
    ));
    let run = job.run(
        &|status| progress(&bar, goal, status),
        &signals.stop,
        &signals.writing,
        &rescue,
    );
    let run = run.map_err(refusal)?;
    bar.finish_and_clear();
    if !args.quiet {
        show(&run.report.table(), files_to_stdout(&files))?;
    }
    if signals.stop.load(std::sync::atomic::Ordering::SeqCst) {
        let (name, code) = signals.received();
        let then = match &run.checkpoint {
            Some(_) => "; the same command with --resume goes on from its checkpoint",
            None => "",
        };
        say(&format!(
            "warsweep: stopped by {name} after {}: the deals it found are kept{then}",
            count(run.report.games(), "game")
        ));
        return Ok(ExitCode::from(code));
    }
    Ok(ExitCode::SUCCESS)
}

/// A hunt's progress on its bar: games played, the best so far (or the cycles found), and a
/// building strategy's games built and fallen back.
fn progress(bar: &ProgressBar, goal: Goal, status: Status) {
    bar.set_position(status.games);
    let best = status.best.map(|best| match goal {
        Goal::Cycles => count(best, "cycle"),
        _ => format!("best {best}"),
    });
    let built = (status.built + status.fell_back > 0).then(|| {
        format!(
            "{} built, {} fallen back",
            HumanCount(status.built),
            HumanCount(status.fell_back)
        )
    });
    let said: Vec<String> = best.into_iter().chain(built).collect();
    bar.set_message(said.join(", "));
}

/// What a hunt says when a late second signal ends it: the report and the log of its last
/// checkpoint written (or its table printed, without files), and where they are.
fn last_words(
    rescue: Arc<Rescue>,
    files: HuntFiles,
    quiet: bool,
    bar: ProgressBar,
) -> signals::LastWords {
    Box::new(move |name| {
        bar.finish_and_clear();
        let report = match rescue.write(&files) {
            Ok(Some(report)) => report,
            Ok(None) => {
                say(&format!(
                    "warsweep: ended by a second {name}: its files were written"
                ));
                return;
            }
            Err(e) => {
                say(&format!("warsweep: ended by a second {name}, and {e}"));
                return;
            }
        };
        let none = files.report.is_none() && files.log.is_none();
        if none && !quiet {
            let _ = show(&report.table(), false);
        }
        let written: Vec<String> = [("report", &files.report), ("log", &files.log)]
            .into_iter()
            .filter_map(|(what, path)| Some(format!("the {what} {}", path.as_ref()?.display())))
            .collect();
        let held = match written.is_empty() {
            true => "what it had found is above".to_string(),
            false => format!("{} hold what it had found", written.join(" and ")),
        };
        let then = match files.checkpoint() {
            Some(path) => format!(
                "; the same command with --resume goes on from {}",
                path.display()
            ),
            None => String::new(),
        };
        say(&format!(
            "warsweep: ended by a second {name} at its last checkpoint, after {}: {held}{then}",
            count(report.games(), "game")
        ));
    })
}

/// A hunt job's refusal as the command line says it: what the GPU cannot play in the
/// command line's words, a refused resume with its flag in front.
fn refusal(e: job::Error) -> anyhow::Error {
    let typed = e.typed();
    if let Some(HuntError::Device(DeviceError::Unfit(reasons))) =
        typed.and_then(|t| t.downcast_ref::<HuntError>())
    {
        return cli::gpu_refusal("hunt", reasons);
    }
    match typed.and_then(|t| t.downcast_ref::<job::JobError>()) {
        Some(refused) if refused.setting() == "resume" => anyhow!("--resume: {e}"),
        _ => e.into(),
    }
}

/// `hunt --join`: the reports of a hunt's shards joined into one.
fn join(args: &HuntArgs, files: &HuntFiles) -> Result<ExitCode> {
    let joined = job::join(&args.join, files)?;
    if !args.quiet {
        show(&joined.table(), files_to_stdout(files))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The hunt the flags ask for, of `rules`, its goal, and its budget of games (a million when
/// neither games nor time is given).
fn hunt_of(args: &HuntArgs, rules: warsweep::Rules) -> Result<(Hunt, Goal, Option<u64>)> {
    let goal = match (args.goal, args.metric) {
        (cli::HuntGoal::Longest, metric) => Goal::Longest(metric.unwrap_or(Metric::Rounds)),
        (cli::HuntGoal::Cycles, None) => Goal::Cycles,
        (cli::HuntGoal::Cycles, Some(metric)) => bail!(
            "--metric: a hunt for cycles keeps each distinct cycle, and measures no game by {metric}: give --metric with --for longest"
        ),
    };
    let (k, n) = match &args.shard {
        Some(part) => Seeds::part(part)?,
        None => (0, 1),
    };
    let games = match (args.games, args.time) {
        (None, None) => Some(1_000_000),
        (games, _) => games,
    };
    let hunt = Hunt::new(rules, goal)
        .seed(args.seed)
        .stream(k, n)
        .games(games)
        .time(args.time)
        .keep(args.keep)
        .backward_states(args.backward_states)
        .gpu(args.device == cli::Device::Gpu);
    let hunt = match args.strategy {
        Some(strategy) => hunt.strategy(strategy),
        None => hunt,
    };
    let hunt = match args.threads {
        Some(threads) => hunt.threads(threads),
        None => hunt,
    };
    Ok((hunt, goal, games))
}

/// Whether the report or the log goes to stdout, where the table then cannot.
fn files_to_stdout(files: &HuntFiles) -> bool {
    [&files.report, &files.log]
        .into_iter()
        .flatten()
        .any(|p| p == std::path::Path::new("-"))
}

/// A hunt's progress bar on stderr when it is a terminal: games played (of the budget, if it
/// has one), games a second, the best so far, and the time left of its `--time`.
fn hunt_bar(games: Option<u64>, time: Option<Duration>, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(games, ProgressDrawTarget::stderr());
    let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{} games/s", HumanCount(state.per_sec() as u64));
    };
    let started = Instant::now();
    let left = move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let left = time.map(|t| t.saturating_sub(started.elapsed()));
        if let Some(left) = left {
            let _ = write!(w, "{}s left", left.as_secs());
        }
    };
    let template = match games {
        Some(_) => "{bar:12} {human_pos}/{human_len} games {rate} {msg} ETA {eta} {left}",
        None => "{human_pos} games {rate} {msg} {elapsed} {left}",
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("a valid template")
            .with_key("rate", rate)
            .with_key("left", left),
    );
    bar
}

/// `n` of `noun`, its digits grouped, singular or plural as `n` asks: `1 game`, `23,048,192
/// games`.
fn count(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{} {noun}s", HumanCount(n)),
    }
}
