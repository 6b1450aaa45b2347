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

    /// Stops the generator from issuing IDs until the gate opens again, for a release: a
    /// call that loaded the open gate before is refused too, whenever it reads its clock, and
    /// [`LeaseGate::last_ms`] is then at least the clock's millisecond, for the release's
    /// grace (see `Generator::observe`).
    pub(crate) fn close_for_release(&self) {
        self.generator.close_gate();
        self.generator.leave_milliseconds_for_release();
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

#[cfg(all(test, feature = "std"))]
mod tests {
    use alloc::sync::Arc;
    use core::sync::atomic::{AtomicBool, AtomicI64};
    use std::sync::Barrier;

    use super::*;
    use crate::epoch::Epoch;

    /// The wall clock, in Unix ms, that the test sets.
    struct SetClock(AtomicI64);

    impl Clock for SetClock {
        fn unix_ms(&self) -> i64 {
            self.0.load(Ordering::SeqCst)
        }
    }

    /// Increments of 1; once armed, the next ID that starts a millisecond waits twice at a
    /// barrier in its fresh draw — after the call loaded the state word, before its swap.
    struct StallingRandom {
        armed: AtomicBool,
        stall: Barrier,
    }

    impl RandomSource for StallingRandom {
        fn next_u32(&self) -> u32 {
            1
        }

        fn fresh_draw(&self, increment_draw: u32) -> u32 {
            if self.armed.swap(false, Ordering::SeqCst) {
                self.stall.wait();
                self.stall.wait();
            }
            increment_draw
        }
    }

    #[test]
    fn a_call_stalled_before_its_swap_across_a_release_is_refused_and_its_millisecond_counted() {
        let start_ms = 1_000_000;
        let at = |ms: u64| (Epoch::DEFAULT.unix_ms() + ms) as i64;
        let generator = Arc::new(
            Generator::builder()
                .clock(SetClock(AtomicI64::new(at(start_ms))))
                .random_source(StallingRandom {
                    armed: AtomicBool::new(false),
                    stall: Barrier::new(2),
                })
                .build_leased(3)
                .unwrap(),
        );
        generator.lease_gate().open(3, start_ms + 2_000);
        assert_eq!(generator.try_generate().unwrap().ms_since_epoch(), start_ms);

        // A call in the next millisecond loads the state word, then stalls before its swap.
        generator
            .clock()
            .0
            .store(at(start_ms + 5), Ordering::SeqCst);
        generator
            .random_source()
            .armed
            .store(true, Ordering::SeqCst);
        let stalled = std::thread::spawn({
            let generator = Arc::clone(&generator);
            move || generator.try_generate()
        });
        generator.random_source().stall.wait();

        // The release's close counts the clock's millisecond as used, though no ID has it
        // yet (the release's grace is reckoned from it), and changes the state word...
        generator.lease_gate().close_for_release();
        assert_eq!(generator.lease_gate().last_ms(), Some(start_ms + 5));
        // ... so that the stalled call's swap fails, and it finds the gate closed.
        generator.random_source().stall.wait();
        assert_eq!(
            stalled.join().unwrap(),
            Err(Error::LeaseNotValid {
                scalability_id: 3,
                valid_until_unix_ms: None
            })
        );
    }

    #[test]
    fn a_close_for_release_changes_a_used_up_state_word_too() {
        let now_ms = 1_000_000;
        let generator = Generator::builder()
            .clock(SetClock(AtomicI64::new(
                (Epoch::DEFAULT.unix_ms() + now_ms) as i64,
            )))
            .build_leased(3)
            .unwrap();
        let gate = generator.lease_gate();
        gate.leave_milliseconds_before(now_ms + 1);
        let used_up = generator.last.load(Ordering::SeqCst);
        assert_eq!(gate.last_ms(), Some(now_ms));

        gate.close_for_release();
        // A millisecond more: an equal word would let a swap from before the close succeed.
        assert_ne!(generator.last.load(Ordering::SeqCst), used_up);
        assert_eq!(gate.last_ms(), Some(now_ms + 1));
    }
}

/// A model check of a release racing calls in flight: loom runs every interleaving (on its
/// weak-memory atomics) of calls that may have loaded the open gate before the release and
/// read the clock after it, with the clock moved on to the next holder's time. A call either
/// made its ID before the release's change of the state word, in a millisecond its grace
/// covers, or is refused. Built only with `--cfg ulid_flake_loom`, by `scripts/test.sh
/// --only loom`.
#[cfg(all(test, ulid_flake_loom))]
mod loom_release {
    use alloc::vec::Vec;
    use loom::sync::Arc;
    use loom::sync::atomic::AtomicI64;

    use super::*;
    use crate::epoch::Epoch;

    /// The wall clock, in Unix ms, that the model sets.
    struct ModelClock(AtomicI64);

    impl Clock for ModelClock {
        fn unix_ms(&self) -> i64 {
            self.0.load(Ordering::Relaxed)
        }
    }

    /// Every draw is 1.
    struct Ones;

    impl RandomSource for Ones {
        fn next_u32(&self) -> u32 {
            1
        }
    }

    /// `threads` threads make one ID each (a batch of two, with `batch`) while the lease,
    /// renewed first with `renew`, releases the id.
    fn model(threads: usize, batch: bool, renew: bool) {
        loom::model(move || {
            let start_ms = 1_000;
            let at = |ms: u64| (Epoch::DEFAULT.unix_ms() + ms) as i64;
            let generator = Arc::new(
                Generator::builder()
                    .clock(ModelClock(AtomicI64::new(at(start_ms))))
                    .random_source(Ones)
                    .build_leased(3)
                    .unwrap(),
            );
            generator.lease_gate().open(3, start_ms + 60_000);
            generator.try_generate().unwrap();
            let threads: Vec<_> = (0..threads)
                .map(|_| {
                    let generator = Arc::clone(&generator);
                    loom::thread::spawn(move || {
                        if batch {
                            let mut out = [crate::UlidFlake::MIN; 2];
                            let made = generator.try_generate_batch(&mut out).ok()?;
                            Some(out[made - 1].ms_since_epoch())
                        } else {
                            Some(generator.try_generate().ok()?.ms_since_epoch())
                        }
                    })
                })
                .collect();
            if renew {
                generator.lease_gate().open(3, start_ms + 90_000);
            }
            generator.lease_gate().close_for_release();
            // What the release's grace is reckoned from.
            let released = generator.lease_gate().last_ms().unwrap();
            // The next holder's time, well before the old deadline.
            generator
                .clock()
                .0
                .store(at(released + 5), Ordering::Relaxed);
            for thread in threads {
                if let Some(ms) = thread.join().unwrap() {
                    assert!(ms <= released, "stamped {ms} after a release at {released}");
                }
            }
        });
    }

    #[test]
    fn two_calls_and_a_release() {
        model(2, false, false);
    }

    #[test]
    fn a_batch_and_a_release() {
        model(1, true, false);
    }

    #[test]
    fn a_call_a_renewal_and_a_release() {
        model(1, false, true);
    }
}
