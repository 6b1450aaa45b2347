//! time interop: an ID's moment as an `OffsetDateTime` in UTC, IDs and time-window ranges from
//! `OffsetDateTime`s.

use core::ops::Range;

use time::{OffsetDateTime, UtcDateTime};

use super::date_time;
use crate::epoch::Epoch;
use crate::error::Error;
use crate::id::Id;
use crate::ulid_flake::UlidFlake;

impl UlidFlake {
    /// The moment of the ID as a time `OffsetDateTime` in UTC, given the epoch it was made
    /// with: [`UlidFlake::unix_ms`] after the Unix epoch.
    ///
    /// # Errors
    ///
    /// [`Error::DateTimeOutOfRange`] when the moment is after the last one `OffsetDateTime`
    /// holds (the end of the year 9999, unless time's `large-dates` feature is on): only IDs
    /// of an epoch after the year 9700 reach it.
    ///
    /// ```
    /// use time::format_description::well_known::Rfc3339;
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let id = UlidFlake::from_parts(5, 0)?;
    /// let moment = id.to_offset_date_time(Epoch::DEFAULT)?;
    /// assert_eq!(moment.format(&Rfc3339).unwrap(), "2024-01-01T00:00:00.005Z");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn to_offset_date_time(self, epoch: Epoch) -> Result<OffsetDateTime, Error> {
        let unix_ms = i128::from(self.unix_ms(epoch));
        OffsetDateTime::from_unix_timestamp_nanos(unix_ms * 1_000_000).map_err(|_| {
            Error::DateTimeOutOfRange {
                found_unix_ms: unix_ms,
                max_unix_ms: UtcDateTime::MAX
                    .unix_timestamp_nanos()
                    .div_euclid(1_000_000),
            }
        })
    }

    /// The stand-alone ID of a time `OffsetDateTime` (at any offset), truncated to the
    /// millisecond, with the given 20-bit randomness: [`UlidFlake::from_parts`] for a
    /// moment. [`Generator::from_offset_date_time`](crate::generator::Generator) draws the
    /// randomness instead.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] for a moment before `epoch` or more than
    /// [`MAX_TIMESTAMP`](crate::MAX_TIMESTAMP) ms after it (after
    /// 2302-09-27T15:10:22.207Z for [`Epoch::DEFAULT`]); [`Error::RandomnessOutOfRange`] for
    /// randomness above `2^20 - 1`.
    ///
    /// ```
    /// use time::macros::datetime;
    /// use ulid_flake_core::{Epoch, Error, UlidFlake};
    ///
    /// let id = UlidFlake::from_offset_date_time(datetime!(2024-01-01 0:00:01.002999 UTC), Epoch::DEFAULT, 7)?;
    /// assert_eq!((id.ms_since_epoch(), id.randomness()), (1_002, 7));
    /// assert_eq!(
    ///     UlidFlake::from_offset_date_time(datetime!(2023-12-31 23:59:59.999 UTC), Epoch::DEFAULT, 0),
    ///     Err(Error::TimestampOutOfRange { found_ms: -1 })
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_offset_date_time(
        moment: OffsetDateTime,
        epoch: Epoch,
        randomness: u32,
    ) -> Result<Self, Error> {
        date_time::from_parts(
            epoch,
            date_time::floor_ms(moment.unix_timestamp_nanos()),
            randomness,
        )
    }
}

