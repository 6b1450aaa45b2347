//! async-graphql: IDs are custom scalars, strings in and out — the same text as serde's JSON,
//! never a number (IDs exceed 2^53, which a JavaScript client cannot hold).
//!
//! `UlidFlake`, every `Id<T>` and every unprefixed `newtype!` key are one scalar, `UlidFlake`,
//! as in the OpenAPI and JSON Schema documents: the entity is a Rust-side check, and GraphQL
//! schemas name types, not type parameters. A prefixed type (`PrefixedId<T>`, a prefixed key)
//! is a scalar of its own per prefix, `PrefixedId_user`, since its text differs.
//!
//! The impls come from async-graphql's own `#[Scalar]`, told to reach async-graphql through
//! this crate, so a crate that calls `newtype!` needs no dependency on async-graphql.
//!
//! A bad input is an `InputValueError` (a GraphQL error in the response, never a panic) whose
//! message is the core's [`Error`](crate::Error)'s — what was expected, what was found — or,
//! for a value that is not a string, says so.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;

use async_graphql::{InputType, InputValueError, InputValueResult, Value};

use crate::id_type::{self, IdType};
use crate::layout::MAX_PREFIXED_LEN;

/// The scalar's name: `UlidFlake` for every unprefixed type, `PrefixedId_{prefix}` for a
/// prefixed one.
pub fn type_name<I: IdType>() -> Cow<'static, str> {
    match I::PREFIX {
        None => Cow::Borrowed("UlidFlake"),
        Some(prefix) => Cow::Owned(format!("PrefixedId_{prefix}")),
    }
}

/// The scalar's description.
pub fn description<I: IdType>() -> &'static str {
    match I::PREFIX {
        None => {
            "A Ulid-Flake: a time-sortable 64-bit ID as 13 Crockford Base32 characters (either \
             case accepted). A string, not a number: IDs exceed 2^53."
        }
        Some(_) => {
            "A prefixed Ulid-Flake: the entity's prefix, `_`, then a time-sortable 64-bit ID as \
             13 Crockford Base32 characters (either case accepted). A string, not a number."
        }
    }
}

/// Reads the ID's text from a GraphQL string; anything else is an error that says what was
/// expected and what was found.
pub fn parse<I: IdType + InputType>(value: Value) -> InputValueResult<I> {
    match value {
        Value::String(text) => {
            id_type::parse_text(text.as_bytes()).map_err(InputValueError::custom)
        }
        other => Err(InputValueError::custom(match I::PREFIX {
            None => format!("expected a string of 13 Crockford Base32 characters, found {other}"),
            Some(prefix) => format!(
                "expected a string of `{prefix}_` and 13 Crockford Base32 characters, found {other}"
            ),
        })),
    }
}

/// The ID's text as a GraphQL string.
pub fn to_value<I: IdType>(id: I) -> Value {
    Value::String(String::from(id_type::encode(
        id,
        &mut [0; MAX_PREFIXED_LEN],
    )))
}

/// Implements async-graphql's `ScalarType`, `TypeName`, `Description`, `InputType` and `OutputType` for an ID
/// type, through async-graphql's own `#[Scalar]`, told to find async-graphql through this
/// crate: a crate that calls `newtype!` needs no dependency on async-graphql. Not public
/// API: the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_async_graphql7 {
    (["async-graphql7" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_async_graphql7!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        const _: () = {

            impl<$($generics)*> $crate::__private::async_graphql::TypeName for $ty {
                fn type_name() -> $crate::__private::Cow<'static, str> {
                    $crate::__private::async_graphql7_support::type_name::<Self>()
                }
            }

            impl<$($generics)*> $crate::__private::async_graphql::Description for $ty {
                fn description() -> &'static str {
                    $crate::__private::async_graphql7_support::description::<Self>()
                }
            }

            #[$crate::__private::async_graphql::Scalar(
                crate = $crate::__private::async_graphql,
                name_type,
                use_type_description
            )]
            impl<$($generics)*> $crate::__private::async_graphql::ScalarType for $ty {
                fn parse(value: $crate::__private::async_graphql::Value) -> $crate::__private::async_graphql::InputValueResult<Self> {
                    $crate::__private::async_graphql7_support::parse(value)
                }

                fn to_value(&self) -> $crate::__private::async_graphql::Value {
                    $crate::__private::async_graphql7_support::to_value(*self)
                }
            }
        };
    };
}
