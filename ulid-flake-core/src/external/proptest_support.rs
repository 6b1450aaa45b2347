//! proptest strategies for IDs, for property tests of code that carries them.

use core::fmt;

use proptest::prelude::{Strategy, any, prop_oneof};
use proptest::sample::select;
use proptest::strategy::BoxedStrategy;

use super::edges;
use crate::id::Id;
use crate::id_type::IdType;
use crate::layout::MAX_TIMESTAMP;
use crate::ulid_flake::UlidFlake;

/// Any valid [`UlidFlake`] (`0..=i64::MAX`), the edge values drawn often: one draw in eight
/// is one of `MIN`, `1`, `MAX`, `MAX - 1` or an end of the first or last millisecond; one in
/// eight has randomness 0 or all ones; one in eight falls in the first or last millisecond;
/// the rest are uniform. Shrinks towards smaller IDs. [`any::<UlidFlake>()`](any) is the same
/// strategy.
///
/// ```
/// use proptest::prelude::*;
/// use ulid_flake_core::proptest::any_ulid_flake;
///
/// proptest!(|(id in any_ulid_flake())| {
///     prop_assert!(id.to_i64() >= 0);
///     prop_assert_eq!(id.to_string().parse(), Ok(id));
/// });
/// ```
pub fn any_ulid_flake() -> impl Strategy<Value = UlidFlake> + Clone {
    prop_oneof![
        1 => select(&edges::VALUES[..]),
        1 => (0..=MAX_TIMESTAMP, any::<bool>())
            .prop_map(|(ms, max)| edges::with_edge_randomness(ms, max)),
        1 => (any::<bool>(), any::<u32>())
            .prop_map(|(last, randomness)| edges::at_edge_timestamp(last, randomness)),
        5 => (0..=i64::MAX as u64).prop_map(UlidFlake::from_raw),
    ]
}

/// Any valid [`Id<T>`], as [`any_ulid_flake`] draws them.
///
/// ```
/// use proptest::prelude::*;
/// use ulid_flake_core::{Id, proptest::any_id};
///
/// struct User;
/// proptest!(|(id in any_id::<User>())| {
///     prop_assert_eq!(Id::<User>::from_i64(id.to_i64()), Ok(id));
/// });
/// ```
pub fn any_id<T: ?Sized>() -> impl Strategy<Value = Id<T>> + Clone {
    any_ulid_flake().prop_map(Id::from_ulid_flake)
}

/// [`any_ulid_flake`] as an ID type, boxed: every ID type's `proptest::arbitrary::Arbitrary`,
/// so that `any::<UlidFlake>()`, `any::<Id<T>>()` and `#[proptest]` arguments work.
///
/// ```
/// use proptest::prelude::*;
/// use ulid_flake_core::{Id, UlidFlake};
///
/// struct Post;
/// proptest!(|(a in any::<UlidFlake>(), b in any::<Id<Post>>())| {
///     prop_assert!(a <= UlidFlake::MAX && b <= Id::MAX);
/// });
/// ```
pub fn boxed<I: IdType + fmt::Debug + 'static>() -> BoxedStrategy<I> {
    any_ulid_flake().prop_map(I::from_ulid_flake).boxed()
}

/// Implements `proptest::arbitrary::Arbitrary` for an ID type, as [`boxed`]. Not public API:
/// the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_proptest {
    (["proptest" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_proptest!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $crate::__private::proptest::arbitrary::Arbitrary for $ty
        where
            Self: 'static,
        {
            type Parameters = ();
            type Strategy = $crate::__private::proptest::strategy::BoxedStrategy<Self>;

            fn arbitrary_with((): ()) -> Self::Strategy {
                $crate::__private::proptest_support::boxed()
            }
        }
    };
}
