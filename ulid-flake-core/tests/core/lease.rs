//! The lease seen from outside: options checked before anything runs, a forked child that
//! issues nothing under its parent's lease, the default generator behind a lease. (Every
//! transition of the protocol has a scripted test beside the state machine, in
//! `src/lease/driver/tests.rs`; the adapters test it against real databases.)

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ulid_flake_core::generator::{Clock, Generator, SystemClock};
use ulid_flake_core::{Epoch, Error};
use ulid_flake_core::lease::{
    LeaseClock, LeaseError, LeaseOptions, LeaseRequest, LeaseState, LeaseStore, LeaseTiming,
    ScalabilityIdLease,
};

use crate::support::{SIGNAL_FORKED, fork_on_sigusr2, report_of_child};

/// A table in this process: grants every id, counts the takes, and records the releases,
/// each after `release_takes`.
#[derive(Clone, Default)]
pub(crate) struct LocalTable {
    pub(crate) released: Arc<Mutex<Vec<u8>>>,
    release_takes: Duration,
    taken: Arc<Mutex<u32>>,
}

impl LeaseStore for LocalTable {
    type Error = std::io::Error;

    fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        *self.taken.lock().unwrap() += 1;
        Ok(true)
    }

    fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        Ok(true)
    }

    fn release(&mut self, request: &LeaseRequest<'_>) -> Result<(), Self::Error> {
        std::thread::sleep(self.release_takes);
        self.released.lock().unwrap().push(request.scalability_id);
        Ok(())
    }

    fn database_time(&mut self, _: Duration) -> Result<i64, Self::Error> {
        Ok(crate::support::database_now_us())
    }
}

fn error_of(options: LeaseOptions) -> String {
    ScalabilityIdLease::acquire(LocalTable::default(), options)
        .unwrap_err()
        .to_string()
}

#[test]
fn an_empty_or_long_namespace_is_refused() {
    assert_eq!(
        error_of(LeaseOptions::new("")),
        "invalid lease namespace: expected 1..=64 bytes, found 0"
    );
    assert_eq!(
        error_of(LeaseOptions::new("n".repeat(65))),
        "invalid lease namespace: expected 1..=64 bytes, found 65"
    );
}

#[test]
fn ids_past_31_are_refused() {
    assert_eq!(
        error_of(LeaseOptions::new("jobs").ids(30..=32)),
        "invalid lease ids: expected a non-empty range within 0..=31, found 30..=32"
    );
}

#[test]
fn a_renewal_interval_beyond_the_usable_validity_is_refused() {
    let timing = LeaseTiming {
        renew_every: Duration::from_secs(14),
        ..LeaseTiming::default()
    };
    assert_eq!(
        error_of(LeaseOptions::new("jobs").timing(timing)),
        "invalid lease timing: expected renew_every above zero and below validity × \
         (1 − max_drift) − margin, found renew_every 14s, against 13.985s"
    );
}

#[test]
fn a_margin_too_small_to_compare_the_clocks_is_refused() {
    let timing = LeaseTiming {
        margin: Duration::from_millis(9),
        ..LeaseTiming::default()
    };
    assert_eq!(
        error_of(LeaseOptions::new("jobs").timing(timing)),
        "invalid lease timing: expected a margin of at least 10 ms, found 9ms"
    );
}

#[test]
fn an_epoch_the_clock_has_not_reached_is_refused_before_any_take() {
    let year_2100 = Epoch::from_unix_ms(4_102_444_800_000).unwrap();
    let options = LeaseOptions::new("jobs").generator(Generator::builder().epoch(year_2100));
    let table = LocalTable::default();

    let error = ScalabilityIdLease::acquire(table.clone(), options)
        .unwrap_err()
        .to_string();

    let expected = "invalid lease generator: timestamp out of range: expected \
                    0..=8796093022207 ms since the epoch, found -";
    assert!(error.starts_with(expected), "{error}");
    assert_eq!(*table.taken.lock().unwrap(), 0);
}

#[test]
fn release_stops_the_generator_and_gives_the_id_back() {
    let table = LocalTable::default();
    let lease =
        ScalabilityIdLease::acquire(table.clone(), LeaseOptions::new("jobs").ids(9..=9)).unwrap();
    let generator_works = lease
        .generator()
        .generate()
        .map(|id| id.scalability_id());
    assert_eq!(lease.status().state, LeaseState::Held);

    lease.release().unwrap();

    assert_eq!(generator_works, Ok(9));
    assert_eq!(*table.released.lock().unwrap(), [9]);
}

