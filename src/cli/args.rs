//! The command line, as clap sees it: the flags, their checks, and the man pages. The rule
//! knobs are the library's own enums; `main.rs` builds validated library types from the rest
//! once.

use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use warsweep::hunt::Strategy;
use warsweep::shapes::Kind;
use warsweep::Seeds;
use warsweep::Shuffle;
use warsweep::{check_face_down, check_max_rounds, check_players};
use warsweep::{Deal, Deck, Gather, Metric, Preset, Ranking, ShortWar, WonPile};
use warsweep::{DEFAULT_MAX_ROUNDS, MAX_PACING, MAX_THREADS};

const PRESETS: &str = "\
Presets (docs/rules.md):
  codingame  2 players, 3 cards face down in a war, a player short of cards for a war makes the
             game a draw (PAT), p1-first gather; play prints rounds
  shortened  2 players, 3 face down, a short war is shortened to the cards left, reveal gather;
             play prints battles (the seed-004 puzzle)
  classic    2 players, 1 face down, whoever runs out of cards first in a war loses, winner-first
             gather; play prints rounds
  oorlog     2 to 12 players (3 by default), 108 cards with jokers, 2 and 3 beat the ace,
             1 face down, a short war ends the game and most cards wins; play prints rounds
  bataille   open War of the research on the game: 2 players, no card face down, natural
             gather, blocks deal, whoever runs out in a war loses; play prints rounds

Every part of a preset can be changed on its own: --deck, --players, --face-down, --short-war,
--gather, --deal, --ranking, --won-pile.";

/// The command line, or the exit code of a command line that was help, a version or a mistake.
pub fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(usage)
}

/// Help and version go to stdout (exit 0), as does the help of a bare `warsweep`; a usage
/// error keeps clap's own text on stderr and exits 2.
fn usage(e: clap::Error) -> ExitCode {
    match e.kind() {
        clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let help = <Cli as clap::CommandFactory>::command()
                .render_help()
                .to_string();
            let _ = write!(std::io::stdout(), "{help}");
            ExitCode::SUCCESS
        }
        _ => {
            let _ = e.print();
            ExitCode::from(2)
        }
    }
}

/// What `--version` says of GPU support.
#[cfg(feature = "gpu")]
macro_rules! gpu_support {
    () => {
        ", GPU support built in (--device gpu)"
    };
}
#[cfg(not(feature = "gpu"))]
macro_rules! gpu_support {
    () => {
        ", no GPU support (build with --features gpu)"
    };
}

/// The version, the git revision it was built from, and whether it can walk on a GPU.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (git ",
    env!("WARSWEEP_GIT_REVISION"),
    ")",
    gpu_support!()
);

