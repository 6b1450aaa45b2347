//! Building a [`Generator`]: [`Generator::new`], [`Generator::builder`] and the
//! [`GeneratorBuilder`], whose settings [`Config`] validates.

#[cfg(not(ulid_flake_loom))]
use core::sync::atomic::AtomicU64;
use core::time::Duration;

#[cfg(ulid_flake_loom)]
use loom::sync::atomic::AtomicU64;

use super::clock::{Clock, SystemClock};
use super::config::{Config, DEFAULT_ROLLBACK_ALLOWANCE, Layout, Settings};
use super::random::{RandomSource, ThreadRandom};
use super::state::{Generator, NO_ID_YET, OwnCacheLine};
use super::{default, fork, gate};
use crate::epoch::Epoch;
use crate::error::Error;

/// Configures and builds a [`Generator`]; every setting is validated by
/// [`GeneratorBuilder::build`].
///
/// ```
/// use std::time::Duration;
/// use ulid_flake_core::{Epoch, generator::{Generator, Layout}};
///
/// let generator = Generator::builder()
///     .epoch(Epoch::from_unix_ms(1_735_689_600_000)?)
///     .layout(Layout::Scalable { scalability_id: 7 })
///     .entropy_bytes(2)
///     .rollback_allowance(Duration::from_millis(250))
///     .build()?;
/// assert_eq!(generator.entropy_bytes(), 2);
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
#[derive(Clone, Debug)]
#[must_use = "a builder does nothing until `build` is called"]
pub struct GeneratorBuilder<C = SystemClock, R = ThreadRandom> {
    settings: Settings,
    clock: C,
    random: R,
}

impl GeneratorBuilder {
    /// The defaults of [`Generator::new`].
    pub(super) fn new() -> Self {
        Self {
            settings: Settings {
                epoch: Epoch::DEFAULT,
                layout: Layout::StandAlone,
                entropy_bytes: 1,
                rollback_allowance: DEFAULT_ROLLBACK_ALLOWANCE,
                headroom_bits: 0,
            },
            clock: SystemClock,
            random: ThreadRandom,
        }
    }
}

