//! The lease's state machine: acquire, confirm, expire, fail closed, re-acquire. It runs on
//! the lease's thread; each [`Driver::step`] makes at most one round of database calls and
//! says how long to wait before the next, so tests drive it step by step on a scripted clock.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::ops::{Deref, DerefMut, RangeInclusive};
use core::sync::atomic::{AtomicBool, Ordering, fence};
use core::time::Duration;
use std::sync::{Mutex, MutexGuard, OnceLock, TryLockError};
use std::thread::Thread;
use std::time::{Instant, UNIX_EPOCH};

use super::{
    LeaseClock, LeaseError, LeaseRequest, LeaseState, LeaseStatus, LeaseStore, LeaseTiming,
};
use crate::generator::{Clock, Generator, RandomSource, ThreadRandom};

/// A `tracing` event of the lease's, unless this is a forked child: a subscriber may write
/// under a lock (stderr's, as `tracing-subscriber`'s `fmt` does) that a thread of the parent
/// held at the fork, and the child would wait for it for good.
macro_rules! lease_event {
    ($shared:expr, $level:ident, $($field:tt)*) => {
        #[cfg(feature = "tracing01")]
        if !$shared.forked() {
            tracing::$level!(target: "ulid_flake::lease", namespace = %$shared.namespace, $($field)*);
        }
    };
}

/// What the lease's thread and its handle share.
pub(crate) struct Shared<C> {
    pub(crate) generator: Generator<C>,
    namespace: String,
    ids: RangeInclusive<u8>,
    timing: LeaseTiming,
    /// This lease's token in the `holder` column.
    holder: i64,
    /// The fork count when the acquisition began, before anything else (the token drawn
    /// included): a child forked at any moment after sees another.
    forks_at_start: u64,
    record: Mutex<Record>,
    stopping: AtomicBool,
    /// Set by the lease's thread once it has given the id up (or failed to).
    finished: AtomicBool,
    /// The lease's thread, unparked when stopping. The waits park rather than wait on a
    /// condition variable: waking from one takes its lock again, which a child forked from
    /// a signal handler on the lease's thread would never get if another thread of the
    /// parent held it at the fork.
    lease_thread: OnceLock<Thread>,
    /// The thread a drop waits in for the lease's thread to finish, unparked then.
    finish_waiter: OnceLock<Thread>,
}

/// The status record, locked; or, in a forked child whose copy of the lock a thread of the
/// parent held at the fork (a thread that does not exist here), a scratch record that no one
/// reads: the child's status is [`LeaseState::Forked`] without it.
enum RecordGuard<'a> {
    Locked(MutexGuard<'a, Record>),
    Scratch(Record),
}

impl Deref for RecordGuard<'_> {
    type Target = Record;

    fn deref(&self) -> &Record {
        match self {
            Self::Locked(record) => record,
            Self::Scratch(record) => record,
        }
    }
}

impl DerefMut for RecordGuard<'_> {
    fn deref_mut(&mut self) -> &mut Record {
        match self {
            Self::Locked(record) => record,
            Self::Scratch(record) => record,
        }
    }
}

/// What the status reports, as the driver last left it.
#[derive(Default)]
struct Record {
    state: Option<LeaseState>,
    /// While [`LeaseState::Skewed`]: until when (monotonic) the row is known to be this
    /// lease's.
    skewed_until: Option<Duration>,
    scalability_id: Option<u8>,
    valid_until_unix_ms: Option<i64>,
    last_error: Option<String>,
    acquisitions: u64,
    losses: u64,
    release_error: Option<String>,
}

impl<C: LeaseClock> Shared<C> {
    pub(crate) fn new(
        generator: Generator<C>,
        namespace: String,
        ids: RangeInclusive<u8>,
        timing: LeaseTiming,
        forks_at_start: u64,
    ) -> Self {
        // Zero is the holder of the free rows this crate's earlier versions inserted; the
        // database generator's holds its id for good. From the thread's stream, which a
        // forked child reseeds before it draws, not from the bytes drawn ahead, which a child
        // forked from a signal handler during a draw may share with its parent: two holders
        // with one token would be one holder to the table. (A child forked during this draw
        // may have the parent's token, and calls the store with it never: `forks_at_start`
        // was taken before.)
        let holder = loop {
            let mut bytes = [0; 8];
            ThreadRandom.fill_bytes(&mut bytes);
            let token = i64::from_le_bytes(bytes);
            if token != 0 && token != crate::sql::DATABASE_GENERATOR_HOLDER {
                break token;
            }
        };
        Self {
            generator,
            namespace,
            ids,
            timing,
            holder,
            forks_at_start,
            record: Mutex::default(),
            stopping: AtomicBool::new(false),
            finished: AtomicBool::new(false),
            lease_thread: OnceLock::new(),
            finish_waiter: OnceLock::new(),
        }
    }

    /// Names the lease's thread, before anything can stop it.
    pub(crate) fn set_lease_thread(&self, thread: Thread) {
        let _ = self.lease_thread.set(thread);
    }

