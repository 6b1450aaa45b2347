//! rand 0.10 interop: any `rand` RNG as a generator's randomness.

use std::sync::{Mutex, PoisonError};

use rand_core::Rng;

use crate::generator::fork;
use crate::generator::{RandomSource, ThreadRandom};

/// A [`RandomSource`] made of any rand 0.10 RNG (anything that implements `rand_core::Rng`
/// 0.10: a seeded `StdRng` or `ChaCha8Rng` for reproducible IDs in tests and simulations,
/// `rand::rng()`'s `ThreadRng`, `UnwrapErr(SysRng)` for the operating system's RNG).
///
/// The generator takes `&self`, while an RNG needs `&mut self` to draw, so the RNG sits in
/// a [`Mutex`]: with a `Send` RNG the source is `Send + Sync` and so is the generator, which
/// can then be shared by threads or kept in a `static`, like the default one. The lock is
/// held for one `next_u32` and uncontended in a single thread; a generator shared by many
/// busy threads is faster with the default [`ThreadRandom`](crate::generator::ThreadRandom),
/// which keeps one RNG per thread. (A `RefCell` would save the lock but make the generator
/// `!Sync`, unusable where the default generator is.) A poisoned lock is taken over: an RNG
/// has no invariant a panic elsewhere could break.
///
/// After a `fork`, the child's RNG is a copy of the parent's and would repeat its draws (and
/// so its IDs: `rand::rng()`'s `ThreadRng` is not reseeded in a child either). So in a
/// process forked after the source was made, each draw is the RNG's XOR one of
/// [`ThreadRandom`](crate::generator::ThreadRandom)'s, which is reseeded in each child:
/// uniform still, and not the parent's. A seeded source is reproducible in the process that
/// made it, not in its children.
///
/// ```
/// use rand::SeedableRng;
/// use rand::rngs::StdRng;
/// use ulid_flake_core::generator::Generator;
/// use ulid_flake_core::rand010::RandSource;
///
/// let generator = Generator::builder()
///     .random_source(RandSource::new(StdRng::seed_from_u64(42)))
///     .build()?;
/// let id = generator.generate()?;
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
#[derive(Debug)]
pub struct RandSource<R> {
    rng: Mutex<R>,
    /// The process's fork count when the source was made: elsewhere, the RNG is a copy.
    forks_at_new: u64,
}

impl<R: Default> Default for RandSource<R> {
    /// A source that draws from `R::default()`.
    ///
    /// ```
    /// use rand::rngs::SysRng;
    /// use rand_core::UnwrapErr;
    /// use ulid_flake_core::rand010::RandSource;
    ///
    /// let _source = RandSource::<UnwrapErr<SysRng>>::default();
    /// ```
    fn default() -> Self {
        Self::new(R::default())
    }
}

impl<R> RandSource<R> {
    /// A source that draws from `rng`.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use rand::rngs::StdRng;
    /// use ulid_flake_core::generator::RandomSource;
    /// use ulid_flake_core::rand010::RandSource;
    ///
    /// let a = RandSource::new(StdRng::seed_from_u64(7));
    /// let b = RandSource::new(StdRng::seed_from_u64(7));
    /// assert_eq!(a.next_u32(), b.next_u32());
    /// ```
    pub fn new(rng: R) -> Self {
        fork::watch();
        Self {
            rng: Mutex::new(rng),
            forks_at_new: fork::count(),
        }
    }

    /// Whether this process was forked since the source was made.
    fn in_forked_child(&self) -> bool {
        fork::count() != self.forks_at_new
    }

    /// The RNG back, in the state the draws left it in.
    ///
    /// ```
    /// use rand::{Rng, SeedableRng};
    /// use rand::rngs::StdRng;
    /// use ulid_flake_core::generator::RandomSource;
    /// use ulid_flake_core::rand010::RandSource;
    ///
    /// let source = RandSource::new(StdRng::seed_from_u64(7));
    /// let first = source.next_u32();
    /// let mut rng = source.into_inner();
    /// let mut fresh = StdRng::seed_from_u64(7);
    /// assert_eq!(fresh.next_u32(), first);
    /// assert_eq!(rng.next_u32(), fresh.next_u32());
    /// ```
    pub fn into_inner(self) -> R {
        self.rng
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl<R: Rng> RandomSource for RandSource<R> {
    /// The RNG's next `u32`.
    ///
    /// ```
    /// use rand::{Rng, SeedableRng};
    /// use rand::rngs::StdRng;
    /// use ulid_flake_core::generator::RandomSource;
    /// use ulid_flake_core::rand010::RandSource;
    ///
    /// let source = RandSource::new(StdRng::seed_from_u64(1));
    /// assert_eq!(source.next_u32(), StdRng::seed_from_u64(1).next_u32());
    /// ```
    fn next_u32(&self) -> u32 {
        let draw = self
            .rng
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next_u32();
        if self.in_forked_child() {
            return draw ^ ThreadRandom.next_u32();
        }
        draw
    }

    /// The RNG's `fill_bytes`, under one lock for the whole batch.
    ///
    /// ```
    /// use rand::{Rng, SeedableRng};
    /// use rand::rngs::StdRng;
    /// use ulid_flake_core::generator::RandomSource;
    /// use ulid_flake_core::rand010::RandSource;
    ///
    /// let (mut ours, mut theirs) = ([0; 8], [0; 8]);
    /// RandSource::new(StdRng::seed_from_u64(1)).fill_bytes(&mut ours);
    /// StdRng::seed_from_u64(1).fill_bytes(&mut theirs);
    /// assert_eq!(ours, theirs);
    /// ```
    fn fill_bytes(&self, dest: &mut [u8]) {
        self.rng
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .fill_bytes(dest);
        if self.in_forked_child() {
            let mut mix = [0; 64];
            for chunk in dest.chunks_mut(mix.len()) {
                let mix = &mut mix[..chunk.len()];
                ThreadRandom.fill_bytes(mix);
                chunk
                    .iter_mut()
                    .zip(mix)
                    .for_each(|(byte, mix)| *byte ^= *mix);
            }
        }
    }
}
