//! Scalability ids leased from a database, so that up to 32 replicas each issue IDs under an
//! id no other replica uses at the same time — and a replica that cannot be sure of its lease
//! issues none.
//!
//! This module holds the protocol once, and its statements ([`sql`]); an adapter supplies
//! only a connection that runs them ([`sql::LeaseDatabase`]) — `ulid-flake-sqlx` for sqlx and
//! `ulid-flake-diesel` for Diesel (feature `lease` in both: `lease_postgres`, `lease_mysql`,
//! and `SqlxLeaseStore::postgres(url)` / `DieselLeaseStore::postgres(url)` to build the store
//! yourself). Leases taken through either exclude each other: they share one table,
//! `ulid_flake_leases`, with one row per namespace and id. What the lease needs from the
//! database (the table, and `SELECT`, `INSERT`, `UPDATE` on it) is in [`sql`].
//!
//! ```
//! use std::time::Duration;
//! use ulid_flake_core::lease::{LeaseOptions, LeaseState, ScalabilityIdLease};
//! # use ulid_flake_core::lease::{LeaseRequest, LeaseStore};
//! # /// A one-process stand-in for a database table, for this example only.
//! # struct Table;
//! # impl LeaseStore for Table {
//! #     type Error = std::io::Error;
//! #     fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
//! #     fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
//! #     fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> { Ok(()) }
//! #     fn database_time(&mut self, _: std::time::Duration) -> Result<i64, Self::Error> { Ok(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as i64) }
//! # }
//! # let store = Table;
//! let lease = ScalabilityIdLease::acquire(store, LeaseOptions::new("billing"))?;
//! let id = lease.generator().generate()?;
//! assert_eq!(id.scalability_id(), lease.status().scalability_id.unwrap());
//! assert_eq!(lease.status().state, LeaseState::Held);
//! lease.release()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The protocol
//!
//! A lease is a row `(namespace, scalability_id, holder, holder_epoch_ms, holder_margin_us,
//! expires_at_us)` whose expiry the database sets from its own clock. A replica *takes* an
//! id only when the row has expired, *renews* it only while the database still counts it
//! valid and the holder is still itself (a random 64-bit token per lease), and never learns
//! anything from a session lock, so a killed connection, a pooler that moves statements
//! between sessions, or a failover cannot make two holders believe they hold the id.
//!
//! The replica side keeps a **validity deadline** on its own monotonic clock (on Linux,
//! `CLOCK_BOOTTIME`, which also counts time the machine spent suspended). Before it sends a
//! take or a renewal it reads that clock: *s*. When the database answers that the row is
//! now its own until `db_now + W`, it may issue IDs until
//!
//! > *s* + *W*·(1 − ρ) − *m*
//!
//! where *W* is the validity granted ([`LeaseTiming::validity`], 15 s by default), ρ bounds
//! the relative rate difference between the replica's clock and the database's
//! ([`LeaseTiming::max_drift`], 10⁻³ by default, some hundred times what NTP-disciplined or
//! even free-running quartz clocks drift), and *m* is a margin ([`LeaseTiming::margin`],
//! 1 s by default) that covers the difference between replicas' wall clocks, which stamp
//! the IDs.
//!
//! **Why the old holder stops before the new one starts.** The database executed the renewal
//! after *s*, so the row's expiry is at least *s* + *W* on the database's clock (a renewal
//! never lowers it: one that the client gave up on and the server runs late, with an older
//! *now*, leaves a newer renewal's expiry in place;
//! `*_a_late_renewal_never_shortens_the_row`), which is at
//! least *s* + *W*·(1 − ρ) on the holder's. The holder stops *m* before that. A new holder
//! can take the row only after the database sees it expired. So, whatever happened to the
//! network or the connection, the intervals in which two holders issue IDs are separated by
//! at least *m*, and an answer that arrives late cannot extend a lease: the deadline counts
//! from *s*, never from the answer's arrival. With the defaults, a holder may issue IDs for
//! 15 s × 0.999 − 1 s = 13.985 s after it sent its last successful renewal, and renews every
//! 3 s ([`LeaseTiming::renew_every`]), so four renewals in a row may fail before it stops.
//!
//! **The IDs.** Duplicates are IDs with the same id *and* millisecond. Each generator stamps
//! IDs from its wall clock and checks, on the hot path, that the millisecond it just read is
//! before its deadline, translated into a millisecond of that clock when the renewal succeeds
//! (one atomic load and one comparison, in the same word as the scalability id). The new
//! holder's first millisecond follows the old holder's last by at least *m* minus the
//! difference between their wall clocks, so that difference must stay below *m*.
//!
//! **Wall clocks are checked against the database's.** After every take and renewal the
//! holder reads the database's clock (one more statement, `SELECT` of its `now`) between two
//! readings of its own wall clock, so the difference between the two clocks lies in an
//! interval as wide as that round trip. Each holder's clock within *m*/2 of the database's
//! keeps any two holders within *m* of each other, so:
//!
//! - all of the interval within ±*m*/2: the clocks agree, and the renewal extends the lease;
//! - none of it within: the wall clock is **skewed**. The holder keeps its id (it goes on
//!   renewing it, so no other replica takes it) but issues no ID — [`Error::ClockSkew`], with
//!   the skew found and the bound; state [`LeaseState::Skewed`] in the status, and a
//!   `tracing` event — until a renewal finds the clocks agreeing again;
//! - part of it within (a round trip longer than about *m*/2 − |skew|): nothing can be told,
//!   so the renewal extends nothing and the deadline stands; round trips that stay that long
//!   let the lease run out, and the holder stops at its deadline.
//!
//! Between two renewals a wall clock may step unnoticed. A step forward lets the holder stamp
//! IDs ahead of the database's clock, but never past the deadline's millisecond (computed
//! before the step, by a clock that agreed): a holder that dies is covered by its row's
//! expiry, and one that hands the id on adds to its release's grace how far its last ID is
//! ahead of the database's clock (as last read, plus the monotonic time since). A release
//! first closes the gate and counts its clock's millisecond as used: a call still in flight
//! either made its ID before that, and the grace covers it, or is refused. A step back makes it issue IDs longer in real time, never with a later millisecond than the
//! deadline, and never with one before the reading its take was confirmed with (the
//! generator counts every millisecond before it as used up): a step back beyond the
//! generator's rollback allowance is refused with [`Error::ClockMovedBackwards`].
//!
//! **Faults, and what happens.**
//!
//! | fault | the holder | another replica |
//! |---|---|---|
//! | lease connection killed (`pg_terminate_backend`, `KILL`, a proxy restart) | reconnects on its next renewal; keeps issuing while the lease is valid | cannot take the id: its row has not expired |
//! | network partition, server stalled (`SIGSTOP`) | renewals fail or hang; it stops at its deadline, with [`Error::LeaseNotValid`] | takes the id only after the database sees the row expire, after the holder stopped |
//! | holder paused (stop-the-world, `SIGSTOP`, VM migration) | on waking, its wall clock has passed the deadline: no ID; a renewal sent before the pause cannot extend it | may take the id once the row expired |
//! | transaction-mode pooler (PgBouncer) | every statement stands alone, in its own transaction | — |
//! | a slow or paused contender (its take stalled mid-way, for longer than the validity) | unaffected: no lease statement shares a transaction with another, so none of the contender's holds a lock across round trips (on MySQL/MariaDB each is autocommitted: InnoDB keeps even an `INSERT IGNORE`'s shared lock on an existing row until its transaction ends); on PostgreSQL the take's insert and update lock no held row | waits, then is refused |
//! | a renewal the holder gave up on (its request timeout) that the server runs later, after newer renewals, with its older *now* (one stalled server thread) | unaffected: a renewal never lowers the row's expiry (`*_a_late_renewal_never_shortens_the_row`) | cannot take the id: the row keeps the newest renewal's expiry |
//! | a deadlock reported to a renewal (MySQL's error 1213) | a failed renewal like any other: retried after the backoff, issuing until the deadline | — |
//! | the holder's wall clock steps, or drifts, further than *m*/2 from the database's | notices at its next renewal (or take): keeps the id, issues no ID ([`Error::ClockSkew`]) until the clocks agree; IDs stamped ahead before it noticed are covered by its release's grace | cannot take the id (it is renewed); after a release, takes it once the grace has passed |
//! | `fork` | the child's copy of the generator refuses to issue IDs: the lease is the parent's; a child forked in the middle of the lease's own work (a signal handler's fork during the acquisition or a renewal) calls the table no more: its acquisition fails with [`LeaseError::Forked`] (`a_child_forked_during_an_acquisition_calls_the_table_no_more_and_gets_no_lease`, `a_child_forked_during_a_renewal_calls_the_table_no_more`), and its lease thread waits for no lock of the lease's that a thread of the parent may have held, and emits no event (`a_child_forked_from_a_signal_handler_on_the_lease_s_thread_ends`, `a_child_forked_in_a_renewal_emits_no_event`) | — |
//!
//! **After a loss** the lease tries again by itself with backoff: first to renew the id it
//! had (its row may still be its own), then to take any free id of the namespace; generation
//! resumes as soon as it holds one. [`ScalabilityIdLease::status`] reports the state, the id,
//! the deadline and the last error, for health checks; with the `tracing` feature, acquisition,
//! failed renewals, loss and re-acquisition are `tracing` events (target
//! `ulid_flake::lease`).
//!
//! **Epochs and margins may differ between holders.** An id handed to a replica whose epoch
//! is later by *Δe* would stamp the moments after the hand-over with values the last holder
//! already used; one whose margin is larger by *Δm* may have a clock *Δm*/2 further behind
//! the database's than the last holder's could be. So each row records its holder's epoch
//! and margin, and a take ([`sql::Dialect::take_expired`]) waits, after the row's expiry,
//! *Δe* + *Δm*/2 more when that is positive (nothing otherwise): the successor's
//! milliseconds then follow the last holder's, as between holders of one epoch and margin. The
//! database's own generator records its epoch and a margin of 0 (its clock is the
//! database's), and takes a row by the same rule. The rule counts what the last holder could
//! have issued, not what it did: a replica whose epoch is years earlier than the others'
//! (its IDs are years ahead) makes every id it takes unusable to them for years
//! ([`LeaseError::AllTaken`]), as one whose epoch is years later finds the ids they held.
//! Change a namespace's epoch by changing its namespace.
//!
//! **Every replica of a namespace must share one table**; a review produced duplicate IDs
//! by leasing from two. Leases exclude each other only within one `ulid_flake_leases`
//! table: the same database, and on PostgreSQL the same schema. The statements name the
//! table unqualified, so a role whose `search_path` finds (or creates) the table in a
//! schema of its own (`CREATE SCHEMA app AUTHORIZATION app` puts `app` first) would lease
//! from another table than its peers: on PostgreSQL, a new lease connection whose
//! `search_path` holds two such tables fails instead, naming their schemas
//! ([`sql::Dialect::single_table_check`]). Two databases, or a peer whose `search_path`
//! holds the other table alone, nothing can see: point every replica at one table.
//!
//! What a lease does not cover: a database whose clock steps (rather than drifts), and two
//! databases (a split-brain failover that loses the table's latest writes), which break the
//! assumption that one clock and one table decide; the IDs for a given moment (`Generator::id_at` and `from_unix_epoch_time`), which are
//! not issued by the generator's sequence and carry no uniqueness promise at all; a process
//! restored from a VM snapshot, whose memory (the lease's token and open gate, the last ID,
//! the random stream) goes back to the snapshot's: until its next renewal it may repeat IDs it
//! made after the snapshot, and restored twice, two processes share one token — restart the
//! process after a restore (a review by hand, no test); and, on
//! platforms other than Linux, Android and Apple's, a monotonic clock that stops while the
//! machine sleeps. Diesel's connections cannot bound a call, so with `ulid-flake-diesel` a
//! stalled server makes the first acquisition and [`ScalabilityIdLease::release`] wait for it
//! (generation still stops at the deadline).

