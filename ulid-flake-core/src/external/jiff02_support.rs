//! jiff interop: an ID's moment as a `jiff::Timestamp`, IDs and time-window ranges from
//! `Timestamp`s.

use core::ops::Range;

use jiff::Timestamp;

use super::date_time;
use crate::epoch::Epoch;
use crate::error::Error;
use crate::id::Id;
use crate::ulid_flake::UlidFlake;

impl UlidFlake {
    /// The moment of the ID as a jiff `Timestamp`, given the epoch it was made
    /// with: [`UlidFlake::unix_ms`] after the Unix epoch.
    ///
    /// # Errors
    ///
    /// [`Error::DateTimeOutOfRange`] when the moment is after the last one `Timestamp`
    /// holds (in the last days of the year 9999): only IDs of an epoch after the year 9700
    /// reach it.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let id = UlidFlake::from_parts(5, 0)?;
    /// let moment = id.to_jiff_timestamp(Epoch::DEFAULT)?;
    /// assert_eq!(moment.to_string(), "2024-01-01T00:00:00.005Z");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn to_jiff_timestamp(self, epoch: Epoch) -> Result<Timestamp, Error> {
        let unix_ms = i128::from(self.unix_ms(epoch));
        Timestamp::from_millisecond(unix_ms as i64).map_err(|_| Error::DateTimeOutOfRange {
            found_unix_ms: unix_ms,
            max_unix_ms: i128::from(Timestamp::MAX.as_millisecond()),
        })
    }

    /// The stand-alone ID of a jiff `Timestamp`, truncated to the
    /// millisecond, with the given 20-bit randomness: [`UlidFlake::from_parts`] for a
    /// moment. [`Generator::from_jiff_timestamp`](crate::generator::Generator) draws the
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
    /// use jiff::Timestamp;
    /// use ulid_flake_core::{Epoch, Error, UlidFlake};
    ///
    /// let id = UlidFlake::from_jiff_timestamp("2024-01-01T00:00:01.002999Z".parse::<Timestamp>().unwrap(), Epoch::DEFAULT, 7)?;
    /// assert_eq!((id.ms_since_epoch(), id.randomness()), (1_002, 7));
    /// assert_eq!(
    ///     UlidFlake::from_jiff_timestamp("2023-12-31T23:59:59.999Z".parse().unwrap(), Epoch::DEFAULT, 0),
    ///     Err(Error::TimestampOutOfRange { found_ms: -1 })
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_jiff_timestamp(
        moment: Timestamp,
        epoch: Epoch,
        randomness: u32,
    ) -> Result<Self, Error> {
        date_time::from_parts(
            epoch,
            date_time::floor_ms(moment.as_nanosecond()),
            randomness,
        )
    }
}

impl Epoch {
    /// The range of IDs made during a window of jiff `Timestamp`s (`start` inclusive,
    /// `end` exclusive), as [`Epoch::range_for_system_time`] gives it for `SystemTime`s: a
    /// window that starts or ends inside a millisecond covers that whole millisecond; `None`
    /// when no ID can fall in it.
    ///
    /// ```
    /// use jiff::Timestamp;
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let window = "2024-01-01T00:01:00Z".parse::<Timestamp>().unwrap()..
    ///     "2024-01-01T00:01:01Z".parse().unwrap();
    /// let (lowest, highest) = Epoch::DEFAULT.range_for_jiff_timestamp(window).unwrap();
    /// assert_eq!(lowest, UlidFlake::from_parts(60_000, 0)?);
    /// assert_eq!(highest, UlidFlake::from_parts(60_999, (1 << 20) - 1)?);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn range_for_jiff_timestamp(
        self,
        window: Range<Timestamp>,
    ) -> Option<(UlidFlake, UlidFlake)> {
        self.range_for(
            date_time::floor_ms(window.start.as_nanosecond())
                ..date_time::ceil_ms(window.end.as_nanosecond()),
        )
    }
}

impl<T: ?Sized> Id<T> {
    /// The moment of the ID as a jiff `Timestamp`, as
    /// [`UlidFlake::to_jiff_timestamp`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::to_jiff_timestamp`].
    ///
    /// ```
    /// use jiff::Timestamp;
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// struct User;
    /// let id = Id::<User>::parse_str("00CMXB6TAK4SA")?;
    /// assert_eq!(id.to_jiff_timestamp(Epoch::DEFAULT)?.to_string(), "2024-06-06T06:06:06.666Z");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn to_jiff_timestamp(self, epoch: Epoch) -> Result<Timestamp, Error> {
        self.value.to_jiff_timestamp(epoch)
    }

    /// The `Id<T>` of a jiff `Timestamp` with the given randomness, as
    /// [`UlidFlake::from_jiff_timestamp`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::from_jiff_timestamp`].
    ///
    /// ```
    /// use jiff::Timestamp;
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// struct User;
    /// let moment = "2024-06-06T08:06:06.666+02:00".parse::<Timestamp>().unwrap();
    /// let id = Id::<User>::from_jiff_timestamp(moment, Epoch::DEFAULT, 627_498)?;
    /// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_jiff_timestamp(
        moment: Timestamp,
        epoch: Epoch,
        randomness: u32,
    ) -> Result<Self, Error> {
        UlidFlake::from_jiff_timestamp(moment, epoch, randomness).map(Self::from_ulid_flake)
    }

    /// The inclusive bounds `(lowest, highest)` of the `Id<T>`s made during a window of jiff
    /// `Timestamp`s, as [`Epoch::range_for_jiff_timestamp`] gives them untyped.
    ///
    /// ```
    /// use jiff::Timestamp;
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// struct Post;
    /// let window = "2024-01-01T00:00:00Z".parse::<Timestamp>().unwrap()..
    ///     "2024-01-01T00:00:00.0005Z".parse().unwrap();
    /// let (lowest, highest) = Id::<Post>::range_for_jiff_timestamp(Epoch::DEFAULT, window).unwrap();
    /// assert_eq!((lowest.ms_since_epoch(), highest.ms_since_epoch()), (0, 0));
    /// ```
    pub fn range_for_jiff_timestamp(
        epoch: Epoch,
        window: Range<Timestamp>,
    ) -> Option<(Self, Self)> {
        epoch
            .range_for_jiff_timestamp(window)
            .map(|(lowest, highest)| (lowest.into(), highest.into()))
    }
}

#[cfg(feature = "std")]
impl<C: crate::generator::Clock, R: crate::generator::RandomSource>
    crate::generator::Generator<C, R>
{
    /// An ID for a jiff `Timestamp`, truncated to the millisecond, with
    /// fresh randomness, as [`Generator::from_system_time`](Self::from_system_time) does for a
    /// `SystemTime`.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] for a moment before the generator's epoch or after its
    /// last millisecond.
    ///
    /// ```
    /// use jiff::Timestamp;
    /// use ulid_flake_core::generator::Generator;
    ///
    /// let generator = Generator::new();
    /// let id = generator.from_jiff_timestamp("2024-01-01T00:00:00.009Z".parse().unwrap())?;
    /// assert_eq!(id.ms_since_epoch(), 9);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_jiff_timestamp(&self, moment: Timestamp) -> Result<UlidFlake, Error> {
        self.from_unix_ms(date_time::floor_ms(moment.as_nanosecond()))
    }
}
