//! A forked child must not replay its parent's randomness (SPEC §3).

use std::cell::Cell;
use std::sync::atomic::{AtomicI32, Ordering};

use ulid_flake_core::generator::{Clock, Generator, RandomSource, SystemClock, ThreadRandom};
use ulid_flake_core::lease::{LeaseClock, LeaseOptions, ScalabilityIdLease};
use ulid_flake_core::{Error, UlidFlake};

use crate::lease::LocalTable;
use crate::support::{ManualClock, SIGNAL_FORKED, at, fork_on_sigusr2};

const IDS: usize = 16;

/// Exit codes of the child.
const DISJOINT: i32 = 0;
const SHARED_AN_ID: i32 = 1;
const PIPE_FAILED: i32 = 2;
const CONTINUED_THE_PARENTS_MILLISECOND: i32 = 3;
const FAILED_OTHERWISE: i32 = 4;

#[test]
fn parent_and_child_draw_different_randomness_after_fork() {
    assert_parent_and_child_disjoint(ThreadRandom);
}

/// A rand RNG's state is copied into the child, seeded or not (`rand::rng()`'s too): the
/// source mixes the child's draws with the reseeded per-thread randomness.
#[cfg(feature = "rand010")]
#[test]
fn parent_and_child_draw_different_randomness_after_fork_with_a_rand_rng() {
    use rand::SeedableRng;
    use ulid_flake_core::rand010::RandSource;

    assert_parent_and_child_disjoint(RandSource::new(rand::rngs::StdRng::seed_from_u64(42)));
    assert_parent_and_child_disjoint(RandSource::new(rand::rng()));
}

/// Forks after one ID from a generator on `random`, then compares one ID in each of 16
/// later milliseconds from each side.
fn assert_parent_and_child_disjoint<R: RandomSource>(random: R) {
    let generator = Generator::builder()
        .clock(ManualClock::new(at(0)))
        .random_source(random)
        .build()
        .unwrap();
    // Seed this thread's stream and the generator's state before the fork: the child
    // inherits both.
    generator.try_generate().unwrap();

    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let [read_end, write_end] = fds;

    // SAFETY: the child only generates IDs (atomics, thread-locals, a getrandom call), reads
    // a pipe and exits with _exit; it returns to no test harness code.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        // The parent may go on in the inherited millisecond; the child must not, since
        // increments from the same base would repeat the parent's IDs.
        let verdict = match generator.try_generate() {
            Err(Error::Overflow { timestamp_ms: 0 }) => {
                child_verdict(read_end, &later_ids(&generator))
            }
            _ => CONTINUED_THE_PARENTS_MILLISECOND,
        };
        // SAFETY: `_exit` ends the child without running the parent's destructors.
        unsafe { libc::_exit(verdict) };
    }
    // Overflow only if the first draw landed in the top 255 values of the field.
    assert!(matches!(
        generator.try_generate(),
        Ok(_) | Err(Error::Overflow { .. })
    ));

    // In the later milliseconds both sides read the same timestamps, so each pair of IDs
    // differs only by a fresh 20-bit draw: with a copied random stream they would be equal,
    // one for one (a true collision has odds of 16 in 2^20).
    let ids = later_ids(&generator);
    let bytes: Vec<u8> = ids.iter().flat_map(|id| id.to_ne_bytes()).collect();
    // SAFETY: `bytes` is valid for its length; the pipe holds 128 bytes without blocking.
    let written = unsafe { libc::write(write_end, bytes.as_ptr().cast(), bytes.len()) };
    assert_eq!(written, bytes.len() as isize);
    assert_eq!(
        exit_code_of(pid),
        DISJOINT,
        "1: the child shared an ID with its parent; 2: it could not read the pipe; \
         3: it continued the parent's millisecond"
    );
}

/// Waits for the child `pid` and returns its exit code.
fn exit_code_of(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    // SAFETY: waiting for our own child, with a valid status pointer.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(libc::WIFEXITED(status), "the child did not exit normally");
    libc::WEXITSTATUS(status)
}

/// One ID in each of the milliseconds 1 to 16.
fn later_ids<R: RandomSource>(generator: &Generator<ManualClock, R>) -> [u64; IDS] {
    std::array::from_fn(|index| {
        generator.clock().set(at(index as i64 + 1));
        generator.try_generate().unwrap().to_u64()
    })
}

fn child_verdict(read_end: i32, own: &[u64; IDS]) -> i32 {
    let mut parent = [0_u64; IDS];
    let wanted = size_of_val(&parent);
    let mut got = 0;
    while got < wanted {
        // SAFETY: writes at most `wanted - got` bytes into `parent` past the `got` read so far.
        let n = unsafe {
            libc::read(
                read_end,
                parent.as_mut_ptr().cast::<u8>().add(got).cast(),
                wanted - got,
            )
        };
        if n <= 0 {
            return PIPE_FAILED;
        }
        got += n as usize;
    }
    if own.iter().any(|id| parent.contains(id)) {
        SHARED_AN_ID
    } else {
        DISJOINT
    }
}

