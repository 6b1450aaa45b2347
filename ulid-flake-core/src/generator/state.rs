//! The generator's state: the [`Generator`] itself, its three atomic words and its
//! configuration, and the readings of its settings.

#[cfg(not(ulid_flake_loom))]
use core::sync::atomic::{AtomicU64, Ordering};

// Under `--cfg ulid_flake_loom`, the model checker's atomics, so that it explores every
// interleaving of the compare-and-swap loop (ulid-flake-core/tests/core/loom.rs).
#[cfg(ulid_flake_loom)]
use loom::sync::atomic::{AtomicU64, Ordering};

use core::fmt;

use super::clock::SystemClock;
use super::config::{Config, Layout};
use super::gate;

/// `Generator::skew_ms` when the clocks were not found apart.
pub(super) const NO_SKEW: u64 = i64::MIN as u64;
use super::random::ThreadRandom;
use crate::epoch::Epoch;
use crate::ulid_flake::UlidFlake;

/// The state word before the first ID: above every valid ID.
pub(super) const NO_ID_YET: u64 = u64::MAX;

/// A thread-safe, lock-free Ulid-Flake generator.
///
/// Build one with [`Generator::builder`], or use the process-wide one through
/// [`UlidFlake::generate`](crate::UlidFlake::generate). `C` and `R` are the time and randomness sources: the system clock
/// and a per-thread CSPRNG unless replaced (tests script them).
///
/// ```
/// use ulid_flake_core::generator::Generator;
///
/// let generator = Generator::new();
/// let first = generator.generate()?;
/// let second = generator.generate()?;
/// assert!(first < second);
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub struct Generator<C = SystemClock, R = ThreadRandom> {
    /// The last ID made, or [`NO_ID_YET`]: the one word every call writes, alone on its cache
    /// line, so that the words every call only reads (gate, fork count, configuration) stay
    /// shared in every core's cache instead of moving with each write.
    pub(super) last: OwnCacheLine<AtomicU64>,
    /// Until when, and with which scalability id, IDs may be issued (see `gate.rs`).
    pub(super) gate: AtomicU64,
    /// The process's fork count when `last` was last known to be this process's own.
    pub(super) forks_seen: AtomicU64,
    /// While the gate is closed after a lease was lost: the deadline it had (milliseconds
    /// since the epoch), for the error to say since when; 0 otherwise. Read only when an ID
    /// is refused.
    pub(super) lost_deadline: AtomicU64,
    /// While the gate is closed because this machine's wall clock and the database's
    /// disagree: by how much (i64 ms, this clock minus the database's), and the bound (ms);
    /// [`NO_SKEW`] otherwise. Read only when an ID is refused.
    pub(super) skew_ms: AtomicU64,
    pub(super) skew_bound_ms: AtomicU64,
    pub(super) config: Config,
    pub(super) clock: C,
    pub(super) random: R,
}

/// Its settings and readings, not its atomic words: the last ID as an ID, the lease gate as
/// whether and until when it lets IDs out.
///
/// ```
/// use ulid_flake_core::generator::{Clock, Generator};
///
/// #[derive(Debug)]
/// struct Stopped;
///
/// impl Clock for Stopped {
///     fn unix_ms(&self) -> i64 {
///         1_704_067_200_005
///     }
/// }
///
/// let generator = Generator::builder().clock(Stopped).build()?;
/// assert_eq!(
///     format!("{generator:?}"),
///     "Generator { epoch: Epoch { unix_ms: 1704067200000 }, layout: StandAlone, \
///      entropy_bytes: 1, headroom_bits: 0, rollback_allowance_ms: 1000, last_id: None, \
///      lease: NotLeased, clock: Stopped, random: ThreadRandom }"
/// );
/// let id = generator.generate()?;
/// assert!(format!("{generator:?}").contains(&format!("last_id: Some({id:?})")));
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
impl<C: fmt::Debug, R: fmt::Debug> fmt::Debug for Generator<C, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last_id = UlidFlake::from_u64(self.last.load(Ordering::Relaxed)).ok();
        let deadline = gate::deadline(self.gate.load(Ordering::Relaxed));
        f.debug_struct("Generator")
            .field("epoch", &self.epoch())
            .field("layout", &self.layout())
            .field("entropy_bytes", &self.entropy_bytes())
            .field("headroom_bits", &self.headroom_bits())
            .field("rollback_allowance_ms", &self.rollback_allowance_ms())
            .field("last_id", &last_id)
            .field("lease", &LeaseReading(deadline))
            .field("clock", &self.clock)
            .field("random", &self.random)
            .finish()
    }
}