#[test]
fn a_dropped_lease_has_given_the_id_back_when_the_drop_returns() {
    let table = LocalTable {
        release_takes: Duration::from_millis(200),
        ..LocalTable::default()
    };
    let lease =
        ScalabilityIdLease::acquire(table.clone(), LeaseOptions::new("jobs").ids(9..=9)).unwrap();

    drop(lease);

    assert_eq!(*table.released.lock().unwrap(), [9]);
}

#[test]
fn a_drop_waits_for_a_stalled_release_no_longer_than_the_request_timeout() {
    let table = LocalTable {
        release_takes: Duration::from_secs(5),
        ..LocalTable::default()
    };
    let timing = LeaseTiming {
        request_timeout: Duration::from_millis(300),
        ..LeaseTiming::default()
    };
    let options = LeaseOptions::new("jobs").ids(9..=9).timing(timing);
    let lease = ScalabilityIdLease::acquire(table.clone(), options).unwrap();
    let started = Instant::now();

    drop(lease);

    let took = started.elapsed();
    // The timeout, and a second more for a busy machine's scheduling: far from the release's
    // 5 s.
    assert!(
        (Duration::from_millis(300)..Duration::from_millis(1_300)).contains(&took),
        "{took:?}"
    );
    assert!(table.released.lock().unwrap().is_empty());
}

/// Drops `lease` on a thread of its own, and says how long the drop took; fails after 10 s.
fn time_the_drop(lease: ScalabilityIdLease) -> Duration {
    let (took, drop_took) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let started = Instant::now();
        drop(lease);
        let _ = took.send(started.elapsed());
    });
    drop_took
        .recv_timeout(Duration::from_secs(10))
        .expect("the drop did not return in 10 s")
}

/// A request timeout past what an `Instant` holds (`Duration::MAX`) bounds the drop's wait
/// for the release by nothing, and overflows nowhere: the drop waits for the release.
#[test]
fn a_request_timeout_of_duration_max_bounds_nothing_and_panics_nowhere() {
    let table = LocalTable::default();
    let timing = LeaseTiming {
        request_timeout: Duration::MAX,
        ..LeaseTiming::default()
    };
    let options = LeaseOptions::new("jobs").ids(4..=4).timing(timing);
    time_the_drop(ScalabilityIdLease::acquire(table.clone(), options).unwrap());
    assert_eq!(*table.released.lock().unwrap(), [4]);
}

/// Set by [`PanickingTable`] just before its renewal panics.
static RENEWAL_PANICKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A table whose renewals panic, as a store with a bug may.
struct PanickingTable;

impl LeaseStore for PanickingTable {
    type Error = std::io::Error;

    fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        Ok(true)
    }

    fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        RENEWAL_PANICKED.store(true, Ordering::SeqCst);
        panic!("the store's renewal panicked");
    }

    fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> {
        Ok(())
    }

    fn database_time(&mut self, _: Duration) -> Result<i64, Self::Error> {
        Ok(crate::support::database_now_us())
    }
}

/// A lease thread ended by a panic (in the store) still tells the drop that waits for it: the
/// drop returns at once, not after the request timeout (5 s here).
#[test]
fn a_drop_after_the_lease_s_thread_panicked_returns_at_once() {
    let timing = LeaseTiming {
        renew_every: Duration::from_millis(50),
        request_timeout: Duration::from_secs(5),
        ..LeaseTiming::default()
    };
    let options = LeaseOptions::new("jobs").ids(4..=4).timing(timing);
    let lease = ScalabilityIdLease::acquire(PanickingTable, options).unwrap();
    while !RENEWAL_PANICKED.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(5));
    }
    // The unwinding, to the thread's end.
    std::thread::sleep(Duration::from_millis(100));
    let took = time_the_drop(lease);
    assert!(took < Duration::from_secs(1), "{took:?}");
}

