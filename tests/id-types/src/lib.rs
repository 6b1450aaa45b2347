//! The ID types of the integration table, defined by a crate that depends on `ulid-flake-core`
//! alone (with every integration's feature on): the two `newtype!` keys must get every
//! integration without this crate naming sqlx, Diesel, SeaORM, async-graphql or any other.

use ulid_flake_core::Prefix;

/// The entity of `Id<User>` and `PrefixedId<User>`.
pub struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

ulid_flake_core::newtype! {
    /// A key of the user's own, without a prefix.
    pub struct UserKey;
}

ulid_flake_core::newtype! {
    /// A key of the user's own, with a prefix.
    pub struct OrderKey;
    prefix = "order";
}

ulid_flake_core::newtype! {
    /// A key named as the integrations' own types are (`sea_orm::Value`,
    /// `async_graphql::Value`): the impls must name theirs by full path, or this one is
    /// shadowed.
    pub struct Value;
}
