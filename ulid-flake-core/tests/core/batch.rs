//! Batches: a prefix of the caller's slice filled in one millisecond with one clock reading
//! and one compare-and-swap, the same IDs that single calls would make (SPEC §3), on
//! scripted clocks and randomness. The increments of a batch are drawn in bulk: with the
//! default `fill_bytes`, each scripted word gives four bytes, little-endian, one per
//! increment with 1-byte entropy.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::Arc;

use ulid_flake_core::generator::{Generator, Layout, RandomSource, ThreadRandom};
use ulid_flake_core::lease::{LeaseOptions, ScalabilityIdLease};
use ulid_flake_core::{Error, Id, PrefixedId, UlidFlake};

use crate::support::{ManualClock, ScriptedRandom, StubTable, at};

const FIELD_MAX: u32 = (1 << 20) - 1;
const SCALABLE_FIELD_MAX: u16 = (1 << 15) - 1;

fn scripted(unix_ms: i64) -> Generator<ManualClock, ScriptedRandom> {
    Generator::builder()
        .clock(ManualClock::new(unix_ms))
        .random_source(ScriptedRandom::default())
        .build()
        .unwrap()
}

/// A scripted word of four 1-byte increments, the first in the lowest byte.
fn bytes(increments: [u8; 4]) -> u32 {
    u32::from_le_bytes(increments)
}

fn ids(parts: &[(u64, u32)]) -> Vec<UlidFlake> {
    parts
        .iter()
        .map(|&(timestamp, randomness)| UlidFlake::from_parts(timestamp, randomness).unwrap())
        .collect()
}

#[test]
fn a_batch_is_a_fresh_draw_then_one_increment_per_id_with_zero_skipped() {
    let generator = scripted(at(100));
    // The fresh draw; then 4 bytes for the 4 increments, one of them 0 (skipped); then 1
    // byte (in a word) for the increment still missing.
    generator
        .random_source()
        .push(&[10, bytes([1, 0, 2, 3]), bytes([4, 9, 9, 9])]);
    let mut out = [UlidFlake::MIN; 5];
    assert_eq!(generator.try_generate_batch(&mut out), Ok(5));
    assert_eq!(
        out.to_vec(),
        ids(&[(100, 10), (100, 11), (100, 13), (100, 16), (100, 20)])
    );
    assert_eq!(generator.random_source().left(), 0);
    // A single call continues after the batch.
    generator.random_source().push(&[5]);
    assert_eq!(
        generator.try_generate(),
        Ok(UlidFlake::from_parts(100, 25).unwrap())
    );
}

#[test]
fn a_batch_draws_what_its_room_holds_at_once_then_checks_each_increment_at_the_end() {
    let generator = scripted(at(100));
    generator.random_source().push(&[
        // Fresh at 600 below the maximum: room for two increments of 255, drawn together;
        // the second is 0 (skipped).
        FIELD_MAX - 600,
        bytes([255, 0, 9, 9]),
        // 345 left: room for one more at once.
        bytes([100, 9, 9, 9]),
        // 245 left: each increment is checked, and 250 does not fit.
        bytes([250, 9, 9, 9]),
    ]);
    let mut out = [UlidFlake::MAX; 4];
    assert_eq!(generator.try_generate_batch(&mut out), Ok(3));
    assert_eq!(
        out[..3].to_vec(),
        ids(&[
            (100, FIELD_MAX - 600),
            (100, FIELD_MAX - 345),
            (100, FIELD_MAX - 245)
        ])
    );
    assert_eq!(out[3], UlidFlake::MAX);
    assert_eq!(generator.random_source().left(), 0);
}

