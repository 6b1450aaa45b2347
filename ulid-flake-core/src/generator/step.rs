//! The step every call takes: one random draw, the fork check, the lease gate, one clock
//! reading and one compare-and-swap of the state word (the specification's steps, in the
//! [module docs](super)), and the configuration it reads.

#[cfg(not(ulid_flake_loom))]
use core::cell::Cell;
#[cfg(not(ulid_flake_loom))]
use core::sync::atomic::Ordering;
#[cfg(ulid_flake_loom)]
use loom::sync::atomic::Ordering;

use super::clock::Clock;
use super::random::RandomSource;
use super::state::{Generator, NO_ID_YET, NO_SKEW};
use super::{fork, gate};
use crate::error::Error;
use crate::layout::RANDOMNESS_BITS;
use crate::ulid_flake::UlidFlake;

impl<C: Clock, R: RandomSource> Generator<C, R> {
    /// Makes the next ID, or returns the error of the step that failed (see the
    /// [module docs](super)); a failed call leaves the state unchanged.
    ///
    /// # Errors
    ///
    /// [`Error::Overflow`] when this millisecond is exhausted (wait for the next one, or call
    /// [`Generator::generate`]); [`Error::ClockMovedBackwards`] beyond the rollback
    /// allowance; [`Error::TimestampOutOfRange`] when the clock is before the epoch or past
    /// its last millisecond.
    ///
    /// ```
    /// use ulid_flake_core::{Error, generator::Generator};
    ///
    /// let generator = Generator::new();
    /// match generator.try_generate() {
    ///     Ok(id) => println!("{id}"),
    ///     Err(Error::Overflow { .. }) => { /* try again in the next millisecond */ }
    ///     Err(other) => panic!("{other}"),
    /// }
    /// ```
    pub fn try_generate(&self) -> Result<UlidFlake, Error> {
        self.generate_reading(|| self.now())
    }

