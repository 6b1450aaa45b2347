//! arbitrary and proptest: generated IDs are always valid, and the edge values come up within
//! a bounded number of draws from fixed seeds.

use ulid_flake_core::{MAX_TIMESTAMP, UlidFlake};

const RANDOMNESS_MAX: u32 = (1 << 20) - 1;

/// The edge values a fuzzer or property test must reach, with names for failure messages.
fn edges() -> Vec<(&'static str, UlidFlake)> {
    let parts = |ms, randomness| UlidFlake::from_parts(ms, randomness).unwrap();
    vec![
        ("MIN", UlidFlake::MIN),
        ("1", parts(0, 1)),
        ("MAX", UlidFlake::MAX),
        ("MAX - 1", parts(MAX_TIMESTAMP, RANDOMNESS_MAX - 1)),
        ("last ms, randomness 0", parts(MAX_TIMESTAMP, 0)),
        ("first ms, randomness max", parts(0, RANDOMNESS_MAX)),
        ("second ms, randomness 0", parts(1, 0)),
    ]
}

/// Draws until every edge value and both randomness edges in other milliseconds have come
/// up; returns how many draws that took. Fails on an invalid value or after `limit` draws.
fn draws_until_every_edge(limit: usize, mut draw: impl FnMut() -> UlidFlake) -> usize {
    let mut missing = edges();
    let (mut randomness_zero, mut randomness_max, mut other) = (false, false, false);
    for count in 1..=limit {
        let id = draw();
        assert!(id.to_i64() >= 0 && UlidFlake::from_u64(id.to_u64()) == Ok(id));
        missing.retain(|(_, edge)| *edge != id);
        let inner_ms = id.ms_since_epoch() != 0 && id.ms_since_epoch() != MAX_TIMESTAMP;
        randomness_zero |= inner_ms && id.randomness() == 0;
        randomness_max |= inner_ms && id.randomness() == RANDOMNESS_MAX;
        other |= !edges().iter().any(|(_, edge)| *edge == id);
        if missing.is_empty() && randomness_zero && randomness_max && other {
            return count;
        }
    }
    panic!(
        "after {limit} draws, never drew {:?} (randomness 0: {randomness_zero}, max: {randomness_max})",
        missing.iter().map(|(name, _)| name).collect::<Vec<_>>()
    );
}

#[cfg(feature = "arbitrary")]
mod arbitrary {
    use ::arbitrary::{Arbitrary, Unstructured};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use ulid_flake_core::{Id, UlidFlake};

    use super::draws_until_every_edge;

    /// Fuzz input: `len` bytes from a fixed seed.
    fn input(seed: u64, len: usize) -> Vec<u8> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut bytes = vec![0; len];
        rng.fill_bytes(&mut bytes);
        bytes
    }

    #[test]
    fn arbitrary_ids_are_valid_and_reach_every_edge() {
        for seed in 0..4 {
            let bytes = input(seed, 64 * 1024);
            let mut u = Unstructured::new(&bytes);
            let count = draws_until_every_edge(2_000, || UlidFlake::arbitrary(&mut u).unwrap());
            assert!(count <= 2_000, "seed {seed}: {count} draws");
        }
        // Exhausted input still yields valid IDs, never an error.
        let mut u = Unstructured::new(&[0x80, 0xFF]);
        for _ in 0..4 {
            assert!(UlidFlake::arbitrary(&mut u).unwrap() <= UlidFlake::MAX);
        }
    }

    #[test]
    fn arbitrary_maps_selector_bytes_to_exact_values() {
        let id = |bytes: &[u8]| UlidFlake::arbitrary(&mut Unstructured::new(bytes)).unwrap();
        assert_eq!(id(&[]), UlidFlake::MIN);
        assert_eq!(id(&[0, 1]), UlidFlake::from_u64(1).unwrap());
        assert_eq!(id(&[0, 7]), UlidFlake::MAX);
        // Randomness all ones in millisecond 5.
        assert_eq!(
            id(&[32, 5, 0, 0, 0, 0, 0, 0, 0, 1]),
            UlidFlake::from_parts(5, (1 << 20) - 1).unwrap()
        );
        // The last millisecond, randomness 3.
        assert_eq!(
            id(&[64, 1, 3, 0, 0, 0]),
            UlidFlake::from_parts(super::MAX_TIMESTAMP, 3).unwrap()
        );
        assert_eq!(id(&[255; 9]), UlidFlake::MAX);
        assert_eq!(UlidFlake::size_hint(0), (1, Some(10)));

        struct User;
        let typed = Id::<User>::arbitrary(&mut Unstructured::new(&[0, 7])).unwrap();
        assert_eq!(typed, Id::MAX);
    }
}

#[cfg(feature = "proptest")]
mod proptest {
    use ::proptest::prelude::*;
    use ::proptest::strategy::ValueTree;
    use ::proptest::test_runner::TestRunner;
    use ulid_flake_core::proptest::{any_id, any_ulid_flake};
    use ulid_flake_core::{Id, UlidFlake};

    use super::draws_until_every_edge;

    #[test]
    fn proptest_ids_are_valid_and_reach_every_edge() {
        let mut runner = TestRunner::deterministic();
        let strategy = any_ulid_flake();
        let count =
            draws_until_every_edge(2_000, || strategy.new_tree(&mut runner).unwrap().current());
        assert!(count <= 2_000);

        let mut runner = TestRunner::deterministic();
        let strategy = any::<UlidFlake>();
        draws_until_every_edge(2_000, || strategy.new_tree(&mut runner).unwrap().current());

        struct User;
        let mut runner = TestRunner::deterministic();
        let strategy = any_id::<User>();
        draws_until_every_edge(2_000, || {
            strategy
                .new_tree(&mut runner)
                .unwrap()
                .current()
                .to_ulid_flake()
        });
        let mut runner = TestRunner::deterministic();
        let strategy = any::<Id<User>>();
        draws_until_every_edge(2_000, || {
            strategy
                .new_tree(&mut runner)
                .unwrap()
                .current()
                .to_ulid_flake()
        });
    }

    proptest! {
        #[test]
        fn proptest_ids_round_trip_through_text(id in any_ulid_flake()) {
            prop_assert_eq!(id.to_string().parse::<UlidFlake>(), Ok(id));
            prop_assert_eq!(UlidFlake::from_i64(id.to_i64()), Ok(id));
        }
    }
}
