//! Making new IDs: the [`Generator`], its configuration, and its time and randomness
//! sources.
//!
//! A generator keeps the last ID it made in one atomic word and makes the next one with a
//! compare-and-swap, so it is shared by reference across threads without a lock. Each call
//! follows the specification's steps:
//!
//! 1. Read the clock; a moment before the epoch or past its last millisecond is an
//!    [`Error::TimestampOutOfRange`].
//! 2. In a new millisecond, draw fresh randomness over the whole field.
//! 3. In the same millisecond, add a random increment in `1..=2^(8n)-1` (`n` the entropy
//!    size in bytes; a draw of 0 is drawn again). Past the field's maximum, return
//!    [`Error::Overflow`] and keep the state: a retry in the same millisecond may still fit.
//! 4. When the clock has moved back by no more than the rollback allowance, carry on in the
//!    last millisecond as in step 3; further back, return [`Error::ClockMovedBackwards`].
//!    IDs never go back in time, and an older timestamp is never re-randomised.
//!
//! A call draws its random value (fresh randomness or increment, whichever step 2 or 3
//! takes) before it loads the last ID, so that between the load and the compare-and-swap
//! there is only arithmetic, and a second thread rarely lands in that window (BENCHMARKS.md
//! measures two threads on one generator).
//! A call that then fails leaves its draw unused.
//!
//! The plain [`Generator::generate`] returns every error. [`Generator::generate_blocking`]
//! (and `Generator::generate_async`, with the `tokio` feature) wait for the next
//! millisecond on an overflow, which is a normal event in bulk work: with the default
//! 1-byte entropy a millisecond holds about 4,096 IDs on average in the stand-alone layout,
//! about 128 in the scalable one.
//!
//! # Bulk work: batches, headroom and a fast clock
//!
//! - **Batches.** [`Generator::generate_batch`] fills a prefix of a slice with IDs reserved
//!   together — one clock reading and one compare-and-swap for the whole batch, the
//!   increments drawn with one [`RandomSource::fill_bytes`] — and returns how many fit in
//!   the millisecond; [`Generator::generate_batch_blocking`] (and
//!   `Generator::generate_batch_async`) fill the whole slice, waiting for the next
//!   millisecond when one is exhausted. Same guarantees as single calls: the same checks
//!   (fork, lease deadline, rollback), strictly increasing IDs, and no other thread's ID
//!   within a millisecond's part of a batch. For `UNNEST`, `COPY` or a multi-row `INSERT`.
//! - **Headroom** ([`GeneratorBuilder::headroom_bits`], opt-in). The first ID of a
//!   millisecond starts anywhere in the field, so a millisecond that starts near the top
//!   holds only a few IDs and a bulk writer waits for the next one. With a headroom of `h`
//!   bits the first randomness comes from the lower `2^(F-h)` values of the field only, and
//!   every millisecond holds at least [`Generator::guaranteed_ids_per_ms`] IDs (2,057
//!   stand-alone with `h` = 1) — at the cost of `h` bits of unpredictability in each
//!   millisecond's first ID.
//! - **A fast clock** ([`TickerClock`], opt-in). A thread publishes the millisecond at each
//!   boundary, so a reading is one load instead of a system-clock read; it lags the system
//!   clock by the thread's wake-up latency (tens of µs on an idle machine, a scheduling
//!   delay on a busy one), and its type's docs say what happens on a clock step, a suspend
//!   and a fork. The default stays [`SystemClock`], read on every call.
//!
//! ```
//! use ulid_flake_core::{UlidFlake, generator::{Generator, TickerClock}};
//!
//! let generator = Generator::builder()
//!     .headroom_bits(1)
//!     .clock(TickerClock::start()?)
//!     .build()?;
//! let mut rows = vec![UlidFlake::MIN; 5_000];
//! generator.generate_batch_blocking(&mut rows)?;
//! assert!(rows.windows(2).all(|pair| pair[0] < pair[1]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ```
//! use ulid_flake_core::generator::{Generator, Layout};
//!
//! // One generator per replica, each with its own scalability id.
//! let generator = Generator::builder()
//!     .layout(Layout::Scalable { scalability_id: 4 })
//!     .build()?;
//! let id = generator.generate_blocking()?;
//! assert_eq!(id.scalability_id(), 4);
//! # Ok::<(), ulid_flake_core::Error>(())
//! ```

mod builder;
mod clock;
mod default;
mod fork;
mod gate;
mod random;
mod statefulset;
mod ticker;

#[cfg(not(ulid_flake_loom))]
use core::sync::atomic::{AtomicU64, Ordering};

