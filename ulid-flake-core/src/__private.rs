//! What this crate's macros use, so that they work in crates that do not name these
//! dependencies. Not public API.

pub use crate::external::is_integration;
#[cfg(feature = "alloc")]
pub use crate::id_type::id_text;
pub use crate::id_type::{IdType, encode, from_i64, parse_prefixed, parse_text, to_i64};
pub use crate::macros::LiteralError;
#[cfg(feature = "alloc")]
pub use alloc::borrow::Cow;
#[cfg(feature = "alloc")]
pub use alloc::{boxed::Box, string::String, vec::Vec};

// The crates the integrations implement traits of, and each integration's generic half.
#[cfg(feature = "uuid")]
pub use uuid;
#[cfg(feature = "arbitrary")]
pub use {crate::external::arbitrary_support, arbitrary};
#[cfg(feature = "async-graphql7")]
pub use {crate::external::async_graphql7_support, async_graphql};
#[cfg(feature = "diesel2")]
pub use {crate::external::diesel2_support, diesel};
#[cfg(feature = "postgres-types02")]
pub use {crate::external::postgres_types02_support, bytes, postgres_types};
#[cfg(feature = "proptest")]
pub use {crate::external::proptest_support, proptest};
#[cfg(feature = "rusqlite")]
pub use {crate::external::rusqlite_support, rusqlite};
#[cfg(feature = "schemars1")]
pub use {crate::external::schemars1_support, schemars};
#[cfg(feature = "sea-orm2")]
pub use {crate::external::sea_orm2_support, sea_orm};
#[cfg(feature = "serde")]
pub use {crate::external::serde_support, serde};
#[cfg(feature = "sqlx09")]
pub use {crate::external::sqlx09_support, sqlx};
#[cfg(feature = "ts-rs12")]
pub use {crate::external::ts_rs12_support, ts_rs};
#[cfg(feature = "utoipa5")]
pub use {crate::external::utoipa5_support, utoipa};

// Each integration's gate: its macro, or a no-op when its feature is off.
crate::__integrations!([crate::external::gates] {});
