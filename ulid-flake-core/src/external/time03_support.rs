//! time interop: `OffsetDateTime` is a [`Moment`], made in UTC.

use time::{OffsetDateTime, UtcDateTime};

use crate::error::Error;
use crate::moment::{self, Moment, sealed};

impl sealed::Sealed for OffsetDateTime {}

/// A time `OffsetDateTime`: read at any offset, made in UTC. Without time's `large-dates`
/// feature it ends with the year 9999, which only the IDs of an epoch after the year 9700 pass:
/// [`UlidFlake::to_moment`](crate::UlidFlake::to_moment) is then an
/// [`Error::DateTimeOutOfRange`].
///
/// ```
/// use time::macros::datetime;
/// use ulid_flake_core::{Epoch, UlidFlake};
///
/// let id = UlidFlake::from_moment(Epoch::DEFAULT, datetime!(2024-06-06 8:06:06.666 +02:00), 627_498)?;
/// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
/// assert_eq!(id.to_moment(Epoch::DEFAULT), Ok(datetime!(2024-06-06 6:06:06.666 UTC)));
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
impl Moment for OffsetDateTime {
    fn to_unix_nanos(&self) -> i128 {
        self.unix_timestamp_nanos()
    }

    fn from_unix_ms(unix_ms: u64) -> Result<Self, Error> {
        Self::from_unix_timestamp_nanos(i128::from(unix_ms) * 1_000_000).map_err(|_| {
            moment::past_the_last(
                unix_ms,
                UtcDateTime::MAX
                    .unix_timestamp_nanos()
                    .div_euclid(1_000_000),
            )
        })
    }
}
