//! Time sources for the generator.

use core::time::Duration;
use std::time::{SystemTime, UNIX_EPOCH};

/// A source of the current time, in Unix milliseconds.
///
/// The generator reads the clock once per ID, so [`Clock::unix_ms`] is on the hot path.
/// The waiting calls use [`Clock::wait_until`] (and `Clock::wait_until_async` with the
/// `tokio` feature); their default implementations wait on the system clock, which is right
/// for any clock that follows it. A clock that does not (a test clock that a test moves by
/// hand) must override both, or a waiting call would wait for the system clock while its own
/// time stands still.
///
/// ```
/// use std::sync::atomic::{AtomicI64, Ordering};
/// use ulid_flake_core::generator::{Clock, Generator};
///
/// /// A clock that a test moves by hand.
/// struct ManualClock(AtomicI64);
///
/// impl Clock for ManualClock {
///     fn unix_ms(&self) -> i64 {
///         self.0.load(Ordering::Relaxed)
///     }
///     fn wait_until(&self, unix_ms: i64) {
///         self.0.fetch_max(unix_ms, Ordering::Relaxed);
///     }
///     // With the `tokio` feature, override `wait_until_async` likewise.
/// }
///
/// let generator = Generator::builder()
///     .clock(ManualClock(AtomicI64::new(1_704_067_200_042)))
///     .build()?;
/// assert_eq!(generator.generate()?.ms_since_epoch(), 42);
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub trait Clock {
    /// The current time in whole milliseconds since the Unix epoch, rounded down (negative
    /// before 1970).
    fn unix_ms(&self) -> i64;

    /// Blocks until [`Clock::unix_ms`] reaches `unix_ms`.
    ///
    /// The default sleeps until shortly before that millisecond of the system clock and then
    /// yields until it begins: it does not oversleep by the scheduler's slack, nor spin on a
    /// core for a whole millisecond.
    fn wait_until(&self, unix_ms: i64) {
        while self.unix_ms() < unix_ms {
            match system_time_until(unix_ms) {
                Some(left) if left > YIELD_WINDOW => std::thread::sleep(left - YIELD_WINDOW),
                _ => std::thread::yield_now(),
            }
        }
    }

    /// Waits, without blocking the thread, until about when [`Clock::unix_ms`] reaches
    /// `unix_ms`; the caller checks the clock again.
    ///
    /// The default sleeps on the tokio timer, whose resolution is one millisecond: it may
    /// wake up to a millisecond late. Bulk work that needs every millisecond's capacity
    /// should call the blocking generator on a blocking thread instead.
    #[cfg(feature = "tokio")]
    fn wait_until_async(&self, unix_ms: i64) -> impl Future<Output = ()> + Send {
        let left = system_time_until(unix_ms);
        async move {
            match left {
                Some(left) => tokio::time::sleep(left).await,
                None => tokio::task::yield_now().await,
            }
        }
    }
}

/// How close to the target millisecond [`Clock::wait_until`] stops sleeping and starts
/// yielding. Linux wakes sleepers up to ~50 µs late (the default timer slack); 100 µs
/// leaves room for that while keeping the yielding short.
const YIELD_WINDOW: Duration = Duration::from_micros(100);

/// How long until the system clock reaches `unix_ms`; `None` once it has.
fn system_time_until(unix_ms: i64) -> Option<Duration> {
    let target = UNIX_EPOCH.checked_add(Duration::from_millis(u64::try_from(unix_ms).ok()?))?;
    target.duration_since(SystemTime::now()).ok()
}

/// The system's wall clock, [`SystemTime::now`].
///
/// ```
/// use ulid_flake_core::generator::{Clock, SystemClock};
///
/// assert!(SystemClock.unix_ms() > 1_704_067_200_000);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn unix_ms(&self) -> i64 {
        match SystemTime::now().duration_since(UNIX_EPOCH) {
            // u64 seconds over i64::MAX / 1000 are 292 million years away: saturate.
            Ok(since) => (since.as_secs() as i64)
                .saturating_mul(1000)
                .saturating_add(i64::from(since.subsec_millis())),
            Err(before) => {
                let before = before.duration();
                // Round away from zero, so that the result is the floor.
                let ms = before.as_secs() as i64 * 1000
                    + i64::from(before.subsec_nanos().div_ceil(1_000_000));
                -ms
            }
        }
    }
}

/// Shared clocks: a test keeps one handle and gives the generator another.
macro_rules! forward_clock {
    ($($pointer:ty),*) => {$(
        impl<C: Clock + ?Sized> Clock for $pointer {
            fn unix_ms(&self) -> i64 {
                (**self).unix_ms()
            }
            fn wait_until(&self, unix_ms: i64) {
                (**self).wait_until(unix_ms);
            }
            #[cfg(feature = "tokio")]
            fn wait_until_async(&self, unix_ms: i64) -> impl Future<Output = ()> + Send {
                (**self).wait_until_async(unix_ms)
            }
        }
    )*};
}
forward_clock!(&C, alloc::sync::Arc<C>);
