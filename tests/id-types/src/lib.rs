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
