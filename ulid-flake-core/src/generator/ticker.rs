//! An opt-in fast clock: a thread publishes the system clock's millisecond in one atomic
//! word, so that a reading is a load instead of a system-clock read.

use alloc::sync::{Arc, Weak};
use core::sync::atomic::{AtomicI64, Ordering};
use core::time::Duration;
use std::time::{SystemTime, UNIX_EPOCH};

use super::clock::{Clock, SystemClock};
use super::fork;

/// A clock that reads the current Unix millisecond from memory: a background thread wakes
/// at each millisecond boundary of the system clock and publishes it in an atomic word, so
/// [`Clock::unix_ms`] is one load instead of a system-clock read (30–35 ns through the vDSO
/// on the machines of the repository's BENCHMARKS.md, where a generator's call on this clock
/// takes about 4 ns against 42). For a generator on the hot path of a service that makes IDs
/// at a high rate; the default, [`SystemClock`], reads the system clock on every call.
///
/// ```
/// use ulid_flake_core::generator::{Generator, TickerClock};
///
/// let generator = Generator::builder().clock(TickerClock::start()?).build()?;
/// let (first, second) = (generator.generate()?, generator.generate()?);
/// assert!(first < second);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # The trade-off
///
/// - **Lag.** A reading is never ahead of the system clock and lags it by the ticker
///   thread's wake-up latency after each boundary: typically 50–100 µs on Linux (the
///   timer slack), on a loaded machine up to a scheduling delay, which is not bounded. A
///   generator on a lagging reading keeps making IDs in the last published millisecond —
///   still unique and in order, with a timestamp that is early by the lag; when that
///   millisecond is exhausted, the waiting calls (`generate`, the batch and async
///   calls, `new_id`) publish the system clock themselves after their wait, so a stalled
///   ticker never stalls them beyond the millisecond they wait for.
/// - **Never behind an issued millisecond.** The published value only moves forward, as
///   long as the system clock does: an ID's millisecond is a value published before it, and
///   every later reading is at least that.
/// - **A clock step.** A step forward is published at the next tick (within a millisecond).
///   A step back is published too, at the next tick, and the generator meets it as it meets
///   one of [`SystemClock`]: within the rollback allowance it continues in the last
///   millisecond, beyond it it fails with `ClockMovedBackwards`. A step back is told from a
///   late publication by the order of the reads: the thread loads the published value
///   before it reads the system clock, so only a real step makes the new reading smaller.
/// - **Suspend.** The thread sleeps on the monotonic clock, which stops while the machine is
///   suspended; after resume it publishes within a millisecond, and until then readings are
///   the moment of the suspension (IDs in that millisecond, in order).
/// - **Costs.** One thread per [`TickerClock::start`] (clones share it), about 1,000
///   wake-ups a second of a few microseconds each; it ends within a millisecond after the
///   last clone is dropped.
/// - **Fork.** The thread does not survive a `fork()`: in a forked child the clock reads
///   the system clock on every call instead (one extra load per reading tells it).
/// - **Leases.** A leased generator stamps its IDs with the readings of its clock, and the
///   lease protocol keeps two holders of an id apart by its margin (1 s by default), which
///   must cover the difference between their clocks. A ticker's lag counts toward that
///   difference: a new holder whose ticker lags by more than the margin could stamp IDs in
///   the previous holder's last milliseconds. That takes a ticker thread starved for a
///   second, far beyond the lag above, but it is not excluded; a leased generator that must
///   hold under any scheduling keeps [`SystemClock`].
#[derive(Clone, Debug)]
pub struct TickerClock {
    published: Arc<Published>,
    /// The process's fork count when the thread was started.
    forks: u64,
}

/// The published Unix millisecond, alone on its cache lines: every reading loads it, and it
/// changes only once a millisecond.
#[derive(Debug)]
#[repr(align(128))]
struct Published(AtomicI64);