    /// The record, locked by [`lock_by_trying`]; in a forked child whose copy of the lock a
    /// thread of the parent held at the fork, a scratch record. Holders copy fields under it,
    /// and read no clock and emit no event there, so a try that fails is soon followed by one
    /// that succeeds.
    fn record(&self) -> RecordGuard<'_> {
        lock_by_trying(&self.record, || self.forked()).map_or_else(
            || RecordGuard::Scratch(Record::default()),
            RecordGuard::Locked,
        )
    }

    /// Whether this is a forked child of the process that made the lease: its copy of the
    /// record's lock may be held by a thread that does not exist here.
    pub(crate) fn forked(&self) -> bool {
        crate::generator::fork_count() != self.forks_at_start
    }

    pub(crate) fn status(&self) -> LeaseStatus {
        if self.forked() {
            return LeaseStatus {
                state: LeaseState::Forked,
                namespace: self.namespace.clone(),
                scalability_id: None,
                valid_until: None,
                last_error: None,
                acquisitions: 0,
                losses: 0,
            };
        }
        // The clocks first: the record's lock covers copies only (see `Shared::record`). The
        // gate under it: a confirmation opens the gate before it writes `Held`, so a `Held`
        // record read after the gate could meet the deadline before that confirmation.
        let gate = self.generator.lease_gate();
        let now = gate.now().unwrap_or(u64::MAX);
        let monotonic = self.generator.clock().monotonic();
        let record = self.record();
        let (deadline, _) = gate.state();
        let state = match record.state {
            // The deadline passed while the thread waits on the database: the generator has
            // stopped already, whatever the thread last wrote.
            Some(LeaseState::Held | LeaseState::Confirming) if now >= deadline => LeaseState::Lost,
            Some(LeaseState::Skewed)
                if record.skewed_until.is_none_or(|until| monotonic >= until) =>
            {
                LeaseState::Lost
            }
            Some(state) => state,
            None => LeaseState::Lost,
        };
        LeaseStatus {
            state,
            namespace: self.namespace.clone(),
            scalability_id: record.scalability_id,
            valid_until: record
                .valid_until_unix_ms
                .map(|unix_ms| UNIX_EPOCH + Duration::from_millis(unix_ms.max(0) as u64)),
            last_error: record.last_error.clone(),
            acquisitions: record.acquisitions,
            losses: record.losses,
        }
    }

    pub(crate) fn stop(&self) {
        self.generator.lease_gate().close();
        self.stopping.store(true, Ordering::Release);
        if self.forked() {
            // No lease thread here to wake.
            return;
        }
        // A wake before the thread parks is kept for its park: it cannot miss the flag
        // between checking it and parking.
        if let Some(thread) = self.lease_thread.get() {
            thread.unpark();
        }
    }

    /// Waits for the lease's thread to give the id up, at most one request timeout (a
    /// release's first attempt): what a dropped lease waits for (once). Nothing to wait for
    /// in a forked child.
    pub(crate) fn wait_finished(&self) {
        if self.forked() {
            return;
        }
        let until = Instant::now().checked_add(self.timing.request_timeout);
        let _ = self.finish_waiter.set(std::thread::current());
        // Between this thread's store of itself and its load of the flag, as `finish` between
        // its store of the flag and its load of the waiter: one of the two sees the other's.
        fence(Ordering::SeqCst);
        while !self.finished.load(Ordering::Acquire) {
            if self.forked() || !park_until(until) {
                return;
            }
        }
    }

    fn finish(&self) {
        self.finished.store(true, Ordering::Release);
        fence(Ordering::SeqCst);
        if let Some(waiter) = self.finish_waiter.get() {
            waiter.unpark();
        }
    }

    pub(crate) fn release_error(&self) -> Option<String> {
        self.record().release_error.clone()
    }

    /// Waits up to `duration`, or until stopped, on the lease's thread; true when stopped.
    /// A child forked (from a signal handler) during the wait leaves it at the end of the
    /// park in progress (see [`PARK_SLICE`]): there is no one to stop it.
    fn wait(&self, duration: Duration) -> bool {
        let until = Instant::now().checked_add(duration);
        loop {
            if self.stopping.load(Ordering::Acquire) {
                return true;
            }
            if self.forked() || !park_until(until) {
                return false;
            }
        }
    }
}

/// Locks `mutex` by trying, with a fork check between tries: a blocking lock would never
/// return in a child forked (from a signal handler) while another thread of the parent held
/// it, where this returns `None` once `forked` says so. The tries back off from yielding to
/// sleeps of up to a millisecond, so that a holder kept long costs the waiter little CPU.
pub(crate) fn lock_by_trying<T>(
    mutex: &Mutex<T>,
    forked: impl Fn() -> bool,
) -> Option<MutexGuard<'_, T>> {
    let mut tries = 0_u32;
    loop {
        match mutex.try_lock() {
            Ok(guard) => return Some(guard),
            Err(TryLockError::Poisoned(poisoned)) => return Some(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) if forked() => return None,
            Err(TryLockError::WouldBlock) if tries < YIELDS_BEFORE_SLEEPING => {
                std::thread::yield_now();
            }
            Err(TryLockError::WouldBlock) => {
                // 2 µs, doubling to 1,024 µs.
                let doublings = (tries - YIELDS_BEFORE_SLEEPING).min(9);
                std::thread::sleep(Duration::from_micros(2 << doublings));
            }
        }
        tries = tries.saturating_add(1);
    }
}

