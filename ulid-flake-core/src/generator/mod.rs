//! Making new IDs: the [`Generator`], its configuration, and its time and randomness
//! sources.
//!
//! A generator keeps the last ID it made in one atomic word and makes the next one with a
//! compare-and-swap, so it is shared by reference across threads without a lock. Each call
//! follows the specification's steps:
//!
//! 1. Read the clock; a moment before the epoch or past its last millisecond is an
//!    [`Error::TimestampOutOfRange`](crate::Error::TimestampOutOfRange).
//! 2. In a new millisecond, draw fresh randomness over the whole field.
//! 3. In the same millisecond, add a random increment in `1..=2^(8n)-1` (`n` the entropy
//!    size in bytes; a draw of 0 is drawn again). Past the field's maximum, return
//!    [`Error::Overflow`](crate::Error::Overflow) and keep the state: a retry in the same millisecond may still fit.
//! 4. When the clock has moved back by no more than the rollback allowance, carry on in the
//!    last millisecond as in step 3; further back, return [`Error::ClockMovedBackwards`](crate::Error::ClockMovedBackwards).
//!    IDs never go back in time, and an older timestamp is never re-randomised.
//!
//! A call takes its random draw first, before the clock (an increment, which also decides a
//! new millisecond's fresh randomness, see [`RandomSource::fresh_draw`]), and takes the last
//! ID last, so that between it and the compare-and-swap there is only arithmetic, and a
//! second thread rarely lands in that window (BENCHMARKS.md measures two threads on one
//! generator). A call that then fails — on the clock, the lease gate or the field's
//! maximum — leaves its draw unused. A single call starts from the ID this thread last
//! stored, when the last generator it stored into is this one, rather than from a load: the
//! swap checks it all the same, and on two threads a swap that fails brings the word's cache
//! line over once, for writing, where a load and then the swap moved it twice (two threads on
//! one generator: about a fifth faster, BENCHMARKS.md's twelfth set). Anything other than
//! continuing the last ID's millisecond is decided from the word itself, and batches start
//! from a load.
//!
//! The plain [`Generator::try_generate`] returns every error. [`Generator::generate`]
//! (and `Generator::generate_async`, with the `tokio` feature) wait for the next
//! millisecond on an overflow, which is a normal event in bulk work: with the default
//! 1-byte entropy a millisecond holds about 4,097 IDs on average in the stand-alone layout,
//! about 129 in the scalable one.
//!
//! # Bulk work: batches, headroom and a fast clock
//!
//! - **Batches.** [`Generator::try_generate_batch`] fills a prefix of a slice with IDs reserved
//!   together — one clock reading and one compare-and-swap for the whole batch, the
//!   increments drawn with one [`RandomSource::fill_bytes`] — and returns how many fit in
//!   the millisecond; [`Generator::generate_batch`] (and
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
//! - **One generator per process.** IDs are kept apart within a generator; two generators
//!   are two stand-alone generators, whose IDs made in the same millisecond collide with
//!   probability about 2^-20 per pair: two generators that fill a millisecond share about
//!   twenty of its IDs. A
//!   process that makes IDs elsewhere too installs its bulk settings in the process-wide
//!   generator ([`set_default_generator`], at start-up) and batches from
//!   [`default_generator`]; a generator of its own, as in the first example below, suits a
//!   process that makes every ID through it.
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
//! generator.generate_batch(&mut rows)?;
//! assert!(rows.windows(2).all(|pair| pair[0] < pair[1]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ```
//! use ulid_flake_core::{UlidFlake, generator::{Generator, default_generator, set_default_generator}};
//!
//! // At start-up: the process-wide generator, with a headroom for bulk writers.
//! set_default_generator(Generator::builder().headroom_bits(1).build()?)?;
//! let mut rows = vec![UlidFlake::MIN; 5_000];
//! default_generator()?.generate_batch(&mut rows)?;
//! // Elsewhere in the process, the same generator: no ID of the batch comes again.
//! let single = UlidFlake::generate()?;
//! assert!(rows.iter().all(|&row| row < single));
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
//! let id = generator.generate()?;
//! assert_eq!(id.scalability_id(), 4);
//! # Ok::<(), ulid_flake_core::Error>(())
//! ```

mod batch;
mod builder;
mod clock;
mod config;
mod default;
pub(crate) mod fork;
mod gate;
mod keystream;
mod lease_gate;
mod moment;
mod random;
mod state;
mod statefulset;
mod step;
mod ticker;
pub(crate) mod waiting;

pub use builder::GeneratorBuilder;
pub use clock::{Clock, SystemClock};
pub use config::{DEFAULT_ROLLBACK_ALLOWANCE, Layout};
pub(crate) use default::install_leased;
pub use default::{
    SCALABILITY_ID_VARIABLE, default_generator, init_from_env, set_default_generator,
};
pub(crate) use fork::count as fork_count;
pub use random::{RandomSource, ThreadRandom};
pub use state::Generator;
pub use statefulset::{
    HOSTNAME_VARIABLE, scalability_id_from_hostname, scalability_id_from_statefulset,
};
pub use ticker::TickerClock;
