//! chrono interop: an ID's moment as a `DateTime<Utc>`, IDs and time-window ranges from
//! `DateTime`s.

use core::ops::Range;

use chrono::{DateTime, TimeZone, Utc};

use super::date_time;
use crate::epoch::Epoch;
use crate::error::Error;
use crate::id::Id;
use crate::ulid_flake::UlidFlake;

/// Whole Unix milliseconds of a `DateTime`, rounded down (`ceil` false) or up.
fn unix_ms<Tz: TimeZone>(moment: &DateTime<Tz>, ceil: bool) -> i64 {
    let floor = moment.timestamp_millis();
    let partial = !moment.timestamp_subsec_nanos().is_multiple_of(1_000_000);
    if ceil && partial {
        floor.saturating_add(1)
    } else {
        floor
    }
}

impl UlidFlake {
    /// The moment of the ID as a chrono `DateTime<Utc>`, given the epoch it was made with:
    /// [`UlidFlake::unix_ms`] after the Unix epoch.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let id = UlidFlake::from_parts(5, 0)?;
    /// assert_eq!(
    ///     id.to_chrono_date_time(Epoch::DEFAULT).to_rfc3339(),
    ///     "2024-01-01T00:00:00.005+00:00"
    /// );
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn to_chrono_date_time(self, epoch: Epoch) -> DateTime<Utc> {
        // Below 2^48 ms (the year 10889): well within chrono's range of ±262,143 years.
        let unix_ms = self.unix_ms(epoch) as i64;
        DateTime::from_timestamp_millis(unix_ms)
            .expect("48-bit Unix milliseconds are within chrono's range")
    }

    /// The stand-alone ID of a chrono `DateTime` (in any time zone), truncated to the
    /// millisecond, with the given 20-bit randomness: [`UlidFlake::from_parts`] for a
    /// moment. [`Generator::from_chrono_date_time`](crate::generator::Generator) draws the
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
    /// use chrono::{DateTime, Utc};
    /// use ulid_flake_core::{Epoch, Error, UlidFlake};
    ///
    /// let moment: DateTime<Utc> = "2024-01-01T00:00:01.002999Z".parse().unwrap();
    /// let id = UlidFlake::from_chrono_date_time(moment, Epoch::DEFAULT, 7)?;
    /// assert_eq!((id.ms_since_epoch(), id.randomness()), (1_002, 7));
    ///
    /// let before: DateTime<Utc> = "2023-12-31T23:59:59.999Z".parse().unwrap();
    /// assert_eq!(
    ///     UlidFlake::from_chrono_date_time(before, Epoch::DEFAULT, 0),
    ///     Err(Error::TimestampOutOfRange { found_ms: -1 })
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_chrono_date_time<Tz: TimeZone>(
        moment: DateTime<Tz>,
        epoch: Epoch,
        randomness: u32,
    ) -> Result<Self, Error> {
        date_time::from_parts(epoch, unix_ms(&moment, false), randomness)
    }
}

impl Epoch {
    /// The range of IDs made during a window of chrono `DateTime`s (`start` inclusive, `end`
    /// exclusive), as [`Epoch::range_for_system_time`] gives it for `SystemTime`s: a window
    /// that starts or ends inside a millisecond covers that whole millisecond; `None` when
    /// no ID can fall in it.
    ///
    /// ```
    /// use chrono::{DateTime, Utc};
    /// use ulid_flake_core::{Epoch, UlidFlake};
    ///
    /// let start: DateTime<Utc> = "2024-01-01T00:01:00Z".parse().unwrap();
    /// let end: DateTime<Utc> = "2024-01-01T00:01:01Z".parse().unwrap();
    /// let (lowest, highest) = Epoch::DEFAULT.range_for_chrono_date_time(start..end).unwrap();
    /// assert_eq!(lowest, UlidFlake::from_parts(60_000, 0)?);
    /// assert_eq!(highest, UlidFlake::from_parts(60_999, (1 << 20) - 1)?);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn range_for_chrono_date_time<Tz: TimeZone>(
        self,
        window: Range<DateTime<Tz>>,
    ) -> Option<(UlidFlake, UlidFlake)> {
        self.range_for(unix_ms(&window.start, false)..unix_ms(&window.end, true))
    }
}

