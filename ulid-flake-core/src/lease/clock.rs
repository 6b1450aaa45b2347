//! The lease's monotonic clock.

use core::time::Duration;

use crate::generator::{Clock, SystemClock};

/// A [`Clock`] that also reads a monotonic clock, for the lease's deadlines: the generator's
/// clock stamps IDs, the monotonic one measures how long a lease stays valid, unmoved by
/// wall-clock steps. Tests implement it to script every transition.
///
/// ```
/// use ulid_flake_core::{generator::SystemClock, lease::LeaseClock};
///
/// let earlier = SystemClock.monotonic();
/// assert!(SystemClock.monotonic() >= earlier);
/// ```
pub trait LeaseClock: Clock + Send + Sync + 'static {
    /// Time since an arbitrary, fixed origin; never decreases, and keeps counting while the
    /// process or the machine is suspended.
    fn monotonic(&self) -> Duration;

    /// Blocks for `duration` (the first acquisition's waits between attempts). A scripted
    /// clock moves its time instead.
    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

impl LeaseClock for SystemClock {
    /// `CLOCK_BOOTTIME` on Linux and Android and `CLOCK_MONOTONIC` on Apple's systems, which
    /// count time the machine spent asleep (Linux's `CLOCK_MONOTONIC` does not, and a lease
    /// would outlive a suspend); `Instant` elsewhere, which may not.
    fn monotonic(&self) -> Duration {
        boottime()
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn boottime() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec; CLOCK_BOOTTIME exists on every Linux this
    // crate builds for (2.6.39 and later).
    let status = unsafe { libc::clock_gettime(libc::CLOCK_BOOTTIME, &mut now) };
    assert!(
        status == 0,
        "ulid-flake: clock_gettime(CLOCK_BOOTTIME) failed"
    );
    // Non-negative by definition of the clock.
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
fn boottime() -> Duration {
    static ORIGIN: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    ORIGIN.get_or_init(std::time::Instant::now).elapsed()
}