#[test]
fn a_batch_that_exhausts_its_millisecond_fills_what_fits_and_leaves_the_rest() {
    let generator = scripted(at(100));
    // Fresh at 5 below the maximum; increments 2 and 3 reach it exactly, 1 does not fit.
    generator.random_source().push(&[
        FIELD_MAX - 5,
        bytes([2, 3, 1, 1]),
        bytes([1, 1, 1, 1]),
        bytes([1, 1, 1, 1]),
    ]);
    let mut out = [UlidFlake::MAX; 10];
    assert_eq!(generator.try_generate_batch(&mut out), Ok(3));
    assert_eq!(
        out[..3].to_vec(),
        ids(&[(100, FIELD_MAX - 5), (100, FIELD_MAX - 3), (100, FIELD_MAX)])
    );
    assert!(out[3..].iter().all(|&id| id == UlidFlake::MAX));
    // The millisecond is full: the next batch in it fails as a single call does.
    generator.random_source().clear();
    generator.random_source().push(&[1]);
    assert_eq!(
        generator.try_generate_batch(&mut out),
        Err(Error::Overflow { timestamp_ms: 100 })
    );
}

#[test]
fn a_blocking_batch_crossing_a_millisecond_boundary_waits_and_goes_on_in_the_next() {
    let generator = scripted(at(100));
    generator.random_source().push(&[
        // Millisecond 100: fresh, then 3 increments drawn: 1 fits, 5 does not. The part
        // ends short of the batch, its millisecond used up: the batch waits, with no second
        // swap in 100 (in which another thread's ID could have come between the parts).
        FIELD_MAX - 1,
        bytes([1, 5, 5, 0]),
        // Millisecond 101: fresh, then 1 increment.
        7,
        bytes([3, 0, 0, 0]),
    ]);
    let mut out = [UlidFlake::MIN; 4];
    generator.generate_batch(&mut out).unwrap();
    assert_eq!(
        out.to_vec(),
        ids(&[(100, FIELD_MAX - 1), (100, FIELD_MAX), (101, 7), (101, 10)])
    );
    assert_eq!(generator.clock().waits(), [at(101)]);
    assert_eq!(generator.random_source().left(), 0);
}

#[tokio::test]
async fn an_async_batch_waits_for_the_next_millisecond_after_a_short_part() {
    let generator = scripted(at(100));
    // As the blocking batch above: the part in 100 ends short, and the next is in 101.
    generator
        .random_source()
        .push(&[FIELD_MAX, bytes([1, 0, 0, 0]), 7, bytes([3, 0, 0, 0])]);
    let mut out = [UlidFlake::MIN; 3];
    generator.generate_batch_async(&mut out).await.unwrap();
    assert_eq!(out.to_vec(), ids(&[(100, FIELD_MAX), (101, 7), (101, 10)]));
    assert_eq!(generator.clock().waits(), [at(101)]);
}

#[test]
fn a_scalable_batch_shifts_its_increments_past_the_scalability_id() {
    let generator = Generator::builder()
        .layout(Layout::Scalable { scalability_id: 7 })
        .entropy_bytes(2)
        .clock(ManualClock::new(at(100)))
        .random_source(ScriptedRandom::default())
        .build()
        .unwrap();
    // Fresh at 3 below the maximum; 2-byte increments 1 and 2 reach it; 1 more does not fit.
    generator
        .random_source()
        .push(&[u32::from(SCALABLE_FIELD_MAX) - 3, 0x0002_0001, 0x0000_0001]);
    let mut out = [UlidFlake::MIN; 4];
    assert_eq!(generator.try_generate_batch(&mut out), Ok(3));
    let expected: Vec<UlidFlake> = [3, 2, 0]
        .iter()
        .map(|below| UlidFlake::from_scalable_parts(100, SCALABLE_FIELD_MAX - below, 7).unwrap())
        .collect();
    assert_eq!(out[..3].to_vec(), expected);
}

#[test]
fn an_empty_batch_fills_nothing_without_reading_the_clock() {
    // The clock reads before the epoch: any reading would fail.
    let generator = scripted(at(-1));
    assert_eq!(generator.try_generate_batch(&mut [UlidFlake::MIN; 0]), Ok(0));
    generator.generate_batch(&mut [UlidFlake::MIN; 0]).unwrap();
    // A batch of one reads it, after taking its draw (which the failure leaves unused).
    generator.random_source().push(&[0]);
    assert_eq!(
        generator.try_generate_batch(&mut [UlidFlake::MIN]),
        Err(Error::TimestampOutOfRange { found_ms: -1 })
    );
    assert_eq!(generator.random_source().left(), 0);
}

