//! The `warsweep` binary: parses the command line, calls the library, and turns every error into
//! one line on stderr and a non-zero exit code.

mod cli;

use anyhow::{bail, Context, Result};
use clap::Parser;
use clap::ValueEnum;
use cli::{
    AnswerArgs, BattleArgs, Cli, Command, MergeArgs, OutputArgs, PlayArgs, SettingArgs, SweepArgs,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use warsweep::deal::{Shuffle, LCG_MODULUS};
use warsweep::engine::{Engine, GameResult, Outcome};
use warsweep::output::summary::{group, Accumulator, Seeds, Setting, Summary};
use warsweep::output::{record, report};
use warsweep::puzzles::trace::Trace;
use warsweep::puzzles::{battle, input};
use warsweep::rules::{Deal, Deck, Gather, Knobs, Preset, Ranking, Rules, ShortWar};
use warsweep::sweep::{check_seeds, parse_seed_range, CsvSink, Pacing, RowSink, Stop, Sweep};

/// Exit code of a sweep stopped by Ctrl-C (128 + SIGINT), after writing what it covered.
const INTERRUPTED: u8 = 130;

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
        Ok(code) => code,
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

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Play(args) => play(args).map(|_| ExitCode::SUCCESS),
        Command::Answer(args) => answer(args).map(|_| ExitCode::SUCCESS),
        Command::Battle(args) => battle(args).map(|_| ExitCode::SUCCESS),
        Command::Sweep(args) => sweep(args),
        Command::Merge(args) => merge(args).map(|_| ExitCode::SUCCESS),
    }
}

/// The library value a command-line choice names (the names are the same; a unit test of
/// `cli` checks every one).
fn named<T>(arg: Option<impl ValueEnum>, from_name: fn(&str) -> Option<T>) -> Option<T> {
    let arg = arg?;
    let value = arg.to_possible_value().expect("no hidden choices");
    Some(from_name(value.get_name()).expect("every choice names a library value"))
}

/// The validated rules the setting flags describe, starting from `default` unless `--rules`
/// names a preset. `players` (the hands of a file) overrides `--players`.
fn rules_of(setting: &SettingArgs, default: Preset, players: Option<usize>) -> Result<Rules> {
    let preset = named(setting.rules, Preset::from_name).unwrap_or(default);
    let deck = setting.deck.as_deref().map(Deck::parse).transpose()?;
    let knobs = Knobs {
        deck,
        players: players.or(setting.players),
        face_down: setting.face_down,
        short_war: named(setting.short_war, ShortWar::from_name),
        gather: named(setting.gather, Gather::from_name),
        deal: named(setting.deal, Deal::from_name),
        ranking: named(setting.ranking, Ranking::from_name),
    };
    Ok(Rules::build(preset, knobs)?)
}

