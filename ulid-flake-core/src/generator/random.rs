//! Randomness sources for the generator.

use core::cell::RefCell;
use std::thread_local;

use rand_chacha::ChaCha12Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::fork;

/// A source of uniformly distributed random `u32`s.
///
/// The generator takes `&self`, so a source is shared by every thread that generates;
/// [`ThreadRandom`], the default, keeps its state per thread. Tests inject a scripted source
/// to drive the generator through every edge case.
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
    /// increments of a batch with one call.
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
}

/// The default randomness: a ChaCha12 cryptographically secure generator per thread, seeded
/// from the operating system.
///
/// - No system call per value: the OS is asked once per thread (and once after a fork), and
///   ChaCha12 stretches that seed.
/// - Fork-safe: a forked child reseeds before its first value, so parent and child never
///   continue the same stream (a `pthread_atfork` handler counts forks; each draw compares
///   one atomic counter).
/// - Unpredictable: from IDs already seen, nobody can compute the next increments — though
///   with at most 20 random bits per ID, an ID must still never serve as a secret.
///
/// # Panics
///
/// The first draw on a thread panics if the operating system cannot supply a seed, as
/// `getrandom` documents for the few systems where that can happen.
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
    rng: ChaCha12Rng,
    forks: u64,
}

thread_local! {
    static STREAM: RefCell<Option<ThreadStream>> = const { RefCell::new(None) };
}

impl RandomSource for ThreadRandom {
    #[inline]
    fn next_u32(&self) -> u32 {
        with_stream(|rng| rng.next_u32())
    }

    /// One borrow of the thread's stream for all of `dest`: ChaCha12 fills it a block of
    /// 64 bytes at a time (vectorised), far below the cost of a `next_u32` per byte.
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
        with_stream(|rng| rng.fill_bytes(dest));
    }
}

/// Runs `draw` on this thread's stream, seeding it first on the thread's first draw and
/// after a fork.
#[inline]
fn with_stream<T>(draw: impl FnOnce(&mut ChaCha12Rng) -> T) -> T {
    STREAM.with(|stream| {
        let mut stream = stream.borrow_mut();
        let forks = fork::count();
        match &mut *stream {
            Some(current) if current.forks == forks => draw(&mut current.rng),
            stale => draw(&mut stale.insert(ThreadStream::seeded()).rng),
        }
    })
}

impl ThreadStream {
    #[cold]
    fn seeded() -> Self {
        // Count after the handler is in place: a fork from now on changes the count.
        fork::watch();
        let forks = fork::count();
        let mut seed = [0; 32];
        if let Err(error) = getrandom::fill(&mut seed) {
            panic!("ulid-flake: the operating system gave no random seed: {error}");
        }
        Self {
            rng: ChaCha12Rng::from_seed(seed),
            forks,
        }
    }
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
        }
    )*};
}
forward_random!(&R, alloc::sync::Arc<R>);
