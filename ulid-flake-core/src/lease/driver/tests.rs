//! Every transition of the lease, on a scripted clock and a table that follows the SQL's
//! rules (take only when expired, renew only while valid and one's own) by the database's
//! clock — here the same scripted clock, so each test states exactly when things happen.

use core::sync::atomic::{AtomicI64, AtomicU64};
use std::format;

use super::*;
use crate::epoch::Epoch;
use crate::generator::Clock;

/// The moment the tests start: 1,000 s after the default epoch.
const START_UNIX_MS: i64 = 1_704_067_200_000 + 1_000_000;

/// Wall and monotonic time that only the test moves, together.
#[derive(Clone, Debug, Default)]
struct ScriptedClock(Arc<ClockState>);

#[derive(Debug, Default)]
struct ClockState {
    /// Microseconds since the test started.
    elapsed_us: AtomicU64,
    /// Microseconds the next monotonic read finds passed first (a pause before it).
    pause_before_monotonic_us: AtomicU64,
    /// How far the wall clock is off (a step), in ms.
    wall_offset_ms: AtomicI64,
}

impl ScriptedClock {
    fn advance(&self, duration: Duration) {
        self.0
            .elapsed_us
            .fetch_add(duration.as_micros() as u64, Ordering::SeqCst);
    }

    fn step_wall(&self, by_ms: i64) {
        self.0.wall_offset_ms.fetch_add(by_ms, Ordering::SeqCst);
    }

    fn elapsed(&self) -> Duration {
        Duration::from_micros(self.0.elapsed_us.load(Ordering::SeqCst))
    }

    /// The database's clock: true time, in µs since the Unix epoch.
    fn db_now_us(&self) -> i64 {
        START_UNIX_MS * 1000 + self.elapsed().as_micros() as i64
    }
}

impl Clock for ScriptedClock {
    fn unix_ms(&self) -> i64 {
        START_UNIX_MS
            + self.elapsed().as_millis() as i64
            + self.0.wall_offset_ms.load(Ordering::SeqCst)
    }
}

impl LeaseClock for ScriptedClock {
    fn monotonic(&self) -> Duration {
        let pause = self.0.pause_before_monotonic_us.swap(0, Ordering::SeqCst);
        self.advance(Duration::from_micros(pause));
        self.elapsed()
    }

    fn sleep(&self, duration: Duration) {
        self.advance(duration);
    }
}

/// One row of the lease table; the default stands for a missing row.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Row {
    holder: i64,
    holder_epoch_ms: i64,
    holder_margin_us: i64,
    expires_at_us: i64,
}

impl Row {
    /// Whether `request` may take the row at `now`, as `Dialect::take_expired` decides.
    fn free_for(&self, request: &LeaseRequest<'_>, now: i64) -> bool {
        if *self == Self::default() {
            return true;
        }
        let later_by_us = (request.epoch_ms() - self.holder_epoch_ms) * 1000
            + (request.margin_us() - self.holder_margin_us) / 2;
        self.expires_at_us < now - later_by_us.max(0)
    }
}

/// What the next call to the table does.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// Fails at once.
    Error,
    /// Fails at once, refused for good ([`LeaseStore::is_refusal`]).
    Refused,
    /// Runs on the database after `before`, and its answer arrives `after` later.
    Slow { before: Duration, after: Duration },
    /// Runs on the database at once; the holder's wall clock then steps by `by_ms`, and the
    /// answer arrives `after` later.
    StepWall { by_ms: i64, after: Duration },
}

#[derive(Default)]
struct TableState {
    rows: [Row; 32],
    faults: Vec<Fault>,
    calls: Vec<&'static str>,
}

/// The lease table, shared by every holder of a test.
#[derive(Clone)]
struct Table {
    clock: ScriptedClock,
    state: Arc<Mutex<TableState>>,
}

impl Table {
    fn new(clock: &ScriptedClock) -> Self {
        Self {
            clock: clock.clone(),
            state: Arc::default(),
        }
    }

    fn state(&self) -> MutexGuard<'_, TableState> {
        self.state.lock().unwrap()
    }

    fn fault_next(&self, fault: Fault) {
        self.state().faults.push(fault);
    }

    fn row(&self, id: u8) -> Row {
        self.state().rows[usize::from(id)]
    }

    /// Runs `statement` on the row of `request`'s id at the database's time.
    fn call(
        &mut self,
        name: &'static str,
        request: &LeaseRequest<'_>,
        statement: impl FnOnce(&mut Row, i64) -> bool,
    ) -> Result<bool, std::io::Error> {
        let id = usize::from(request.scalability_id);
        self.run(name, |state, now| statement(&mut state.rows[id], now))
    }

    /// Runs `statement` at the database's time, with the next fault, if any.
    fn run<T>(
        &mut self,
        name: &'static str,
        statement: impl FnOnce(&mut TableState, i64) -> T,
    ) -> Result<T, std::io::Error> {
        let fault = {
            let mut state = self.state();
            state.calls.push(name);
            (!state.faults.is_empty()).then(|| state.faults.remove(0))
        };
        let (before, after) = match fault {
            Some(Fault::Error) => return Err(std::io::Error::other("connection reset")),
            Some(Fault::Refused) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    "permission denied for table ulid_flake_leases",
                ));
            }
            Some(Fault::Slow { before, after }) => (before, after),
            Some(Fault::StepWall { by_ms, after }) => {
                self.clock.step_wall(by_ms);
                (Duration::ZERO, after)
            }
            None => (Duration::ZERO, Duration::ZERO),
        };
        self.clock.advance(before);
        let now = self.clock.db_now_us();
        let done = statement(&mut self.state(), now);
        self.clock.advance(after);
        Ok(done)
    }
}

impl LeaseStore for Table {
    type Error = std::io::Error;

    fn take(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        let (holder, validity) = (request.holder, request.validity_us());
        let (holder_epoch_ms, holder_margin_us) = (request.epoch_ms(), request.margin_us());
        self.call("take", request, |row, now| {
            let free = row.free_for(request, now);
            if free {
                *row = Row {
                    holder,
                    holder_epoch_ms,
                    holder_margin_us,
                    expires_at_us: now + validity,
                };
            }
            free
        })
    }

    fn renew(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        let (holder, validity) = (request.holder, request.validity_us());
        self.call("renew", request, |row, now| {
            let own = row.holder == holder && row.expires_at_us >= now;
            if own {
                // As the SQL: never lower.
                row.expires_at_us = row.expires_at_us.max(now + validity);
            }
            own
        })
    }

    fn release(&mut self, request: &LeaseRequest<'_>) -> Result<(), Self::Error> {
        let (holder, grace) = (request.holder, request.validity_us());
        self.call("release", request, |row, now| {
            if row.holder == holder {
                row.expires_at_us = row.expires_at_us.min(now + grace);
            }
            true
        })
        .map(drop)
    }