/// The lease gate's deadline, as [`Generator`]'s `Debug` shows it.
struct LeaseReading(u64);

impl fmt::Debug for LeaseReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            gate::UNLEASED => f.write_str("NotLeased"),
            0 => f.write_str("Closed"),
            deadline => write!(f, "OpenBeforeMsSinceEpoch({deadline})"),
        }
    }
}

/// A value aligned to, and so alone on, its own 128 bytes: two 64-byte cache lines, because
/// x86 cores prefetch lines in adjacent pairs.
#[derive(Debug)]
#[repr(align(128))]
pub(super) struct OwnCacheLine<T>(pub(super) T);

impl<T> core::ops::Deref for OwnCacheLine<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

// Readings of the settings, which need nothing of the sources (so `Debug` shows them too).
impl<C, R> Generator<C, R> {
    /// The epoch the generator counts from.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, generator::Generator};
    /// assert_eq!(Generator::new().epoch(), Epoch::DEFAULT);
    /// ```
    pub fn epoch(&self) -> Epoch {
        self.config.epoch
    }

    /// The layout of the IDs the generator makes.
    ///
    /// ```
    /// use ulid_flake_core::generator::{Generator, Layout};
    /// assert_eq!(Generator::new().layout(), Layout::StandAlone);
    /// ```
    pub fn layout(&self) -> Layout {
        match self.config.layout {
            // A lease may move a generator to another id.
            Layout::Scalable { .. } => Layout::Scalable {
                scalability_id: gate::scalability_id(self.gate.load(Ordering::Relaxed)) as u8,
            },
            Layout::StandAlone => Layout::StandAlone,
        }
    }

    /// The entropy size, in bytes, that bounds the increments within a millisecond.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::generator::Generator::new().entropy_bytes(), 1);
    /// ```
    pub fn entropy_bytes(&self) -> u8 {
        self.config.entropy_bytes
    }

    /// The time source.
    ///
    /// ```
    /// use ulid_flake_core::generator::{Clock, Generator};
    /// assert!(Generator::new().clock().unix_ms() > 0);
    /// ```
    pub fn clock(&self) -> &C {
        &self.clock
    }

    /// The randomness source.
    ///
    /// ```
    /// use ulid_flake_core::generator::{Generator, RandomSource};
    /// let _draw: u32 = Generator::new().random_source().next_u32();
    /// ```
    pub fn random_source(&self) -> &R {
        &self.random
    }

    /// How many top bits of the randomness field a millisecond's first ID leaves at 0 (see
    /// [`GeneratorBuilder::headroom_bits`](super::GeneratorBuilder::headroom_bits)); 0 unless set.
    ///
    /// ```
    /// use ulid_flake_core::generator::Generator;
    /// assert_eq!(Generator::new().headroom_bits(), 0);
    /// ```
    pub fn headroom_bits(&self) -> u8 {
        self.config.headroom_bits
    }

    /// How many IDs every millisecond holds at the least, whatever the random draws:
    /// `1 + ⌊(field maximum − largest first draw) / largest increment⌋`. 1 without headroom
    /// (a first draw at the top of the field leaves no room); see
    /// [`GeneratorBuilder::headroom_bits`](super::GeneratorBuilder::headroom_bits).
    ///
    /// ```
    /// use ulid_flake_core::generator::{Generator, Layout};
    ///
    /// assert_eq!(Generator::new().guaranteed_ids_per_ms(), 1);
    /// let scalable = Generator::builder()
    ///     .layout(Layout::Scalable { scalability_id: 0 })
    ///     .headroom_bits(2)
    ///     .build()?;
    /// // (2^15 − 2^13) / 255 = 96.4: 1 + 96.
    /// assert_eq!(scalable.guaranteed_ids_per_ms(), 97);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn guaranteed_ids_per_ms(&self) -> u32 {
        let config = &self.config;
        1 + (config.randomness_max - config.fresh_mask) / config.increment_mask
    }

    /// How far back the clock may move before generation fails, in milliseconds.
    ///
    /// ```
    /// use ulid_flake_core::generator::Generator;
    /// assert_eq!(Generator::new().rollback_allowance_ms(), 1_000);
    /// ```
    pub fn rollback_allowance_ms(&self) -> u64 {
        self.config.rollback_allowance_ms
    }
}
