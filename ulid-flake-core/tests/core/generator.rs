//! The generator, SPEC §3, driven by scripted clocks and randomness.

use std::time::Duration;

use ulid_flake_core::generator::{Generator, GeneratorBuilder, Layout};
use ulid_flake_core::{Epoch, Error, MAX_TIMESTAMP, UlidFlake, UnixMs};

use crate::support::{ManualClock, ScriptedRandom, UNUSED_DRAW, at};

const FIELD_MAX: u32 = (1 << 20) - 1;
const SCALABLE_FIELD_MAX: u32 = (1 << 15) - 1;

fn scripted(
    configure: impl FnOnce(GeneratorBuilder) -> GeneratorBuilder,
    unix_ms: i64,
) -> Generator<ManualClock, ScriptedRandom> {
    configure(Generator::builder())
        .clock(ManualClock::new(unix_ms))
        .random_source(ScriptedRandom::default())
        .build()
        .unwrap()
}

/// Generates with the next draws scripted, and checks that all were used.
fn next(
    generator: &Generator<ManualClock, ScriptedRandom>,
    draws: &[u32],
) -> Result<UlidFlake, Error> {
    generator_random(generator).push(draws);
    let result = generator.try_generate();
    assert_eq!(generator_random(generator).left(), 0, "draws left over");
    result
}

fn generator_random(generator: &Generator<ManualClock, ScriptedRandom>) -> &ScriptedRandom {
    generator.random_source()
}

fn clock(generator: &Generator<ManualClock, ScriptedRandom>) -> &ManualClock {
    generator.clock()
}

#[test]
fn a_new_millisecond_draws_fresh_randomness_over_the_whole_field() {
    let generator = scripted(|builder| builder, at(100));
    // The draw is masked to the 20-bit field.
    let first = next(&generator, &[0xABCD_E123]).unwrap();
    assert_eq!(first, UlidFlake::from_parts(100, 0xD_E123).unwrap());

    clock(&generator).set(at(101));
    let second = next(&generator, &[0x0000_0007]).unwrap();
    // Fresh, not an increment of the last: the randomness may go down.
    assert_eq!(second, UlidFlake::from_parts(101, 7).unwrap());
}

/// A generator with default settings that has made the ID with randomness 5 in
/// millisecond 100.
fn after_a_first_draw_of_5() -> Generator<ManualClock, ScriptedRandom> {
    let generator = scripted(|builder| builder, at(100));
    next(&generator, &[5]).unwrap();
    generator
}

#[test]
fn the_same_millisecond_adds_an_increment_masked_to_the_entropy_size() {
    let generator = after_a_first_draw_of_5();
    // 1-byte entropy: increments are draws masked to 0xFF.
    let id = next(&generator, &[0x1FF]).unwrap();
    assert_eq!(id, UlidFlake::from_parts(100, 5 + 0xFF).unwrap());
    let id = next(&generator, &[0xFFFF_FF01]).unwrap();
    assert_eq!(id, UlidFlake::from_parts(100, 5 + 0xFF + 1).unwrap());
}

#[test]
fn an_increment_of_zero_is_redrawn() {
    let generator = after_a_first_draw_of_5();
    // 0x100 masks to 0 and is redrawn.
    let id = next(&generator, &[0x100, 0x1FF]).unwrap();
    assert_eq!(id, UlidFlake::from_parts(100, 5 + 0xFF).unwrap());
}