mod clock;
mod driver;
pub mod sql;

use alloc::boxed::Box;
use alloc::string::String;
use alloc::sync::Arc;
use core::fmt;
use core::ops::RangeInclusive;
use core::time::Duration;
use std::sync::OnceLock;
use std::thread::JoinHandle;
use std::time::SystemTime;

pub use clock::LeaseClock;

use crate::epoch::Epoch;
use crate::error::Error;
use crate::generator::{Generator, GeneratorBuilder, SystemClock, install_leased};
use crate::layout::SCALABILITY_ID_MAX;

pub use crate::generator::waiting::NEW_ID_LEASE_WAIT;
use driver::{Driver, Shared};

/// The namespace of the leases of an application that does not choose one.
///
/// ```
/// assert_eq!(ulid_flake_core::lease::DEFAULT_LEASE_NAMESPACE, "ulid-flake");
/// ```
pub const DEFAULT_LEASE_NAMESPACE: &str = "ulid-flake";

/// The longest lease namespace, in bytes: the table's `namespace` column is a
/// `VARCHAR(64)`.
///
/// ```
/// assert_eq!(ulid_flake_core::lease::MAX_LEASE_NAMESPACE_LEN, 64);
/// ```
pub const MAX_LEASE_NAMESPACE_LEN: usize = 64;