#[test]
fn a_batch_in_a_rollback_continues_in_the_last_millisecond() {
    let generator = scripted(at(100));
    generator.random_source().push(&[50]);
    generator.try_generate().unwrap();
    generator.clock().set(at(99));
    generator.random_source().push(&[1, bytes([2, 0, 0, 0])]);
    let mut out = [UlidFlake::MIN; 2];
    assert_eq!(generator.try_generate_batch(&mut out), Ok(2));
    assert_eq!(out.to_vec(), ids(&[(100, 51), (100, 53)]));
}

#[test]
fn the_lease_gate_refuses_a_batch_past_its_deadline() {
    let options = LeaseOptions::new("jobs").ids(8..=8).generator(
        Generator::builder()
            .clock(ManualClock::new(at(1_000_000)))
            .random_source(ThreadRandom),
    );
    let lease = ScalabilityIdLease::acquire(
        // The database's clock agrees with the test's scripted one when the lease is taken.
        StubTable::granting(|| at(1_000_000) * 1000).renewing_nothing(),
        options,
    )
    .unwrap();
    let generator = lease.generator();
    let mut out = [UlidFlake::MIN; 8];
    assert!(generator.try_generate_batch(&mut out).unwrap() >= 1);
    assert_eq!(out[0].scalability_id(), 8);
    // Past the lease's deadline (15 s × 0.999 − 1 s after it was taken).
    generator.clock().set(at(1_020_000));
    let mut refused = [UlidFlake::MIN; 8];
    assert!(matches!(
        generator.try_generate_batch(&mut refused),
        Err(Error::LeaseNotValid {
            scalability_id: 8,
            valid_until_unix_ms: Some(_)
        })
    ));
    assert!(matches!(
        generator.generate_batch(&mut refused),
        Err(Error::LeaseNotValid { .. })
    ));
    assert!(refused.iter().all(|&id| id == UlidFlake::MIN));
}

#[test]
fn no_other_threads_id_falls_within_a_batch() {
    let generator = Generator::new();
    let (batches, singles) = std::thread::scope(|scope| {
        let batches = scope.spawn(|| {
            let mut batches = Vec::new();
            let mut out = [UlidFlake::MIN; 64];
            while batches.len() < 20_000 {
                if let Ok(filled) = generator.try_generate_batch(&mut out) {
                    batches.push(out[..filled].to_vec());
                }
            }
            batches
        });
        let singles = scope.spawn(|| {
            (0..200_000)
                .map(|_| generator.generate().unwrap())
                .collect::<Vec<_>>()
        });
        (batches.join().unwrap(), singles.join().unwrap())
    });
    let batch_ids: Vec<UlidFlake> = batches.iter().flatten().copied().collect();
    assert!(batch_ids.windows(2).all(|pair| pair[0] < pair[1]));
    assert!(singles.windows(2).all(|pair| pair[0] < pair[1]));
    let distinct: HashSet<UlidFlake> = batch_ids.iter().chain(&singles).copied().collect();
    assert_eq!(distinct.len(), batch_ids.len() + singles.len());
    // Each batch is one range of the sequence: no single ID between its first and last.
    for batch in &batches {
        let (first, last) = (batch[0], batch[batch.len() - 1]);
        let inside = singles.partition_point(|&id| id <= first);
        assert!(
            singles.get(inside).is_none_or(|&id| id > last),
            "{:?} within {first:?}..={last:?}",
            singles[inside]
        );
    }
}

/// Exit codes of the forked child.
const LEFT_THE_MILLISECOND: i32 = 0;
const CONTINUED_THE_PARENTS_MILLISECOND: i32 = 1;
const NO_FRESH_BATCH: i32 = 2;

