//! Fork detection without a system call per check: a `pthread_atfork` handler counts the
//! forks as seen by each child, and code that must not continue its parent's state compares
//! the count it last saw.

use core::sync::atomic::{AtomicU64, Ordering};

/// How many times this process's ancestry has forked into it.
static FORKS: AtomicU64 = AtomicU64::new(0);

/// The fork count: it changes in a child after each `fork`, once [`watch`] has run.
#[inline]
pub(crate) fn count() -> u64 {
    FORKS.load(Ordering::Relaxed)
}

/// Installs the handler that counts forks (once per process; later calls are free).
#[cfg(unix)]
pub(crate) fn watch() {
    extern "C" fn count_fork_in_child() {
        FORKS.fetch_add(1, Ordering::Relaxed);
    }
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // SAFETY: the handler only increments an atomic, which is async-signal-safe, as a
        // handler run in a freshly forked child must be.
        let status = unsafe { libc::pthread_atfork(None, None, Some(count_fork_in_child)) };
        assert!(status == 0, "ulid-flake: pthread_atfork failed ({status})");
    });
}

/// Without `fork`, there is nothing to watch.
#[cfg(not(unix))]
pub(crate) fn watch() {}