/// Not a test of its own: the child side of the test below (hence ignored). It installs a
/// lease as the default generator, forks, and reports what the grandchild could generate.
#[test]
#[ignore = "run in a child process by a_forked_child_issues_nothing_under_the_parents_lease"]
fn fork_probe() {
    ScalabilityIdLease::acquire(LocalTable::default(), LeaseOptions::new("jobs").ids(4..=4))
        .unwrap()
        .install_default()
        .unwrap();
    let parent_before = ulid_flake_core::UlidFlake::generate().map(|id| id.scalability_id());

    let child = report_of_fork(|| {
        format!(
            "{:?} {}",
            ulid_flake_core::UlidFlake::generate(),
            ulid_flake_core::lease::installed_lease_status()
                .unwrap()
                .state
        )
    });
    let parent_after = ulid_flake_core::UlidFlake::generate().map(|id| id.scalability_id());
    println!("REPORT parent {parent_before:?} {parent_after:?}; child {child}");
}

#[test]
fn a_forked_child_issues_nothing_under_the_parents_lease() {
    let report = report_of_child("lease::fork_probe", "ULID_FLAKE_SCALABILITY_ID", None, &[]);
    let refused = Error::LeaseNotValid {
        scalability_id: 4,
        valid_until_unix_ms: None,
    };
    assert_eq!(
        report,
        format!("parent Ok(4) Ok(4); child Err({refused:?}) forked (exit 0)")
    );
}

/// Not a test of its own: the child side of the test below (hence ignored). It acquires a
/// lease, forks, installs it in the child, and reports what came of that.
#[test]
#[ignore = "run in a child process by a_forked_child_cannot_install_its_parents_lease"]
fn install_in_a_child_probe() {
    // The child's copy is consumed there; the parent's stays.
    let mut lease = Some(
        ScalabilityIdLease::acquire(LocalTable::default(), LeaseOptions::new("jobs").ids(4..=4))
            .unwrap(),
    );
    let child = report_of_fork(|| {
        format!(
            "{:?} {:?}",
            lease.take().unwrap().install_default().map_err(|error| error.to_string()),
            ulid_flake_core::lease::installed_lease_status(),
        )
    });
    let issued = lease.as_ref().unwrap().generator().try_generate().map(|id| id.scalability_id());
    println!("REPORT parent {issued:?}; child {child}");
}

/// A child cannot make its parent's lease its default generator (which would refuse every
/// ID): the install fails with `Forked`, and installs nothing.
#[test]
fn a_forked_child_cannot_install_its_parents_lease() {
    let report =
        report_of_child("lease::install_in_a_child_probe", "ULID_FLAKE_SCALABILITY_ID", None, &[]);
    let forked = LeaseError::Forked.to_string();
    assert_eq!(report, format!("parent Ok(4); child Err({forked:?}) None (exit 0)"));
}

/// Where [`ForkingTable`] forked: the child's pid in the parent, 0 in the child, -1 before.
static FORKED: AtomicI32 = AtomicI32::new(-1);

/// Where a fork lands, from `PROBE_CASE`: in the first take (`take`); in the clock reading
/// that follows it, before the gate opens (`clock`); in the first renewal, on the lease's
/// thread (`renewal`); in the renewal of the id the first take left the lease's after the
/// clock reading that followed it failed, which answers "not renewed" (`previous`); in the
/// backoff's sleep after that failure (`sleep`).
fn fork_case() -> String {
    std::env::var("PROBE_CASE").unwrap()
}

/// Forks the process here if this is where the case forks and it has not forked yet; in the
/// child, writes the name of every call of the store to `log` (a pipe).
fn fork_or_log(log: i32, name: &str, forks_here: bool) {
    match FORKED.load(Ordering::SeqCst) {
        0 => {
            let line = format!("{name} ");
            // SAFETY: `line` is valid for its length; the pipe holds it without blocking.
            unsafe { libc::write(log, line.as_ptr().cast(), line.len()) };
        }
        -1 if forks_here => {
            // SAFETY: the child runs the lease's code on, then reports through the pipe and
            // leaves with _exit (or its one thread ends); it returns to no harness.
            let pid = unsafe { libc::fork() };
            assert!(pid >= 0, "fork failed");
            FORKED.store(pid, Ordering::SeqCst);
        }
        _ => {}
    }
}

/// A table that grants every id, forks the process where [`fork_case`] says, as a signal
/// handler that forks may at any moment, and logs the child's calls (see [`fork_or_log`]).
struct ForkingTable {
    case: String,
    log: i32,
    clock_readings: u32,
}

impl LeaseStore for ForkingTable {
    type Error = std::io::Error;

    fn take(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        fork_or_log(self.log, "take", self.case == "take");
        Ok(true)
    }

    fn renew(&mut self, _: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        let previous = self.case == "previous";
        fork_or_log(self.log, "renew", self.case == "renewal" || previous);
        Ok(!previous)
    }