    fn database_time(&mut self, _: Duration) -> Result<i64, Self::Error> {
        self.run("time", |_, now| now)
    }

    fn is_refusal(&self, error: &Self::Error) -> bool {
        error.kind() == std::io::ErrorKind::PermissionDenied
    }
}

/// 2 s validity, renewed every 400 ms, 200 ms margin, ρ = 10⁻³: usable for 1,798 ms.
fn timing() -> LeaseTiming {
    LeaseTiming {
        validity: Duration::from_secs(2),
        renew_every: Duration::from_millis(400),
        margin: Duration::from_millis(200),
        max_drift: 1e-3,
        request_timeout: Duration::from_millis(300),
        retry_min: Duration::from_millis(50),
        retry_max: Duration::from_millis(400),
        acquire_timeout: Duration::from_secs(1),
        wait_for_free_id: Duration::ZERO,
    }
}

/// A driver leasing from `table` in ids `ids`, as `ScalabilityIdLease::acquire` builds it.
fn driver<C: Clock + LeaseClock + Clone>(
    clock: &C,
    table: &Table,
    ids: RangeInclusive<u8>,
) -> Driver<Table, C> {
    driver_with(clock, table, ids, Epoch::DEFAULT, timing())
}

/// [`driver`] with a generator of `epoch`, and `timing`.
fn driver_with<C: Clock + LeaseClock + Clone>(
    clock: &C,
    table: &Table,
    ids: RangeInclusive<u8>,
    epoch: Epoch,
    timing: LeaseTiming,
) -> Driver<Table, C> {
    let generator = Generator::builder()
        .clock(clock.clone())
        .epoch(epoch)
        .build_leased(*ids.start())
        .unwrap();
    let shared = Arc::new(Shared::new(
        generator,
        "test".into(),
        ids,
        timing,
        crate::generator::fork_count(),
    ));
    Driver::new(table.clone(), shared)
}

/// The millisecond since the default epoch that `elapsed` after the start is.
fn ms_at(elapsed: Duration) -> u64 {
    (START_UNIX_MS - Epoch::DEFAULT.unix_ms() as i64) as u64 + elapsed.as_millis() as u64
}

/// Steps `driver` every 10 ms until it holds its id; returns how long that took.
fn step_until_held(driver: &mut Driver<Table, ScriptedClock>, clock: &ScriptedClock) -> Duration {
    let mut elapsed = Duration::ZERO;
    while driver.step().0 != Outcome::Held {
        clock.advance(Duration::from_millis(10));
        elapsed += Duration::from_millis(10);
    }
    elapsed
}

fn generate<C: Clock + LeaseClock>(
    driver: &Driver<Table, C>,
) -> Result<crate::ulid_flake::UlidFlake, crate::error::Error> {
    driver.shared.generator.try_generate()
}

#[test]
fn acquiring_opens_the_gate_until_the_send_time_plus_the_usable_validity() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 5..=5);
    assert_eq!(
        generate(&driver),
        Err(crate::error::Error::LeaseNotValid {
            scalability_id: 5,
            valid_until_unix_ms: None
        })
    );
    table.fault_next(Fault::Slow {
        before: Duration::from_millis(30),
        after: Duration::from_millis(70),
    });

    assert_eq!(driver.acquire_first().map_err(|e| e.to_string()), Ok(()));

    // Sent at 0: usable until 1,798 ms, whatever the answer's 100 ms of travel.
    assert_eq!(
        driver.shared.generator.lease_gate().state(),
        (ms_at(Duration::from_millis(1_798)), 5)
    );
    assert_eq!(table.row(5).expires_at_us, START_UNIX_MS * 1000 + 2_030_000);
    let id = generate(&driver).unwrap();
    assert_eq!(id.scalability_id(), 5);
    assert_eq!(id.ms_since_epoch(), ms_at(Duration::from_millis(100)));
    let status = driver.shared.status();
    assert_eq!(status.state, LeaseState::Held);
    assert_eq!(status.acquisitions, 1);
    assert_eq!(
        status.valid_until,
        Some(UNIX_EPOCH + Duration::from_millis(START_UNIX_MS as u64 + 1_798))
    );
}

#[test]
fn a_renewal_extends_the_deadline_from_its_send_time_not_its_answer() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 0..=0);
    driver.acquire_first().unwrap();
    clock.advance(Duration::from_millis(400));
    table.fault_next(Fault::Slow {
        before: Duration::from_millis(10),
        after: Duration::from_millis(500),
    });

    assert_eq!(driver.step(), (Outcome::Held, Duration::from_millis(400)));

    assert_eq!(
        driver.shared.generator.lease_gate().state().0,
        ms_at(Duration::from_millis(400 + 1_798))
    );
}

#[test]
fn failed_renewals_keep_issuing_until_the_deadline_then_fail_closed() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 3..=3);
    driver.acquire_first().unwrap();
    while clock.elapsed() < Duration::from_millis(1_700) {
        table.fault_next(Fault::Error);
        let (outcome, wait) = driver.step();
        assert_eq!(outcome, Outcome::Held);
        // Backoff: from retry_min (less a quarter of jitter) to retry_max, and never past the
        // deadline.
        let left = Duration::from_millis(1_798) - clock.elapsed();
        assert!(
            wait == left
                || (Duration::from_micros(37_500)..=Duration::from_millis(400)).contains(&wait),
            "waited {wait:?} with {left:?} left"
        );
        assert!(wait <= left);
        assert_eq!(driver.shared.status().state, LeaseState::Confirming);
        assert!(
            generate(&driver).is_ok(),
            "still valid at {:?}",
            clock.elapsed()
        );
        clock.advance(wait);
    }
    // The waits never overshoot the deadline, so the step at 1,798 ms notices it.
    clock.advance(Duration::from_millis(1_798) - clock.elapsed());

    assert_eq!(
        generate(&driver),
        Err(crate::error::Error::LeaseNotValid {
            scalability_id: 3,
            valid_until_unix_ms: Some(START_UNIX_MS + 1_798),
        })
    );
    assert_eq!(driver.shared.status().state, LeaseState::Lost);
    assert_eq!(driver.step().0, Outcome::Lost);
    let status = driver.shared.status();
    assert_eq!(status.losses, 1);
    assert_eq!(
        status.last_error.as_deref(),
        Some("not confirmed before its validity ran out")
    );
    // The gate is closed now, and a refused ID still says which id was lost, and since when.
    let refused = generate(&driver).unwrap_err();
    assert_eq!(
        refused,
        crate::error::Error::LeaseNotValid {
            scalability_id: 3,
            valid_until_unix_ms: Some(START_UNIX_MS + 1_798),
        }
    );
    assert_eq!(
        refused.to_string(),
        std::format!(
            "scalability-id lease not valid: expected a lease on id 3 confirmed until after \
             now, found it lost or unconfirmed since Unix ms {}",
            START_UNIX_MS + 1_798
        )
    );
}

