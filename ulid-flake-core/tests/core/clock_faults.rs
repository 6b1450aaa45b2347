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
