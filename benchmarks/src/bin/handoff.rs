//! How long a cache line takes to move from one of this machine's cores to the other, in ns:
//! a state of the machine that `scripts/bench-alternated.py` records beside each run, with
//! its load.
//!
//! On a VM the host places the two vCPUs, and may move them between runs; the two-thread
//! rows time the generator's state word moving between two threads. On the 2-core VM's AMD
//! host the hand-off took 31–35 or 153–179 ns from one run to the next (BENCHMARKS.md, ninth
//! set).
//!
//! `cargo run --release -p ulid-flake-benchmarks --bin handoff`: prints the median of three
//! measurements, in whole ns.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use ulid_flake_benchmarks::OwnLines;

/// Hand-offs per measurement.
const HANDOFFS: u64 = 1_000_000;

/// The time of one hand-off, in ns: two threads take turns incrementing one word, each
/// waiting for the other's increment, so each increment moves the line once.
fn handoff_ns() -> f64 {
    let word = OwnLines(AtomicU64::new(0));
    let start = Instant::now();
    std::thread::scope(|scope| {
        for parity in 0..2 {
            let word = &word;
            scope.spawn(move || {
                loop {
                    let value = word.0.load(Ordering::Acquire);
                    if value >= HANDOFFS {
                        return;
                    }
                    if value % 2 == parity {
                        word.0.store(value + 1, Ordering::Release);
                    } else {
                        std::hint::spin_loop();
                    }
                }
            });
        }
    });
    start.elapsed().as_nanos() as f64 / HANDOFFS as f64
}

fn main() {
    let mut runs: Vec<f64> = (0..3).map(|_| handoff_ns()).collect();
    runs.sort_by(f64::total_cmp);
    println!("{:.0}", runs[1]);
}
