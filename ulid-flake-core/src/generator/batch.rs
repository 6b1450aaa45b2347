//! Batches: a slice filled with IDs reserved together, one clock reading and one
//! compare-and-swap for all of them.

use core::cell::RefCell;

use super::clock::Clock;
use super::random::RandomSource;
use super::state::Generator;
use crate::error::Error;
use crate::id_type::IdType;
use crate::layout::SCALABILITY_ID_BITS;
use crate::ulid_flake::UlidFlake;

impl<C: Clock, R: RandomSource> Generator<C, R> {
    /// Fills a prefix of `out` with the next IDs, all in one millisecond, reserved together:
    /// one clock reading and one compare-and-swap for the whole batch, the same checks as
    /// [`Generator::try_generate`] (fork, lease deadline, rollback) and the same IDs as that many
    /// calls of it would make — a fresh draw in a new millisecond, then a random increment per
    /// ID, drawn in bulk. Returns how many it filled: all of `out`, or fewer when the
    /// millisecond is exhausted first. IDs made by other threads fall before or after the
    /// batch, never within it. Drawn in bulk, the increments of a millisecond's end may be
    /// drawn and not used: with a scripted [`RandomSource`], the calls after such a batch draw
    /// from further along the script than after as many single calls.
    ///
    /// `out` is a slice of any ID type (the bound `IdType` is theirs): [`UlidFlake`],
    /// [`Id<T>`](crate::Id), [`PrefixedId<T>`](crate::PrefixedId) or a
    /// [`newtype!`](crate::newtype) key, the same IDs for each (a key's converted one at a
    /// time, the others written in place).
    ///
    /// Only that many entries are IDs. The rest of `out` is as it was, or the type's `MIN`
    /// ([`UlidFlake::MIN`]) where an attempt that lost a race with another thread had written
    /// IDs it then did not issue (the same holds after an error). `MIN` is an ID only in the
    /// epoch's first millisecond, with a fresh draw of 0: count the entries, never look for
    /// `MIN` among them.
    ///
    /// An empty `out` returns 0 at once, without reading the clock.
    ///
    /// # Errors
    ///
    /// As [`Generator::try_generate`], when not even the first ID fits; a failed call leaves
    /// the state unchanged. To wait for the next millisecond instead, call
    /// [`Generator::generate_batch`], which fills the whole slice.
    ///
    /// ```
    /// use ulid_flake_core::{UlidFlake, generator::Generator};
    ///
    /// let generator = Generator::new();
    /// let mut ids = [UlidFlake::MIN; 100];
    /// // A new generator's first ID always fits: its millisecond is new.
    /// let filled = generator.try_generate_batch(&mut ids)?;
    /// assert!(filled >= 1);
    /// assert!(ids[..filled].windows(2).all(|pair| pair[0] < pair[1]));
    ///
    /// // Typed IDs, as any ID type's.
    /// struct User;
    /// let mut users = [ulid_flake_core::Id::<User>::MIN; 100];
    /// let filled = generator.try_generate_batch(&mut users)?;
    /// assert!(filled >= 1 && users[0].to_ulid_flake() > ids[0]);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn try_generate_batch<I: IdType>(&self, out: &mut [I]) -> Result<usize, Error> {
        if out.is_empty() {
            return Ok(0);
        }
        // The IDs are written before the compare-and-swap; an attempt that loses it is
        // planned again from the winner's ID, and may fill fewer entries than it wrote.
        let mut written = 0;
        let result = self.reserve(
            || self.now(),
            |last, now, gate, draw| {
                let first = self.next_after(last, now, gate, draw)?;
                // The increment's size and place as constants: the loop's shifts are then
                // by a constant (an x86 shift by a variable count takes three micro-ops).
                let (last, filled) = match (self.config.entropy_bytes, self.config.randomness_shift)
                {
                    (1, 0) => self.fill_run::<1, 0, I>(first, out),
                    (2, 0) => self.fill_run::<2, 0, I>(first, out),
                    (_, 0) => self.fill_run::<3, 0, I>(first, out),
                    (1, _) => self.fill_run::<1, SCALABILITY_ID_BITS, I>(first, out),
                    (_, _) => self.fill_run::<2, SCALABILITY_ID_BITS, I>(first, out),
                };
                written = written.max(filled);
                Ok((last, filled))
            },
        );
        // Never leave an ID that was not issued where a caller could take it for one: it may
        // equal an ID the winner issued.
        let issued = *result.as_ref().unwrap_or(&0);
        if written > issued {
            out[issued..written].fill(I::from_ulid_flake(UlidFlake::MIN));
        }
        result
    }

    /// Writes `first` and the IDs that follow it in its millisecond into `out`, up to its
    /// end or the field's maximum; returns the last ID written and how many. `N` is the
    /// entropy size in bytes: each increment is `N` random bytes (little-endian), a zero
    /// skipped, drawn a buffer at a time; `SHIFT` is where the randomness starts in the ID.
    #[inline(always)]
    fn fill_run<const N: usize, const SHIFT: u32, I: IdType>(
        &self,
        first: u64,
        out: &mut [I],
    ) -> (u64, usize) {
        DRAWS.with(|draws| {
            let mut borrowed = draws.try_borrow_mut();
            let mut own = None;
            let bytes = match &mut borrowed {
                Ok(bytes) => &mut **bytes,
                // A batch made inside a random source's draw for a batch: a buffer of its own.
                Err(_) => own.insert([0; BUFFER]),
            };
            self.fill_run_into::<N, SHIFT, I>(first, out, bytes)
        })
    }

    /// [`Self::fill_run`], drawing into `bytes`.
    #[inline(always)]
    fn fill_run_into<const N: usize, const SHIFT: u32, I: IdType>(
        &self,
        first: u64,
        out: &mut [I],
        bytes: &mut [u8; BUFFER],
    ) -> (u64, usize) {
        let max_increment = (1_u64 << (8 * N)) - 1;
        out[0] = I::from_ulid_flake(UlidFlake::from_raw(first));
        let mut last = first;
        let mut room = u64::from(self.config.randomness_max - self.config.randomness_of(first));
        let mut filled = 1;
        while filled < out.len() {
            let wanted = (out.len() - filled).min(BUFFER / N);
            // While `room` holds every increment of a draw at its largest, no increment
            // needs checking against it: the loop is a prefix sum with no branch but the
            // zero skip.
            let safe = usize::try_from(room / max_increment).unwrap_or(usize::MAX);
            if safe == 0 {
                let (end, more) = self.fill_checked::<N, I>(last, room, &mut out[filled..], bytes);
                return (end, filled + more);
            }
            let drawn = &mut bytes[..wanted.min(safe) * N];
            self.random.fill_bytes(drawn);
            let start = last;
            let issued;
            let rest = &mut out[filled..];
            let (rest_len, rest_start) = (rest.len(), rest.as_ptr().cast::<u8>());
            (last, issued) = match I::as_ulid_flakes(rest) {
                // The rest of `out` itself, not a slice a hand-written `IdType` made up.
                Some(slots)
                    if slots.len() == rest_len
                        && core::ptr::eq(slots.as_ptr().cast::<u8>(), rest_start) =>
                {
                    issue_drawn::<N, SHIFT>(last, drawn, slots)
                }
                _ => issue_through_a_buffer::<N, SHIFT, I>(last, drawn, &mut out[filled..]),
            };
            filled += issued;
            room -= (last - start) >> SHIFT;
        }
        (last, filled)
    }

    /// The end of a millisecond, where an increment may not fit in `room`: each is checked,
    /// and the first that does not fit ends the run. Returns the last ID and how many it
    /// wrote into `out`, drawing into `bytes`.
    #[cold]
    fn fill_checked<const N: usize, I: IdType>(
        &self,
        mut last: u64,
        mut room: u64,
        out: &mut [I],
        bytes: &mut [u8; BUFFER],
    ) -> (u64, usize) {
        let unit = 1_u64 << self.config.randomness_shift;
        let mut filled = 0;
        'draws: while filled < out.len() {
            let drawn = &mut bytes[..((out.len() - filled) * N).min(BUFFER)];
            self.random.fill_bytes(drawn);
            for increment in drawn.chunks_exact(N) {
                let increment = increment_le(increment);
                if increment == 0 {
                    continue;
                }
                if increment > room {
                    break 'draws;
                }
                room -= increment;
                last += increment * unit;
                out[filled] = I::from_ulid_flake(UlidFlake::from_raw(last));
                filled += 1;
            }
        }
        (last, filled)
    }
}