#[test]
fn a_batch_in_a_forked_child_leaves_the_parents_millisecond() {
    let generator = Generator::builder()
        .clock(ManualClock::new(at(0)))
        .random_source(ThreadRandom)
        .build()
        .unwrap();
    generator.try_generate().unwrap();
    // SAFETY: the child only generates IDs (atomics, thread-locals, a getrandom call) and
    // leaves with _exit; it returns to no test harness code.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let mut out = [UlidFlake::MIN; 4];
        let verdict = match generator.try_generate_batch(&mut out) {
            Err(Error::Overflow { timestamp_ms: 0 }) => {
                generator.clock().set(at(1));
                match generator.try_generate_batch(&mut out) {
                    Ok(4) if out.iter().all(|id| id.ms_since_epoch() == 1) => LEFT_THE_MILLISECOND,
                    _ => NO_FRESH_BATCH,
                }
            }
            _ => CONTINUED_THE_PARENTS_MILLISECOND,
        };
        // SAFETY: `_exit` ends the child without running the parent's destructors.
        unsafe { libc::_exit(verdict) };
    }
    let mut status = 0;
    // SAFETY: waiting for our own child, with a valid status pointer.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(libc::WIFEXITED(status), "the child did not exit normally");
    assert_eq!(
        libc::WEXITSTATUS(status),
        LEFT_THE_MILLISECOND,
        "1: the child's batch continued the parent's millisecond; 2: no batch in the next"
    );
}

thread_local! {
    /// What [`InterruptedRandom`] runs at its next bulk draw.
    static INTERRUPTION: RefCell<Option<Box<dyn FnOnce()>>> = RefCell::new(None);
}

/// Scripted randomness whose bulk draw first runs [`INTERRUPTION`], once: another call on
/// the same generator, between a batch's writing its IDs and its compare-and-swap.
#[derive(Default)]
struct InterruptedRandom(ScriptedRandom);

impl RandomSource for InterruptedRandom {
    fn next_u32(&self) -> u32 {
        self.0.next_u32()
    }

    fn fill_bytes(&self, dest: &mut [u8]) {
        if let Some(interruption) = INTERRUPTION.with(|slot| slot.borrow_mut().take()) {
            interruption();
        }
        for chunk in dest.chunks_mut(4) {
            chunk.copy_from_slice(&self.next_u32().to_le_bytes()[..chunk.len()]);
        }
    }
}

/// A batch into a slice of `$min`s that loses a race: its first attempt, from `start`,
/// takes increment 1, then the bulk draw, during which another call issues start + 8; then
/// three increments of 1 (start + 2 ..= start + 4, never issued). Its second attempt, from
/// start + 8: increment 1, then room for one more. Returns what the other call issued and the
/// slice, as `UlidFlake`s by `$to`.
macro_rules! batch_that_loses_a_race {
    ($start:expr, $min:expr, $to:expr) => {{
        let generator = Arc::new(
            Generator::builder()
                .clock(ManualClock::new(at(100)))
                .random_source(InterruptedRandom::default())
                .build()
                .unwrap(),
        );
        generator.random_source().0.push(&[$start]);
        assert_eq!(generator.try_generate(), Ok(ids(&[(100, $start)])[0]));
        let other = Arc::clone(&generator);
        let issued_meanwhile = Arc::new(std::sync::Mutex::new(None));
        let record = Arc::clone(&issued_meanwhile);
        INTERRUPTION.with(|slot| {
            *slot.borrow_mut() = Some(Box::new(move || {
                *record.lock().unwrap() = Some(other.try_generate());
            }));
        });
        generator
            .random_source()
            .0
            .push(&[1, 8, bytes([1, 1, 1, 0]), 1, bytes([1, 1, 1, 0])]);
        let mut out = [$min; 4];
        assert_eq!(generator.try_generate_batch(&mut out), Ok(2));
        assert_eq!(generator.random_source().0.left(), 0);
        let issued_meanwhile = *issued_meanwhile.lock().unwrap();
        (issued_meanwhile, out.iter().map($to).collect::<Vec<UlidFlake>>())
    }};
}

