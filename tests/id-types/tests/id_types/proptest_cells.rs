use std::fmt::Debug;
use std::str::FromStr;

use proptest::arbitrary::Arbitrary;
use proptest::prelude::any;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::*;

/// Draws IDs of the type: each one's text reads back as the same ID, and the edges come up
/// (the strategy draws one in eight from `MIN`, `MAX` and the other edge values). The runner
/// is seeded, so the draws are the same every run, and 2,048 of them: a random run of 256
/// would miss `MIN` or `MAX` about once in thirty.
fn check<I>(_id: I)
where
    I: Arbitrary + ToString + FromStr + PartialEq + Debug + Copy + Into<UlidFlake>,
    <I as FromStr>::Err: Debug,
{
    let drawn = std::sync::Mutex::new(Vec::new());
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    TestRunner::new_with_rng(Config::with_cases(2_048), rng)
        .run(&any::<I>(), |id| {
            assert_eq!(id.to_string().parse::<I>().unwrap(), id);
            drawn.lock().unwrap().push(id.into());
            Ok(())
        })
        .unwrap();
    let drawn = drawn.into_inner().unwrap();
    assert!(drawn.contains(&UlidFlake::MIN) && drawn.contains(&UlidFlake::MAX));
}

macro_rules! cell {
    ($ty:ty, $id:expr, $text:literal) => {
        check($id)
    };
}

#[test]
fn every_id_type_draws_valid_ids_whose_text_reads_back() {
    each_id_type!(cell);
}
