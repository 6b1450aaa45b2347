//! Generation: one thread, and two threads sharing one generator, against the peers and the
//! machine's floors (a bare clock read, an uncontended compare-and-swap).

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use ferroid::generator::{AtomicSnowflakeGenerator, BasicSnowflakeGenerator, Poll};
use ferroid::id::SnowflakeTwitterId;
use ferroid::time::{MonotonicClock, TWITTER_EPOCH};
use ulid_flake_benchmarks::{OwnLines, time_in_bursts, time_in_bursts_of};
use ulid_flake_core::UlidFlake;
use ulid_flake_core::generator::{
    Clock, Generator, RandomSource, SystemClock, ThreadRandom, TickerClock,
};

/// Our fast clock's ticker thread, and ferroid's beside it (one per process, started by its
/// first clock). Every group starts both before its first row, so that each row runs beside
/// the same background threads whichever rows a run selects and in whichever order. Timed
/// with our ticker started before it (and second in its process) and without (and first),
/// ferroid's non-waiting call on two threads differed by a quarter, 10.11 against 13.40 ns
/// (medians of 14 runs each); ours did not (9.56 and 9.63 ns).
static TICKER: LazyLock<TickerClock> = LazyLock::new(|| {
    drop(MonotonicClock::<1>::with_epoch(TWITTER_EPOCH));
    TickerClock::start().expect("a ticker thread")
});

fn floors(c: &mut Criterion) {
    LazyLock::force(&TICKER);
    let mut group = c.benchmark_group("floor");
    group.bench_function("SystemTime::now as unix ms", |b| {
        b.iter(|| {
            black_box(
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap()
                    .as_millis() as u64,
            )
        });
    });
    group.bench_function("SystemClock::unix_ms (the generator's clock read)", |b| {
        b.iter(|| black_box(SystemClock.unix_ms()));
    });
    // The state word as the generator keeps it, alone on its cache lines, and timed as the
    // generator's rows are, keeping only whether the swap succeeded: `black_box` of its whole
    // `Result` stores that on every call, and timed 7.05 ns where the swap takes 2.49.
    let word = OwnLines(AtomicU64::new(0));
    group.bench_function("uncontended compare_exchange", |b| {
        b.iter_custom(|iters| time_in_bursts(iters, || swap(&word.0, |current| current + 1)));
    });
    // What target 2's call cannot skip: the clock read, then the swap of a word that depends
    // on it.
    group.bench_function("SystemClock::unix_ms and a compare_exchange", |b| {
        b.iter_custom(|iters| {
            time_in_bursts(iters, || {
                let now = SystemClock.unix_ms() as u64;
                swap(&word.0, |current| current.max(now << 20) + 1)
            })
        });
    });
    group.bench_function("ThreadRandom::next_u32 (a word)", |b| {
        b.iter(|| black_box(ThreadRandom.next_u32()));
    });
    group.bench_function(
        "ThreadRandom::increment_draw(1) (the generator's draw)",
        |b| {
            b.iter(|| black_box(ThreadRandom.increment_draw(black_box(1))));
        },
    );
    group.finish();
}

