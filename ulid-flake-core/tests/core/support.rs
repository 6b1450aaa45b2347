//! Scripted time and randomness, so every edge of the generator has a deterministic test.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, AtomicI64, Ordering};

use ulid_flake_core::Epoch;
use ulid_flake_core::generator::{Clock, RandomSource};

/// Unix milliseconds of `timestamp_ms` after the default epoch.
pub(crate) fn at(timestamp_ms: i64) -> i64 {
    Epoch::DEFAULT.unix_ms() as i64 + timestamp_ms
}

/// A clock that reads what the test set; waiting moves it to the awaited millisecond and
/// records the wait.
#[derive(Debug, Default)]
pub(crate) struct ManualClock {
    now: AtomicI64,
    waits: Mutex<Vec<i64>>,
}

impl ManualClock {
    pub(crate) fn new(unix_ms: i64) -> Self {
        Self {
            now: AtomicI64::new(unix_ms),
            waits: Mutex::default(),
        }
    }

    pub(crate) fn set(&self, unix_ms: i64) {
        self.now.store(unix_ms, Ordering::SeqCst);
    }

    /// The milliseconds waited for, in order.
    pub(crate) fn waits(&self) -> Vec<i64> {
        self.waits.lock().unwrap().clone()
    }
}

impl Clock for ManualClock {
    fn unix_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }

    fn wait_until(&self, unix_ms: i64) {
        self.waits.lock().unwrap().push(unix_ms);
        self.now.fetch_max(unix_ms, Ordering::SeqCst);
    }

    #[cfg(feature = "tokio")]
    fn wait_until_async(&self, unix_ms: i64) -> impl Future<Output = ()> + Send {
        self.wait_until(unix_ms);
        std::future::ready(())
    }
}

/// The draw a call takes first, before it reads the clock (see the `generator` module's
/// docs), which a call that fails then leaves unused.
pub(crate) const UNUSED_DRAW: u32 = 0xDEAD;

/// Randomness that replays a script and fails the test when the generator draws more.
#[derive(Debug, Default)]
pub(crate) struct ScriptedRandom(Mutex<VecDeque<u32>>);

impl ScriptedRandom {
    pub(crate) fn push(&self, draws: &[u32]) {
        self.0.lock().unwrap().extend(draws);
    }

    /// Drops the draws not taken.
    pub(crate) fn clear(&self) {
        self.0.lock().unwrap().clear();
    }

    /// The draws not taken yet.
    pub(crate) fn left(&self) -> usize {
        self.0.lock().unwrap().len()
    }
}

impl RandomSource for ScriptedRandom {
    fn next_u32(&self) -> u32 {
        self.0
            .lock()
            .unwrap()
            .pop_front()
            .expect("the generator drew more random values than the test scripted")
    }
}

/// Runs the ignored test `probe` (a module path, e.g. `ordinal::probe`) of this test binary
/// in a child process, with `variable` set to `value` or removed, plus the `extra`
/// environment, and returns the line the child printed after `REPORT `. For what is set up
/// once per process (the default generator, the environment it reads).
pub(crate) fn report_of_child(
    probe: &str,
    variable: &str,
    value: Option<&str>,
    extra: &[(&str, &str)],
) -> String {
    let mut command = std::process::Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "--exact",
            probe,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env_remove(variable)
        .envs(extra.iter().copied());
    if let Some(value) = value {
        command.env(variable, value);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "probe failed: {output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    stdout
        .lines()
        .find_map(|line| line.split_once("REPORT ").map(|(_, report)| report))
        .unwrap_or_else(|| panic!("no report in {stdout}"))
        .to_owned()
}

impl ulid_flake_core::lease::LeaseClock for ManualClock {
    /// The manual time, as if the monotonic clock had started at the Unix epoch.
    fn monotonic(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.unix_ms().max(0) as u64)
    }
}

/// The database's clock for a lease store standing in for a table in this process: this
/// machine's, in µs since the Unix epoch.
pub(crate) fn database_now_us() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    i64::try_from(since.as_micros()).unwrap()
}

/// A lease table standing in for a database's, in this process: it grants the first take
/// (and every later one unless made `once`), answers every renewal with `renews`, and reads
/// the database's clock from `database_us` (µs since the Unix epoch).
pub(crate) struct StubTable {
    grants: bool,
    once: bool,
    renews: bool,
    database_us: fn() -> i64,
}

impl StubTable {
    /// Grants every take and renewal, on the database clock `database_us`.
    pub(crate) fn granting(database_us: fn() -> i64) -> Self {
        Self {
            grants: true,
            once: false,
            renews: true,
            database_us,
        }
    }

    /// Refuses every renewal: the lease stays valid until its first deadline.
    pub(crate) fn renewing_nothing(self) -> Self {
        Self {
            renews: false,
            ..self
        }
    }

    /// Refuses every take after the first: a lost lease is lost for good.
    pub(crate) fn taking_once(self) -> Self {
        Self { once: true, ..self }
    }
}

impl ulid_flake_core::lease::LeaseStore for StubTable {
    type Error = std::io::Error;
    fn take(&mut self, _: &ulid_flake_core::lease::LeaseRequest<'_>) -> Result<bool, Self::Error> {
        let granted = self.grants;
        self.grants &= !self.once;
        Ok(granted)
    }
    fn renew(&mut self, _: &ulid_flake_core::lease::LeaseRequest<'_>) -> Result<bool, Self::Error> {
        Ok(self.renews)
    }
    fn release(&mut self, _: &ulid_flake_core::lease::LeaseRequest<'_>) -> Result<(), Self::Error> {
        Ok(())
    }
    fn database_time(&mut self, _: std::time::Duration) -> Result<i64, Self::Error> {
        Ok((self.database_us)())
    }
}

/// The child's pid in the parent after a fork from [`fork_on_sigusr2`]'s handler, 0 in the
/// child, -1 before (a test sets it back).
pub(crate) static SIGNAL_FORKED: AtomicI32 = AtomicI32::new(-1);

extern "C" fn fork_on_signal(_: libc::c_int) {
    // SAFETY: glibc's fork runs the atfork handlers; the child goes on with the interrupted
    // code, on the signalled thread (its one thread).
    let pid = unsafe { libc::fork() };
    SIGNAL_FORKED.store(pid, Ordering::SeqCst);
}

/// Makes `SIGUSR2` fork the process, from a handler, on the thread it is sent to: a fork at
/// whatever moment that thread was in. Nothing else in the tests sends it.
pub(crate) fn fork_on_sigusr2() {
    // SAFETY: the struct is zeroed as sigaction(2) takes it, then filled; the handler only
    // forks and stores an atomic.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = fork_on_signal as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        assert_eq!(
            libc::sigaction(libc::SIGUSR2, &action, std::ptr::null_mut()),
            0
        );
    }
}