/// How many failed tries of [`lock_by_trying`] yield before they sleep.
const YIELDS_BEFORE_SLEEPING: u32 = 16;

/// The longest park: a signal does not end one (it resumes after the handler), so a child
/// forked from a signal handler during a wait sees the fork at the end of the park in
/// progress, not of the whole wait (a backoff of `retry_max`, say).
const PARK_SLICE: Duration = Duration::from_millis(100);

/// Parks this thread until `until`, an unpark or [`PARK_SLICE`], whichever comes first, and
/// says whether `until` was still ahead; `None` is a moment past what an `Instant` holds (a
/// duration near `Duration::MAX`).
fn park_until(until: Option<Instant>) -> bool {
    let left = match until {
        None => PARK_SLICE,
        Some(until) => match until.checked_duration_since(Instant::now()) {
            Some(left) if !left.is_zero() => left.min(PARK_SLICE),
            _ => return false,
        },
    };
    std::thread::park_timeout(left);
    true
}

/// Tells a drop waiting for the lease's thread that it has finished, when dropped in the
/// parent.
struct FinishOnExit<C: LeaseClock>(Arc<Shared<C>>);

impl<C: LeaseClock> Drop for FinishOnExit<C> {
    fn drop(&mut self) {
        if !self.0.forked() {
            self.0.finish();
        }
    }
}

/// How many times a release is sent before its error is reported.
const RELEASE_ATTEMPTS: u32 = 3;

/// One call of the store, unless this is a child forked since the lease began (from a
/// signal handler, or in a callback of the store or the clock): the row, the holder token and
/// the connection are the parent's, so a child calls the store no more, and does nothing with
/// the answer of a call it forked during. `None` then.
fn call<C: LeaseClock, S, T>(
    store: &mut S,
    shared: &Shared<C>,
    f: impl FnOnce(&mut S) -> T,
) -> Option<T> {
    (!shared.forked())
        .then(|| f(store))
        .filter(|_| !shared.forked())
}

/// The request for `scalability_id` on behalf of the lease `shared` describes.
fn request<C: Clock>(
    shared: &Shared<C>,
    scalability_id: u8,
    validity: Duration,
) -> LeaseRequest<'_> {
    LeaseRequest {
        namespace: &shared.namespace,
        scalability_id,
        holder: shared.holder,
        epoch: shared.generator.epoch(),
        margin: shared.timing.margin,
        validity,
        timeout: shared.timing.request_timeout,
    }
}

/// The id the lease holds, and until when on the monotonic clock.
#[derive(Clone, Copy, Debug)]
struct Held {
    scalability_id: u8,
    deadline: Duration,
}

/// The database's clock as last read: µs since the Unix epoch, and when (monotonic) the
/// answer came.
#[derive(Clone, Copy, Debug)]
struct DatabaseReading {
    at_us: i64,
    received: Duration,
}

/// A reading of both of the lease's clocks: the wall clock (Unix ms) first, then the
/// monotonic one, so that a pause between the two shortens what a deadline leaves, never
/// lengthens it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Reading {
    wall_unix_ms: i64,
    monotonic: Duration,
}

/// How this machine's wall clock compared with the database's, and the reading of the
/// clocks taken last in the comparison (what a confirmation counts from).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Clocks {
    /// Within the bound, whatever the round trip hid.
    Agree(Reading),
    /// Beyond the bound, whatever the round trip hid: `skew_ms` apart (this clock minus
    /// the database's, the middle of the interval the round trip allows).
    Apart { skew_ms: i64, reading: Reading },
    /// The round trip was too long to tell, or the wall clock stepped during it.
    Unknown { round_trip: Duration },
    /// Not asked: this is a child forked since the lease began (see [`call`]).
    Forked,
}

/// How far the wall clock's advance between the comparison's two readings may differ from
/// the monotonic clock's before the comparison counts as unknown: each millisecond reading
/// is up to 1 ms short, and the monotonic readings sit just outside the wall ones.
const STEP_TOLERANCE: Duration = Duration::from_millis(2);

/// How a step ended.
#[derive(Debug, PartialEq)]
pub(crate) enum Outcome {
    /// The lease is held (and confirmed, or still valid after a failed renewal).
    Held,
    /// Every id of the range is leased by others.
    AllTaken,
    /// The database failed; the error is in the record.
    Failed,
    /// The lease was lost (or an answer came too late); the next step acquires again.
    Lost,
}

