//! Workers lent to rayon's tasks: a task borrows one for as long as it runs and gives it back,
//! so that a worker's engine and buffers live as long as the sweep or the hunt that made the
//! pool, whatever rayon's splits. The sweep's and the hunt's workers differ; the lending is
//! this one.

use std::ops::{Deref, DerefMut};
use std::sync::Mutex;

/// Idle workers, and how to make one when none is idle.
pub(crate) struct Pool<'a, W> {
    idle: Mutex<Vec<W>>,
    make: Box<dyn Fn() -> W + Send + Sync + 'a>,
}

impl<'a, W> Pool<'a, W> {
    /// An empty pool whose workers `make` makes.
    pub(crate) fn new(make: impl Fn() -> W + Send + Sync + 'a) -> Pool<'a, W> {
        Pool {
            idle: Mutex::new(Vec::new()),
            make: Box::new(make),
        }
    }

    /// An idle worker, or a new one.
    pub(crate) fn borrow(&self) -> Loan<'_, W> {
        let idle = self.idle.lock().expect("a worker panicked").pop();
        Loan {
            worker: Some(idle.unwrap_or_else(|| (self.make)())),
            idle: &self.idle,
        }
    }

    /// The idle workers (between two plays, all of them).
    pub(crate) fn idle(&self) -> std::sync::MutexGuard<'_, Vec<W>> {
        self.idle.lock().expect("a worker panicked")
    }
}

/// A worker on loan, given back on drop.
pub(crate) struct Loan<'p, W> {
    worker: Option<W>,
    idle: &'p Mutex<Vec<W>>,
}

impl<W> Deref for Loan<'_, W> {
    type Target = W;
    fn deref(&self) -> &W {
        self.worker.as_ref().expect("on loan until dropped")
    }
}

impl<W> DerefMut for Loan<'_, W> {
    fn deref_mut(&mut self) -> &mut W {
        self.worker.as_mut().expect("on loan until dropped")
    }
}

impl<W> Drop for Loan<'_, W> {
    fn drop(&mut self) {
        if let (Some(worker), Ok(mut idle)) = (self.worker.take(), self.idle.lock()) {
            idle.push(worker);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A worker given back is lent again rather than made anew; two loans at once are two.
    #[test]
    fn a_worker_given_back_is_lent_again() {
        let made = AtomicUsize::new(0);
        let pool = Pool::new(|| made.fetch_add(1, Ordering::Relaxed));
        let first = *pool.borrow();
        let again = pool.borrow();
        assert_eq!((first, *again), (0, 0));
        let other = pool.borrow();
        assert_eq!(*other, 1);
        drop((again, other));
        assert_eq!(pool.idle().len(), 2);
        assert_eq!(made.load(Ordering::Relaxed), 2);
    }
}
