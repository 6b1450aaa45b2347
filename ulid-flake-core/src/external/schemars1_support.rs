//! schemars: IDs in JSON Schemas, as the 13-character strings JSON carries.
//!
//! [`UlidFlake`](crate::UlidFlake), every `Id<T>` and every unprefixed `newtype!` key have one
//! schema, under one name and id, so a document defines it once (`$defs/UlidFlake`) and every
//! ID field refers to it; `T` needs no `JsonSchema`. A prefixed type has a definition per
//! prefix (`PrefixedId_user`), shared by a `PrefixedId<User>` and a key with the same prefix.
//! The schemas describe serde's human-readable form: a field pinned to the integer with
//! `#[serde(with = "ulid_flake_core::serde::integer")]` needs `#[schemars(with = "u64")]`.

use alloc::borrow::Cow;
use alloc::format;

use schemars::{Schema, json_schema};

use super::schema_text::{DESCRIPTION, EXAMPLE, NAME, PATTERN, prefixed};
use crate::id_type::IdType;
use crate::layout::ENCODED_LEN;

/// The schema of an ID type's text, as the module docs say.
pub fn json_schema<I: IdType>() -> Schema {
    match I::PREFIX {
        None => json_schema!({
            "type": "string",
            "minLength": ENCODED_LEN,
            "maxLength": ENCODED_LEN,
            "pattern": PATTERN,
            "description": DESCRIPTION,
            "examples": [EXAMPLE],
        }),
        Some(prefix) => json_schema!({
            "type": "string",
            "minLength": prefixed::length(prefix),
            "maxLength": prefixed::length(prefix),
            "pattern": prefixed::pattern(prefix),
            "description": prefixed::description(prefix),
            "examples": [prefixed::example(prefix)],
        }),
    }
}

/// The schema's name: `UlidFlake`, or `PrefixedId_{prefix}` for a prefixed type.
pub fn schema_name<I: IdType>() -> Cow<'static, str> {
    match I::PREFIX {
        None => Cow::Borrowed(NAME),
        Some(prefix) => Cow::Owned(format!("PrefixedId_{prefix}")),
    }
}

/// The schema's id, which schemars compares to share one definition between types.
pub fn schema_id<I: IdType>() -> Cow<'static, str> {
    Cow::Owned(format!("ulid_flake_core::{}", schema_name::<I>()))
}

/// Implements schemars' `JsonSchema` for an ID type, as [`json_schema`], [`schema_name`]
/// and [`schema_id`]. Not public API: the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_schemars1 {
    (["schemars1" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_schemars1!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $crate::__private::schemars::JsonSchema for $ty {
            fn schema_name() -> $crate::__private::Cow<'static, str> {
                $crate::__private::schemars1_support::schema_name::<Self>()
            }

            fn schema_id() -> $crate::__private::Cow<'static, str> {
                $crate::__private::schemars1_support::schema_id::<Self>()
            }

            fn json_schema(
                _: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::schemars1_support::json_schema::<Self>()
            }
        }
    };
}