/// The IDs of one draw's increments after `last`, into `slots`: returns the last ID and how
/// many it issued. 1-byte increments take the processor's vector sums where it has them
/// (x86-64 with AVX), every other size the scalar steps.
#[inline(always)]
fn issue_drawn<const N: usize, const SHIFT: u32>(
    last: u64,
    drawn: &[u8],
    slots: &mut [UlidFlake],
) -> (u64, usize) {
    #[cfg(target_arch = "x86_64")]
    if N == 1 && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the processor has AVX, just checked.
        return unsafe { sums::issue_drawn::<SHIFT>(last, drawn, slots) };
    }
    issue_sixteens::<N, SHIFT, Steps>(last, drawn, slots)
}

/// [`issue_drawn`] for a type whose slots are not `UlidFlake`s (a `newtype!` key): into a
/// buffer, then each ID converted into its slot.
#[inline(always)]
fn issue_through_a_buffer<const N: usize, const SHIFT: u32, I: IdType>(
    last: u64,
    drawn: &[u8],
    slots: &mut [I],
) -> (u64, usize) {
    let mut buffer = [UlidFlake::MIN; BUFFER];
    // As many entries as `slots` has, as `issue_drawn` may take: at least one an increment.
    let entries = slots.len().min(BUFFER);
    let (last, issued) = issue_drawn::<N, SHIFT>(last, drawn, &mut buffer[..entries]);
    for (slot, id) in slots.iter_mut().zip(&buffer[..issued]) {
        *slot = I::from_ulid_flake(*id);
    }
    (last, issued)
}

