//! serde: the canonical text for human-readable formats, the integer for binary ones.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, Unexpected, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::id_type::{self, IdType};
use crate::layout::MAX_PREFIXED_LEN;
use crate::ulid_flake::UlidFlake;

/// Serializes an ID: its text (prefixed, if its type has a prefix) in human-readable formats
/// (JSON, TOML, query strings), the `u64` in the others (bincode, CBOR, postcard).
pub fn serialize<I: IdType, S: Serializer>(id: I, serializer: S) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() {
        AsText(id).serialize(serializer)
    } else {
        AsInteger(id).serialize(serializer)
    }
}

/// Deserializes an ID: its text from human-readable formats — through `deserialize_str`, which
/// axum's `Path` and `Query` extractors support; a number is an error that says why — and the
/// integer from the others.
pub fn deserialize<'de, I: IdType, D: Deserializer<'de>>(deserializer: D) -> Result<I, D::Error> {
    if deserializer.is_human_readable() {
        AsText::deserialize(deserializer).map(|AsText(id)| id)
    } else {
        AsInteger::deserialize(deserializer).map(|AsInteger(id)| id)
    }
}

/// Implements serde's `Serialize` and `Deserialize` for an ID type, as [`serialize`] and
/// [`deserialize`]. Not public API: the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_serde {
    (["serde" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_serde!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $crate::__private::serde::Serialize for $ty {
            /// The text in human-readable formats, the integer in the others.
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::__private::serde_support::serialize(*self, serializer)
            }
        }

        impl<'de, $($generics)*> $crate::__private::serde::Deserialize<'de> for $ty {
            /// The text from human-readable formats, the integer from the others.
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::__private::serde_support::deserialize(deserializer)
            }
        }
    };
}

/// An ID serialized as its text (with its type's prefix, if any) in every format.
pub(crate) struct AsText<I>(pub(crate) I);

/// An ID serialized as its integer in every format.
pub(crate) struct AsInteger<I>(pub(crate) I);

impl<I: IdType> Serialize for AsText<I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0; MAX_PREFIXED_LEN];
        serializer.serialize_str(id_type::encode(self.0, &mut buf))
    }
}

impl<I: IdType> Serialize for AsInteger<I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.0.to_ulid_flake().to_u64())
    }
}

impl<'de, I: IdType> Deserialize<'de> for AsText<I> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_str(TextVisitor::<I>(PhantomData))
            .map(Self)
    }
}

impl<'de, I: IdType> Deserialize<'de> for AsInteger<I> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_u64(IntegerVisitor)
            .map(|value| Self(I::from_ulid_flake(value)))
    }
}

/// What an ID type's text should look like, for serde's messages.
fn expecting<I: IdType>(f: &mut fmt::Formatter<'_>) -> fmt::Result {
    // A number here is the classic mistake: a JavaScript client that parsed the ID as a
    // number has already lost precision (every ID since 2024-04-09 exceeds 2^53).
    match I::PREFIX {
        None => f.write_str(
            "a Ulid-Flake as a 13-character Crockford Base32 string (not a number: IDs exceed 2^53)",
        ),
        Some(prefix) => write!(
            f,
            "a Ulid-Flake as a string of `{prefix}_` and 13 Crockford Base32 characters \
             (not a number: IDs exceed 2^53)"
        ),
    }
}

/// Reads the text of a `V` (and rejects numbers with a message that says why).
struct TextVisitor<V>(PhantomData<fn() -> V>);

