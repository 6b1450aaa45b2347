//! Randomness sources for the generator.

use core::cell::{Cell, RefCell};
use std::thread_local;

use super::fork;
use super::keystream::Keystream;

/// A source of uniformly distributed random `u32`s.
///
/// The generator takes `&self`, so a source is shared by every thread that generates;
/// [`ThreadRandom`], the default, keeps its state per thread. Tests inject a scripted source
/// to drive the generator through every edge case. An increment of 0 is drawn again, so a
/// source that only ever returns 0 makes a call within a millisecond spin forever: a scripted
/// source must script nonzero increments.
///
/// A forked child continues with a copy of the source: one that draws in the child what it
/// draws in the parent (a seeded RNG) makes the child repeat its parent's IDs from the next
/// millisecond on (the generator only gives up the millisecond the child inherited). A
/// source of your own must reseed in a child, as [`ThreadRandom`] and
/// `rand010::RandSource` do.
///
/// ```
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use ulid_flake_core::generator::RandomSource;
///
/// /// Counts up: 0, 1, 2, ... — only for tests.
/// struct Counter(AtomicU32);
///
/// impl RandomSource for Counter {
///     fn next_u32(&self) -> u32 {
///         self.0.fetch_add(1, Ordering::Relaxed)
///     }
/// }
///
/// let counter = Counter(AtomicU32::new(7));
/// assert_eq!(counter.next_u32(), 7);
/// ```
pub trait RandomSource {
    /// The next random value, uniform over all of `u32`.
    fn next_u32(&self) -> u32;