pub(crate) struct Driver<S: LeaseStore, C> {
    store: S,
    shared: Arc<Shared<C>>,
    held: Option<Held>,
    /// The id held before a loss: tried first, since its row may still be this lease's.
    previous: Option<u8>,
    /// Failed attempts in a row, for the backoff.
    failures: u32,
    last_failure: Option<S::Error>,
    database_clock: Option<DatabaseReading>,
    /// An acquisition succeeded and no confirmation has counted its reading as the
    /// generator's floor yet (one found apart counts the reading of the confirmation that
    /// follows, when the clocks agree).
    floor_due: bool,
}

impl<S: LeaseStore, C: LeaseClock> Driver<S, C> {
    pub(crate) fn new(store: S, shared: Arc<Shared<C>>) -> Self {
        Self {
            store,
            shared,
            held: None,
            previous: None,
            failures: 0,
            last_failure: None,
            database_clock: None,
            floor_due: false,
        }
    }

    fn monotonic(&self) -> Duration {
        self.shared.generator.clock().monotonic()
    }

    /// The first acquisition, on the caller's thread: until an id is held, every id is taken,
    /// the database has refused the store for good ([`LeaseStore::is_refusal`]), or it has
    /// failed for the acquisition timeout.
    pub(crate) fn acquire_first(&mut self) -> Result<(), LeaseError> {
        let acquired = self.acquire_until_held();
        if acquired.is_err() {
            self.give_up_previous();
        }
        acquired
    }

    /// After a failed first acquisition: gives up the id a take may have left this lease's,
    /// in one attempt, so that it is not held for the whole validity for nothing (the row
    /// expires by itself if this fails too).
    fn give_up_previous(&mut self) {
        if let Some(scalability_id) = self.previous.take() {
            let grace = self.release_grace();
            // In a forked child, the id is the parent's to keep.
            let shared = &self.shared;
            let _ = call(&mut self.store, shared, |store| {
                store.release(&request(shared, scalability_id, grace))
            });
        }
    }

    fn acquire_until_held(&mut self) -> Result<(), LeaseError> {
        let started = self.monotonic();
        loop {
            let (outcome, wait) = self.step();
            // Forked before or during the step (from a signal handler, or in a callback of the
            // store or the clock): the row and its token are the parent's, which goes on with
            // them. Every call of the store checks too ([`call`]).
            if self.shared.forked() {
                return Err(LeaseError::Forked);
            }
            match outcome {
                Outcome::Held => return Ok(()),
                Outcome::AllTaken => {
                    // The database answered: an earlier failure is not the one to report.
                    self.last_failure = None;
                    let waited = self.monotonic().saturating_sub(started);
                    let Some(left) = self
                        .shared
                        .timing
                        .wait_for_free_id
                        .checked_sub(waited)
                        .filter(|left| !left.is_zero())
                    else {
                        return Err(LeaseError::AllTaken {
                            namespace: self.shared.namespace.clone(),
                            ids: self.shared.ids.clone(),
                            wait_for_free_id: self.shared.timing.wait_for_free_id,
                        });
                    };
                    // The last try comes at the end of the wait, not a backoff before it.
                    self.shared.generator.clock().sleep(wait.min(left));
                    continue;
                }
                Outcome::Failed | Outcome::Lost => {}
            }
            // Set by this step if it failed: an earlier refusal would have ended the loop.
            if let Some(refusal) = self
                .last_failure
                .take_if(|error| self.store.is_refusal(error))
            {
                return Err(LeaseError::Database(Box::new(refusal)));
            }
            let timing = &self.shared.timing;
            let limit = timing.acquire_timeout.max(timing.wait_for_free_id);
            if self.monotonic().saturating_sub(started) + wait > limit {
                let recorded = self.shared.record().last_error.clone();
                let error: Box<dyn core::error::Error + Send + Sync> =
                    match (self.last_failure.take(), recorded) {
                        (Some(error), _) => Box::new(error),
                        (None, Some(recorded)) => recorded.into(),
                        (None, None) => "the answers came too late to hold the lease".into(),
                    };
                return Err(LeaseError::Database(error));
            }
            self.shared.generator.clock().sleep(wait);
        }
    }

    /// The lease's thread, just after the first acquisition: steps until stopped, then gives
    /// the id up.
    pub(crate) fn run(mut self) {
        // However the thread ends, a panic in the store included, a drop waiting for it is
        // told (in the parent: no one waits in a forked child).
        let _finish = FinishOnExit(Arc::clone(&self.shared));
        let mut wait = self.shared.timing.renew_every;
        // Checked after every step and every wait, and after the shutdown: see below.
        let forked = loop {
            if self.shared.forked() {
                break true;
            }
            let stopping = self.shared.wait(wait);
            if self.shared.forked() {
                break true;
            }
            if stopping {
                self.shutdown();
                break self.shared.forked();
            }
            wait = self.step().1;
        };
        if forked {
            // This thread in a child forked from a signal handler (the child's one thread):
            // the row, its token and the connection are the parent's; it renews and releases
            // nothing, and leaves the store undropped, whose drop could end the parent's
            // session on the connection they share. It stops at the first check after the
            // fork; on the way it waits for no lock of the lease's that a thread of the parent
            // may have held at the fork (the waits park, the status record is locked by
            // trying) and emits no event.
            core::mem::forget(self);
        }
    }

