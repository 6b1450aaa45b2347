//! One generator shared by threads: no duplicates, and order within each thread.

use std::collections::HashSet;

use ulid_flake_core::UlidFlake;
use ulid_flake_core::generator::Generator;

const THREADS: usize = 2;
const IDS_PER_THREAD: usize = 1_000_000;

#[test]
fn two_threads_share_a_generator_without_duplicates() {
    let generator = Generator::new();
    let per_thread: Vec<Vec<UlidFlake>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..THREADS)
            .map(|_| {
                scope.spawn(|| {
                    (0..IDS_PER_THREAD)
                        .map(|_| generator.generate_blocking().unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap())
            .collect()
    });

    for ids in &per_thread {
        assert_eq!(ids.len(), IDS_PER_THREAD);
        assert!(
            ids.windows(2).all(|pair| pair[0] < pair[1]),
            "IDs of one thread must strictly increase"
        );
    }
    let distinct: HashSet<UlidFlake> = per_thread.iter().flatten().copied().collect();
    assert_eq!(
        distinct.len(),
        THREADS * IDS_PER_THREAD,
        "duplicates across threads"
    );
}

/// Many threads on the process-wide generator behind `UlidFlake::generate`: no duplicate,
/// and each thread's IDs strictly increasing.
#[test]
fn many_threads_share_the_default_generator_without_duplicates() {
    const MANY: usize = 8;
    const EACH: usize = 50_000;
    let per_thread: Vec<Vec<UlidFlake>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..MANY)
            .map(|_| {
                scope.spawn(|| {
                    (0..EACH)
                        .map(|_| UlidFlake::generate().unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap())
            .collect()
    });
    for ids in &per_thread {
        assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    }
    let distinct: HashSet<UlidFlake> = per_thread.iter().flatten().copied().collect();
    assert_eq!(distinct.len(), MANY * EACH);
}
