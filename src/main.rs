//! The `warsweep` binary: parses the command line, calls the library, and turns every error into
//! one line on stderr and a non-zero exit code.

mod cli;

use anyhow::{anyhow, bail, Context, Result};
use clap::CommandFactory;
use cli::CompletionsArgs;
use cli::{AnswerArgs, BattleArgs, Cli, Command, MergeArgs, PlayArgs, PlotArgs, SettingArgs};
use std::io::{self, Write};
use std::process::ExitCode;
use warsweep::job::{self, Files};
use warsweep::puzzles::{self, PlayError, Start};
use warsweep::{Engine, GameResult, Preset, Rules, RulesError, Settings};

fn main() -> ExitCode {
    let cli = match cli::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let done = match cli.command {
        Command::Play(args) => play(args).map(|_| ExitCode::SUCCESS),
        Command::Answer(args) => answer(args).map(|_| ExitCode::SUCCESS),
        Command::Battle(args) => battle(args).map(|_| ExitCode::SUCCESS),
        Command::Sweep(args) => cli::sweep::sweep(args),
        Command::Hunt(args) => cli::hunt::hunt(args),
        Command::Shapes(args) => cli::shapes::shapes(args),
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
            say(&format!("warsweep: {}", cli::said(&e)));
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
    let flag = |e: RulesError| anyhow!("{}: {}", cli::flag(e.setting()), e.reason());
    settings.build().map_err(flag)
}

/// A census of shapes, on `--threads` threads.
/// Notes what the rules' flags do not do on this setting ([`Rules::inert_ranking`]).
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
        if let Some(repeats) = args.shuffle.repeats_note(u128::from(seed) + 1) {
            say(&format!("warsweep: note: {repeats}"));
        }
        let start = Start::Seed(args.shuffle, seed);
        if args.certify {
            return print_out(&puzzles::certify(rules, start)?.to_string());
        }
        return play_out(puzzles::play(rules, max_rounds, start, args.trace, out));
    }
    // The deck the flags name decides which values the hands may hold.
    let deck = rules_of(&args.setting, Preset::Codingame, Some(2))?.deck();
    let (bytes, name) = cli::read(args.file.as_deref())?;
    let hands =
        puzzles::parse_hands(&bytes, deck).with_context(|| format!("reading hands from {name}"))?;
    if let Some(excess) = deck.excess(&hands.concat()) {
        say(&format!(
            "warsweep: note: {excess}: they are played as given"
        ));
    }
    if let Some(missing) = deck.missing(&hands.concat()) {
        say(&format!(
            "warsweep: note: {missing}: the game is played without it"
        ));
    }
    let plural = if hands.len() == 1 { "" } else { "s" };
    let held = format!("{name} holds {} hand{plural}", hands.len());
    if let Some(n) = args.setting.players.filter(|&n| n != hands.len()) {
        bail!("{held} but --players says {n}");
    }
    let rules = rules_of(&args.setting, Preset::Codingame, Some(hands.len())).context(held)?;
    note_rules(&rules);
    let start = Start::Hands(&hands);
    if args.certify {
        return print_out(&puzzles::certify(rules, start)?.to_string());
    }
    play_out(puzzles::play(rules, max_rounds, start, args.trace, out))
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
    let (bytes, name) = cli::read(args.file.as_deref())?;
    let seeds =
        puzzles::parse_seeds(&bytes).with_context(|| format!("reading seeds from {name}"))?;
    let mut engine = Engine::new(rules);
    engine.set_max_rounds(args.setting.max_rounds)?;
    let pairs: Vec<String> = seeds
        .iter()
        .map(|&seed| {
            Ok(puzzles::answer_pair(
                &rules,
                &engine.play_seed(args.shuffle, seed)?,
            ))
        })
        .collect::<Result<_>>()?;
    print_out(&format!("{}\n", pairs.join(" ")))
}

fn battle(args: BattleArgs) -> Result<()> {
    let text = if args.cards.is_empty() {
        String::from_utf8(cli::read(None)?.0).context("the battle on stdin is not text")?
    } else {
        args.cards.join(" ")
    };
    let winner = puzzles::resolve_battle(args.players, &puzzles::parse_battle_values(&text)?)?;
    print_out(&format!("{}\n", winner + usize::from(args.one_based)))
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
    let o = args.outputs;
    let files = Files {
        csv: None,
        summary: o.summary,
        hist: o.hist,
        plot: o.plot,
        cycles: o.cycles,
    };
    let merged = job::merge(&args.inputs, &files)?;
    if !args.quiet {
        show(&merged.table(), files.to_stdout())?;
    }
    Ok(())
}

fn plot(args: PlotArgs) -> Result<()> {
    let (inputs, output) = (&args.inputs, &args.output);
    Ok(job::plot(
        inputs,
        output,
        args.metric,
        args.title,
        args.log,
    )?)
}

fn completions(args: CompletionsArgs) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "warsweep", &mut script);
    print_out(&String::from_utf8_lossy(&script))
}