impl TickerClock {
    /// Starts the ticker thread and returns a clock that reads what it publishes; clone it
    /// to share one thread among generators.
    ///
    /// # Errors
    ///
    /// The operating system's error when it cannot start a thread.
    ///
    /// ```
    /// use ulid_flake_core::generator::{Clock, SystemClock, TickerClock};
    ///
    /// let clock = TickerClock::start()?;
    /// let reading = clock.unix_ms();
    /// assert!(reading <= SystemClock.unix_ms());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn start() -> std::io::Result<Self> {
        fork::watch();
        let published = Arc::new(Published(AtomicI64::new(SystemClock.unix_ms())));
        let weak = Arc::downgrade(&published);
        std::thread::Builder::new()
            .name("ulid-flake-ticker".into())
            .spawn(move || tick(&weak))?;
        Ok(Self {
            published,
            forks: fork::count(),
        })
    }
}

/// The ticker thread: at each millisecond boundary of the system clock, publish it; stop
/// when no clock is left.
fn tick(published: &Weak<Published>) {
    loop {
        let into_millisecond = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.subsec_nanos() % 1_000_000);
        std::thread::sleep(Duration::from_nanos(u64::from(
            1_000_000 - into_millisecond,
        )));
        match published.upgrade() {
            Some(published) => published.refresh(|| SystemClock.unix_ms()),
            None => return,
        }
    }
}

impl Published {
    /// Publishes the reading `read` returns: forward at once; backward only when the reading
    /// is below the value loaded before it was taken, which only a step of the clock does
    /// (a reading published meanwhile by another thread wins).
    fn refresh(&self, read: impl FnOnce() -> i64) {
        let before = self.0.load(Ordering::Acquire);
        let reading = read();
        if reading >= before {
            self.0.fetch_max(reading, Ordering::AcqRel);
        } else {
            let _ = self
                .0
                .compare_exchange(before, reading, Ordering::AcqRel, Ordering::Relaxed);
        }
    }
}

impl Clock for TickerClock {
    /// The last published millisecond (the system clock's in a forked child).
    ///
    /// ```
    /// use ulid_flake_core::generator::{Clock, TickerClock};
    /// assert!(TickerClock::start()?.unix_ms() > 1_704_067_200_000);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[inline]
    fn unix_ms(&self) -> i64 {
        if fork::count() != self.forks {
            return system_clock_in_forked_child();
        }
        // Relaxed: a reading taken after seeing another thread's ID (an Acquire load of the
        // generator's state) is at least the reading that ID was made from, by coherence.
        self.published.0.load(Ordering::Relaxed)
    }

    /// Waits for the system clock, then publishes it, so that the waiter does not wait for
    /// the ticker thread too.
    fn wait_until(&self, unix_ms: i64) {
        while self.unix_ms() < unix_ms {
            SystemClock.wait_until(unix_ms);
            self.published.refresh(|| SystemClock.unix_ms());
        }
    }

    /// Waits on the tokio timer, then publishes the system clock.
    #[cfg(feature = "tokio")]
    fn wait_until_async(&self, unix_ms: i64) -> impl Future<Output = ()> + Send {
        let published = Arc::clone(&self.published);
        let wait = SystemClock.wait_until_async(unix_ms);
        async move {
            wait.await;
            published.refresh(|| SystemClock.unix_ms());
        }
    }
}

/// The system clock's reading, for a clock read in a forked child, whose ticker thread (the
/// parent's) is not there; out of line, so that the common path is a fall-through.
#[cold]
#[inline(never)]
fn system_clock_in_forked_child() -> i64 {
    SystemClock.unix_ms()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_reading_is_published() {
        let published = Published(AtomicI64::new(100));
        published.refresh(|| 101);
        assert_eq!(published.0.load(Ordering::Relaxed), 101);
    }

    #[test]
    fn a_reading_below_the_value_loaded_before_it_is_a_step_back_and_published() {
        let published = Published(AtomicI64::new(100));
        published.refresh(|| 40);
        assert_eq!(published.0.load(Ordering::Relaxed), 40);
    }

    #[test]
    fn a_late_reading_never_moves_back_a_value_published_meanwhile() {
        let published = Published(AtomicI64::new(100));
        // Our reading, 100, is taken; another thread publishes 101 before ours lands.
        published.refresh(|| {
            published.0.store(101, Ordering::Relaxed);
            100
        });
        assert_eq!(published.0.load(Ordering::Relaxed), 101);
        // A step back raced by another publication: the other wins; the next tick retries.
        published.refresh(|| {
            published.0.store(102, Ordering::Relaxed);
            50
        });
        assert_eq!(published.0.load(Ordering::Relaxed), 102);
    }
}
