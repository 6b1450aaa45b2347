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
use postgres_types::{FromSql, IsNull, ToSql, Type};

use crate::id_type::{self, IdType};
use crate::layout::MAX_PREFIXED_LEN;

/// The error type of `ToSql` and `FromSql`.
pub type BoxError = Box<dyn StdError + Sync + Send>;

/// Whether `ty` is a text type that holds an ID's text.
fn is_text(ty: &Type) -> bool {
    matches!(*ty, Type::TEXT | Type::VARCHAR | Type::BPCHAR)
}

/// Writes `value` as an `INT8` or, for a text type, as its text.
pub fn to_sql<I: IdType>(value: I, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
    if is_text(ty) {
        id_type::encode(value, &mut [0; MAX_PREFIXED_LEN]).to_sql(ty, out)
    } else {
        id_type::to_i64(value).to_sql(ty, out)
    }
}

/// Reads an `INT8` (a negative one is an [`Error::OutOfRange`](crate::Error) that names it) or
/// a text type's value (the type's text exactly, else the parser's error). A `CHAR(n)` value
/// comes padded with spaces to `n` characters, which PostgreSQL counts as no part of it: they
/// are dropped, so that a column wider than the text reads back what was written.
pub fn from_sql<I: IdType>(ty: &Type, raw: &[u8]) -> Result<I, BoxError> {
    let value = if *ty == Type::BPCHAR {
        let unpadded = raw
            .iter()
            .rposition(|&byte| byte != b' ')
            .map_or(0, |last| last + 1);
        id_type::parse_text(&raw[..unpadded])
    } else if is_text(ty) {
        id_type::parse_text(raw)
    } else {
        id_type::from_i64(i64::from_sql(ty, raw)?)
    };
    Ok(value?)
}

/// Whether an ID converts to and from `ty`: `INT8`, `TEXT`, `VARCHAR` or `CHAR(n)`.
pub fn accepts(ty: &Type) -> bool {
    *ty == Type::INT8 || is_text(ty)
}

/// Implements postgres-types' `ToSql` and `FromSql` for an ID type, as [`to_sql`],
/// [`from_sql`] and [`accepts`]. Not public API: the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_postgres_types02 {
    (["postgres-types02" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_postgres_types02!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        const _: () = {

            impl<$($generics)*> $crate::__private::postgres_types::ToSql for $ty {
                fn to_sql(
                    &self,
                    ty: &$crate::__private::postgres_types::Type,
                    out: &mut $crate::__private::bytes::BytesMut,
                ) -> ::core::result::Result<$crate::__private::postgres_types::IsNull, $crate::__private::postgres_types02_support::BoxError> {
                    $crate::__private::postgres_types02_support::to_sql(*self, ty, out)
                }

                fn accepts(ty: &$crate::__private::postgres_types::Type) -> bool {
                    $crate::__private::postgres_types02_support::accepts(ty)
                }

                fn to_sql_checked(
                    &self,
                    ty: &$crate::__private::postgres_types::Type,
                    out: &mut $crate::__private::bytes::BytesMut,
                ) -> ::core::result::Result<
                    $crate::__private::postgres_types::IsNull,
                    $crate::__private::postgres_types02_support::BoxError,
                > {
                    $crate::__private::postgres_types::__to_sql_checked(self, ty, out)
                }
            }

            impl<'a, $($generics)*> $crate::__private::postgres_types::FromSql<'a> for $ty {
                fn from_sql(ty: &$crate::__private::postgres_types::Type, raw: &'a [u8]) -> ::core::result::Result<Self, $crate::__private::postgres_types02_support::BoxError> {
                    $crate::__private::postgres_types02_support::from_sql(ty, raw)
                }

                fn accepts(ty: &$crate::__private::postgres_types::Type) -> bool {
                    $crate::__private::postgres_types02_support::accepts(ty)
                }
            }
        };
    };
}
