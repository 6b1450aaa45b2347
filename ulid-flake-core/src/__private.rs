//! Re-exports for this crate's macros, so that they work in crates that do not name these
//! dependencies. Not public API.

pub use crate::macros::LiteralError;
#[cfg(feature = "alloc")]
pub use alloc::borrow::Cow;
#[cfg(feature = "sea-orm2")]
pub use alloc::{string::String, vec::Vec};
#[cfg(feature = "diesel2")]
pub use diesel;
#[cfg(feature = "schemars1")]
pub use schemars;
#[cfg(feature = "sea-orm2")]
pub use sea_orm;
#[cfg(feature = "serde")]
pub use serde;
#[cfg(feature = "sqlx09")]
pub use sqlx;
#[cfg(feature = "utoipa5")]
pub use utoipa;