/// Sixteen increments at a time: when none of their bytes is 0 (94 % of sixteens with
/// 1-byte entropy), sixteen IDs are `last` plus each increment in turn, stored with no
/// branch by `S`. Checking the bytes, not the increments, makes the check one vector
/// compare. A zero byte of a nonzero 2-byte increment only sends its sixteen down the
/// per-increment path, which makes the same IDs. (2-byte increments come here only when the
/// batch's first ID has a randomness below 16, as a fresh draw may; 3-byte ones never: the
/// largest exceeds either field.)
#[inline(always)]
fn issue_sixteens<const N: usize, const SHIFT: u32, S: Sixteens<N, SHIFT>>(
    last: u64,
    drawn: &[u8],
    slots: &mut [UlidFlake],
) -> (u64, usize) {
    let mut running = S::running(last);
    let mut issued = 0;
    let mut sixteens = drawn.chunks_exact(16 * N);
    for sixteen in &mut sixteens {
        if !sixteen.iter().fold(false, |zero, &byte| zero | (byte == 0)) {
            running = S::issue(running, sixteen, &mut slots[issued..][..16]);
            issued += 16;
        } else {
            let mut last = S::last(running);
            for increment in sixteen.chunks_exact(N) {
                issue::<SHIFT>(slots, &mut issued, &mut last, increment_le(increment));
            }
            running = S::running(last);
        }
    }
    let mut last = S::last(running);
    for increment in sixteens.remainder().chunks_exact(N) {
        issue::<SHIFT>(slots, &mut issued, &mut last, increment_le(increment));
    }
    (last, issued)
}

/// Sixteen increments of `N` bytes, none of them 0, added in turn to a running ID and stored:
/// the batch's step with no branch, of which there are two.
trait Sixteens<const N: usize, const SHIFT: u32> {
    /// The running ID as the step keeps it between sixteens.
    type Running: Copy;
    /// `last` as the step keeps it.
    fn running(last: u64) -> Self::Running;
    /// The last ID issued.
    fn last(running: Self::Running) -> u64;
    /// Issues the sixteen IDs of `sixteen`'s increments after `running` into `slots`
    /// (sixteen of them); returns the last.
    fn issue(running: Self::Running, sixteen: &[u8], slots: &mut [UlidFlake]) -> Self::Running;
}

/// An increment at a time, each loaded from memory as it is added (not taken out of a word
/// with shifts: BENCHMARKS.md, the fifteenth set).
struct Steps;

impl<const N: usize, const SHIFT: u32> Sixteens<N, SHIFT> for Steps {
    type Running = u64;

    #[inline(always)]
    fn running(last: u64) -> u64 {
        last
    }

    #[inline(always)]
    fn last(running: u64) -> u64 {
        running
    }

    #[inline(always)]
    fn issue(mut last: u64, sixteen: &[u8], slots: &mut [UlidFlake]) -> u64 {
        for (slot, increment) in slots.iter_mut().zip(sixteen.chunks_exact(N)) {
            last += increment_le(increment) << SHIFT;
            *slot = UlidFlake::from_raw(last);
        }
        last
    }
}