/// A batch that loses a race leaves the type's `MIN` where it had written IDs it then did not
/// issue, in a `UlidFlake` slice as in a key's.
#[test]
fn a_batch_that_loses_a_race_leaves_no_unissued_id_in_the_slice() {
    let start = FIELD_MAX - 10;
    let expected = (
        Some(Ok(ids(&[(100, start + 8)])[0])),
        [
            ids(&[(100, start + 9), (100, start + 10)]),
            vec![UlidFlake::MIN; 2],
        ]
        .concat(),
    );
    assert_eq!(
        batch_that_loses_a_race!(start, UlidFlake::MIN, |id: &UlidFlake| *id),
        expected
    );
    assert_eq!(
        batch_that_loses_a_race!(start, Key::MIN, |key: &Key| key.0),
        expected
    );
}

/// Randomness from a byte stream, however it is asked for: `next_u32` takes the next four
/// bytes (little-endian), `fill_bytes` as many as it fills; past the end, an error for the test.
#[derive(Debug)]
struct ByteStream(std::sync::Mutex<std::collections::VecDeque<u8>>);

impl RandomSource for ByteStream {
    fn next_u32(&self) -> u32 {
        let mut word = [0; 4];
        self.fill_bytes(&mut word);
        u32::from_le_bytes(word)
    }

    fn fill_bytes(&self, dest: &mut [u8]) {
        let mut stream = self.0.lock().unwrap();
        for byte in dest {
            *byte = stream
                .pop_front()
                .expect("the batch drew past the scripted stream");
        }
    }
}

/// The specification's batch, one increment at a time (SPEC §3): a fresh draw, then each
/// next `entropy_bytes` bytes an increment (little-endian), 0 skipped, until `len` IDs or the
/// first increment that does not fit in a field whose largest value is `field_max`.
fn reference_batch(
    fresh: u32,
    stream: &[u8],
    entropy_bytes: usize,
    field_max: u32,
    len: usize,
) -> Vec<u32> {
    let mut randomness = vec![fresh];
    for increment in stream.chunks_exact(entropy_bytes) {
        if randomness.len() == len {
            break;
        }
        let mut word = [0; 4];
        word[..entropy_bytes].copy_from_slice(increment);
        let increment = u32::from_le_bytes(word);
        if increment == 0 {
            continue;
        }
        let next = randomness[randomness.len() - 1] + increment;
        if next > field_max {
            break;
        }
        randomness.push(next);
    }
    randomness
}

/// The randomness of the IDs a batch of `len` issues with `entropy_bytes`-byte increments, in
/// the scalable layout (scalability id 7) or the stand-alone one, when its fresh draw is
/// `fresh` and its bulk draws are `increments`; checks that every ID is in the clock's
/// millisecond (and has the scalability id), that the rest of the slice is as it was, and that
/// a `newtype!` key's slice, converted one ID at a time, takes the same IDs from the same draws.
fn batch_randomness(
    entropy_bytes: usize,
    scalable: bool,
    fresh: u32,
    increments: &[u8],
    len: usize,
) -> Vec<u32> {
    let mut stream: std::collections::VecDeque<u8> = fresh.to_le_bytes().into();
    stream.extend(increments);
    let layout = if scalable {
        Layout::Scalable { scalability_id: 7 }
    } else {
        Layout::StandAlone
    };
    let generator = || {
        Generator::builder()
            .layout(layout)
            .entropy_bytes(entropy_bytes as u8)
            .clock(ManualClock::new(at(100)))
            .random_source(ByteStream(std::sync::Mutex::new(stream.clone())))
            .build()
            .unwrap()
    };
    let mut out = vec![UlidFlake::MAX; len];
    let filled = generator().try_generate_batch(&mut out).unwrap();
    let mut keys = vec![Key::MAX; len];
    assert_eq!(generator().try_generate_batch(&mut keys), Ok(filled));
    assert!(keys.iter().zip(&out).all(|(key, id)| key.0 == *id));
    assert!(out[..filled].iter().all(|id| id.ms_since_epoch() == 100));
    assert!(out[filled..].iter().all(|&id| id == UlidFlake::MAX));
    if scalable {
        assert!(out[..filled].iter().all(|id| id.scalability_id() == 7));
        out[..filled]
            .iter()
            .map(|id| u32::from(id.scalable_randomness()))
            .collect()
    } else {
        out[..filled].iter().map(|id| id.randomness()).collect()
    }
}