    /// Fills `dest` with uniformly random bytes: the batch calls
    /// ([`Generator::try_generate_batch`](super::Generator::try_generate_batch)) draw all the
    /// increments of a batch with one call, and take every byte of `dest` for them (a byte
    /// left unwritten holds whatever the batch's buffer held).
    ///
    /// The default takes [`RandomSource::next_u32`] for each 4 bytes, little-endian (the
    /// last, partial word's unused bytes are dropped), so a scripted source scripts the
    /// increments of a batch four bytes to a word. A source with a faster bulk draw
    /// overrides it, as [`ThreadRandom`] does.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use ulid_flake_core::generator::RandomSource;
    ///
    /// struct Counter(AtomicU32);
    ///
    /// impl RandomSource for Counter {
    ///     fn next_u32(&self) -> u32 {
    ///         self.0.fetch_add(1, Ordering::Relaxed)
    ///     }
    /// }
    ///
    /// let mut bytes = [0; 6];
    /// Counter(AtomicU32::new(0x0403_0201)).fill_bytes(&mut bytes);
    /// assert_eq!(bytes, [1, 2, 3, 4, 2, 2]);
    /// ```
    fn fill_bytes(&self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(4) {
            let word = self.next_u32().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }

    /// The draw a generator takes first in each call (a call that then fails leaves it
    /// unused), before it knows whether the ID continues a millisecond, whose increment is
    /// the draw's low `increment_bytes` bytes (1..=3), or starts one, whose randomness is
    /// then [`RandomSource::fresh_draw`]'s.
    ///
    /// The default is one [`RandomSource::next_u32`], whose word serves both, so that a
    /// scripted source scripts one word per call. [`ThreadRandom`] hands out
    /// `increment_bytes` bytes of a block it drew ahead (the stream's cost for one byte, not
    /// a word), and the next ones when they are all 0. Override this and
    /// [`RandomSource::fresh_draw`] together, or neither: the default `fresh_draw` is this
    /// draw itself, which a narrower draw would leave with too few random bits for a
    /// millisecond's first randomness.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use ulid_flake_core::generator::RandomSource;
    ///
    /// struct Counter(AtomicU32);
    /// impl RandomSource for Counter {
    ///     fn next_u32(&self) -> u32 {
    ///         self.0.fetch_add(1, Ordering::Relaxed)
    ///     }
    /// }
    ///
    /// let counter = Counter(AtomicU32::new(0x0403_0201));
    /// let draw = counter.increment_draw(1);
    /// assert_eq!((draw, counter.fresh_draw(draw)), (0x0403_0201, 0x0403_0201));
    /// ```
    #[inline]
    fn increment_draw(&self, increment_bytes: u8) -> u32 {
        let _ = increment_bytes;
        self.next_u32()
    }

    /// The randomness of an ID that starts a millisecond, given the ID's
    /// [`RandomSource::increment_draw`]: by default that draw itself, one word per ID;
    /// [`ThreadRandom`] draws four bytes more. The generator calls it once per attempt of
    /// its compare-and-swap that starts a millisecond: zero, one or several times per
    /// [`RandomSource::increment_draw`].
    ///
    /// ```
    /// use ulid_flake_core::generator::{RandomSource, ThreadRandom};
    ///
    /// let draw = ThreadRandom.increment_draw(1);
    /// assert!((1..=0xFF).contains(&draw));
    /// let fresh: Vec<u32> = (0..8).map(|_| ThreadRandom.fresh_draw(draw)).collect();
    /// assert!(fresh.iter().any(|&word| word > 0xFF_FFFF));
    /// ```
    #[inline]
    fn fresh_draw(&self, increment_draw: u32) -> u32 {
        increment_draw
    }
}

/// The default randomness: a cryptographically secure generator per thread, seeded from the
/// operating system — AES-128 in counter mode where the processor has AES instructions (x86
/// and x86-64), ChaCha12 elsewhere.
///
/// - No system call per value: the OS is asked once per thread (and once after a fork), and
///   the cipher stretches that seed.
/// - Fork-safe: a forked child reseeds before its first value, so parent and child never
///   continue the same stream (a `pthread_atfork` handler counts forks, which each draw
///   from the stream compares, and discards the bytes the forking thread drew ahead). A fork
///   from a signal handler that interrupted a draw can leave the child the rest of its
///   parent's block (the draw's own store lands after the handler's discard): a
///   [`Generator`](super::Generator) discards it again when it sees the fork, before it
///   issues an ID in the child.
/// - Unpredictable: from IDs already seen, nobody can compute the next increments — though
///   with at most 20 random bits per ID, an ID must still never serve as a secret.
///
/// # Panics
///
/// The first draw on a thread panics if the operating system cannot supply a seed, as
/// `getrandom` documents for the few systems where that can happen. A draw from a signal
/// handler that interrupted a draw on the same thread may panic (the thread's stream is in
/// use) or repeat the interrupted draw: make no IDs in a signal handler.
///
/// ```
/// use ulid_flake_core::generator::{RandomSource, ThreadRandom};
///
/// let draws: Vec<u32> = (0..4).map(|_| ThreadRandom.next_u32()).collect();
/// assert!(draws.windows(2).any(|pair| pair[0] != pair[1]));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreadRandom;

struct ThreadStream {
    keystream: Keystream,
    forks: u64,
}

thread_local! {
    static STREAM: RefCell<Option<ThreadStream>> = const { RefCell::new(None) };
    static AHEAD: Ahead = const {
        Ahead {
            taken: Cell::new(NONE_AHEAD),
            bytes: [const { Cell::new(0) }; AHEAD_LEN + 3],
        }
    };
}

/// A block of the thread's stream drawn ahead for [`RandomSource::increment_draw`] and
/// [`RandomSource::fresh_draw`], and how much of it is taken.
struct Ahead {
    /// How many of the block's bytes are taken: the index of the next one to hand out, or
    /// [`NONE_AHEAD`] (no block) on a thread's start and in a forked child (see
    /// [`discard_ahead`]). An index rather than a pointer into `bytes`: a draw is then
    /// a load of it and a load at it from the thread's own base, with no unsafe code, where a
    /// pointer's range check needed the block's address worked out first (a load of the
    /// thread's base and two instructions more).
    taken: Cell<usize>,
    /// The block, and 3 bytes that are never a draw's own, so that any draw is one 4-byte
    /// load.
    bytes: [Cell<u8>; AHEAD_LEN + 3],
}

impl RandomSource for ThreadRandom {
    /// Four bytes drawn ahead, as [`RandomSource::fresh_draw`] takes them.
    #[inline]
    fn next_u32(&self) -> u32 {
        take_ahead(4)
    }