// Under `--cfg ulid_flake_loom`, the model checker's atomics, so that it explores every interleaving of
// the compare-and-swap loop (ulid-flake-core/tests/core/loom.rs).
#[cfg(ulid_flake_loom)]
use loom::sync::atomic::{AtomicU64, Ordering};

use builder::Config;
pub use builder::{DEFAULT_ROLLBACK_ALLOWANCE, GeneratorBuilder, Layout};
pub use clock::{Clock, SystemClock};
pub(crate) use default::set_default_generator_ref;
pub use default::{
    SCALABILITY_ID_VARIABLE, default_generator, init_from_env, set_default_generator,
};
pub(crate) use fork::count as fork_count;
pub use random::{RandomSource, ThreadRandom};
pub use statefulset::{
    HOSTNAME_VARIABLE, scalability_id_from_hostname, scalability_id_from_statefulset,
};
pub use ticker::TickerClock;

use crate::{Epoch, Error, RANDOMNESS_BITS, UlidFlake};

/// How long [`Generator::new_id`] (and so [`UlidFlake::new`]) waits for an invalid lease to
/// be valid again before it panics: twice the default lease validity, time for a lease lost
/// to a short outage to be re-acquired.
///
/// ```
/// assert_eq!(ulid_flake_core::generator::NEW_ID_LEASE_WAIT.as_secs(), 30);
/// ```
pub const NEW_ID_LEASE_WAIT: core::time::Duration = core::time::Duration::from_secs(30);

/// The state word before the first ID: above every valid ID.
const NO_ID_YET: u64 = u64::MAX;

/// A thread-safe, lock-free Ulid-Flake generator.
///
/// Build one with [`Generator::builder`], or use the process-wide one through
/// [`UlidFlake::generate`]. `C` and `R` are the time and randomness sources: the system clock
/// and a per-thread CSPRNG unless replaced (tests script them).
///
/// ```
/// use ulid_flake_core::generator::Generator;
///
/// let generator = Generator::new();
/// let first = generator.generate_blocking()?;
/// let second = generator.generate_blocking()?;
/// assert!(first < second);
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
#[derive(Debug)]
pub struct Generator<C = SystemClock, R = ThreadRandom> {
    /// The last ID made, or [`NO_ID_YET`]: the one word every call writes, alone on its cache
    /// line, so that the words every call only reads (gate, fork count, configuration) stay
    /// shared in every core's cache instead of moving with each write.
    last: OwnCacheLine<AtomicU64>,
    /// Until when, and with which scalability id, IDs may be issued (see `gate.rs`).
    gate: AtomicU64,
    /// The process's fork count when `last` was last known to be this process's own.
    forks_seen: AtomicU64,
    config: Config,
    clock: C,
    random: R,
}

/// A value aligned to, and so alone on, its own 128 bytes: two 64-byte cache lines, because
/// x86 cores prefetch lines in adjacent pairs.
#[derive(Debug)]
#[repr(align(128))]
struct OwnCacheLine<T>(T);

impl<T> core::ops::Deref for OwnCacheLine<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl Generator {
    /// A stand-alone generator with the default epoch, 1 byte of entropy, the default
    /// rollback allowance, the system clock and [`ThreadRandom`].
    ///
    /// ```
    /// let id = ulid_flake_core::generator::Generator::new().generate_blocking()?;
    /// assert_eq!(id.to_string().len(), 13);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::builder()
            .build()
            .expect("the default configuration is valid")
    }

    /// A builder, starting from the defaults of [`Generator::new`].
    ///
    /// ```
    /// use ulid_flake_core::generator::{Generator, Layout};
    ///
    /// let generator = Generator::builder()
    ///     .layout(Layout::Scalable { scalability_id: 3 })
    ///     .build()?;
    /// assert_eq!(generator.generate_blocking()?.scalability_id(), 3);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn builder() -> GeneratorBuilder {
        GeneratorBuilder::new()
    }
}