    fn shutdown(&mut self) {
        let gate = self.shared.generator.lease_gate();
        gate.close_for_release();
        let mut release_error = None;
        // The id held, or the one a take may have left this lease's (it is tried first).
        let own = self
            .held
            .take()
            .map(|held| held.scalability_id)
            .or(self.previous);
        if let Some(scalability_id) = own {
            let grace = self.release_grace();
            // A release is one idempotent statement, so a failed one is sent again: InnoDB
            // picks a statement as a deadlock's victim and rolls it back, and a connection
            // may drop. Only the last error is reported; the row expires by itself anyway.
            for attempt in 1..=RELEASE_ATTEMPTS {
                let shared = &self.shared;
                match call(&mut self.store, shared, |store| {
                    store.release(&request(shared, scalability_id, grace))
                }) {
                    Some(Ok(())) => {
                        release_error = None;
                        break;
                    }
                    Some(Err(error)) => release_error = Some(error.to_string()),
                    // Forked (from a signal handler) during the release: the parent's to end.
                    None => return,
                }
                if attempt < RELEASE_ATTEMPTS {
                    self.shared
                        .generator
                        .clock()
                        .sleep(self.shared.timing.retry_min);
                }
            }
        }
        let mut record = self.shared.record();
        record.state = Some(LeaseState::Released);
        record.valid_until_unix_ms = None;
        record.release_error = release_error;
        drop(record);
        lease_event!(self.shared, info, "scalability-id lease released");
    }

    /// One round: renew the lease held, or try to acquire one. Returns how it ended and how
    /// long to wait before the next round.
    pub(crate) fn step(&mut self) -> (Outcome, Duration) {
        match self.held {
            Some(held) => self.renew(held),
            None => self.acquire(),
        }
    }

    fn renew(&mut self, held: Held) -> (Outcome, Duration) {
        if self.monotonic() >= held.deadline {
            self.lose(held, "not confirmed before its validity ran out");
            return (Outcome::Lost, Duration::ZERO);
        }
        let sent = self.monotonic();
        let validity = self.shared.timing.validity;
        let shared = &self.shared;
        let renewed = call(&mut self.store, shared, |store| {
            store.renew(&request(shared, held.scalability_id, validity))
        });
        // A child forked before or during the call (on this thread, from a signal handler):
        // nothing more, not even the status's record, whose lock another thread of the parent
        // may have held at the fork (see `run`).
        let Some(renewed) = renewed else {
            return (Outcome::Failed, Duration::ZERO);
        };
        match renewed {
            Ok(true) => match self.compare_clocks() {
                Ok(Clocks::Forked) => (Outcome::Failed, Duration::ZERO),
                Ok(Clocks::Agree(reading)) => self.renewed(held, sent, reading),
                Ok(Clocks::Apart { skew_ms, reading }) => {
                    self.hold_apart(held.scalability_id, sent, skew_ms, reading)
                }
                Ok(Clocks::Unknown { round_trip }) => {
                    self.clocks_unknown(round_trip, "renewal");
                    let left = held.deadline.saturating_sub(self.monotonic());
                    (Outcome::Held, self.backoff().min(left))
                }
                Err(error) => self.renewal_failed(held, error),
            },
            Ok(false) => {
                self.lose(
                    held,
                    "renewal refused: the lease expired or another holder took it",
                );
                (Outcome::Lost, Duration::ZERO)
            }
            Err(error) => self.renewal_failed(held, error),
        }
    }

    /// A renewal the database granted, with the clocks agreeing.
    fn renewed(&mut self, held: Held, sent: Duration, reading: Reading) -> (Outcome, Duration) {
        if self.confirm(held.scalability_id, sent, reading) {
            self.failures = 0;
            // The status's error is the last failure since the lease was confirmed.
            self.shared.record().last_error = None;
            (Outcome::Held, self.shared.timing.renew_every)
        } else {
            self.lose(held, "the renewal's answer came after the validity ran out");
            (Outcome::Lost, Duration::ZERO)
        }
    }

    /// A renewal (or the clock reading after it) failed: the deadline stands, and the next
    /// attempt comes after the backoff, never after the deadline.
    fn renewal_failed(&mut self, held: Held, error: S::Error) -> (Outcome, Duration) {
        lease_event!(self.shared, warn, scalability_id = held.scalability_id, %error, "scalability-id lease renewal failed");
        let state = match self.shared.record().state {
            Some(LeaseState::Skewed) => LeaseState::Skewed,
            _ => LeaseState::Confirming,
        };
        self.fail(error, Some(state));
        let left = held.deadline.saturating_sub(self.monotonic());
        (Outcome::Held, self.backoff().min(left))
    }