    /// One borrow of the thread's stream for all of `dest`: the cipher fills it several
    /// blocks side by side, far below the cost of a `next_u32` per byte.
    ///
    /// ```
    /// use ulid_flake_core::generator::{RandomSource, ThreadRandom};
    ///
    /// let mut bytes = [0; 64];
    /// ThreadRandom.fill_bytes(&mut bytes);
    /// assert!(bytes.iter().any(|&byte| byte != 0));
    /// ```
    #[inline]
    fn fill_bytes(&self, dest: &mut [u8]) {
        with_stream(|stream| stream.keystream.fill_bytes(dest));
    }

    /// Never 0: a zero draw is drawn again here, from the block, as the generator would draw
    /// it again (the increment is uniform over `1..=2^(8n)-1` either way), but without
    /// leaving the generator's common path.
    #[inline]
    fn increment_draw(&self, increment_bytes: u8) -> u32 {
        // One byte, the default width, as a constant, which `take_ahead` folds to a load and
        // a compare.
        let draw = if increment_bytes == 1 {
            take_ahead(1)
        } else {
            take_ahead(u32::from(increment_bytes))
        };
        if draw != 0 {
            draw
        } else {
            nonzero_ahead(increment_bytes)
        }
    }

    #[inline]
    fn fresh_draw(&self, _increment_draw: u32) -> u32 {
        take_ahead(4)
    }
}

/// Runs `draw` on this thread's stream, seeding it first on the thread's first draw and
/// after a fork.
#[inline]
fn with_stream<T>(draw: impl FnOnce(&mut ThreadStream) -> T) -> T {
    STREAM.with(|stream| {
        let mut stream = stream.borrow_mut();
        let forks = fork::count();
        match &mut *stream {
            Some(current) if current.forks == forks => draw(current),
            stale => draw(stale.insert(ThreadStream::seeded())),
        }
    })
}

impl ThreadStream {
    #[cold]
    fn seeded() -> Self {
        // Count after the handlers are in place: a fork from now on changes the count, and
        // discards the bytes drawn ahead.
        fork::watch();
        discard_in_forked_child();
        let forks = fork::count();
        let mut seed = [0; 32];
        if let Err(error) = getrandom::fill(&mut seed) {
            panic!("ulid-flake: the operating system gave no random seed: {error}");
        }
        Self {
            keystream: Keystream::new(seed),
            forks,
        }
    }
}

/// How many bytes of the stream are drawn ahead at a time: 1 KiB, so that what a refill
/// costs beyond the cipher's own bytes (the thread's stream borrowed, its fork count checked,
/// the copies) is spread over 1,024 IDs. Measured against 64 and 256 bytes, with ChaCha12
/// (three alternated runs, `TickerClock`): 4.67, 4.46 and 4.24 ns an ID. A thread's static
/// thread-local storage grows by the block, 1 KiB.
const AHEAD_LEN: usize = 1024;

/// [`Ahead::taken`] when there is no block: above any draw's start, so that the next draw
/// draws a block first.
const NONE_AHEAD: usize = usize::MAX;

/// The next `bytes` (1..=4) bytes drawn ahead, as the low bytes of a word, and nothing above
/// them (they are the next draw's): a thread-local count of the bytes taken, one load at it
/// and the count stored back; a block is drawn again out of line when fewer than `bytes` are
/// left (about once in 1,024 IDs with the default one-byte increments), which is what keeps
/// the stream's cost a byte's, not a word's, per ID.
#[inline(always)]
fn take_ahead(bytes: u32) -> u32 {
    // The generator asks for 1..=4; anything else is taken modulo 4, into 1..=4 (fewer
    // instructions than a clamp), so that no byte is handed out twice.
    let bytes = (bytes.wrapping_sub(1) & 3) as usize + 1;
    AHEAD.with(|ahead| {
        let mut taken = ahead.taken.get();
        if taken > AHEAD_LEN - bytes {
            draw_ahead(ahead);
            taken = 0;
        }
        ahead.taken.set(taken + bytes);
        // `taken` is at most AHEAD_LEN - 1 here: the four bytes are the block's or its 3
        // spare bytes, and the compiler sees it (no bounds check).
        let four = &ahead.bytes[taken..taken + 4];
        // One byte, the default increment's width, is one zero-extending load: no mask on
        // the way to the generator's swap.
        if bytes == 1 {
            return u32::from(four[0].get());
        }
        u32::from_le_bytes([four[0].get(), four[1].get(), four[2].get(), four[3].get()])
            & (u32::MAX >> (32 - 8 * bytes))
    })
}

/// The next nonzero draw of `bytes` bytes ahead (1 in 2^(8 * bytes) draws is 0).
#[cold]
#[inline(never)]
fn nonzero_ahead(bytes: u8) -> u32 {
    loop {
        let draw = take_ahead(u32::from(bytes));
        if draw != 0 {
            return draw;
        }
    }
}

/// A block of the thread's stream (which reseeds a forked child's stream first).
#[cold]
#[inline(never)]
fn draw_ahead(ahead: &Ahead) {
    let mut block = [0; AHEAD_LEN];
    with_stream(|stream| stream.keystream.fill_bytes(&mut block));
    for (cell, byte) in ahead.bytes.iter().zip(block) {
        cell.set(byte);
    }
}

/// Registers, once per process, a `pthread_atfork` handler that empties the forking
/// thread's bytes drawn ahead in the child — the only thread a child has — so that the
/// child draws its own from its reseeded stream, and the common path checks no fork count.
/// Runs before the first bytes are drawn (the stream's seeding calls it).
#[cfg(unix)]
fn discard_in_forked_child() {
    extern "C" fn discard() {
        discard_ahead();
    }
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // SAFETY: the handler stores one word, async-signal-safe (see above).
        let status = unsafe { libc::pthread_atfork(None, None, Some(discard)) };
        assert!(status == 0, "ulid-flake: pthread_atfork failed ({status})");
    });
}