#[test]
fn the_entropy_size_sets_the_increment_range() {
    for (entropy_bytes, mask) in [(1, 0xFF), (2, 0xFFFF), (3, 0xFF_FFFF)] {
        let generator = scripted(|builder| builder.entropy_bytes(entropy_bytes), at(7));
        next(&generator, &[0]).unwrap();
        // A multiple of 2^(8n) masks to 0 and is redrawn; the top draw gives the largest
        // increment, 2^(8n) - 1 — past the 20-bit field for n = 3.
        let expected = if mask <= FIELD_MAX {
            Ok(UlidFlake::from_parts(7, mask).unwrap())
        } else {
            Err(Error::Overflow { timestamp_ms: 7 })
        };
        assert_eq!(
            next(&generator, &[mask + 1, u32::MAX]),
            expected,
            "n = {entropy_bytes}"
        );
        // The smallest increment is 1.
        let smallest = next(&generator, &[mask + 2]).unwrap();
        assert_eq!(
            smallest.randomness(),
            expected.map_or(1, |id| id.randomness() + 1)
        );
    }
}

/// A generator with default settings whose last ID, in millisecond 100, is 10 below the
/// largest randomness.
fn ten_below_the_field_max() -> Generator<ManualClock, ScriptedRandom> {
    let generator = scripted(|builder| builder, at(100));
    next(&generator, &[FIELD_MAX - 10]).unwrap();
    generator
}

#[test]
fn overflow_fails_just_past_the_field() {
    let generator = ten_below_the_field_max();
    assert_eq!(
        next(&generator, &[11]),
        Err(Error::Overflow { timestamp_ms: 100 })
    );
}

#[test]
fn the_field_maximum_itself_is_allowed() {
    let generator = ten_below_the_field_max();
    assert_eq!(
        next(&generator, &[10]),
        Ok(UlidFlake::from_parts(100, FIELD_MAX).unwrap())
    );
    assert_eq!(
        next(&generator, &[1]),
        Err(Error::Overflow { timestamp_ms: 100 })
    );
}

#[test]
fn an_overflow_keeps_the_state() {
    let generator = ten_below_the_field_max();
    assert_eq!(
        next(&generator, &[11]),
        Err(Error::Overflow { timestamp_ms: 100 })
    );
    // The state did not move: a smaller draw reaches the maximum exactly.
    assert_eq!(
        next(&generator, &[10]),
        Ok(UlidFlake::from_parts(100, FIELD_MAX).unwrap())
    );
}

#[test]
fn after_an_overflow_the_next_millisecond_starts_afresh() {
    let generator = ten_below_the_field_max();
    assert_eq!(
        next(&generator, &[11]),
        Err(Error::Overflow { timestamp_ms: 100 })
    );
    clock(&generator).set(at(101));
    assert_eq!(
        next(&generator, &[FIELD_MAX]),
        Ok(UlidFlake::from_parts(101, FIELD_MAX).unwrap())
    );
}

/// A generator of the scalable layout, scalability id 7, with 2-byte increments, in
/// millisecond 100.
fn scalable_7() -> Generator<ManualClock, ScriptedRandom> {
    scripted(
        |builder| {
            builder
                .layout(Layout::Scalable { scalability_id: 7 })
                .entropy_bytes(2)
        },
        at(100),
    )
}

#[test]
fn the_scalable_layout_has_15_random_bits() {
    let generator = scalable_7();
    let id = next(&generator, &[u32::MAX - 3]).unwrap();
    assert_eq!(id.ms_since_epoch(), 100);
    assert_eq!(u32::from(id.scalable_randomness()), SCALABLE_FIELD_MAX - 3);
    assert_eq!(
        id,
        UlidFlake::from_scalable_parts(100, (SCALABLE_FIELD_MAX - 3) as u16, 7).unwrap()
    );
}

#[test]
fn the_scalable_layout_carries_the_scalability_id() {
    let generator = scalable_7();
    let id = next(&generator, &[u32::MAX - 3]).unwrap();
    assert_eq!(id.scalability_id(), 7);
}

#[test]
fn the_scalable_layout_overflows_just_past_15_bits() {
    let generator = scalable_7();
    next(&generator, &[u32::MAX - 3]).unwrap();
    assert_eq!(
        next(&generator, &[3]),
        Ok(UlidFlake::from_scalable_parts(100, SCALABLE_FIELD_MAX as u16, 7).unwrap())
    );
    assert_eq!(
        next(&generator, &[1]),
        Err(Error::Overflow { timestamp_ms: 100 })
    );
}