impl<V: IdType> Visitor<'_> for TextVisitor<V> {
    type Value = V;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        expecting::<V>(f)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<V, E> {
        id_type::parse_text(text.as_bytes()).map_err(E::custom)
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<V, E> {
        id_type::parse_text(bytes).map_err(E::custom)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<V, E> {
        Err(E::invalid_type(Unexpected::Unsigned(value), &self))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<V, E> {
        Err(E::invalid_type(Unexpected::Signed(value), &self))
    }
}

struct IntegerVisitor;

impl Visitor<'_> for IntegerVisitor {
    type Value = UlidFlake;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a Ulid-Flake as an integer 0..={}", i64::MAX)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<UlidFlake, E> {
        UlidFlake::from_u64(value).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<UlidFlake, E> {
        UlidFlake::from_i64(value).map_err(E::custom)
    }
}

/// Defines a `with` module that (de)serializes through `$wrapper` in every format.
macro_rules! with_module {
    ($(#[$doc:meta])* $name:ident, $wrapper:ident) => {
        $(#[$doc])*
        pub mod $name {
            use serde::{Deserialize, Deserializer, Serialize, Serializer};

            use crate::external::serde_support::$wrapper;
            use crate::id_type::IdType;

            /// Serializes an ID of any of the ID types ([`UlidFlake`](crate::UlidFlake),
            /// [`Id`](crate::Id), [`PrefixedId`](crate::PrefixedId), a `newtype!` key: the
            /// types of the crate's `IdType`, a trait that is not public API), not another
            /// integer or string type.
            ///
            /// # Errors
            ///
            /// The serializer's.
            pub fn serialize<V, S>(value: &V, serializer: S) -> Result<S::Ok, S::Error>
            where
                V: IdType,
                S: Serializer,
            {
                $wrapper(*value).serialize(serializer)
            }

            /// Deserializes an ID of any of the ID types.
            ///
            /// # Errors
            ///
            /// The deserializer's, and the parse error for a bad value.
            pub fn deserialize<'de, V, D>(deserializer: D) -> Result<V, D::Error>
            where
                V: IdType,
                D: Deserializer<'de>,
            {
                $wrapper::<V>::deserialize(deserializer).map(|wrapped| wrapped.0)
            }

            /// The same for an `Option`: `None` is the format's null. As with any `with`
            /// module, serde then requires the field; `#[serde(default)]` beside it reads a
            /// missing field as `None` (see the [module docs](crate::serde)).
            pub mod option {
                use super::*;

                /// Serializes an optional ID of any of the ID types.
                ///
                /// # Errors
                ///
                /// The serializer's.
                pub fn serialize<V, S>(value: &Option<V>, serializer: S) -> Result<S::Ok, S::Error>
                where
                    V: IdType,
                    S: Serializer,
                {
                    value.map($wrapper).serialize(serializer)
                }

                /// Deserializes an optional ID of any of the ID types.
                ///
                /// # Errors
                ///
                /// The deserializer's, and the parse error for a bad value.
                pub fn deserialize<'de, V, D>(deserializer: D) -> Result<Option<V>, D::Error>
                where
                    V: IdType,
                    D: Deserializer<'de>,
                {
                    Ok(Option::<$wrapper<V>>::deserialize(deserializer)?.map(|wrapped| wrapped.0))
                }
            }
        }
    };
}

with_module!(
    /// `#[serde(with = "ulid_flake_core::serde::text")]`: always the text, in binary
    /// formats too: the 13 characters, after the type's prefix and `_` for a prefixed ID
    /// (`text_keeps_each_id_type_s_prefix`).
    ///
    /// ```
    /// use serde::{Deserialize, Serialize};
    /// use ulid_flake_core::{Id, ulid_flake};
    ///
    /// #[derive(Serialize, Deserialize)]
    /// struct Row {
    ///     #[serde(with = "ulid_flake_core::serde::text")]
    ///     id: Id<Row>,
    ///     #[serde(with = "ulid_flake_core::serde::text::option")]
    ///     parent: Option<Id<Row>>,
    /// }
    ///
    /// let row = Row { id: ulid_flake!("00CMXB6TAK4SA").into(), parent: None };
    /// assert_eq!(serde_json::to_string(&row)?, r#"{"id":"00CMXB6TAK4SA","parent":null}"#);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    text,
    AsText
);

with_module!(
    /// `#[serde(with = "ulid_flake_core::serde::integer")]`: always the integer, in
    /// human-readable formats too — for consumers that can hold 64-bit integers exactly
    /// (not JavaScript's `number`).
    ///
    /// ```
    /// use serde::{Deserialize, Serialize};
    /// use ulid_flake_core::{UlidFlake, ulid_flake};
    ///
    /// #[derive(Serialize, Deserialize)]
    /// struct Row {
    ///     #[serde(with = "ulid_flake_core::serde::integer")]
    ///     id: UlidFlake,
    ///     #[serde(with = "ulid_flake_core::serde::integer::option")]
    ///     parent: Option<UlidFlake>,
    /// }
    ///
    /// let row = Row { id: ulid_flake!("00CMXB6TAK4SA"), parent: Some(UlidFlake::MIN) };
    /// assert_eq!(serde_json::to_string(&row)?, r#"{"id":14246757444195114,"parent":0}"#);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    integer,
    AsInteger
);