/// Without `fork`, nothing to discard.
#[cfg(not(unix))]
fn discard_in_forked_child() {}

/// Discards this thread's bytes drawn ahead: its next draw draws a block from its stream
/// (reseeded first after a fork). A const-initialised thread-local without a destructor: a
/// plain store to the thread's own memory, as a handler run in a freshly forked child must
/// be.
pub(super) fn discard_ahead() {
    AHEAD.with(|ahead| ahead.taken.set(NONE_AHEAD));
}

/// Shared sources: a test keeps one handle and gives the generator another.
macro_rules! forward_random {
    ($($pointer:ty),*) => {$(
        impl<R: RandomSource + ?Sized> RandomSource for $pointer {
            fn next_u32(&self) -> u32 {
                (**self).next_u32()
            }
            fn fill_bytes(&self, dest: &mut [u8]) {
                (**self).fill_bytes(dest);
            }
            fn increment_draw(&self, increment_bytes: u8) -> u32 {
                (**self).increment_draw(increment_bytes)
            }
            fn fresh_draw(&self, increment_draw: u32) -> u32 {
                (**self).fresh_draw(increment_draw)
            }
        }
    )*};
}
forward_random!(&R, alloc::sync::Arc<R>);

#[cfg(test)]
mod tests {
    use super::*;

    /// Puts `bytes` at the start of this thread's block, and takes none of it yet.
    fn script_block(bytes: &[u8]) {
        AHEAD.with(|ahead| {
            for (cell, &byte) in ahead.bytes.iter().zip(bytes) {
                cell.set(byte);
            }
            ahead.taken.set(0);
        });
    }

    /// How many bytes of this thread's block are taken.
    fn taken() -> usize {
        AHEAD.with(|ahead| ahead.taken.get())
    }