/// One request to a [`LeaseStore`]: which row, and for whom.
///
/// ```
/// use std::time::Duration;
/// use ulid_flake_core::Epoch;
/// use ulid_flake_core::lease::LeaseRequest;
///
/// let request = LeaseRequest {
///     namespace: "billing",
///     scalability_id: 3,
///     holder: 42,
///     epoch: Epoch::DEFAULT,
///     margin: Duration::from_secs(1),
///     validity: Duration::from_secs(15),
///     timeout: Duration::from_secs(2),
/// };
/// assert_eq!(request.validity_us(), 15_000_000);
/// assert_eq!(request.epoch_ms(), 1_704_067_200_000);
/// assert_eq!(request.margin_us(), 1_000_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaseRequest<'a> {
    /// The namespace, 1 to [`MAX_LEASE_NAMESPACE_LEN`] bytes.
    pub namespace: &'a str,
    /// The id, `0..=31`.
    pub scalability_id: u8,
    /// This lease's token: the holder the row must name.
    pub holder: i64,
    /// The epoch of the holder's generator. A take records it in the row with
    /// [`margin`](Self::margin), and takes a row whose last holder had an earlier epoch (or
    /// a smaller margin) only once the difference has passed too: the successor's IDs then
    /// follow the last holder's (see the [module docs](self)).
    pub epoch: Epoch,
    /// The holder's [`LeaseTiming::margin`]: its wall clock is within half of it of the
    /// database's.
    pub margin: Duration,
    /// How long the database is to count the lease valid (for `take` and `renew`), or the
    /// grace period before a released row expires (for `release`).
    pub validity: Duration,
    /// How long the store may wait for the database before it gives up and fails; a store
    /// that cannot bound its calls documents that it hangs instead (the generator still stops
    /// at its deadline).
    pub timeout: Duration,
}

impl LeaseRequest<'_> {
    /// [`LeaseRequest::validity`] in microseconds, the unit of the lease table.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # let request = ulid_flake_core::lease::LeaseRequest { namespace: "n", scalability_id: 0, holder: 1, epoch: ulid_flake_core::Epoch::DEFAULT, margin: Duration::ZERO, validity: Duration::from_millis(3), timeout: Duration::ZERO };
    /// assert_eq!(request.validity_us(), 3_000);
    /// ```
    pub fn validity_us(&self) -> i64 {
        duration_us(self.validity)
    }

    /// [`LeaseRequest::epoch`] in milliseconds since the Unix epoch, the unit of the lease
    /// table's `holder_epoch_ms`.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use ulid_flake_core::Epoch;
    /// # let request = ulid_flake_core::lease::LeaseRequest { namespace: "n", scalability_id: 0, holder: 1, epoch: Epoch::from_unix_ms(5).unwrap(), margin: Duration::ZERO, validity: Duration::ZERO, timeout: Duration::ZERO };
    /// assert_eq!(request.epoch_ms(), 5);
    /// ```
    pub fn epoch_ms(&self) -> i64 {
        // An epoch is below 2^48 ms.
        self.epoch.unix_ms() as i64
    }

    /// [`LeaseRequest::margin`] in microseconds, the unit of the lease table's
    /// `holder_margin_us`.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use ulid_flake_core::Epoch;
    /// # let request = ulid_flake_core::lease::LeaseRequest { namespace: "n", scalability_id: 0, holder: 1, epoch: Epoch::DEFAULT, margin: Duration::from_millis(200), validity: Duration::ZERO, timeout: Duration::ZERO };
    /// assert_eq!(request.margin_us(), 200_000);
    /// ```
    pub fn margin_us(&self) -> i64 {
        duration_us(self.margin)
    }
}

/// `duration` in whole microseconds, at most `i64::MAX`.
fn duration_us(duration: Duration) -> i64 {
    i64::try_from(duration.as_micros()).unwrap_or(i64::MAX)
}

