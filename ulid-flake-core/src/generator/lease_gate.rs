//! The lease's one handle on a generator: it opens and closes the gate (see `gate.rs`), and
//! reads where the generator stands, without reaching into the generator's other state.

#[cfg(not(ulid_flake_loom))]
use core::sync::atomic::Ordering;
#[cfg(ulid_flake_loom)]
use loom::sync::atomic::Ordering;

use super::clock::Clock;
use super::gate;
use super::random::RandomSource;
use super::state::{Generator, NO_ID_YET};
use crate::error::Error;
use crate::layout::RANDOMNESS_BITS;

/// What a lease does to the generator it guards, through [`Generator::lease_gate`].
pub(crate) struct LeaseGate<'g, C, R> {
    generator: &'g Generator<C, R>,
}

impl<C: Clock, R: RandomSource> Generator<C, R> {
    /// The handle through which a lease opens and closes this generator's gate.
    pub(crate) fn lease_gate(&self) -> LeaseGate<'_, C, R> {
        LeaseGate { generator: self }
    }
}

impl<C: Clock, R: RandomSource> LeaseGate<'_, C, R> {
    /// Lets the generator issue IDs with `scalability_id` in the milliseconds before
    /// `deadline` (ms since the epoch, exclusive).
    pub(crate) fn open(&self, scalability_id: u8, deadline: u64) {
        self.generator.lost_deadline.store(0, Ordering::Release);
        let word = gate::word(deadline.min(gate::UNLEASED - 1), scalability_id.into());
        self.generator.gate.store(word, Ordering::Release);
    }

    /// Stops the generator from issuing IDs until the gate opens again.
    pub(crate) fn close(&self) {
        self.generator.close_gate();
    }

    /// Closes the gate after the lease was lost, remembering the deadline it had so that a
    /// refused ID says since when.
    pub(crate) fn close_lost(&self) {
        let (deadline, _) = self.state();
        self.generator.close_gate();
        self.generator
            .lost_deadline
            .store(deadline, Ordering::Release);
    }

    /// The gate's deadline (ms since the epoch, exclusive) and scalability id.
    pub(crate) fn state(&self) -> (u64, u8) {
        let word = self.generator.gate.load(Ordering::Acquire);
        (gate::deadline(word), gate::scalability_id(word) as u8)
    }

    /// The millisecond of the last ID made, if any.
    pub(crate) fn last_ms(&self) -> Option<u64> {
        let last = self.generator.last.load(Ordering::Acquire);
        (last != NO_ID_YET).then_some(last >> RANDOMNESS_BITS)
    }

    /// The clock's reading, in milliseconds since the epoch.
    pub(crate) fn now(&self) -> Result<u64, Error> {
        self.generator.now()
    }

    /// Marks the last millisecond exhausted, so that the next ID takes a fresh reading.
    pub(crate) fn leave_current_millisecond(&self) {
        self.generator.leave_current_millisecond();
    }
}
