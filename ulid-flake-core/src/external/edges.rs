//! The values that the fuzzing and property-testing integrations (arbitrary, proptest) draw
//! often, because code that handles IDs breaks at them first.

use crate::layout::{MAX_TIMESTAMP, RANDOMNESS_BITS, RANDOMNESS_MAX};
use crate::ulid_flake::UlidFlake;

/// The first and last IDs, their neighbours, and both ends of the first and last
/// milliseconds.
pub(crate) const VALUES: [UlidFlake; 8] = [
    UlidFlake::MIN,
    UlidFlake::from_raw(1),
    UlidFlake::from_raw(RANDOMNESS_MAX as u64),
    UlidFlake::from_raw(1 << RANDOMNESS_BITS),
    UlidFlake::from_raw(MAX_TIMESTAMP << RANDOMNESS_BITS),
    UlidFlake::from_raw(MAX_TIMESTAMP << RANDOMNESS_BITS | 1),
    UlidFlake::from_raw(i64::MAX as u64 - 1),
    UlidFlake::MAX,
];

/// The ID of this timestamp with randomness 0 (`max` false) or all ones.
pub(crate) const fn with_edge_randomness(ms_since_epoch: u64, max: bool) -> UlidFlake {
    let randomness = if max { RANDOMNESS_MAX as u64 } else { 0 };
    UlidFlake::from_raw((ms_since_epoch & MAX_TIMESTAMP) << RANDOMNESS_BITS | randomness)
}

/// The ID of this randomness in the first (`last` false) or last millisecond.
pub(crate) const fn at_edge_timestamp(last: bool, randomness: u32) -> UlidFlake {
    let timestamp = if last { MAX_TIMESTAMP } else { 0 };
    UlidFlake::from_raw(timestamp << RANDOMNESS_BITS | (randomness & RANDOMNESS_MAX) as u64)
}

/// Any valid ID, from 64 bits: the top bit dropped.
#[cfg(feature = "arbitrary")]
pub(crate) const fn from_bits(bits: u64) -> UlidFlake {
    UlidFlake::from_raw(bits >> 1)
}