#[test]
fn a_successful_renewal_clears_the_last_error() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 3..=3);
    driver.acquire_first().unwrap();
    clock.advance(Duration::from_millis(400));
    table.fault_next(Fault::Error);
    let (_, wait) = driver.step();
    let status = driver.shared.status();
    assert_eq!(status.state, LeaseState::Confirming);
    assert!(status.last_error.is_some());
    clock.advance(wait);

    assert_eq!(driver.step().0, Outcome::Held);

    let status = driver.shared.status();
    assert_eq!((status.state, status.last_error), (LeaseState::Held, None));
}

#[test]
fn a_refused_renewal_closes_the_gate_at_once() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 7..=7);
    driver.acquire_first().unwrap();
    // A stall longer than the validity: the row expires and another holder takes it.
    clock.advance(Duration::from_millis(2_100));
    let mut other = self::driver(&clock, &table, 7..=7);
    other.acquire_first().unwrap();
    assert!(generate(&driver).is_err(), "past the deadline already");

    assert_eq!(driver.step().0, Outcome::Lost);

    assert_eq!(driver.shared.generator.lease_gate().state().0, 0);
    assert_eq!(driver.shared.status().state, LeaseState::Lost);
}

#[test]
fn a_renewal_that_finds_its_row_taken_closes_the_gate_before_the_deadline() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 7..=7);
    driver.acquire_first().unwrap();
    clock.advance(Duration::from_millis(400));
    // Its row handed to another holder while its deadline is 1,398 ms ahead (an operator's
    // edit): only the renewal can tell.
    table.state().rows[7].holder += 1;
    assert!(generate(&driver).is_ok());
    // Acquired 1,798 ms (the usable validity) into the millisecond of the start.
    let open_before = ms_at(Duration::from_millis(1_798));
    let debug = format!("{:?}", driver.shared.generator);
    assert!(
        debug.contains(&format!("lease: OpenBeforeMsSinceEpoch({open_before})")),
        "{debug}"
    );

    assert_eq!(driver.step().0, Outcome::Lost);

    assert!(matches!(
        generate(&driver),
        Err(crate::error::Error::LeaseNotValid { .. })
    ));
    assert_eq!(driver.shared.generator.lease_gate().state().0, 0);
    let debug = format!("{:?}", driver.shared.generator);
    assert!(debug.contains("lease: Closed"), "{debug}");
}

#[test]
fn an_answer_after_the_validity_cannot_reopen_the_gate() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 1..=1);
    driver.acquire_first().unwrap();
    clock.advance(Duration::from_millis(400));
    // The renewal runs at once, but its answer arrives 2 s later (a paused holder).
    table.fault_next(Fault::Slow {
        before: Duration::ZERO,
        after: Duration::from_secs(2),
    });

    assert_eq!(driver.step().0, Outcome::Lost);

    assert!(generate(&driver).is_err());
    assert_eq!(
        driver.shared.status().last_error.as_deref(),
        Some("the renewal's answer came after the validity ran out")
    );
}

#[test]
fn after_a_loss_it_renews_its_old_id_first_and_resumes() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 0..=31);
    driver.acquire_first().unwrap();
    let held = driver.shared.status().scalability_id.unwrap();
    clock.advance(Duration::from_millis(1_800));
    assert_eq!(driver.step().0, Outcome::Lost);
    table.state().calls.clear();

    // Its row (valid until 2,000 ms) is still its own: renewed, not taken.
    assert_eq!(driver.step().0, Outcome::Held);

    assert_eq!(table.state().calls, ["renew", "time"]);
    let status = driver.shared.status();
    assert_eq!(
        (status.scalability_id, status.acquisitions, status.losses),
        (Some(held), 2, 1)
    );
    assert_eq!(generate(&driver).unwrap().scalability_id(), held);
}

#[test]
fn a_new_holder_starts_after_the_old_one_stopped() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut first = driver(&clock, &table, 9..=9);
    first.acquire_first().unwrap();
    let mut second = driver(&clock, &table, 9..=9);
    assert!(matches!(
        second.acquire_first(),
        Err(LeaseError::AllTaken { .. })
    ));
    let first_deadline = first.shared.generator.lease_gate().state().0;

    // Partitioned from the table, the first holder stops at its deadline; the second takes
    // the id once the table sees the row expire, 200 ms (the margin) later at the earliest.
    let elapsed = step_until_held(&mut second, &clock);

    assert_eq!(elapsed, Duration::from_millis(2_010));
    assert!(first_deadline + 200 <= ms_at(elapsed));
    assert_eq!(generate(&second).unwrap().ms_since_epoch(), ms_at(elapsed));
    assert!(generate(&first).is_err());
}

#[test]
fn a_successor_with_a_later_epoch_and_a_larger_margin_waits_until_its_ids_follow() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut first = driver(&clock, &table, 9..=9);
    first.acquire_first().unwrap();
    let last = generate(&first).unwrap();
    first.shared.stop();
    first.shutdown();
    // 300 ms later, with a margin 400 ms larger: its clock may be 200 ms further behind.
    let epoch = Epoch::from_unix_ms(Epoch::DEFAULT.unix_ms() + 300).unwrap();
    let margin = Duration::from_millis(600);
    let mut second = driver_with(
        &clock,
        &table,
        9..=9,
        epoch,
        LeaseTiming { margin, ..timing() },
    );

    // The release's grace (the first holder's 200 ms margin), then 300 ms + 400 ms / 2.
    let elapsed = step_until_held(&mut second, &clock);

    assert_eq!(elapsed, Duration::from_millis(710));
    let next = generate(&second).unwrap();
    assert!(next > last, "{next:?} after {last:?}");
    assert_eq!(next.ms_since_epoch(), last.ms_since_epoch() + 410);
    assert_eq!(
        (table.row(9).holder_epoch_ms, table.row(9).holder_margin_us),
        (epoch.unix_ms() as i64, 600_000)
    );
}

#[test]
fn a_successor_with_an_earlier_epoch_or_a_smaller_margin_waits_no_longer() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let epoch = Epoch::from_unix_ms(Epoch::DEFAULT.unix_ms() + 300).unwrap();
    let margin = Duration::from_millis(600);
    let mut first = driver_with(
        &clock,
        &table,
        9..=9,
        epoch,
        LeaseTiming { margin, ..timing() },
    );
    first.acquire_first().unwrap();
    let last = generate(&first).unwrap();
    first.shared.stop();
    first.shutdown();
    let mut second = driver(&clock, &table, 9..=9);

    // The release's grace alone: the first holder's 600 ms margin.
    let elapsed = step_until_held(&mut second, &clock);

    assert_eq!(elapsed, Duration::from_millis(610));
    let next = generate(&second).unwrap();
    assert_eq!(next.ms_since_epoch(), last.ms_since_epoch() + 300 + 610);
}

