//! `warsweep hunt`: a hunt's flags into a search (or reports joined), its progress bar, and
//! what a stopped hunt prints.

use crate::cli::signals;
use crate::cli::{self, HuntArgs};
use crate::{note_rules, rules_of, say, show};
use anyhow::Result;
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::process::ExitCode;
use warsweep::hunt::{Goal, Hunt, HuntError, Report};
use warsweep::job::{self, HuntFiles};
use warsweep::{DeviceError, Preset, Seeds};

pub fn hunt(args: HuntArgs) -> Result<ExitCode> {
    let files = HuntFiles {
        report: args.out.clone(),
        log: args.log.clone(),
    };
    if !args.join.is_empty() {
        return join(&args, &files);
    }
    let rules = rules_of(&args.setting, Preset::Bataille, None)?;
    if !args.quiet {
        note_rules(&rules);
    }
    let (mut hunt, goal, games) = hunt_of(&args, rules)?;
    // Outputs that clash with the start file are refused before it is read.
    let inputs: Vec<std::path::PathBuf> = args.start.iter().cloned().collect();
    files.check(&inputs)?;
    if let Some(path) = &args.start {
        hunt = hunt.start(job::read_start(path, &rules)?);
    }
    hunt.check()?;
    let bar = hunt_bar(games, args.quiet);
    let signals = signals::Signals::watch();
    let hunted = hunt.run(
        &|status| {
            bar.set_position(status.games);
            if let Some(best) = status.best {
                bar.set_message(match goal {
                    Goal::Cycles => format!("{best} cycles"),
                    _ => format!("best {best}"),
                });
            }
        },
        &signals.stop,
    );
    let hunted = match hunted {
        Err(HuntError::Device(DeviceError::Unfit(reasons))) => {
            return Err(cli::gpu_refusal("hunt", &reasons))
        }
        hunted => hunted?,
    };
    bar.finish_and_clear();
    let report = Report::of(&hunt, &hunted);
    files.write(&report)?;
    if !args.quiet {
        show(&report.table(), files_to_stdout(&files))?;
    }
    if signals.stop.load(std::sync::atomic::Ordering::SeqCst) {
        let (name, code) = signals.received();
        say(&format!(
            "warsweep: stopped by {name} after {} games: the deals it found are kept",
            report.games()
        ));
        return Ok(ExitCode::from(code));
    }
    Ok(ExitCode::SUCCESS)
}

/// `hunt --join`: the reports of a hunt's shards joined into one.
fn join(args: &HuntArgs, files: &HuntFiles) -> Result<ExitCode> {
    files.check(&args.join)?;
    let reports = args
        .join
        .iter()
        .map(|path| job::read_report(path))
        .collect::<Result<Vec<_>, _>>()?;
    let joined = Report::join(&reports)?;
    files.write(&joined)?;
    if !args.quiet {
        show(&joined.table(), files_to_stdout(files))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The hunt the flags ask for, of `rules`, its goal, and its budget of games (a million when
/// neither games nor time is given).
fn hunt_of(args: &HuntArgs, rules: warsweep::Rules) -> Result<(Hunt, Goal, Option<u64>)> {
    let goal = match args.goal {
        cli::HuntGoal::Longest => Goal::Longest(args.metric),
        cli::HuntGoal::Cycles => Goal::Cycles,
    };
    let (k, n) = match &args.shard {
        Some(part) => Seeds::part(part)?,
        None => (0, 1),
    };
    let games = match (args.games, args.time) {
        (None, None) => Some(1_000_000),
        (games, _) => games,
    };
    let mut hunt = Hunt::new(rules, goal)
        .seed(args.seed)
        .stream(k, n)
        .games(games)
        .time(args.time)
        .keep(args.keep)
        .backward_states(args.backward_states)
        .gpu(args.device == cli::Device::Gpu);
    if let Some(strategy) = args.strategy {
        hunt = hunt.strategy(strategy);
    }
    if let Some(threads) = args.threads {
        hunt = hunt.threads(threads);
    }
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
/// has one), games a second, the best so far.
fn hunt_bar(games: Option<u64>, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(games, ProgressDrawTarget::stderr());
    let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{} games/s", HumanCount(state.per_sec() as u64));
    };
    let template = match games {
        Some(_) => "{bar:12} {human_pos}/{human_len} games {rate} {msg} ETA {eta}",
        None => "{human_pos} games {rate} {msg} {elapsed}",
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("a valid template")
            .with_key("rate", rate),
    );
    bar
}
