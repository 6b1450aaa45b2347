//! `arbitrary::Arbitrary`, for fuzzing code that carries IDs.

use arbitrary::{Arbitrary, Result, Unstructured};

use super::edges;
use crate::id::Id;
use crate::ulid_flake::UlidFlake;

/// Always a valid ID (`0..=i64::MAX`); fuzz input is spent on edges first: a selector byte
/// picks one of the edge values (`MIN`, `1`, `MAX`, `MAX - 1`, both ends of the first and last
/// milliseconds) an eighth of the time, an ID with randomness 0 or all ones another eighth,
/// an ID of the first or last millisecond another, and any valid ID otherwise. The empty
/// input gives [`UlidFlake::MIN`].
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
impl<'a> Arbitrary<'a> for UlidFlake {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u8::arbitrary(u)? >> 5 {
            0 => *u.choose(&edges::VALUES)?,
            1 => edges::with_edge_randomness(u64::arbitrary(u)?, bool::arbitrary(u)?),
            2 => edges::at_edge_timestamp(bool::arbitrary(u)?, u32::arbitrary(u)?),
            _ => edges::from_bits(u64::arbitrary(u)?),
        })
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        // The selector, then at most a `u64` and a `bool`.
        (1, Some(10))
    }
}

/// As for [`UlidFlake`]: always valid, edge values often.
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// use ulid_flake_core::Id;
///
/// struct User;
/// assert_eq!(Id::<User>::arbitrary(&mut Unstructured::new(&[0, 7]))?, Id::MAX);
/// # Ok::<(), arbitrary::Error>(())
/// ```
impl<'a, T: ?Sized> Arbitrary<'a> for Id<T> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        UlidFlake::arbitrary(u).map(Self::from_ulid_flake)
    }

    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        UlidFlake::size_hint(depth)
    }
}
