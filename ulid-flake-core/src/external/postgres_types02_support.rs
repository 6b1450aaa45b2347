//! postgres-types (the `postgres` and `tokio-postgres` clients): IDs are `INT8` (`BIGINT`)
//! values, and `INT8[]` arrays through the crate's own `Vec`/slice impls; a `TEXT`, `VARCHAR`
//! or `CHAR(n)` value holds the ID's text.
//!
//! These clients send parameters and read results in PostgreSQL's binary format, which is all
//! `ToSql` and `FromSql` see; `simple_query` (the text protocol) takes no parameters and
//! returns every value as a `&str`, so it never reaches these impls.

use alloc::boxed::Box;
use core::error::Error as StdError;

use bytes::BytesMut;
use postgres_types::{FromSql, IsNull, ToSql, Type, to_sql_checked};

use crate::external::text_form::TextForm;

/// The error type of `ToSql` and `FromSql`.
type BoxError = Box<dyn StdError + Sync + Send>;

/// Whether `ty` is a text type that holds an ID's text.
fn is_text(ty: &Type) -> bool {
    matches!(*ty, Type::TEXT | Type::VARCHAR | Type::BPCHAR)
}

/// Writes `value` as an `INT8` or, for a text type, as its text.
fn to_sql<V: TextForm>(value: V, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
    if is_text(ty) {
        value.with_text(|text| text.to_sql(ty, out))
    } else {
        value.to_i64().to_sql(ty, out)
    }
}

/// Reads an `INT8` (a negative one is an [`Error::OutOfRange`](crate::Error) that names it) or
/// a text type's value (the type's text exactly, else the parser's error).
fn from_sql<V: TextForm>(ty: &Type, raw: &[u8]) -> Result<V, BoxError> {
    let value = if is_text(ty) {
        V::parse_text(raw)
    } else {
        V::from_i64(i64::from_sql(ty, raw)?)
    };
    Ok(value?)
}

/// Whether an ID converts to and from `ty`: `INT8`, `TEXT`, `VARCHAR` or `CHAR(n)`.
fn accepts(ty: &Type) -> bool {
    *ty == Type::INT8 || is_text(ty)
}

/// Implements `ToSql` and `FromSql` for `$ty` through [`TextForm`]. Generics go in the
/// brackets with a trailing comma.
macro_rules! impl_postgres_types {
    ([$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> ToSql for $ty {
            fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
                to_sql(*self, ty, out)
            }

            fn accepts(ty: &Type) -> bool {
                accepts(ty)
            }

            to_sql_checked!();
        }

        impl<'a, $($generics)*> FromSql<'a> for $ty {
            fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
                from_sql(ty, raw)
            }

            fn accepts(ty: &Type) -> bool {
                accepts(ty)
            }
        }
    };
}

impl_postgres_types!([] crate::ulid_flake::UlidFlake);
impl_postgres_types!([T: ?Sized,] crate::id::Id<T>);
impl_postgres_types!([T: crate::prefixed::Prefix + ?Sized,] crate::prefixed::PrefixedId<T>);
