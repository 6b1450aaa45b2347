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
    use core::sync::atomic::{AtomicBool, AtomicI64, AtomicU64};
    use std::sync::Barrier;

    use super::*;
    use crate::epoch::Epoch;
    use crate::generator::Layout;
    use crate::generator::state::NO_ID_YET;

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

    /// A generator leased with id 3 until `start_ms` + 2 s on `clock`, reading `start_ms`,
    /// that has made its first ID (on this thread); its randomness not armed.
    fn leased_with_an_id<C: Clock>(clock: C, start_ms: u64) -> Arc<Generator<C, StallingRandom>> {
        let generator = Arc::new(
            Generator::builder()
                .clock(clock)
                .random_source(StallingRandom {
                    armed: AtomicBool::new(false),
                    stall: Barrier::new(2),
                })
                .build_leased(3)
                .unwrap(),
        );
        generator.lease_gate().open(3, start_ms + 2_000);
        assert_eq!(generator.try_generate().unwrap().ms_since_epoch(), start_ms);
        generator
    }

    #[test]
    fn a_call_stalled_before_its_swap_across_a_release_is_refused_and_its_millisecond_counted() {
        let start_ms = 1_000_000;
        let at = |ms: u64| (Epoch::DEFAULT.unix_ms() + ms) as i64;
        let generator = leased_with_an_id(SetClock(AtomicI64::new(at(start_ms))), start_ms);

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

    /// The wall clock that the test sets; once armed, its next reading waits twice at a
    /// barrier: after the call loaded the gate, before it takes the state word.
    struct StallingClock {
        now: AtomicI64,
        armed: AtomicBool,
        stall: Barrier,
    }

    impl Clock for StallingClock {
        fn unix_ms(&self) -> i64 {
            if self.armed.swap(false, Ordering::SeqCst) {
                self.stall.wait();
                self.stall.wait();
            }
            self.now.load(Ordering::SeqCst)
        }
    }

    /// The common case starts from the ID its thread stored last, not from a load of the
    /// state word (`Generator::last_stored`). A call on that thread that stalled in its clock
    /// reading across a release starts from an ID of before the release, in the millisecond
    /// it reads: the release changed the word, so its swap fails and it finds the gate closed.
    #[test]
    fn a_call_starting_from_its_thread_s_last_id_across_a_release_is_refused() {
        let start_ms = 1_000_000;
        let clock = StallingClock {
            now: AtomicI64::new((Epoch::DEFAULT.unix_ms() + start_ms) as i64),
            armed: AtomicBool::new(false),
            stall: Barrier::new(2),
        };
        let generator = leased_with_an_id(clock, start_ms);

        generator.clock().armed.store(true, Ordering::SeqCst);
        let releaser = std::thread::spawn({
            let generator = Arc::clone(&generator);
            move || {
                generator.clock().stall.wait();
                generator.lease_gate().close_for_release();
                generator.clock().stall.wait();
            }
        });
        let stalled = generator.try_generate();
        releaser.join().unwrap();
        assert_eq!(
            stalled,
            Err(Error::LeaseNotValid {
                scalability_id: 3,
                valid_until_unix_ms: None
            })
        );
    }

    /// Randomness from a xorshift sequence: every increment width, zeros included.
    struct Xorshift(AtomicU64);

    impl RandomSource for Xorshift {
        fn next_u32(&self) -> u32 {
            let mut x = self.0.load(Ordering::Relaxed);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0.store(x, Ordering::Relaxed);
            x as u32
        }
    }

    /// What makes the common case's start from the thread's last ID sound (see
    /// `Generator::last_stored`): after its first ID the state word never goes back, whatever
    /// writes it (IDs on a clock that jumps back and forth within the rollback allowance and
    /// beyond, leaving a millisecond, a lease's floor, a release), and an ID or a release
    /// always moves it on; so a word equal to a value stored before has not changed since.
    #[test]
    fn after_its_first_id_the_state_word_never_goes_back() {
        for layout in [Layout::StandAlone, Layout::Scalable { scalability_id: 9 }] {
            let at = |ms: u64| (Epoch::DEFAULT.unix_ms() + ms) as i64;
            let generator = Generator::builder()
                .clock(SetClock(AtomicI64::new(at(10_000))))
                .random_source(Xorshift(AtomicU64::new(0x9E37_79B9_7F4A_7C15)))
                .layout(layout)
                .rollback_allowance(core::time::Duration::from_millis(5))
                .build()
                .unwrap();
            let choose = Xorshift(AtomicU64::new(0x2545_F491_4F6C_DD1D));
            let mut before = generator.last.load(Ordering::SeqCst);
            let mut ids = 0;
            for step in 0..100_000 {
                // A millisecond every 20 steps, read up to 4 ms early or 3 ms late.
                let ms = 10_000 + step / 20 + u64::from(choose.next_u32() % 8) - 4;
                generator.clock().0.store(at(ms), Ordering::SeqCst);
                match choose.next_u32() % 64 {
                    0 => generator.leave_current_millisecond(),
                    1 => generator.leave_milliseconds_before(ms + u64::from(choose.next_u32() % 3)),
                    2 => {
                        generator.leave_milliseconds_for_release();
                        let after = generator.last.load(Ordering::SeqCst);
                        assert!(
                            before == NO_ID_YET || after > before,
                            "{before:#x} -> {after:#x}"
                        );
                    }
                    _ => {
                        if let Ok(id) = generator.try_generate() {
                            assert!(before == NO_ID_YET || id.to_u64() > before, "{id:?}");
                            assert_eq!(generator.last.load(Ordering::SeqCst), id.to_u64());
                            ids += 1;
                        }
                    }
                }
                let after = generator.last.load(Ordering::SeqCst);
                assert!(
                    before == NO_ID_YET || after >= before,
                    "{before:#x} -> {after:#x}"
                );
                before = after;
            }
            // Tens of thousands of IDs (40,692 and 39,601 of the 100,000 steps): the test ran
            // the generator's paths, not only its errors.
            assert!(ids > 30_000, "{ids} IDs in {layout:?}");
        }
    }
}

/// A model check of a release racing calls in flight: loom runs every interleaving (with at
/// most `LOOM_MAX_PREEMPTIONS` preemptions, 3 in the test command; on its weak-memory
/// atomics) of calls that may have loaded the open gate before the release and read the
/// clock after it, with the clock moved on to the next holder's time. A call either
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