fn shuffle(arg: cli::ShuffleArg) -> Shuffle {
    named(Some(arg), Shuffle::from_name).expect("a shuffle")
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
    let stdout = io::stdout().lock();
    let mut trace = Trace::new(io::BufWriter::new(stdout));
    let (rules, result): (Rules, GameResult) = match args.seed {
        Some(seed) => {
            if args.file.is_some() {
                bail!("give either a file of hands or --seed, not both");
            }
            let rules = rules_of(&args.setting, Preset::Codingame, None)?;
            let shuffle = shuffle(args.shuffle);
            check_seeds(shuffle, rules.deck, Seeds::one(seed))?;
            let mut engine = Engine::new(rules);
            engine.set_max_rounds(args.setting.max_rounds);
            let result = if args.trace {
                trace.deal(&engine.deal(shuffle, seed));
                engine.play_seed_observed(shuffle, seed, &mut trace)
            } else {
                engine.play_seed(shuffle, seed)
            };
            (rules, result)
        }
        None => {
            // The deck the flags name decides which values the hands may hold.
            let deck = rules_of(&args.setting, Preset::Codingame, Some(2))?.deck;
            let (bytes, name) = read_input(args.file.as_deref())?;
            let hands = input::parse_hands(&bytes, deck)
                .with_context(|| format!("reading hands from {name}"))?;
            let players = hands.len();
            if let Some(n) = args.setting.players.filter(|&n| n != players) {
                bail!("{name} holds {players} hands but --players says {n}");
            }
            let rules = rules_of(&args.setting, Preset::Codingame, Some(players))
                .with_context(|| format!("{name} holds {players} hands"))?;
            let total = hands.iter().map(Vec::len).sum();
            let mut engine = Engine::with_capacity(rules, total);
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
    let rules = rules_of(&args.setting, Preset::Shortened, None)?;
    let shuffle = shuffle(args.shuffle);
    let (bytes, name) = read_input(args.file.as_deref())?;
    let seeds = input::parse_seeds(&bytes).with_context(|| format!("reading seeds from {name}"))?;
    for &seed in &seeds {
        check_seeds(shuffle, rules.deck, Seeds::one(seed))?;
    }
    let mut engine = Engine::new(rules);
    engine.set_max_rounds(args.setting.max_rounds);
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

/// Creates (truncates) an output file now, so that an unwritable path fails before any work.
fn create(path: &Path, what: &str) -> Result<File> {
    if path == Path::new("-") {
        bail!("the {what} must go to a file, not stdout: give it a file name (only --csv takes -)");
    }
    File::create(path).with_context(|| format!("cannot write the {what} to {}", path.display()))
}

/// The summary, histogram and plot files a command was asked for, created before any work so
/// that an unwritable path fails first.
struct Outputs<'a> {
    json: Option<(File, &'a Path)>,
    hist: Option<(File, &'a Path)>,
    plot: Option<&'a Path>,
}

impl<'a> Outputs<'a> {
    fn create(args: &'a OutputArgs) -> Result<Outputs<'a>> {
        let open = |path: &'a Option<PathBuf>, what| {
            path.as_deref()
                .map(|p| create(p, what).map(|f| (f, p)))
                .transpose()
        };
        let json = open(&args.summary, "summary")?;
        let hist = open(&args.hist, "histograms")?;
        let plot = open(&args.plot, "plot")?.map(|(_, p)| p);
        Ok(Outputs { json, hist, plot })
    }

    /// Writes each file from the summary and its accumulator.
    fn write(self, summary: &Summary, acc: &Accumulator) -> Result<()> {
        if let Some((file, path)) = self.json {
            let mut out = io::BufWriter::new(file);
            serde_json::to_writer_pretty(&mut out, summary)
                .map_err(io::Error::from)
                .and_then(|_| writeln!(out))
                .and_then(|_| out.flush())
                .with_context(|| format!("cannot write the summary to {}", path.display()))?;
        }
        if let Some((file, path)) = self.hist {
            report::write_hist_csv(acc, io::BufWriter::new(file))
                .with_context(|| format!("cannot write the histograms to {}", path.display()))?;
        }
        if let Some(path) = self.plot {
            report::write_plot(summary, acc, path).map_err(anyhow::Error::msg)?;
        }
        Ok(())
    }
}

/// Most worker threads a sweep may ask for: far more than any machine has cores, and few
/// enough that their stacks fit in memory.
const MAX_THREADS: usize = 1024;

fn sweep(args: SweepArgs) -> Result<ExitCode> {
    let rules = rules_of(&args.setting, Preset::Shortened, None)?;
    let shuffle = shuffle(args.shuffle);
    let seeds = match (&args.seeds, shuffle) {
        (Some(text), _) => parse_seed_range(text)?,
        (None, Shuffle::Lex) => Seeds {
            start: 0,
            end: warsweep::sweep::lex_deals(rules.deck)? as u128,
        },
        (None, _) => Seeds {
            start: 0,
            end: 100_000,
        },
    };
    check_seeds(shuffle, rules.deck, seeds)?;
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) if n > MAX_THREADS => {
            bail!("--threads {n} is more than the {MAX_THREADS} a sweep can use")
        }
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if args.chunk == 0 {
        bail!("--chunk must be at least 1");
    }
    let job = Sweep {
        rules,
        shuffle,
        seeds,
        max_rounds: args.setting.max_rounds,
        threads,
        pacing: Pacing {
            chunk: args.chunk,
            ..Pacing::default()
        },
    };
    // Every output path is checked before the first game.
    let csv_to_stdout = args.csv.as_deref() == Some(Path::new("-"));
    let csv_file = match &args.csv {
        Some(path) if !csv_to_stdout => Some(create(path, "CSV")?),
        _ => None,
    };
    let outputs = Outputs::create(&args.outputs)?;
    if job.repeats_deals() {
        eprintln!(
            "warsweep: note: the lcg shuffle has {LCG_MODULUS} distinct deals; seeds from {LCG_MODULUS} on repeat them (seed s deals like s mod {LCG_MODULUS})"
        );
    }

    let total = (seeds.end - seeds.start as u128).min(u64::MAX as u128) as u64;
    let bar = if args.quiet || !io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {human_pos}/{human_len} seeds  {rate}  ETA {eta}",
            )
            .expect("valid template")
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{} games/s", group(state.per_sec().round() as u64));
                },
            ),
        );
        bar
    };
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // If a handler cannot be installed, Ctrl-C simply ends the process as usual.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed));
    }

    let started = Instant::now();
    let mut file_sink = csv_file.map(CsvSink::new);
    let mut stdout_sink = csv_to_stdout.then(|| CsvSink::new(io::stdout()));
    let sink: Option<&mut dyn RowSink> = match (&mut file_sink, &mut stdout_sink) {
        (Some(s), _) => Some(s),
        (_, Some(s)) => Some(s),
        _ => None,
    };
    let swept = job
        .run(sink, &|n| bar.inc(n), &stop)
        .with_context(|| match &args.csv {
            Some(path) if !csv_to_stdout => format!("cannot write the CSV to {}", path.display()),
            _ => "cannot write the CSV to stdout".to_string(),
        })?;
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();

    let setting = Setting::of(&rules, shuffle, args.setting.max_rounds);
    let covered = Seeds {
        start: seeds.start,
        end: swept.covered_end,
    };
    let summary = Summary::new(&setting, covered, &swept.acc, elapsed);
    outputs.write(&summary, &swept.acc)?;
    match swept.stopped {
        Some(Stop::ReaderGone) => return Ok(ExitCode::SUCCESS),
        Some(Stop::Interrupted) => {
            eprintln!(
                "warsweep: interrupted: seeds {}..{} were played, and every output covers exactly those",
                covered.start, covered.end
            );
            return Ok(ExitCode::from(INTERRUPTED));
        }
        None => {}
    }
    if !args.quiet {
        let table = format!(
            "{}{} battles played ({} per second; an infinite game's up to the end of its first cycle)\n",
            summary.table(),
            group(swept.acc.battles_played),
            group((swept.acc.battles_played as f64 / elapsed.max(1e-9)).round() as u64),
        );
        if csv_to_stdout {
            eprint!("{table}");
        } else {
            print!("{table}");
            io::stdout().flush().context("cannot write to stdout")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn merge(args: MergeArgs) -> Result<()> {
    let shards = args
        .inputs
        .iter()
        .map(|path: &PathBuf| {
            let text =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            serde_json::from_slice::<Summary>(&text)
                .with_context(|| format!("{} is not a warsweep summary", path.display()))
        })
        .collect::<Result<Vec<Summary>>>()?;
    let outputs = Outputs::create(&args.outputs)?;
    let merged = Summary::merge(&shards)?;
    let acc = merged.accumulator()?;
    outputs.write(&merged, &acc)?;
    if !args.quiet {
        print!("{}", merged.table());
        io::stdout().flush().context("cannot write to stdout")?;
    }
    Ok(())
}
