//! The `warsweep` binary: parses the command line, calls the library, and turns every error into
//! one line on stderr and a non-zero exit code.

mod cli;

use anyhow::{bail, Context, Result};
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, ValueEnum};
use cli::{
    AnswerArgs, BattleArgs, Cli, Command, CompletionsArgs, ManArgs, MergeArgs, OutputArgs,
    PlayArgs, PlotArgs, SettingArgs, SweepArgs,
};
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use warsweep::deal::{Shuffle, LCG_MODULUS};
use warsweep::engine::{Engine, GameResult, Outcome};
use warsweep::output::checkpoint::{self, Checkpoint, CsvMark, Resumed};
use warsweep::output::files::{self, Pending, Target};
use warsweep::output::summary::{group, Accumulator, Seeds, Setting, Summary};
use warsweep::output::{record, report};
use warsweep::puzzles::trace::Trace;
use warsweep::puzzles::{battle, input};
use warsweep::rules::{Deal, Deck, Gather, Knobs, Preset, Ranking, Rules, ShortWar};
use warsweep::sweep::{
    check_seeds, parse_seed_range, parse_shard, shard, Checkpoints, CsvSink, Pacing, Progress,
    RowSink, Stop, Sweep,
};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage(e),
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say(&format!("warsweep: {e:#}"));
            ExitCode::FAILURE
        }
    }
}

/// Help and version go to stdout (exit 0), as does the help of a bare `warsweep`; a usage
/// error keeps clap's own text on stderr and exits 2.
fn usage(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let help = Cli::command().render_help().to_string();
            let _ = write!(io::stdout(), "{help}");
            ExitCode::SUCCESS
        }
        _ => {
            let _ = e.print();
            ExitCode::from(2)
        }
    }
}

