//! IDs for a given moment, outside the generator's sequence: its epoch, layout and
//! randomness, a timestamp of the caller's.

#[cfg(not(ulid_flake_loom))]
use core::sync::atomic::Ordering;
#[cfg(ulid_flake_loom)]
use loom::sync::atomic::Ordering;

use super::clock::Clock;
use super::gate;
use super::random::RandomSource;
use super::state::Generator;
use crate::error::Error;
use crate::moment::{self, Moment, UnixMs};
use crate::ulid_flake::UlidFlake;

impl<C: Clock, R: RandomSource> Generator<C, R> {
    /// An ID for a [`Moment`] of any time library, rounded down to its millisecond (towards
    /// the past, before 1970 too): the timestamp is the moment minus the epoch, the randomness
    /// a fresh draw over the whole field, and, in the scalable layout, the scalability id this
    /// generator's. The generator's state is neither read nor changed, so such IDs carry no
    /// ordering promise among themselves within a millisecond.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] for a moment before the epoch or past its last
    /// millisecond.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use ulid_flake_core::UnixMs;
    /// use ulid_flake_core::generator::Generator;
    ///
    /// let generator = Generator::new();
    /// assert_eq!(generator.id_at(UnixMs(1_704_067_200_007))?.ms_since_epoch(), 7);
    /// let moment = UNIX_EPOCH + Duration::from_micros(1_704_067_200_009_999);
    /// assert_eq!(generator.id_at(moment)?.ms_since_epoch(), 9);
    /// assert!(generator.id_at(UnixMs(0)).is_err()); // before the epoch
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn id_at<M: Moment>(&self, moment: M) -> Result<UlidFlake, Error> {
        let timestamp = self
            .config
            .epoch
            .ms_since_epoch_at(moment::floor_ms(&moment))?;
        let fresh = self.random.next_u32() & self.config.randomness_max;
        let low_bits = gate::scalability_id(self.gate.load(Ordering::Relaxed));
        Ok(UlidFlake::from_raw(
            self.config.compose(timestamp, fresh, low_bits),
        ))
    }

    /// An ID for a moment given in whole Unix seconds, the reference implementations'
    /// `from_unix_epoch_time`: [`Generator::id_at`]`(UnixMs(unix_seconds * 1000))` with checked
    /// arithmetic, so that no input overflows.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] for a moment before the epoch or past its last
    /// millisecond.
    ///
    /// ```
    /// use ulid_flake_core::generator::Generator;
    ///
    /// let generator = Generator::new();
    /// let id = generator.from_unix_epoch_time(1_704_067_201)?; // 2024-01-01T00:00:01Z
    /// assert_eq!(id.ms_since_epoch(), 1_000);
    /// assert!(generator.from_unix_epoch_time(1_700_000_000).is_err()); // before the epoch
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_unix_epoch_time(&self, unix_seconds: u64) -> Result<UlidFlake, Error> {
        let unix_ms = i64::try_from(unix_seconds)
            .ok()
            .and_then(|seconds| seconds.checked_mul(1000))
            .ok_or(Error::TimestampOutOfRange {
                found_ms: i128::from(unix_seconds) * 1000 - i128::from(self.config.epoch.unix_ms()),
            })?;
        self.id_at(UnixMs(unix_ms))
    }
}