impl Default for Generator {
    /// [`Generator::new`].
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Clock, R: RandomSource> Generator<C, R> {
    /// Makes the next ID, or returns the error of the step that failed (see the
    /// [module docs](self)); a failed call leaves the state unchanged.
    ///
    /// # Errors
    ///
    /// [`Error::Overflow`] when this millisecond is exhausted (wait for the next one, or call
    /// [`Generator::generate_blocking`]); [`Error::ClockMovedBackwards`] beyond the rollback
    /// allowance; [`Error::TimestampOutOfRange`] when the clock is before the epoch or past
    /// its last millisecond.
    ///
    /// ```
    /// use ulid_flake_core::{Error, generator::Generator};
    ///
    /// let generator = Generator::new();
    /// match generator.generate() {
    ///     Ok(id) => println!("{id}"),
    ///     Err(Error::Overflow { .. }) => { /* try again in the next millisecond */ }
    ///     Err(other) => panic!("{other}"),
    /// }
    /// ```
    pub fn generate(&self) -> Result<UlidFlake, Error> {
        self.generate_reading(|| self.now())
    }

    /// [`Generator::generate`] with `read` as the clock's reading (ms since the epoch).
    #[inline(always)]
    fn generate_reading(&self, read: impl Fn() -> Result<u64, Error>) -> Result<UlidFlake, Error> {
        self.reserve(read, |last, now, gate, draw| {
            let next = self.next_after(last, now, gate, draw)?;
            Ok((next, UlidFlake::from_raw(next)))
        })
    }

    /// The protocol of every call, single or batch: the fork check, the lease gate, one clock
    /// reading, one random draw and one compare-and-swap of the state word. `plan` works out, from the last ID,
    /// the reading and the gate word, the new last ID and the call's result; it runs again
    /// when another thread went first.
    #[inline(always)]
    fn reserve<T>(
        &self,
        read: impl Fn() -> Result<u64, Error>,
        mut plan: impl FnMut(u64, u64, u64, u32) -> Result<(u64, T), Error>,
    ) -> Result<T, Error> {
        let forks = fork::count();
        if forks != self.forks_seen.load(Ordering::Acquire) {
            self.leave_inherited_millisecond(forks);
        }
        // The lease check: one load, before the clock is read, so that the reading is taken
        // after the gate's lease began (a reading from before it could fall in the previous
        // holder's milliseconds); then compared with the millisecond read.
        let gate = self.gate.load(Ordering::Acquire);
        // The clock, then the state: the window between loading the state and the
        // compare-and-swap holds no clock read, so two threads on one generator rarely
        // collide.
        let mut now = read()?;
        if now >= gate::deadline(gate) {
            return Err(self.lease_not_valid(gate));
        }
        // The random draw, before the state is loaded: the window between the load and the
        // compare-and-swap is then arithmetic only, and another thread rarely lands in it.
        // One draw serves every turn: it was not used for an ID until the swap succeeds.
        let draw = self.random.next_u32();
        let mut last = self.last.load(Ordering::Acquire);
        let mut clock_read_again = false;
        loop {
            let (next, result) = match plan(last, now, gate, draw) {
                Ok(planned) => planned,
                // Another thread may have read the clock after us and stored a later
                // timestamp before our load: that is no rollback. A reading taken now, after
                // seeing its ID, is at least as late as its own (it read before storing), so
                // only a rollback that survives a second reading is real.
                Err(Error::ClockMovedBackwards { .. }) if !clock_read_again => {
                    clock_read_again = true;
                    now = read()?;
                    if now >= gate::deadline(gate) {
                        return Err(self.lease_not_valid(gate));
                    }
                    continue;
                }
                Err(error) => {
                    #[cfg(feature = "tracing")]
                    if let Error::ClockMovedBackwards {
                        by_ms,
                        allowance_ms,
                    } = error
                    {
                        crate::event!(
                            "ulid_flake::generator",
                            warn,
                            by_ms,
                            allowance_ms,
                            "clock moved back beyond the rollback allowance: no ID until it catches up"
                        );
                    }
                    return Err(error);
                }
            };
            // Weak: a spurious failure costs one more turn, which this loop takes anyway.
            match self
                .last
                .compare_exchange_weak(last, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Ok(result),
                // Another thread went first: build on its ID. Our reading is still good; if
                // its timestamp is later, the next turn continues in its millisecond.
                Err(actual) => last = actual,
            }
        }
    }

    /// Fills a prefix of `out` with the next IDs, all in one millisecond, reserved together:
    /// one clock reading and one compare-and-swap for the whole batch, the same checks as
    /// [`Generator::generate`] (fork, lease deadline, rollback) and the same IDs as that many
    /// calls of it would make — a fresh draw in a new millisecond, then a random increment per
    /// ID, drawn in bulk. Returns how many it filled: all of `out`, or fewer when the
    /// millisecond is exhausted first. IDs made by other threads fall before or after the
    /// batch, never within it.
    ///
    /// Only that many entries are IDs. The rest of `out` is as it was, or
    /// [`UlidFlake::MIN`] where an attempt that lost a race with another thread had written
    /// IDs it then did not issue (the same holds after an error).
    ///
    /// An empty `out` returns 0 at once, without reading the clock.
    ///
    /// # Errors
    ///
    /// As [`Generator::generate`], when not even the first ID fits; a failed call leaves
    /// the state unchanged.
    ///
    /// ```
    /// use ulid_flake_core::{UlidFlake, generator::Generator};
    ///
    /// let generator = Generator::new();
    /// let mut ids = [UlidFlake::MIN; 100];
    /// let filled = loop {
    ///     match generator.generate_batch(&mut ids) {
    ///         Ok(filled) => break filled,
    ///         Err(ulid_flake_core::Error::Overflow { .. }) => continue, // the next millisecond
    ///         Err(other) => panic!("{other}"),
    ///     }
    /// };
    /// assert!(filled >= 1);
    /// assert!(ids[..filled].windows(2).all(|pair| pair[0] < pair[1]));
    /// ```
    pub fn generate_batch(&self, out: &mut [UlidFlake]) -> Result<usize, Error> {
        if out.is_empty() {
            return Ok(0);
        }
        // The IDs are written before the compare-and-swap; an attempt that loses it is
        // planned again from the winner's ID, and may fill fewer entries than it wrote.
        let mut written = 0;
        let result = self.reserve(
            || self.now(),
            |last, now, gate, draw| {
                let first = self.next_after(last, now, gate, draw)?;
                let (last, filled) = match self.config.entropy_bytes {
                    1 => self.fill_run::<1>(first, out),
                    2 => self.fill_run::<2>(first, out),
                    _ => self.fill_run::<3>(first, out),
                };
                written = written.max(filled);
                Ok((last, filled))
            },
        );
        // Never leave an ID that was not issued where a caller could take it for one: it may
        // equal an ID the winner issued.
        let issued = *result.as_ref().unwrap_or(&0);
        if written > issued {
            out[issued..written].fill(UlidFlake::MIN);
        }
        result
    }

    /// Writes `first` and the IDs that follow it in its millisecond into `out`, up to its
    /// end or the field's maximum; returns the last ID written and how many. `N` is the
    /// entropy size in bytes: each increment is `N` random bytes (little-endian), a zero
    /// skipped, drawn a buffer at a time.
    #[inline(always)]
    fn fill_run<const N: usize>(&self, first: u64, out: &mut [UlidFlake]) -> (u64, usize) {
        let max_increment = (1_u64 << (8 * N)) - 1;
        let shift = self.config.randomness_shift;
        // A multiplication: one micro-op, where an x86 shift by a variable count takes three.
        let unit = 1_u64 << shift;
        out[0] = UlidFlake::from_raw(first);
        let mut last = first;
        let mut room = u64::from(self.config.randomness_max - self.config.randomness_of(first));
        let mut filled = 1;
        let mut bytes = [0_u8; BUFFER];
        while filled < out.len() {
            let wanted = (out.len() - filled).min(BUFFER / N);
            // While `room` holds every increment of a draw at its largest, no increment
            // needs checking against it: the loop is a prefix sum with no branch but the
            // zero skip, which is made a conditional step of the output index instead.
            let safe = usize::try_from(room / max_increment).unwrap_or(usize::MAX);
            if safe == 0 {
                let (end, more) = self.fill_checked::<N>(last, room, &mut out[filled..]);
                return (end, filled + more);
            }
            let drawn = &mut bytes[..wanted.min(safe) * N];
            self.random.fill_bytes(drawn);
            let slots = &mut out[filled..];
            let start = last;
            let mut issued = 0;
            for increment in drawn.chunks_exact(N) {
                let increment = increment_le(increment);
                // No carry into the timestamp: `room` bounds the sum.
                last += increment * unit;
                // A zero writes the entry after the last ID, then stays on it. A draw that
                // ends on one took less than it could have, so the next draw is not the
                // checked tail, and its first ID goes over that entry.
                slots[issued] = UlidFlake::from_raw(last);
                issued += usize::from(increment != 0);
            }
            filled += issued;
            room -= (last - start) >> shift;
        }
        (last, filled)
    }

    /// The end of a millisecond, where an increment may not fit in `room`: each is checked,
    /// and the first that does not fit ends the run. Returns the last ID and how many it
    /// wrote into `out`.
    #[cold]
    fn fill_checked<const N: usize>(
        &self,
        mut last: u64,
        mut room: u64,
        out: &mut [UlidFlake],
    ) -> (u64, usize) {
        let unit = 1_u64 << self.config.randomness_shift;
        let mut filled = 0;
        let mut bytes = [0_u8; BUFFER];
        'draws: while filled < out.len() {
            let drawn = &mut bytes[..((out.len() - filled) * N).min(BUFFER)];
            self.random.fill_bytes(drawn);
            for increment in drawn.chunks_exact(N) {
                let increment = increment_le(increment);
                if increment == 0 {
                    continue;
                }
                if increment > room {
                    break 'draws;
                }
                room -= increment;
                last += increment * unit;
                out[filled] = UlidFlake::from_raw(last);
                filled += 1;
            }
        }
        (last, filled)
    }

