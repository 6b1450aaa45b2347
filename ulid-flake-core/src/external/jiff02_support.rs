//! jiff interop: `Timestamp` is a [`Moment`].

use jiff::Timestamp;

use crate::error::Error;
use crate::moment::{self, Moment, sealed};

impl sealed::Sealed for Timestamp {}

/// A jiff `Timestamp`. It ends in the last days of the year 9999, which only the IDs of an
/// epoch after the year 9700 pass: [`UlidFlake::to_moment`](crate::UlidFlake::to_moment) is
/// then an [`Error::DateTimeOutOfRange`].
///
/// ```
/// use jiff::Timestamp;
/// use ulid_flake_core::{Epoch, UlidFlake};
///
/// let moment: Timestamp = "2024-06-06T08:06:06.666+02:00".parse().unwrap();
/// let id = UlidFlake::from_moment(Epoch::DEFAULT, moment, 627_498)?;
/// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
/// assert_eq!(id.to_moment(Epoch::DEFAULT), Ok(moment));
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
impl Moment for Timestamp {
    fn to_unix_nanos(&self) -> i128 {
        self.as_nanosecond()
    }

    fn from_unix_ms(unix_ms: u64) -> Result<Self, Error> {
        i64::try_from(unix_ms)
            .ok()
            .and_then(|unix_ms| Self::from_millisecond(unix_ms).ok())
            .ok_or_else(|| moment::past_the_last(unix_ms, Timestamp::MAX.as_millisecond().into()))
    }
}