/// One line on stderr; a closed stderr is no reason to fail.
fn say(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// A reader that went away (`warsweep ... | head`) is not an error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes `text` to stdout, flushed.
fn print_out(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .context("cannot write to stdout")
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Play(args) => play(args).map(|_| ExitCode::SUCCESS),
        Command::Answer(args) => answer(args).map(|_| ExitCode::SUCCESS),
        Command::Battle(args) => battle(args).map(|_| ExitCode::SUCCESS),
        Command::Sweep(args) => sweep(args),
        Command::Merge(args) => merge(args).map(|_| ExitCode::SUCCESS),
        Command::Plot(args) => plot(args).map(|_| ExitCode::SUCCESS),
        Command::Completions(args) => completions(args).map(|_| ExitCode::SUCCESS),
        Command::Man(args) => man(args).map(|_| ExitCode::SUCCESS),
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
                bail!(
                    "{name} holds {} but --players says {n}",
                    warsweep::text::count(players as u64, "hand")
                );
            }
            let rules =
                rules_of(&args.setting, Preset::Codingame, Some(players)).with_context(|| {
                    format!(
                        "{name} holds {}",
                        warsweep::text::count(players as u64, "hand")
                    )
                })?;
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

/// What an output path names (a file, a pipe or device, or `-` for stdout), or one sentence.
fn target(path: &Path, what: &str) -> Result<Target> {
    Target::of(path).with_context(|| format!("cannot write the {what} to {}", path.display()))
}

/// The summary, histogram and plot outputs a command was asked for. Each is tried before any
/// work (so that an unwritable path fails first); a file is written beside its target and moved
/// into place only once complete, a pipe or device written through.
struct Outputs<'a> {
    json: Option<(Target, &'a Path)>,
    hist: Option<(Target, &'a Path)>,
    plot: Option<(Target, &'a Path)>,
}

impl<'a> Outputs<'a> {
    fn of(args: &'a OutputArgs) -> Result<Outputs<'a>> {
        let find = |path: &'a Option<PathBuf>, what: &str| -> Result<Option<(Target, &'a Path)>> {
            path.as_deref()
                .map(|path| Ok((target(path, what)?, path)))
                .transpose()
        };
        Ok(Outputs {
            json: find(&args.summary, "summary")?,
            hist: find(&args.hist, "histograms")?,
            plot: find(&args.plot, "plot")?,
        })
    }

    fn each(&self) -> impl Iterator<Item = (&'static str, &(Target, &'a Path))> {
        [
            ("summary", &self.json),
            ("histograms", &self.hist),
            ("plot", &self.plot),
        ]
        .into_iter()
        .filter_map(|(what, output)| output.as_ref().map(|o| (what, o)))
    }

    /// Tries every output before any work.
    fn check(&self) -> Result<()> {
        for (what, (target, path)) in self.each() {
            target
                .check()
                .with_context(|| format!("cannot write the {what} to {}", path.display()))?;
        }
        Ok(())
    }

    /// Whether one of them goes to stdout (the readable table then goes to stderr).
    fn to_stdout(&self) -> bool {
        self.each()
            .any(|(_, (target, _))| *target == Target::Stdout)
    }

    /// Writes each output from the summary and its accumulator.
    fn write(self, summary: &Summary, acc: &Accumulator) -> Result<()> {
        let finish = |output: Option<(Target, &Path)>,
                      what: &str,
                      fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>|
         -> Result<()> {
            let Some((target, path)) = output else {
                return Ok(());
            };
            target
                .write_with(|out| fill(out))
                .with_context(|| format!("cannot write the {what} to {}", path.display()))
        };
        finish(self.json, "summary", &mut |out| {
            serde_json::to_writer_pretty(&mut *out, summary).map_err(io::Error::from)?;
            writeln!(out)
        })?;
        finish(self.hist, "histograms", &mut |out| {
            report::write_hist_csv(acc, out)
        })?;
        if self.plot.is_some() {
            let svg = report::plot_svg(summary, acc).map_err(anyhow::Error::msg)?;
            finish(self.plot, "plot", &mut |out| out.write_all(svg.as_bytes()))?;
        }
        Ok(())
    }
}

/// Signals that stop a sweep cleanly (at the next window, outputs written): SIGINT, SIGTERM,
/// SIGHUP. Signals within `ONE_REQUEST` of the first are the same request (`timeout` signals
/// the process and then its group); one after that ends the process at once.
struct Signals {
    stop: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
}

/// How long after the first signal another one still counts as the same request.
const ONE_REQUEST: Duration = Duration::from_secs(1);

impl Signals {
    fn watch() -> Signals {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let signals = Signals {
            stop: Arc::new(AtomicBool::new(false)),
            which: Arc::new(AtomicUsize::new(0)),
        };
        // If the handlers cannot be installed, a signal simply ends the process as usual.
        if let Ok(mut incoming) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            let (stop, which) = (signals.stop.clone(), signals.which.clone());
            std::thread::spawn(move || {
                let mut first: Option<Instant> = None;
                for signal in incoming.forever() {
                    match first {
                        None => {
                            which.store(signal as usize, Ordering::SeqCst);
                            stop.store(true, Ordering::SeqCst);
                            first = Some(Instant::now());
                        }
                        Some(at) if at.elapsed() >= ONE_REQUEST => std::process::exit(128 + signal),
                        Some(_) => {}
                    }
                }
            });
        }
        signals
    }

    /// The name and exit code (128 + its number) of the signal that stopped the sweep.
    fn received(&self) -> (&'static str, u8) {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let signal = self.which.load(Ordering::SeqCst) as i32;
        let name = match signal {
            SIGINT => "SIGINT",
            SIGTERM => "SIGTERM",
            SIGHUP => "SIGHUP",
            _ => "a signal",
        };
        (name, (128 + signal.clamp(0, 127)) as u8)
    }
}

/// K and N of a Slurm job array task (`sbatch --array=0-(N-1)`).
fn slurm_shard() -> Result<(u64, u64)> {
    let var = |name: &str| -> Result<Option<u64>> {
        match std::env::var(name) {
            Ok(text) => text
                .trim()
                .parse::<u64>()
                .map(Some)
                .with_context(|| format!("{name}={text:?} is not a whole number")),
            Err(_) => Ok(None),
        }
    };
    let (Some(id), Some(count)) = (var("SLURM_ARRAY_TASK_ID")?, var("SLURM_ARRAY_TASK_COUNT")?)
    else {
        bail!("--shard without K/N takes them from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, which are not set: outside a Slurm job array give --shard K/N");
    };
    let min = var("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
    let k = id.checked_sub(min).filter(|&k| k < count).with_context(|| {
        format!("Slurm array task {id} is not one of {count} tasks from {min}: submit the array as --array=0-{}", count.saturating_sub(1))
    })?;
    Ok((k, count))
}

/// Opens the CSV's partial file: new, or (resuming) the one a stopped run left, cut back to the
/// `bytes` its checkpoint counts. A run stopped by a signal had moved it into place: it moves back.
fn open_csv(target: &Path, resume: Option<(u64, &str)>) -> Result<(Pending, u64)> {
    let partial = checkpoint::partial_csv(target);
    let cannot = || format!("cannot write the CSV to {}", partial.display());
    let Some((bytes, tail)) = resume else {
        let file = File::create(&partial).with_context(cannot)?;
        return Ok((Pending::kept(target, partial, file), 0));
    };
    // The stopped run's CSV: still streaming (partial), or moved into place by a clean stop.
    // Checked before anything is touched, so that a refused resume changes no file.
    let source = if !partial.exists() && target.exists() {
        target.to_path_buf()
    } else {
        partial.clone()
    };
    let len = std::fs::metadata(&source)
        .with_context(|| {
            format!(
                "cannot resume: the CSV of the stopped run, {}, cannot be read",
                source.display()
            )
        })?
        .len();
    if len < bytes {
        bail!(
            "cannot resume: {} holds {len} bytes but its checkpoint counts {bytes}: it is not the CSV this sweep was writing; move it and the checkpoint away to start over",
            source.display()
        );
    }
    if checkpoint::csv_tail(&source, bytes).with_context(cannot)? != tail {
        bail!(
            "cannot resume: {} does not hold the rows its checkpoint describes: it is not the CSV this sweep was writing; move it and the checkpoint away to start over",
            source.display()
        );
    }
    if source != partial {
        std::fs::rename(&source, &partial).with_context(cannot)?;
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&partial)
        .with_context(cannot)?;
    file.set_len(bytes).with_context(cannot)?;
    file.seek(io::SeekFrom::End(0)).with_context(cannot)?;
    Ok((Pending::kept(target, partial, file), bytes))
}

fn sweep(args: SweepArgs) -> Result<ExitCode> {
    let rules = rules_of(&args.setting, Preset::Shortened, None)?;
    let shuffle = shuffle(args.shuffle);
    let whole = match (&args.seeds, shuffle) {
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
    check_seeds(shuffle, rules.deck, whole)?;
    let seeds = match args.shard.as_deref() {
        None => whole,
        Some(text) => {
            let (k, n) = if text == "slurm" {
                slurm_shard()?
            } else {
                parse_shard(text)?
            };
            shard(whole, k, n)?
        }
    };
    // --threads is 1 to cli::MAX_THREADS, as clap checked.
    let threads = match args.threads {
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if args.chunk == 0 || args.window == 0 {
        bail!("--chunk and --window must be at least 1");
    }
    if !(args.checkpoint_seconds.is_finite() && args.checkpoint_seconds >= 0.0) {
        bail!("--checkpoint-seconds must be a duration, 0 or more");
    }
    let job = Sweep {
        rules,
        shuffle,
        seeds,
        max_rounds: args.setting.max_rounds,
        threads,
        pacing: Pacing {
            chunk: args.chunk,
            window: args.window,
        },
    };
    let setting = Setting::of(&rules, shuffle, args.setting.max_rounds);

    // Every output is found and tried before the first game.
    let csv_target = args
        .csv
        .as_deref()
        .map(|path| target(path, "CSV"))
        .transpose()?;
    let outputs = Outputs::of(&args.outputs)?;
    let named: Vec<(&str, &Path)> = [
        ("--csv", args.csv.as_deref()),
        ("--summary", args.outputs.summary.as_deref()),
        ("--hist", args.outputs.hist.as_deref()),
        ("--plot", args.outputs.plot.as_deref()),
    ]
    .into_iter()
    .filter_map(|(role, path)| path.map(|p| (role, p)))
    .collect();
    if let Some(message) = files::clash(&named) {
        bail!(message);
    }
    // Only a CSV in a file can be cut back and continued; a sweep whose CSV streams to stdout,
    // a pipe or a device keeps no checkpoint.
    let csv_file = csv_target.as_ref().and_then(Target::file);
    let csv_streams = csv_target.is_some() && csv_file.is_none();
    if args.resume && csv_streams {
        bail!(
            "--resume cannot continue a CSV written to stdout, a pipe or a device: write it to a file with --csv FILE"
        );
    }
    // The checkpoint is kept beside the first output that is a file.
    let anchor = named
        .iter()
        .find(|(_, path)| matches!(Target::of(path), Ok(Target::File(_))))
        .filter(|_| !csv_streams);
    let state = anchor.map(|(_, anchor)| checkpoint::path_for(anchor));
    if args.resume && state.is_none() {
        bail!("--resume needs an output file to keep its checkpoint beside: add --summary FILE (or --csv, --hist, --plot)");
    }
    // No output may be the checkpoint, or the CSV while it streams: the sweep removes or
    // renames those when it ends.
    let mut own: Vec<(PathBuf, String)> = Vec::new();
    if let (Some(path), Some((_, anchor))) = (&state, anchor) {
        own.push((
            path.clone(),
            format!(
                "where this sweep keeps its checkpoint (beside {})",
                anchor.display()
            ),
        ));
    }
    if let Some(file) = csv_file {
        own.push((
            checkpoint::partial_csv(file),
            "where this sweep streams its CSV until it is complete".to_string(),
        ));
    }
    for (role, path) in &named {
        if let Some((_, why)) = own
            .iter()
            .find(|(p, _)| files::identity(p) == files::identity(path))
        {
            bail!("{} is {why}: give {role} another name", path.display());
        }
    }
    if let (Some(target), Some(path)) = (&csv_target, args.csv.as_deref()) {
        target
            .check()
            .with_context(|| format!("cannot write the CSV to {}", path.display()))?;
    }
    outputs.check()?;
    if let Some(path) = &state {
        // A run killed while saving its checkpoint left the new one half-written beside it.
        files::remove_stale(path);
    }
    let resumed: Option<Resumed> = match &state {
        None => None,
        Some(path) => match Checkpoint::load(path)? {
            Some(saved) if args.resume => Some(saved.resume(
                path,
                &setting,
                seeds,
                args.csv.as_deref().filter(|_| csv_file.is_some()),
            )?),
            Some(saved) => bail!(
                "{} holds the checkpoint of an unfinished sweep (seeds {}..{} of {}..{} played): add --resume to continue it, or remove it to start over",
                path.display(),
                saved.summary.seeds.start,
                saved.summary.seeds.end,
                saved.seeds.start,
                saved.seeds.end
            ),
            None => {
                if args.resume && !args.quiet {
                    say(&format!(
                        "warsweep: note: no checkpoint at {}: starting at seed {}",
                        path.display(),
                        seeds.start
                    ));
                }
                None
            }
        },
    };
    let mut csv = csv_file
        .map(|file| {
            open_csv(
                file,
                resumed.as_ref().map(|r| (r.csv_bytes, r.csv_tail.as_str())),
            )
        })
        .transpose()?;
    if job.repeats_deals() && !args.quiet {
        say(&format!(
            "warsweep: note: the lcg shuffle has {} distinct deals; seeds from {} on repeat them (seed s deals like s mod {})",
            group(LCG_MODULUS),
            group(LCG_MODULUS),
            group(LCG_MODULUS),
        ));
    }
    // When an output goes to stdout, the readable table goes to stderr.
    let table_to_stderr = csv_target == Some(Target::Stdout) || outputs.to_stdout();

    let total = (seeds.end - seeds.start as u128).min(u64::MAX as u128) as u64;
    let bar = if args.quiet || !io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        // At most 80 columns, even for 305,540,235,000 seeds: 12 + 1 + 37 + 19 + 11.
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:12} {human_pos}/{human_len} seeds {rate} ETA {eta}")
                .expect("valid template")
                .with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{} games/s", HumanCount(state.per_sec() as u64));
                    },
                ),
        );
        bar
    };
    let signals = Signals::watch();

    let (elapsed_before, resume_from) = match resumed {
        Some(r) => {
            bar.set_position((r.covered_end - seeds.start as u128).min(u64::MAX as u128) as u64);
            (r.elapsed_seconds, Some((r.covered_end, r.acc)))
        }
        None => (0.0, None),
    };
    let started = Instant::now();
    let elapsed = || elapsed_before + started.elapsed().as_secs_f64();
    let save = |covered_end: u128, acc: &Accumulator, csv_bytes: u64| -> io::Result<()> {
        let Some(path) = &state else {
            return Ok(());
        };
        let tail = match csv_file {
            Some(target) => checkpoint::csv_tail(&checkpoint::partial_csv(target), csv_bytes)?,
            None => String::new(),
        };
        let csv = CsvMark {
            target: args.csv.as_deref().filter(|_| csv_file.is_some()),
            bytes: csv_bytes,
            tail,
        };
        Checkpoint::new(&setting, seeds, covered_end, acc, elapsed(), csv).save(path)
    };
    let mut periodic = |p: Progress| save(p.covered_end, p.acc, p.csv_bytes);
    let checkpoints = state.is_some().then(|| Checkpoints {
        every: Duration::from_secs_f64(args.checkpoint_seconds),
        save: &mut periodic,
    });
    let mut file_sink = match &mut csv {
        Some((pending, bytes)) => {
            let file = pending.file().try_clone().context("cannot write the CSV")?;
            Some(CsvSink::after(file, *bytes))
        }
        None => None,
    };
    let mut stdout_sink = None;
    let mut stream_sink = None;
    match (&csv_target, args.csv.as_deref()) {
        (Some(Target::Stdout), _) => stdout_sink = Some(CsvSink::new(io::stdout())),
        (Some(Target::Stream(_)), Some(path)) => {
            let stream = files::Stream::open(path)
                .with_context(|| format!("cannot write the CSV to {}", path.display()))?;
            stream_sink = Some(CsvSink::new(stream));
        }
        _ => {}
    }
    let sink: Option<&mut dyn RowSink> = match (&mut file_sink, &mut stdout_sink, &mut stream_sink)
    {
        (Some(s), _, _) => Some(s),
        (_, Some(s), _) => Some(s),
        (_, _, Some(s)) => Some(s),
        _ => None,
    };
    let csv_name = match &args.csv {
        Some(path) if path != Path::new("-") => {
            format!("cannot write the CSV to {}", path.display())
        }
        _ => "cannot write the CSV to stdout".to_string(),
    };
    let swept = job
        .run(
            resume_from,
            sink,
            &|n| bar.inc(n),
            &signals.stop,
            checkpoints,
        )
        .with_context(|| csv_name.clone())?;
    bar.finish_and_clear();
    let covered = Seeds {
        start: seeds.start,
        end: swept.covered_end,
    };
    let summary = Summary::new(&setting, covered, &swept.acc, elapsed());
    let csv_bytes = match &mut file_sink {
        Some(sink) => sink.sync().with_context(|| csv_name.clone())?,
        None => 0,
    };
    drop(file_sink);
    // A pipe's reader sees the end of the CSV now, not when the process exits.
    drop(stream_sink);
    if swept.stopped == Some(Stop::Interrupted) {
        // The checkpoint first: whatever happens next, --resume finds the CSV (moved or not).
        save(covered.end, &swept.acc, csv_bytes)
            .with_context(|| "cannot save the checkpoint".to_string())?;
    }
    if let Some((pending, _)) = csv {
        pending.commit().with_context(|| csv_name.clone())?;
    }
    outputs.write(&summary, &swept.acc)?;
    let played = format!(
        "seeds {}..{} of {}..{} were played, and every output covers exactly those",
        covered.start, covered.end, seeds.start, seeds.end
    );
    match swept.stopped {
        Some(Stop::ReaderGone) => {
            if !args.quiet {
                say(&format!("warsweep: the CSV's reader went away: {played}"));
            }
            return Ok(ExitCode::SUCCESS);
        }
        Some(Stop::Interrupted) => {
            let (name, code) = signals.received();
            let resume = if state.is_some() {
                "; the same command with --resume plays the rest"
            } else {
                ""
            };
            say(&format!("warsweep: stopped by {name}: {played}{resume}"));
            return Ok(ExitCode::from(code));
        }
        None => {}
    }
    if let Some(path) = &state {
        match std::fs::remove_file(path) {
            Ok(()) => files::sync_folder(path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => bail!(
                "the sweep is complete but its checkpoint {} cannot be removed: {e}",
                path.display()
            ),
        }
    }
    if !args.quiet {
        let table = format!(
            "{}{} battles played ({} per second; an infinite game's up to the end of its first cycle)\n",
            summary.table(),
            group(swept.acc.battles_played),
            group((swept.acc.battles_played as f64 / elapsed().max(1e-9)).round() as u64),
        );
        if table_to_stderr {
            let _ = write!(io::stderr(), "{table}");
        } else {
            print_out(&table)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads and checks the summaries at `paths`, each named in what goes wrong.
fn read_summaries(paths: &[PathBuf]) -> Result<Vec<(Summary, Accumulator)>> {
    paths
        .iter()
        .map(|path| {
            let text =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let summary = serde_json::from_slice::<Summary>(&text)
                .with_context(|| format!("{} is not a warsweep summary", path.display()))?;
            let acc = summary
                .accumulator()
                .with_context(|| format!("{} is not a consistent summary", path.display()))?;
            Ok((summary, acc))
        })
        .collect()
}

/// Refuses an output that is also an input, or any file named twice.
fn check_paths(inputs: &[PathBuf], outputs: &[(&str, Option<&Path>)]) -> Result<()> {
    let mut named: Vec<(&str, &Path)> = inputs.iter().map(|p| ("an input", p.as_path())).collect();
    named.extend(outputs.iter().filter_map(|(role, p)| p.map(|p| (*role, p))));
    match files::clash(&named) {
        Some(message) => bail!(message),
        None => Ok(()),
    }
}

fn merge(args: MergeArgs) -> Result<()> {
    check_paths(
        &args.inputs,
        &[
            ("--summary", args.outputs.summary.as_deref()),
            ("--hist", args.outputs.hist.as_deref()),
            ("--plot", args.outputs.plot.as_deref()),
        ],
    )?;
    let shards: Vec<Summary> = read_summaries(&args.inputs)?
        .into_iter()
        .map(|(summary, _)| summary)
        .collect();
    let outputs = Outputs::of(&args.outputs)?;
    outputs.check()?;
    let merged = Summary::merge(&shards)?;
    let acc = merged.accumulator()?;
    let table_to_stderr = outputs.to_stdout();
    outputs.write(&merged, &acc)?;
    if !args.quiet {
        if table_to_stderr {
            let _ = write!(io::stderr(), "{}", merged.table());
        } else {
            print_out(&merged.table())?;
        }
    }
    Ok(())
}

fn plot(args: PlotArgs) -> Result<()> {
    check_paths(&args.inputs, &[("--output", Some(args.output.as_path()))])?;
    let output = target(&args.output, "plot")?;
    output
        .check()
        .with_context(|| format!("cannot write the plot to {}", args.output.display()))?;
    let summaries = read_summaries(&args.inputs)?;
    let metric = args
        .metric
        .to_possible_value()
        .expect("no hidden choices")
        .get_name()
        .to_string();
    let &(_, index, x_desc) = report::PLOT_METRICS
        .iter()
        .find(|(name, _, _)| *name == metric)
        .expect("every --metric choice is a plot metric");
    // Each line is labelled by the parts of the setting that differ; the title names the rest.
    // The seed range counts as a part: sweeps of one setting over other seeds differ by it.
    let parts: Vec<Vec<(&str, String)>> = summaries
        .iter()
        .map(|(s, _)| {
            let mut parts = s.setting().parts().to_vec();
            parts.push(("seeds", format!("{}..{}", s.seeds.start, s.seeds.end)));
            parts
        })
        .collect();
    let varies = |i: usize| parts.iter().any(|p| p[i].1 != parts[0][i].1);
    // When the presets differ and each preset comes with one setting, its name says it all.
    let by_rules_alone = varies(0)
        && parts.iter().all(|p| {
            parts
                .iter()
                .filter(|q| q[0].1 == p[0].1)
                .all(|q| q.iter().zip(p.iter()).all(|(a, b)| a.1 == b.1))
        });
    let mut labels: Vec<String> = parts
        .iter()
        .map(|p| {
            (0..p.len())
                .filter(|&i| varies(i) && (i == 0 || !by_rules_alone))
                .map(|i| format!("{} {}", p[i].0, p[i].1))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let distinct = labels
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .len()
        == labels.len();
    if !distinct || labels.iter().any(String::is_empty) {
        labels = args
            .inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect();
    }
    for (label, (summary, _)) in labels.iter_mut().zip(&summaries) {
        let infinite = 100.0 * summary.infinite as f64 / summary.games.max(1) as f64;
        label.push_str(&format!(
            " ({} game{}, {infinite:.1}% infinite)",
            group(summary.games),
            if summary.games == 1 { "" } else { "s" }
        ));
    }
    let shared: Vec<String> = (0..parts[0].len())
        .filter(|&i| !varies(i))
        .map(|i| format!("{} {}", parts[0][i].0, parts[0][i].1))
        .collect();
    let title = args
        .title
        .unwrap_or_else(|| format!("{x_desc}: {}", shared.join(", ")));
    let series: Vec<(String, Accumulator)> = labels
        .into_iter()
        .zip(summaries.into_iter().map(|(_, acc)| acc))
        .collect();
    let svg = report::overlay_svg(&series, index, x_desc, &title, args.log)
        .map_err(anyhow::Error::msg)?;
    output
        .write_with(|out| out.write_all(svg.as_bytes()))
        .with_context(|| format!("cannot write the plot to {}", args.output.display()))
}

fn completions(args: CompletionsArgs) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "warsweep", &mut script);
    print_out(&String::from_utf8_lossy(&script))
}

fn man(args: ManArgs) -> Result<()> {
    let cmd = cli::man_command();
    if let Some(dir) = &args.out_dir {
        let pages = std::iter::once(&cmd).chain(cmd.get_subcommands());
        for page in pages {
            let name = page.get_display_name().unwrap_or(page.get_name());
            let path = dir.join(format!("{name}.1"));
            let mut text = Vec::new();
            cli::man_page(page, &mut text).context("cannot render the man pages")?;
            files::write_atomically(&path, &text)
                .with_context(|| format!("cannot write the man page {}", path.display()))?;
        }
        return Ok(());
    }
    let page = match args.command.as_deref() {
        None => &cmd,
        Some(name) => cmd.find_subcommand(name).with_context(|| {
            let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
            format!(
                "{name:?} is not a warsweep command (they are {})",
                names.join(", ")
            )
        })?,
    };
    let mut text = Vec::new();
    cli::man_page(page, &mut text).context("cannot render the man page")?;
    print_out(&String::from_utf8_lossy(&text))
}
