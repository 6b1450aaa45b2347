//! The bulk writer: how much of the format's capacity per millisecond a writer that waits for
//! the next millisecond reaches, single calls against batches, and the fewest IDs a
//! millisecond held (minimum and 1st percentile) with and without the headroom option.
//!
//! `cargo run --release -p ulid-flake-benchmarks --bin bulk [milliseconds per row]`
//! (default 2,000). Prints a Markdown table. A millisecond in which the writer made no ID at
//! all (it was descheduled, on a busy machine) counts as 0 and is reported apart.

use ulid_flake_core::UlidFlake;
use ulid_flake_core::generator::{Clock, Generator, SystemClock, TickerClock};

/// IDs per batch call.
const BATCH: usize = 1_000;

/// The expected IDs per millisecond of the stand-alone layout with 1-byte entropy: the first
/// randomness uniform over `0..=fresh_max`, then increments averaging 128 until the field's
/// maximum, plus the first.
fn expected_per_ms(headroom_bits: u8) -> f64 {
    let field_max = f64::from((1_u32 << 20) - 1);
    let fresh_max = f64::from(((1_u32 << 20) - 1) >> headroom_bits);
    (field_max - fresh_max / 2.0) / 128.0 + 1.0
}

struct Row {
    writer: &'static str,
    headroom_bits: u8,
    ids: u64,
    milliseconds: u64,
    empty: usize,
    min: u64,
    p1: u64,
}

/// Runs `write` (which makes IDs and passes each to its argument) for `milliseconds` and
/// counts the IDs of each whole millisecond in between.
fn run<C: Clock>(
    writer: &'static str,
    generator: &Generator<C>,
    milliseconds: u64,
    write: impl Fn(&Generator<C>, &mut dyn FnMut(UlidFlake)),
) -> Row {
    let start = generator.generate().unwrap().ms_since_epoch() + 1;
    let end = start + milliseconds;
    let mut per_ms = vec![0_u64; milliseconds as usize];
    let mut done = false;
    while !done {
        write(generator, &mut |id| {
            let ms = id.ms_since_epoch();
            if ms >= end {
                done = true;
            } else if ms >= start {
                per_ms[(ms - start) as usize] += 1;
            }
        });
    }
    let ids = per_ms.iter().sum();
    let empty = per_ms.iter().filter(|&&count| count == 0).count();
    per_ms.sort_unstable();
    Row {
        writer,
        headroom_bits: generator.headroom_bits(),
        ids,
        milliseconds,
        empty,
        min: per_ms[0],
        p1: per_ms[per_ms.len() / 100],
    }
}

fn single<C: Clock>(generator: &Generator<C>, sink: &mut dyn FnMut(UlidFlake)) {
    sink(generator.generate().unwrap());
}

fn batch<C: Clock>(generator: &Generator<C>, sink: &mut dyn FnMut(UlidFlake)) {
    let mut out = [UlidFlake::MIN; BATCH];
    generator.generate_batch(&mut out).unwrap();
    out.into_iter().for_each(sink);
}

fn main() {
    let milliseconds: u64 = std::env::args()
        .nth(1)
        .map_or(2_000, |arg| arg.parse().expect("milliseconds per row"));
    let ticker = TickerClock::start().expect("a ticker thread");
    let mut rows = Vec::new();
    for headroom_bits in [0, 1] {
        let generator = Generator::builder()
            .headroom_bits(headroom_bits)
            .clock(SystemClock)
            .build()
            .unwrap();
        rows.push(run("generate", &generator, milliseconds, single));
        rows.push(run(
            "generate_batch (1,000)",
            &generator,
            milliseconds,
            batch,
        ));
        let ticking = Generator::builder()
            .headroom_bits(headroom_bits)
            .clock(ticker.clone())
            .build()
            .unwrap();
        rows.push(run(
            "generate_batch (1,000), TickerClock",
            &ticking,
            milliseconds,
            batch,
        ));
    }
    println!(
        "| writer | headroom | IDs per ms | expected per ms | share | min per ms | p1 per ms | ms without IDs |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for row in rows {
        let per_ms = row.ids as f64 / row.milliseconds as f64;
        let expected = expected_per_ms(row.headroom_bits);
        println!(
            "| {} | {} bit | {per_ms:.0} | {expected:.0} | {:.1} % | {} | {} | {} of {} |",
            row.writer,
            row.headroom_bits,
            100.0 * per_ms / expected,
            row.min,
            row.p1,
            row.empty,
            row.milliseconds
        );
    }
}