#[test]
fn a_rollback_within_the_allowance_continues_in_the_last_millisecond() {
    let generator = scripted(
        |builder| builder.rollback_allowance(Duration::from_millis(10)),
        at(100),
    );
    next(&generator, &[50]).unwrap();
    clock(&generator).set(at(95));
    assert_eq!(
        next(&generator, &[1]),
        Ok(UlidFlake::from_parts(100, 51).unwrap())
    );
    // Exactly the allowance is still within it.
    clock(&generator).set(at(90));
    assert_eq!(
        next(&generator, &[2]),
        Ok(UlidFlake::from_parts(100, 53).unwrap())
    );
    // One millisecond more fails, says by how much, and keeps the state.
    clock(&generator).set(at(89));
    assert_eq!(
        next(&generator, &[UNUSED_DRAW]),
        Err(Error::ClockMovedBackwards {
            by_ms: 11,
            allowance_ms: 10
        })
    );
    clock(&generator).set(at(100));
    assert_eq!(
        next(&generator, &[3]),
        Ok(UlidFlake::from_parts(100, 56).unwrap())
    );
}

#[test]
fn a_zero_allowance_fails_on_any_rollback() {
    let generator = scripted(
        |builder| builder.rollback_allowance(Duration::ZERO),
        at(100),
    );
    next(&generator, &[0]).unwrap();
    clock(&generator).set(at(99));
    assert_eq!(
        next(&generator, &[UNUSED_DRAW]),
        Err(Error::ClockMovedBackwards {
            by_ms: 1,
            allowance_ms: 0
        })
    );
}

#[test]
fn the_default_allowance_is_one_second() {
    let generator = scripted(|builder| builder, at(5_000));
    assert_eq!(generator.rollback_allowance_ms(), 1_000);
    next(&generator, &[0]).unwrap();
    clock(&generator).set(at(4_000));
    assert_eq!(next(&generator, &[9]).unwrap().ms_since_epoch(), 5_000);
    clock(&generator).set(at(3_999));
    assert_eq!(
        next(&generator, &[UNUSED_DRAW]),
        Err(Error::ClockMovedBackwards {
            by_ms: 1_001,
            allowance_ms: 1_000
        })
    );
}

#[test]
fn the_epoch_bounds_the_clock() {
    let generator = scripted(|builder| builder, at(-1));
    assert_eq!(
        next(&generator, &[UNUSED_DRAW]),
        Err(Error::TimestampOutOfRange { found_ms: -1 })
    );
    clock(&generator).set(at(0));
    assert_eq!(next(&generator, &[0]), Ok(UlidFlake::MIN));
    clock(&generator).set(at(MAX_TIMESTAMP as i64));
    assert_eq!(next(&generator, &[FIELD_MAX]), Ok(UlidFlake::MAX));
    clock(&generator).set(at(MAX_TIMESTAMP as i64 + 1));
    assert_eq!(
        next(&generator, &[UNUSED_DRAW]),
        Err(Error::TimestampOutOfRange { found_ms: 1 << 43 })
    );
}

/// The clock's extremes, under the latest epoch: the difference is taken modulo 2^64, and
/// neither end wraps into the range.
#[test]
fn the_clock_s_extremes_are_out_of_range_under_the_latest_epoch() {
    let generator = scripted(|builder| builder.epoch(Epoch::MAX), i64::MIN);
    let epoch = i128::from(Epoch::MAX.unix_ms());
    assert_eq!(
        next(&generator, &[UNUSED_DRAW]),
        Err(Error::TimestampOutOfRange {
            found_ms: i128::from(i64::MIN) - epoch
        })
    );
    clock(&generator).set(i64::MAX);
    assert_eq!(
        next(&generator, &[UNUSED_DRAW]),
        Err(Error::TimestampOutOfRange {
            found_ms: i128::from(i64::MAX) - epoch
        })
    );
}

