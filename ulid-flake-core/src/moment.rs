//! Moments from any time library, and the one place they are rounded to the millisecond.

use crate::error::Error;

/// A point in time that IDs are made for and read as, whichever library keeps it.
///
/// | type | feature |
/// |---|---|
/// | [`UnixMs`] | — |
/// | `std::time::SystemTime` | `std` |
/// | `chrono::DateTime<chrono::Utc>` | `chrono04` |
/// | `time::OffsetDateTime` (read at any offset, made in UTC) | `time03` |
/// | `jiff::Timestamp` | `jiff02` |
///
/// Every time method takes any of them: [`UlidFlake::to_moment`](crate::UlidFlake::to_moment),
/// [`UlidFlake::from_moment`](crate::UlidFlake::from_moment),
/// [`UlidFlake::range_for`](crate::UlidFlake::range_for) (and the same on `Id<T>`,
/// `PrefixedId<T>` and `newtype!` keys), [`Epoch::from_moment`](crate::Epoch::from_moment),
/// [`Epoch::to_moment`](crate::Epoch::to_moment) and `Generator::id_at`.
///
/// IDs tell time to the millisecond: a moment is rounded down to its millisecond (towards the
/// past, before 1970 too), except the end of a window, which is rounded up so that a window
/// ending inside a millisecond covers it. Moments beyond `i64` milliseconds saturate there.
///
/// The trait is sealed: its methods are the crate's own and hidden.
///
/// ```
/// use std::time::{Duration, SystemTime, UNIX_EPOCH};
/// use ulid_flake_core::{Epoch, UlidFlake, UnixMs};
///
/// let epoch = Epoch::DEFAULT;
/// let moment = UNIX_EPOCH + Duration::from_micros(1_704_067_200_005_900);
/// let id = UlidFlake::from_moment(epoch, moment, 0)?;
/// assert_eq!(id.ms_since_epoch(), 5); // 5.9 ms after the epoch: its 5th millisecond
/// assert_eq!(id.to_moment(epoch), Ok(UnixMs(1_704_067_200_005)));
/// assert_eq!(id.to_moment::<SystemTime>(epoch)?, UNIX_EPOCH + Duration::from_millis(1_704_067_200_005));
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub trait Moment: Sized + sealed::Sealed {
    /// Nanoseconds since the Unix epoch (negative before it), exact for every value.
    #[doc(hidden)]
    fn to_unix_nanos(&self) -> i128;

    /// The moment `unix_ms` milliseconds after the Unix epoch. The crate passes only the
    /// moments of IDs and epochs, which are below 2^48 ms (the year 10889).
    ///
    /// # Errors
    ///
    /// [`Error::DateTimeOutOfRange`] past the last moment the type holds.
    #[doc(hidden)]
    fn from_unix_ms(unix_ms: u64) -> Result<Self, Error>;
}

pub(crate) mod sealed {
    /// Keeps [`Moment`](super::Moment) to the types of this crate's choosing, so that its
    /// methods can change.
    pub trait Sealed {}
}

/// A moment in whole milliseconds since the Unix epoch (negative before it), for time kept as
/// an integer (a database column, JavaScript's `Date.now()`); a [`Moment`] like the others.
///
/// ```
/// use ulid_flake_core::{Epoch, UlidFlake, UnixMs};
///
/// let id = UlidFlake::from_moment(Epoch::DEFAULT, UnixMs(1_717_653_966_666), 627_498)?;
/// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
/// assert_eq!(id.to_moment(Epoch::DEFAULT), Ok(UnixMs(1_717_653_966_666)));
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnixMs(pub i64);

impl sealed::Sealed for UnixMs {}

impl Moment for UnixMs {
    fn to_unix_nanos(&self) -> i128 {
        i128::from(self.0) * NANOS_PER_MS
    }

    fn from_unix_ms(unix_ms: u64) -> Result<Self, Error> {
        i64::try_from(unix_ms)
            .map(Self)
            .map_err(|_| past_the_last(unix_ms, i64::MAX.into()))
    }
}

#[cfg(feature = "std")]
impl sealed::Sealed for std::time::SystemTime {}

#[cfg(feature = "std")]
impl Moment for std::time::SystemTime {
    fn to_unix_nanos(&self) -> i128 {
        // A `Duration` is below 2^64 s, so its nanoseconds (below 2^94) fit an `i128`.
        match self.duration_since(std::time::UNIX_EPOCH) {
            Ok(since) => since.as_nanos() as i128,
            Err(before) => -(before.duration().as_nanos() as i128),
        }
    }

    fn from_unix_ms(unix_ms: u64) -> Result<Self, Error> {
        // Below 2^48 ms: within `SystemTime` on every platform (Windows' ends in the year
        // 60056), so the addition cannot overflow.
        Ok(std::time::UNIX_EPOCH + core::time::Duration::from_millis(unix_ms))
    }
}

const NANOS_PER_MS: i128 = 1_000_000;

/// The Unix millisecond a moment falls in, rounded towards the past (before 1970 too): an
/// ID's timestamp, a window's first millisecond.
pub(crate) fn floor_ms<M: Moment>(moment: &M) -> i64 {
    saturate(moment.to_unix_nanos().div_euclid(NANOS_PER_MS))
}

/// The Unix millisecond a moment falls in, rounded towards the future: a window's exclusive
/// end, so that a window ending inside a millisecond covers it.
pub(crate) fn ceil_ms<M: Moment>(moment: &M) -> i64 {
    saturate(-(-moment.to_unix_nanos()).div_euclid(NANOS_PER_MS))
}

/// Milliseconds clamped to `i64`: moments beyond it lie outside every epoch's range anyway.
fn saturate(ms: i128) -> i64 {
    i64::try_from(ms).unwrap_or(if ms < 0 { i64::MIN } else { i64::MAX })
}

/// The error of a moment that a type cannot hold, `max_unix_ms` being its last.
pub(crate) fn past_the_last(unix_ms: u64, max_unix_ms: i128) -> Error {
    Error::DateTimeOutOfRange {
        found_unix_ms: unix_ms.into(),
        max_unix_ms,
    }
}
