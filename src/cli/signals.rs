//! The signals that stop a sweep cleanly (at the next window, outputs written): SIGINT, SIGTERM,
//! SIGHUP. Signals within [`ONE_REQUEST`] of the first are the same request (`timeout` signals the
//! process and then its group); one after that ends the process, once no file is being written
//! and the command's last words (a hunt's report of its last checkpoint) are said.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long after the first signal another one still counts as the same request.
const ONE_REQUEST: Duration = Duration::from_secs(1);

/// What a command does when a late second signal ends the process: called once, holding
/// [`Signals::writing`], with the signal's name.
pub type LastWords = Box<dyn FnOnce(&str) + Send>;

/// The flag a sweep checks between windows, and which signal set it.
pub struct Signals {
    pub stop: Arc<AtomicBool>,
    /// Held while a file is written: a later signal waits for it before it ends the process.
    pub writing: Arc<Mutex<()>>,
    /// What the command does before a late second signal ends the process.
    last_words: Arc<Mutex<Option<LastWords>>>,
    which: Arc<AtomicUsize>,
}

impl Signals {
    /// Starts watching (in a thread of its own, which also ends the process on a late second
    /// signal).
    pub fn watch() -> Signals {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let signals = Signals {
            stop: Arc::new(AtomicBool::new(false)),
            writing: Arc::new(Mutex::new(())),
            last_words: Arc::new(Mutex::new(None)),
            which: Arc::new(AtomicUsize::new(0)),
        };
        // If the handlers cannot be installed, a signal simply ends the process as usual.
        if let Ok(mut incoming) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            let (stop, which) = (signals.stop.clone(), signals.which.clone());
            let (writing, last_words) = (signals.writing.clone(), signals.last_words.clone());
            std::thread::spawn(move || {
                let mut first: Option<Instant> = None;
                for signal in incoming.forever() {
                    match first {
                        None => {
                            which.store(signal as usize, Ordering::SeqCst);
                            stop.store(true, Ordering::SeqCst);
                            first = Some(Instant::now());
                        }
                        Some(at) if at.elapsed() >= ONE_REQUEST => {
                            // A file being written is finished first (a poisoned lock still
                            // means no one writes).
                            let _writing = writing.lock();
                            let words = last_words.lock().ok().and_then(|mut w| w.take());
                            if let Some(words) = words {
                                words(name_of(signal));
                            }
                            std::process::exit(128 + signal)
                        }
                        Some(_) => {}
                    }
                }
            });
        }
        signals
    }

    /// What the command does before a late second signal ends the process.
    pub fn on_last_signal(&self, words: LastWords) {
        let mut last = self
            .last_words
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *last = Some(words);
    }

    /// The name and exit code (128 + its number) of the signal that stopped the sweep.
    pub fn received(&self) -> (&'static str, u8) {
        let signal = self.which.load(Ordering::SeqCst) as i32;
        (name_of(signal), (128 + signal.clamp(0, 127)) as u8)
    }
}

/// A signal's name.
fn name_of(signal: i32) -> &'static str {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}