/// Where leases live: the protocol's operations on the lease table. [`sql::SqlLeaseStore`]
/// is the one every adapter uses (it runs [`sql`]'s statements through the adapter's
/// connection); implement it yourself only to script a database in a test.
///
/// Calls block; they run on the lease's own thread.
///
/// ```
/// use std::time::Duration;
/// use ulid_flake_core::lease::{LeaseRequest, LeaseStore};
///
/// /// Refuses everything: every id is taken.
/// struct Full;
///
/// impl LeaseStore for Full {
///     type Error = std::io::Error;
///     fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(false) }
///     fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(false) }
///     fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> { Ok(()) }
///     fn database_time(&mut self, _: Duration) -> Result<i64, Self::Error> { Ok(0) }
/// }
/// ```
pub trait LeaseStore: Send + 'static {
    /// The database library's error.
    type Error: core::error::Error + Send + Sync + 'static;

    /// Takes the id for `request.holder`, valid for `request.validity` from when the database
    /// runs the statement, if its lease never existed, or expired long enough ago: at once
    /// for a holder of the same epoch and margin as the row's last, and for one whose epoch
    /// is later, or whose margin is larger, only once that difference has passed too
    /// (*Δe* + *Δm*/2, see [`sql::Dialect::take_expired`]). A take records the holder's
    /// [`epoch`](LeaseRequest::epoch) and [`margin`](LeaseRequest::margin) in the row for
    /// the next. `Ok(true)` when taken, `Ok(false)` when not.
    ///
    /// # Errors
    ///
    /// The database's error: the outcome is unknown.
    fn take(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error>;

    /// Renews `request.holder`'s lease on the id for `request.validity`, if the database still
    /// counts it valid: `Ok(true)` when renewed, `Ok(false)` when it expired or another
    /// holder has it.
    ///
    /// # Errors
    ///
    /// The database's error: the outcome is unknown.
    fn renew(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error>;

    /// Lets `request.holder`'s lease on the id expire after `request.validity` (the grace
    /// period).
    ///
    /// # Errors
    ///
    /// The database's error; the lease then expires on its own.
    fn release(&mut self, request: &LeaseRequest<'_>) -> Result<(), Self::Error>;

    /// The database's clock, in microseconds since the Unix epoch, read when the database
    /// runs the statement: the lease compares its own wall clock with it after every take
    /// and renewal (see the [module docs](self)).
    ///
    /// # Errors
    ///
    /// The database's error.
    fn database_time(&mut self, timeout: Duration) -> Result<i64, Self::Error>;

    /// Whether `error` is the database refusing this store for good — a wrong password, a
    /// database that does not exist, no right to the lease table — which no retry mends:
    /// [`ScalabilityIdLease::acquire`] then fails with it at once instead of retrying for
    /// its [`acquire_timeout`](LeaseTiming::acquire_timeout). A lease already held retries
    /// every error alike until its deadline. None is, unless the store says so.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use ulid_flake_core::lease::{LeaseRequest, LeaseStore};
    /// struct NoRight;
    ///
    /// impl LeaseStore for NoRight {
    ///     type Error = std::io::Error;
    ///     fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
    ///         Err(std::io::Error::new(std::io::ErrorKind::PermissionDenied, "no right to the table"))
    ///     }
    ///     # fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(false) }
    ///     # fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> { Ok(()) }
    ///     # fn database_time(&mut self, _: Duration) -> Result<i64, Self::Error> { Ok(0) }
    ///     // ...
    ///     fn is_refusal(&self, error: &Self::Error) -> bool {
    ///         error.kind() == std::io::ErrorKind::PermissionDenied
    ///     }
    /// }
    /// ```
    fn is_refusal(&self, error: &Self::Error) -> bool {
        let _ = error;
        false
    }
}

/// The timing of a lease; see the [module docs](self) for how they bound each other.
///
/// ```
/// use std::time::Duration;
/// use ulid_flake_core::lease::LeaseTiming;
///
/// let timing = LeaseTiming::default();
/// assert_eq!(timing.validity, Duration::from_secs(15));
/// assert_eq!(timing.usable_validity(), Duration::from_millis(13_985));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeaseTiming {
    /// *W*: how long the database counts a lease valid after it takes or renews it.
    pub validity: Duration,
    /// How often the holder renews; well inside the usable validity.
    pub renew_every: Duration,
    /// *m*: how long before the database's expiry (in the worst case) the holder stops;
    /// also the grace period of a released id. Each replica's wall clock must be within
    /// *m*/2 of the database's: a holder that finds it further issues no ID
    /// ([`Error::ClockSkew`]).
    pub margin: Duration,
    /// ρ: the largest relative rate difference between the holder's clock and the
    /// database's.
    pub max_drift: f64,
    /// How long one database call may take before the store gives up on it.
    pub request_timeout: Duration,
    /// The first wait after a failed call; it doubles after each failure in a row.
    pub retry_min: Duration,
    /// The longest wait between attempts.
    pub retry_max: Duration,
    /// How long [`ScalabilityIdLease::acquire`] keeps trying when the database fails (not when
    /// every id is taken, which [`wait_for_free_id`](Self::wait_for_free_id) bounds, nor when
    /// the store says the database refused it for good ([`LeaseStore::is_refusal`]: at
    /// once). A store that cannot bound its calls (Diesel's) may exceed it while a server
    /// hangs.
    pub acquire_timeout: Duration,
    /// How long [`ScalabilityIdLease::acquire`] keeps trying, with the backoff, while other
    /// holders have every id of the range, before it fails with [`LeaseError::AllTaken`];
    /// zero, the default, fails at once. A replica started in place of one that died gets
    /// its id once the row expires, up to [`validity`](Self::validity) later (15 s by
    /// default; the margin after a release), and *Δe* + *Δm*/2 more when its epoch is later
    /// or its margin larger than that replica's (see the [module docs](self)): wait a
    /// little longer than that to start instead of failing. The last try comes at the end
    /// of the wait. While it waits, database failures are retried for as long as this, or
    /// [`acquire_timeout`](Self::acquire_timeout) if longer.
    pub wait_for_free_id: Duration,
}

impl Default for LeaseTiming {
    /// 15 s validity, renewed every 3 s, 1 s margin, ρ = 10⁻³, 2 s per call, retries from
    /// 50 ms up to 2 s, 30 s to acquire, and no wait for a free id.
    fn default() -> Self {
        Self {
            validity: Duration::from_secs(15),
            renew_every: Duration::from_secs(3),
            margin: Duration::from_secs(1),
            max_drift: 1e-3,
            request_timeout: Duration::from_secs(2),
            retry_min: Duration::from_millis(50),
            retry_max: Duration::from_secs(2),
            acquire_timeout: Duration::from_secs(30),
            wait_for_free_id: Duration::ZERO,
        }
    }
}

impl LeaseTiming {
    /// *W*·(1 − ρ) − *m*: how long after sending a successful renewal the holder may issue
    /// IDs.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ulid_flake_core::lease::LeaseTiming;
    ///
    /// let timing = LeaseTiming { validity: Duration::from_secs(2), margin: Duration::from_millis(200), ..LeaseTiming::default() };
    /// assert_eq!(timing.usable_validity(), Duration::from_millis(1_798));
    /// ```
    pub fn usable_validity(&self) -> Duration {
        self.validity
            .mul_f64(1.0 - self.max_drift)
            .saturating_sub(self.margin)
    }

    /// Checks that the timings bound each other as the argument needs.
    fn check(&self) -> Result<(), LeaseError> {
        let invalid = |expected, found| Err(LeaseError::InvalidTiming { expected, found });
        if !(0.0..0.5).contains(&self.max_drift) {
            return invalid("a max_drift in 0..0.5", std::format!("{}", self.max_drift));
        }
        if self.renew_every.is_zero() || self.renew_every >= self.usable_validity() {
            return invalid(
                "renew_every above zero and below validity × (1 − max_drift) − margin",
                std::format!(
                    "renew_every {:?}, against {:?}",
                    self.renew_every,
                    self.usable_validity()
                ),
            );
        }
        // The clocks agree only when a round trip fits in *m* (less 1 ms of reading).
        if self.margin < Duration::from_millis(10) {
            return invalid(
                "a margin of at least 10 ms",
                std::format!("{:?}", self.margin),
            );
        }
        if self.retry_min.is_zero() || self.retry_min > self.retry_max {
            return invalid(
                "0 < retry_min <= retry_max",
                std::format!("{:?} and {:?}", self.retry_min, self.retry_max),
            );
        }
        if self.validity > Duration::from_secs(24 * 60 * 60) {
            return invalid(
                "a validity of at most a day",
                std::format!("{:?}", self.validity),
            );
        }
        Ok(())
    }
}

/// How to lease: the namespace, the ids to choose from, the timing, and the generator to
/// build.
///
/// ```
/// use std::time::Duration;
/// use ulid_flake_core::lease::{LeaseOptions, LeaseTiming};
///
/// let options = LeaseOptions::new("billing")
///     .ids(0..=15) // this application's half of the namespace
///     .timing(LeaseTiming { validity: Duration::from_secs(30), ..LeaseTiming::default() });
/// assert_eq!(options.namespace(), "billing");
/// ```
#[derive(Clone, Debug)]
#[must_use = "options do nothing until a lease is acquired with them"]
pub struct LeaseOptions<C = SystemClock> {
    namespace: String,
    ids: RangeInclusive<u8>,
    timing: LeaseTiming,
    generator: GeneratorBuilder<C>,
}

impl LeaseOptions {
    /// Leases in `namespace` (give each application sharing a database its own), any id
    /// `0..=31`, with the default timing and a generator with the defaults of
    /// [`Generator::new`] (scalable, with the leased id).
    ///
    /// ```
    /// let options = ulid_flake_core::lease::LeaseOptions::new("jobs");
    /// ```
    pub fn new(namespace: impl Into<String>) -> Self {
        Self {
            namespace: namespace.into(),
            ids: 0..=SCALABILITY_ID_MAX,
            timing: LeaseTiming::default(),
            generator: Generator::builder(),
        }
    }
}

impl<C> LeaseOptions<C> {
    /// The namespace.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::lease::LeaseOptions::new("jobs").namespace(), "jobs");
    /// ```
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// The ids to choose from (a sub-range of `0..=31`).
    ///
    /// ```
    /// let options = ulid_flake_core::lease::LeaseOptions::new("jobs").ids(7..=7);
    /// ```
    pub fn ids(mut self, ids: RangeInclusive<u8>) -> Self {
        self.ids = ids;
        self
    }

    /// The timing.
    ///
    /// ```
    /// use ulid_flake_core::lease::{LeaseOptions, LeaseTiming};
    /// let options = LeaseOptions::new("jobs").timing(LeaseTiming::default());
    /// ```
    pub fn timing(mut self, timing: LeaseTiming) -> Self {
        self.timing = timing;
        self
    }

    /// The generator's settings (epoch, entropy, clock…); the layout is replaced by the
    /// scalable one with the leased id. Its clock is also the lease's, so it must be a
    /// [`LeaseClock`].
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, generator::Generator, lease::LeaseOptions};
    /// let options = LeaseOptions::new("jobs").generator(Generator::builder().entropy_bytes(2));
    /// ```
    pub fn generator<C2>(self, generator: GeneratorBuilder<C2>) -> LeaseOptions<C2> {
        LeaseOptions {
            namespace: self.namespace,
            ids: self.ids,
            timing: self.timing,
            generator,
        }
    }
}

