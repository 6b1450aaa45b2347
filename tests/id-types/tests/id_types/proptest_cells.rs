use std::fmt::Debug;
use std::str::FromStr;

use proptest::arbitrary::Arbitrary;
use proptest::prelude::any;
use proptest::test_runner::TestRunner;

use super::*;

/// Draws IDs of the type: every one valid, and its text read back as the same ID.
fn check<I>(_id: I)
where
    I: Arbitrary + ToString + FromStr + PartialEq + Debug + Copy + Into<UlidFlake>,
    <I as FromStr>::Err: Debug,
{
    TestRunner::default()
        .run(&any::<I>(), |id| {
            assert!(id.into().to_i64() >= 0);
            assert_eq!(id.to_string().parse::<I>().unwrap(), id);
            Ok(())
        })
        .unwrap();
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