/// Plays the card game War exactly and very fast, one game or millions.
#[derive(Parser, Debug)]
#[command(
    name = "warsweep",
    version = VERSION,
    after_help = PRESETS,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play one game and print `W N` (winner, count), [`PAT`], `INFINITE mu lambda` or `CAPPED N`.
    ///
    /// Plays the codingame preset unless --rules names another. Reads hands in the CodinGame format from FILE (or stdin when FILE is absent or `-`): a line
    /// with player 1's card count, then that many cards (`10H`, [`TD`], `qs`, [`JK`]), then the same for
    /// player 2, and so on for more players. With --seed, plays a dealt game instead.
    #[command(after_help = PRESETS, mut_arg("rules", |a| a.help("Rule preset [default: codingame]; every flag below overrides one part of it")))]
    Play(PlayArgs),
    /// Solve the seed-004 puzzle: reads Q, then Q seeds; prints `W T` for every seed on one line.
    ///
    /// A draw prints `0 T`, an infinite game `0 inf`. T is what the preset's `play` counts
    /// (battles for `shortened`, the default).
    #[command(after_help = PRESETS, mut_arg("rules", |a| a.help("Rule preset [default: shortened]; every flag below overrides one part of it")))]
    Answer(AnswerArgs),
    /// Resolve one Oorlog battle (seed 003) and print the winner's index.
    ///
    /// CARDS are the values revealed in the battle in order, face-down cards left out: the first
    /// one per player, then one per player still at war, and so on. 1 is an ace or joker, 11 a
    /// jack, 12 a queen, 13 a king; 2 and 3 beat an ace. `[4, 8, 11]`, `4,8,11` and `4 8 11` all
    /// work.
    Battle(BattleArgs),
    /// Play every seed of a range in parallel: per-game CSV, summary, histograms, plot.
    ///
    /// With no options, sweeps the first 100,000 lcg deals under `shortened` and prints the
    /// summary. The CSV (`seed,outcome,winner,rounds,battles,wars,cycle_start,cycle_length`) is
    /// streamed in seed order and is byte-identical for any thread count. The JSON summary
    /// merges with other shards' (see `merge`).
    #[command(after_help = PRESETS, mut_arg("rules", |a| a.help("Rule preset [default: shortened]; every flag below overrides one part of it")))]
    Sweep(SweepArgs),
    /// Search deals for the longest game, or for infinite games, within a budget.
    ///
    /// Plays the bataille rules on 4x13 unless told otherwise, with every setting flag of
    /// `sweep`. Prints the best deals found, each as hands `play` reads with its result and
    /// the command that replays it. The same --seed, --strategy and --games find the same deals
    /// on any number of threads. SIGINT, SIGTERM and SIGHUP end it with its results written.
    #[command(after_help = PRESETS, mut_arg("rules", |a| a.help("Rule preset [default: bataille]; every flag below overrides one part of it")))]
    Hunt(HuntArgs),
    /// Count a setting's shapes: periodic words of who wins each battle, wars placed in them.
    ///
    /// Plays the bataille rules on 4x13 unless told otherwise. For every word within the
    /// bounds (without a war, or beginning with player 1's war) and every size of player 1's
    /// hand, the engine's gather fixes where each card goes; a SAT solver then decides whether
    /// the deck's values fit what the battles ask of them (its "no" is a proof). Prints the
    /// counts, then each shape that takes the values with its state, which is on a cycle, and
    /// the `play` command that shows it. The same answer on any number of threads.
    #[command(after_help = PRESETS, mut_arg("rules", |a| a.help("Rule preset [default: bataille]; every flag below overrides one part of it")))]
    Shapes(ShapesArgs),
    /// Merge shard summaries of one setting over disjoint seed ranges that join up.
    ///
    /// The result is exactly what one sweep over the union would have written (timings are
    /// added up). Prints the readable table. Every summary is checked first: its counts must add
    /// up and agree with its seed range, its histograms and its records.
    #[command(mut_arg("cycles", |a| a.help("Write the distinct cycles the summaries list, merged (each cycle's basin added up), as CSV (`cycle_length,deals,first_seed,hands`) here (`-` for stdout)")))]
    Merge(MergeArgs),
    /// Overlay the length distributions of several summaries in one SVG chart.
    ///
    /// Each summary (a rule variant, a deck shape, a player count) becomes one line: the share of
    /// its games in each bin of --metric, from the histograms the summary holds, with a legend.
    Plot(PlotArgs),
    /// Print a shell completion script.
    ///
    /// Where to put it: bash, `warsweep completions bash >
    /// ~/.local/share/bash-completion/completions/warsweep`; zsh, `warsweep completions zsh >
    /// ~/.zfunc/_warsweep` with `fpath+=~/.zfunc` before `compinit` in ~/.zshrc; fish, `warsweep
    /// completions fish > ~/.config/fish/completions/warsweep.fish`; PowerShell, add
    /// `warsweep completions powershell | Out-String | Invoke-Expression` to $PROFILE.
    Completions(CompletionsArgs),
    /// Print the man page (roff) of warsweep or of one command, or write them all to a folder.
    ///
    /// `warsweep man --out-dir DIR` writes warsweep.1 and warsweep-COMMAND.1 for every command
    /// (the pages warsweep(1) refers to); `man -l DIR/warsweep-sweep.1` reads one.
    Man(ManArgs),
}

/// A whole number that may not be negative, with a plain message for `-3` (clap's own tip
/// suggests `-- -3`, which does not help).
fn non_negative<T: std::str::FromStr + std::fmt::Display>(text: &str, max: T) -> Result<T, String> {
    if text.trim_start().starts_with('-') {
        return Err(format!(
            "{text} is negative: give a whole number, 0 or more"
        ));
    }
    let digits = text.trim();
    digits.parse::<T>().map_err(|_| {
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            format!("{text} is too large: the largest is {max}")
        } else {
            format!("{text} is not a whole number")
        }
    })
}

fn count_u64(text: &str) -> Result<u64, String> {
    non_negative(text, u64::MAX)
}

fn count_usize(text: &str) -> Result<usize, String> {
    non_negative(text, usize::MAX)
}