/// A fork in the middle of a call, on the thread that makes it (a `Clock` or `RandomSource`
/// that forks, or a signal handler): the parent returns the call's ID, so the child must not.
/// It finds the fork after the call's swap and leaves the millisecond; its clock still reads
/// that one, so the call in the child fails, where it returned the parent's very ID (the
/// single call) or IDs (the batch) before the count was checked again after the swap.
#[test]
fn a_fork_during_a_call_leaves_the_call_s_ids_to_the_parent() {
    // A single call, forked while it reads the clock.
    let generator = Generator::builder()
        .clock(ForkingClock {
            clock: ManualClock::new(at(0)),
            fork: ForkPoint::default(),
        })
        .build()
        .unwrap();
    generator.try_generate().unwrap();
    generator.clock().fork.arm();
    let result = generator.try_generate();
    settle_the_fork(&generator.clock().fork, || match result {
        Err(Error::Overflow { timestamp_ms: 0 }) => DISJOINT,
        Ok(_) => CONTINUED_THE_PARENTS_MILLISECOND,
        Err(_) => FAILED_OTHERWISE,
    });
    assert!(result.is_ok(), "the parent's call: {result:?}");

    // A batch, forked while it draws its increments.
    static BATCH_FORK: ForkPoint = ForkPoint::new();
    let generator = Generator::builder()
        .clock(ManualClock::new(at(0)))
        .random_source(ForkingRandom(&BATCH_FORK))
        .build()
        .unwrap();
    generator.try_generate().unwrap();
    BATCH_FORK.arm();
    let mut ids = [UlidFlake::MIN; 100];
    let result = generator.try_generate_batch(&mut ids);
    settle_the_fork(&BATCH_FORK, || match result {
        // Nor is an ID of the discarded attempt left where the caller could take it.
        Err(Error::Overflow { timestamp_ms: 0 }) if ids == [UlidFlake::MIN; 100] => DISJOINT,
        Ok(_) => CONTINUED_THE_PARENTS_MILLISECOND,
        _ => FAILED_OTHERWISE,
    });
    assert!(matches!(result, Ok(1..)), "the parent's batch: {result:?}");
}

/// A leased generator's call forked in the middle: the child refuses the ID (the lease is
/// the parent's), where it returned the parent's very ID before the count was compared after
/// the swap.
#[test]
fn a_fork_during_a_leased_call_issues_nothing_in_the_child() {
    let options = LeaseOptions::new("jobs").ids(4..=4).generator(Generator::builder().clock(
        ForkingClock {
            clock: SystemClock,
            fork: ForkPoint::default(),
        },
    ));
    let lease = ScalabilityIdLease::acquire(LocalTable::default(), options).unwrap();
    let generator = lease.generator();
    generator.try_generate().unwrap();
    generator.clock().fork.arm();
    let result = generator.try_generate();
    settle_the_fork(&generator.clock().fork, || match result {
        Err(Error::LeaseNotValid {
            scalability_id: 4, ..
        }) => DISJOINT,
        Ok(_) => CONTINUED_THE_PARENTS_MILLISECOND,
        Err(_) => FAILED_OTHERWISE,
    });
    assert!(matches!(result, Ok(id) if id.scalability_id() == 4), "{result:?}");
}

std::thread_local! {
    /// Whether this thread forks at the next [`ForkPoint::fork_if_armed`]: a thread-local, so
    /// that another thread reading the same clock (a lease's) never forks.
    static ARMED: Cell<bool> = const { Cell::new(false) };
}

/// Forks once, where a call on the thread that called [`ForkPoint::arm`] next reaches
/// [`ForkPoint::fork_if_armed`].
struct ForkPoint {
    /// The child's pid in the parent, 0 in the child, -1 before the fork.
    pid: AtomicI32,
}

impl ForkPoint {
    const fn new() -> Self {
        Self {
            pid: AtomicI32::new(-1),
        }
    }

    fn arm(&self) {
        ARMED.set(true);
    }

    fn fork_if_armed(&self) {
        if ARMED.replace(false) {
            // SAFETY: the child finishes the call it forked in (atomics, thread-locals, a
            // getrandom call) and exits with _exit in `settle_the_fork`; it returns to no
            // test harness code.
            let pid = unsafe { libc::fork() };
            assert!(pid >= 0, "fork failed");
            self.pid.store(pid, Ordering::SeqCst);
        }
    }
}

impl Default for ForkPoint {
    fn default() -> Self {
        Self::new()
    }
}