/// What a lease is doing, as [`ScalabilityIdLease::status`] reports it.
///
/// ```
/// use ulid_flake_core::lease::LeaseState;
/// assert_eq!(LeaseState::Held.to_string(), "held");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LeaseState {
    /// Valid, and its last renewal succeeded: IDs are issued.
    Held,
    /// Valid, but its last renewal failed: IDs are issued until the deadline while it tries
    /// again.
    Confirming,
    /// Held and renewed, but this machine's wall clock, which stamps the IDs, was found
    /// further from the database's than half the margin: no ID is issued
    /// ([`Error::ClockSkew`]) until a renewal finds them agreeing.
    Skewed,
    /// Not valid (lost, not confirmed in time, or not yet acquired again): no ID is issued
    /// while it tries to acquire one.
    Lost,
    /// Given up by [`ScalabilityIdLease::release`].
    Released,
    /// In a forked child: the lease is the parent's, and this process issues no ID under it.
    Forked,
}

impl fmt::Display for LeaseState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Held => "held",
            Self::Confirming => "confirming",
            Self::Skewed => "skewed",
            Self::Lost => "lost",
            Self::Released => "released",
            Self::Forked => "forked",
        })
    }
}

/// A lease's state for health checks and logs.
///
/// ```
/// # use ulid_flake_core::lease::{LeaseOptions, LeaseState, ScalabilityIdLease, LeaseRequest, LeaseStore};
/// # struct Table;
/// # impl LeaseStore for Table {
/// #     type Error = std::io::Error;
/// #     fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
/// #     fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
/// #     fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> { Ok(()) }
/// #     fn database_time(&mut self, _: std::time::Duration) -> Result<i64, Self::Error> { Ok(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as i64) }
/// # }
/// let lease = ScalabilityIdLease::acquire(Table, LeaseOptions::new("jobs"))?;
/// let status = lease.status();
/// assert_eq!(status.state, LeaseState::Held);
/// assert!(status.valid_until.unwrap() > std::time::SystemTime::now());
/// assert_eq!(status.last_error, None);
/// # Ok::<(), ulid_flake_core::lease::LeaseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LeaseStatus {
    /// What the lease is doing.
    pub state: LeaseState,
    /// The namespace.
    pub namespace: String,
    /// The id held, or last held.
    pub scalability_id: Option<u8>,
    /// Until when IDs may be issued (by the generator's clock); `None` when never valid,
    /// and once released.
    pub valid_until: Option<SystemTime>,
    /// The last failure since the lease was last confirmed (a database error, a refused
    /// renewal, every id taken, a loss); `None` again after a successful acquisition or
    /// renewal.
    pub last_error: Option<String>,
    /// How many times an id was acquired (1 for a lease never lost).
    pub acquisitions: u64,
    /// How many times the lease was lost.
    pub losses: u64,
}