#[test]
fn every_id_taken_fails_the_first_acquisition_naming_the_range() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut holders: Vec<_> = (0..2).map(|_| driver(&clock, &table, 4..=5)).collect();
    for holder in &mut holders {
        holder.acquire_first().unwrap();
    }
    let mut third = driver(&clock, &table, 4..=5);

    let error = third.acquire_first().unwrap_err();

    assert_eq!(
        error.to_string(),
        "all scalability ids 4..=5 of lease namespace \"test\" are taken: expected a free id \
         at once (LeaseTiming::wait_for_free_id is zero), found every one leased by another \
         holder (or given up too recently for this lease's later epoch or larger margin)"
    );
}

#[test]
fn the_first_acquisition_waits_for_a_free_id_as_long_as_told() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut first = driver(&clock, &table, 9..=9);
    first.acquire_first().unwrap();
    let waiting = |wait_for_free_id| {
        let timing = LeaseTiming {
            wait_for_free_id,
            ..timing()
        };
        driver_with(&clock, &table, 9..=9, Epoch::DEFAULT, timing)
    };

    // The first holder renews no more: its row expires 2 s after its take.
    let error = waiting(Duration::from_secs(1)).acquire_first().unwrap_err();
    let gave_up_at = clock.elapsed();
    let mut second = waiting(Duration::from_secs(3));
    second.acquire_first().unwrap();

    assert_eq!(
        error.to_string(),
        "all scalability ids 9..=9 of lease namespace \"test\" are taken: expected a free id \
         within 1s (LeaseTiming::wait_for_free_id), found every one leased by another holder \
         (or given up too recently for this lease's later epoch or larger margin)"
    );
    // Its last try comes at the end of the wait.
    assert_eq!(gave_up_at, Duration::from_secs(1));
    // Taken once the row expired, at most one backoff (400 ms) later.
    let taken_at = clock.elapsed();
    assert!(
        (Duration::from_secs(2)..=Duration::from_millis(2_400)).contains(&taken_at),
        "{taken_at:?}"
    );
    assert_eq!(generate(&second).unwrap().scalability_id(), 9);
}

#[test]
fn a_failure_past_the_acquire_timeout_does_not_end_a_longer_wait_for_a_free_id() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut first = driver(&clock, &table, 9..=9);
    first.acquire_first().unwrap();
    let timing = LeaseTiming {
        wait_for_free_id: Duration::from_secs(3),
        ..timing()
    };
    let mut second = driver_with(&clock, &table, 9..=9, Epoch::DEFAULT, timing);
    // Its first take finds the id held 1.1 s in, past the 1 s acquire timeout; the next fails.
    table.fault_next(Fault::Slow {
        before: Duration::from_millis(1_100),
        after: Duration::ZERO,
    });
    table.fault_next(Fault::Error);

    assert_eq!(second.acquire_first().map_err(|e| e.to_string()), Ok(()));
    assert!(
        clock.elapsed() >= Duration::from_secs(2),
        "{:?}",
        clock.elapsed()
    );
}

#[test]
fn a_database_down_for_the_acquire_timeout_fails_with_its_error() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    for _ in 0..64 {
        table.fault_next(Fault::Error);
    }
    let mut driver = driver(&clock, &table, 0..=0);

    let error = driver.acquire_first().unwrap_err();

    assert_eq!(error.to_string(), "lease database error: connection reset");
    // Backoff from 50 ms, doubling to 400 ms, until the next wait would pass 1 s.
    assert!(
        clock.elapsed() <= Duration::from_secs(1),
        "{:?}",
        clock.elapsed()
    );
    assert!(
        clock.elapsed() >= Duration::from_millis(500),
        "{:?}",
        clock.elapsed()
    );
}

#[test]
fn a_refusal_fails_the_first_acquisition_at_once_with_its_error() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    table.fault_next(Fault::Error);
    table.fault_next(Fault::Refused);
    let mut driver = driver(&clock, &table, 0..=0);

    let error = driver.acquire_first().unwrap_err();

    assert_eq!(
        error.to_string(),
        "lease database error: permission denied for table ulid_flake_leases"
    );
    // The error before it was retried (after 50 ms, less up to a quarter); the refusal not.
    // The id that failed take may have left this lease's is then given up, once.
    assert_eq!(table.state().calls, ["take", "renew", "release"]);
    assert!(
        (Duration::from_millis(37)..=Duration::from_millis(50)).contains(&clock.elapsed()),
        "{:?}",
        clock.elapsed()
    );
}

#[test]
fn a_refused_renewal_is_retried_until_the_deadline_like_any_error() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 3..=3);
    driver.acquire_first().unwrap();
    clock.advance(Duration::from_millis(400));
    table.fault_next(Fault::Refused);

    let (outcome, wait) = driver.step();

    assert_eq!(outcome, Outcome::Held);
    assert!(wait <= Duration::from_millis(50), "{wait:?}");
    clock.advance(wait);
    assert_eq!(driver.step().0, Outcome::Held);
    assert_eq!(
        table.state().calls,
        ["take", "time", "renew", "renew", "time"]
    );
    assert_eq!(driver.shared.record().state, Some(LeaseState::Held));
}

#[test]
fn a_wall_clock_step_back_delays_no_deadline_in_milliseconds() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 2..=2);
    driver.acquire_first().unwrap();
    let deadline = driver.shared.generator.lease_gate().state().0;
    clock.advance(Duration::from_millis(400));
    clock.step_wall(-90);

    // Renewed with the wall clock 90 ms behind (within the bound, 100 ms): the gate's
    // millisecond is 90 ms earlier than the monotonic deadline would say, never later.
    assert_eq!(driver.step().0, Outcome::Held);

    assert_eq!(
        driver.shared.generator.lease_gate().state().0,
        deadline + 400 - 90
    );
}

#[test]
fn a_wall_clock_apart_from_the_database_stops_ids_keeps_the_id_and_resumes_when_they_agree() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 2..=2);
    driver.acquire_first().unwrap();
    clock.advance(Duration::from_millis(400));
    clock.step_wall(-500);

    // Renewed, but the wall clock is 500 ms behind the database's: more than the margin's
    // half (100 ms) allows.
    assert_eq!(driver.step(), (Outcome::Held, Duration::from_millis(400)));

    let skew = crate::error::Error::ClockSkew {
        scalability_id: 2,
        skew_ms: -500,
        bound_ms: 100,
    };
    assert_eq!(generate(&driver), Err(skew));
    let status = driver.shared.status();
    assert_eq!(status.state, LeaseState::Skewed);
    assert_eq!(status.last_error, Some(skew.to_string()));
    assert_eq!(status.valid_until, None);
    // The id stays this lease's: renewed at 400 ms for 2 s.
    assert_eq!(table.row(2).expires_at_us, START_UNIX_MS * 1000 + 2_400_000);
    assert!(matches!(
        self::driver(&clock, &table, 2..=2).acquire_first(),
        Err(LeaseError::AllTaken { .. })
    ));

    // Still apart at the next renewal; then the clocks agree again.
    clock.advance(Duration::from_millis(400));
    assert_eq!(driver.step().0, Outcome::Held);
    assert_eq!(driver.shared.status().state, LeaseState::Skewed);
    clock.advance(Duration::from_millis(400));
    clock.step_wall(500);
    assert_eq!(driver.step().0, Outcome::Held);

    let id = generate(&driver).unwrap();
    assert_eq!(id.ms_since_epoch(), ms_at(Duration::from_millis(1_200)));
    let status = driver.shared.status();
    assert_eq!((status.state, status.last_error), (LeaseState::Held, None));
    assert_eq!(
        driver.shared.generator.lease_gate().state().0,
        ms_at(Duration::from_millis(1_200 + 1_798))
    );
}

