//! Integrations with other crates, each behind a feature named after the crate.

#[cfg(feature = "diesel")]
mod diesel_support;
#[cfg(feature = "serde")]
pub(crate) mod serde_support;
#[cfg(feature = "sqlx")]
mod sqlx_support;
#[cfg(feature = "utoipa")]
mod utoipa_support;
#[cfg(feature = "uuid")]
mod uuid_support;