/// Why a lease could not be acquired, installed or released.
///
/// ```
/// use std::time::Duration;
/// use ulid_flake_core::lease::LeaseError;
///
/// let error = LeaseError::AllTaken {
///     namespace: "billing".into(),
///     ids: 0..=31,
///     wait_for_free_id: Duration::from_secs(20),
/// };
/// assert_eq!(
///     error.to_string(),
///     "all scalability ids 0..=31 of lease namespace \"billing\" are taken: expected a free \
///      id within 20s (LeaseTiming::wait_for_free_id), found every one leased by another \
///      holder (or given up too recently for this lease's later epoch or larger margin)"
/// );
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum LeaseError {
    /// Other holders have valid leases on every id of the range, or gave them up too
    /// recently for this lease: one whose epoch is later, or whose margin is larger, than
    /// their last holder's waits out the difference (see the [module docs](self)).
    AllTaken {
        /// The namespace.
        namespace: String,
        /// The ids that were tried.
        ids: RangeInclusive<u8>,
        /// How long the acquisition waited for a free id: [`LeaseTiming::wait_for_free_id`].
        wait_for_free_id: Duration,
    },
    /// A namespace that is empty or longer than [`MAX_LEASE_NAMESPACE_LEN`] bytes.
    InvalidNamespace {
        /// The namespace's length, in bytes.
        length: usize,
    },
    /// An id range that is empty or reaches past 31.
    InvalidIds {
        /// The range.
        ids: RangeInclusive<u8>,
    },
    /// Timings that do not bound each other as the protocol needs.
    InvalidTiming {
        /// What they must satisfy.
        expected: &'static str,
        /// The values that do not.
        found: String,
    },
    /// The generator's settings are invalid.
    Generator(Error),
    /// The lease's generator could not be installed as the process-wide default:
    /// [`Error::DefaultGeneratorAlreadySet`] (one is in place already) or
    /// [`Error::ScalabilityIdConfiguredTwice`] (the environment variable is set).
    Install(Error),
    /// The database failed for the whole acquisition timeout, or refused the lease for good
    /// ([`LeaseStore::is_refusal`]); this is its last error.
    Database(Box<dyn core::error::Error + Send + Sync>),
    /// The process forked during the acquisition (from a signal handler, or in a callback
    /// of the store or the clock), and this is the child: the row taken and its holder token
    /// are the parent's, whose acquisition goes on. The child made no call of the store
    /// after the one in flight when it forked (a take, a renewal or a clock reading), and
    /// released nothing. A child forked in the last instructions of a successful acquisition
    /// gets the lease instead, whose generator refuses IDs ([`LeaseState::Forked`]).
    ///
    /// Also [`ScalabilityIdLease::install_default`]'s error in a child forked after the
    /// acquisition: the lease is the parent's, and a default generator behind it would
    /// refuse every ID.
    Forked,
}

impl fmt::Display for LeaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AllTaken {
                namespace,
                ids,
                wait_for_free_id,
            } => {
                write!(
                    f,
                    "all scalability ids {ids:?} of lease namespace {namespace:?} are taken: \
                     expected a free id"
                )?;
                if wait_for_free_id.is_zero() {
                    f.write_str(" at once (LeaseTiming::wait_for_free_id is zero)")?;
                } else {
                    write!(
                        f,
                        " within {wait_for_free_id:?} (LeaseTiming::wait_for_free_id)"
                    )?;
                }
                f.write_str(
                    ", found every one leased by another holder (or given up too recently for \
                     this lease's later epoch or larger margin)",
                )
            }
            Self::InvalidNamespace { length } => write!(
                f,
                "invalid lease namespace: expected 1..={MAX_LEASE_NAMESPACE_LEN} bytes, \
                 found {length}"
            ),
            Self::InvalidIds { ids } => write!(
                f,
                "invalid lease ids: expected a non-empty range within 0..=31, found {ids:?}"
            ),
            Self::InvalidTiming { expected, found } => {
                write!(
                    f,
                    "invalid lease timing: expected {expected}, found {found}"
                )
            }
            Self::Generator(error) => write!(f, "invalid lease generator: {error}"),
            Self::Install(error) => write!(
                f,
                "lease not installed as the default generator: {error}; the lease was released"
            ),
            Self::Database(error) => write!(f, "lease database error: {error}"),
            Self::Forked => f.write_str(
                "lease refused in a forked child: expected the process that began the \
                 acquisition, found a child forked since it began (the id and its row stay the \
                 parent's)",
            ),
        }
    }
}

/// The message includes the error a variant holds, so the source is that error's own source:
/// a reporter that prints the chain (anyhow's `{:#}`) repeats no message of this level. Match
/// on the variant for the error itself.
impl core::error::Error for LeaseError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Database(error) => error.source(),
            _ => None,
        }
    }
}

/// A scalability id leased from a database, and the generator that issues IDs under it.
///
/// [`acquire`](Self::acquire) returns once it holds an id (or fails when every id of the
/// range is held by others: at once, or after
/// [`wait_for_free_id`](LeaseTiming::wait_for_free_id), the time a replacement for a killed
/// replica needs for the row to expire); a thread of its own then renews the lease, and the generator refuses to issue IDs whenever the lease is not known to be
/// valid (see the [module docs](self)). Keep the lease for as long as its IDs are made —
/// usually the life of the process, which [`install_default`](Self::install_default) arranges
/// for the process-wide default generator. Dropping it stops the generator and lets the id
/// expire after the margin (plus however far its last ID was stamped ahead of the database's
/// clock): the drop waits for the lease's thread to send the release, so that a process that
/// exits right after it does not leave the id held for the whole validity — but at most one
/// [`request_timeout`](LeaseTiming::request_timeout), after which the release goes on
/// without it (a thread in the middle of a renewal may need longer; a process that then
/// exits leaves the row to expire by itself). [`release`](Self::release) waits for it to
/// the end, and reports its error.
///
/// A lease left unused is a warning (`#[must_use]`): dropped at once, it would leave the
/// process generating without it, in the stand-alone layout.
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use ulid_flake_core::lease::{LeaseError, LeaseOptions, LeaseStore, ScalabilityIdLease};
///
/// fn start(store: impl LeaseStore) -> Result<(), LeaseError> {
///     ScalabilityIdLease::acquire(store, LeaseOptions::new("billing"))?; // forgot install_default()
///     Ok(())
/// }
/// ```
///
/// The same code with the lease kept compiles, so the lint alone fails the one above:
///
/// ```
/// #![deny(unused_must_use)]
/// use ulid_flake_core::lease::{LeaseError, LeaseOptions, LeaseStore, ScalabilityIdLease};
///
/// fn start(store: impl LeaseStore) -> Result<(), LeaseError> {
///     let _lease = ScalabilityIdLease::acquire(store, LeaseOptions::new("billing"))?;
///     Ok(())
/// }
/// ```
#[must_use = "a lease dropped at once stops its generator: keep it, or install_default() it"]
pub struct ScalabilityIdLease<C: LeaseClock = SystemClock> {
    shared: Arc<Shared<C>>,
    thread: Option<JoinHandle<()>>,
}

