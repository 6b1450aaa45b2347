//! rusqlite: IDs are written as SQLite `INTEGER`s; a `TEXT` value holds the ID's text.
//!
//! SQLite keeps a value's storage class per value, not per column, so reading follows the
//! value: an `INTEGER` is the ID's integer (a negative one is an
//! [`Error::OutOfRange`](crate::Error) that names it), a `TEXT` is the type's text exactly as
//! `FromStr` reads it (13 characters in either case, after `user_` for a
//! `PrefixedId<User>`), and a `REAL` or a `BLOB` is rusqlite's `InvalidType`, as for `i64`.
//! A `TEXT` holding an integer's decimal digits is not guessed at: it is read as text, so it
//! fails (wrong length, or a character out of range) — except that 13 digits are valid Base32
//! and read as the ID of that text.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, Value, ValueRef};

use crate::external::text_form::TextForm;

/// Reads an `INTEGER` or a `TEXT`, as the module docs say.
fn column_result<V: TextForm>(value: ValueRef<'_>) -> FromSqlResult<V> {
    match value {
        ValueRef::Integer(integer) => V::from_i64(integer),
        ValueRef::Text(text) => V::parse_text(text),
        _ => return Err(FromSqlError::InvalidType),
    }
    .map_err(FromSqlError::other)
}

/// Implements `ToSql` and `FromSql` for `$ty` through [`TextForm`]. Generics go in the
/// brackets with a trailing comma.
macro_rules! impl_rusqlite {
    ([$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> ToSql for $ty {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::Owned(Value::Integer(TextForm::to_i64(*self))))
            }
        }

        impl<$($generics)*> FromSql for $ty {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                column_result(value)
            }
        }
    };
}

impl_rusqlite!([] crate::ulid_flake::UlidFlake);
impl_rusqlite!([T: ?Sized,] crate::id::Id<T>);
impl_rusqlite!([T: crate::prefixed::Prefix + ?Sized,] crate::prefixed::PrefixedId<T>);