    /// A shared handle draws as the source it shares: the block's next bytes, as many as
    /// asked for and no more (the bytes above are the next draw's).
    #[test]
    fn shared_handles_forward_every_draw() {
        script_block(&[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]);
        let shared = alloc::sync::Arc::new(ThreadRandom);
        assert_eq!(shared.increment_draw(1), 0x11);
        assert_eq!(RandomSource::increment_draw(&&ThreadRandom, 2), 0x3322);
        assert_eq!(ThreadRandom.increment_draw(1), 0x44);
        assert_eq!(shared.fresh_draw(0x44), 0x8877_6655);
    }

    /// An increment is never 0: a zero draw is drawn again from the next bytes, of its own
    /// width; a millisecond's first randomness may be 0.
    #[test]
    fn zero_increments_are_drawn_again_from_the_block() {
        script_block(&[
            0, 0, 7, // width 1: two zeros skipped
            0, 0, 0x34, 0x12, // width 2: a zero draw skipped
            0, 1, // width 2: a zero low byte is no zero draw
            0, 0, 0, 0, 0, 0xAB, // width 3: a zero draw skipped
            0, 0, 0, 0, // a millisecond's first randomness: 0 is kept
            0, 9,
        ]);
        assert_eq!(ThreadRandom.increment_draw(1), 7);
        assert_eq!(ThreadRandom.increment_draw(2), 0x1234);
        assert_eq!(ThreadRandom.increment_draw(2), 0x0100);
        assert_eq!(ThreadRandom.increment_draw(3), 0xAB_0000);
        assert_eq!(ThreadRandom.fresh_draw(0xAB_0000), 0);
        assert_eq!(ThreadRandom.increment_draw(1), 9);
        assert_eq!(taken(), 21);
    }

    /// A zero in the block's last byte is drawn again from the next block: its first nonzero
    /// byte.
    #[test]
    fn a_zero_increment_at_the_block_s_end_is_drawn_again_from_the_next_block() {
        AHEAD.with(|ahead| {
            ahead.bytes[AHEAD_LEN - 1].set(0);
            ahead.taken.set(AHEAD_LEN - 1);
        });
        let draw = ThreadRandom.increment_draw(1);
        let taken = taken();
        let skipped = AHEAD.with(|ahead| {
            ahead.bytes[..taken]
                .iter()
                .map(Cell::get)
                .collect::<alloc::vec::Vec<_>>()
        });
        assert_eq!(skipped.last().map(|&byte| u32::from(byte)), Some(draw));
        assert!(
            skipped[..taken - 1].iter().all(|&byte| byte == 0),
            "{skipped:?}"
        );
        assert_ne!(draw, 0);
    }

    /// A draw that does not fit in the rest of the block takes the next block's first bytes,
    /// never the 3 spare bytes past the block.
    #[test]
    fn a_draw_past_the_block_s_end_takes_the_next_block_not_the_spare_bytes() {
        AHEAD.with(|ahead| {
            ahead.bytes[AHEAD_LEN - 1].set(0x5A);
            for spare in &ahead.bytes[AHEAD_LEN..] {
                spare.set(0xEE);
            }
            ahead.taken.set(AHEAD_LEN - 1);
        });
        assert_eq!(ThreadRandom.increment_draw(1), 0x5A);
        assert_eq!(taken(), AHEAD_LEN);
        let draw = take_ahead(2);
        assert_eq!(taken(), 2);
        let first_two = AHEAD
            .with(|ahead| u32::from(ahead.bytes[0].get()) | u32::from(ahead.bytes[1].get()) << 8);
        assert_eq!(draw, first_two);
    }

    /// A width outside 1..=4 is taken modulo 4, into 1..=4: every byte once.
    #[test]
    fn widths_outside_1_to_4_take_each_byte_once() {
        discard_ahead();
        take_ahead(1);
        take_ahead(0);
        assert_eq!(taken(), 5);
        take_ahead(5);
        assert_eq!(taken(), 6);
    }

