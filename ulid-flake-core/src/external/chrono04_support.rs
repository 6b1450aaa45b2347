//! chrono interop: `DateTime<Utc>` is a [`Moment`].

use chrono::{DateTime, Utc};

use crate::error::Error;
use crate::moment::{self, Moment, sealed};

impl sealed::Sealed for DateTime<Utc> {}

/// A chrono `DateTime<Utc>` (another time zone's `DateTime` through `.to_utc()`), which holds
/// every ID's moment.
///
/// ```
/// use chrono::{DateTime, Utc};
/// use ulid_flake_core::{Epoch, UlidFlake};
///
/// let moment: DateTime<Utc> = "2024-06-06T08:06:06.666+02:00".parse().unwrap();
/// let id = UlidFlake::from_moment(Epoch::DEFAULT, moment, 627_498)?;
/// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
/// assert_eq!(id.to_moment::<DateTime<Utc>>(Epoch::DEFAULT)?.to_rfc3339(), "2024-06-06T06:06:06.666+00:00");
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
impl Moment for DateTime<Utc> {
    fn to_unix_nanos(&self) -> i128 {
        // Not `timestamp_nanos_opt`, which ends in the year 2262; a leap second's nanoseconds
        // run past 10^9 and land in the next second, as chrono's own `timestamp_millis` does.
        i128::from(self.timestamp()) * 1_000_000_000 + i128::from(self.timestamp_subsec_nanos())
    }

    fn from_unix_ms(unix_ms: u64) -> Result<Self, Error> {
        i64::try_from(unix_ms)
            .ok()
            .and_then(DateTime::from_timestamp_millis)
            .ok_or_else(|| {
                moment::past_the_last(unix_ms, DateTime::<Utc>::MAX_UTC.timestamp_millis().into())
            })
    }
}
