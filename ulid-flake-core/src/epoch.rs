//! The epoch that timestamps count from, and the readings of an ID that need it: its moment,
//! the ID of a moment, the IDs of a time window.

use core::ops::Range;

use crate::error::Error;
use crate::layout::{MAX_EPOCH_UNIX_MS, MAX_TIMESTAMP, RANDOMNESS_BITS, RANDOMNESS_MAX};
use crate::moment::{self, Moment};
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

    /// An epoch given as a [`Moment`] of any time library, rounded down to the
    /// millisecond.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidEpoch`] for a moment before 1970 or after [`Epoch::MAX`].
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use ulid_flake_core::{Epoch, Error, UnixMs};
    ///
    /// let moment = UNIX_EPOCH + Duration::from_millis(1_704_067_200_000);
    /// assert_eq!(Epoch::from_moment(moment), Ok(Epoch::DEFAULT));
    /// assert_eq!(Epoch::from_moment(UnixMs(-1)), Err(Error::InvalidEpoch { found_unix_ms: -1 }));
    /// ```
    pub fn from_moment<M: Moment>(moment: M) -> Result<Self, Error> {
        let unix_ms = moment::floor_ms(&moment);
        match u64::try_from(unix_ms) {
            Ok(unix_ms) => Self::from_unix_ms(unix_ms),
            Err(_) => Err(Error::InvalidEpoch {
                found_unix_ms: unix_ms.into(),
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

    /// The epoch as a [`Moment`] of any time library.
    ///
    /// # Errors
    ///
    /// [`Error::DateTimeOutOfRange`] when the type cannot hold the epoch: `time`'s
    /// `OffsetDateTime` and jiff's `Timestamp` end in the year 9999, before the latest epochs.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime, UNIX_EPOCH};
    /// use ulid_flake_core::{Epoch, UnixMs};
    ///
    /// assert_eq!(Epoch::DEFAULT.to_moment(), Ok(UnixMs(1_704_067_200_000)));
    /// assert_eq!(
    ///     Epoch::DEFAULT.to_moment::<SystemTime>()?,
    ///     UNIX_EPOCH + Duration::from_millis(1_704_067_200_000)
    /// );
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn to_moment<M: Moment>(self) -> Result<M, Error> {
        M::from_unix_ms(self.unix_ms)
    }

    /// The milliseconds since this epoch of a moment given in Unix milliseconds: the
    /// [`UlidFlake::ms_since_epoch`] of an ID made at that moment; [`Error::TimestampOutOfRange`]
    /// when the moment is before this epoch or more than [`MAX_TIMESTAMP`] ms after it.
    #[inline]
    pub(crate) const fn ms_since_epoch_at(self, unix_ms: i64) -> Result<u64, Error> {
        // Modulo 2^64, so that one comparison checks both ends (the generator's every call
        // takes this step): with the epoch below 2^48, a moment before it comes out at
        // 2^63 - 2^48 or more, far above MAX_TIMESTAMP.
        let timestamp = (unix_ms as u64).wrapping_sub(self.unix_ms);
        if timestamp > MAX_TIMESTAMP {
            return Err(self.out_of_range(unix_ms));
        }
        Ok(timestamp)
    }

    /// The error of a moment outside this epoch's range; out of line, so that the
    /// generator's common path falls through the check.
    #[cold]
    const fn out_of_range(self, unix_ms: i64) -> Error {
        Error::TimestampOutOfRange {
            // i64 - u64 with both below 2^63 cannot overflow i128.
            found_ms: unix_ms as i128 - self.unix_ms as i128,
        }
    }
}

/// The inclusive bounds of the IDs whose moments fall in `start..end`, Unix milliseconds,
/// clipped to the epoch's range.
fn id_range(epoch: Epoch, start: i64, end: i64) -> Option<(UlidFlake, UlidFlake)> {
    let epoch = i128::from(epoch.unix_ms);
    let first = (i128::from(start) - epoch).max(0);
    // `end` is exclusive: the last millisecond of the window is one before it.
    let last = (i128::from(end) - 1 - epoch).min(MAX_TIMESTAMP.into());
    if first > last {
        return None;
    }
    // Both within 0..=MAX_TIMESTAMP now: lossless.
    let (first, last) = (first as u64, last as u64);
    Some((
        UlidFlake::from_raw(first << RANDOMNESS_BITS),
        UlidFlake::from_raw((last << RANDOMNESS_BITS) | u64::from(RANDOMNESS_MAX)),
    ))
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

    /// The moment of the ID as a [`Moment`] of any time library, given the epoch it was made
    /// with: [`UlidFlake::unix_ms`] after the Unix epoch.
    ///
    /// # Errors
    ///
    /// [`Error::DateTimeOutOfRange`] when the type cannot hold the moment: `time`'s
    /// `OffsetDateTime` (without its `large-dates` feature) and jiff's `Timestamp` end in the
    /// year 9999, which only the IDs of an epoch after the year 9700 pass. The other types hold
    /// every ID's moment.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime, UNIX_EPOCH};
    /// use ulid_flake_core::{Epoch, UlidFlake, UnixMs};
    ///
    /// let id = UlidFlake::from_parts(5, 0)?;
    /// assert_eq!(id.to_moment(Epoch::DEFAULT), Ok(UnixMs(1_704_067_200_005)));
    /// let made: SystemTime = id.to_moment(Epoch::DEFAULT)?;
    /// assert_eq!(made, UNIX_EPOCH + Duration::from_millis(1_704_067_200_005));
    /// # #[cfg(feature = "chrono04")]
    /// assert_eq!(
    ///     id.to_moment::<chrono::DateTime<chrono::Utc>>(Epoch::DEFAULT)?.to_rfc3339(),
    ///     "2024-01-01T00:00:00.005+00:00"
    /// );
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn to_moment<M: Moment>(self, epoch: Epoch) -> Result<M, Error> {
        M::from_unix_ms(self.unix_ms(epoch))
    }

    /// The stand-alone ID of a [`Moment`] of any time library, rounded down to its millisecond
    /// (towards the past, before 1970 too), with the given 20-bit randomness:
    /// [`UlidFlake::from_parts`] for a moment. `Generator::id_at` draws the randomness instead.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] for a moment before `epoch` or more than
    /// [`MAX_TIMESTAMP`] ms after it (after 2302-09-27T15:10:22.207Z for [`Epoch::DEFAULT`]);
    /// [`Error::RandomnessOutOfRange`] for randomness above `2^20 - 1`.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use ulid_flake_core::{Epoch, Error, UlidFlake, UnixMs};
    ///
    /// let moment = UNIX_EPOCH + Duration::from_micros(1_704_067_201_002_999);
    /// let id = UlidFlake::from_moment(Epoch::DEFAULT, moment, 7)?;
    /// assert_eq!((id.ms_since_epoch(), id.randomness()), (1_002, 7));
    /// assert_eq!(
    ///     UlidFlake::from_moment(Epoch::DEFAULT, UnixMs(1_704_067_199_999), 0),
    ///     Err(Error::TimestampOutOfRange { found_ms: -1 })
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_moment<M: Moment>(epoch: Epoch, moment: M, randomness: u32) -> Result<Self, Error> {
        Self::from_parts(
            epoch.ms_since_epoch_at(moment::floor_ms(&moment))?,
            randomness,
        )
    }

    /// The IDs made during a window of [`Moment`]s (`start` inclusive, `end` exclusive), as
    /// the inclusive bounds `(lowest, highest)` for an SQL `BETWEEN` on the primary key; `None`
    /// when no ID can fall in the window (it is empty, or lies wholly outside the timestamp
    /// range of `epoch`). Parts of the window outside that range are clipped, and a window
    /// that starts or ends inside a millisecond covers that whole millisecond; an empty one
    /// (`end` not after `start`) covers nothing, even inside a millisecond.
    ///
    /// Because integer order is time order, `id BETWEEN lowest AND highest` finds exactly the
    /// rows whose IDs were made in the window's milliseconds, through the primary-key index.
    /// An ID holds its millisecond and no finer time: a row made later in the millisecond the
    /// window ends in is found too.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use ulid_flake_core::{Epoch, UlidFlake, UnixMs};
    ///
    /// let start = Epoch::DEFAULT.unix_ms() as i64 + 1_000;
    /// let (lowest, highest) = UlidFlake::range_for(Epoch::DEFAULT, UnixMs(start)..UnixMs(start + 10)).unwrap();
    /// assert_eq!(lowest, UlidFlake::from_parts(1_000, 0)?);
    /// assert_eq!(highest, UlidFlake::from_parts(1_009, (1 << 20) - 1)?);
    /// assert_eq!(UlidFlake::range_for(Epoch::DEFAULT, UnixMs(start)..UnixMs(start)), None);
    ///
    /// let end = SystemTime::now();
    /// let last_hour = end - Duration::from_secs(3600)..end;
    /// let (lowest, highest) = UlidFlake::range_for(Epoch::DEFAULT, last_hour).unwrap();
    /// assert!(highest.ms_since_epoch() - lowest.ms_since_epoch() <= 3_600_000);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn range_for<M: Moment>(epoch: Epoch, window: Range<M>) -> Option<(Self, Self)> {
        // Before the rounding, which widens a window inside a millisecond to all of it.
        if window.start.to_unix_nanos() >= window.end.to_unix_nanos() {
            return None;
        }
        id_range(
            epoch,
            moment::floor_ms(&window.start),
            moment::ceil_ms(&window.end),
        )
    }
}
