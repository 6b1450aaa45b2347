//! The opt-in headroom: a millisecond's first randomness from the lower part of the field
//! only, so that every millisecond holds a guaranteed number of IDs.

use ulid_flake_core::generator::{Generator, GeneratorBuilder, Layout, RandomSource};
use ulid_flake_core::{Error, UlidFlake};

use crate::support::{ManualClock, ScriptedRandom, at};

/// The worst case for capacity: every draw is the largest, so the first randomness is the
/// top of what the headroom allows and every increment is `2^(8n) - 1`.
struct WorstCase;

impl RandomSource for WorstCase {
    fn next_u32(&self) -> u32 {
        u32::MAX
    }
}

fn worst_case(
    configure: impl FnOnce(GeneratorBuilder) -> GeneratorBuilder,
) -> Generator<ManualClock, WorstCase> {
    configure(Generator::builder())
        .clock(ManualClock::new(at(100)))
        .random_source(WorstCase)
        .build()
        .unwrap()
}

/// How many IDs single calls make in millisecond 100 before it overflows.
fn single_calls_until_overflow(generator: &Generator<ManualClock, WorstCase>) -> u32 {
    let mut count = 0;
    loop {
        match generator.try_generate() {
            Ok(id) => {
                assert_eq!(id.ms_since_epoch(), 100);
                count += 1;
            }
            Err(error) => {
                assert_eq!(error, Error::Overflow { timestamp_ms: 100 });
                return count;
            }
        }
    }
}

#[test]
fn the_first_randomness_of_a_millisecond_leaves_its_top_bits_at_zero() {
    let generator = Generator::builder()
        .headroom_bits(3)
        .clock(ManualClock::new(at(100)))
        .random_source(ScriptedRandom::default())
        .build()
        .unwrap();
    generator.random_source().push(&[u32::MAX]);
    assert_eq!(
        generator.try_generate(),
        Ok(UlidFlake::from_parts(100, (1 << 17) - 1).unwrap())
    );
    assert_eq!(generator.headroom_bits(), 3);
}

#[test]
fn every_millisecond_holds_the_guaranteed_ids_even_with_worst_case_draws() {
    // (layout, entropy bytes, headroom bits, guaranteed IDs per millisecond)
    let cases = [
        (Layout::StandAlone, 1, 0, 1),
        (Layout::StandAlone, 1, 1, 2_057),
        (Layout::StandAlone, 1, 2, 3_085),
        (Layout::StandAlone, 2, 1, 9),
        (Layout::StandAlone, 3, 4, 1),
        (Layout::Scalable { scalability_id: 3 }, 1, 1, 65),
        (Layout::Scalable { scalability_id: 3 }, 1, 2, 97),
    ];
    for (layout, entropy_bytes, headroom_bits, guaranteed) in cases {
        let configure = |builder: GeneratorBuilder| {
            builder
                .layout(layout)
                .entropy_bytes(entropy_bytes)
                .headroom_bits(headroom_bits)
        };
        let case = format!("{layout:?}, n = {entropy_bytes}, h = {headroom_bits}");
        let generator = worst_case(configure);
        assert_eq!(generator.guaranteed_ids_per_ms(), guaranteed, "{case}");
        assert_eq!(
            single_calls_until_overflow(&generator),
            guaranteed,
            "{case}"
        );

        let generator = worst_case(configure);
        let mut out = vec![UlidFlake::MIN; guaranteed as usize + 1];
        assert_eq!(
            generator.try_generate_batch(&mut out),
            Ok(guaranteed as usize),
            "{case}"
        );
    }
}

#[test]
fn a_headroom_as_wide_as_the_field_is_refused() {
    assert_eq!(
        Generator::builder().headroom_bits(20).build().unwrap_err(),
        Error::InvalidHeadroom { found: 20, max: 19 }
    );
    assert_eq!(
        Generator::builder()
            .layout(Layout::Scalable { scalability_id: 0 })
            .headroom_bits(15)
            .build()
            .unwrap_err(),
        Error::InvalidHeadroom { found: 15, max: 14 }
    );
    assert!(Generator::builder().headroom_bits(19).build().is_ok());
}