/// 2-byte increments take the sixteen-at-a-time path only when the batch's first ID has a
/// randomness below 16, where the room holds sixteen of the largest (so the property test
/// below seldom gets there): a sixteen whose 32 bytes are all nonzero is added in turn, and
/// what follows, a zero byte of a nonzero increment (0x0100) and a zero increment, one at a
/// time.
#[test]
fn two_byte_increments_from_a_low_fresh_draw_take_sixteen_at_a_time() {
    let mut increments: Vec<u8> = (1..=16_u16).flat_map(|k| (k * 0x0101).to_le_bytes()).collect();
    increments.extend([0x00, 0x01, 0x00, 0x00, 0x05, 0x00]);
    let issued = batch_randomness(2, false, 3, &increments, 19);
    // 3, then 3 plus 0x0101, 0x0202, ... in turn: the k-th ID is 3 + 0x0101 * k(k+1)/2.
    let sixteen: Vec<u32> = (0..=16).map(|k| 3 + 0x0101 * k * (k + 1) / 2).collect();
    assert_eq!(issued[..17], sixteen);
    assert_eq!(issued[17..], [sixteen[16] + 0x0100, sixteen[16] + 0x0105]);
    assert_eq!(issued, reference_batch(3, &increments, 2, FIELD_MAX, 19));
}

proptest::proptest! {
    /// However the batch splits its draws (all at once while the room holds the largest
    /// increments, sixteen at a time unless a byte is 0, one by one at the end of the
    /// millisecond), it issues exactly the IDs of the increment-by-increment model, with every
    /// entropy size and in both layouts, and leaves the rest of the slice as it was. The
    /// fresh draw falls low (below 16, where 2-byte increments may take the bulk path),
    /// anywhere, or near the field's end (where each increment is checked).
    #[test]
    fn a_batch_issues_the_ids_of_the_increment_by_increment_model(
        entropy_choice in 0_usize..3,
        scalable in proptest::bool::ANY,
        fresh_place in 0_u8..3,
        fresh_offset in 0..=FIELD_MAX,
        zeros in proptest::collection::vec(proptest::bool::weighted(0.1), 9_000),
        values in proptest::collection::vec(1_u8..=255, 9_000),
        len in 1_usize..=3_000,
    ) {
        // 1 to 3 bytes; the scalable layout's 15-bit field takes 1 or 2.
        let entropy_bytes = if scalable { 1 + entropy_choice % 2 } else { 1 + entropy_choice };
        let field_max = if scalable { u32::from(SCALABLE_FIELD_MAX) } else { FIELD_MAX };
        let fresh = match fresh_place {
            0 => fresh_offset % 16,
            1 => fresh_offset & field_max,
            _ => field_max - fresh_offset % 2_001,
        };
        let increments: Vec<u8> = zeros
            .iter()
            .zip(&values)
            .map(|(&zero, &value)| if zero { 0 } else { value })
            .collect();
        let issued = batch_randomness(entropy_bytes, scalable, fresh, &increments, len);
        let expected = reference_batch(fresh, &increments, entropy_bytes, field_max, len);
        proptest::prop_assert_eq!(issued, expected);
    }
}

/// Every byte the same: increments of that byte.
struct EveryByte(u8);

impl RandomSource for EveryByte {
    fn next_u32(&self) -> u32 {
        u32::from_le_bytes([self.0; 4])
    }
}

/// A source whose bulk draw gives increments of 1, then, the draw written, makes a batch of
/// its own with another generator on the same thread, whose increments are 2: were the two
/// batches to share a buffer, the outer one would take increments of 2.
struct BatchingInItsDraw {
    inner: Generator<ManualClock, EveryByte>,
    made: RefCell<Vec<UlidFlake>>,
}

impl RandomSource for BatchingInItsDraw {
    fn next_u32(&self) -> u32 {
        0x0101_0101
    }

