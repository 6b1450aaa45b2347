//! schemars: IDs in JSON Schemas, as the 13-character strings JSON carries.
//!
//! [`UlidFlake`] and every `Id<T>` have one schema, under one name and id, so a document
//! defines it once (`$defs/UlidFlake`) and every ID field refers to it; `T` needs no
//! `JsonSchema`. It describes serde's human-readable form: a field pinned to the integer
//! with `#[serde(with = "ulid_flake_core::serde::integer")]` needs `#[schemars(with = "u64")]`.

use alloc::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::schema_text::{DESCRIPTION, EXAMPLE, NAME, PATTERN};
use crate::external::schema_text::prefixed;
use crate::id::Id;
use crate::layout::ENCODED_LEN;
use crate::prefixed::{Prefix, PrefixedId};
use crate::ulid_flake::UlidFlake;

/// The schema's id: the same for every `Id<T>` and `UlidFlake`, which share one schema.
const ID: &str = "ulid_flake_core::UlidFlake";

fn text_schema() -> Schema {
    json_schema!({
        "type": "string",
        "minLength": ENCODED_LEN,
        "maxLength": ENCODED_LEN,
        "pattern": PATTERN,
        "description": DESCRIPTION,
        "examples": [EXAMPLE],
    })
}

impl JsonSchema for UlidFlake {
    /// `UlidFlake`.
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(NAME)
    }

    /// `ulid_flake_core::UlidFlake`.
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed(ID)
    }

    /// A 13-character string with its pattern and an example.
    ///
    /// ```
    /// let schema = schemars::schema_for!(ulid_flake_core::UlidFlake);
    /// assert_eq!(schema.get("pattern").unwrap(), "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$");
    /// assert_eq!(schema.get("maxLength").unwrap(), 13);
    /// ```
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        text_schema()
    }
}

impl<T: ?Sized> JsonSchema for Id<T> {
    /// `UlidFlake`, whatever `T` is.
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(NAME)
    }

    /// The id of [`UlidFlake`]'s schema, so that every `Id<T>` shares its definition.
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed(ID)
    }

    /// The schema of [`UlidFlake`]: the entity never reaches the wire.
    ///
    /// ```
    /// use ulid_flake_core::Id;
    ///
    /// #[derive(schemars::JsonSchema)]
    /// struct User {
    ///     id: Id<User>,
    /// }
    ///
    /// let schema = schemars::schema_for!(User);
    /// assert_eq!(schema.get("properties").unwrap()["id"]["$ref"], "#/$defs/UlidFlake");
    /// assert_eq!(schema.get("$defs").unwrap()["UlidFlake"]["minLength"], 13);
    /// ```
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        text_schema()
    }
}

impl<T: Prefix + ?Sized> JsonSchema for PrefixedId<T> {
    /// `PrefixedId_{prefix}` (`PrefixedId_user`): one definition per prefix, since the
    /// schemas differ.
    fn schema_name() -> Cow<'static, str> {
        Cow::Owned(alloc::format!("PrefixedId_{}", Self::PREFIX))
    }

    /// `ulid_flake_core::PrefixedId_{prefix}`.
    fn schema_id() -> Cow<'static, str> {
        Cow::Owned(alloc::format!(
            "ulid_flake_core::PrefixedId_{}",
            Self::PREFIX
        ))
    }

    /// A string of exactly the prefixed length, with the prefix in its pattern and example.
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let schema = schemars::schema_for!(PrefixedId<User>);
    /// assert_eq!(schema.get("pattern").unwrap(), "^user_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$");
    /// assert_eq!(schema.get("examples").unwrap()[0], "user_00CMXB6TAK4SA");
    /// ```
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let prefix = Self::PREFIX;
        json_schema!({
            "type": "string",
            "minLength": prefixed::length(prefix),
            "maxLength": prefixed::length(prefix),
            "pattern": prefixed::pattern(prefix),
            "description": prefixed::description(prefix),
            "examples": [prefixed::example(prefix)],
        })
    }
}
