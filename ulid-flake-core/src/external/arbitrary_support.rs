//! `arbitrary::Arbitrary`, for fuzzing code that carries IDs.

use arbitrary::{Arbitrary, Result, Unstructured};

use super::edges;
use crate::id_type::IdType;

/// Always a valid ID (`0..=i64::MAX`); fuzz input is spent on edges first: a selector byte
/// picks one of the edge values (`MIN`, `1`, `MAX`, `MAX - 1`, both ends of the first and last
/// milliseconds) an eighth of the time, an ID with randomness 0 or all ones another eighth,
/// an ID of the first or last millisecond another, and any valid ID otherwise. The empty
/// input gives [`UlidFlake::MIN`](crate::UlidFlake::MIN).
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// use ulid_flake_core::UlidFlake;
///
/// assert_eq!(UlidFlake::arbitrary(&mut Unstructured::new(&[]))?, UlidFlake::MIN);
/// assert_eq!(UlidFlake::arbitrary(&mut Unstructured::new(&[0, 7]))?, UlidFlake::MAX);
/// let any = UlidFlake::arbitrary(&mut Unstructured::new(&[255; 9]))?;
/// assert_eq!(any, UlidFlake::MAX);
/// # Ok::<(), arbitrary::Error>(())
/// ```
pub fn arbitrary<I: IdType>(u: &mut Unstructured<'_>) -> Result<I> {
    Ok(I::from_ulid_flake(match u8::arbitrary(u)? >> 5 {
        0 => *u.choose(&edges::VALUES)?,
        1 => edges::with_edge_randomness(u64::arbitrary(u)?, bool::arbitrary(u)?),
        2 => edges::at_edge_timestamp(bool::arbitrary(u)?, u32::arbitrary(u)?),
        _ => edges::from_bits(u64::arbitrary(u)?),
    }))
}

/// [`arbitrary`]'s size hint: the selector, then at most a `u64` and a `bool`.
pub const SIZE_HINT: (usize, Option<usize>) = (1, Some(10));

/// Implements `arbitrary::Arbitrary` for an ID type, as [`arbitrary`]. Not public API: the
/// list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_arbitrary {
    (["arbitrary" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_arbitrary!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        impl<'a, $($generics)*> $crate::__private::arbitrary::Arbitrary<'a> for $ty {
            fn arbitrary(
                u: &mut $crate::__private::arbitrary::Unstructured<'a>,
            ) -> $crate::__private::arbitrary::Result<Self> {
                $crate::__private::arbitrary_support::arbitrary(u)
            }

            fn size_hint(_depth: usize) -> (usize, ::core::option::Option<usize>) {
                $crate::__private::arbitrary_support::SIZE_HINT
            }
        }
    };
}
