//! The `warsweep` binary: parses the command line, calls the library, and turns every error into
//! one line on stderr and a non-zero exit code.

mod cli;

use anyhow::{bail, Context, Result};
use clap::Parser;
use cli::{
    AnswerArgs, BattleArgs, Cli, Command, GatherArg, MergeArgs, OutputArgs, PlayArgs, RulesArg,
    ShuffleArg, SweepArgs,
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
use warsweep::rules::{Gather, Preset, Rules};
use warsweep::summary::{group, Accumulator, Seeds, Setting, Summary};
use warsweep::sweep::{parse_seed_range, CsvSink, Pacing, RowSink, Stop, Sweep};
use warsweep::trace::Trace;
use warsweep::{battle, input, record, report};

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

fn sweep(args: SweepArgs) -> Result<ExitCode> {
    let preset = preset(args.setting.rules, Preset::Shortened);
    let rules = Rules::new(preset, args.setting.players, gather(args.setting.gather))?;
    let seeds = parse_seed_range(&args.seeds)?;
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if args.chunk == 0 {
        bail!("--chunk must be at least 1");
    }
    let shuffle = shuffle(args.shuffle);
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

    let setting = Setting {
        rules: preset.name().to_string(),
        gather: rules.gather.name().to_string(),
        shuffle: shuffle.name().to_string(),
        players: rules.players,
    };
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
