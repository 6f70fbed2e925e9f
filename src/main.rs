//! The `warsweep` binary: parses the command line, calls the library, and turns every error into
//! one line on stderr and a non-zero exit code.

mod cli;
mod signals;

use anyhow::{anyhow, bail, Context, Result};
use clap::CommandFactory;
use cli::{AnswerArgs, BattleArgs, Cli, Command, MergeArgs, PlayArgs, PlotArgs, SettingArgs};
use cli::{CompletionsArgs, SweepArgs};
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;
use warsweep::deal::seeds;
use warsweep::engine::{Engine, GameResult};
use warsweep::output::outputs::{target, Outputs};
use warsweep::output::summary::{self, Summary};
use warsweep::output::{files, record, report};
use warsweep::puzzles::play::{self, PlayError, Start};
use warsweep::puzzles::{battle, input};
use warsweep::rules::{Preset, Rules, RulesError, Settings};
use warsweep::sweep::job::{Files, Job};
use warsweep::sweep::{Pacing, Stop, Sweep};
use warsweep::text::count;

fn main() -> ExitCode {
    let cli = match cli::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let done = match cli.command {
        Command::Play(args) => play(args).map(|_| ExitCode::SUCCESS),
        Command::Answer(args) => answer(args).map(|_| ExitCode::SUCCESS),
        Command::Battle(args) => battle(args).map(|_| ExitCode::SUCCESS),
        Command::Sweep(args) => sweep(args),
        Command::Merge(args) => merge(args).map(|_| ExitCode::SUCCESS),
        Command::Plot(args) => plot(args).map(|_| ExitCode::SUCCESS),
        Command::Completions(args) => completions(args).map(|_| ExitCode::SUCCESS),
        Command::Man(args) => cli::man(args.command.as_deref(), args.out_dir.as_deref())
            .and_then(|page| print_out(&String::from_utf8_lossy(&page)))
            .map(|_| ExitCode::SUCCESS),
    };
    match done {
        Ok(code) => code,
        // A reader that went away (`warsweep ... | head`) is not an error.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<io::Error>()
                    .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            say(&format!("warsweep: {e:#}"));
            ExitCode::FAILURE
        }
    }
}

/// One line on stderr; a closed stderr is no reason to fail.
fn say(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// Writes `text` to stdout, flushed; or to stderr when stdout carries an output.
fn print_out(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .context("cannot write to stdout")
}

/// The validated rules the setting flags describe, starting from `default` unless `--rules`
/// names a preset. `players` (the hands of a file) overrides `--players`.
fn rules_of(setting: &SettingArgs, default: Preset, players: Option<usize>) -> Result<Rules> {
    let settings = Settings::new(setting.rules.unwrap_or(default))
        .deck(setting.deck)
        .players(players.or(setting.players))
        .face_down(setting.face_down)
        .short_war(setting.short_war)
        .gather(setting.gather)
        .deal(setting.deal)
        .ranking(setting.ranking)
        .won_pile(setting.won_pile);
    // The library names the setting at fault (`face_down`); the command line names its flag.
    let flag = |e: RulesError| anyhow!("--{}: {}", e.setting().replace('_', "-"), e.reason());
    settings.build().map_err(flag)
}

/// Notes what the rules' flags do not do on this setting (`Rules::inert_ranking`).
fn note_rules(rules: &Rules) {
    if let Some(note) = rules.inert_ranking() {
        say(&format!("warsweep: note: {note}"));
    }
}

fn play(args: PlayArgs) -> Result<()> {
    let (max_rounds, out) = (args.setting.max_rounds, io::stdout().lock());
    if let Some(seed) = args.seed {
        if args.file.is_some() {
            bail!("give either a file of hands or --seed, not both");
        }
        let rules = rules_of(&args.setting, Preset::Codingame, None)?;
        note_rules(&rules);
        let start = Start::Seed(args.shuffle, seed);
        return play_out(play::play(rules, max_rounds, start, args.trace, out));
    }
    // The deck the flags name decides which values the hands may hold.
    let deck = rules_of(&args.setting, Preset::Codingame, Some(2))?.deck();
    let (bytes, name) = input::read(args.file.as_deref())?;
    let hands =
        input::parse_hands(&bytes, deck).with_context(|| format!("reading hands from {name}"))?;
    let excess = deck.excess(&hands.concat());
    if !excess.is_empty() {
        say(&format!(
            "warsweep: note: {excess}: they are played as given"
        ));
    }
    let held = format!("{name} holds {}", count(hands.len() as u64, "hand"));
    if let Some(n) = args.setting.players.filter(|&n| n != hands.len()) {
        bail!("{held} but --players says {n}");
    }
    let rules = rules_of(&args.setting, Preset::Codingame, Some(hands.len())).context(held)?;
    note_rules(&rules);
    let start = Start::Hands(&hands);
    play_out(play::play(rules, max_rounds, start, args.trace, out))
}

/// A game played and shown: what failed, writing named as such.
fn play_out(played: Result<GameResult, PlayError>) -> Result<()> {
    match played {
        Ok(_) => Ok(()),
        Err(PlayError::Write(e)) => Err(e).context("cannot write to stdout"),
        Err(e) => Err(e.into()),
    }
}

fn answer(args: AnswerArgs) -> Result<()> {
    let rules = rules_of(&args.setting, Preset::Shortened, None)?;
    note_rules(&rules);
    let (bytes, name) = input::read(args.file.as_deref())?;
    let seeds = input::parse_seeds(&bytes).with_context(|| format!("reading seeds from {name}"))?;
    let mut engine = Engine::new(rules);
    engine.set_max_rounds(args.setting.max_rounds);
    let pairs: Vec<String> = seeds
        .iter()
        .map(|&seed| {
            Ok(record::answer_pair(
                &rules,
                &engine.play_seed(args.shuffle, seed)?,
            ))
        })
        .collect::<Result<_>>()?;
    print_out(&format!("{}\n", pairs.join(" ")))
}

fn battle(args: BattleArgs) -> Result<()> {
    let text = if args.cards.is_empty() {
        String::from_utf8(input::read(None)?.0).context("the battle on stdin is not text")?
    } else {
        args.cards.join(" ")
    };
    let winner = battle::resolve(args.players, &input::parse_battle_values(&text)?)?;
    print_out(&format!("{}\n", winner + usize::from(args.one_based)))
}

/// A progress bar on stderr when it is a terminal: at most 80 columns, even for 305,540,235,000
/// seeds (12 + 1 + 37 + 19 + 11).
fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{} games/s", HumanCount(state.per_sec() as u64));
    };
    let template = "{bar:12} {human_pos}/{human_len} seeds {rate} ETA {eta}";
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("a valid template")
            .with_key("rate", rate),
    );
    bar
}

