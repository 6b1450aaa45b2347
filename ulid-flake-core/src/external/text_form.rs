//! The two forms of an ID that the SQL and GraphQL integrations (postgres-types, rusqlite,
//! async-graphql) convert between, for [`UlidFlake`](crate::UlidFlake), [`Id<T>`](crate::Id)
//! and [`PrefixedId<T>`](crate::PrefixedId) alike: the integer of a `BIGINT` column, and the
//! type's own text (`Display`/`FromStr`: 13 characters, with `T`'s prefix and `_` before them
//! for a `PrefixedId<T>`).

use crate::error::Error;
use crate::id::Id;
use crate::layout::ENCODED_LEN;
use crate::prefixed::{Prefix, PrefixedId};
use crate::ulid_flake::UlidFlake;

/// An ID type's integer and text forms.
pub(crate) trait TextForm: Copy {
    /// The ID of a `BIGINT`; a negative value is an [`Error::OutOfRange`].
    #[cfg_attr(
        not(any(feature = "postgres-types02", feature = "rusqlite")),
        allow(dead_code, reason = "GraphQL carries the text only")
    )]
    fn from_i64(value: i64) -> Result<Self, Error>;

    /// The `BIGINT` of the ID.
    #[cfg_attr(
        not(any(feature = "postgres-types02", feature = "rusqlite")),
        allow(dead_code, reason = "GraphQL carries the text only")
    )]
    fn to_i64(self) -> i64;

    /// The ID of its text, as `FromStr` reads it.
    fn parse_text(text: &[u8]) -> Result<Self, Error>;

    /// Calls `f` with the ID's text, as `Display` writes it, without allocating.
    #[cfg_attr(
        not(any(feature = "postgres-types02", feature = "async-graphql7")),
        allow(dead_code, reason = "rusqlite writes the integer only")
    )]
    fn with_text<R>(self, f: impl FnOnce(&str) -> R) -> R;
}

/// One impl per ID type: each has these four as inherent methods; only its text's
/// longest length differs.
macro_rules! text_form {
    ($([$($generics:tt)*] $ty:ty, $text_len:expr;)*) => {$(
        impl<$($generics)*> TextForm for $ty {
            fn from_i64(value: i64) -> Result<Self, Error> {
                Self::from_i64(value)
            }

            fn to_i64(self) -> i64 {
                self.to_i64()
            }

            fn parse_text(text: &[u8]) -> Result<Self, Error> {
                Self::parse_ascii(text)
            }

            fn with_text<R>(self, f: impl FnOnce(&str) -> R) -> R {
                f(self.encode(&mut [0; $text_len]))
            }
        }
    )*};
}

text_form! {
    [] UlidFlake, ENCODED_LEN;
    [T: ?Sized] Id<T>, ENCODED_LEN;
    [T: Prefix + ?Sized] PrefixedId<T>, crate::prefixed::MAX_PREFIXED_LEN;
}
