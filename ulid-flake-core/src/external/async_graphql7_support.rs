//! async-graphql: IDs are custom scalars, strings in and out — the same text as serde's JSON,
//! never a number (IDs exceed 2^53, which a JavaScript client cannot hold).
//!
//! `UlidFlake` and every `Id<T>` are one scalar, `UlidFlake`, as in the OpenAPI and JSON
//! Schema documents: the entity is a Rust-side check, and GraphQL schemas name types, not type
//! parameters. A `PrefixedId<T>` is a scalar of its own per prefix, `PrefixedId_user`, since
//! its text differs.
//!
//! A bad input is an `InputValueError` (a GraphQL error in the response, never a panic) whose
//! message is the core's [`Error`](crate::Error)'s — what was expected, what was found — or,
//! for a value that is not a string, says so.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;

use async_graphql::{InputValueError, InputValueResult, Scalar, ScalarType, TypeName, Value};

use crate::external::text_form::TextForm;
use crate::id::Id;
use crate::prefixed::{Prefix, PrefixedId};
use crate::ulid_flake::UlidFlake;

/// Reads a GraphQL input: a string holding the type's text.
fn parse<V: TextForm + async_graphql::InputType>(
    value: Value,
    expected: &str,
) -> InputValueResult<V> {
    match value {
        Value::String(text) => V::parse_text(text.as_bytes()).map_err(InputValueError::custom),
        other => Err(InputValueError::custom(format!(
            "expected a string of {expected}, found {other}"
        ))),
    }
}

/// What the `UlidFlake` scalar holds.
const EXPECTED: &str = "13 Crockford Base32 characters";

/// A Ulid-Flake: a time-sortable 64-bit ID as 13 Crockford Base32 characters (either case
/// accepted). A string, not a number: IDs exceed 2^53.
#[Scalar(name = "UlidFlake")]
impl ScalarType for UlidFlake {
    fn parse(value: Value) -> InputValueResult<Self> {
        parse(value, EXPECTED)
    }

    fn to_value(&self) -> Value {
        Value::String(self.with_text(|text| String::from(text)))
    }
}

/// A Ulid-Flake: a time-sortable 64-bit ID as 13 Crockford Base32 characters (either case
/// accepted). A string, not a number: IDs exceed 2^53.
#[Scalar(name = "UlidFlake")]
impl<T: ?Sized> ScalarType for Id<T> {
    fn parse(value: Value) -> InputValueResult<Self> {
        parse(value, EXPECTED)
    }

    fn to_value(&self) -> Value {
        Value::String(self.with_text(|text| String::from(text)))
    }
}

/// The scalar's name: `PrefixedId_` and the prefix, as the JSON Schema definition's.
impl<T: Prefix + ?Sized> TypeName for PrefixedId<T> {
    fn type_name() -> Cow<'static, str> {
        Cow::Owned(format!("PrefixedId_{}", Self::PREFIX))
    }
}

/// A prefixed Ulid-Flake: the entity's prefix, `_`, then a time-sortable 64-bit ID as 13
/// Crockford Base32 characters (either case accepted). A string, not a number.
#[Scalar(name_type)]
impl<T: Prefix + ?Sized> ScalarType for PrefixedId<T> {
    fn parse(value: Value) -> InputValueResult<Self> {
        parse(value, &format!("`{}_` and {EXPECTED}", Self::PREFIX))
    }

    fn to_value(&self) -> Value {
        Value::String(self.with_text(|text| String::from(text)))
    }
}