#[test]
fn a_custom_epoch_shifts_every_timestamp() {
    let epoch = Epoch::from_unix_ms(1_735_689_600_000).unwrap();
    let generator = scripted(|builder| builder.epoch(epoch), 1_735_689_600_123);
    assert_eq!(next(&generator, &[0]).unwrap().ms_since_epoch(), 123);
    assert_eq!(generator.epoch(), epoch);
}

#[test]
fn blocking_generation_waits_for_the_next_millisecond() {
    let generator = scripted(|builder| builder, at(100));
    next(&generator, &[FIELD_MAX]).unwrap();
    generator_random(&generator).push(&[1, 42]);
    let id = generator.generate().unwrap();
    assert_eq!(id, UlidFlake::from_parts(101, 42).unwrap());
    assert_eq!(clock(&generator).waits(), [at(101)]);
}

#[test]
fn blocking_generation_still_fails_on_a_broken_clock() {
    let generator = scripted(
        |builder| builder.rollback_allowance(Duration::ZERO),
        at(100),
    );
    next(&generator, &[0]).unwrap();
    clock(&generator).set(at(50));
    generator_random(&generator).push(&[UNUSED_DRAW]);
    assert_eq!(
        generator.generate(),
        Err(Error::ClockMovedBackwards {
            by_ms: 50,
            allowance_ms: 0
        })
    );
    assert!(clock(&generator).waits().is_empty());
}

#[tokio::test]
async fn async_generation_waits_for_the_next_millisecond() {
    let generator = scripted(|builder| builder, at(100));
    next(&generator, &[FIELD_MAX]).unwrap();
    generator_random(&generator).push(&[1, 42]);
    let id = generator.generate_async().await.unwrap();
    assert_eq!(id, UlidFlake::from_parts(101, 42).unwrap());
    assert_eq!(clock(&generator).waits(), [at(101)]);
}

#[tokio::test]
async fn async_generation_on_the_system_clock_crosses_overflows() {
    // Spawned: the future must be Send.
    let ids = tokio::spawn(async {
        let generator = Generator::new();
        let mut ids = Vec::new();
        for _ in 0..20_000 {
            ids.push(generator.generate_async().await.unwrap());
        }
        ids
    })
    .await
    .unwrap();
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
}

#[test]
fn configuration_is_validated_when_built() {
    let cases = [
        (
            Layout::StandAlone,
            0,
            Error::InvalidEntropySize { found: 0, max: 3 },
        ),
        (
            Layout::StandAlone,
            4,
            Error::InvalidEntropySize { found: 4, max: 3 },
        ),
        (
            Layout::Scalable { scalability_id: 0 },
            3,
            Error::InvalidEntropySize { found: 3, max: 2 },
        ),
        (
            Layout::Scalable { scalability_id: 32 },
            1,
            Error::InvalidScalabilityId { found: 32 },
        ),
    ];
    for (layout, entropy_bytes, expected) in cases {
        let result = Generator::builder()
            .layout(layout)
            .entropy_bytes(entropy_bytes)
            .build();
        assert_eq!(result.unwrap_err(), expected, "{layout:?}, {entropy_bytes}");
    }
    for (layout, entropy_bytes) in [
        (Layout::StandAlone, 3),
        (Layout::Scalable { scalability_id: 31 }, 2),
    ] {
        let generator = Generator::builder()
            .layout(layout)
            .entropy_bytes(entropy_bytes)
            .build()
            .unwrap();
        assert_eq!(
            (generator.layout(), generator.entropy_bytes()),
            (layout, entropy_bytes)
        );
    }
}

/// A generator of the scalable layout, scalability id 9, at the epoch.
fn scalable_9() -> Generator<ManualClock, ScriptedRandom> {
    scripted(
        |builder| builder.layout(Layout::Scalable { scalability_id: 9 }),
        at(0),
    )
}

