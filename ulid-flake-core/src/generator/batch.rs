//! Batches: a slice filled with IDs reserved together, one clock reading and one
//! compare-and-swap for all of them.

use super::clock::Clock;
use super::random::RandomSource;
use super::state::Generator;
use crate::error::Error;
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
    /// Only that many entries are IDs. The rest of `out` is as it was, or
    /// [`UlidFlake::MIN`] where an attempt that lost a race with another thread had written
    /// IDs it then did not issue (the same holds after an error). `MIN` is an ID only in the
    /// epoch's first millisecond, with a fresh draw of 0: count the entries, never look for
    /// `MIN` among them.
    ///
    /// An empty `out` returns 0 at once, without reading the clock.
    ///
    /// # Errors
    ///
    /// As [`Generator::try_generate`], when not even the first ID fits; a failed call leaves
    /// the state unchanged.
    ///
    /// ```
    /// use ulid_flake_core::{UlidFlake, generator::Generator};
    ///
    /// let generator = Generator::new();
    /// let mut ids = [UlidFlake::MIN; 100];
    /// let filled = loop {
    ///     match generator.try_generate_batch(&mut ids) {
    ///         Ok(filled) => break filled,
    ///         Err(ulid_flake_core::Error::Overflow { .. }) => continue, // the next millisecond
    ///         Err(other) => panic!("{other}"),
    ///     }
    /// };
    /// assert!(filled >= 1);
    /// assert!(ids[..filled].windows(2).all(|pair| pair[0] < pair[1]));
    /// ```
    pub fn try_generate_batch(&self, out: &mut [UlidFlake]) -> Result<usize, Error> {
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
                    (1, 0) => self.fill_run::<1, 0>(first, out),
                    (2, 0) => self.fill_run::<2, 0>(first, out),
                    (_, 0) => self.fill_run::<3, 0>(first, out),
                    (1, _) => self.fill_run::<1, SCALABILITY_ID_BITS>(first, out),
                    (_, _) => self.fill_run::<2, SCALABILITY_ID_BITS>(first, out),
                };
                written = written.max(filled);
                Ok((last, filled))
            },
        );
        // Never leave an ID that was not issued where a caller could take it for one: it may
        // equal an ID the winner issued.
        let issued = *result.as_ref().unwrap_or(&0);
        if written > issued {
            out[issued..written].fill(UlidFlake::MIN);
        }
        result
    }

    /// Writes `first` and the IDs that follow it in its millisecond into `out`, up to its
    /// end or the field's maximum; returns the last ID written and how many. `N` is the
    /// entropy size in bytes: each increment is `N` random bytes (little-endian), a zero
    /// skipped, drawn a buffer at a time; `SHIFT` is where the randomness starts in the ID.
    #[inline(always)]
    fn fill_run<const N: usize, const SHIFT: u32>(
        &self,
        first: u64,
        out: &mut [UlidFlake],
    ) -> (u64, usize) {
        let max_increment = (1_u64 << (8 * N)) - 1;
        out[0] = UlidFlake::from_raw(first);
        let mut last = first;
        let mut room = u64::from(self.config.randomness_max - self.config.randomness_of(first));
        let mut filled = 1;
        let mut bytes = [0_u8; BUFFER];
        while filled < out.len() {
            let wanted = (out.len() - filled).min(BUFFER / N);
            // While `room` holds every increment of a draw at its largest, no increment
            // needs checking against it: the loop is a prefix sum with no branch but the
            // zero skip.
            let safe = usize::try_from(room / max_increment).unwrap_or(usize::MAX);
            if safe == 0 {
                let (end, more) = self.fill_checked::<N>(last, room, &mut out[filled..]);
                return (end, filled + more);
            }
            let drawn = &mut bytes[..wanted.min(safe) * N];
            self.random.fill_bytes(drawn);
            let slots = &mut out[filled..];
            let start = last;
            let mut issued = 0;
            // Sixteen increments at a time: when none of their bytes is 0 (94 % of
            // sixteens with 1-byte entropy), sixteen IDs are `last` plus each increment in
            // turn, stored with no branch. Checking the bytes, not the increments, makes the
            // check one vector compare, and leaves each increment to be loaded from memory
            // as it is added, not taken out of a register with shifts (BENCHMARKS.md, the
            // fifteenth set). A zero byte of a nonzero 2-byte increment only sends its sixteen
            // down the per-increment path, which makes the same IDs. (2-byte increments come
            // here only when the batch's first ID has a randomness below 16, as a fresh draw
            // may; 3-byte ones never: the largest exceeds either field.)
            let mut sixteens = drawn.chunks_exact(16 * N);
            for sixteen in &mut sixteens {
                if !sixteen.iter().fold(false, |zero, &byte| zero | (byte == 0)) {
                    for (slot, increment) in slots[issued..][..16]
                        .iter_mut()
                        .zip(sixteen.chunks_exact(N))
                    {
                        last += increment_le(increment) << SHIFT;
                        *slot = UlidFlake::from_raw(last);
                    }
                    issued += 16;
                } else {
                    for increment in sixteen.chunks_exact(N) {
                        issue::<SHIFT>(slots, &mut issued, &mut last, increment_le(increment));
                    }
                }
            }
            for increment in sixteens.remainder().chunks_exact(N) {
                issue::<SHIFT>(slots, &mut issued, &mut last, increment_le(increment));
            }
            filled += issued;
            room -= (last - start) >> SHIFT;
        }
        (last, filled)
    }

    /// The end of a millisecond, where an increment may not fit in `room`: each is checked,
    /// and the first that does not fit ends the run. Returns the last ID and how many it
    /// wrote into `out`.
    #[cold]
    fn fill_checked<const N: usize>(
        &self,
        mut last: u64,
        mut room: u64,
        out: &mut [UlidFlake],
    ) -> (u64, usize) {
        let unit = 1_u64 << self.config.randomness_shift;
        let mut filled = 0;
        let mut bytes = [0_u8; BUFFER];
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
                out[filled] = UlidFlake::from_raw(last);
                filled += 1;
            }
        }
        (last, filled)
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

/// The bytes of one bulk draw of increments: a multiple of 1, 2 and 3.
const BUFFER: usize = 768;

/// An increment's value from its little-endian random bytes (1 to 3 of them).
#[inline(always)]
fn increment_le(bytes: &[u8]) -> u64 {
    let mut word = [0_u8; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(word)
}
