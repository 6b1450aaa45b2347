//! rusqlite: IDs are written as SQLite `INTEGER`s; a `TEXT` value holds the ID's text.
//!
//! SQLite keeps a value's storage class per value, not per column, so reading follows the
//! value: an `INTEGER` is the ID's integer (a negative one is an
//! [`Error::OutOfRange`](crate::Error) that names it), a `TEXT` is the type's text exactly as
//! `FromStr` reads it (13 characters in either case, after `user_` for a
//! `PrefixedId<User>`), and a `REAL` or a `BLOB` is rusqlite's `InvalidType`, as for `i64`.
//! A `TEXT` holding an integer's decimal digits is not guessed at: it is read as text, so it
//! fails (wrong length, a character out of range, or for a prefixed type no prefix) — except
//! that for an unprefixed type 13 digits starting 1-7 are valid Base32 and read as the ID of
//! that text: the digits of every ID made about 16 minutes to 2.1 hours after its epoch.

use rusqlite::types::{FromSqlError, FromSqlResult, ToSqlOutput, Value, ValueRef};

use crate::id_type::{self, IdType};

/// Reads an `INTEGER` or a `TEXT`, as the module docs say.
pub fn column_result<I: IdType>(value: ValueRef<'_>) -> FromSqlResult<I> {
    match value {
        ValueRef::Integer(integer) => id_type::from_i64(integer),
        ValueRef::Text(text) => id_type::parse_text(text),
        _ => return Err(FromSqlError::InvalidType),
    }
    .map_err(FromSqlError::other)
}

/// Writes an ID as an `INTEGER`.
pub fn to_sql<I: IdType>(id: I) -> ToSqlOutput<'static> {
    ToSqlOutput::Owned(Value::Integer(id_type::to_i64(id)))
}

/// Implements rusqlite's `ToSql` and `FromSql` for an ID type, as [`to_sql`] and
/// [`column_result`]. Not public API: the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_rusqlite {
    (["rusqlite" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_rusqlite!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        const _: () = {

            impl<$($generics)*> $crate::__private::rusqlite::types::ToSql for $ty {
                fn to_sql(&self) -> $crate::__private::rusqlite::Result<$crate::__private::rusqlite::types::ToSqlOutput<'_>> {
                    ::core::result::Result::Ok($crate::__private::rusqlite_support::to_sql(*self))
                }
            }

            impl<$($generics)*> $crate::__private::rusqlite::types::FromSql for $ty {
                fn column_result(value: $crate::__private::rusqlite::types::ValueRef<'_>) -> $crate::__private::rusqlite::types::FromSqlResult<Self> {
                    $crate::__private::rusqlite_support::column_result(value)
                }
            }
        };
    };
}
