use arbitrary::{Arbitrary, Unstructured};

use super::*;

/// The empty input is the smallest ID, the selector for the edge values then 7 the largest,
/// and a selector for any ID reads the next 8 bytes (little-endian) as its bits, shifted
/// into range.
macro_rules! cell {
    ($ty:ty, $id:expr, $text:literal) => {{
        let min = <$ty as Arbitrary>::arbitrary(&mut Unstructured::new(&[])).unwrap();
        let max = <$ty as Arbitrary>::arbitrary(&mut Unstructured::new(&[0, 7])).unwrap();
        assert_eq!((min.to_u64(), max.to_u64()), (0, i64::MAX as u64));
        // Any valid ID from the rest: all ones, shifted into range, is the largest.
        let any = <$ty as Arbitrary>::arbitrary(&mut Unstructured::new(&[255; 9])).unwrap();
        assert_eq!(any.to_i64(), i64::MAX);
        let any = <$ty as Arbitrary>::arbitrary(&mut Unstructured::new(&[96, 2, 0, 0, 0, 0, 0, 0, 0]))
            .unwrap();
        assert_eq!(any.to_u64(), 1);
    }};
}

#[test]
fn every_id_type_draws_valid_ids_and_the_edges() {
    each_id_type!(cell);
}
