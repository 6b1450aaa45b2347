//! A forked child must not replay its parent's randomness (SPEC §3).

use std::sync::atomic::AtomicI64;

use ulid_flake_core::generator::{Generator, ThreadRandom};

use crate::support::{TickingClock, at};

const IDS: usize = 16;

/// Exit codes of the child.
const DISJOINT: i32 = 0;
const SHARED_AN_ID: i32 = 1;
const PIPE_FAILED: i32 = 2;

#[test]
fn parent_and_child_never_produce_the_same_id_after_fork() {
    // Every reading is a new millisecond, so each ID is a fresh 20-bit draw from the
    // thread's CSPRNG, and parent and child read the same timestamps: with a copied
    // random stream their IDs would be identical, one for one.
    let generator = Generator::builder()
        .clock(TickingClock(AtomicI64::new(at(0))))
        .random_source(ThreadRandom)
        .build()
        .unwrap();
    // Seed this thread's stream before the fork, so the child inherits it.
    generator.generate().unwrap();

    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let [read_end, write_end] = fds;

    // SAFETY: the child only generates IDs (atomics, thread-locals, a getrandom call), reads
    // a pipe and exits with _exit; it returns to no test harness code.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    let ids = generate(&generator);
    if pid == 0 {
        // SAFETY: `_exit` ends the child without running the parent's destructors.
        unsafe { libc::_exit(child_verdict(read_end, &ids)) };
    }

    // The parent sends its IDs; the child compares and reports through its exit code.
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
        "the child shared an ID with its parent (1) or could not read the pipe (2)"
    );
}

fn generate(generator: &Generator<TickingClock, ThreadRandom>) -> [u64; IDS] {
    std::array::from_fn(|_| generator.generate().unwrap().to_u64())
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