/// A whole number from `least` to `most`, or a usage error naming `what` it should be.
fn within(text: &str, least: usize, most: usize, what: &str) -> Result<usize, String> {
    match non_negative::<usize>(text, most)
        .map_err(|_| format!("{text} is not {what}: give {least} to {most}"))?
    {
        n if (least..=most).contains(&n) => Ok(n),
        n => Err(format!("{n} is not {what}: give {least} to {most}")),
    }
}

/// `--threads`: 1 to [`MAX_THREADS`].
fn threads(text: &str) -> Result<usize, String> {
    within(text, 1, MAX_THREADS, "a thread count")
}

/// `--players`: a count the library accepts ([`check_players`], which [`Settings::build`] applies).
fn players(text: &str) -> Result<usize, String> {
    check_players(count_usize(text)?).map_err(|e| e.reason())
}

/// `--face-down`: a count the library accepts ([`check_face_down`]).
fn face_down(text: &str) -> Result<usize, String> {
    check_face_down(count_usize(text)?).map_err(|e| e.reason())
}

/// `--max-rounds`: a limit the library accepts ([`check_max_rounds`]).
fn max_rounds(text: &str) -> Result<u64, String> {
    check_max_rounds(count_u64(text)?).map_err(|e| e.reason())
}

/// `--chunk` and `--window`: 1 to [`MAX_PACING`] seeds.
fn pacing(text: &str) -> Result<usize, String> {
    within(text, 1, MAX_PACING, "a number of seeds")
}

/// `--shard`: `slurm` (read when the command runs) or a part [`Seeds::part`] accepts.
fn shard(text: &str) -> Result<String, String> {
    match text {
        "slurm" => Ok(text.to_string()),
        part => Seeds::part(part)
            .map(|_| part.to_string())
            .map_err(|e| e.to_string()),
    }
}

/// `--periods`: two whole numbers `FIRST-LAST` (the library judges the range).
fn super_periods(text: &str) -> Result<(usize, usize), String> {
    range(text, "super-periods", "1-24")
}

/// `--held`: a range of player 1's hand sizes, FIRST-LAST (the census checks it).
fn held(text: &str) -> Result<(usize, usize), String> {
    range(text, "hand sizes", "20-26")
}

/// A range FIRST-LAST of `what`, like `example`.
fn range(text: &str, what: &str, example: &str) -> Result<(usize, usize), String> {
    let plain = || format!("{text} is not a range of {what}: give FIRST-LAST, like {example}");
    let (first, last) = text.split_once('-').ok_or_else(plain)?;
    let number = |t: &str| t.trim().parse::<usize>().map_err(|_| plain());
    Ok((number(first)?, number(last)?))
}

/// `--kinds`: a kind of war by its name.
fn kind(text: &str) -> Result<Kind, String> {
    Kind::named(text).ok_or_else(|| format!("{text} is no kind of war: give high, mid or low"))
}

/// `--deck`: a deck within the library's limits.
fn deck(text: &str) -> Result<Deck, String> {
    Deck::parse(text).map_err(|e| e.to_string())
}

/// `--seeds`: a range of seeds, 0 or more.
fn seed_range(text: &str) -> Result<Seeds, String> {
    text.parse::<Seeds>().map_err(|e| e.to_string())
}

fn positive_usize(text: &str) -> Result<usize, String> {
    match non_negative::<usize>(text, usize::MAX)? {
        0 => Err("0 is not allowed here: give 1 or more".to_string()),
        n => Ok(n),
    }
}

fn positive_u64(text: &str) -> Result<u64, String> {
    match non_negative::<u64>(text, u64::MAX)? {
        0 => Err("0 is not allowed here: give 1 or more".to_string()),
        n => Ok(n),
    }
}

