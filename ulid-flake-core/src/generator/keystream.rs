//! The cipher behind [`ThreadRandom`](super::ThreadRandom): AES-128 in counter mode where the
//! processor has AES instructions (x86 and x86-64), ChaCha12 elsewhere.
//!
//! Why two: on an x86 processor with AES instructions, AES-128 in counter mode draws bytes
//! a little faster than ChaCha12's AVX2 path (1,000 bytes in 367 against 402 ns on an Intel
//! Xeon, timed side by side), and with 128-bit instructions only. An Intel processor whose
//! 256-bit units stood idle for about a millisecond runs ChaCha12's AVX2 path several times
//! slower for some microseconds (1,000 bytes in 1,662 ns, AES in 426), and a bulk writer that
//! waits for each next millisecond pays that on every batch (BENCHMARKS.md, the thirteenth
//! set). Without AES instructions — or on aarch64, where the `aes` crate runs AES in software
//! unless built with an opt-in — ChaCha12 is the faster cipher, and stays.

use rand_chacha::ChaCha12Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
use aes::cipher::{BlockEncrypt, KeyInit, consts::U16, inout::InOutBuf};

/// A thread's stream of random bytes, keyed once from the operating system.
#[allow(
    clippy::large_enum_variant,
    reason = "one per thread, in its thread-local: a box would only add an allocation per thread"
)]
pub(super) enum Keystream {
    /// AES-128 of a counter that counts blocks: each block encrypted once, so no 16 bytes
    /// of the stream repeat another's (2^128 blocks: never reached).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Aes {
        /// The expanded key.
        cipher: aes::Aes128,
        /// The next block's counter, encrypted as its 16 little-endian bytes.
        counter: u128,
    },
    /// ChaCha12, where AES would run in software.
    ChaCha(ChaCha12Rng),
}

impl Keystream {
    /// The stream keyed with `seed`, for this processor.
    pub(super) fn new(seed: [u8; 32]) -> Self {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        let aes_instructions = std::arch::is_x86_feature_detected!("aes");
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        let aes_instructions = false;
        Self::for_processor(seed, aes_instructions)
    }

    /// AES-128 keyed with the seed's first 16 bytes on an x86 processor with AES
    /// instructions, ChaCha12 keyed with all 32 bytes otherwise.
    fn for_processor(seed: [u8; 32], aes_instructions: bool) -> Self {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if aes_instructions {
            let mut key = [0; 16];
            key.copy_from_slice(&seed[..16]);
            return Self::Aes {
                cipher: aes::Aes128::new(&key.into()),
                counter: 0,
            };
        }
        // Elsewhere the `aes` crate would run AES in software: never chosen.
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        let _ = aes_instructions;
        Self::ChaCha(ChaCha12Rng::from_seed(seed))
    }

    /// Fills `dest` with the stream's next bytes. AES takes whole blocks: the bytes of a
    /// last block that `dest` has no room for are dropped, never handed out later.
    pub(super) fn fill_bytes(&mut self, dest: &mut [u8]) {
        match self {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Self::Aes { cipher, counter } => fill_from_counter(cipher, counter, dest),
            Self::ChaCha(rng) => rng.fill_bytes(dest),
        }
    }
}

/// Counter mode, in place: each 16 bytes of `dest` get the next counter, then its
/// encryption (AES-NI encrypts eight blocks side by side); a last, partial block is
/// encrypted apart, and copied as far as `dest` goes.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
fn fill_from_counter(cipher: &aes::Aes128, counter: &mut u128, dest: &mut [u8]) {
    let mut next_block = || {
        let block = counter.to_le_bytes().into();
        *counter = counter.wrapping_add(1);
        block
    };
    let (mut blocks, mut rest) = InOutBuf::from(dest).into_chunks::<U16>();
    let blocks = blocks.get_out();
    for block in blocks.iter_mut() {
        *block = next_block();
    }
    cipher.encrypt_blocks(blocks);
    let rest = rest.get_out();
    if !rest.is_empty() {
        let mut block = next_block();
        cipher.encrypt_block(&mut block);
        rest.copy_from_slice(&block[..rest.len()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seed whose bytes count up from `first`.
    fn counting_seed(first: u8) -> [u8; 32] {
        core::array::from_fn(|index| first.wrapping_add(index as u8))
    }

    /// This processor's stream: AES where it has AES instructions, as the docs say.
    #[test]
    fn the_stream_is_aes_where_the_processor_has_aes_instructions() {
        let stream = Keystream::new([1; 32]);
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        assert_eq!(
            matches!(stream, Keystream::Aes { .. }),
            std::arch::is_x86_feature_detected!("aes")
        );
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        assert!(matches!(stream, Keystream::ChaCha(_)));
    }

    /// The cipher is AES-128 keyed with the seed's first 16 bytes: FIPS-197's example
    /// (appendix C.1), its plaintext taken as the counter's little-endian bytes.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[test]
    fn the_aes_stream_is_fips_197_s_aes_128_of_the_counter() {
        let Keystream::Aes { cipher, .. } = Keystream::for_processor(counting_seed(0), true) else {
            panic!("no AES stream")
        };
        let plaintext = *b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff";
        let mut stream = Keystream::Aes {
            cipher,
            counter: u128::from_le_bytes(plaintext),
        };
        let mut bytes = [0; 16];
        stream.fill_bytes(&mut bytes);
        let ciphertext = *b"\x69\xc4\xe0\xd8\x6a\x7b\x04\x30\xd8\xcd\xb7\x80\x70\xb4\xc5\x5a";
        assert_eq!(bytes, ciphertext);
    }

    /// Each call continues from the next block: fills that end inside a block (2,008 bytes,
    /// then 20, then 5) give the encryptions of counters 0, 1, 2, ... in turn, a partly used
    /// block's rest dropped.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[test]
    fn the_aes_stream_encrypts_each_counter_once_and_in_turn() {
        let seed = counting_seed(7);
        let cipher = aes::Aes128::new(&<[u8; 16]>::try_from(&seed[..16]).unwrap().into());
        let block = |counter: u128| {
            let mut block = counter.to_le_bytes().into();
            cipher.encrypt_block(&mut block);
            <[u8; 16]>::from(block)
        };
        let mut stream = Keystream::for_processor(seed, true);
        let mut long = [0; 2008];
        stream.fill_bytes(&mut long);
        for (counter, bytes) in (0..).zip(long.chunks(16)) {
            assert_eq!(bytes, &block(counter)[..bytes.len()], "block {counter}");
        }
        // 2,008 bytes took 126 blocks; 20 bytes take two more, 5 the next.
        let mut twenty = [0; 20];
        stream.fill_bytes(&mut twenty);
        assert_eq!(twenty[..16], block(126));
        assert_eq!(twenty[16..], block(127)[..4]);
        let mut five = [0; 5];
        stream.fill_bytes(&mut five);
        assert_eq!(five, block(128)[..5]);
    }

    /// Without AES instructions the stream is ChaCha12 keyed with the whole seed.
    #[test]
    fn without_aes_instructions_the_stream_is_chacha12_of_the_seed() {
        let seed = counting_seed(3);
        let mut stream = Keystream::for_processor(seed, false);
        let mut ours = [0; 100];
        stream.fill_bytes(&mut ours);
        let mut theirs = [0; 100];
        ChaCha12Rng::from_seed(seed).fill_bytes(&mut theirs);
        assert_eq!(ours, theirs);
    }
}