/// Sixteen 1-byte increments as prefix sums, two IDs a vector. A scalar step adds each
/// increment to the last ID in turn: one ID a cycle at best (each add waits for the one
/// before, and each ID is a store). Here a sum of absolute differences with 0 (`psadbw`)
/// adds up each 8-byte lane of a vector whose two lanes hold the same eight increments,
/// masked to two prefixes of them: two IDs' sums at once, added to the last ID and written
/// with one store (BENCHMARKS.md, the sixteenth set). The instructions are SSE2, part of
/// every x86-64 processor; built for AVX (three-operand forms, no register copies) they take
/// a fifth less time, so they run only where the processor has AVX. 128-bit only:
/// an Intel processor whose 256-bit units stood idle runs them slowly for some
/// microseconds, and a batch comes after the wait for a millisecond (see the keystream).
#[cfg(target_arch = "x86_64")]
mod sums {
    use super::{Sixteens, UlidFlake, issue_sixteens};
    use core::arch::x86_64::{
        __m128i, _mm_add_epi64, _mm_and_si128, _mm_cvtsi32_si128, _mm_cvtsi128_si64, _mm_sad_epu8,
        _mm_set1_epi64x, _mm_setzero_si128, _mm_sll_epi64, _mm_storeu_si128,
    };

    /// [`super::issue_drawn`] for 1-byte increments, built for AVX.
    ///
    /// # Safety
    ///
    /// The processor has AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn issue_drawn<const SHIFT: u32>(
        last: u64,
        drawn: &[u8],
        slots: &mut [UlidFlake],
    ) -> (u64, usize) {
        issue_sixteens::<1, SHIFT, PrefixSums>(last, drawn, slots)
    }

    /// The sums of absolute differences with 0 of bytes masked to their prefixes.
    pub(super) struct PrefixSums;

    /// The masks of the four pairs of a vector's eight bytes: pair `p` keeps bytes `0..=2p`
    /// in its low lane and `0..=2p + 1` in its high one, so that its sums are the prefix sums
    /// of IDs `2p` and `2p + 1`.
    const PREFIXES: [[u8; 16]; 4] = [prefixes(0), prefixes(1), prefixes(2), prefixes(3)];

    const fn prefixes(pair: usize) -> [u8; 16] {
        let mut mask = [0; 16];
        let mut byte = 0;
        while byte < 8 {
            if byte <= 2 * pair {
                mask[byte] = 0xFF;
            }
            if byte <= 2 * pair + 1 {
                mask[8 + byte] = 0xFF;
            }
            byte += 1;
        }
        mask
    }

    impl<const SHIFT: u32> Sixteens<1, SHIFT> for PrefixSums {
        /// The last ID in both lanes.
        type Running = __m128i;

        #[inline(always)]
        fn running(last: u64) -> __m128i {
            // SAFETY: SSE2 is part of every x86-64 processor (as for each intrinsic below).
            unsafe { _mm_set1_epi64x(last.cast_signed()) }
        }

        #[inline(always)]
        fn last(running: __m128i) -> u64 {
            // SAFETY: SSE2.
            unsafe { _mm_cvtsi128_si64(running) }.cast_unsigned()
        }

        #[inline(always)]
        fn issue(mut running: __m128i, sixteen: &[u8], slots: &mut [UlidFlake]) -> __m128i {
            let (eights, _) = sixteen.as_chunks::<8>();
            for (eight, slots) in eights.iter().zip(slots.chunks_exact_mut(8)) {
                let word = u64::from_le_bytes(*eight);
                // SAFETY: SSE2; each store writes two of `slots`' `u64`s (`UlidFlake` is
                // `repr(transparent)`), within `slots`: `pair` is one of its four pairs.
                unsafe {
                    let zero = _mm_setzero_si128();
                    let shift = _mm_cvtsi32_si128(SHIFT.cast_signed());
                    let eight = _mm_set1_epi64x(word.cast_signed());
                    for (pair, mask) in slots.chunks_exact_mut(2).zip(PREFIXES) {
                        let mask = core::mem::transmute::<[u8; 16], __m128i>(mask);
                        let sums = _mm_sad_epu8(_mm_and_si128(eight, mask), zero);
                        let ids = _mm_add_epi64(running, _mm_sll_epi64(sums, shift));
                        _mm_storeu_si128(pair.as_mut_ptr().cast(), ids);
                    }
                    let sum = _mm_sad_epu8(eight, zero);
                    running = _mm_add_epi64(running, _mm_sll_epi64(sum, shift));
                }
            }
            running
        }
    }
}

