//! A model check of the lock-free generator: loom runs every interleaving of three threads
//! making two IDs each on one generator, and each must see distinct IDs, increasing per
//! thread. Built only with `--cfg ulid_flake_loom` (`scripts/test.sh` runs it):
//! `RUSTFLAGS="--cfg ulid_flake_loom" cargo test -p ulid-flake-core --test core --release loom`.

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