#[test]
fn from_unix_epoch_time_counts_from_the_epoch_with_fresh_randomness() {
    let generator = scalable_9();
    generator_random(&generator).push(&[u32::MAX]);
    let id = generator.from_unix_epoch_time(1_704_067_201).unwrap();
    assert_eq!(
        id,
        UlidFlake::from_scalable_parts(1_000, SCALABLE_FIELD_MAX as u16, 9).unwrap()
    );
}

#[test]
fn from_unix_epoch_time_leaves_the_state_untouched() {
    let generator = scalable_9();
    generator_random(&generator).push(&[u32::MAX]);
    generator.from_unix_epoch_time(1_704_067_201).unwrap();
    // The next ID is a fresh draw at the clock's time.
    assert_eq!(
        next(&generator, &[0]),
        Ok(UlidFlake::from_scalable_parts(0, 0, 9).unwrap())
    );
}

#[test]
fn from_unix_epoch_time_rejects_moments_outside_the_epoch_s_range() {
    let generator = scalable_9();
    assert_eq!(
        generator.from_unix_epoch_time(1_704_067_199),
        Err(Error::TimestampOutOfRange { found_ms: -1_000 })
    );
    assert_eq!(
        generator.from_unix_epoch_time(u64::MAX),
        Err(Error::TimestampOutOfRange {
            found_ms: i128::from(u64::MAX) * 1000 - 1_704_067_200_000
        })
    );
    // The last whole second of the default epoch, and one past the range.
    let last_second = (Epoch::DEFAULT.unix_ms() + MAX_TIMESTAMP) / 1000;
    generator_random(&generator).push(&[0]);
    assert!(generator.from_unix_epoch_time(last_second).is_ok());
    assert!(generator.from_unix_epoch_time(last_second + 1).is_err());
}

#[test]
fn id_at_counts_from_the_epoch_with_fresh_randomness() {
    let generator = scalable_9();
    generator_random(&generator).push(&[5, 6]);
    // A moment inside millisecond 77, in two of its types.
    let moment = std::time::UNIX_EPOCH + Duration::from_micros(at(77) as u64 * 1000 + 999);
    assert_eq!(
        generator.id_at(moment),
        Ok(UlidFlake::from_scalable_parts(77, 5, 9).unwrap())
    );
    assert_eq!(
        generator.id_at(UnixMs(at(77))),
        Ok(UlidFlake::from_scalable_parts(77, 6, 9).unwrap())
    );
}

#[test]
fn id_at_rejects_moments_before_the_epoch() {
    let generator = scalable_9();
    assert_eq!(
        generator.id_at(std::time::UNIX_EPOCH - Duration::from_millis(1)),
        Err(Error::TimestampOutOfRange {
            found_ms: -1 - 1_704_067_200_000
        })
    );
    assert_eq!(
        generator.id_at(UnixMs(at(-1))),
        Err(Error::TimestampOutOfRange { found_ms: -1 })
    );
}

/// A clock that, while being read, lets "another thread" make an ID with the same
/// generator — the interleaving in which a thread's reading is older than the ID it then
/// loads. Re-entrant generation stands in for the other thread, deterministically.
struct RacingClock {
    readings: std::sync::Mutex<std::collections::VecDeque<i64>>,
    generator: std::sync::OnceLock<std::sync::Weak<Generator<RacingClock, ScriptedRandom>>>,
    race_during_next_reading: std::sync::atomic::AtomicBool,
}

impl ulid_flake_core::generator::Clock for RacingClock {
    fn unix_ms(&self) -> i64 {
        let reading = self
            .readings
            .lock()
            .unwrap()
            .pop_front()
            .expect("a scripted reading");
        if self
            .race_during_next_reading
            .swap(false, std::sync::atomic::Ordering::SeqCst)
        {
            let generator = self
                .generator
                .get()
                .and_then(std::sync::Weak::upgrade)
                .unwrap();
            generator.try_generate().expect("the other thread's ID");
        }
        reading
    }
}