    fn acquire(&mut self) -> (Outcome, Duration) {
        for scalability_id in self.candidates() {
            let sent = self.monotonic();
            let validity = self.shared.timing.validity;
            let request = request(&self.shared, scalability_id, validity);
            // The id held before may still be this lease's own: renewing it is the only way
            // to have it back before its row expires.
            let shared = &self.shared;
            let store = &mut self.store;
            let result = if self.previous == Some(scalability_id) {
                match call(store, shared, |store| store.renew(&request)) {
                    Some(Ok(false)) => call(store, shared, |store| store.take(&request)),
                    other => other,
                }
            } else {
                call(store, shared, |store| store.take(&request))
            };
            // A child forked before or during a call: no further call (see
            // `acquire_until_held`).
            let Some(result) = result else {
                return (Outcome::Failed, Duration::ZERO);
            };
            let clocks = match result {
                Ok(true) => {
                    self.floor_due = true;
                    Some(self.compare_clocks())
                }
                _ => None,
            };
            match (result, clocks) {
                (Ok(true), Some(Ok(Clocks::Forked))) => return (Outcome::Failed, Duration::ZERO),
                (Ok(true), Some(Ok(Clocks::Apart { skew_ms, reading }))) => {
                    let outcome = self.hold_apart(scalability_id, sent, skew_ms, reading);
                    if outcome.0 == Outcome::Held {
                        self.acquired(scalability_id);
                    }
                    return outcome;
                }
                // Taken, but the clocks could not be compared: the row is this lease's, and
                // is tried first next time, by renewal.
                (Ok(true), Some(Ok(Clocks::Unknown { round_trip }))) => {
                    self.previous = Some(scalability_id);
                    self.clocks_unknown(round_trip, "take");
                    return (Outcome::Failed, self.backoff());
                }
                (Ok(true), Some(Err(error))) => {
                    self.previous = Some(scalability_id);
                    self.fail(error, None);
                    return (Outcome::Failed, self.backoff());
                }
                (Ok(true), Some(Ok(Clocks::Agree(reading))))
                    if self.confirm(scalability_id, sent, reading) =>
                {
                    self.acquired(scalability_id);
                    return (Outcome::Held, self.shared.timing.renew_every);
                }
                // Taken, but the answer came too late to use: the row expires on its own, and
                // is tried first next time, by renewal (it is this lease's own).
                (Ok(true), _) => {
                    self.previous = Some(scalability_id);
                    self.failures += 1;
                    self.shared.record().last_error =
                        Some("the acquisition's answer came after its validity ran out".into());
                    return (Outcome::Lost, self.backoff());
                }
                (Ok(false), _) => {}
                (Err(error), _) => {
                    // The take may have committed before the error: try that id first, by
                    // renewal, next time.
                    self.previous = Some(scalability_id);
                    self.fail(error, None);
                    return (Outcome::Failed, self.backoff());
                }
            }
        }
        self.failures += 1;
        let ids = &self.shared.ids;
        self.shared.record().last_error = Some(std::format!(
            "all scalability ids {ids:?} of the namespace are leased by other holders"
        ));
        (Outcome::AllTaken, self.backoff())
    }

    /// The ids to try: the one held before, then the range from a random offset, so that
    /// replicas starting together mostly ask for different ids first.
    fn candidates(&self) -> Vec<u8> {
        let (first, last) = (*self.shared.ids.start(), *self.shared.ids.end());
        let count = u32::from(last - first) + 1;
        let offset = ThreadRandom.next_u32() % count;
        // Below 32: the casts are lossless.
        let ids = (0..count).map(|step| first + ((offset + step) % count) as u8);
        self.previous
            .into_iter()
            .chain(ids.filter(|&id| Some(id) != self.previous))
            .collect()
    }

    /// Opens the gate after the database granted `scalability_id` for a call sent at `sent`:
    /// until `sent + W·(1 − ρ) − m`, as a millisecond of the generator's clock. False when
    /// that moment has passed already.
    fn confirm(&mut self, scalability_id: u8, sent: Duration, reading: Reading) -> bool {
        let deadline = sent + self.shared.timing.usable_validity();
        let gate = self.shared.generator.lease_gate();
        // The wall clock as the comparison with the database's found it: a clock outside the
        // epoch's range can stamp no ID, so stay closed.
        let Some((timestamp, gate_deadline)) = self.gate_deadline(deadline, reading) else {
            return false;
        };
        // Every id the lease moves to comes from a take (or the renewal of a row it had),
        // which sets `floor_due`.
        if self.floor_due {
            // IDs under this id start from the reading the clocks agreed at: not in a
            // millisecond stamped before the id was this lease's, nor in one before the
            // reading if the wall clock steps back before the next renewal compares it.
            gate.leave_milliseconds_before(timestamp);
            self.floor_due = false;
        }
        gate.open(scalability_id, gate_deadline);
        // Checked after the gate opened, so that a fork at any moment before is seen: a
        // child's generator closes the gate for good when it sees the fork, and a confirmation
        // in the child (whose one thread is this one) must not open it again.
        if self.shared.forked() {
            gate.close();
            return false;
        }
        self.held = Some(Held {
            scalability_id,
            deadline,
        });
        let mut record = self.shared.record();
        let was_skewed = record.state == Some(LeaseState::Skewed);
        record.state = Some(LeaseState::Held);
        record.skewed_until = None;
        record.scalability_id = Some(scalability_id);
        record.valid_until_unix_ms =
            Some((self.shared.generator.epoch().unix_ms() + gate_deadline) as i64);
        drop(record);
        if was_skewed {
            lease_event!(
                self.shared,
                info,
                scalability_id,
                "wall clock agrees with the database's again: issuing IDs"
            );
        }
        true
    }