fn sweep(args: SweepArgs) -> Result<ExitCode> {
    let rules = rules_of(&args.setting, Preset::Shortened, None)?;
    let (range, part) = (args.seeds, args.shard.as_deref());
    let seeds = seeds::choose(range, args.shuffle, rules.deck(), part)?;
    let whole = seeds::choose(range, args.shuffle, rules.deck(), None)?;
    if args.chunk == 0 || args.window == 0 {
        bail!("--chunk and --window must be at least 1");
    }
    if !(args.checkpoint_seconds.is_finite() && args.checkpoint_seconds >= 0.0) {
        bail!("--checkpoint-seconds must be a duration, 0 or more");
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let pacing = Pacing {
        chunk: args.chunk,
        window: args.window,
    };
    let max_rounds = args.setting.max_rounds;
    let sweep = Sweep {
        rules,
        shuffle: args.shuffle,
        seeds,
        max_rounds,
        threads,
        pacing,
        cycles: args.outputs.cycles.is_some(),
        mirrors: !args.every_deal,
        pairs: whole,
    };
    let (o, csv) = (args.outputs, args.csv);
    let files = Files {
        csv,
        summary: o.summary,
        hist: o.hist,
        plot: o.plot,
        cycles: o.cycles,
    };
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
    let table_to_stderr = ready.table_to_stderr();
    let bar = progress_bar(seeds.len().min(u64::MAX as u128) as u64, quiet);
    bar.set_position(ready.already_played());
    let signals = signals::Signals::watch();
    let done = ready.run(&|n| bar.inc(n), &signals.stop)?;
    bar.finish_and_clear();
    match done.stopped {
        Some(Stop::ReaderGone) if !quiet => say(&format!(
            "warsweep: the CSV's reader went away: {}",
            done.played(seeds)
        )),
        Some(Stop::Interrupted) => {
            let (name, code) = signals.received();
            say(&format!(
                "warsweep: stopped by {name}: {}",
                done.played(seeds)
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

/// The readable table: on stdout, or on stderr when stdout carries an output.
fn show(table: &str, to_stderr: bool) -> Result<()> {
    if to_stderr {
        let _ = write!(io::stderr(), "{table}");
        Ok(())
    } else {
        print_out(table)
    }
}

fn merge(args: MergeArgs) -> Result<()> {
    let o = &args.outputs;
    let (json, hist, plot) = (o.summary.as_deref(), o.hist.as_deref(), o.plot.as_deref());
    let cycles = o.cycles.as_deref();
    let outputs = [
        ("--summary", json),
        ("--hist", hist),
        ("--plot", plot),
        ("--cycles", cycles),
    ];
    files::check_inputs_and_outputs(&args.inputs, &outputs)?;
    let shards = args.inputs.iter().map(|p| summary::read(p).map(|(s, _)| s));
    let shards = shards.collect::<Result<Vec<Summary>, _>>()?;
    if cycles.is_some() {
        if let Some((path, _)) = args
            .inputs
            .iter()
            .zip(&shards)
            .find(|(_, s)| s.cycles.is_none())
        {
            bail!(
                "{} lists no distinct cycles: --cycles merges summaries of sweeps run with --cycles",
                path.display()
            );
        }
    }
    let outputs = Outputs::of(json, hist, plot, cycles)?;
    outputs.check()?;
    let merged = Summary::merge(&shards)?;
    outputs.write(&merged, &merged.accumulator()?)?;
    if !args.quiet {
        show(&merged.table(), outputs.to_stdout())?;
    }
    Ok(())
}

fn plot(args: PlotArgs) -> Result<()> {
    let output = [("--output", Some(args.output.as_path()))];
    files::check_inputs_and_outputs(&args.inputs, &output)?;
    let output = target(&args.output, "plot")?;
    let cannot = || format!("cannot write the plot to {}", args.output.display());
    output.check().with_context(cannot)?;
    let read = args
        .inputs
        .iter()
        .map(|p| summary::read(p).map(|(s, acc)| (p.clone(), s, acc)));
    let summaries = read.collect::<Result<Vec<_>, _>>()?;
    let metric = clap::ValueEnum::to_possible_value(&args.metric).expect("no hidden choices");
    let svg = report::overlay(&summaries, metric.get_name(), args.title, args.log)?;
    output
        .write_with(|out| out.write_all(svg.as_bytes()))
        .with_context(cannot)
}

fn completions(args: CompletionsArgs) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "warsweep", &mut script);
    print_out(&String::from_utf8_lossy(&script))
}