    fn fill_bytes(&self, dest: &mut [u8]) {
        dest.fill(1);
        let mut inner = [UlidFlake::MIN; 600];
        assert_eq!(self.inner.try_generate_batch(&mut inner), Ok(600));
        self.made.borrow_mut().extend_from_slice(&inner);
    }
}

/// The first ID's randomness, then `step` more each ID, in one millisecond.
fn assert_steps(ids: &[UlidFlake], first: u32, step: u32) {
    for (k, id) in ids.iter().enumerate() {
        assert_eq!(id.ms_since_epoch(), ids[0].ms_since_epoch());
        assert_eq!(id.randomness(), first + step * k as u32);
    }
}

#[test]
fn a_batch_made_inside_a_random_source_s_bulk_draw_issues_its_own_ids() {
    let generator = Generator::builder()
        .clock(ManualClock::new(at(100)))
        .random_source(BatchingInItsDraw {
            inner: Generator::builder()
                .clock(ManualClock::new(at(100)))
                .random_source(EveryByte(2))
                .build()
                .unwrap(),
            made: RefCell::default(),
        })
        .build()
        .unwrap();
    let mut outer = [UlidFlake::MIN; 700];
    assert_eq!(generator.try_generate_batch(&mut outer), Ok(700));
    assert_steps(&outer, 0x0101_0101 & FIELD_MAX, 1);
    let made = generator.random_source().made.borrow();
    assert_eq!(made.len(), 600);
    assert_steps(&made, 0x0202_0202 & FIELD_MAX, 2);
}

struct User;

impl ulid_flake_core::Prefix for User {
    const PREFIX: &'static str = "user";
}

ulid_flake_core::newtype! {
    /// A key of the tests.
    struct Key;
}

/// A fresh draw of 10, then 1-byte increments 1, 2, 3, 4 over and over.
fn script_of_increments() -> Generator<ManualClock, ScriptedRandom> {
    let generator = scripted(at(100));
    let mut words = vec![10];
    words.extend(std::iter::repeat_n(bytes([1, 2, 3, 4]), 100));
    generator.random_source().push(&words);
    generator
}

/// A batch of 300 into a slice of 301 `$min`s, on [`script_of_increments`]: the IDs (as
/// `UlidFlake`s, by `$to`), and whether the entry past them is still `$min`.
macro_rules! batch_of_300 {
    ($min:expr, $to:expr) => {{
        let generator = script_of_increments();
        let mut out = [$min; 301];
        assert_eq!(generator.try_generate_batch(&mut out[..300]), Ok(300));
        let ids: Vec<UlidFlake> = out[..300].iter().map($to).collect();
        (ids, out[300] == $min)
    }};
}

/// Every ID type's slice takes a batch, and the same IDs as a `UlidFlake` slice from the same
/// script: in place for the crate's own types, through a buffer for a `newtype!` key.
#[test]
fn every_id_type_s_slice_takes_the_same_batch() {
    let (reference, _) = batch_of_300!(UlidFlake::MIN, |id: &UlidFlake| *id);
    assert_eq!(reference[0], UlidFlake::from_parts(100, 10).unwrap());
    assert_eq!(reference[299], UlidFlake::from_parts(100, 756).unwrap());
    let expected = (reference, true);
    assert_eq!(
        batch_of_300!(Id::<User>::MIN, |id: &Id<User>| id.to_ulid_flake()),
        expected
    );
    assert_eq!(
        batch_of_300!(PrefixedId::<User>::MIN, |id: &PrefixedId<User>| id
            .to_ulid_flake()),
        expected
    );
    assert_eq!(batch_of_300!(Key::MIN, |key: &Key| key.0), expected);
}