/// In the child, exits with `verdict`'s code; in the parent, waits for the child and checks
/// that its call did not continue the parent's millisecond.
fn settle_the_fork(fork: &ForkPoint, verdict: impl FnOnce() -> i32) {
    match fork.pid.load(Ordering::SeqCst) {
        // SAFETY: `_exit` ends the child without running the parent's destructors.
        0 => unsafe { libc::_exit(verdict()) },
        pid => {
            assert!(pid > 0, "the call did not reach the fork");
            assert_eq!(
                exit_code_of(pid),
                DISJOINT,
                "3: the child's call returned an ID of the parent's millisecond; 4: it failed \
                 otherwise"
            );
        }
    }
}

/// A clock that forks, once armed, while a call reads it.
struct ForkingClock<C> {
    clock: C,
    fork: ForkPoint,
}

impl<C: Clock> Clock for ForkingClock<C> {
    fn unix_ms(&self) -> i64 {
        self.fork.fork_if_armed();
        self.clock.unix_ms()
    }
}

impl<C: LeaseClock> LeaseClock for ForkingClock<C> {
    fn monotonic(&self) -> std::time::Duration {
        self.clock.monotonic()
    }
}

/// The thread's randomness, whose bulk draw (a batch's) forks once armed.
struct ForkingRandom(&'static ForkPoint);

impl RandomSource for ForkingRandom {
    fn next_u32(&self) -> u32 {
        ThreadRandom.next_u32()
    }

    fn fill_bytes(&self, dest: &mut [u8]) {
        self.0.fork_if_armed();
        ThreadRandom.fill_bytes(dest);
    }
}

/// A fork from a signal handler at a random moment of a thread making IDs, so that it often
/// lands in the middle of a draw: the draw's store then lands after the fork handler's discard
/// of the thread's bytes drawn ahead (or a refill of them ends from the parent's stream), and
/// the child kept its parent's bytes. Before the generator discarded them again on seeing the
/// fork, a quarter of the children so forked issued their parent's IDs in the next
/// milliseconds, one for one (97 and 102 of 400, in two runs).
#[test]
fn a_fork_from_a_signal_handler_during_a_draw_issues_none_of_the_parent_s_ids() {
    const FORKS: usize = 400;
    fork_on_sigusr2();
    // SAFETY: an anonymous shared mapping, for the child's IDs.
    let shared = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(shared, libc::MAP_FAILED);
    let shared = shared.cast::<u64>();
    // SAFETY: this thread's own handle, valid while the test runs.
    let this_thread = unsafe { libc::pthread_self() };
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut sharing = 0;
    for fork in 0..FORKS {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let start = at(1_000 * fork as i64);
        let generator = Generator::builder()
            .clock(ManualClock::new(start))
            .build()
            .unwrap();
        generator.try_generate().unwrap();
        SIGNAL_FORKED.store(-1, Ordering::SeqCst);
        let delay = std::time::Duration::from_nanos(1 + state % 50_000);
        let sender = std::thread::spawn(move || {
            std::thread::sleep(delay);
            // SAFETY: the test's thread is alive: it joins this one below.
            unsafe { libc::pthread_kill(this_thread, libc::SIGUSR2) };
        });
        // The draw comes first in every call, so calls that fail once the millisecond is
        // used up still draw.
        while SIGNAL_FORKED.load(Ordering::SeqCst) == -1 {
            let _ = std::hint::black_box(generator.try_generate());
        }
        let ids: [u64; IDS] = std::array::from_fn(|index| {
            generator.clock().set(start + 1 + index as i64);
            generator.try_generate().unwrap().to_u64()
        });
        match SIGNAL_FORKED.load(Ordering::SeqCst) {
            0 => {
                for (index, id) in ids.iter().enumerate() {
                    // SAFETY: within the page mapped above, shared with the parent.
                    unsafe { shared.add(index).write_volatile(*id) };
                }
                // SAFETY: `_exit` ends the child without running the parent's destructors.
                unsafe { libc::_exit(0) };
            }
            pid => {
                assert_eq!(exit_code_of(pid), 0);
                sender.join().unwrap();
                // SAFETY: the child wrote the page before it exited.
                let child: Vec<u64> = (0..IDS)
                    .map(|index| unsafe { shared.add(index).read_volatile() })
                    .collect();
                // A child that kept its parent's bytes shares all 16 IDs. By chance (a
                // millisecond's first randomness is 20 bits) one pair in the whole test is
                // equal about once in 160 runs, two in one child far more rarely.
                let shared = child.iter().filter(|id| ids.contains(id)).count();
                sharing += usize::from(shared >= 2);
            }
        }
    }
    assert_eq!(sharing, 0, "{sharing} of {FORKS} children issued a parent's ID");
}
