//! Integrations with other crates, each behind a feature named after the crate (with its major
//! where the feature is versioned: the policy in the crate docs); and what several of them share.

#[cfg(feature = "arbitrary")]
mod arbitrary_support;
#[cfg(feature = "async-graphql7")]
mod async_graphql7_support;
#[cfg(feature = "chrono04")]
mod chrono04_support;
#[cfg(feature = "diesel2")]
pub(crate) mod diesel2_support;
#[cfg(feature = "jiff02")]
mod jiff02_support;
#[cfg(feature = "postgres-types02")]
mod postgres_types02_support;
#[cfg(feature = "proptest")]
pub(crate) mod proptest_support;
#[cfg(feature = "rand010")]
pub(crate) mod rand010_support;
#[cfg(feature = "rusqlite")]
mod rusqlite_support;
#[cfg(feature = "schemars1")]
mod schemars1_support;
#[cfg(feature = "sea-orm2")]
mod sea_orm2_support;
#[cfg(feature = "serde")]
pub(crate) mod serde_support;
#[cfg(feature = "sqlx09")]
mod sqlx09_support;
#[cfg(feature = "time03")]
mod time03_support;
#[cfg(feature = "utoipa5")]
mod utoipa5_support;
#[cfg(feature = "uuid")]
mod uuid_support;

// What several integrations share.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
mod edges;
mod newtype_features;
#[cfg(any(feature = "utoipa5", feature = "schemars1"))]
pub(crate) mod schema_text;
#[cfg(any(
    feature = "postgres-types02",
    feature = "rusqlite",
    feature = "async-graphql7"
))]
pub(crate) mod text_form;