/// The waiting batch fills a key's slice across a millisecond as a `UlidFlake` slice, on a
/// scripted clock: the same IDs, the same wait, in both layouts.
#[test]
fn a_waiting_batch_into_a_key_s_slice_crosses_a_millisecond_as_ulid_flake_s() {
    let stand_alone = [FIELD_MAX - 1, bytes([1, 5, 5, 0]), 7, bytes([3, 0, 0, 0])];
    let scalable = [
        u32::from(SCALABLE_FIELD_MAX) - 3,
        0x0002_0001,
        0x0000_0005,
        9,
        0x0003_0000,
        0x0000_0004,
    ];
    for (layout, entropy_bytes, script) in [
        (Layout::StandAlone, 1, &stand_alone[..]),
        (Layout::Scalable { scalability_id: 7 }, 2, &scalable[..]),
    ] {
        let generator = || {
            let generator = Generator::builder()
                .layout(layout)
                .entropy_bytes(entropy_bytes)
                .clock(ManualClock::new(at(100)))
                .random_source(ScriptedRandom::default())
                .build()
                .unwrap();
            generator.random_source().push(script);
            generator
        };
        let (ids, keys) = (generator(), generator());
        let mut out = [UlidFlake::MIN; 5];
        ids.generate_batch(&mut out[..4]).unwrap();
        let mut key_out = [Key::MIN; 5];
        keys.generate_batch(&mut key_out[..4]).unwrap();
        assert_eq!(key_out.map(|key| key.0), out, "{layout:?}");
        assert_eq!(out[3].ms_since_epoch(), 101, "{layout:?}");
        assert_eq!((ids.clock().waits(), keys.clock().waits()), (vec![at(101)], vec![at(101)]));
    }
}

/// The async batch fills a key's slice across a millisecond.
#[cfg(feature = "tokio")]
#[tokio::test]
async fn an_async_batch_into_a_key_s_slice_crosses_a_millisecond() {
    let generator = scripted(at(100));
    generator
        .random_source()
        .push(&[FIELD_MAX, bytes([1, 0, 0, 0]), 7, bytes([3, 0, 0, 0])]);
    let mut out = [Key::MIN; 3];
    generator.generate_batch_async(&mut out).await.unwrap();
    assert_eq!(
        out.map(|key| key.0).to_vec(),
        ids(&[(100, FIELD_MAX), (101, 7), (101, 10)])
    );
    assert_eq!(generator.clock().waits(), [at(101)]);
}

/// An ID type written by hand (the trait is hidden, not sealed) whose `as_ulid_flakes` gives a
/// slice other than its own: shorter, or longer and elsewhere.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Liar(UlidFlake);

/// What [`Liar::as_ulid_flakes`] gives: 3 entries (`true`), or 5,000 elsewhere.
static LIAR_SHORT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

impl ulid_flake_core::__private::IdType for Liar {
    const PREFIX: Option<&'static str> = None;
    const NAME: &'static str = "Liar";

    fn from_ulid_flake(value: UlidFlake) -> Self {
        Self(value)
    }

    fn to_ulid_flake(self) -> UlidFlake {
        self.0
    }

    fn as_ulid_flake(&self) -> &UlidFlake {
        &self.0
    }

    fn as_ulid_flakes(_: &mut [Self]) -> Option<&mut [UlidFlake]> {
        Some(if LIAR_SHORT.load(std::sync::atomic::Ordering::SeqCst) {
            Box::leak(Box::new([UlidFlake::MIN; 3]))
        } else {
            Box::leak(vec![UlidFlake::MIN; 5_000].into_boxed_slice())
        })
    }
}

/// A batch writes in place only into its slice itself: given another, it converts each ID, so
/// a slice a hand-written `IdType` makes up neither panics the batch (shorter) nor leaves the
/// entries it counts unwritten (elsewhere).
#[test]
fn a_batch_writes_in_place_only_into_its_own_slice() {
    let (reference, _) = batch_of_300!(UlidFlake::MIN, |id: &UlidFlake| *id);
    for short in [true, false] {
        LIAR_SHORT.store(short, std::sync::atomic::Ordering::SeqCst);
        let generator = script_of_increments();
        let mut out = [Liar(UlidFlake::MAX); 300];
        assert_eq!(generator.try_generate_batch(&mut out), Ok(300), "{short}");
        assert_eq!(out.map(|liar| liar.0).to_vec(), reference, "{short}");
    }
}