    /// The millisecond (since the epoch) `reading` was taken in, and the gate's deadline
    /// for a validity that ends at `deadline` on the monotonic clock: `None` when that has
    /// passed, or the wall clock is outside the epoch's range.
    fn gate_deadline(&self, deadline: Duration, reading: Reading) -> Option<(u64, u64)> {
        let timestamp = self
            .shared
            .generator
            .epoch()
            .ms_since_epoch_at(reading.wall_unix_ms)
            .ok()?;
        let left = deadline
            .checked_sub(reading.monotonic)
            .filter(|left| !left.is_zero())?;
        // Rounded down: the last millisecond allowed ends no later than the deadline.
        Some((timestamp, timestamp + left.as_millis() as u64))
    }

    /// Reads the wall clock, then the monotonic one.
    pub(crate) fn read_clocks(&self) -> Reading {
        let wall_unix_ms = self.shared.generator.clock().unix_ms();
        Reading {
            wall_unix_ms,
            monotonic: self.monotonic(),
        }
    }

    /// Reads the database's clock and compares this machine's wall clock with it. The
    /// database read its clock between the two readings here, so the difference lies in an
    /// interval as wide as the round trip; the clocks agree when all of it is within the
    /// bound, and are apart when none of it is. A wall clock that advanced by more, or less,
    /// than the monotonic one between the two readings stepped: nothing can be told.
    fn compare_clocks(&mut self) -> Result<Clocks, S::Error> {
        let clock = self.shared.generator.clock();
        let asked = self.monotonic();
        let before_ms = clock.unix_ms();
        let timeout = self.shared.timing.request_timeout;
        // Forked before or during the reading: nothing more (see `run`).
        let Some(at_us) = call(&mut self.store, &self.shared, |store| {
            store.database_time(timeout)
        }) else {
            return Ok(Clocks::Forked);
        };
        let at_us = at_us?;
        let reading = self.read_clocks();
        let (after_ms, received) = (reading.wall_unix_ms, reading.monotonic);
        self.database_clock = Some(DatabaseReading { at_us, received });
        let round_trip = received.saturating_sub(asked);
        let wall_advance_us = after_ms.saturating_sub(before_ms).saturating_mul(1000);
        let monotonic_advance_us = round_trip.as_micros() as i64;
        if wall_advance_us.abs_diff(monotonic_advance_us) > STEP_TOLERANCE.as_micros() as u64 {
            return Ok(Clocks::Unknown { round_trip });
        }
        let bound = self.skew_bound().as_micros() as i64;
        // This clock minus the database's, in µs; a millisecond reading is up to 1 ms short.
        let low = before_ms.saturating_mul(1000).saturating_sub(at_us);
        let high = after_ms
            .saturating_add(1)
            .saturating_mul(1000)
            .saturating_sub(at_us);
        Ok(if low >= -bound && high <= bound {
            Clocks::Agree(reading)
        } else if low > bound || high < -bound {
            Clocks::Apart {
                skew_ms: (low / 2 + high / 2).div_euclid(1000),
                reading,
            }
        } else {
            Clocks::Unknown { round_trip }
        })
    }

    /// *m*/2: each holder within it of the database's clock keeps any two holders within *m*
    /// of each other.
    fn skew_bound(&self) -> Duration {
        self.shared.timing.margin / 2
    }

    /// The database granted `scalability_id` for a call sent at `sent`, but this machine's
    /// wall clock is `skew_ms` from the database's: keeps the id (renewing it as usual) with
    /// the gate closed, so that no ID is stamped by a clock that may repeat another holder's
    /// milliseconds.
    fn hold_apart(
        &mut self,
        scalability_id: u8,
        sent: Duration,
        skew_ms: i64,
        reading: Reading,
    ) -> (Outcome, Duration) {
        let deadline = sent + self.shared.timing.usable_validity();
        let Some((_, would_be)) = self.gate_deadline(deadline, reading) else {
            match self.held {
                Some(held) => {
                    self.lose(held, "the renewal's answer came after the validity ran out");
                }
                // Taken, too late to use: tried first next time, by renewal.
                None => self.previous = Some(scalability_id),
            }
            return (Outcome::Lost, Duration::ZERO);
        };
        let bound_ms = self.skew_bound().as_millis() as u64;
        self.shared.generator.lease_gate().close_skewed(
            scalability_id,
            skew_ms,
            bound_ms,
            would_be,
        );
        self.held = Some(Held {
            scalability_id,
            deadline,
        });
        self.failures = 0;
        let error = crate::error::Error::ClockSkew {
            scalability_id,
            skew_ms,
            bound_ms,
        };
        let mut record = self.shared.record();
        record.state = Some(LeaseState::Skewed);
        record.skewed_until = Some(deadline);
        record.scalability_id = Some(scalability_id);
        record.valid_until_unix_ms = None;
        record.last_error = Some(error.to_string());
        drop(record);
        lease_event!(
            self.shared,
            error,
            scalability_id,
            skew_ms,
            bound_ms,
            "wall clock too far from the database's: no IDs until they agree"
        );
        (Outcome::Held, self.shared.timing.renew_every)
    }