fn one_thread(c: &mut Criterion) {
    LazyLock::force(&TICKER);
    let mut group = c.benchmark_group("generate/1 thread");
    let generator = Generator::new();
    group.bench_function("ulid-flake", |b| {
        b.iter_custom(|iters| time_in_bursts(iters, || kept(generator.try_generate())));
    });
    let ticking = ticking_generator();
    group.bench_function("ulid-flake (TickerClock)", |b| {
        b.iter_custom(|iters| time_in_bursts(iters, || kept(ticking.try_generate())));
    });
    // The breakdown, on each clock: the same call with a constant increment (no draw), and
    // with a thread-local counter as the increment: the least any per-ID draw from
    // thread-local state adds (a load, a store, an increment that depends on the load), with
    // no cipher behind it.
    floor_rows(&mut group, "ulid-flake (TickerClock)", TICKER.clone());
    floor_rows(&mut group, "ulid-flake", SystemClock);
    let mut ulid = ulid::Generator::new();
    group.bench_function("ulid (Generator)", |b| {
        b.iter_custom(|iters| time_in_bursts(iters, || kept(ulid.generate())));
    });
    group.bench_function("uuid (now_v7)", |b| {
        b.iter_custom(|iters| {
            time_in_bursts(iters, || {
                black_box(uuid::Uuid::now_v7()).get_version_num() == 7
            })
        });
    });
    group.bench_function("scru128 (global new)", |b| {
        b.iter_custom(|iters| time_in_bursts(iters, || black_box(scru128::new()).timestamp() > 0));
    });
    let snowflaked = snowflaked::sync::Generator::new(1);
    group.bench_function("snowflaked (sync Generator)", |b| {
        b.iter_custom(|iters| {
            time_in_bursts(iters, || black_box(snowflaked.generate::<u64>()) > 0)
        });
    });
    let ferroid = BasicSnowflakeGenerator::<SnowflakeTwitterId, _>::new(
        1,
        MonotonicClock::<1>::with_epoch(TWITTER_EPOCH),
    );
    group.bench_function("ferroid (BasicSnowflakeGenerator)", |b| {
        b.iter_custom(|iters| {
            time_in_bursts(iters, || {
                black_box(ferroid.next_id(|_| std::thread::yield_now()));
                true
            })
        });
    });
    let ferroid = AtomicSnowflakeGenerator::<SnowflakeTwitterId, _>::new(
        1,
        MonotonicClock::<1>::with_epoch(TWITTER_EPOCH),
    );
    group.bench_function("ferroid (AtomicSnowflakeGenerator)", |b| {
        b.iter_custom(|iters| {
            time_in_bursts(iters, || {
                black_box(ferroid.next_id(|_| std::thread::yield_now()));
                true
            })
        });
    });
    group.bench_function("ferroid (AtomicSnowflakeGenerator, poll_id)", |b| {
        b.iter_custom(|iters| time_in_bursts(iters, || poll_ferroid(&ferroid)));
    });
    let mut tsid = tsid::TsidFactory::new();
    group.bench_function("tsid (TsidFactory)", |b| {
        b.iter_custom(|iters| time_in_bursts(iters, || black_box(tsid.create()).number() > 0));
    });
    group.finish();
}

/// Wall time per ID with two threads calling `call` on one shared generator: each thread
/// times its own bursts; the slower thread's total is the wall time of the pair.
fn shared(iters: u64, call: impl Fn() -> bool + Sync) -> Duration {
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| time_in_bursts(iters / 2, &call)))
            .collect();
        threads
            .into_iter()
            .map(|thread| thread.join().unwrap())
            .max()
            .unwrap_or_default()
    })
}

fn two_threads(c: &mut Criterion) {
    LazyLock::force(&TICKER);
    let mut group = c.benchmark_group("generate/2 threads, one generator");
    let generator = Generator::new();
    group.bench_function("ulid-flake", |b| {
        b.iter_custom(|iters| shared(iters, || kept(generator.try_generate())));
    });
    let ticking = ticking_generator();
    group.bench_function("ulid-flake (TickerClock)", |b| {
        b.iter_custom(|iters| shared(iters, || kept(ticking.try_generate())));
    });
    let ulid = Mutex::new(ulid::Generator::new());
    group.bench_function("ulid (Mutex<Generator>)", |b| {
        b.iter_custom(|iters| shared(iters, || kept(ulid.lock().unwrap().generate())));
    });
    group.bench_function("uuid (now_v7)", |b| {
        b.iter_custom(|iters| {
            shared(iters, || {
                black_box(uuid::Uuid::now_v7()).get_version_num() == 7
            })
        });
    });
    group.bench_function("scru128 (global new)", |b| {
        b.iter_custom(|iters| shared(iters, || black_box(scru128::new()).timestamp() > 0));
    });
    let snowflaked = snowflaked::sync::Generator::new(1);
    group.bench_function("snowflaked (sync Generator)", |b| {
        b.iter_custom(|iters| shared(iters, || black_box(snowflaked.generate::<u64>()) > 0));
    });
    let ferroid = AtomicSnowflakeGenerator::<SnowflakeTwitterId, _>::new(
        1,
        MonotonicClock::<1>::with_epoch(TWITTER_EPOCH),
    );
    group.bench_function("ferroid (AtomicSnowflakeGenerator)", |b| {
        b.iter_custom(|iters| {
            shared(iters, || {
                black_box(ferroid.next_id(|_| std::thread::yield_now()));
                true
            })
        });
    });
    group.bench_function("ferroid (AtomicSnowflakeGenerator, poll_id)", |b| {
        b.iter_custom(|iters| shared(iters, || poll_ferroid(&ferroid)));
    });
    group.bench_function("tsid (global create_tsid)", |b| {
        b.iter_custom(|iters| shared(iters, || black_box(tsid::create_tsid()).number() > 0));
    });
    group.finish();
}

