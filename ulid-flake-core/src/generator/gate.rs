//! The lease gate: one atomic word per generator that says until which millisecond it may
//! issue IDs, and with which scalability id. The hot path loads it once and compares it with
//! the millisecond it has just read.
//!
//! Layout: `deadline << 5 | scalability_id`, where `deadline` is the first millisecond since
//! the epoch in which no ID may be issued (exclusive bound). A generator that is not leased
//! has a deadline past every valid timestamp; a leased one starts, and ends, with a deadline
//! of 0, which no timestamp is below.

use crate::layout::{MAX_TIMESTAMP, SCALABILITY_ID_BITS, SCALABILITY_ID_MAX};

/// The deadline of a generator that is not leased: after its last millisecond.
pub(super) const UNLEASED: u64 = MAX_TIMESTAMP + 1;

/// The gate word of `deadline` (ms since the epoch, exclusive) and `scalability_id`.
#[inline]
pub(super) const fn word(deadline: u64, scalability_id: u64) -> u64 {
    deadline << SCALABILITY_ID_BITS | scalability_id
}

/// The deadline of a gate word.
#[inline]
pub(super) const fn deadline(word: u64) -> u64 {
    word >> SCALABILITY_ID_BITS
}

/// The scalability id of a gate word.
#[inline]
pub(super) const fn scalability_id(word: u64) -> u64 {
    word & SCALABILITY_ID_MAX as u64
}