/// The flags that choose a setting.
#[derive(Args, Debug, Clone)]
pub struct SettingArgs {
    /// Rule preset; every flag below overrides one part of it
    #[arg(long, value_enum)]
    pub rules: Option<Preset>,
    /// Deck: C copies of V values plus J jokers (4x13, 8x13+4, 4x4, 1x10)
    #[arg(long, value_name = "CxV[+J]", value_parser = deck)]
    pub deck: Option<Deck>,
    /// Number of players, 2 to 12 (more than 2 needs --short-war most-cards)
    #[arg(long, allow_negative_numbers = true, value_parser = players)]
    pub players: Option<usize>,
    /// Cards each tied player puts face down in a war, 0 to 8
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = face_down)]
    pub face_down: Option<usize>,
    /// What happens when a tied player cannot put down D + 1 cards
    #[arg(long, value_enum)]
    pub short_war: Option<ShortWar>,
    /// Gather order
    #[arg(long, value_enum)]
    pub gather: Option<Gather>,
    /// How the deck is dealt
    #[arg(long, value_enum)]
    pub deal: Option<Deal>,
    /// How revealed cards are compared
    #[arg(long, value_enum)]
    pub ranking: Option<Ranking>,
    /// Where won cards go
    #[arg(long, value_enum)]
    pub won_pile: Option<WonPile>,
    /// Rounds after which a game that cannot be checked for cycles (random gather, shuffled
    /// won piles) stops
    #[arg(long, default_value_t = DEFAULT_MAX_ROUNDS, allow_negative_numbers = true, value_parser = max_rounds)]
    pub max_rounds: u64,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// CodinGame input file; `-` or nothing reads stdin
    pub file: Option<PathBuf>,
    /// Deal this seed instead of reading hands
    #[arg(long, allow_negative_numbers = true, value_parser = count_u64)]
    pub seed: Option<u64>,
    /// Shuffle used with --seed
    #[arg(long, value_enum, default_value = "lcg")]
    pub shuffle: Shuffle,
    /// Print the game battle by battle before the result line
    #[arg(long)]
    pub trace: bool,
    /// Print a certificate of the infinite game instead of the result line: the rules in
    /// words, the deal, the cycle's start and length, the state at both ends, the wars of one
    /// period, the cards told apart, and natural against sorted
    #[arg(long, conflicts_with = "trace")]
    pub certify: bool,
    #[command(flatten)]
    pub setting: SettingArgs,
}

#[derive(Args, Debug)]
pub struct AnswerArgs {
    /// Input file (Q, then Q seeds); `-` or nothing reads stdin
    pub file: Option<PathBuf>,
    /// Shuffle
    #[arg(long, value_enum, default_value = "lcg")]
    pub shuffle: Shuffle,
    #[command(flatten)]
    pub setting: SettingArgs,
}

#[derive(Args, Debug)]
pub struct BattleArgs {
    /// Revealed values, e.g. `[4, 8, 11]`; read from stdin when absent
    pub cards: Vec<String>,
    /// Number of players
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = count_usize)]
    pub players: usize,
    /// Print the winner 1-based (player 1 is `1`) instead of 0-based
    #[arg(long)]
    pub one_based: bool,
}

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// Seeds to play: `A..B` (end excluded) or `A..=B` [default: 0..100000; every deal with lex]
    #[arg(long, value_name = "A..B", allow_hyphen_values = true, value_parser = seed_range)]
    pub seeds: Option<Seeds>,
    /// Shuffle
    #[arg(long, value_enum, default_value = "lcg")]
    pub shuffle: Shuffle,
    #[command(flatten)]
    pub setting: SettingArgs,
    /// Worker threads, 1 to 1024 [default: all cores]
    #[arg(short = 'j', long, value_name = "N", allow_negative_numbers = true, value_parser = threads)]
    pub threads: Option<usize>,
    /// Play only the K-th (from 0) of N near-equal contiguous parts of --seeds; with no value,
    /// K and N come from a Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT)
    #[arg(long, value_name = "K/N", num_args = 0..=1, default_missing_value = "slurm", value_parser = shard)]
    pub shard: Option<String>,
    /// Continue a stopped or killed run of the same command from its last checkpoint (kept
    /// beside the first output file as FILE.resume)
    #[arg(long)]
    pub resume: bool,
    /// Write the per-game CSV here (`-` for stdout)
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    #[command(flatten)]
    pub outputs: OutputArgs,
    /// In a lex walk of a symmetric setting, play every deal rather than one of each pair of
    /// mirror deals (which play the same game, players swapped)
    #[arg(long)]
    pub every_deal: bool,
    /// Where the games are played: `gpu` plays lex walks and lcg or splitmix seeds of
    /// two-player games of up to 64 cards (the 52-card deck included) on an NVIDIA GPU (a build
    /// with the `gpu` feature), with the same results
    #[arg(long, value_enum, default_value = "cpu")]
    pub device: Device,
    /// Print neither the summary table nor the progress bar nor notes
    #[arg(short, long)]
    pub quiet: bool,
    /// Seeds a worker plays per task (results never depend on it)
    #[arg(long, default_value_t = 2048, hide = true, value_parser = pacing)]
    pub chunk: usize,
    /// Seeds played between two points where the sweep may stop or save (results never depend
    /// on it)
    #[arg(long, default_value_t = 1 << 17, hide = true, value_parser = pacing)]
    pub window: usize,
    /// Seconds between two checkpoints
    #[arg(long, default_value_t = 2.0, hide = true)]
    pub checkpoint_seconds: f64,
}

