//! The lease's one handle on a generator: it opens and closes the gate (see `gate.rs`), and
//! reads where the generator stands, without reaching into the generator's other state.

#[cfg(not(ulid_flake_loom))]
use core::sync::atomic::Ordering;
#[cfg(ulid_flake_loom)]
use loom::sync::atomic::Ordering;

use super::clock::Clock;
use super::gate;
use super::random::RandomSource;
use super::state::{Generator, NO_ID_YET, NO_SKEW};
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
        self.generator.skew_ms.store(NO_SKEW, Ordering::Release);
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
        let deadline = match self.state() {
            // Closed for clock skew: the deadline it would have had.
            (0, _) => self.generator.lost_deadline.load(Ordering::Acquire),
            (deadline, _) => deadline,
        };
        self.generator.close_gate();
        self.generator
            .lost_deadline
            .store(deadline, Ordering::Release);
    }

    /// Closes the gate on `scalability_id`, held, because this machine's wall clock is
    /// `skew_ms` off the database's (positive: ahead), more than `bound_ms` allows, so that a
    /// refused ID says so; `deadline` is the one the gate would have had, which a loss then
    /// reports.
    pub(crate) fn close_skewed(
        &self,
        scalability_id: u8,
        skew_ms: i64,
        bound_ms: u64,
        deadline: u64,
    ) {
        let generator = self.generator;
        generator.lost_deadline.store(deadline, Ordering::Release);
        generator.skew_bound_ms.store(bound_ms, Ordering::Release);
        // Never the sentinel: i64::MIN ms is no skew a clock can show.
        generator
            .skew_ms
            .store(skew_ms.max(i64::MIN + 1) as u64, Ordering::Release);
        generator
            .gate
            .store(gate::word(0, scalability_id.into()), Ordering::Release);
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

    /// Marks every millisecond before `ms` (since the epoch) used up, and the last ID's: the
    /// next ID is stamped in `ms` or later, after the last one, or refused while the clock is
    /// behind that by more than the rollback allowance.
    pub(crate) fn leave_milliseconds_before(&self, ms: u64) {
        self.generator.leave_milliseconds_before(ms);
    }
}
