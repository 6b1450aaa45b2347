//! One generator shared by threads: no duplicates, and order within each thread.

use std::collections::HashSet;

use ulid_flake_core::UlidFlake;
use ulid_flake_core::generator::Generator;

const THREADS: usize = 2;
const IDS_PER_THREAD: usize = 1_000_000;

/// Runs `threads` threads making `each` IDs with `generate`, and checks that each thread's
/// IDs strictly increase and that no ID appears twice.
fn assert_unique_and_ordered_per_thread(
    threads: usize,
    each: usize,
    generate: impl Fn() -> UlidFlake + Sync,
) {
    let per_thread: Vec<Vec<UlidFlake>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| (0..each).map(|_| generate()).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap())
            .collect()
    });
    for ids in &per_thread {
        assert_eq!(ids.len(), each);
        assert!(
            ids.windows(2).all(|pair| pair[0] < pair[1]),
            "IDs of one thread must strictly increase"
        );
    }
    let distinct: HashSet<UlidFlake> = per_thread.iter().flatten().copied().collect();
    assert_eq!(distinct.len(), threads * each, "duplicates across threads");
}

#[test]
fn two_threads_share_a_generator_without_duplicates() {
    let generator = Generator::new();
    assert_unique_and_ordered_per_thread(THREADS, IDS_PER_THREAD, || {
        generator.generate().unwrap()
    });
}

/// Many threads on the process-wide generator behind `UlidFlake::generate`.
#[test]
fn many_threads_share_the_default_generator_without_duplicates() {
    assert_unique_and_ordered_per_thread(8, 50_000, || UlidFlake::generate().unwrap());
}