impl<C: LeaseClock> ScalabilityIdLease<C> {
    /// Takes a free id in the namespace from `store`, then keeps it renewed on a thread of
    /// its own. Blocks until an id is held or none is free; tries each id of the range from a
    /// random offset, and again with backoff while the database fails (for
    /// [`acquire_timeout`](LeaseTiming::acquire_timeout)) or while every id is held by others
    /// (for [`wait_for_free_id`](LeaseTiming::wait_for_free_id), zero by default: then
    /// [`LeaseError::AllTaken`] at once).
    ///
    /// # Errors
    ///
    /// [`LeaseError::AllTaken`] when another holder has every id of the range;
    /// [`LeaseError::Database`] when the database failed for the whole
    /// [`acquire_timeout`](LeaseTiming::acquire_timeout), or refused the store for good
    /// ([`LeaseStore::is_refusal`]: at once);
    /// [`LeaseError::InvalidNamespace`], [`LeaseError::InvalidIds`],
    /// [`LeaseError::InvalidTiming`] and [`LeaseError::Generator`] for bad options;
    /// [`LeaseError::Forked`] in a child forked during the acquisition.
    ///
    /// ```
    /// # use ulid_flake_core::lease::{LeaseOptions, ScalabilityIdLease, LeaseRequest, LeaseStore, LeaseError};
    /// # struct Full;
    /// # impl LeaseStore for Full {
    /// #     type Error = std::io::Error;
    /// #     fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(false) }
    /// #     fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(false) }
    /// #     fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> { Ok(()) }
    /// #     fn database_time(&mut self, _: std::time::Duration) -> Result<i64, Self::Error> { Ok(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as i64) }
    /// # }
    /// let result = ScalabilityIdLease::acquire(Full, LeaseOptions::new("jobs").ids(3..=4));
    /// assert!(matches!(result, Err(LeaseError::AllTaken { .. })));
    /// ```
    pub fn acquire<S: LeaseStore>(store: S, options: LeaseOptions<C>) -> Result<Self, LeaseError> {
        // What a child forked from here on (from a signal handler) is told apart by: taken
        // first, with the fork handler in place, so that no moment of the acquisition is
        // before it.
        crate::generator::fork::watch();
        let forks_at_start = crate::generator::fork_count();
        let LeaseOptions {
            namespace,
            ids,
            timing,
            generator,
        } = options;
        if !(1..=MAX_LEASE_NAMESPACE_LEN).contains(&namespace.len()) {
            return Err(LeaseError::InvalidNamespace {
                length: namespace.len(),
            });
        }
        if ids.is_empty() || *ids.end() > SCALABILITY_ID_MAX {
            return Err(LeaseError::InvalidIds { ids });
        }
        timing.check()?;
        let generator = generator
            .build_leased(*ids.start())
            .map_err(LeaseError::Generator)?;
        // A clock before the epoch (or too far past it) stamps no ID: refused before a take
        // holds an id for nothing.
        generator
            .epoch()
            .ms_since_epoch_at(generator.clock().unix_ms())
            .map_err(LeaseError::Generator)?;
        let shared = Arc::new(Shared::new(
            generator,
            namespace,
            ids,
            timing,
            forks_at_start,
        ));
        let mut driver = Driver::new(store, Arc::clone(&shared));
        if let Err(error) = driver.acquire_first() {
            if shared.forked() {
                // Whatever the error, this is a child forked during the acquisition (one
                // forked in `is_refusal` or a clock reading may have another): the parent's
                // store, whose drop could end the parent's session on the connection they
                // share, stays undropped.
                core::mem::forget(driver);
                return Err(LeaseError::Forked);
            }
            return Err(error);
        }
        // A fork after the driver's last check: the child's thread, which checks before
        // every step, touches nothing, and the child's generator closes the gate when it
        // sees the fork.
        let thread = std::thread::Builder::new()
            .name("ulid-flake-lease".into())
            .spawn(move || driver.run())
            .map_err(|error| LeaseError::Database(Box::new(error)))?;
        shared.set_lease_thread(thread.thread().clone());
        Ok(Self {
            shared,
            thread: Some(thread),
        })
    }

    /// The generator, which issues IDs only while the lease is valid: otherwise its calls
    /// fail with [`Error::LeaseNotValid`] (`generate` included; it does not wait for a
    /// lease).
    ///
    /// ```
    /// # use ulid_flake_core::lease::{LeaseOptions, ScalabilityIdLease, LeaseRequest, LeaseStore};
    /// # struct Table;
    /// # impl LeaseStore for Table {
    /// #     type Error = std::io::Error;
    /// #     fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
    /// #     fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
    /// #     fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> { Ok(()) }
    /// #     fn database_time(&mut self, _: std::time::Duration) -> Result<i64, Self::Error> { Ok(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as i64) }
    /// # }
    /// let lease = ScalabilityIdLease::acquire(Table, LeaseOptions::new("jobs"))?;
    /// let id = lease.generator().generate()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generator(&self) -> &Generator<C> {
        &self.shared.generator
    }

    /// The lease's state, id, deadline and last error, for health checks.
    ///
    /// ```
    /// # use ulid_flake_core::lease::{LeaseOptions, ScalabilityIdLease, LeaseRequest, LeaseStore, LeaseState};
    /// # struct Table;
    /// # impl LeaseStore for Table {
    /// #     type Error = std::io::Error;
    /// #     fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
    /// #     fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
    /// #     fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> { Ok(()) }
    /// #     fn database_time(&mut self, _: std::time::Duration) -> Result<i64, Self::Error> { Ok(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as i64) }
    /// # }
    /// let lease = ScalabilityIdLease::acquire(Table, LeaseOptions::new("jobs"))?;
    /// assert_eq!(lease.status().state, LeaseState::Held);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn status(&self) -> LeaseStatus {
        self.shared.status()
    }

    /// Stops issuing IDs, lets the id expire after the margin (plus however far its last ID
    /// was stamped ahead of the database's clock), and waits for the lease's thread to
    /// finish.
    ///
    /// # Errors
    ///
    /// [`LeaseError::Database`] when the release statement failed three times (it is sent
    /// again after [`LeaseTiming::retry_min`], as a deadlock's victim or a dropped connection
    /// may need), with the last attempt's error; the lease then expires on its own after its
    /// validity. IDs stopped before the first attempt either way.
    ///
    /// ```
    /// # use ulid_flake_core::lease::{LeaseOptions, ScalabilityIdLease, LeaseRequest, LeaseStore};
    /// # struct Table;
    /// # impl LeaseStore for Table {
    /// #     type Error = std::io::Error;
    /// #     fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
    /// #     fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
    /// #     fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> { Ok(()) }
    /// #     fn database_time(&mut self, _: std::time::Duration) -> Result<i64, Self::Error> { Ok(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as i64) }
    /// # }
    /// let lease = ScalabilityIdLease::acquire(Table, LeaseOptions::new("jobs"))?;
    /// let generator_was_working = lease.generator().generate().is_ok();
    /// lease.release()?;
    /// # assert!(generator_was_working);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn release(mut self) -> Result<(), LeaseError> {
        let thread = self.thread.take();
        release(&self.shared, thread)
    }
}

