//! The `warsweep` binary: parses the command line, calls the library, and turns every error into
//! one line on stderr and a non-zero exit code.

mod cli;

use anyhow::{bail, Context, Result};
use clap::Parser;
use cli::{AnswerArgs, BattleArgs, Cli, Command, GatherArg, PlayArgs, RulesArg, ShuffleArg};
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use warsweep::deal::Shuffle;
use warsweep::engine::{Engine, GameResult, Outcome};
use warsweep::rules::{Gather, Preset, Rules};
use warsweep::trace::Trace;
use warsweep::{battle, input, record};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("warsweep: {}", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("warsweep: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// clap's message without its usage block: `error: invalid value 'x' for '--rules <RULES>' ...`.
fn one_line(rendered: &str) -> String {
    rendered
        .lines()
        .map(str::trim)
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more"))
        .filter(|line| !line.is_empty())
        .map(|line| line.trim_start_matches("error: "))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A reader that went away (`warsweep ... | head`) is not an error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Play(args) => play(args),
        Command::Answer(args) => answer(args),
        Command::Battle(args) => battle(args),
    }
}

fn preset(arg: Option<RulesArg>, default: Preset) -> Preset {
    match arg {
        None => default,
        Some(RulesArg::Codingame) => Preset::Codingame,
        Some(RulesArg::Shortened) => Preset::Shortened,
        Some(RulesArg::Classic) => Preset::Classic,
        Some(RulesArg::Oorlog) => Preset::Oorlog,
    }
}

fn gather(arg: Option<GatherArg>) -> Option<Gather> {
    arg.map(|g| match g {
        GatherArg::Reveal => Gather::Reveal,
        GatherArg::P1First => Gather::P1First,
        GatherArg::WinnerFirst => Gather::WinnerFirst,
        GatherArg::Random => Gather::Random,
    })
}

fn shuffle(arg: ShuffleArg) -> Shuffle {
    match arg {
        ShuffleArg::Lcg => Shuffle::Lcg,
        ShuffleArg::Splitmix => Shuffle::Splitmix,
    }
}

/// The bytes of FILE, or of stdin for none or `-`, and a name for messages.
fn read_input(file: Option<&Path>) -> Result<(Vec<u8>, String)> {
    let mut bytes = Vec::new();
    match file {
        Some(path) if path != Path::new("-") => {
            bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            Ok((bytes, path.display().to_string()))
        }
        _ => {
            io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read stdin")?;
            Ok((bytes, "stdin".to_string()))
        }
    }
}

fn play(args: PlayArgs) -> Result<()> {
    let preset = preset(args.setting.rules, Preset::Codingame);
    let gather = gather(args.setting.gather);
    let stdout = io::stdout().lock();
    let mut trace = Trace::new(io::BufWriter::new(stdout));
    let (rules, result): (Rules, GameResult) = match args.seed {
        Some(seed) => {
            if args.file.is_some() {
                bail!("give either a file of hands or --seed, not both");
            }
            let rules = Rules::new(preset, args.setting.players, gather)?;
            let mut engine = Engine::new(rules);
            engine.set_max_rounds(args.setting.max_rounds);
            let shuffle = shuffle(args.shuffle);
            let result = if args.trace {
                trace.deal(&engine.deal(shuffle, seed));
                engine.play_seed_observed(shuffle, seed, &mut trace)
            } else {
                engine.play_seed(shuffle, seed)
            };
            (rules, result)
        }
        None => {
            let (bytes, name) = read_input(args.file.as_deref())?;
            let hands =
                input::parse_hands(&bytes).with_context(|| format!("reading hands from {name}"))?;
            let players = hands.len();
            if let Some(n) = args.setting.players.filter(|&n| n != players) {
                bail!("{name} holds {players} hands but --players says {n}");
            }
            let rules = Rules::new(preset, Some(players), gather)
                .with_context(|| format!("{name} holds {players} hands"))?;
            let total = hands.iter().map(Vec::len).sum();
            let mut engine = Engine::with_capacity(rules, total, preset.deck());
            engine.set_max_rounds(args.setting.max_rounds);
            let result = if args.trace {
                trace.deal(&hands);
                engine.play_hands(&hands, 0, &mut trace)
            } else {
                engine.play_hands(&hands, 0, &mut warsweep::engine::Silent)
            };
            (rules, result)
        }
    };
    if args.trace {
        if let Outcome::Infinite {
            cycle_start,
            cycle_length,
        } = result.outcome
        {
            trace.say(&format!(
                "the hands after round {cycle_start} come back every {cycle_length} rounds: the game never ends"
            ));
        }
    }
    trace.say(&record::play_line(&rules, &result));
    trace.finish().context("cannot write to stdout")?;
    Ok(())
}

fn answer(args: AnswerArgs) -> Result<()> {
    let (bytes, name) = read_input(args.file.as_deref())?;
    let seeds = input::parse_seeds(&bytes).with_context(|| format!("reading seeds from {name}"))?;
    let rules = Rules::preset(preset(args.rules, Preset::Shortened));
    let mut engine = Engine::new(rules);
    let shuffle = shuffle(args.shuffle);
    let pairs: Vec<String> = seeds
        .iter()
        .map(|&seed| record::answer_pair(&rules, &engine.play_seed(shuffle, seed)))
        .collect();
    writeln!(io::stdout(), "{}", pairs.join(" ")).context("cannot write to stdout")?;
    Ok(())
}

fn battle(args: BattleArgs) -> Result<()> {
    let text = if args.cards.is_empty() {
        let (bytes, _) = read_input(None)?;
        String::from_utf8(bytes).context("the battle on stdin is not text")?
    } else {
        args.cards.join(" ")
    };
    let values = input::parse_battle_values(&text)?;
    let winner = battle::resolve(args.players, &values)?;
    let shown = winner + usize::from(args.one_based);
    writeln!(io::stdout(), "{shown}").context("cannot write to stdout")?;
    Ok(())
}