impl<C, R> GeneratorBuilder<C, R> {
    /// The epoch timestamps count from; [`Epoch::DEFAULT`] unless set.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, generator::Generator};
    /// let generator = Generator::builder().epoch(Epoch::UNIX).build()?;
    /// assert_eq!(generator.epoch(), Epoch::UNIX);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn epoch(mut self, epoch: Epoch) -> Self {
        self.settings.epoch = epoch;
        self
    }

    /// The layout; [`Layout::StandAlone`] unless set.
    ///
    /// ```
    /// use ulid_flake_core::{Error, generator::{Generator, Layout}};
    /// let result = Generator::builder().layout(Layout::Scalable { scalability_id: 32 }).build();
    /// assert_eq!(result.unwrap_err(), Error::InvalidScalabilityId { found: 32 });
    /// ```
    pub fn layout(mut self, layout: Layout) -> Self {
        self.settings.layout = layout;
        self
    }

    /// The scalable layout with this scalability id when the environment variable
    /// [`SCALABILITY_ID_VARIABLE`](super::SCALABILITY_ID_VARIABLE) (`ULID_FLAKE_SCALABILITY_ID`) is set; the layout set so
    /// far when it is not. This is how the process-wide default generator is configured, for
    /// containers where each replica gets its own id.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidEnvironmentValue`], naming the variable and showing the value, when it
    /// holds anything but a decimal integer 0..=31 (surrounding white space allowed; an empty
    /// value is an error, not "unset"): a bad value is never ignored.
    ///
    /// ```
    /// use ulid_flake_core::generator::{Generator, Layout};
    ///
    /// // With the variable unset, the layout stays as it was.
    /// let builder = Generator::builder().layout_from_env()?;
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn layout_from_env(self) -> Result<Self, Error> {
        match default::scalability_id_from_env()? {
            Some(scalability_id) => Ok(self.layout(Layout::Scalable { scalability_id })),
            None => Ok(self),
        }
    }

    /// The entropy size in bytes, which bounds the random increment within a millisecond:
    /// `1..=3` stand-alone, `1..=2` scalable; 1 unless set. Larger increments make the next
    /// ID harder to guess but exhaust a millisecond sooner.
    ///
    /// ```
    /// use ulid_flake_core::{Error, generator::Generator};
    /// let result = Generator::builder().entropy_bytes(4).build();
    /// assert_eq!(result.unwrap_err(), Error::InvalidEntropySize { found: 4, max: 3 });
    /// ```
    pub fn entropy_bytes(mut self, entropy_bytes: u8) -> Self {
        self.settings.entropy_bytes = entropy_bytes;
        self
    }

    /// A guaranteed capacity per millisecond (from SCRU160): the first ID of each millisecond
    /// draws its randomness from the lower `2^(F-h)` values of the field only (`F` = 20
    /// stand-alone, 15 scalable; `h` = `headroom_bits`), so at least `2^F - 2^(F-h)` values
    /// are left above it for the increments, and every millisecond holds at least
    /// [`Generator::guaranteed_ids_per_ms`] IDs: `1 + ⌊(2^F − 2^(F−h)) / (2^(8n) − 1)⌋`
    /// (`n` the entropy size in bytes) — 2,057 stand-alone with `h` = 1 and 1-byte entropy,
    /// where without headroom a millisecond whose first draw lands at the top holds 1.
    ///
    /// The cost: the first ID of a millisecond has `h` fewer unpredictable bits (its top `h`
    /// randomness bits are 0), and IDs cluster in the lower part of the field. The
    /// increments, and so the guessability of the IDs after the first, are unchanged. Two
    /// independent generators (two stand-alone processes, a forked parent and child) whose
    /// first IDs of a millisecond meet now collide with probability `2^-(F-h)` instead of
    /// `2^-F`. The guarantee holds for a millisecond that starts with a fresh draw, not for
    /// one continued after a clock rollback.
    /// `0..=F-1`; 0 (off, the specification's uniform draw over the whole field) unless set.
    ///
    /// ```
    /// use ulid_flake_core::{Error, generator::Generator};
    ///
    /// let generator = Generator::builder().headroom_bits(1).build()?;
    /// assert_eq!(generator.guaranteed_ids_per_ms(), 2_057);
    /// let too_much = Generator::builder().headroom_bits(20).build();
    /// assert_eq!(too_much.unwrap_err(), Error::InvalidHeadroom { found: 20, max: 19 });
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn headroom_bits(mut self, headroom_bits: u8) -> Self {
        self.settings.headroom_bits = headroom_bits;
        self
    }

    /// How far the clock may move back (counted in whole milliseconds) before generation
    /// fails with [`Error::ClockMovedBackwards`]; within it, IDs carry on in the last
    /// millisecond. [`DEFAULT_ROLLBACK_ALLOWANCE`] unless set; zero fails on any rollback,
    /// as the reference implementations do.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ulid_flake_core::generator::Generator;
    /// let generator = Generator::builder().rollback_allowance(Duration::ZERO).build()?;
    /// assert_eq!(generator.rollback_allowance_ms(), 0);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn rollback_allowance(mut self, allowance: Duration) -> Self {
        self.settings.rollback_allowance = allowance;
        self
    }

    /// The time source; [`SystemClock`] unless set.
    ///
    /// ```
    /// use ulid_flake_core::generator::{Generator, SystemClock};
    /// let generator = Generator::builder().clock(SystemClock).build()?;
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn clock<C2: Clock>(self, clock: C2) -> GeneratorBuilder<C2, R> {
        GeneratorBuilder {
            settings: self.settings,
            clock,
            random: self.random,
        }
    }

    /// The randomness source; [`ThreadRandom`] unless set. It must be cryptographically
    /// secure for the IDs to be hard to guess.
    ///
    /// ```
    /// use ulid_flake_core::generator::{Generator, ThreadRandom};
    /// let generator = Generator::builder().random_source(ThreadRandom).build()?;
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn random_source<R2: RandomSource>(self, random: R2) -> GeneratorBuilder<C, R2> {
        GeneratorBuilder {
            settings: self.settings,
            clock: self.clock,
            random,
        }
    }

    /// Validates the settings and builds the generator.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidScalabilityId`] for an id above 31; [`Error::InvalidEntropySize`] for
    /// an entropy size outside the layout's range; [`Error::InvalidHeadroom`] for a headroom
    /// of the whole field or more.
    ///
    /// ```
    /// let generator = ulid_flake_core::generator::Generator::builder().build()?;
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn build(self) -> Result<Generator<C, R>, Error> {
        self.build_with_deadline(gate::UNLEASED)
    }

    /// Builds a generator for a lease: scalable, with `scalability_id`, and a closed gate that
    /// only the lease opens.
    pub(crate) fn build_leased(self, scalability_id: u8) -> Result<Generator<C, R>, Error> {
        self.layout(Layout::Scalable { scalability_id })
            .build_with_deadline(0)
    }

    fn build_with_deadline(self, deadline: u64) -> Result<Generator<C, R>, Error> {
        fork::watch();
        let config = Config::new(self.settings)?;
        Ok(Generator {
            last: OwnCacheLine(AtomicU64::new(NO_ID_YET)),
            gate: AtomicU64::new(gate::word(deadline, config.low_bits)),
            forks_seen: AtomicU64::new(fork::count()),
            lost_deadline: AtomicU64::new(0),
            skew_ms: AtomicU64::new(super::state::NO_SKEW),
            skew_bound_ms: AtomicU64::new(0),
            config,
            clock: self.clock,
            random: self.random,
        })
    }
}

impl Generator {
    /// A stand-alone generator with the default epoch, 1 byte of entropy, the default
    /// rollback allowance, the system clock and [`ThreadRandom`].
    ///
    /// ```
    /// let id = ulid_flake_core::generator::Generator::new().generate()?;
    /// assert_eq!(id.to_string().len(), 13);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::builder()
            .build()
            .expect("the default configuration is valid")
    }

    /// A builder, starting from the defaults of [`Generator::new`].
    ///
    /// ```
    /// use ulid_flake_core::generator::{Generator, Layout};
    ///
    /// let generator = Generator::builder()
    ///     .layout(Layout::Scalable { scalability_id: 3 })
    ///     .build()?;
    /// assert_eq!(generator.generate()?.scalability_id(), 3);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn builder() -> GeneratorBuilder {
        GeneratorBuilder::new()
    }
}

impl Default for Generator {
    /// [`Generator::new`].
    fn default() -> Self {
        Self::new()
    }
}
