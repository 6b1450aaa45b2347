//! The epoch that timestamps count from, and time-window queries.

use core::ops::Range;

use crate::error::Error;
use crate::layout::{MAX_EPOCH_UNIX_MS, MAX_TIMESTAMP};
use crate::ulid_flake::UlidFlake;

/// The moment that a Ulid-Flake's 43-bit timestamp counts milliseconds from.
///
/// An ID does not store its epoch: the application fixes one (the default,
/// 2024-01-01T00:00:00Z, unless there is a reason to differ) and uses it everywhere it turns
/// an ID into a moment or back.
///
/// ```
/// use ulid_flake_core::Epoch;
///
/// assert_eq!(Epoch::DEFAULT.unix_ms(), 1_704_067_200_000);
/// let epoch = Epoch::from_unix_ms(1_735_689_600_000).unwrap(); // 2025-01-01
/// assert_eq!(epoch.unix_ms(), 1_735_689_600_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Epoch {
    unix_ms: u64,
}

impl Default for Epoch {
    /// [`Epoch::DEFAULT`].
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl Epoch {
    /// 2024-01-01T00:00:00Z, the epoch of the Ulid-Flake specification.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::Epoch::DEFAULT.unix_ms(), 1_704_067_200_000);
    /// ```
    pub const DEFAULT: Self = Self {
        unix_ms: 1_704_067_200_000,
    };

    /// The Unix epoch, 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::Epoch::UNIX.unix_ms(), 0);
    /// ```
    pub const UNIX: Self = Self { unix_ms: 0 };

    /// The latest epoch: the one whose last ID falls on the last millisecond that 48 bits of
    /// Unix milliseconds can hold (the timestamp field of a UUIDv7), in the year 10610.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, MAX_TIMESTAMP};
    /// assert_eq!(Epoch::MAX.unix_ms() + MAX_TIMESTAMP, (1 << 48) - 1);
    /// ```
    pub const MAX: Self = Self {
        unix_ms: MAX_EPOCH_UNIX_MS,
    };

    /// An epoch given in milliseconds since the Unix epoch.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidEpoch`] when `unix_ms` is later than [`Epoch::MAX`].
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Error};
    ///
    /// assert_eq!(Epoch::from_unix_ms(1_704_067_200_000), Ok(Epoch::DEFAULT));
    /// assert_eq!(
    ///     Epoch::from_unix_ms(u64::MAX),
    ///     Err(Error::InvalidEpoch { found_unix_ms: u64::MAX as i128 })
    /// );
    /// ```
    pub const fn from_unix_ms(unix_ms: u64) -> Result<Self, Error> {
        if unix_ms > Self::MAX.unix_ms {
            return Err(Error::InvalidEpoch {
                found_unix_ms: unix_ms as i128,
            });
        }
        Ok(Self { unix_ms })
    }

    /// An epoch given as a [`SystemTime`](std::time::SystemTime), truncated to the
    /// millisecond.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidEpoch`] for a moment before 1970 or after [`Epoch::MAX`].
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use ulid_flake_core::Epoch;
    ///
    /// let moment = UNIX_EPOCH + Duration::from_millis(1_704_067_200_000);
    /// assert_eq!(Epoch::from_system_time(moment), Ok(Epoch::DEFAULT));
    /// ```
    #[cfg(feature = "std")]
    pub fn from_system_time(moment: std::time::SystemTime) -> Result<Self, Error> {
        match moment.duration_since(std::time::UNIX_EPOCH) {
            Ok(since) => Self::from_unix_ms(u64::try_from(since.as_millis()).unwrap_or(u64::MAX)),
            Err(before) => Err(Error::InvalidEpoch {
                found_unix_ms: -i128::try_from(before.duration().as_millis()).unwrap_or(i128::MAX),
            }),
        }
    }

    /// The epoch in milliseconds since the Unix epoch.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::Epoch::DEFAULT.unix_ms(), 1_704_067_200_000);
    /// ```
    pub const fn unix_ms(self) -> u64 {
        self.unix_ms
    }

    /// The epoch as a [`SystemTime`](std::time::SystemTime).
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use ulid_flake_core::Epoch;
    ///
    /// assert_eq!(
    ///     Epoch::DEFAULT.to_system_time(),
    ///     UNIX_EPOCH + Duration::from_millis(1_704_067_200_000)
    /// );
    /// ```
    #[cfg(feature = "std")]
    pub fn to_system_time(self) -> std::time::SystemTime {
        std::time::UNIX_EPOCH + core::time::Duration::from_millis(self.unix_ms)
    }

    /// The milliseconds since this epoch of a moment given in Unix milliseconds: the
    /// [`UlidFlake::ms_since_epoch`] of an ID made at that moment.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] when the moment is before this epoch or more than
    /// [`MAX_TIMESTAMP`] ms after it.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Error};
    ///
    /// assert_eq!(Epoch::DEFAULT.ms_since_epoch_at(1_704_067_200_123), Ok(123));
    /// assert_eq!(
    ///     Epoch::DEFAULT.ms_since_epoch_at(1_704_067_199_999),
    ///     Err(Error::TimestampOutOfRange { found_ms: -1 })
    /// );
    /// ```
    pub const fn ms_since_epoch_at(self, unix_ms: i64) -> Result<u64, Error> {
        // i64 - u64 with both below 2^63 cannot overflow i128.
        let timestamp = unix_ms as i128 - self.unix_ms as i128;
        if timestamp < 0 || timestamp > MAX_TIMESTAMP as i128 {
            return Err(Error::TimestampOutOfRange {
                found_ms: timestamp,
            });
        }
        Ok(timestamp as u64)
    }