/// Issues the ID `increment` after `last` into `slots[*issued]`; no carry into the
/// timestamp (the caller's `room` bounds the sum). A zero writes the entry after the last ID,
/// then stays on it: a draw that ends on one took less than it could have, so the next draw
/// is not the checked tail, and its first ID goes over that entry.
#[inline(always)]
fn issue<const SHIFT: u32>(
    slots: &mut [UlidFlake],
    issued: &mut usize,
    last: &mut u64,
    increment: u64,
) {
    *last += increment << SHIFT;
    slots[*issued] = UlidFlake::from_raw(*last);
    *issued += usize::from(increment != 0);
}

std::thread_local! {
    /// The thread's buffer of bulk draws, zeroed once: zeroing a kilobyte on the stack in every
    /// batch took a call about 60 ns longer (BENCHMARKS.md, the sixteenth set).
    static DRAWS: RefCell<[u8; BUFFER]> = const { RefCell::new([0; BUFFER]) };
}

/// The bytes of one bulk draw of increments: a multiple of 1, 2 and 3, and room for a batch
/// of 1,000 IDs with 1-byte increments in one draw (each draw has a cost of its own: 768
/// bytes took two, and a call about 20 ns longer; BENCHMARKS.md, the sixteenth set).
const BUFFER: usize = 1008;

/// An increment's value from its little-endian random bytes (1 to 3 of them).
#[inline(always)]
fn increment_le(bytes: &[u8]) -> u64 {
    let mut word = [0_u8; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(word)
}

// Not under loom's cfg, which leaves the dev-dependencies out.
#[cfg(all(test, not(ulid_flake_loom)))]
mod tests {
    use super::{Sixteens, Steps, UlidFlake, issue_sixteens};
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The IDs of 1-byte increments `drawn` after `last`, one at a time, a zero skipped.
    fn model(mut last: u64, drawn: &[u8], shift: u32) -> (u64, Vec<u64>) {
        let mut ids = Vec::new();
        for &increment in drawn.iter().filter(|&&increment| increment != 0) {
            last += u64::from(increment) << shift;
            ids.push(last);
        }
        (last, ids)
    }

    /// What `S` issues for `drawn` after `last`: the last ID and the IDs.
    fn issued<const SHIFT: u32, S: Sixteens<1, SHIFT>>(last: u64, drawn: &[u8]) -> (u64, Vec<u64>) {
        let mut slots = alloc::vec![UlidFlake::MIN; drawn.len() + 1];
        let (last, issued) = issue_sixteens::<1, SHIFT, S>(last, drawn, &mut slots);
        (last, slots[..issued].iter().map(|id| id.to_u64()).collect())
    }

    /// Both steps, at both places of the randomness, against the model.
    fn check(last: u64, drawn: &[u8]) {
        assert_eq!(issued::<0, Steps>(last, drawn), model(last, drawn, 0));
        assert_eq!(issued::<5, Steps>(last, drawn), model(last, drawn, 5));
        #[cfg(target_arch = "x86_64")]
        {
            use super::sums::PrefixSums;
            assert_eq!(issued::<0, PrefixSums>(last, drawn), model(last, drawn, 0));
            assert_eq!(issued::<5, PrefixSums>(last, drawn), model(last, drawn, 5));
        }
    }

    #[test]
    fn the_steps_and_the_prefix_sums_issue_each_increment_in_turn() {
        // Each byte its place plus one, so that a sum taken over the wrong bytes differs.
        let distinct: Vec<u8> = (1..=48).collect();
        check(7, &distinct);
        // The largest sums, carried from one half and one sixteen to the next.
        check(1 << 40, &[0xFF; 64]);
        // A zero in each place of a sixteen: that sixteen one at a time, the next in bulk.
        for place in 0..16 {
            let mut drawn = distinct.clone();
            drawn[place] = 0;
            check(3, &drawn);
        }
    }

    proptest! {
        #[test]
        fn the_steps_and_the_prefix_sums_issue_the_ids_of_the_model(
            last in 0..u64::MAX >> 24,
            drawn in proptest::collection::vec(prop_oneof![1 => Just(0_u8), 15 => any::<u8>()], 0..100),
        ) {
            check(last, &drawn);
        }
    }
}