#[derive(Args, Debug)]
pub struct ShapesArgs {
    #[command(flatten)]
    pub setting: SettingArgs,
    /// The most battles a word holds (2 to 30 without a war, even; 4 to 30 with wars, even unless
    /// wars put cards face down or chain ties)
    #[arg(long, default_value_t = 16, value_name = "BATTLES", allow_negative_numbers = true, value_parser = count_usize)]
    pub longest: usize,
    /// Wars placed in each word: 0, or 1 to 6 (the first player 1's, at its start; each
    /// other after the last one's deciding battle)
    /// [default: 0; with --periods, 1]
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = count_usize)]
    pub wars: Option<usize>,
    /// Instead of every word: four wins each (AAAABBBB) repeated M times for each M of
    /// FIRST..LAST, its wars at fixed battles of that super-period (the first in its first
    /// eight battles)
    #[arg(long, value_name = "FIRST-LAST", conflicts_with = "longest", value_parser = super_periods)]
    pub periods: Option<(usize, usize)>,
    /// Player 1's hand sizes each placing is looked at from, FIRST-LAST [default: every size]
    #[arg(long, value_name = "FIRST-LAST", value_parser = held)]
    pub held: Option<(usize, usize)>,
    /// Kinds of war placed, of high, mid and low, comma-separated [default: all]; a war that
    /// the gather takes alike for several kinds is placed as each kind named
    #[arg(long, value_name = "KINDS", value_delimiter = ',', value_parser = kind)]
    pub kinds: Vec<Kind>,
    /// Aligned cycles only: shapes some round of whose period leaves the hands equal, and
    /// states whose cycle has equal hands at some round
    #[arg(long)]
    pub aligned: bool,
    /// The most ties in a row a war holds before its deciding battle (1 to 3), each war
    /// placed with every number up to it (not under `sorted`)
    #[arg(long, default_value_t = 1, value_name = "N", allow_negative_numbers = true, value_parser = count_usize)]
    pub chain: usize,
    /// Only words that end with the hands swapped, from half the deck each: the cycle plays
    /// the word, then its mirror (winners swapped), aligned at its start
    #[arg(long, conflicts_with = "held")]
    pub mirrored: bool,
    /// Distinct states laid on each shape that takes the values (1 to 1000), each printed
    /// with its cycle: the states of one shape differ in their equal values, and so in their
    /// cycles' lengths
    #[arg(long, default_value_t = 1, value_name = "N", allow_negative_numbers = true, value_parser = count_usize)]
    pub states: usize,
    /// Walk each state back to a deal of the rules (the backward search), printed with the
    /// `play` command that shows it reaching the cycle
    #[arg(long)]
    pub deals: bool,
    /// Write the census as JSON here too: its counts and each state (word, wars, hands, cycle,
    /// deal); written whole or not at all
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Stop after this long (90s, 10m, 1h30m), printing what the census found so far; a
    /// signal (Ctrl-C) does the same
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub time: Option<std::time::Duration>,
    /// No progress bar
    #[arg(short, long)]
    pub quiet: bool,
    /// Let a battle followed by one of the same winner be the tie of a war gathered as two
    /// single battles (`sorted`'s high war, no card face down), at any pass; such wars are then
    /// not placed
    #[arg(long)]
    pub ties: bool,
    /// Worker threads, 1 to 1024 [default: all cores]
    #[arg(short = 'j', long, value_name = "N", allow_negative_numbers = true, value_parser = threads)]
    pub threads: Option<usize>,
}