/// Stops `shared`'s generator, waits for its lease's `thread` to give the id up, and reports
/// how that went.
fn release<C: LeaseClock>(
    shared: &Shared<C>,
    thread: Option<JoinHandle<()>>,
) -> Result<(), LeaseError> {
    shared.stop();
    if shared.forked() {
        // The lease and its thread are the parent's: nothing to give up here.
        return Ok(());
    }
    if let Some(thread) = thread {
        // The driver records a failed release; a panicked thread holds nothing more.
        let _ = thread.join();
    }
    match shared.release_error() {
        Some(error) => Err(LeaseError::Database(error.into())),
        None => Ok(()),
    }
}

impl ScalabilityIdLease {
    /// Makes the lease's generator the process-wide default (behind `UlidFlake::generate` and
    /// `Id::generate`) and keeps the lease renewed until the process exits;
    /// [`installed_lease_status`] then reports it. Call [`release_installed_lease`] at
    /// shutdown: nothing drops the installed lease, so a process that exits without it (a
    /// return from `main` included) leaves its id held for the whole validity.
    ///
    /// # Errors
    ///
    /// [`LeaseError::Install`]: with [`Error::DefaultGeneratorAlreadySet`] when the process
    /// has a default generator already (installed, or built by an ID made through it: install
    /// the lease at start-up, before the first ID; `init_from_env()` builds nothing while
    /// `ULID_FLAKE_SCALABILITY_ID` is unset), with [`Error::ScalabilityIdConfiguredTwice`]
    /// when that variable is set (the lease assigns the id). The lease is then released, before
    /// the error returns.
    ///
    /// [`LeaseError::Forked`] in a child forked since the acquisition began: nothing is
    /// installed, and the lease stays the parent's.
    ///
    /// ```
    /// # use ulid_flake_core::lease::{LeaseOptions, ScalabilityIdLease, LeaseRequest, LeaseStore, installed_lease_status};
    /// # struct Table;
    /// # impl LeaseStore for Table {
    /// #     type Error = std::io::Error;
    /// #     fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
    /// #     fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> { Ok(true) }
    /// #     fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> { Ok(()) }
    /// #     fn database_time(&mut self, _: std::time::Duration) -> Result<i64, Self::Error> { Ok(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as i64) }
    /// # }
    /// ScalabilityIdLease::acquire(Table, LeaseOptions::new("jobs"))?.install_default()?;
    /// let id = ulid_flake_core::UlidFlake::generate()?;
    /// assert_eq!(Some(id.scalability_id()), installed_lease_status().unwrap().scalability_id);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn install_default(mut self) -> Result<(), LeaseError> {
        if self.shared.forked() {
            // The lease is the parent's: a default generator behind it would refuse every ID.
            return Err(LeaseError::Forked);
        }
        // Kept until the process exits: the default generator can never outlive its lease.
        let shared: &'static Shared<SystemClock> = Box::leak(Box::new(Arc::clone(&self.shared)));
        if let Err(error) = install_leased(&shared.generator) {
            // Given up before the error returns, as it says: a process that exits on it would
            // otherwise leave the row held for the whole validity. A failed release is the
            // status's; the row expires on its own.
            let thread = self.thread.take();
            let _ = release(&self.shared, thread);
            return Err(LeaseError::Install(error));
        }
        // Only the first install reaches this point: the default is set once. The thread runs
        // on, until the process exits or `release_installed_lease`, which finds both set
        // together (it takes this lock first).
        let mut thread = INSTALLED_THREAD
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *thread = self.thread.take();
        let _ = INSTALLED.set(shared);
        drop(thread);
        core::mem::forget(self);
        Ok(())
    }
}

impl<C: LeaseClock> Drop for ScalabilityIdLease<C> {
    fn drop(&mut self) {
        self.shared.stop();
        // Bounded, unlike `release`: a drop on the way out of a function must not hang on a
        // stalled database (which Diesel's connections cannot bound).
        self.shared.wait_finished();
    }
}

impl<C: LeaseClock> fmt::Debug for ScalabilityIdLease<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScalabilityIdLease")
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

/// The lease behind the process-wide default generator, if one was installed.
static INSTALLED: OnceLock<&'static Shared<SystemClock>> = OnceLock::new();

/// The installed lease's thread, until [`release_installed_lease`] joins it.
static INSTALLED_THREAD: std::sync::Mutex<Option<JoinHandle<()>>> = std::sync::Mutex::new(None);

/// Gives up the lease that [`ScalabilityIdLease::install_default`] installed, for a graceful
/// shutdown (on `SIGTERM`, once the last request is served): the default generator stops
/// issuing IDs ([`Error::LeaseNotValid`]), and the id expires after the margin rather than
/// the whole validity, so that the replica that replaces this one can take it soon.
/// Returns once the release was sent (a second call waits for the first); nothing to do
/// when no lease was installed, or it was released already.
///
/// It blocks the calling thread until the lease's thread has sent the release (a round trip
/// to the database, tried again after a failure, as [`ScalabilityIdLease::release`] says): in
/// async code, call it from `tokio::task::spawn_blocking`, as the web example does
/// (`examples/web-axum/src/main.rs`).
///
/// # Errors
///
/// As [`ScalabilityIdLease::release`].
///
/// ```
/// // In a process without an installed lease:
/// assert!(ulid_flake_core::lease::release_installed_lease().is_ok());
/// ```
pub fn release_installed_lease() -> Result<(), LeaseError> {
    let Some(shared) = INSTALLED.get() else {
        return Ok(());
    };
    // Held until the release is sent, so that a second call waits for the first. The install
    // sets the lease while holding it, so the thread is set too. In a forked child, the lease
    // is the parent's, and the lock may be held for good, by a thread of the parent that was
    // releasing it at the fork.
    match driver::lock_by_trying(&INSTALLED_THREAD, || shared.forked()) {
        Some(mut thread) if !shared.forked() => release(shared, thread.take()),
        _ => release(shared, None),
    }
}

/// The status of the lease that [`ScalabilityIdLease::install_default`] installed, for health
/// checks; `None` when the default generator is not leased.
///
/// ```
/// // In a process without an installed lease:
/// assert_eq!(ulid_flake_core::lease::installed_lease_status(), None);
/// ```
pub fn installed_lease_status() -> Option<LeaseStatus> {
    INSTALLED.get().map(|shared| shared.status())
}