impl Epoch {
    /// The range of IDs made during a window of time `OffsetDateTime`s (`start` inclusive,
    /// `end` exclusive), as [`Epoch::range_for_system_time`] gives it for `SystemTime`s: a
    /// window that starts or ends inside a millisecond covers that whole millisecond; `None`
    /// when no ID can fall in it.
    ///
    /// ```
    /// use time::macros::datetime;
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let window = datetime!(2024-01-01 0:01 UTC)..datetime!(2024-01-01 0:01:01 UTC);
    /// let (lowest, highest) = Epoch::DEFAULT.range_for_offset_date_time(window).unwrap();
    /// assert_eq!(lowest, UlidFlake::from_parts(60_000, 0)?);
    /// assert_eq!(highest, UlidFlake::from_parts(60_999, (1 << 20) - 1)?);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn range_for_offset_date_time(
        self,
        window: Range<OffsetDateTime>,
    ) -> Option<(UlidFlake, UlidFlake)> {
        self.range_for(
            date_time::floor_ms(window.start.unix_timestamp_nanos())
                ..date_time::ceil_ms(window.end.unix_timestamp_nanos()),
        )
    }
}

impl<T: ?Sized> Id<T> {
    /// The moment of the ID as a time `OffsetDateTime` in UTC, as
    /// [`UlidFlake::to_offset_date_time`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::to_offset_date_time`].
    ///
    /// ```
    /// use time::macros::datetime;
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// struct User;
    /// let id = Id::<User>::parse_str("00CMXB6TAK4SA")?;
    /// assert_eq!(id.to_offset_date_time(Epoch::DEFAULT)?, datetime!(2024-06-06 6:06:06.666 UTC));
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn to_offset_date_time(self, epoch: Epoch) -> Result<OffsetDateTime, Error> {
        self.value.to_offset_date_time(epoch)
    }

    /// The `Id<T>` of a time `OffsetDateTime` with the given randomness, as
    /// [`UlidFlake::from_offset_date_time`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::from_offset_date_time`].
    ///
    /// ```
    /// use time::macros::datetime;
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// struct User;
    /// let moment = datetime!(2024-06-06 8:06:06.666 +02:00);
    /// let id = Id::<User>::from_offset_date_time(moment, Epoch::DEFAULT, 627_498)?;
    /// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_offset_date_time(
        moment: OffsetDateTime,
        epoch: Epoch,
        randomness: u32,
    ) -> Result<Self, Error> {
        UlidFlake::from_offset_date_time(moment, epoch, randomness).map(Self::from_ulid_flake)
    }

    /// The inclusive bounds `(lowest, highest)` of the `Id<T>`s made during a window of time
    /// `OffsetDateTime`s, as [`Epoch::range_for_offset_date_time`] gives them untyped.
    ///
    /// ```
    /// use time::macros::datetime;
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// struct Post;
    /// let window = datetime!(2024-01-01 0:00 UTC)..datetime!(2024-01-01 0:00:00.0005 UTC);
    /// let (lowest, highest) = Id::<Post>::range_for_offset_date_time(Epoch::DEFAULT, window).unwrap();
    /// assert_eq!((lowest.ms_since_epoch(), highest.ms_since_epoch()), (0, 0));
    /// ```
    pub fn range_for_offset_date_time(
        epoch: Epoch,
        window: Range<OffsetDateTime>,
    ) -> Option<(Self, Self)> {
        epoch
            .range_for_offset_date_time(window)
            .map(|(lowest, highest)| (lowest.into(), highest.into()))
    }
}

#[cfg(feature = "std")]
impl<C: crate::generator::Clock, R: crate::generator::RandomSource>
    crate::generator::Generator<C, R>
{
    /// An ID for a time `OffsetDateTime` (at any offset), truncated to the millisecond, with
    /// fresh randomness, as [`Generator::from_system_time`](Self::from_system_time) does for a
    /// `SystemTime`.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] for a moment before the generator's epoch or after its
    /// last millisecond.
    ///
    /// ```
    /// use time::macros::datetime;
    /// use ulid_flake_core::generator::Generator;
    ///
    /// let generator = Generator::new();
    /// let id = generator.from_offset_date_time(datetime!(2024-01-01 0:00:00.009 UTC))?;
    /// assert_eq!(id.ms_since_epoch(), 9);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_offset_date_time(&self, moment: OffsetDateTime) -> Result<UlidFlake, Error> {
        self.from_unix_ms(date_time::floor_ms(moment.unix_timestamp_nanos()))
    }
}