#[test]
fn a_wall_clock_apart_at_the_take_holds_the_id_and_issues_nothing() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 8..=8);
    clock.step_wall(300);

    assert_eq!(driver.acquire_first().map_err(|e| e.to_string()), Ok(()));

    assert_eq!(
        generate(&driver),
        Err(crate::error::Error::ClockSkew {
            scalability_id: 8,
            skew_ms: 300,
            bound_ms: 100,
        })
    );
    let status = driver.shared.status();
    assert_eq!(
        (status.state, status.scalability_id, status.acquisitions),
        (LeaseState::Skewed, Some(8), 1)
    );
    assert_eq!(
        status.last_error.as_deref(),
        Some(
            "clock skew: expected this machine's wall clock within 100 ms of the database's, \
             found it 300 ms ahead; no ID under scalability id 8 until they agree"
        )
    );
    assert_eq!(table.row(8).holder, driver.shared.holder);
}

#[test]
fn a_take_found_apart_counts_its_reading_as_the_floor_once_the_clocks_agree() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 8..=8);
    clock.step_wall(300);
    driver.acquire_first().unwrap();
    clock.advance(Duration::from_millis(400));
    clock.step_wall(-300);
    assert_eq!(driver.step().0, Outcome::Held);
    assert_eq!(driver.shared.status().state, LeaseState::Held);

    // The clock steps back before the next renewal: no ID before the agreeing reading.
    clock.step_wall(-1_500);

    assert_eq!(
        generate(&driver),
        Err(crate::error::Error::ClockMovedBackwards {
            by_ms: 1_499,
            allowance_ms: 1_000,
        })
    );
}

#[test]
fn a_wall_clock_step_during_the_comparison_tells_nothing() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 1..=1);
    driver.acquire_first().unwrap();
    let deadline = driver.shared.generator.lease_gate().state().0;
    clock.advance(Duration::from_millis(400));
    // The renewal goes through; the wall clock steps 50 ms back while the database's clock
    // is read, in a round trip of 60 ms: the two wall readings, 10 ms apart, would have the
    // clocks agreeing (by 0 to 11 ms), though they are now 50 ms apart.
    table.fault_next(Fault::Slow {
        before: Duration::ZERO,
        after: Duration::ZERO,
    });
    table.fault_next(Fault::StepWall {
        by_ms: -50,
        after: Duration::from_millis(60),
    });

    assert_eq!(driver.step().0, Outcome::Held);

    assert_eq!(driver.shared.generator.lease_gate().state().0, deadline);
    assert_eq!(driver.shared.status().state, LeaseState::Confirming);
}

#[test]
fn a_lease_lost_while_apart_says_since_when() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 8..=8);
    clock.step_wall(300);
    driver.acquire_first().unwrap();
    // No renewal in time: the deadline passes.
    clock.advance(Duration::from_millis(1_800));

    assert_eq!(driver.step().0, Outcome::Lost);

    // The deadline the gate would have had, on the wall clock that was 300 ms ahead.
    assert_eq!(
        generate(&driver),
        Err(crate::error::Error::LeaseNotValid {
            scalability_id: 8,
            valid_until_unix_ms: Some(START_UNIX_MS + 300 + 1_798),
        })
    );
}

#[test]
fn a_round_trip_too_long_to_compare_the_clocks_extends_nothing() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 1..=1);
    driver.acquire_first().unwrap();
    let deadline = driver.shared.generator.lease_gate().state().0;
    clock.advance(Duration::from_millis(400));
    // The renewal answers at once; the clock reading after it takes 300 ms there and back,
    // so the clocks' difference is only known to lie within ±150 ms: the bound is 100 ms.
    table.fault_next(Fault::Slow {
        before: Duration::ZERO,
        after: Duration::ZERO,
    });
    table.fault_next(Fault::Slow {
        before: Duration::from_millis(150),
        after: Duration::from_millis(150),
    });

    let (outcome, wait) = driver.step();

    assert_eq!(outcome, Outcome::Held);
    assert!(wait <= Duration::from_millis(50), "{wait:?}");
    // The deadline stands: the acquisition's.
    assert_eq!(driver.shared.generator.lease_gate().state().0, deadline);
    let status = driver.shared.status();
    assert_eq!(status.state, LeaseState::Confirming);
    assert_eq!(
        status.last_error.as_deref(),
        Some(
            "the database's clock came back after a round trip of 300ms, too long to compare \
             this machine's wall clock with it within ±100ms: the renewal extends nothing"
        )
    );
    assert!(generate(&driver).is_ok());
}

#[test]
fn the_release_grace_covers_ids_stamped_ahead_of_the_database() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 6..=6);
    driver.acquire_first().unwrap();
    let holder = driver.shared.holder;
    // The wall clock steps 1 s ahead between two renewals: the gate (in milliseconds of the
    // clock before the step) lets IDs be stamped up to 1,798 ms, 1 s ahead of the database.
    clock.advance(Duration::from_millis(100));
    clock.step_wall(1_000);
    let id = generate(&driver).unwrap();
    assert_eq!(id.ms_since_epoch(), ms_at(Duration::from_millis(1_100)));

    driver.shared.stop();
    driver.shutdown();

    // The margin, plus how far that ID is ahead of the database's clock now (its reading at
    // the take, at 0, plus 100 ms × (1 − ρ) on the monotonic clock, rounded down: 99 ms):
    // 1,001 ms.
    assert_eq!(
        table.row(6),
        Row {
            holder,
            holder_epoch_ms: Epoch::DEFAULT.unix_ms() as i64,
            holder_margin_us: 200_000,
            expires_at_us: clock.db_now_us() + 200_000 + 1_001_000
        }
    );
}

