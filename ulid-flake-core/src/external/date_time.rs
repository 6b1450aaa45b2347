//! What the date-time integrations (chrono, time, jiff) share: moments in whole Unix
//! milliseconds, rounded as [`Epoch::range_for_system_time`](crate::Epoch) rounds them.

use crate::epoch::Epoch;
use crate::error::Error;
use crate::ulid_flake::UlidFlake;

/// Unix nanoseconds rounded down to whole milliseconds (towards the past, before 1970
/// too), saturating at the ends of `i64`.
#[cfg(any(feature = "time03", feature = "jiff02"))]
pub(crate) fn floor_ms(nanos: i128) -> i64 {
    saturate(nanos.div_euclid(1_000_000))
}

/// Unix nanoseconds rounded up to whole milliseconds, saturating at the ends of `i64`.
#[cfg(any(feature = "time03", feature = "jiff02"))]
pub(crate) fn ceil_ms(nanos: i128) -> i64 {
    saturate(-(-nanos).div_euclid(1_000_000))
}

#[cfg(any(feature = "time03", feature = "jiff02"))]
fn saturate(ms: i128) -> i64 {
    i64::try_from(ms).unwrap_or(if ms < 0 { i64::MIN } else { i64::MAX })
}

/// The stand-alone ID of a moment in Unix milliseconds with the given randomness.
pub(crate) fn from_parts(epoch: Epoch, unix_ms: i64, randomness: u32) -> Result<UlidFlake, Error> {
    UlidFlake::from_parts(epoch.ms_since_epoch_at(unix_ms)?, randomness)
}