    /// The clock's reading in milliseconds since the epoch.
    #[inline]
    fn now(&self) -> Result<u64, Error> {
        self.config.epoch.ms_since_epoch_at(self.clock.unix_ms())
    }

    /// The error of a closed gate: when it had a deadline, the lease ran out then.
    #[cold]
    fn lease_not_valid(&self, gate: u64) -> Error {
        let deadline = gate::deadline(gate);
        Error::LeaseNotValid {
            scalability_id: gate::scalability_id(gate) as u8,
            // At most 2^48 + 2^43: the sum and the cast are lossless.
            valid_until_unix_ms: (deadline != 0)
                .then(|| (self.config.epoch.unix_ms() + deadline) as i64),
        }
    }

    /// In a forked child: the parent goes on from the same state, so continuing its
    /// millisecond with increments from the same base would repeat its IDs (1 in 255 per
    /// pair with 1-byte entropy). The child gives up that millisecond instead — as if it were
    /// exhausted — and starts afresh in the next, where it is as independent of its parent as
    /// any second generator. A leased generator's gate closes for good in the child: the
    /// lease, its connection and its renewals belong to the parent.
    #[cold]
    fn leave_inherited_millisecond(&self, forks: u64) {
        // Both steps first, then the count: a thread that sees the new count (Acquire) sees
        // the gate closed and the millisecond left. Threads racing here repeat idempotent
        // steps.
        if gate::deadline(self.gate.load(Ordering::Acquire)) != gate::UNLEASED {
            self.close_gate();
        }
        self.leave_current_millisecond();
        self.forks_seen.store(forks, Ordering::Release);
    }

