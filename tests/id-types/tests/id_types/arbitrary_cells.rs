use arbitrary::{Arbitrary, Unstructured};

use super::*;

/// The empty input is the smallest ID, the selector for the edge values then 7 the largest.
macro_rules! cell {
    ($ty:ty, $id:expr, $text:literal) => {{
        let min = <$ty as Arbitrary>::arbitrary(&mut Unstructured::new(&[])).unwrap();
        let max = <$ty as Arbitrary>::arbitrary(&mut Unstructured::new(&[0, 7])).unwrap();
        assert_eq!((min.to_u64(), max.to_u64()), (0, i64::MAX as u64));
        let any = <$ty as Arbitrary>::arbitrary(&mut Unstructured::new(&[255; 9])).unwrap();
        assert!(any.to_i64() >= 0);
    }};
}

#[test]
fn every_id_type_draws_valid_ids_and_the_edges() {
    each_id_type!(cell);
}