#[derive(Args, Debug)]
pub struct HuntArgs {
    #[command(flatten)]
    pub setting: SettingArgs,
    /// What to look for: the longest finished game, or infinite games
    #[arg(
        long = "for",
        value_enum,
        default_value = "longest",
        value_name = "GOAL"
    )]
    pub goal: HuntGoal,
    /// What makes a game long: rounds, battles or wars (a hunt for the longest game)
    #[arg(long, value_name = "METRIC", value_parser = length_metric)]
    pub metric: Option<Metric>,
    /// How deals are chosen [default: backward for the longest game, random for cycles]
    #[arg(long, value_enum)]
    pub strategy: Option<Strategy>,
    /// Seed of every generator the hunt draws from
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = count_u64)]
    pub seed: u64,
    /// Games to play at most [default: 1000000 without --time]
    #[arg(long, allow_negative_numbers = true, value_parser = positive_u64)]
    pub games: Option<u64>,
    /// Time to hunt for at most, from the command's start (a building strategy's shapes
    /// included): 90s, 10m, 2h, 1h30m
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub time: Option<std::time::Duration>,
    /// Worker threads, 1 to 1024 [default: all cores]
    #[arg(short = 'j', long, value_name = "N", allow_negative_numbers = true, value_parser = threads)]
    pub threads: Option<usize>,
    /// How many of the best deals to print and keep (or distinct cycles; every distinct cycle
    /// is counted and logged)
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = positive_usize)]
    pub keep: usize,
    /// States one backward search may expand (the backward strategy): a few microseconds and
    /// about 80 bytes each; millions find more from a published record
    #[arg(long, default_value_t = 100_000, value_name = "N", allow_negative_numbers = true, value_parser = positive_u64)]
    pub backward_states: u64,
    /// Start from these hands: `play`'s input (one deal), or a CSV with a `hands` column (a
    /// hunt's --log, the record table: the rows of this deck and gather), or a hunt's --out
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,
    /// Write each improvement as CSV (`stream,seconds,games,value,hands,built,fell_back`, the last two a building strategy's counts so far) here
    #[arg(long, value_name = "FILE.csv")]
    pub log: Option<PathBuf>,
    /// Write the hunt's report (setting, budget, best deals, log) as JSON here, for --join
    /// and --start
    #[arg(long, value_name = "FILE.json")]
    pub out: Option<PathBuf>,
    /// Hunt stream K (from 0) of N, each drawing its own deals from --seed; with no value, K and
    /// N come from a Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT)
    #[arg(long, value_name = "K/N", num_args = 0..=1, default_missing_value = "slurm", value_parser = shard)]
    pub shard: Option<String>,
    /// Join the reports of one hunt's streams (--out of each) into one report, log and table,
    /// instead of hunting
    #[arg(long, value_name = "REPORT.json", num_args = 1.., conflicts_with_all = [
        "start", "shard", "games", "time", "strategy", "seed", "keep", "goal", "metric",
        "backward_states", "threads", "device", "resume", "rules", "deck", "players",
        "face_down", "short_war", "gather", "deal", "ranking", "won_pile", "max_rounds",
    ])]
    pub join: Vec<PathBuf>,
    /// Continue a stopped or killed run of the same command from its last checkpoint (kept
    /// beside the report, or the log, as FILE.resume)
    #[arg(long)]
    pub resume: bool,
    /// Seconds between two checkpoints
    #[arg(long, default_value_t = 5.0, hide = true)]
    pub checkpoint_seconds: f64,
    /// Where the games are played: `gpu` plays the random and backward strategies' random
    /// games on an NVIDIA GPU (a build with the `gpu` feature; two players, decks of up to 64
    /// cards), the same deals as on the CPU, and the CPU plays again those the hunt keeps
    #[arg(long, value_enum, default_value = "cpu")]
    pub device: Device,
    /// Print neither the progress bar nor the table
    #[arg(short, long)]
    pub quiet: bool,
}

/// What a hunt looks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum HuntGoal {
    /// The longest finished game, by --metric
    Longest,
    /// Infinite games, each distinct cycle once
    Cycles,
}

/// `--metric` of a hunt: a length of finished games.
fn length_metric(text: &str) -> Result<Metric, String> {
    match text {
        "rounds" => Ok(Metric::Rounds),
        "battles" => Ok(Metric::Battles),
        "wars" => Ok(Metric::Wars),
        _ => Err(format!(
            "{text} is not a length of a finished game: give rounds, battles or wars"
        )),
    }
}

/// A duration: a number of seconds, or numbers each followed by `h`, `m` or `s` (`1h30m`).
fn duration(text: &str) -> Result<std::time::Duration, String> {
    let bad = || format!("{text} is not a duration: give 90s, 10m, 2h or 1h30m");
    let t = text.trim();
    if t.is_empty() {
        return Err(bad());
    }
    // A bare number is seconds.
    let t = match t.bytes().all(|b| b.is_ascii_digit()) {
        true => format!("{t}s"),
        false => t.to_string(),
    };
    let (mut seconds, mut number) = (0u64, String::new());
    for c in t.chars() {
        match c {
            '0'..='9' => number.push(c),
            'h' | 'm' | 's' if !number.is_empty() => {
                let n: u64 = number.parse().map_err(|_| bad())?;
                let unit = match c {
                    'h' => 3600,
                    'm' => 60,
                    _ => 1,
                };
                seconds = n
                    .checked_mul(unit)
                    .and_then(|s| seconds.checked_add(s))
                    .ok_or_else(bad)?;
                number.clear();
            }
            _ => return Err(bad()),
        }
    }
    if !number.is_empty() {
        return Err(bad());
    }
    if seconds == 0 {
        return Err(format!("{text} is no time: give 1s or more"));
    }
    Ok(std::time::Duration::from_secs(seconds))
}

