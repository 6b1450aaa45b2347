//! The format's bit layout: the widths and limits of its fields, and the length of its text.

/// The length of the canonical text, in characters.
///
/// ```
/// assert_eq!(ulid_flake_core::UlidFlake::MAX.to_string().len(), ulid_flake_core::ENCODED_LEN);
/// ```
pub const ENCODED_LEN: usize = 13;

/// The longest prefixed text, in bytes: the longest prefix (31 characters), `_` and the 13
/// characters. A buffer of this size holds any [`PrefixedId::encode`](crate::PrefixedId::encode).
///
/// ```
/// assert_eq!(ulid_flake_core::MAX_PREFIXED_LEN, 45);
/// ```
pub const MAX_PREFIXED_LEN: usize = 31 + 1 + ENCODED_LEN;

/// The largest timestamp, `2^43 - 1` ms after the epoch (2302-09-27T15:10:22.207Z for the
/// default epoch).
///
/// ```
/// use ulid_flake_core::{MAX_TIMESTAMP, UlidFlake};
/// assert_eq!(UlidFlake::MAX.ms_since_epoch(), MAX_TIMESTAMP);
/// ```
pub const MAX_TIMESTAMP: u64 = (1 << 43) - 1;

/// The width of the low field (randomness, or randomness and scalability id), in bits.
pub(crate) const RANDOMNESS_BITS: u32 = 20;
/// The largest randomness of the stand-alone layout.
pub(crate) const RANDOMNESS_MAX: u32 = (1 << RANDOMNESS_BITS) - 1;
/// The width of the scalability id, in bits.
pub(crate) const SCALABILITY_ID_BITS: u32 = 5;
/// The largest scalability id.
pub(crate) const SCALABILITY_ID_MAX: u8 = (1 << SCALABILITY_ID_BITS) - 1;
/// The largest randomness of the scalable layout.
pub(crate) const SCALABLE_RANDOMNESS_MAX: u32 = (1 << (RANDOMNESS_BITS - SCALABILITY_ID_BITS)) - 1;
/// The latest epoch, in Unix milliseconds: the one whose last ID falls on the last millisecond
/// that 48 bits of Unix milliseconds can hold (`Epoch::MAX`).
pub(crate) const MAX_EPOCH_UNIX_MS: u64 = (1 << 48) - 1 - MAX_TIMESTAMP;