    /// Marks the last millisecond exhausted, so the next ID takes a fresh clock reading.
    #[cold]
    pub(crate) fn leave_current_millisecond(&self) {
        let config = &self.config;
        // An error here only means there is no ID yet, and so nothing to leave.
        let _ = self
            .last
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |last| {
                (last != NO_ID_YET).then(|| {
                    let low_bits = last & u64::from(crate::SCALABILITY_ID_MAX);
                    config.compose(last >> RANDOMNESS_BITS, config.randomness_max, low_bits)
                })
            });
    }

    /// Lets a leased generator issue IDs with `scalability_id` in the milliseconds before
    /// `deadline` (ms since the epoch, exclusive).
    pub(crate) fn open_gate(&self, scalability_id: u8, deadline: u64) {
        let word = gate::word(deadline.min(gate::UNLEASED - 1), scalability_id.into());
        self.gate.store(word, Ordering::Release);
    }

    /// Stops a leased generator from issuing IDs until the gate opens again.
    pub(crate) fn close_gate(&self) {
        let _ = self
            .gate
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |word| {
                Some(gate::word(0, gate::scalability_id(word)))
            });
    }

    /// The gate's deadline (ms since the epoch, exclusive) and scalability id.
    pub(crate) fn gate(&self) -> (u64, u8) {
        let word = self.gate.load(Ordering::Acquire);
        (gate::deadline(word), gate::scalability_id(word) as u8)
    }

    /// The millisecond of the last ID made, if any.
    pub(crate) fn last_ms(&self) -> Option<u64> {
        let last = self.last.load(Ordering::Acquire);
        (last != NO_ID_YET).then_some(last >> RANDOMNESS_BITS)
    }

    /// The clock's reading, in milliseconds since the epoch.
    pub(crate) fn timestamp_now(&self) -> Result<u64, Error> {
        self.now()
    }

    /// The ID that follows `last` when the clock reads `now` (ms since the epoch).
    #[inline]
    fn next_after(&self, last: u64, now: u64, gate: u64, draw: u32) -> Result<u64, Error> {
        let config = &self.config;
        let low_bits = gate::scalability_id(gate);
        let last_ms = last >> RANDOMNESS_BITS;
        if last == NO_ID_YET || now > last_ms {
            let fresh = draw & config.fresh_mask;
            return Ok(config.compose(now, fresh, low_bits));
        }
        let behind = last_ms - now;
        if behind > config.rollback_allowance_ms {
            return Err(Error::ClockMovedBackwards {
                by_ms: behind,
                allowance_ms: config.rollback_allowance_ms,
            });
        }
        #[cfg(feature = "tracing")]
        if behind > 0 {
            crate::event!(
                "ulid_flake::generator",
                debug,
                behind_ms = behind,
                "clock moved back within the rollback allowance: continuing in the last millisecond"
            );
        }
        // Same millisecond, or a rollback within the allowance: continue in `last_ms` — only
        // under the id it was stamped with, and before the gate's deadline (a rollback makes
        // it later than `now`, which alone was checked).
        if last_ms >= gate::deadline(gate) {
            return Err(self.lease_not_valid(gate));
        }
        if config.randomness_shift != 0 && last & u64::from(crate::SCALABILITY_ID_MAX) != low_bits {
            return Err(Error::Overflow {
                timestamp_ms: last_ms,
            });
        }
        let increment = match draw & config.increment_mask {
            0 => self.increment(),
            increment => increment,
        };
        let randomness = config.randomness_of(last) + increment;
        if randomness > config.randomness_max {
            return Err(Error::Overflow {
                timestamp_ms: last_ms,
            });
        }
        Ok(config.compose(last_ms, randomness, low_bits))
    }

    /// A draw uniform over `1..=2^(8n)-1`: masked draws, with 0 drawn again.
    #[inline]
    fn increment(&self) -> u32 {
        loop {
            let increment = self.random.next_u32() & self.config.increment_mask;
            if increment != 0 {
                return increment;
            }
        }
    }

    /// Makes the next ID as [`Generator::generate`] does, but when the millisecond is
    /// exhausted, blocks the thread until the next one begins and tries again — precisely:
    /// it sleeps until shortly before the boundary and yields for the rest (see
    /// [`Clock::wait_until`]).
    ///
    /// # Errors
    ///
    /// [`Error::ClockMovedBackwards`] and [`Error::TimestampOutOfRange`], as
    /// [`Generator::generate`]; never [`Error::Overflow`].
    ///
    /// ```
    /// use ulid_flake_core::generator::Generator;
    ///
    /// let generator = Generator::new();
    /// let ids: Vec<_> = (0..10_000).map(|_| generator.generate_blocking()).collect::<Result<_, _>>()?;
    /// assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn generate_blocking(&self) -> Result<UlidFlake, Error> {
        self.waiting(|| self.generate())
    }

    /// Fills all of `out` with the next IDs, as [`Generator::generate_batch`] does, and when
    /// the millisecond is exhausted before `out` is full, waits for the next one as
    /// [`Generator::generate_blocking`] does and goes on there: one clock reading and one
    /// compare-and-swap per millisecond the batch spans. The IDs strictly increase along
    /// `out`; another thread's IDs may fall between the parts made in different milliseconds.
    ///
    /// # Errors
    ///
    /// As [`Generator::generate_blocking`]. The entries filled before an error are issued
    /// IDs (the generator will not make them again), in a prefix of `out`; the rest is as
    /// [`Generator::generate_batch`] leaves it: as it was, or [`UlidFlake::MIN`].
    ///
    /// ```
    /// use ulid_flake_core::{UlidFlake, generator::Generator};
    ///
    /// let generator = Generator::new();
    /// // More than a millisecond holds: the call waits for the next ones.
    /// let mut ids = vec![UlidFlake::MIN; 10_000];
    /// generator.generate_batch_blocking(&mut ids)?;
    /// assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn generate_batch_blocking(&self, out: &mut [UlidFlake]) -> Result<(), Error> {
        let mut filled = 0;
        while filled < out.len() {
            filled += self.waiting(|| self.generate_batch(&mut out[filled..]))?;
        }
        Ok(())
    }

    /// Runs `attempt` until it meets no [`Error::Overflow`], waiting for the next
    /// millisecond after each (see [`Clock::wait_until`]).
    fn waiting<T>(&self, mut attempt: impl FnMut() -> Result<T, Error>) -> Result<T, Error> {
        loop {
            match attempt() {
                Err(Error::Overflow { timestamp_ms }) => {
                    crate::event!(
                        "ulid_flake::generator",
                        trace,
                        timestamp_ms,
                        "millisecond exhausted: waiting for the next"
                    );
                    self.clock.wait_until(self.unix_ms_after(timestamp_ms));
                }
                result => return result,
            }
        }
    }

    /// Makes the next ID as [`Generator::generate`] does, but when the millisecond is
    /// exhausted, waits on the tokio timer (see [`Clock::wait_until_async`]) and tries again.
    ///
    /// # Errors
    ///
    /// As [`Generator::generate_blocking`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ulid_flake_core::Error> {
    /// let generator = ulid_flake_core::generator::Generator::new();
    /// let id = generator.generate_async().await?;
    /// # assert!(id.ms_since_epoch() > 0);
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "tokio")]
    pub async fn generate_async(&self) -> Result<UlidFlake, Error> {
        self.waiting_async(|| self.generate()).await
    }

    /// Fills all of `out` as [`Generator::generate_batch_blocking`] does, but waits for the
    /// next millisecond on the tokio timer, as [`Generator::generate_async`] does.
    ///
    /// # Errors
    ///
    /// As [`Generator::generate_batch_blocking`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ulid_flake_core::Error> {
    /// use ulid_flake_core::UlidFlake;
    ///
    /// let generator = ulid_flake_core::generator::Generator::new();
    /// let mut ids = [UlidFlake::MIN; 1_000];
    /// generator.generate_batch_async(&mut ids).await?;
    /// assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "tokio")]
    pub async fn generate_batch_async(&self, out: &mut [UlidFlake]) -> Result<(), Error> {
        let mut filled = 0;
        while filled < out.len() {
            filled += self
                .waiting_async(|| self.generate_batch(&mut out[filled..]))
                .await?;
        }
        Ok(())
    }

    /// [`Generator::waiting`] on the tokio timer (see [`Clock::wait_until_async`]).
    #[cfg(feature = "tokio")]
    async fn waiting_async<T>(
        &self,
        mut attempt: impl FnMut() -> Result<T, Error>,
    ) -> Result<T, Error> {
        loop {
            match attempt() {
                Err(Error::Overflow { timestamp_ms }) => {
                    crate::event!(
                        "ulid_flake::generator",
                        trace,
                        timestamp_ms,
                        "millisecond exhausted: waiting for the next"
                    );
                    let next = self.unix_ms_after(timestamp_ms);
                    self.clock.wait_until_async(next).await;
                }
                result => return result,
            }
        }
    }

    /// Makes the next ID and never returns an error — the generator behind
    /// [`UlidFlake::new`] and [`Id::new`](crate::Id::new), for code that has no good answer to
    /// a failed clock. Each failure has a policy that keeps IDs unique and increasing:
    ///
    /// - **The millisecond is exhausted** ([`Error::Overflow`]): it waits for the next one, as
    ///   [`Generator::generate_blocking`] does (well under a millisecond).
    /// - **The clock moved back beyond the rollback allowance**
    ///   ([`Error::ClockMovedBackwards`]), or reads a moment before the epoch: it carries on
    ///   from the last ID's millisecond, and when that is exhausted, moves to the next one
    ///   without waiting for the clock, so IDs may run ahead of a clock that stays behind;
    ///   they never go back.
    /// - **A lease is not valid** ([`Error::LeaseNotValid`], a leased generator): it waits for
    ///   the lease, checking every millisecond, for up to [`NEW_ID_LEASE_WAIT`]; past that it
    ///   panics with the lease's error rather than issue an ID another replica may issue too.
    ///
    /// # Panics
    ///
    /// When a lease stays invalid for [`NEW_ID_LEASE_WAIT`], and when the last millisecond
    /// the format can hold is exhausted (in the year 2302 with the default epoch). The
    /// process-wide [`UlidFlake::new`] also panics when the environment misconfigures the
    /// default generator; call [`init_from_env`] at start-up to meet that as an error.
    ///
    /// ```
    /// let generator = ulid_flake_core::generator::Generator::new();
    /// let (a, b) = (generator.new_id(), generator.new_id());
    /// assert!(a < b);
    /// ```
    pub fn new_id(&self) -> UlidFlake {
        // The millisecond IDs may not go below: the last one's, after a rollback.
        let mut floor = 0;
        let mut lease_waited_ms = 0;
        loop {
            let read = || match self.now() {
                Ok(now) => Ok(now.max(floor)),
                // Before the epoch: a broken clock, handled as a rollback.
                Err(Error::TimestampOutOfRange { found_ms }) if found_ms < 0 => Ok(floor),
                Err(error) => Err(error),
            };
            let error = match self.generate_reading(read) {
                Ok(id) => return id,
                Err(error) => error,
            };
            match error {
                Error::Overflow { timestamp_ms } if timestamp_ms >= crate::MAX_TIMESTAMP => {}
                Error::Overflow { timestamp_ms }
                    if self.now().is_ok_and(|now| now >= timestamp_ms) =>
                {
                    self.clock.wait_until(self.unix_ms_after(timestamp_ms));
                    continue;
                }
                // The clock is behind the exhausted millisecond: take the next one now.
                Error::Overflow { timestamp_ms } => {
                    floor = timestamp_ms + 1;
                    continue;
                }
                Error::ClockMovedBackwards { .. } => {
                    floor = self.last.load(Ordering::Acquire) >> RANDOMNESS_BITS;
                    continue;
                }
                Error::LeaseNotValid { .. } if lease_waited_ms < NEW_ID_LEASE_WAIT.as_millis() => {
                    lease_waited_ms += 1;
                    self.clock.wait_until(self.clock.unix_ms() + 1);
                    continue;
                }
                _ => {}
            }
            panic!("ulid-flake: no ID can be issued: {error}");
        }
    }

    /// The Unix millisecond that follows the timestamp `timestamp_ms`.
    fn unix_ms_after(&self, timestamp_ms: u64) -> i64 {
        // At most Epoch::MAX + 2^43 = 2^48: no overflow.
        (self.config.epoch.unix_ms() + timestamp_ms + 1) as i64
    }

    /// An ID for a moment given in whole Unix seconds (the references' `from_unix_epoch_time`):
    /// the timestamp is the moment minus the epoch, the randomness a fresh draw over the
    /// whole field, and, in the scalable layout, the scalability id this generator's. The
    /// generator's state is neither read nor changed, so such IDs carry no ordering promise
    /// among themselves within a millisecond.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] for a moment before the epoch or past its last
    /// millisecond (checked arithmetic: no overflow for any input).
    ///
    /// ```
    /// use ulid_flake_core::generator::Generator;
    ///
    /// let generator = Generator::new();
    /// let id = generator.from_unix_epoch_time(1_704_067_201)?; // 2024-01-01T00:00:01Z
    /// assert_eq!(id.ms_since_epoch(), 1_000);
    /// assert!(generator.from_unix_epoch_time(1_700_000_000).is_err()); // before the epoch
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_unix_epoch_time(&self, unix_seconds: u64) -> Result<UlidFlake, Error> {
        let unix_ms = i64::try_from(unix_seconds)
            .ok()
            .and_then(|seconds| seconds.checked_mul(1000))
            .ok_or(Error::TimestampOutOfRange {
                found_ms: i128::from(unix_seconds) * 1000 - i128::from(self.config.epoch.unix_ms()),
            })?;
        self.from_unix_ms(unix_ms)
    }

    /// An ID for a moment given in Unix milliseconds, as
    /// [`Generator::from_unix_epoch_time`] does for seconds.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`], as [`Generator::from_unix_epoch_time`].
    ///
    /// ```
    /// let generator = ulid_flake_core::generator::Generator::new();
    /// assert_eq!(generator.from_unix_ms(1_704_067_200_007)?.ms_since_epoch(), 7);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_unix_ms(&self, unix_ms: i64) -> Result<UlidFlake, Error> {
        let timestamp = self.config.epoch.ms_since_epoch_at(unix_ms)?;
        let fresh = self.random.next_u32() & self.config.randomness_max;
        let low_bits = gate::scalability_id(self.gate.load(Ordering::Relaxed));
        Ok(UlidFlake::from_raw(
            self.config.compose(timestamp, fresh, low_bits),
        ))
    }

    /// An ID for a moment given as a [`SystemTime`](std::time::SystemTime), truncated to the
    /// millisecond, as [`Generator::from_unix_epoch_time`] does for seconds.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`], as [`Generator::from_unix_epoch_time`].
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    ///
    /// let generator = ulid_flake_core::generator::Generator::new();
    /// let moment = UNIX_EPOCH + Duration::from_millis(1_704_067_200_009);
    /// assert_eq!(generator.from_system_time(moment)?.ms_since_epoch(), 9);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_system_time(&self, moment: std::time::SystemTime) -> Result<UlidFlake, Error> {
        let unix_ms = match moment.duration_since(std::time::UNIX_EPOCH) {
            Ok(since) => i64::try_from(since.as_millis()).unwrap_or(i64::MAX),
            Err(before) => i64::try_from(before.duration().as_millis())
                .map_or(i64::MIN, |before_ms| -before_ms),
        };
        self.from_unix_ms(unix_ms)
    }

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
    /// [`GeneratorBuilder::headroom_bits`]); 0 unless set.
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
    /// [`GeneratorBuilder::headroom_bits`].
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

/// The bytes of one bulk draw of increments: a multiple of 1, 2 and 3.
const BUFFER: usize = 768;

/// An increment's value from its little-endian random bytes (1 to 3 of them).
#[inline(always)]
fn increment_le(bytes: &[u8]) -> u64 {
    let mut word = [0_u8; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(word)
}