/// Where a sweep plays its games.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Device {
    /// The processor's cores
    Cpu,
    /// An NVIDIA GPU
    Gpu,
}

/// The files a sweep (or a merge) writes besides its CSV.
#[derive(Args, Debug)]
pub struct OutputArgs {
    /// Write the JSON summary here (`-` for stdout)
    #[arg(long, value_name = "FILE.json")]
    pub summary: Option<PathBuf>,
    /// Write the length distributions as CSV (`metric,value,games`) here (`-` for stdout)
    #[arg(long, value_name = "FILE.csv")]
    pub hist: Option<PathBuf>,
    /// Draw an SVG histogram of game lengths here (`-` for stdout)
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Find every distinct cycle and its basin, and write them as CSV
    /// (`cycle_length,deals,first_seed,hands`) here (`-` for stdout); the summary lists them
    #[arg(long, value_name = "FILE.csv")]
    pub cycles: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Shard summaries written by `sweep --summary`
    #[arg(required = true, value_name = "SUMMARY.json")]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub outputs: OutputArgs,
    /// Do not print the table
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// The command whose page to print (play, answer, battle, sweep, hunt, merge, plot,
    /// completions, man) [default: warsweep's own]
    pub command: Option<String>,
    /// Write every page to this folder instead of printing one
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub out_dir: Option<PathBuf>,
}

/// The man page of `cmd` (warsweep, or one of its commands, named `warsweep-COMMAND`), in roff:
/// clap_mangen's sections, with the presets table kept as laid out (roff would reflow it).
pub fn man_page(cmd: &clap::Command, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(cmd.clone()).source(format!("warsweep {VERSION}"));
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(out)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(out)?;
    }
    if cmd.get_after_help().is_some() {
        // No-fill: each line as written. A leading dot or quote would be a request, a
        // backslash an escape, and a hyphen is a minus in roff.
        writeln!(out, ".SH PRESETS\n.nf")?;
        for line in PRESETS.lines() {
            let line = line.replace('\\', "\\e").replace('-', "\\-");
            let guard = if line.starts_with(['.', '\'']) {
                "\\&"
            } else {
                ""
            };
            writeln!(out, "{guard}{line}")?;
        }
        writeln!(out, ".fi")?;
    }
    let name = cmd.get_display_name().unwrap_or(cmd.get_name());
    for (title, text) in man_sections(name) {
        writeln!(out, ".SH {title}")?;
        for paragraph in text.split("\n\n") {
            let roff = paragraph.replace('\\', "\\e").replace('-', "\\-");
            writeln!(out, ".PP\n{roff}")?;
        }
    }
    if cmd.get_version().is_some() {
        man.render_version_section(out)?;
    }
    Ok(())
}

/// The sections a page has beside its options: EXIT STATUS for every page, SIGNALS for the
/// commands that a signal stops (sweep, hunt), FILES for the one that keeps a checkpoint.
fn man_sections(page: &str) -> Vec<(&'static str, &'static str)> {
    let mut sections = vec![("EXIT STATUS", EXIT_STATUS)];
    match page {
        "warsweep" | "warsweep-sweep" => {
            sections.push(("SIGNALS", SIGNALS));
            sections.push(("FILES", FILES));
        }
        "warsweep-hunt" => sections.push(("SIGNALS", HUNT_SIGNALS)),
        _ => {}
    }
    sections
}

const EXIT_STATUS: &str = "\
0: success, also when the reader of the CSV on stdout goes away.

1: a failure: bad input, a file that cannot be read or written, a refused merge or resume, flags each fine alone but not together; one line on stderr.

2: a usage error: an unknown flag, or a flag's value wrong on its own (a number out of its range, a malformed deck or seed range); clap's own message.