    /// A child forked from a signal handler in the middle of a draw may keep the rest of its
    /// parent's block: the draw's store of its position lands after the fork handler's
    /// discard. Played here by putting the position back in the child: the generator sees the
    /// fork and discards the block again, so that the child's IDs in the next milliseconds
    /// are its own, where they were its parent's, one for one.
    #[cfg(unix)]
    #[test]
    fn a_generator_discards_the_bytes_a_child_kept_from_its_parent() {
        use core::sync::atomic::{AtomicI64, Ordering};

        use super::super::{Clock, Generator};

        struct Manual(AtomicI64);
        impl Clock for Manual {
            fn unix_ms(&self) -> i64 {
                self.0.load(Ordering::Relaxed)
            }
        }
        const EPOCH_UNIX_MS: i64 = 1_704_067_200_000;
        let generator = Generator::builder()
            .clock(Manual(AtomicI64::new(EPOCH_UNIX_MS)))
            .build()
            .unwrap();
        generator.try_generate().unwrap();
        let kept = taken();
        // One ID in each of the next 16 milliseconds: each takes a millisecond's first
        // randomness from the block.
        let later_ids = || -> [u64; 16] {
            core::array::from_fn(|index| {
                generator
                    .clock()
                    .0
                    .store(EPOCH_UNIX_MS + 1 + index as i64, Ordering::Relaxed);
                generator.try_generate().unwrap().to_u64()
            })
        };
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: the child makes IDs (atomics, thread-locals, a getrandom call), writes a
        // pipe and leaves with _exit, returning to no test harness code.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            AHEAD.with(|ahead| ahead.taken.set(kept));
            let Ok(ids) = std::panic::catch_unwind(later_ids) else {
                std::process::abort()
            };
            // SAFETY: `ids` is valid for its size; `_exit` skips the parent's destructors.
            unsafe {
                libc::write(fds[1], ids.as_ptr().cast(), size_of_val(&ids));
                libc::_exit(0);
            }
        }
        let parent = later_ids();
        let mut status = 0;
        // SAFETY: waiting for our own child, with a valid status pointer.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        let mut child = [0_u64; 16];
        // SAFETY: reads at most the size of `child` into it; the child's one write of 128
        // bytes (under PIPE_BUF) is whole in the pipe once it has exited.
        let read = unsafe { libc::read(fds[0], child.as_mut_ptr().cast(), size_of_val(&child)) };
        assert_eq!(read, size_of_val(&child) as isize, "the child wrote no IDs");
        // Equal by chance: 16 in 2^20 (each pair differs only by a millisecond's first
        // randomness).
        let shared = child.iter().filter(|id| parent.contains(id)).count();
        assert_eq!(shared, 0, "the child issued {shared} of its parent's IDs");
    }

    /// A forked child takes none of the bytes its parent drew ahead: the parent's next four
    /// and the child's first four differ (equal by chance: 1 in 2^32).
    #[cfg(unix)]
    #[test]
    fn a_forked_child_draws_its_own_bytes_ahead() {
        // A fresh block, one byte taken: the rest left for the parent, and for a child that
        // kept them.
        discard_ahead();
        take_ahead(1);
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: the child takes bytes (thread-locals, an atomic, a getrandom call), writes a
        // pipe and leaves with _exit, returning to no test harness code.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            // A panic here must not unwind into the test harness's copy in the child.
            let Ok(bytes) = std::panic::catch_unwind(|| take_ahead(4).to_ne_bytes()) else {
                std::process::abort()
            };
            // SAFETY: `bytes` is valid for its length; `_exit` skips the parent's destructors.
            unsafe {
                libc::write(fds[1], bytes.as_ptr().cast(), bytes.len());
                libc::_exit(0);
            }
        }
        let parent = take_ahead(4);
        let mut child = [0_u8; 4];
        // SAFETY: reads at most 4 bytes into `child`; the child wrote them before exiting.
        let read = unsafe { libc::read(fds[0], child.as_mut_ptr().cast(), child.len()) };
        assert_eq!(read, 4);
        let mut status = 0;
        // SAFETY: waiting for our own child, with a valid status pointer.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert_ne!(
            u32::from_ne_bytes(child),
            parent,
            "the child took its parent's bytes"
        );
    }
}