/// Whether a call made an ID, keeping the ID from the optimiser as `poll_ferroid` keeps
/// ferroid's: the ID alone, not the whole `Result`, whose error variant makes it a value of
/// several words that `black_box` would store on every call.
fn kept<T, E>(result: Result<T, E>) -> bool {
    match result {
        Ok(id) => {
            black_box(id);
            true
        }
        Err(_) => false,
    }
}

/// ferroid's non-waiting call, as `try_generate` is ours: `poll_id`, tried again at once
/// after a lost race (as our compare-and-swap loop does), and a failure — a burst that does
/// not count — when the millisecond's sequence is used up.
fn poll_ferroid(ferroid: &AtomicSnowflakeGenerator<SnowflakeTwitterId, MonotonicClock<1>>) -> bool {
    loop {
        match ferroid.poll_id() {
            Poll::Ready { id } => {
                black_box(id);
                return true;
            }
            Poll::Pending { yield_for: 0 } => {}
            Poll::Pending { .. } => return false,
        }
    }
}

/// A source that draws nothing: every increment is 1 (for the breakdown only; the IDs are
/// predictable).
struct ConstantIncrement;

impl RandomSource for ConstantIncrement {
    fn next_u32(&self) -> u32 {
        1
    }
}

std::thread_local! {
    static COUNTER: core::cell::Cell<u32> = const { core::cell::Cell::new(0) };
}

/// A source whose increments follow a per-thread count, odd, 1 to 255 (for the breakdown
/// only; the IDs are predictable): a thread-local load and store per ID, as a real draw
/// takes, without the cipher.
struct CountedIncrement;

impl RandomSource for CountedIncrement {
    fn next_u32(&self) -> u32 {
        let count = COUNTER.get();
        COUNTER.set(count.wrapping_add(1));
        count & 0xFF | 1
    }
}

/// The breakdown's rows for a generator on `clock` (see `one_thread`).
fn floor_rows(group: &mut BenchmarkGroup<'_, WallTime>, name: &str, clock: impl Clock + Clone) {
    floor_row(
        group,
        &format!("{name}, a constant increment"),
        clock.clone(),
        ConstantIncrement,
    );
    floor_row(
        group,
        &format!("{name}, a thread-local counter as the increment"),
        clock,
        CountedIncrement,
    );
}

/// The row `floor: {name}`: `try_generate` of a generator on `clock` and `random`.
fn floor_row(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    clock: impl Clock,
    random: impl RandomSource,
) {
    let generator = Generator::builder()
        .clock(clock)
        .random_source(random)
        .build()
        .expect("a valid configuration");
    group.bench_function(format!("floor: {name}"), |b| {
        b.iter_custom(|iters| time_in_bursts(iters, || kept(generator.try_generate())));
    });
}

/// One compare-and-swap of `word` to `next` of its value, as the generator's step makes it:
/// whether it succeeded.
fn swap(word: &AtomicU64, next: impl FnOnce(u64) -> u64) -> bool {
    let current = word.load(Ordering::Acquire);
    word.compare_exchange_weak(current, next(current), Ordering::AcqRel, Ordering::Acquire)
        .is_ok()
}

/// The opt-in fast clock: a thread publishes the millisecond, a reading is one load — like
/// ferroid's `MonotonicClock`, against which it is measured.
fn ticking_generator() -> Generator<TickerClock> {
    Generator::builder()
        .clock(TICKER.clone())
        .build()
        .expect("a valid configuration")
}

/// IDs per batch call.
const BATCH: usize = 1_000;