#[test]
fn a_race_between_threads_is_no_rollback_even_with_a_zero_allowance() {
    let clock = RacingClock {
        // Our first ID; our reading (during which the other thread makes its ID at 101);
        // the other thread's reading; our second reading.
        readings: std::sync::Mutex::new([at(100), at(100), at(101), at(101)].into()),
        generator: std::sync::OnceLock::new(),
        race_during_next_reading: std::sync::atomic::AtomicBool::new(false),
    };
    let generator = std::sync::Arc::new(
        Generator::builder()
            .rollback_allowance(Duration::ZERO)
            .clock(clock)
            .random_source(ScriptedRandom::default())
            .build()
            .unwrap(),
    );
    generator
        .clock()
        .generator
        .set(std::sync::Arc::downgrade(&generator))
        .unwrap();
    generator.random_source().push(&[5, 7, 1]);
    assert_eq!(
        generator.try_generate(),
        Ok(UlidFlake::from_parts(100, 5).unwrap())
    );

    generator
        .clock()
        .race_during_next_reading
        .store(true, std::sync::atomic::Ordering::SeqCst);
    // Our call takes 7 first; the other thread takes 1 and stores 101/1 after our reading of
    // 100: we read the clock again (101) and continue its millisecond with our 7, instead of
    // failing with a 1 ms "rollback".
    assert_eq!(
        generator.try_generate(),
        Ok(UlidFlake::from_parts(101, 8).unwrap())
    );
    assert_eq!(generator.random_source().left(), 0);
}

/// Runs `generator.try_generate()` with `draws` on a thread of its own: its IDs are another
/// thread's to the calls of the test's thread.
fn next_on_another_thread(
    generator: &Generator<ManualClock, ScriptedRandom>,
    draws: &[u32],
) -> Result<UlidFlake, Error> {
    std::thread::scope(|scope| scope.spawn(|| next(generator, draws)).join().unwrap())
}

/// A thread's call starts from the ID it stored last, not from a load of the state word
/// (`Generator::last_stored`). After another thread's ID that start is stale: its swap fails
/// and the call goes on from the other thread's ID, so the IDs still strictly increase, and
/// the thread starts from its own new ID the next time.
#[test]
fn a_call_goes_on_from_another_thread_s_id_not_from_its_own_last() {
    let generator = scripted(|builder| builder, at(100));
    let own = next(&generator, &[5]).unwrap();
    assert_eq!(own, UlidFlake::from_parts(100, 5).unwrap());
    let other = next_on_another_thread(&generator, &[0x10]).unwrap();
    assert_eq!(other, UlidFlake::from_parts(100, 5 + 0x10).unwrap());
    // From the thread's own last ID, 5 + 0x20; from the other thread's, 5 + 0x10 + 0x20.
    let after = next(&generator, &[0x20]).unwrap();
    assert_eq!(after, UlidFlake::from_parts(100, 5 + 0x10 + 0x20).unwrap());
    let again = next(&generator, &[0x30]).unwrap();
    assert_eq!(again, UlidFlake::from_parts(100, 5 + 0x10 + 0x20 + 0x30).unwrap());
}