#[test]
fn a_wall_clock_step_back_right_after_a_take_cannot_stamp_before_it() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 3..=3);
    driver.acquire_first().unwrap();
    clock.step_wall(-1_500);

    // Before the next renewal could compare the clocks: the millisecond before the take's
    // reading counts as used up, 1,499 ms ahead of the clock now.
    assert_eq!(
        generate(&driver),
        Err(crate::error::Error::ClockMovedBackwards {
            by_ms: 1_499,
            allowance_ms: 1_000,
        })
    );
}

#[test]
fn moving_to_another_id_starts_from_a_fresh_millisecond() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 10..=11);
    driver.acquire_first().unwrap();
    let first = generate(&driver).unwrap();
    let other_id = 21 - first.scalability_id();
    // The wall clock steps back 50 ms (within the bound, and the rollback allowance) and the
    // lease moves to the other id, as a take confirms it.
    clock.step_wall(-50);
    let sent = driver.monotonic();

    driver.floor_due = true; // as a take of `other_id` sets it
    assert!(driver.confirm(other_id, sent, driver.read_clocks()));

    let next = generate(&driver);
    assert_eq!(driver.shared.status().scalability_id, Some(other_id));
    // Not in the millisecond the first ID was stamped under the other id: it is used up.
    assert!(
        matches!(next, Err(crate::error::Error::Overflow { .. })),
        "{next:?}"
    );
}

#[test]
fn release_closes_the_gate_and_leaves_the_margin_before_the_id_is_free() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 6..=6);
    driver.acquire_first().unwrap();
    let holder = driver.shared.holder;
    assert!(driver.shared.status().valid_until.is_some());

    driver.shared.stop();
    driver.shutdown();

    // Given up, not lost: no deadline to report, in the error or the status.
    assert_eq!(
        generate(&driver),
        Err(crate::error::Error::LeaseNotValid {
            scalability_id: 6,
            valid_until_unix_ms: None
        })
    );
    let status = driver.shared.status();
    assert_eq!(
        (status.state, status.valid_until),
        (LeaseState::Released, None)
    );
    assert_eq!(
        table.row(6),
        Row {
            holder,
            holder_epoch_ms: Epoch::DEFAULT.unix_ms() as i64,
            holder_margin_us: 200_000,
            expires_at_us: clock.db_now_us() + 200_000
        }
    );
}

#[test]
fn a_failed_release_is_sent_again() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 6..=6);
    driver.acquire_first().unwrap();
    let holder = driver.shared.holder;
    table.fault_next(Fault::Error);
    table.fault_next(Fault::Error);

    driver.shared.stop();
    driver.shutdown();

    assert_eq!(driver.shared.release_error(), None);
    assert_eq!(
        table.state().calls,
        ["take", "time", "release", "release", "release"]
    );
    // The third attempt set the expiry.
    assert_eq!(
        table.row(6),
        Row {
            holder,
            holder_epoch_ms: Epoch::DEFAULT.unix_ms() as i64,
            holder_margin_us: 200_000,
            expires_at_us: clock.db_now_us() + 200_000
        }
    );
}

#[test]
fn a_release_that_fails_three_times_reports_the_last_error() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 6..=6);
    driver.acquire_first().unwrap();
    for _ in 0..3 {
        table.fault_next(Fault::Error);
    }
    let before = clock.elapsed();

    driver.shared.stop();
    driver.shutdown();

    assert_eq!(
        driver.shared.release_error().as_deref(),
        Some("connection reset")
    );
    assert_eq!(
        table.state().calls,
        ["take", "time", "release", "release", "release"]
    );
    // The retry interval between the attempts.
    assert_eq!(clock.elapsed() - before, Duration::from_millis(100));
}

#[test]
fn a_pause_while_confirming_shortens_the_gate_never_lengthens_it() {
    let clock = ScriptedClock::default();
    let table = Table::new(&clock);
    let mut driver = driver(&clock, &table, 4..=4);
    driver.acquire_first().unwrap();
    clock.advance(Duration::from_millis(400));
    // The renewal is sent at 400 ms; then, answered at once, the thread pauses 1.7 s between
    // its two clock reads (the send-time read consumes no pause: it comes first).
    let _ = driver.monotonic();
    clock.0.pause_before_monotonic_us.store(0, Ordering::SeqCst);
    let sent = driver.monotonic();
    assert_eq!(sent, Duration::from_millis(400));
    clock
        .0
        .pause_before_monotonic_us
        .store(1_700_000, Ordering::SeqCst);

    assert!(driver.confirm(4, sent, driver.read_clocks()));

    // Usable until 2,198 ms; the wall clock was read at 400 ms and the monotonic one at
    // 2,100 ms, leaving 98 ms: the gate closes at 498 ms, already past. Read the other way
    // round, it would have stayed open until 3,898 ms, 1.7 s past the deadline.
    assert_eq!(
        driver.shared.generator.lease_gate().state().0,
        ms_at(Duration::from_millis(498))
    );
    assert!(generate(&driver).is_err());
}

/// A scripted clock whose next reading on the thread named `stalled`, once armed, waits twice
/// at a barrier: when it has begun (the call has loaded the gate), and to go on.
#[derive(Clone)]
struct StallingClock {
    scripted: ScriptedClock,
    armed: Arc<AtomicBool>,
    stall: Arc<std::sync::Barrier>,
}

impl StallingClock {
    fn new() -> Self {
        Self {
            scripted: ScriptedClock::default(),
            armed: Arc::new(AtomicBool::new(false)),
            stall: Arc::new(std::sync::Barrier::new(2)),
        }
    }
}

impl Clock for StallingClock {
    fn unix_ms(&self) -> i64 {
        if std::thread::current().name() == Some("stalled")
            && self.armed.swap(false, Ordering::SeqCst)
        {
            self.stall.wait();
            self.stall.wait();
        }
        self.scripted.unix_ms()
    }
}

impl LeaseClock for StallingClock {
    fn monotonic(&self) -> Duration {
        self.scripted.monotonic()
    }

    fn sleep(&self, duration: Duration) {
        self.scripted.sleep(duration);
    }
}

#[test]
fn a_call_stalled_before_its_clock_read_across_a_release_is_refused() {
    let clock = StallingClock::new();
    let table = Table::new(&clock.scripted);
    let mut old = driver(&clock, &table, 3..=3);
    assert_eq!(old.step().0, Outcome::Held);
    generate(&old).unwrap();

    // A call of the old holder loads the open gate, then stalls before it reads the clock.
    clock.armed.store(true, Ordering::SeqCst);
    let shared = Arc::clone(&old.shared);
    let stalled = std::thread::Builder::new()
        .name("stalled".into())
        .spawn(move || shared.generator.try_generate())
        .unwrap();
    clock.stall.wait();

    // The old holder releases id 3: the row expires after the margin, 200 ms.
    old.shutdown();
    assert_eq!(
        table.row(3).expires_at_us,
        clock.scripted.db_now_us() + 200_000
    );
    clock.scripted.advance(Duration::from_millis(300));
    // Another replica takes id 3 and stamps IDs from 300 ms on.
    let mut new = driver(&clock, &table, 3..=3);
    assert_eq!(new.step().0, Outcome::Held);
    let new_id = generate(&new).unwrap();
    assert_eq!(
        (new_id.scalability_id(), new_id.ms_since_epoch()),
        (3, ms_at(Duration::from_millis(300)))
    );

    // The stalled call reads the clock now, 300 ms, before the old gate's deadline: refused,
    // not stamped in a millisecond of the new holder's with its id.
    clock.stall.wait();
    assert_eq!(
        stalled.join().unwrap(),
        Err(crate::error::Error::LeaseNotValid {
            scalability_id: 3,
            valid_until_unix_ms: None
        })
    );
}