    /// The range of IDs made during a window of [`SystemTime`](std::time::SystemTime)s
    /// (`start` inclusive, `end` exclusive), as [`Epoch::range_for`] does for Unix
    /// milliseconds. IDs tell time to the millisecond, so a window that starts or ends inside
    /// a millisecond covers that whole millisecond.
    /// [`Id::range_for_system_time`](crate::Id::range_for_system_time) gives the same bounds
    /// typed as `Id<T>`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let start = Epoch::DEFAULT.to_system_time() + Duration::from_secs(60);
    /// let (lowest, highest) = Epoch::DEFAULT
    ///     .range_for_system_time(start..start + Duration::from_secs(1))
    ///     .unwrap();
    /// assert_eq!(lowest.ms_since_epoch(), 60_000);
    /// assert_eq!(highest.ms_since_epoch(), 60_999);
    /// ```
    #[cfg(feature = "std")]
    pub fn range_for_system_time(
        self,
        window: Range<std::time::SystemTime>,
    ) -> Option<(UlidFlake, UlidFlake)> {
        /// Unix milliseconds, rounded down (`ceil` false) or up, saturating.
        fn unix_ms(moment: std::time::SystemTime, ceil: bool) -> i64 {
            let (nanos, sign) = match moment.duration_since(std::time::UNIX_EPOCH) {
                Ok(since) => (since.as_nanos(), 1),
                Err(before) => (before.duration().as_nanos(), -1),
            };
            let ms = nanos / 1_000_000;
            let partial = nanos % 1_000_000 != 0;
            // Away from zero when rounding towards the wanted side.
            let ms = ms + u128::from(partial && (ceil == (sign > 0)));
            i64::try_from(ms).map_or(i64::MAX * sign, |ms| ms * sign)
        }
        self.range_for(unix_ms(window.start, false)..unix_ms(window.end, true))
    }

    /// The range of IDs made during a window of Unix milliseconds (`start` inclusive, `end`
    /// exclusive), as the inclusive bounds `(lowest, highest)` for an SQL `BETWEEN` on the
    /// primary key; `None` when no ID can fall in the window (it is empty, or lies wholly
    /// outside the timestamp range of this epoch). Parts of the window outside that range
    /// are clipped.
    ///
    /// Because integer order is time order, `id BETWEEN lowest AND highest` finds exactly
    /// the rows whose IDs were made in the window, through the primary-key index.
    /// [`Id::range_for`](crate::Id::range_for) gives the same bounds typed as `Id<T>`.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let start = Epoch::DEFAULT.unix_ms() as i64 + 1_000;
    /// let (lowest, highest) = Epoch::DEFAULT.range_for(start..start + 10).unwrap();
    /// assert_eq!(lowest, UlidFlake::from_parts(1_000, 0).unwrap());
    /// assert_eq!(highest, UlidFlake::from_parts(1_009, (1 << 20) - 1).unwrap());
    /// assert_eq!(Epoch::DEFAULT.range_for(start..start), None);
    /// ```
    pub const fn range_for(self, window: Range<i64>) -> Option<(UlidFlake, UlidFlake)> {
        let epoch = self.unix_ms as i128;
        let mut first = window.start as i128 - epoch;
        // `end` is exclusive: the last millisecond of the window is one before it.
        let mut last = window.end as i128 - 1 - epoch;
        if first < 0 {
            first = 0;
        }
        if last > MAX_TIMESTAMP as i128 {
            last = MAX_TIMESTAMP as i128;
        }
        if first > last {
            return None;
        }
        Some((
            UlidFlake::from_raw((first as u64) << crate::layout::RANDOMNESS_BITS),
            UlidFlake::from_raw(
                ((last as u64) << crate::layout::RANDOMNESS_BITS)
                    | crate::layout::RANDOMNESS_MAX as u64,
            ),
        ))
    }
}

/// The readings of an ID that need its epoch, which the ID does not store.
impl UlidFlake {
    /// The moment of the ID in milliseconds since the Unix epoch, given the epoch it was made
    /// with.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let id = UlidFlake::from_parts(5, 0)?;
    /// assert_eq!(id.unix_ms(Epoch::DEFAULT), 1_704_067_200_005);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn unix_ms(self, epoch: Epoch) -> u64 {
        // Cannot overflow: the epoch is at most 2^48 - 2^43 and the timestamp below 2^43.
        epoch.unix_ms() + self.ms_since_epoch()
    }

    /// The moment of the ID as a [`SystemTime`](std::time::SystemTime), given the epoch it
    /// was made with: [`UlidFlake::unix_ms`] after `UNIX_EPOCH`.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let id = UlidFlake::from_parts(5, 0)?;
    /// assert_eq!(id.system_time(Epoch::DEFAULT), UNIX_EPOCH + Duration::from_millis(1_704_067_200_005));
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn system_time(self, epoch: Epoch) -> std::time::SystemTime {
        std::time::UNIX_EPOCH + core::time::Duration::from_millis(self.unix_ms(epoch))
    }
}