    /// [`Generator::try_generate`] with `read` as the clock's reading (ms since the epoch).
    ///
    /// The common case — an ID that continues the last one's millisecond, the first
    /// compare-and-swap won — is a few instructions with no call that a value must outlive,
    /// so nothing is spilled to the stack and stored before the swap (a locked instruction
    /// waits for every earlier store). A swap lost to another thread is tried once more here,
    /// from the winner's ID (measured on two threads of the Intel host, the seventeenth set's
    /// hour: 27.7 → 25.8 ns, the medians of ten alternated runs each; one thread 9.2 → 9.7).
    /// Every other case goes on out of line, from the same reading and draw.
    ///
    /// The common case swaps from the state word this thread last stored into this
    /// generator's, not from a load of it ([`Generator::last_stored`]): on one thread that is
    /// the word, and on two the swap that fails on it brings the word's cache line over once,
    /// for writing, where a load brought it over to be read and the swap then took it again.
    #[inline(always)]
    pub(super) fn generate_reading(
        &self,
        read: impl Fn() -> Result<u64, Error>,
    ) -> Result<UlidFlake, Error> {
        let begun = self.begin(&read, || self.last_stored())?;
        let mut expected = begun.last;
        let mut lost = false;
        let last = loop {
            match self.continue_millisecond(expected, begun.now, begun.gate, begun.draw) {
                Some(next) => match self.last.compare_exchange_weak(
                    expected,
                    next,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) if fork::count() == begun.forks => {
                        self.remember_stored(next);
                        return Ok(UlidFlake::from_raw(next));
                    }
                    Ok(_) => return self.generate_after_fork_in_flight(read),
                    // Lost to another thread: once more here, from its ID, if the gate is
                    // unchanged (see `Generator::observe`).
                    Err(actual) if !lost && self.gate.load(Ordering::Acquire) == begun.gate => {
                        expected = actual;
                        lost = true;
                    }
                    Err(actual) => break actual,
                },
                // Declined: what follows (a new millisecond, or an error) is decided from the
                // word itself, never from this thread's last store, which may be older.
                None if lost => break expected,
                None => break self.last.load(Ordering::Acquire),
            }
        };
        // Scalars, not the `Begun` struct: with the struct, the compiler stored its fields
        // to the stack before the swap, for the cold call; scalars go in registers.
        self.generate_from(read, begun.gate, begun.now, begun.draw, last, begun.forks)
    }

    /// [`Generator::generate_reading`] again, in a child forked during a call, after its
    /// swap: see [`Generator::forked_in_flight`].
    #[cold]
    #[inline(never)]
    fn generate_after_fork_in_flight(
        &self,
        read: impl Fn() -> Result<u64, Error>,
    ) -> Result<UlidFlake, Error> {
        self.forked_in_flight();
        self.generate_reading(read)
    }

    /// The rest of [`Generator::generate_reading`]: every step of the protocol from `last`.
    #[cold]
    #[inline(never)]
    fn generate_from(
        &self,
        read: impl Fn() -> Result<u64, Error>,
        gate: u64,
        now: u64,
        draw: u32,
        last: u64,
        forks: u64,
    ) -> Result<UlidFlake, Error> {
        // The gate again, after the state word (see `Generator::observe`): the common case
        // was declined, or its swap lost, and what follows may start a millisecond.
        let (gate, now, last) = if self.gate.load(Ordering::Acquire) == gate {
            (gate, now, last)
        } else {
            self.observe(&read)?
        };
        let begun = Begun {
            gate,
            now,
            draw,
            last,
            forks,
        };
        // Every turn tries the common case first: `continue_millisecond` is `next_after`
        // wherever it is `Some`, in fewer instructions, and a turn after a swap lost to another
        // thread in the millisecond read (how two threads on one generator fail each other)
        // is that case (measured, two threads on the `TickerClock`: 9.44 → 9.08 ns, the
        // medians of eight alternated runs).
        self.settle(read, begun, |last, now, gate, draw| {
            let next = match self.continue_millisecond(last, now, gate, draw) {
                Some(next) => next,
                None => self.next_after(last, now, gate, draw)?,
            };
            Ok((next, UlidFlake::from_raw(next)))
        })
    }

    /// The protocol of every call, single or batch: one random draw, the fork check, the lease
    /// gate, one clock reading, one compare-and-swap of the state word and the fork check
    /// again. `plan` works out,
    /// from the last ID, the reading and the gate word, the new last ID and the call's result;
    /// it runs again when another thread went first.
    #[inline(always)]
    pub(super) fn reserve<T>(
        &self,
        read: impl Fn() -> Result<u64, Error>,
        plan: impl FnMut(u64, u64, u64, u32) -> Result<(u64, T), Error>,
    ) -> Result<T, Error> {
        let begun = self.begin_observed(&read)?;
        self.settle(read, begun, plan)
    }

    /// [`Generator::begin`] from a load of the state word, then the gate again, after the
    /// state word (see `Generator::observe`): a batch may start a millisecond without going
    /// out of line.
    #[inline(always)]
    fn begin_observed(&self, read: &impl Fn() -> Result<u64, Error>) -> Result<Begun, Error> {
        let mut begun = self.begin(read, || self.last.load(Ordering::Acquire))?;
        if self.gate.load(Ordering::Acquire) != begun.gate {
            (begun.gate, begun.now, begun.last) = self.observe(read)?;
        }
        Ok(begun)
    }

    /// The protocol up to the compare-and-swap; `last` gives the state word to start from.
    #[inline(always)]
    fn begin(
        &self,
        read: &impl Fn() -> Result<u64, Error>,
        last: impl FnOnce() -> u64,
    ) -> Result<Begun, Error> {
        // The random draw first: its store (the thread's position in the bytes drawn ahead)
        // must reach the cache before the compare-and-swap's locked instruction can run, and
        // issued first it has the whole call to get there (measured: 4.6 → 4.4 ns with the
        // `TickerClock`, 42.5 → 41.6 ns with the system clock). It also keeps the window
        // between loading the state and the swap arithmetic only — but for an ID that starts
        // a millisecond, whose fresh randomness is drawn in it (`next_after`) — so another
        // thread rarely lands in it. One draw serves every turn: it was not used for an ID
        // until the swap succeeds; a call that fails before the swap wastes it, no more.
        let draw = self.random.increment_draw(self.config.entropy_bytes);
        let forks = fork::count();
        if forks != self.forks_seen.load(Ordering::Acquire) {
            self.leave_inherited_millisecond(forks);
        }
        let (gate, now, last) = self.observe_unchecked(read, last)?;
        Ok(Begun {
            gate,
            now,
            draw,
            last,
            forks,
        })
    }

    /// Where the common case starts from: the state word as this thread last stored it, if
    /// the last generator it stored into has this one's word address, else a load of the
    /// word. It is a guess that the compare-and-swap checks: the swap succeeds only if the
    /// word holds that value at that instant, and then the ID follows the word's value as a
    /// load would have given it. After this thread's store the word never goes back (an ID
    /// or a release moves it on; leaving a millisecond or a lease's floor moves it on or
    /// leaves it), so a guess that another thread, a release or a fork has overtaken fails
    /// its swap, and the call goes on from the value the swap returned. A generator built
    /// anew at that address may decline the guess, fail its swap, or hold that very value, and
    /// then the swap from it is sound for the same reason. Nothing but the common case uses
    /// the guess: a new millisecond or an error is decided from the word itself.
    #[inline(always)]
    fn last_stored(&self) -> u64 {
        #[cfg(not(ulid_flake_loom))]
        {
            let (word, value) = LAST_STORED.get();
            if word == self.word_address() {
                return value;
            }
        }
        self.load_last()
    }

    /// A load of the state word, where [`Generator::last_stored`] has no guess (this thread's
    /// first call, or its last store was into another generator); out of line, so that the
    /// common path falls through.
    #[cold]
    #[inline(never)]
    fn load_last(&self) -> u64 {
        self.last.load(Ordering::Acquire)
    }

    /// Records `value` as what this thread last stored into this generator's state word.
    #[inline(always)]
    fn remember_stored(&self, value: u64) {
        #[cfg(not(ulid_flake_loom))]
        LAST_STORED.set((self.word_address(), value));
        #[cfg(ulid_flake_loom)]
        let _ = value;
    }

    /// The state word's address: which generator [`LAST_STORED`] is about. For a generator
    /// built anew at a dropped one's address, see [`Generator::last_stored`].
    #[cfg(not(ulid_flake_loom))]
    #[inline(always)]
    fn word_address(&self) -> usize {
        core::ptr::from_ref(&*self.last).addr()
    }

    /// The gate word, the clock's reading and the last ID, read so that the reading was
    /// taken while the gate was open: the gate is loaded before the reading, so that the
    /// reading is not from before the gate's lease began (it could fall in the previous
    /// holder's milliseconds), and again after the state word, so that a gate closed for a
    /// release in the meantime is seen.
    ///
    /// A release closes the gate, then changes the state word and marks every millisecond up
    /// to its clock's used up in it (`LeaseGate::close_for_release`), and its grace covers
    /// them. So a call that loads the state word after that finds the gate closed, here; a
    /// call that loaded it before fails its compare-and-swap, and loads the gate again after
    /// the value the swap returned ([`Generator::settle`], [`Generator::generate_from`]).
    /// Either way, a call that stalled between the gate and the clock cannot stamp, after a
    /// release, a millisecond that the next holder of the id may use.
    ///
    /// The common case ([`Generator::generate_reading`]) skips the second load: it only
    /// continues the last ID's millisecond, under the last ID's scalability id, so that it
    /// stamps no millisecond that the release's grace does not cover; and a state word from
    /// after a release is used up to the clock's millisecond, so that nothing continues it.
    /// Every other case goes on out of line, where the gate is loaded again. The common case
    /// starts from the word this thread last stored ([`Generator::last_stored`]) rather than a
    /// load of it: the same as a load from before the release, whose swap fails.
    ///
    /// The gate word changes on every renewal too (its deadline): then this starts over.
    #[inline(always)]
    fn observe(&self, read: &impl Fn() -> Result<u64, Error>) -> Result<(u64, u64, u64), Error> {
        let (gate, now, last) =
            self.observe_unchecked(read, || self.last.load(Ordering::Acquire))?;
        if self.gate.load(Ordering::Acquire) != gate {
            return self.observe_again(read);
        }
        Ok((gate, now, last))
    }

    /// [`Generator::observe`] but for the gate word's second load: what the common case
    /// needs (see there); `last` gives the state word.
    #[inline(always)]
    fn observe_unchecked(
        &self,
        read: &impl Fn() -> Result<u64, Error>,
        last: impl FnOnce() -> u64,
    ) -> Result<(u64, u64, u64), Error> {
        let gate = self.gate.load(Ordering::Acquire);
        // The clock, then the state: the window between loading the state and the
        // compare-and-swap holds no clock read, so two threads on one generator rarely
        // collide.
        let now = read()?;
        if now >= gate::deadline(gate) {
            return Err(self.lease_not_valid(gate));
        }
        Ok((gate, now, last()))
    }

    /// [`Generator::observe`] again, after the gate word changed during the first.
    #[cold]
    #[inline(never)]
    fn observe_again(
        &self,
        read: &impl Fn() -> Result<u64, Error>,
    ) -> Result<(u64, u64, u64), Error> {
        self.observe(read)
    }

    /// The compare-and-swap loop, from what [`Generator::begin`] read, once the gate word is
    /// found unchanged.
    #[inline(always)]
    fn settle<T>(
        &self,
        read: impl Fn() -> Result<u64, Error>,
        Begun {
            mut gate,
            mut now,
            mut draw,
            mut last,
            mut forks,
        }: Begun,
        mut plan: impl FnMut(u64, u64, u64, u32) -> Result<(u64, T), Error>,
    ) -> Result<T, Error> {
        let mut clock_read_again = false;
        loop {
            let (next, result) = match plan(last, now, gate, draw) {
                Ok(planned) => planned,
                // Another thread may have read the clock after us and stored a later
                // timestamp before our load: that is no rollback. A reading taken now, after
                // seeing its ID, is at least as late as its own (it read before storing), so
                // only a rollback from an ID seen before the reading is real: a lost swap
                // shows a new ID, and allows another reading.
                Err(Error::ClockMovedBackwards { .. }) if !clock_read_again => {
                    clock_read_again = true;
                    now = read()?;
                    if now >= gate::deadline(gate) {
                        return Err(self.lease_not_valid(gate));
                    }
                    continue;
                }
                Err(error) => {
                    #[cfg(feature = "tracing01")]
                    if let Error::ClockMovedBackwards {
                        by_ms,
                        allowance_ms,
                    } = error
                    {
                        crate::macros::event!(
                            "ulid_flake::generator",
                            warn,
                            by_ms,
                            allowance_ms,
                            "clock moved back beyond the rollback allowance: no ID until it catches up"
                        );
                    }
                    return Err(error);
                }
            };
            // Weak: a spurious failure costs one more turn, which this loop takes anyway.
            match self
                .last
                .compare_exchange_weak(last, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) if fork::count() == forks => {
                    self.remember_stored(next);
                    return Ok(result);
                }
                Ok(_) => {
                    self.forked_in_flight();
                    Begun {
                        gate,
                        now,
                        draw,
                        last,
                        forks,
                    } = self.begin_observed(&read)?;
                    clock_read_again = false;
                }
                // Another thread went first: build on its ID. Our reading is still good; if
                // its timestamp is later, the next turn continues in its millisecond. Unless
                // the gate changed: a release may have stored that value (see
                // `Generator::observe`), so everything is read again.
                Err(actual) => {
                    last = actual;
                    clock_read_again = false;
                    if self.gate.load(Ordering::Acquire) != gate {
                        (gate, now, last) = self.observe(&read)?;
                    }
                }
            }
        }
    }

    /// The clock's reading in milliseconds since the epoch.
    #[inline]
    pub(super) fn now(&self) -> Result<u64, Error> {
        self.config.epoch.ms_since_epoch_at(self.clock.unix_ms())
    }

    /// The error of a closed gate: when it had a deadline (or lost a lease that had one),
    /// the lease ran out then.
    #[cold]
    fn lease_not_valid(&self, gate: u64) -> Error {
        let skew = self.skew_ms.load(Ordering::Acquire);
        if skew != NO_SKEW {
            return Error::ClockSkew {
                scalability_id: gate::scalability_id(gate) as u8,
                skew_ms: skew as i64,
                bound_ms: self.skew_bound_ms.load(Ordering::Acquire),
            };
        }
        let deadline = match gate::deadline(gate) {
            0 => self.lost_deadline.load(Ordering::Acquire),
            deadline => deadline,
        };
        Error::LeaseNotValid {
            scalability_id: gate::scalability_id(gate) as u8,
            // At most 2^48 + 2^43: the sum and the cast are lossless.
            valid_until_unix_ms: (deadline != 0)
                .then(|| (self.config.epoch.unix_ms() + deadline) as i64),
        }
    }

    /// In a child forked during a call on the forking thread — from a signal handler, or
    /// inside a `Clock` or `RandomSource` — after the call's swap: the parent goes on to
    /// issue the ID the swap stored, so the child must not. It leaves that millisecond (the
    /// swap's ID, now in it, with it) and the call begins again, as a call that begins in a
    /// child does. The count is compared after the swap, not only before it, so that a fork
    /// anywhere up to the swap is seen.
    #[cold]
    fn forked_in_flight(&self) {
        self.leave_inherited_millisecond(fork::count());
    }

    /// In a forked child: the parent goes on from the same state, so continuing its
    /// millisecond with increments from the same base would repeat its IDs (1 in 255 per
    /// pair with 1-byte entropy). The child gives up that millisecond instead — as if it were
    /// exhausted — and starts afresh in the next, where it is as independent of its parent as
    /// any second generator. A leased generator's gate closes for good in the child: the
    /// lease, its connection and its renewals belong to the parent.
    #[cold]
    fn leave_inherited_millisecond(&self, forks: u64) {
        // The thread's bytes drawn ahead too: a fork from a signal handler in the middle of a
        // draw can leave the child the rest of its parent's block (the draw's store lands
        // after the fork handler's discard, or a refill ends from the parent's stream). Every
        // call in a child forked before or during it comes here before it issues an ID (the
        // count is compared after the draw, and after the swap).
        super::random::discard_ahead();
        // Both steps first, then the count: a thread that sees the new count (Acquire) sees
        // the gate closed and the millisecond left. Threads racing here repeat idempotent
        // steps.
        if gate::deadline(self.gate.load(Ordering::Acquire)) != gate::UNLEASED {
            self.close_gate();
        }
        self.leave_current_millisecond();
        self.forks_seen.store(forks, Ordering::Release);
    }

    /// Marks the last millisecond exhausted, so the next ID takes a fresh clock reading.
    #[cold]
    pub(super) fn leave_current_millisecond(&self) {
        let config = &self.config;
        // An error here only means there is no ID yet, and so nothing to leave.
        let _ = self
            .last
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |last| {
                (last != NO_ID_YET).then(|| {
                    let low_bits = last & u64::from(crate::layout::SCALABILITY_ID_MAX);
                    config.compose(last >> RANDOMNESS_BITS, config.randomness_max, low_bits)
                })
            });
    }

    /// After the gate closed for a release: marks the milliseconds up to the clock's reading
    /// used up, and the last ID's, so that the release's grace (from the last ID's
    /// millisecond) covers every millisecond a call in flight read; and always changes the
    /// state word (a millisecond more, if it was used up already), so that every call that
    /// loaded it before fails its compare-and-swap and loads the gate again (see
    /// [`Generator::observe`]).
    #[cold]
    pub(super) fn leave_milliseconds_for_release(&self) {
        // No reading (a clock outside the epoch's range): no call can have a valid one.
        let now = self.now().unwrap_or(0);
        let _ = self
            .last
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |last| {
                let used_up = self.used_up_before(last, now + 1);
                Some(if used_up == last {
                    used_up + (1 << RANDOMNESS_BITS)
                } else {
                    used_up
                })
            });
    }

    /// Marks every millisecond before `ms` (since the epoch) used up, and the last ID's
    /// millisecond too: the next ID is stamped in `ms` or later and after the last one — or
    /// refused, if the clock is then behind that by more than the rollback allowance.
    #[cold]
    pub(super) fn leave_milliseconds_before(&self, ms: u64) {
        let _ = self
            .last
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |last| {
                Some(self.used_up_before(last, ms))
            });
    }

    /// The state word after `last` with every millisecond before `ms` used up, and the last
    /// ID's millisecond too.
    fn used_up_before(&self, last: u64, ms: u64) -> u64 {
        let config = &self.config;
        let last_ms = last >> RANDOMNESS_BITS;
        let (used_up, low_bits) = if last == NO_ID_YET || last_ms < ms.saturating_sub(1) {
            (ms.saturating_sub(1), config.low_bits)
        } else {
            (last_ms, last & u64::from(crate::layout::SCALABILITY_ID_MAX))
        };
        config.compose(used_up, config.randomness_max, low_bits)
    }

    /// [`Generator::next_after`] in its common case, in a few instructions: `now` is the
    /// millisecond of `last`, which has the gate's scalability id, and the draw's increment
    /// is not 0 and fits in the field (no carry into the timestamp). `None` in every other
    /// case, for `next_after` to handle.
    #[inline(always)]
    fn continue_millisecond(&self, last: u64, now: u64, gate: u64, draw: u32) -> Option<u64> {
        let config = &self.config;
        let increment = u64::from(draw & config.increment_mask);
        // No wrap: `last` is below 2^63 but for NO_ID_YET, whose millisecond is no reading.
        let next = last.wrapping_add(increment * config.increment_unit);
        let continues = last >> RANDOMNESS_BITS == now && next >> RANDOMNESS_BITS == now;
        // The scalability id's bits, below the randomness: `increment_unit - 1`.
        let same_id = (last ^ gate) & (config.increment_unit - 1) == 0;
        (continues && increment != 0 && same_id).then_some(next)
    }

    /// The ID that follows `last` when the clock reads `now` (ms since the epoch).
    #[inline]
    pub(super) fn next_after(
        &self,
        last: u64,
        now: u64,
        gate: u64,
        draw: u32,
    ) -> Result<u64, Error> {
        let config = &self.config;
        let low_bits = gate::scalability_id(gate);
        let last_ms = last >> RANDOMNESS_BITS;
        if last == NO_ID_YET || now > last_ms {
            let fresh = self.random.fresh_draw(draw) & config.fresh_mask;
            return Ok(config.compose(now, fresh, low_bits));
        }
        let behind = last_ms - now;
        if behind > config.rollback_allowance_ms {
            return Err(Error::ClockMovedBackwards {
                by_ms: behind,
                allowance_ms: config.rollback_allowance_ms,
            });
        }
        #[cfg(feature = "tracing01")]
        if behind > 0 {
            crate::macros::event!(
                "ulid_flake::generator",
                debug,
                behind_ms = behind,
                "clock moved back within the rollback allowance: continuing in the last millisecond"
            );
        }
        // Same millisecond, or a rollback within the allowance: continue in `last_ms` — only
        // under the id it was stamped with, and before the gate's deadline (a rollback makes
        // it later than `now`, which alone was checked).
        if last_ms >= gate::deadline(gate) {
            return Err(self.lease_not_valid(gate));
        }
        if config.randomness_shift != 0
            && last & u64::from(crate::layout::SCALABILITY_ID_MAX) != low_bits
        {
            return Err(Error::Overflow {
                timestamp_ms: last_ms,
            });
        }
        // 0 from a source whose draws may be 0 (`ThreadRandom`'s never are).
        let increment = match draw & config.increment_mask {
            0 => self.increment(),
            increment => increment,
        };
        let randomness = config.randomness_of(last) + increment;
        if randomness > config.randomness_max {
            return Err(Error::Overflow {
                timestamp_ms: last_ms,
            });
        }
        Ok(config.compose(last_ms, randomness, low_bits))
    }

    /// A draw uniform over `1..=2^(8n)-1`: masked draws, with 0 drawn again.
    #[inline]
    fn increment(&self) -> u32 {
        loop {
            let increment = self.random.next_u32() & self.config.increment_mask;
            if increment != 0 {
                return increment;
            }
        }
    }

    /// Stops a leased generator from issuing IDs until the gate opens again (a lease given
    /// up: no loss to report).
    pub(super) fn close_gate(&self) {
        self.lost_deadline.store(0, Ordering::Release);
        self.skew_ms.store(NO_SKEW, Ordering::Release);
        let _ = self
            .gate
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |word| {
                Some(gate::word(0, gate::scalability_id(word)))
            });
    }
}

#[cfg(not(ulid_flake_loom))]
std::thread_local! {
    /// The state word this thread last stored into a generator's, and that word's address
    /// ([`Generator::last_stored`]). One slot for all generators: a thread that alternates
    /// between two loads the word, as without it.
    static LAST_STORED: Cell<(usize, u64)> = const { Cell::new((0, NO_ID_YET)) };
}

/// What a call has read when it comes to its compare-and-swap: the gate word, the clock's
/// reading (ms since the epoch), the random draw, the last ID and the fork count.
#[derive(Clone, Copy)]
pub(super) struct Begun {
    gate: u64,
    now: u64,
    draw: u32,
    last: u64,
    forks: u64,
}