/// A scripted clock that, once armed, forks the process in its next monotonic reading; the
/// child then makes an ID with the lease's generator at once, which sees the fork and closes
/// its gate for good.
#[derive(Clone)]
struct ForkingClock {
    scripted: ScriptedClock,
    armed: Arc<AtomicBool>,
    /// The lease's state, for the child's ID.
    shared: Arc<OnceLock<Arc<Shared<ForkingClock>>>>,
    /// The fork's result: the child's pid in the parent, 0 in the child, -1 before.
    forked: Arc<core::sync::atomic::AtomicI32>,
}

impl Clock for ForkingClock {
    fn unix_ms(&self) -> i64 {
        self.scripted.unix_ms()
    }
}

impl LeaseClock for ForkingClock {
    fn monotonic(&self) -> Duration {
        if self.armed.swap(false, Ordering::SeqCst) {
            // SAFETY: the child makes IDs (atomics) and leaves with _exit in the test.
            let pid = unsafe { libc::fork() };
            assert!(pid >= 0, "fork failed");
            self.forked.store(pid, Ordering::SeqCst);
            if pid == 0 {
                let _ = self.shared.get().unwrap().generator.try_generate();
            }
        }
        self.scripted.monotonic()
    }

    fn sleep(&self, duration: Duration) {
        self.scripted.sleep(duration);
    }
}

/// The scripted table, arming the clock's fork when its clock reading is answered, if told to
/// (`arm_next`): the fork lands in the reading of the clocks after it, past the call's fork
/// checks and before the confirmation opens the gate.
struct ArmingTable {
    table: Table,
    armed: Arc<AtomicBool>,
    arm_next: Arc<AtomicBool>,
}

impl LeaseStore for ArmingTable {
    type Error = std::io::Error;

    fn take(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        self.table.take(request)
    }

    fn renew(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        self.table.renew(request)
    }

    fn release(&mut self, request: &LeaseRequest<'_>) -> Result<(), Self::Error> {
        self.table.release(request)
    }

    fn database_time(&mut self, timeout: Duration) -> Result<i64, Self::Error> {
        let now = self.table.database_time(timeout);
        if self.arm_next.swap(false, Ordering::SeqCst) {
            self.armed.store(true, Ordering::SeqCst);
        }
        now
    }
}

/// A driver of id 5 on a [`ForkingClock`] and an [`ArmingTable`], and the table's `arm_next`.
fn forking_driver() -> (
    ForkingClock,
    Arc<AtomicBool>,
    Driver<ArmingTable, ForkingClock>,
) {
    forking_driver_with(timing())
}

/// [`forking_driver`] with `timing`.
fn forking_driver_with(
    timing: LeaseTiming,
) -> (
    ForkingClock,
    Arc<AtomicBool>,
    Driver<ArmingTable, ForkingClock>,
) {
    crate::generator::fork::watch();
    let clock = ForkingClock {
        scripted: ScriptedClock::default(),
        armed: Arc::new(AtomicBool::new(false)),
        shared: Arc::default(),
        forked: Arc::new(core::sync::atomic::AtomicI32::new(-1)),
    };
    let generator = Generator::builder()
        .clock(clock.clone())
        .build_leased(5)
        .unwrap();
    let shared = Arc::new(Shared::new(
        generator,
        "test".into(),
        5..=5,
        timing,
        crate::generator::fork_count(),
    ));
    let _ = clock.shared.set(Arc::clone(&shared));
    let arm_next = Arc::new(AtomicBool::new(false));
    let store = ArmingTable {
        table: Table::new(&clock.scripted),
        armed: Arc::clone(&clock.armed),
        arm_next: Arc::clone(&arm_next),
    };
    (clock, arm_next, Driver::new(store, shared))
}

/// How the child `pid` ended: `exit N`, or `hung` (killed after `limit`).
fn end_of_child(pid: i32, limit: Duration) -> String {
    assert!(pid > 0, "no child: {pid}");
    let started = Instant::now();
    let mut status = 0;
    // SAFETY: `pid` is this process's child; `status` is writable.
    unsafe {
        while libc::waitpid(pid, &mut status, libc::WNOHANG) == 0 {
            if started.elapsed() > limit {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
                return "hung".into();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    if libc::WIFEXITED(status) {
        format!("exit {}", libc::WEXITSTATUS(status))
    } else {
        format!("status {status}")
    }
}

/// Steps a held lease through a renewal whose clock reading forks (see [`ArmingTable`]), by
/// `step` (the step itself, or it under a `tracing` subscriber), while another thread runs
/// `hold`, which keeps what it locks until the fork (`until_forked`). The child goes on with
/// the step, in which its confirmation sees the fork and the lease is lost, and leaves with
/// _exit(0) once the step returns. Returns how the child ended.
fn child_of_a_renewal_forked_while(
    hold: impl FnOnce(&Shared<ForkingClock>, &dyn Fn()) + Send,
    step: impl FnOnce(&mut Driver<ArmingTable, ForkingClock>),
) -> String {
    let (clock, arm_next, mut driver) = forking_driver();
    assert_eq!(driver.step().0, Outcome::Held);
    let shared = Arc::clone(&driver.shared);
    let holding = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            hold(&shared, &|| {
                holding.store(true, Ordering::SeqCst);
                // Bounded, so that a step that does not fork fails the test, not hangs it.
                let started = Instant::now();
                while clock.forked.load(Ordering::SeqCst) == -1
                    && started.elapsed() < Duration::from_secs(10)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
        });
        while !holding.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
        arm_next.store(true, Ordering::SeqCst);
        step(&mut driver);
        if clock.forked.load(Ordering::SeqCst) == 0 {
            // SAFETY: leaves the child at once, with no test harness code run.
            unsafe { libc::_exit(0) };
        }
    });
    end_of_child(clock.forked.load(Ordering::SeqCst), Duration::from_secs(2))
}

/// A child forked in a renewal while another thread of the parent held the status record's
/// lock (which the child's copy never gives back) writes its loss to a scratch record and
/// goes on: with a blocking lock, it waited for that lock for good.
#[test]
fn a_child_forked_in_a_renewal_while_another_holds_the_record_goes_on() {
    let ended = child_of_a_renewal_forked_while(
        |shared, until_forked| {
            let _record = shared.record.lock().unwrap();
            until_forked();
        },
        |driver| {
            driver.step();
        },
    );
    assert_eq!(ended, "exit 0");
}

/// A subscriber that writes each event under stderr's lock, as `tracing-subscriber`'s `fmt`
/// does.
#[cfg(feature = "tracing01")]
struct LockingSubscriber;

#[cfg(feature = "tracing01")]
impl tracing::Subscriber for LockingSubscriber {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }

    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}

    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}

    fn event(&self, event: &tracing::Event<'_>) {
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), "{}", event.metadata().name());
    }

    fn enter(&self, _: &tracing::span::Id) {}

    fn exit(&self, _: &tracing::span::Id) {}
}

