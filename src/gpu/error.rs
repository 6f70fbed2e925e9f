//! Why a sweep is not played on the GPU: what of it the kernel cannot play ([`Unfit`], every
//! reason at once, the first thing to fix first), or what failed on the way to the device
//! ([`DeviceError`]). The sentences name no flag: the command line and Python add their own
//! words (`--csv`, `rows=False`, how to build with the feature).

use crate::rules::{Deck, Gather};
use std::fmt;

/// One reason a sweep cannot be played on the GPU.
///
/// ```
/// use warsweep::{DeviceError, Preset, Rules, Seeds, Shuffle, Sweep, Unfit};
/// let sweep = Sweep::new(Rules::preset(Preset::Oorlog), Shuffle::Lcg, Seeds::new(0, 10)?).gpu(true);
/// let refused = sweep.run(None, &|_| {}, &Default::default()).unwrap_err();
/// let warsweep::SweepError::Device(DeviceError::Unfit(reasons)) = refused else { panic!() };
/// // Three players, and a deck of 108 cards: both said at once.
/// assert!(reasons.contains(&Unfit::Players(3)));
/// assert!(reasons.iter().any(|r| matches!(r, Unfit::Deck { cards: 108, .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// This library was built without its cargo feature `gpu`.
    NotBuilt,
    /// Per-game rows were asked for: the GPU keeps tallies only.
    Rows,
    /// Chosen seeds rather than a range.
    Chosen,
    /// More than two players.
    Players(usize),
    /// A gather without a fixed order (`random`): its games are not checked for cycles.
    Gather(Gather),
    /// Shuffled won piles: their games are not checked for cycles.
    WonPile,
    /// A deck of more than 64 cards, or of more than 15 values (a hand may come to hold every
    /// card, in four words of sixteen cards of four bits).
    Deck {
        /// The deck.
        deck: Deck,
        /// Its cards.
        cards: usize,
    },
    /// A hunt's strategy (named) whose deals are not drawn at random, where the GPU plays
    /// generations of random deals, several a launch: the climb (its deals depend on what the
    /// generations before found), the construction and the shapes strategy (built on the CPU).
    Strategy(&'static str),
    /// Seeds (or a walk's deals) that reach 2^53 or past it: a record keeps its seed in 53 bits.
    /// The end of the range, excluded.
    Seeds(u128),
}

impl fmt::Display for Unfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unfit::NotBuilt => f.write_str("this warsweep is built without GPU support"),
            Unfit::Strategy(name) => write!(
                f,
                "the GPU plays the random and backward strategies, whose deals are drawn at random, not the {name} strategy, whose deals are not drawn at random"
            ),
            Unfit::Rows => f.write_str("the GPU keeps no per-game rows, only the summary"),
            Unfit::Chosen => f.write_str("the GPU walks ranges of seeds, not chosen seeds"),
            Unfit::Players(n) => write!(f, "the GPU plays two players, not {n}"),
            Unfit::Gather(g) => write!(
                f,
                "the GPU plays gathers of a fixed order, and the {g} gather's games are not checked for cycles"
            ),
            Unfit::WonPile => f.write_str(
                "the GPU plays no won piles: games with shuffled won piles are not checked for cycles",
            ),
            Unfit::Deck { deck, cards } => write!(
                f,
                "the GPU plays decks of at most 64 cards of at most 15 values, and the {deck} deck has {cards} cards of {} values",
                deck.values()
            ),
            Unfit::Seeds(end) => write!(
                f,
                "the GPU plays seeds below 2^53 (9007199254740992) and walks of fewer deals, and these seeds reach {}",
                end - 1
            ),
        }
    }
}

/// Why a sweep was not played on the GPU: what of it the GPU cannot play, or what failed on the
/// way there (no driver, no GPU, no NVRTC, a kernel that does not compile or load, a launch that
/// fails). Each says one sentence; [`DeviceError::Compile`] keeps NVRTC's whole log besides.
///
/// ```
/// use warsweep::{DeviceError, Unfit};
/// let refused = DeviceError::Unfit(vec![Unfit::Rows, Unfit::Players(3)]);
/// assert_eq!(
///     refused.to_string(),
///     "the GPU cannot play this sweep: the GPU keeps no per-game rows, only the summary; the GPU plays two players, not 3"
/// );
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    /// What of this sweep the GPU cannot play: every reason, the first thing to fix first.
    #[error("the GPU cannot play this sweep: {}", join(.0))]
    Unfit(Vec<Unfit>),
    /// No NVIDIA driver (`libcuda.so`) could be loaded.
    #[error("no NVIDIA driver was found (libcuda.so): play on the CPU, or on a machine with an NVIDIA GPU")]
    NoDriver,
    /// The driver is there, but no GPU could be opened; the driver's words.
    #[error("no GPU could be opened: {0}")]
    NoDevice(String),
    /// NVRTC (`libnvrtc.so`), which compiles the kernel, could not be loaded.
    #[error("NVRTC (libnvrtc.so, from the CUDA toolkit) was not found: install the CUDA toolkit or add its lib64 folder to LD_LIBRARY_PATH")]
    NoNvrtc,
    /// NVRTC compiles for no architecture as old as this GPU's.
    #[error("NVRTC {nvrtc} compiles for GPUs of compute capability {oldest} and newer, and this GPU's is {gpu}")]
    TooOld {
        /// NVRTC's version.
        nvrtc: String,
        /// The oldest compute capability NVRTC compiles for.
        oldest: String,
        /// The GPU's compute capability.
        gpu: String,
    },
    /// NVRTC did not compile the kernel; its log names `kernel.cu`'s lines.
    #[error("the kernel did not compile for {arch}: {}", first_line(.log))]
    Compile {
        /// The architecture it was compiled for.
        arch: String,
        /// NVRTC's whole log.
        log: String,
    },
    /// The driver did not load the compiled kernel.
    #[error("the kernel ({arch}) did not load: {why}; the driver runs CUDA {driver} and NVRTC is CUDA {nvrtc}: a driver loads the code of an NVRTC of its own CUDA major version")]
    Load {
        /// The architecture it was compiled for.
        arch: String,
        /// The driver's words.
        why: String,
        /// The driver's CUDA version.
        driver: String,
        /// NVRTC's CUDA version.
        nvrtc: String,
    },
    /// `WARSWEEP_GPU_DEAL_EVERY` (the rounds between a thread's deal points, set to time the
    /// kernel) holds no whole number of rounds from 1.
    #[error("WARSWEEP_GPU_DEAL_EVERY must be a whole number of rounds from 1, not {0:?}")]
    DealEvery(String),
    /// The GPU failed while walking (a launch, a copy, its memory); the driver's words.
    #[error("the GPU failed: {0}")]
    Failed(String),
}

/// The reasons, one after the other.
pub(crate) fn join(reasons: &[Unfit]) -> String {
    let said: Vec<String> = reasons.iter().map(Unfit::to_string).collect();
    said.join("; ")
}

/// The first line of a compiler's log that says something, for a one-sentence error.
fn first_line(log: &str) -> &str {
    log.lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("NVRTC gave no log")
}
