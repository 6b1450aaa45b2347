//! Broken clocks, scripted: exact timestamps and errors, and never a duplicate or a step back.

use std::collections::HashSet;

use ulid_flake_core::generator::Generator;
use ulid_flake_core::{Error, UlidFlake};

use crate::support::{ManualClock, ScriptedRandom, at};

/// The default rollback allowance, in ms.
const ALLOWANCE: i64 = 1_000;
/// An arbitrary moment, far enough from the epoch for every walk back below.
const T: i64 = 100_000;

/// Generates once per clock reading (Unix ms after the default epoch) and returns the
/// outcomes; every draw is 1 (a fresh randomness of 1, or an increment of 1).
fn run(readings: &[i64]) -> Vec<Result<UlidFlake, Error>> {
    let generator = Generator::builder()
        .clock(ManualClock::new(at(readings[0])))
        .random_source(ScriptedRandom::default())
        .build()
        .unwrap();
    readings
        .iter()
        .map(|&reading| {
            generator.clock().set(at(reading));
            generator.random_source().push(&[1]);
            let result = generator.try_generate();
            // Every call takes its draw first, a failing one too.
            assert_eq!(generator.random_source().left(), 0);
            result
        })
        .collect()
}

/// The successful IDs are strictly increasing and distinct.
fn assert_ordered(results: &[Result<UlidFlake, Error>]) {
    let ids: Vec<UlidFlake> = results.iter().filter_map(|result| result.ok()).collect();
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "{ids:?}");
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len());
}

fn timestamps(results: &[Result<UlidFlake, Error>]) -> Vec<Result<u64, Error>> {
    results
        .iter()
        .map(|result| result.map(UlidFlake::ms_since_epoch))
        .collect()
}

#[test]
fn a_ten_second_step_back_fails_until_the_clock_returns() {
    let results = run(&[T, T, T + 1, T + 2, T + 3 - 10_000, T + 4 - 10_000, T + 5]);
    let t = T as u64;
    assert_eq!(
        timestamps(&results),
        [
            Ok(t),
            Ok(t),
            Ok(t + 1),
            Ok(t + 2),
            Err(Error::ClockMovedBackwards {
                by_ms: 9_999,
                allowance_ms: 1_000
            }),
            Err(Error::ClockMovedBackwards {
                by_ms: 9_998,
                allowance_ms: 1_000
            }),
            Ok(t + 5),
        ]
    );
    // Within a millisecond the randomness counts up by the increments; a new one starts afresh.
    assert_eq!(results[0].unwrap().randomness(), 1);
    assert_eq!(results[1].unwrap().randomness(), 2);
    assert_eq!(results[6].unwrap().randomness(), 1);
    assert_ordered(&results);
}

#[test]
fn a_leap_second_keeps_ids_in_the_last_millisecond_until_the_clock_catches_up() {
    // One second back (the whole allowance), then the clock walks forward again.
    let mut readings = vec![T];
    readings.extend((T - 1_000..=T + 1).step_by(100));
    readings.push(T + 1);
    let results = run(&readings);
    let expected: Vec<Result<u64, Error>> = readings
        .iter()
        .map(|&reading| Ok(reading.max(T) as u64))
        .collect();
    assert_eq!(timestamps(&results), expected);
    assert_ordered(&results);
    // Inside the rollback each ID is its predecessor plus the increment.
    let in_rollback: Vec<u32> = results[..readings.len() - 1]
        .iter()
        .map(|id| id.unwrap().randomness())
        .collect();
    assert_eq!(
        in_rollback,
        (1..=in_rollback.len() as u32).collect::<Vec<_>>()
    );
}

#[test]
fn a_walk_back_is_carried_up_to_the_allowance() {
    let within = run(&[T, T - (ALLOWANCE - 1), T - ALLOWANCE, T + 1]);
    let t = T as u64;
    assert_eq!(timestamps(&within), [Ok(t), Ok(t), Ok(t), Ok(t + 1)]);
    assert_ordered(&within);
}

#[test]
fn a_walk_back_past_the_allowance_is_refused() {
    let t = T as u64;
    let beyond = run(&[T, T - (ALLOWANCE + 1), T]);
    assert_eq!(
        timestamps(&beyond),
        [
            Ok(t),
            Err(Error::ClockMovedBackwards {
                by_ms: 1_001,
                allowance_ms: 1_000
            }),
            Ok(t)
        ]
    );
    assert_ordered(&beyond);
}

/// A clock that only moves forward, set by the test; a thread named `stalled` is preempted
/// right after each of its first two readings (taken, then returned once the test has
/// moved the clock and made an ID).
#[derive(Debug)]
struct PreemptedReader {
    now: std::sync::atomic::AtomicI64,
    stalls: std::sync::atomic::AtomicU64,
    barrier: std::sync::Barrier,
}

impl ulid_flake_core::generator::Clock for PreemptedReader {
    fn unix_ms(&self) -> i64 {
        use std::sync::atomic::Ordering::SeqCst;
        let reading = self.now.load(SeqCst);
        if std::thread::current().name() == Some("stalled")
            && self
                .stalls
                .fetch_update(SeqCst, SeqCst, |left| left.checked_sub(1))
                .is_ok()
        {
            self.barrier.wait();
            self.barrier.wait();
        }
        reading
    }
}

#[test]
fn another_thread_s_later_ids_are_no_rollback_however_often_they_overtake_a_reading() {
    use std::sync::atomic::Ordering::SeqCst;
    // With no allowance, any rollback seen is an error: none happens here, the clock only
    // moves forward. The stalled call reads 100, then finds an ID of 101 (a second reading:
    // 101), then one of 102 (a lost swap, and a third reading: 102).
    let generator = std::sync::Arc::new(
        Generator::builder()
            .rollback_allowance(std::time::Duration::ZERO)
            .clock(PreemptedReader {
                now: at(100).into(),
                stalls: 2.into(),
                barrier: std::sync::Barrier::new(2),
            })
            .build()
            .unwrap(),
    );
    generator.try_generate().unwrap();
    let stalled = std::thread::Builder::new()
        .name("stalled".into())
        .spawn({
            let generator = std::sync::Arc::clone(&generator);
            move || generator.try_generate()
        })
        .unwrap();
    let mut made = Vec::new();
    for ms in [101, 102] {
        generator.clock().barrier.wait();
        generator.clock().now.store(at(ms), SeqCst);
        made.push(generator.try_generate().unwrap());
        generator.clock().barrier.wait();
    }
    let id = stalled.join().unwrap().unwrap();
    assert_eq!(id.ms_since_epoch(), 102);
    assert!(made.iter().all(|made| made < &id), "{made:?} {id:?}");
}