    fn release(&mut self, _: &LeaseRequest<'_>) -> Result<(), Self::Error> {
        fork_or_log(self.log, "release", false);
        Ok(())
    }

    fn database_time(&mut self, _: Duration) -> Result<i64, Self::Error> {
        fork_or_log(self.log, "database_time", self.case == "clock");
        self.clock_readings += 1;
        if self.clock_readings == 1 && (self.case == "previous" || self.case == "sleep") {
            return Err(std::io::Error::other("the first clock reading fails"));
        }
        Ok(crate::support::database_now_us())
    }
}

/// The system clock, whose sleep forks in the `sleep` case.
#[derive(Clone, Copy, Debug)]
struct ForkingSleep;

impl Clock for ForkingSleep {
    fn unix_ms(&self) -> i64 {
        SystemClock.unix_ms()
    }
}

impl LeaseClock for ForkingSleep {
    fn monotonic(&self) -> Duration {
        SystemClock.monotonic()
    }

    fn sleep(&self, duration: Duration) {
        fork_or_log(-1, "sleep", fork_case() == "sleep");
        std::thread::sleep(duration);
    }
}

/// Forks; the child runs `report` (atomics and short formatting, no lock), writes what it
/// returns to a pipe and leaves with _exit. Returns, in the parent, what the child wrote and
/// how it ended (see [`child_report`]).
fn report_of_fork(report: impl FnOnce() -> String) -> String {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: the child runs `report`, writes to a pipe and leaves with _exit; it returns to
    // no test harness code.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let report = report() + " ";
        // SAFETY: `report` is valid for its length; the pipe holds it without blocking.
        unsafe {
            libc::write(fds[1], report.as_ptr().cast(), report.len());
            libc::_exit(0);
        }
    }
    child_report(pid, fds)
}