impl<T: ?Sized> Id<T> {
    /// The moment of the ID as a chrono `DateTime<Utc>`, as
    /// [`UlidFlake::to_chrono_date_time`].
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// struct User;
    /// let id = Id::<User>::parse_str("00CMXB6TAK4SA")?;
    /// assert_eq!(
    ///     id.to_chrono_date_time(Epoch::DEFAULT).to_rfc3339(),
    ///     "2024-06-06T06:06:06.666+00:00"
    /// );
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn to_chrono_date_time(self, epoch: Epoch) -> DateTime<Utc> {
        self.value.to_chrono_date_time(epoch)
    }

    /// The `Id<T>` of a chrono `DateTime` with the given randomness, as
    /// [`UlidFlake::from_chrono_date_time`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::from_chrono_date_time`].
    ///
    /// ```
    /// use chrono::{DateTime, Utc};
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// struct User;
    /// let moment: DateTime<Utc> = "2024-06-06T06:06:06.666Z".parse().unwrap();
    /// let id = Id::<User>::from_chrono_date_time(moment, Epoch::DEFAULT, 627_498)?;
    /// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_chrono_date_time<Tz: TimeZone>(
        moment: DateTime<Tz>,
        epoch: Epoch,
        randomness: u32,
    ) -> Result<Self, Error> {
        UlidFlake::from_chrono_date_time(moment, epoch, randomness).map(Self::from_ulid_flake)
    }

    /// The inclusive bounds `(lowest, highest)` of the `Id<T>`s made during a window of
    /// chrono `DateTime`s, as [`Epoch::range_for_chrono_date_time`] gives them untyped.
    ///
    /// ```
    /// use chrono::{DateTime, Utc};
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// struct Post;
    /// let start: DateTime<Utc> = "2024-01-01T00:00:00Z".parse().unwrap();
    /// let end: DateTime<Utc> = "2024-01-01T00:00:00.0005Z".parse().unwrap();
    /// let (lowest, highest) = Id::<Post>::range_for_chrono_date_time(Epoch::DEFAULT, start..end).unwrap();
    /// assert_eq!((lowest.ms_since_epoch(), highest.ms_since_epoch()), (0, 0));
    /// ```
    pub fn range_for_chrono_date_time<Tz: TimeZone>(
        epoch: Epoch,
        window: Range<DateTime<Tz>>,
    ) -> Option<(Self, Self)> {
        epoch
            .range_for_chrono_date_time(window)
            .map(|(lowest, highest)| (lowest.into(), highest.into()))
    }
}

#[cfg(feature = "std")]
impl<C: crate::generator::Clock, R: crate::generator::RandomSource>
    crate::generator::Generator<C, R>
{
    /// An ID for a chrono `DateTime` (in any time zone), truncated to the millisecond, with
    /// fresh randomness, as [`Generator::from_system_time`](Self::from_system_time) does for a
    /// `SystemTime`.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] for a moment before the generator's epoch or after its
    /// last millisecond.
    ///
    /// ```
    /// use chrono::{DateTime, Utc};
    /// use ulid_flake_core::generator::Generator;
    ///
    /// let generator = Generator::new();
    /// let moment: DateTime<Utc> = "2024-01-01T00:00:00.009Z".parse().unwrap();
    /// assert_eq!(generator.from_chrono_date_time(moment)?.ms_since_epoch(), 9);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_chrono_date_time<Tz: TimeZone>(
        &self,
        moment: DateTime<Tz>,
    ) -> Result<UlidFlake, Error> {
        self.from_unix_ms(unix_ms(&moment, false))
    }
}
