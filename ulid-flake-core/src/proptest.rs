//! proptest strategies for IDs (feature `proptest`): any valid ID, the edge values (`MIN`,
//! `MAX`, the first and last milliseconds, randomness 0 and all ones) drawn often. Every ID
//! type (`UlidFlake`, `Id<T>`, `PrefixedId<T>`, `newtype!` keys) also implements
//! `proptest::arbitrary::Arbitrary` with the same strategies.
//!
//! ```
//! use proptest::prelude::*;
//! use ulid_flake_core::proptest::any_ulid_flake;
//!
//! proptest!(|(a in any_ulid_flake(), b in any_ulid_flake())| {
//!     prop_assert_eq!(a.cmp(&b), a.to_i64().cmp(&b.to_i64()));
//! });
//! ```

pub use crate::external::proptest_support::{any_id, any_ulid_flake};