/// Batches: one call fills 1,000 IDs, reported per ID. Only calls that filled the whole
/// batch within one millisecond count (see `time_in_bursts_of`); with the default
/// configuration a millisecond's first draw leaves room for 1,000 more IDs about 88 % of
/// the time, with a headroom of 1 bit always (2,057 at the least).
fn batch(c: &mut Criterion) {
    LazyLock::force(&TICKER);
    let mut group = c.benchmark_group("generate/batch of 1,000, per ID");
    group.throughput(Throughput::Elements(BATCH as u64));
    let mut out = vec![UlidFlake::MIN; BATCH];
    let generators = [
        ("ulid-flake try_generate_batch", Generator::new()),
        (
            "ulid-flake try_generate_batch (headroom 1 bit)",
            Generator::builder().headroom_bits(1).build().unwrap(),
        ),
    ];
    for (name, generator) in &generators {
        group.bench_function(*name, |b| {
            b.iter_custom(|iters| {
                time_in_bursts_of(1, iters, || {
                    generator.try_generate_batch(black_box(&mut out)) == Ok(BATCH)
                })
            });
        });
    }
    // The batch's bulk draw alone.
    let mut bytes = [0_u8; BATCH];
    group.bench_function("floor: ThreadRandom::fill_bytes of 1,000", |b| {
        b.iter(|| ThreadRandom.fill_bytes(black_box(&mut bytes)));
    });
    let ticking = Generator::builder()
        .headroom_bits(1)
        .clock(TICKER.clone())
        .build()
        .unwrap();
    group.bench_function(
        "ulid-flake try_generate_batch (headroom 1 bit, TickerClock)",
        |b| {
            b.iter_custom(|iters| {
                time_in_bursts_of(1, iters, || {
                    ticking.try_generate_batch(black_box(&mut out)) == Ok(BATCH)
                })
            });
        },
    );
    group.finish();
}

/// Bulk: how many IDs per millisecond the waiting generator delivers, against the
/// expectation of the format, and how late it wakes after a millisecond boundary. Printed,
/// not timed by criterion: these are rates and latencies, not per-call costs.
fn bulk(c: &mut Criterion) {
    LazyLock::force(&TICKER);
    let generator = Generator::new();
    let milliseconds = 2_000;
    let start = Instant::now();
    let first = generator.generate().unwrap().ms_since_epoch();
    let mut ids: u64 = 1;
    let mut last = first;
    while last < first + milliseconds {
        last = generator.generate().unwrap().ms_since_epoch();
        ids += 1;
    }
    let elapsed = start.elapsed();
    // Expected IDs per millisecond with 1-byte entropy: a fresh draw uniform over 2^20, then
    // increments averaging 128 until the field is full, plus the fresh one.
    let expected_per_ms = ((1u64 << 20) as f64 / 2.0) / 128.0 + 1.0;
    let per_ms = ids as f64 / (last - first + 1) as f64;
    println!(
        "bulk: {ids} IDs in {} ms ({elapsed:?}): {per_ms:.0} per ms, {:.1} % of the expected {expected_per_ms:.0}",
        last - first + 1,
        100.0 * per_ms / expected_per_ms
    );
    // Wake-up latency: run into an overflow, then time from the next millisecond's boundary
    // to the first ID once the blocking call had to wait for it. (An overflow does not always
    // mean the millisecond is full: a smaller increment may still fit, and then no wait.)
    let mut lateness = Vec::new();
    while lateness.len() < 200 {
        let full = loop {
            if let Err(ulid_flake_core::Error::Overflow { timestamp_ms }) = generator.try_generate()
            {
                break timestamp_ms;
            }
        };
        let id = generator.generate().unwrap();
        if id.ms_since_epoch() > full {
            let boundary = UNIX_EPOCH
                + Duration::from_millis(ulid_flake_core::Epoch::DEFAULT.unix_ms() + full + 1);
            lateness.push(
                SystemTime::now()
                    .duration_since(boundary)
                    .unwrap_or_default(),
            );
        }
    }
    lateness.sort();
    println!(
        "bulk: woken after the millisecond boundary by median {:?}, p99 {:?}",
        lateness[lateness.len() / 2],
        lateness[lateness.len() * 99 / 100]
    );
    let _ = c;
}

criterion_group!(benches, floors, one_thread, two_threads, batch, bulk);
criterion_main!(benches);
