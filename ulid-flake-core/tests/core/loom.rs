//! A model check of the lock-free generator: loom runs every interleaving (with at most
//! `LOOM_MAX_PREEMPTIONS` preemptions, 3 in the test command) of three threads
//! making two IDs each on one generator, and each must see distinct IDs, increasing per
//! thread. Built only with `--cfg ulid_flake_loom`, by `scripts/test.sh --only loom`.

use loom::sync::Arc;
use ulid_flake_core::UlidFlake;
use ulid_flake_core::generator::{Clock, Generator, RandomSource};

use crate::support::at;

/// A clock stopped in one millisecond: every ID continues the same millisecond, so every
/// interleaving contends for the same randomness field.
struct StoppedClock;

impl Clock for StoppedClock {
    fn unix_ms(&self) -> i64 {
        at(7)
    }
}

/// Every draw is 1: a fresh randomness of 1, then increments of 1.
struct Ones;

impl RandomSource for Ones {
    fn next_u32(&self) -> u32 {
        1
    }
}

#[test]
fn three_threads_two_ids_each_are_distinct_and_ordered_per_thread() {
    loom::model(|| {
        let generator = Arc::new(
            Generator::builder()
                .clock(StoppedClock)
                .random_source(Ones)
                .build()
                .unwrap(),
        );
        let threads: Vec<_> = (0..3)
            .map(|_| {
                let generator = Arc::clone(&generator);
                loom::thread::spawn(move || {
                    let first = generator.generate().unwrap();
                    let second = generator.generate().unwrap();
                    assert!(first < second, "{first:?} then {second:?}");
                    [first, second]
                })
            })
            .collect();
        let mut all: Vec<UlidFlake> = threads
            .into_iter()
            .flat_map(|thread| thread.join().unwrap())
            .collect();
        all.sort();
        // Six distinct IDs, the fresh 1 and five increments of 1: 7/1 to 7/6.
        let expected: Vec<UlidFlake> = (1..=6)
            .map(|randomness| UlidFlake::from_parts(7, randomness).unwrap())
            .collect();
        assert_eq!(all, expected);
    });
}

#[test]
fn a_batch_and_single_calls_interleave_without_splitting_the_batch() {
    loom::model(|| {
        let generator = Arc::new(
            Generator::builder()
                .clock(StoppedClock)
                .random_source(Ones)
                .build()
                .unwrap(),
        );
        let batcher = {
            let generator = Arc::clone(&generator);
            loom::thread::spawn(move || {
                let mut out = [UlidFlake::MIN; 3];
                assert_eq!(generator.try_generate_batch(&mut out), Ok(3));
                out
            })
        };
        let single = {
            let generator = Arc::clone(&generator);
            loom::thread::spawn(move || {
                let first = generator.generate().unwrap();
                let second = generator.generate().unwrap();
                assert!(first < second, "{first:?} then {second:?}");
                [first, second]
            })
        };
        let batch = batcher.join().unwrap();
        let singles = single.join().unwrap();
        // The batch is three consecutive IDs: no single ID falls within it.
        assert!(batch.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(singles.iter().all(|&id| id < batch[0] || id > batch[2]));
        let mut all: Vec<UlidFlake> = batch.iter().chain(&singles).copied().collect();
        all.sort();
        // Five distinct IDs: the fresh 1 and four increments of 1 (a batch's bytes come from
        // `next_u32` words of 1: one byte 1 and three zero bytes, skipped).
        let expected: Vec<UlidFlake> = (1..=5)
            .map(|randomness| UlidFlake::from_parts(7, randomness).unwrap())
            .collect();
        assert_eq!(all, expected);
    });
}
