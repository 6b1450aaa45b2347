//! A forked child must not replay its parent's randomness (SPEC §3).

use ulid_flake_core::Error;
use ulid_flake_core::generator::{Generator, RandomSource, ThreadRandom};

use crate::support::{ManualClock, at};

const IDS: usize = 16;

/// Exit codes of the child.
const DISJOINT: i32 = 0;
const SHARED_AN_ID: i32 = 1;
const PIPE_FAILED: i32 = 2;
const CONTINUED_THE_PARENTS_MILLISECOND: i32 = 3;

#[test]
fn parent_and_child_never_produce_the_same_id_after_fork() {
    assert_parent_and_child_disjoint(ThreadRandom);
}

/// A rand RNG's state is copied into the child, seeded or not (`rand::rng()`'s too): the
/// source mixes the child's draws with the reseeded per-thread randomness.
#[cfg(feature = "rand010")]
#[test]
fn parent_and_child_never_produce_the_same_id_after_fork_with_a_rand_rng() {
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
    let mut status = 0;
    // SAFETY: waiting for our own child, with a valid status pointer.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(libc::WIFEXITED(status), "the child did not exit normally");
    assert_eq!(
        libc::WEXITSTATUS(status),
        DISJOINT,
        "1: the child shared an ID with its parent; 2: it could not read the pipe; \
         3: it continued the parent's millisecond"
    );
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