129, 130, 143: a sweep or hunt stopped by SIGHUP, SIGINT or SIGTERM, after writing outputs that cover exactly the seeds played (a hunt's: the deals it found).";

const HUNT_SIGNALS: &str = "\
SIGINT, SIGTERM and SIGHUP end a hunt within a second, whatever its backward search's budget: the best deals found so far are printed and written (--out, --log) as at the end of its budget, its checkpoint is kept for --resume, and the exit status is 128 plus the signal's number. A later signal ends the process once no file is being written.";

const SIGNALS: &str = "\
SIGINT, SIGTERM and SIGHUP stop a sweep at its next window (a fraction of a second): every output then covers exactly the seeds played, the table is printed marked as partial, and the exit status is 128 plus the signal's number. A second signal within a second counts as the same request.";

const FILES: &str = "\
FILE.resume: the checkpoint of a sweep that writes files, kept beside its first output file, written atomically every two seconds and removed when the sweep ends; of a hunt, kept beside its report or log, written every five seconds and at every stop, and removed when the hunt spends its budget; `--resume` continues from it after a signal, `kill -9` or a power loss.

FILE.partial: a CSV being streamed; it takes its name when the sweep ends.

Outputs appear complete or not at all: each is written to a temporary file beside it and renamed.";

/// The man page `warsweep man` prints (warsweep's, or `command`'s), or none when [`out_dir`] is
/// given and every page is written there as `warsweep.1` and `warsweep-COMMAND.1`.
pub fn man(command: Option<&str>, out_dir: Option<&std::path::Path>) -> anyhow::Result<Vec<u8>> {
    use anyhow::Context;
    let cmd = man_command();
    if let Some(dir) = out_dir {
        for page in std::iter::once(&cmd).chain(cmd.get_subcommands()) {
            let name = page.get_display_name().unwrap_or(page.get_name());
            let path = dir.join(format!("{name}.1"));
            let mut text = Vec::new();
            man_page(page, &mut text).context("cannot render the man pages")?;
            std::fs::write(&path, &text)
                .with_context(|| format!("cannot write the man page {}", path.display()))?;
        }
        return Ok(Vec::new());
    }
    let page = match command {
        None => &cmd,
        Some(name) => cmd.find_subcommand(name).with_context(|| {
            let names: Vec<&str> = cmd.get_subcommands().map(clap::Command::get_name).collect();
            format!(
                "{name:?} is not a warsweep command (they are {})",
                names.join(", ")
            )
        })?,
    };
    let mut text = Vec::new();
    man_page(page, &mut text).context("cannot render the man page")?;
    Ok(text)
}

/// warsweep's command, built as its man pages name it: each command as `warsweep-COMMAND`,
/// without the `help` command (every page documents `--help`).
pub fn man_command() -> clap::Command {
    let mut cmd = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Summaries written by `sweep --summary` or `merge --summary`
    #[arg(required = true, value_name = "SUMMARY.json")]
    pub inputs: Vec<PathBuf>,
    /// The SVG file to write (`-` for stdout)
    #[arg(short, long, value_name = "FILE.svg")]
    pub output: PathBuf,
    /// The quantity whose distribution is drawn
    #[arg(long, value_enum, default_value = "battles")]
    pub metric: Metric,
    /// Draw the shares on a logarithmic axis, where long tails show
    #[arg(long)]
    pub log: bool,
    /// The chart's title [default: the quantity and what the summaries share]
    #[arg(long)]
    pub title: Option<String>,
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The bytes of `file`, or of stdin for none or `-`, and the name to give them in messages.
pub fn read(file: Option<&std::path::Path>) -> anyhow::Result<(Vec<u8>, String)> {
    use anyhow::Context;
    use std::io::Read;
    match file {
        Some(path) if path != std::path::Path::new("-") => std::fs::read(path)
            .map(|bytes| (bytes, path.display().to_string()))
            .with_context(|| format!("cannot read {}", path.display())),
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read stdin")?;
            Ok((bytes, "stdin".to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, ValueEnum};

    /// Every choice the command line offers is the library's own name for it.
    #[test]
    fn every_choice_is_the_library_name() {
        fn same<T: ValueEnum + Copy + std::fmt::Display>() -> usize {
            for value in T::value_variants() {
                let shown = value.to_possible_value().unwrap();
                assert_eq!(shown.get_name(), value.to_string());
            }
            T::value_variants().len()
        }
        let counted = same::<Preset>()
            + same::<Gather>()
            + same::<ShortWar>()
            + same::<Deal>()
            + same::<Ranking>()
            + same::<WonPile>()
            + same::<Shuffle>()
            + same::<Metric>()
            + same::<Strategy>();
        assert_eq!(counted, 5 + 9 + 4 + 2 + 3 + 2 + 3 + 8 + 5);
    }

    #[test]
    fn command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