    /// The clocks could not be compared after a `call` the database granted: it extends
    /// nothing, and the deadline stands.
    fn clocks_unknown(&mut self, round_trip: Duration, call: &str) {
        self.failures += 1;
        let bound = self.skew_bound();
        let message = std::format!(
            "the database's clock came back after a round trip of {round_trip:?}, too long to \
             compare this machine's wall clock with it within ±{bound:?}: the {call} extends \
             nothing"
        );
        lease_event!(self.shared, warn, %message, "scalability-id lease not extended");
        let mut record = self.shared.record();
        if record.state == Some(LeaseState::Held) {
            record.state = Some(LeaseState::Confirming);
        }
        record.last_error = Some(message);
    }

    /// How long a released row stays this lease's: the margin, and however far its last ID
    /// was stamped ahead of the database's clock.
    fn release_grace(&self) -> Duration {
        self.shared.timing.margin + Duration::from_millis(self.ahead_ms())
    }

    /// How far past the database's clock, now, the generator stamped its last ID, in ms (0
    /// when not past it): the release's grace adds it to the margin, so that the next holder
    /// (whose clock agrees with the database's) stamps no millisecond this one did. The
    /// database's clock now is its last reading plus the monotonic time since, which a wall
    /// clock that stepped ahead before a renewal found it apart does not move; with no
    /// reading, this machine's wall clock (IDs stamped ahead of it after a rollback).
    fn ahead_ms(&self) -> u64 {
        let gate = self.shared.generator.lease_gate();
        let Some(last) = gate.last_ms() else {
            return 0;
        };
        let Some(reading) = self.database_clock else {
            return gate.now().map_or(0, |now| last.saturating_sub(now));
        };
        let since = self
            .monotonic()
            .saturating_sub(reading.received)
            .mul_f64(1.0 - self.shared.timing.max_drift);
        let database_now_ms = reading.at_us / 1000 + since.as_millis() as i64;
        let last_unix_ms = (self.shared.generator.epoch().unix_ms() + last) as i64;
        last_unix_ms.saturating_sub(database_now_ms).max(0) as u64
    }

    fn acquired(&mut self, scalability_id: u8) {
        self.failures = 0;
        self.previous = None;
        let mut record = self.shared.record();
        debug_assert_eq!(
            record.scalability_id,
            Some(scalability_id),
            "set by confirm"
        );
        record.acquisitions += 1;
        // A take found apart keeps its error: the lease issues no ID.
        if record.state == Some(LeaseState::Held) {
            record.last_error = None;
        }
        #[cfg(feature = "tracing01")]
        let acquisitions = record.acquisitions;
        drop(record);
        lease_event!(
            self.shared,
            info,
            scalability_id,
            acquisitions,
            "scalability-id lease acquired"
        );
    }

    fn lose(&mut self, held: Held, reason: &str) {
        self.shared.generator.lease_gate().close_lost();
        self.held = None;
        self.previous = Some(held.scalability_id);
        let mut record = self.shared.record();
        record.state = Some(LeaseState::Lost);
        record.losses += 1;
        record.last_error = Some(reason.into());
        drop(record);
        lease_event!(
            self.shared,
            error,
            scalability_id = held.scalability_id,
            reason,
            "scalability-id lease lost: no IDs until it is acquired again"
        );
    }

    fn fail(&mut self, error: S::Error, state: Option<LeaseState>) {
        self.failures += 1;
        let message = error.to_string();
        let mut record = self.shared.record();
        record.last_error = Some(message);
        if state.is_some() {
            record.state = state;
        }
        drop(record);
        self.last_failure = Some(error);
    }

    /// `retry_min · 2^(failures − 1)`, at most `retry_max`, less up to a quarter at random so
    /// that replicas that failed together do not retry together.
    fn backoff(&self) -> Duration {
        let timing = &self.shared.timing;
        let doubled = timing
            .retry_min
            .saturating_mul(1 << self.failures.saturating_sub(1).min(16));
        let wait = doubled.min(timing.retry_max);
        let jitter = f64::from(ThreadRandom.next_u32() % 1024) / 4096.0;
        wait.mul_f64(1.0 - jitter)
    }
}

#[cfg(test)]
mod tests;