/// Everything the child wrote into the pipe, once it has ended, and how it ended: a child
/// still running after two seconds (a lease's thread renewing on) is killed.
fn child_report(pid: i32, fds: [i32; 2]) -> String {
    let mut status = 0;
    let started = Instant::now();
    // SAFETY: `pid` is our child; `status` is writable; the write end is ours to close.
    unsafe {
        while libc::waitpid(pid, &mut status, libc::WNOHANG) == 0 {
            if started.elapsed() > Duration::from_secs(2) {
                libc::kill(pid, libc::SIGKILL);
                assert_eq!(libc::waitpid(pid, &mut status, 0), pid);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        libc::close(fds[1]);
    }
    let mut report = Vec::new();
    let mut buffer = [0_u8; 512];
    loop {
        // SAFETY: `buffer` is valid for its length.
        let read = unsafe { libc::read(fds[0], buffer.as_mut_ptr().cast(), buffer.len()) };
        if read <= 0 {
            break;
        }
        report.extend_from_slice(&buffer[..read as usize]);
    }
    let ended = if libc::WIFEXITED(status) {
        format!("exit {}", libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        format!("killed by signal {}, still running after 2 s", libc::WTERMSIG(status))
    } else {
        format!("status {status}")
    };
    format!("{}({ended})", String::from_utf8_lossy(&report))
}

/// Not a test of its own: the child side of the tests below (hence ignored). It acquires a
/// lease through a [`ForkingTable`] and reports what the parent and the child did.
#[test]
#[ignore = "run in a child process by the tests of a fork during a lease's calls"]
fn fork_during_a_call_probe() {
    let case = fork_case();
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let timing = LeaseTiming {
        renew_every: Duration::from_millis(50),
        ..LeaseTiming::default()
    };
    let renewal = case == "renewal";
    let table = ForkingTable {
        case,
        log: fds[1],
        clock_readings: 0,
    };
    let options = LeaseOptions::new("jobs")
        .ids(4..=4)
        .timing(timing)
        .generator(Generator::builder().clock(ForkingSleep));
    let result = ScalabilityIdLease::acquire(table, options);
    if FORKED.load(Ordering::SeqCst) == 0 {
        let line = match &result {
            Ok(_) => "acquired ".to_owned(),
            Err(error) => format!("{error} "),
        };
        // SAFETY: `line` is valid for its length; the child leaves with _exit.
        unsafe {
            libc::write(fds[1], line.as_ptr().cast(), line.len());
            libc::_exit(0);
        }
    }
    let lease = result.unwrap();
    if renewal {
        while FORKED.load(Ordering::SeqCst) == -1 {
            std::thread::sleep(Duration::from_millis(5));
        }
        // Two renewals more in the parent: the parent's lease goes on.
        std::thread::sleep(Duration::from_millis(120));
    }
    let issued = lease.generator().try_generate().map(|id| id.scalability_id());
    let state = lease.status().state;
    let child = child_report(FORKED.load(Ordering::SeqCst), fds);
    println!("REPORT parent {issued:?} {state:?}; child {child}");
}

/// The report of a fork in the `case` of [`fork_case`].
fn fork_during_a_call(case: &str) -> String {
    report_of_child(
        "lease::fork_during_a_call_probe",
        "ULID_FLAKE_SCALABILITY_ID",
        None,
        &[("PROBE_CASE", case)],
    )
}

#[test]
fn a_child_forked_during_an_acquisition_calls_the_table_no_more_and_gets_no_lease() {
    // In a take; in the clock reading after it (the child's confirmation closes the gate it
    // opens); in the renewal of the id a take left the lease's (its "not renewed" would
    // otherwise send the child on to a take); in the backoff's sleep, before any call.
    for case in ["take", "clock", "previous", "sleep"] {
        assert_eq!(
            fork_during_a_call(case),
            format!("parent Ok(4) Held; child {} (exit 0)", LeaseError::Forked),
            "{case}"
        );
    }
}

#[test]
fn a_child_forked_during_a_renewal_calls_the_table_no_more() {
    // The child's one thread, the lease's, ends without a call: no renewal, no release.
    assert_eq!(
        fork_during_a_call("renewal"),
        "parent Ok(4) Held; child (exit 0)"
    );
}

/// Installs a lease of id 4 on a table whose releases take a second; returns the table.
fn install_a_lease_released_in_a_second() -> LocalTable {
    let table = LocalTable {
        release_takes: Duration::from_secs(1),
        ..LocalTable::default()
    };
    ScalabilityIdLease::acquire(table.clone(), LeaseOptions::new("jobs").ids(4..=4))
        .unwrap()
        .install_default()
        .unwrap();
    table
}

/// Not a test of its own: the child side of the test below (hence ignored). It installs a
/// lease, forks while another thread releases it (and holds the installed lease's lock, for a
/// release that takes a second), and reports what the child's release and ID came to.
#[test]
#[ignore = "run in a child process by a_child_forked_during_a_release_of_the_installed_lease_releases_nothing"]
fn fork_during_a_release_probe() {
    let table = install_a_lease_released_in_a_second();
    let releasing = std::thread::spawn(ulid_flake_core::lease::release_installed_lease);
    while ulid_flake_core::lease::installed_lease_status().unwrap().state != LeaseState::Released
        && table.released.lock().unwrap().is_empty()
        && !releasing.is_finished()
    {
        // The release is under way once the generator stops.
        if ulid_flake_core::UlidFlake::generate().is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let child = report_of_fork(|| {
        format!(
            "{:?} {:?}",
            ulid_flake_core::lease::release_installed_lease().map_err(|error| error.to_string()),
            ulid_flake_core::UlidFlake::generate().map(|id| id.scalability_id()),
        )
    });
    let parent = releasing.join().unwrap().map_err(|error| error.to_string());
    let released = table.released.lock().unwrap().clone();
    println!("REPORT parent {parent:?} {released:?}; child {child}");
}

/// Not a test of its own: the child side of the test below (hence ignored). While one thread
/// releases the installed lease (for a second), a second thread's release waits for the
/// first's lock, and is forked there from a signal handler; the child reports what its
/// release came to.
#[test]
#[ignore = "run in a child process by a_release_forked_while_waiting_for_another_returns_in_the_child"]
fn fork_while_waiting_to_release_probe() {
    fork_on_sigusr2();
    let table = install_a_lease_released_in_a_second();
    let first = std::thread::spawn(ulid_flake_core::lease::release_installed_lease);
    // The first release holds the lock once the generator stops.
    while ulid_flake_core::UlidFlake::generate().is_ok() {
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let second = std::thread::spawn(move || {
        let result = ulid_flake_core::lease::release_installed_lease();
        if SIGNAL_FORKED.load(Ordering::SeqCst) == 0 {
            let report = format!("{:?} ", result.map_err(|error| error.to_string()));
            // SAFETY: `report` is valid for its length; the pipe holds it without blocking.
            unsafe {
                libc::write(fds[1], report.as_ptr().cast(), report.len());
                libc::_exit(0);
            }
        }
        result
    });
    // Time for the second release to reach the lock the first holds (for a second).
    std::thread::sleep(Duration::from_millis(200));
    let waiting = std::os::unix::thread::JoinHandleExt::as_pthread_t(&second);
    // SAFETY: the thread waits for the first release, which takes a second.
    let sent = unsafe { libc::pthread_kill(waiting, libc::SIGUSR2) };
    assert_eq!(sent, 0);
    while SIGNAL_FORKED.load(Ordering::SeqCst) == -1 {
        std::thread::sleep(Duration::from_millis(1));
    }
    let child = child_report(SIGNAL_FORKED.load(Ordering::SeqCst), fds);
    let first = first.join().unwrap().map_err(|error| error.to_string());
    let second = second.join().unwrap().map_err(|error| error.to_string());
    let released = table.released.lock().unwrap().clone();
    println!("REPORT parent {first:?} {second:?} {released:?}; child {child}");
}

/// A release forked (from a signal handler) while it waits for another thread's release of
/// the installed lease returns in the child, releasing nothing: the child's copy of the lock
/// it waits for is never given back. The parent's two releases end as ever: one release.
#[test]
fn a_release_forked_while_waiting_for_another_returns_in_the_child() {
    assert_eq!(
        report_of_child(
            "lease::fork_while_waiting_to_release_probe",
            "ULID_FLAKE_SCALABILITY_ID",
            None,
            &[],
        ),
        "parent Ok(()) Ok(()) [4]; child Ok(()) (exit 0)"
    );
}

/// A child forked while another thread of its parent releases the installed lease (holding
/// the lock a second release waits on) releases nothing, at once: the lease is the parent's,
/// which releases it once. Before the fork check came first, the child's release waited on
/// that lock for good (killed after 2 s).
#[test]
fn a_child_forked_during_a_release_of_the_installed_lease_releases_nothing() {
    let refused = Error::LeaseNotValid {
        scalability_id: 4,
        valid_until_unix_ms: None,
    };
    assert_eq!(
        report_of_child(
            "lease::fork_during_a_release_probe",
            "ULID_FLAKE_SCALABILITY_ID",
            None,
            &[],
        ),
        format!("parent Ok(()) [4]; child Ok(()) Err({refused:?}) (exit 0)")
    );
}

/// The database generator's SQL creates the lease table exactly as a lease does, and holds its
/// id with the holder no lease takes as its token.
#[test]
fn the_database_generator_shares_the_lease_table_and_reserves_its_holder() {
    use ulid_flake_core::lease::sql::Dialect;
    use ulid_flake_core::sql::{DATABASE_GENERATOR_HOLDER, MYSQL_GENERATOR, POSTGRES_GENERATOR};

    for (dialect, generator) in [
        (Dialect::Postgres, POSTGRES_GENERATOR),
        (Dialect::MySql, MYSQL_GENERATOR),
    ] {
        let create_table = format!("{};", dialect.create_table().sql());
        assert!(generator.contains(&create_table), "{dialect}");
        let holder = DATABASE_GENERATOR_HOLDER.to_string();
        assert!(generator.contains(&format!("DEFAULT {holder};")) || generator.contains(&format!(":= {holder};")), "{dialect}");
    }
}

/// The message of an error and those of its sources, as reporters (anyhow's `{:#}`) print them.
fn chain(error: &dyn std::error::Error) -> Vec<String> {
    std::iter::successors(Some(error), |error| error.source())
        .map(ToString::to_string)
        .collect()
}

#[test]
fn a_lease_error_s_chain_shows_each_message_once() {
    #[derive(Debug)]
    struct Refused;
    impl std::fmt::Display for Refused {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("connection refused")
        }
    }
    impl std::error::Error for Refused {}
    #[derive(Debug)]
    struct Connect(Refused);
    impl std::fmt::Display for Connect {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("cannot connect to db:5432")
        }
    }
    impl std::error::Error for Connect {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    let database = LeaseError::Database(Box::new(Connect(Refused)));
    assert_eq!(
        chain(&database),
        [
            "lease database error: cannot connect to db:5432",
            "connection refused"
        ]
    );
    let generator = LeaseError::Generator(Error::InvalidScalabilityId { found: 40 });
    assert_eq!(
        chain(&generator),
        ["invalid lease generator: invalid scalability id: expected 0..=31, found 40"]
    );
}
