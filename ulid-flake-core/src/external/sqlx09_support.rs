//! sqlx: IDs are `BIGINT` columns, through `i64`, on every database sqlx supports; with the
//! `sqlx09-postgres` feature, a `Vec` of IDs binds as a PostgreSQL `BIGINT[]`.

use sqlx::error::{BoxDynError, UnexpectedNullError};
use sqlx::{Database, Decode, ValueRef};

use crate::id_type::{self, IdType};

/// Decodes a `BIGINT` into an ID; a negative value is an [`Error::OutOfRange`](crate::Error)
/// that names it — never a panic, never a wrapped ID. `NULL` is sqlx's `UnexpectedNullError`
/// on every database: SQLite's `i64` reads it as 0, which would be the ID `0000000000000`
/// (PostgreSQL's and MySQL's refuse it already). An `Option` of an ID reads it as `None`.
pub fn decode<'r, DB: Database, I: IdType>(value: DB::ValueRef<'r>) -> Result<I, BoxDynError>
where
    i64: Decode<'r, DB>,
{
    if value.is_null() {
        return Err(UnexpectedNullError.into());
    }
    Ok(id_type::from_i64(<i64 as Decode<'r, DB>>::decode(value)?)?)
}

/// Implements sqlx's `Type`, `Encode` and `Decode` for an ID type, as `i64`'s on every
/// database. Not public API: the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_sqlx09 {
    (["sqlx09" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_sqlx09!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        const _: () = {

            impl<$($generics)* DB: $crate::__private::sqlx::Database> $crate::__private::sqlx::Type<DB> for $ty
            where
                i64: $crate::__private::sqlx::Type<DB>,
            {
                fn type_info() -> DB::TypeInfo {
                    <i64 as $crate::__private::sqlx::Type<DB>>::type_info()
                }

                fn compatible(ty: &DB::TypeInfo) -> bool {
                    <i64 as $crate::__private::sqlx::Type<DB>>::compatible(ty)
                }
            }

            impl<'q, $($generics)* DB: $crate::__private::sqlx::Database> $crate::__private::sqlx::Encode<'q, DB> for $ty
            where
                i64: $crate::__private::sqlx::Encode<'q, DB>,
            {
                fn encode_by_ref(
                    &self,
                    buf: &mut <DB as $crate::__private::sqlx::Database>::ArgumentBuffer,
                ) -> ::core::result::Result<$crate::__private::sqlx::encode::IsNull, $crate::__private::sqlx::error::BoxDynError> {
                    $crate::__private::IdType::to_ulid_flake(*self).to_i64().encode_by_ref(buf)
                }

                fn size_hint(&self) -> usize {
                    $crate::__private::IdType::to_ulid_flake(*self).to_i64().size_hint()
                }
            }

            impl<'r, $($generics)* DB: $crate::__private::sqlx::Database> $crate::__private::sqlx::Decode<'r, DB> for $ty
            where
                i64: $crate::__private::sqlx::Decode<'r, DB>,
            {
                fn decode(
                    value: <DB as $crate::__private::sqlx::Database>::ValueRef<'r>,
                ) -> ::core::result::Result<Self, $crate::__private::sqlx::error::BoxDynError> {
                    $crate::__private::sqlx09_support::decode::<DB, Self>(value)
                }
            }
        };
    };
}

/// Implements sqlx's `PgHasArrayType` for an ID type, as `i64`'s. Not public API: the list
/// in `external/mod.rs` calls it.
#[cfg(feature = "sqlx09-postgres")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_sqlx09_postgres {
    // Without sqlx's `Type` from this crate, an array type of ours would not match it.
    (["sqlx09" $($without:tt)*] $($rest:tt)*) => {};
    (["sqlx09-postgres" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_sqlx09_postgres!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $crate::__private::sqlx::postgres::PgHasArrayType for $ty {
            fn array_type_info() -> $crate::__private::sqlx::postgres::PgTypeInfo {
                <i64 as $crate::__private::sqlx::postgres::PgHasArrayType>::array_type_info()
            }

            fn array_compatible(ty: &$crate::__private::sqlx::postgres::PgTypeInfo) -> bool {
                <i64 as $crate::__private::sqlx::postgres::PgHasArrayType>::array_compatible(ty)
            }
        }
    };
}
