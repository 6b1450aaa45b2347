//! Helpers shared by the benchmarks: timing in bursts that stay inside one millisecond, and
//! the straightforward Crockford codec that the optimised one is measured against.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Calls per timed burst: few enough that a burst rarely meets a full millisecond (about
/// 4,097 IDs fit one on average), many enough to amortise the clock reads around it.
pub const BURST: u64 = 64;

/// The time of `iters` calls of `call`, counting only bursts that stayed inside one
/// millisecond of the system clock and in which every call succeeded (returned `true`): the
/// per-call cost of generation within a millisecond's capacity. A burst that waited for the
/// next millisecond (a peer whose sequence ran out, or an overflow of ours) necessarily
/// crosses a millisecond boundary and is dropped; a stall on a contended lock or cache line
/// within the millisecond is counted. The sustained rate is capped by each format's
/// capacity, not by this cost (see the bulk benchmark).
pub fn time_in_bursts(iters: u64, call: impl FnMut() -> bool) -> Duration {
    time_in_bursts_of(BURST, iters, call)
}

/// [`time_in_bursts`] with `burst` calls per burst: 1 for a call that fills a batch, which
/// holds a good part of a millisecond's capacity by itself.
pub fn time_in_bursts_of(burst: u64, iters: u64, mut call: impl FnMut() -> bool) -> Duration {
    let mut counted = Duration::ZERO;
    let mut done = 0;
    while done < iters {
        let calls = burst.min(iters - done);
        let millisecond = unix_ms();
        let start = Instant::now();
        let mut all_succeeded = true;
        for _ in 0..calls {
            all_succeeded &= call();
        }
        let elapsed = start.elapsed();
        if all_succeeded && unix_ms() == millisecond {
            counted += elapsed;
            done += calls;
        } else {
            // Let the millisecond pass before the next burst, so that it starts with the
            // generator's full capacity.
            while unix_ms() == millisecond {
                std::hint::spin_loop();
            }
        }
    }
    counted
}

/// A value alone on its 128 bytes (two cache lines, as x86 prefetches lines in adjacent
/// pairs), as the generator keeps its state word.
#[repr(align(128))]
pub struct OwnLines<T>(pub T);

/// The system clock in whole Unix milliseconds.
fn unix_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_millis())
}

/// Crockford's Base32 alphabet.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The straightforward encoder: one table look-up per 5-bit group.
pub fn baseline_encode(value: u64, buf: &mut [u8; 13]) -> &str {
    for (position, byte) in buf.iter_mut().enumerate() {
        *byte = ALPHABET[((value >> (5 * (12 - position))) & 0x1F) as usize];
    }
    std::str::from_utf8(buf).expect("ASCII")
}

/// The straightforward validating decoder: a search of the alphabet per character.
pub fn baseline_decode(text: &str) -> Option<u64> {
    if text.len() != 13 {
        return None;
    }
    let mut value: u64 = 0;
    for (position, byte) in text.bytes().enumerate() {
        let digit = ALPHABET
            .iter()
            .position(|&c| c == byte.to_ascii_uppercase())? as u64;
        if position == 0 && digit > 7 {
            return None;
        }
        value = value << 5 | digit;
    }
    Some(value)
}