/// A child forked in a renewal while another thread of the parent held stderr's lock, under
/// a subscriber that writes under it, emits no event (its loss's): it would wait for that lock
/// for good.
#[cfg(feature = "tracing01")]
#[test]
fn a_child_forked_in_a_renewal_emits_no_event() {
    let ended = child_of_a_renewal_forked_while(
        |_, until_forked| {
            let _stderr = std::io::stderr().lock();
            until_forked();
        },
        |driver| {
            tracing::subscriber::with_default(LockingSubscriber, || driver.step());
        },
    );
    assert_eq!(ended, "exit 0");
}

/// The pid of the child [`fork_from_a_signal_handler`] forked, in the parent (-1 before).
static SIGNAL_FORKED: core::sync::atomic::AtomicI32 = core::sync::atomic::AtomicI32::new(-1);

extern "C" fn fork_from_a_signal_handler(_: libc::c_int) {
    // SAFETY: the child goes on with the code the signal interrupted, on the lease's thread,
    // its one thread.
    let pid = unsafe { libc::fork() };
    SIGNAL_FORKED.store(pid, Ordering::SeqCst);
}

/// A child forked from a signal handler on the lease's thread while it waits between
/// renewals, while another thread of the parent held the status record's lock: the thread
/// ends at its next fork check (the child with it), at the end of the park in progress, not
/// of the 2 s wait. Waiting on a condition variable tied to that lock, it woke into the lock
/// and hung there; parking for the whole wait, it lived on until the wait's end.
#[test]
fn a_child_forked_from_a_signal_handler_on_the_lease_s_thread_ends() {
    // SAFETY: a handler for a signal nothing else in these tests sends; the struct is zeroed
    // as sigaction(2) takes it, then filled.
    unsafe {
        let mut action: libc::sigaction = core::mem::zeroed();
        action.sa_sigaction = fork_from_a_signal_handler as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        assert_eq!(
            libc::sigaction(libc::SIGUSR2, &action, core::ptr::null_mut()),
            0
        );
    }
    let (_, _, mut driver) = forking_driver_with(LeaseTiming {
        validity: Duration::from_secs(10),
        renew_every: Duration::from_secs(2),
        ..timing()
    });
    assert_eq!(driver.step().0, Outcome::Held);
    let shared = Arc::clone(&driver.shared);
    let table = driver.store.table.clone();
    let thread = std::thread::spawn(move || driver.run());
    shared.set_lease_thread(thread.thread().clone());
    // Once the thread has renewed, it waits for the next renewal, 2 s later.
    while !table.state().calls.contains(&"renew") {
        std::thread::sleep(Duration::from_millis(1));
    }
    std::thread::sleep(Duration::from_millis(20));
    let record = shared.record.lock().unwrap();
    let lease_thread = std::os::unix::thread::JoinHandleExt::as_pthread_t(&thread);
    // SAFETY: the thread runs until stopped, below.
    let sent = unsafe { libc::pthread_kill(lease_thread, libc::SIGUSR2) };
    assert_eq!(sent, 0);
    while SIGNAL_FORKED.load(Ordering::SeqCst) == -1 {
        std::thread::sleep(Duration::from_millis(1));
    }
    let child = SIGNAL_FORKED.load(Ordering::SeqCst);
    let ended = end_of_child(child, Duration::from_secs(1));
    drop(record);
    shared.stop();
    thread.join().unwrap();
    assert_eq!(ended, "exit 0");
}

/// A child forked after the acquisition's last call and before its confirmation, whose
/// generator had seen the fork already (an ID made in the child in between), issues nothing:
/// the confirmation opens the gate, sees the fork, and closes it again. Without that, the
/// child's generator issued IDs under the parent's id.
#[test]
fn a_confirmation_in_a_forked_child_closes_the_gate_it_opened() {
    let (clock, arm_next, mut driver) = forking_driver();

    arm_next.store(true, Ordering::SeqCst);
    driver.step();
    let refused = Err(crate::error::Error::LeaseNotValid {
        scalability_id: 5,
        valid_until_unix_ms: None,
    });
    let generated = driver.shared.generator.try_generate();
    if clock.forked.load(Ordering::SeqCst) == 0 {
        // SAFETY: leaves the child at once, with no test harness code run.
        unsafe { libc::_exit(i32::from(generated != refused)) };
    }
    // Exit 1: the child's ID was not refused.
    assert_eq!(
        end_of_child(clock.forked.load(Ordering::SeqCst), Duration::from_secs(2)),
        "exit 0"
    );
    assert_eq!(generated.map(|id| id.scalability_id()), Ok(5));
}

/// A status read whose clock reading comes before a confirmation and whose record comes
/// after it (a skewed lease whose clocks agree again) reports the lease held: it reads the
/// gate under the record's lock. Read before the lock, the gate was the one before the
/// confirmation, and the lease, never lost, was reported lost (a review's reproduction).
#[test]
fn a_status_read_across_a_confirmation_reports_no_loss() {
    let clock = StallingClock::new();
    let table = Table::new(&clock.scripted);
    let mut driver = driver(&clock, &table, 2..=2);
    driver.acquire_first().unwrap();
    clock.scripted.advance(Duration::from_millis(400));
    clock.scripted.step_wall(-500);
    assert_eq!(driver.step().0, Outcome::Held);
    assert_eq!(driver.shared.status().state, LeaseState::Skewed);
    clock.scripted.advance(Duration::from_millis(400));
    clock.scripted.step_wall(500);

    let shared = Arc::clone(&driver.shared);
    clock.armed.store(true, Ordering::SeqCst);
    let reader = std::thread::Builder::new()
        .name("stalled".into())
        .spawn(move || shared.status())
        .unwrap();
    clock.stall.wait();
    // The status stalls in its clock reading; the renewal now finds the clocks agreeing again.
    assert_eq!(driver.step().0, Outcome::Held);
    clock.stall.wait();
    let status = reader.join().unwrap();
    assert_eq!((status.state, status.losses), (LeaseState::Held, 0));
    assert!(generate(&driver).is_ok());
}