/// A call whose start, the thread's last ID, would overflow its millisecond, while another
/// thread has gone on into the next one: no `Overflow` from the stale start. What is not the
/// common case is decided from the state word itself: the call continues in the other
/// thread's millisecond, a rollback of 1 ms within the allowance.
#[test]
fn a_stale_start_that_would_overflow_is_no_overflow_when_another_thread_went_on() {
    let generator = scripted(
        |builder| builder.rollback_allowance(Duration::from_millis(5)),
        at(100),
    );
    let own = next(&generator, &[FIELD_MAX - 0x10]).unwrap();
    assert_eq!(own, UlidFlake::from_parts(100, FIELD_MAX - 0x10).unwrap());
    clock(&generator).set(at(101));
    let other = next_on_another_thread(&generator, &[0x105]).unwrap();
    assert_eq!(other, UlidFlake::from_parts(101, 0x105).unwrap());
    // This thread's reading lags the other's by a millisecond.
    clock(&generator).set(at(100));
    let after = next(&generator, &[0x20]).unwrap();
    assert_eq!(after, UlidFlake::from_parts(101, 0x105 + 0x20).unwrap());
}

/// SPEC §3 with the built-in randomness, counted over real draws: a millisecond starts from a
/// fresh draw over the whole field, then goes on by increments uniform over `1..=255` (the
/// default 1-byte entropy, mean 128) until the field is used up. A millisecond therefore holds
/// 1 + 2^19 / 128 = 4,097 IDs on average, 1 + 2^14 / 128 = 129 in the scalable layout.
#[test]
fn the_built_in_draws_are_uniform_and_a_millisecond_holds_about_4097_ids() {
    let layouts = [
        (Layout::StandAlone, 200, 4_097.0, 800.0),
        (Layout::Scalable { scalability_id: 3 }, 2_000, 129.0, 10.0),
    ];
    for (layout, milliseconds, expected_ids, tolerance) in layouts {
        let generator = Generator::builder()
            .layout(layout)
            .clock(ManualClock::new(at(100)))
            .random_source(ulid_flake_core::generator::ThreadRandom)
            .build()
            .unwrap();
        let randomness = |id: UlidFlake| match layout {
            Layout::StandAlone => id.randomness(),
            Layout::Scalable { .. } => u32::from(id.scalable_randomness()),
        };
        let field = match layout {
            Layout::StandAlone => 1 << 20,
            Layout::Scalable { .. } => 1 << 15,
        };
        let mut increments = [0_u64; 256];
        let (mut ids, mut firsts_in_the_upper_half) = (0_u64, 0_u64);
        for ms in 0..milliseconds {
            generator.clock().set(at(100 + ms));
            let mut last = generator.try_generate().unwrap();
            ids += 1;
            firsts_in_the_upper_half += u64::from(randomness(last) >= field / 2);
            loop {
                match generator.try_generate() {
                    Ok(id) => {
                        let increment = randomness(id) - randomness(last);
                        increments[usize::try_from(increment).unwrap()] += 1;
                        (last, ids) = (id, ids + 1);
                    }
                    Err(error) => {
                        assert_eq!(error, Error::Overflow { timestamp_ms: 100 + ms as u64 });
                        break;
                    }
                }
            }
        }
        let mean_ids = ids as f64 / milliseconds as f64;
        assert!(
            (mean_ids - expected_ids).abs() < tolerance,
            "{layout:?}: expected {expected_ids} IDs a millisecond, found {mean_ids}"
        );
        // The first draws fall in both halves of the field, about evenly.
        let upper_share = firsts_in_the_upper_half as f64 / milliseconds as f64;
        assert!((0.3..0.7).contains(&upper_share), "{layout:?}: {upper_share}");
        if layout == Layout::StandAlone {
            // About 800,000 increments: none 0, and each of 1..=255 within 12 % of its share
            // (about 3,200, a Poisson spread of 57: 6.8 of them).
            assert_eq!(increments[0], 0);
            let count: u64 = increments.iter().sum();
            for (value, &times) in increments.iter().enumerate().skip(1) {
                let share = times as f64 * 255.0 / count as f64;
                assert!((share - 1.0).abs() < 0.12, "{value}: {times} of {count}");
            }
            let sum: u64 = (0..256).map(|value| value * increments[value as usize]).sum();
            let mean = sum as f64 / count as f64;
            assert!((mean - 128.0).abs() < 0.5, "mean increment {mean}");
        }
    }
}
