//! SeaORM: IDs are `BIGINT` columns (`ColumnType::BigInteger`), through `i64`, on every backend
//! SeaORM supports, and primary keys of `DeriveEntityModel` entities (with
//! `auto_increment = false`); a `Vec` of them is a `BIGINT[]` on PostgreSQL.
//!
//! What SeaORM asks of a custom column type is what its `DeriveValueType` generates for a
//! wrapper of `i64`: `From<_> for Value`, `TryGetable`, `ValueType`, `Nullable`,
//! `IntoActiveValue`, `TryFromU64` (for primary keys), and `NotU8` and `TryGetableArray` (for
//! arrays). It is written by hand because reading must check the value: a negative `BIGINT`
//! is a `DbErr::TryIntoErr` whose source is the core's [`Error::OutOfRange`](crate::Error),
//! so its message names the value — never a panic, never a wrapped ID.
//!
//! The feature turns on SeaORM's `postgres-array` (values and types only: no driver, no
//! runtime), which the array traits need.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use sea_orm::sea_query::{ValueType, ValueTypeErr};
use sea_orm::{ColIdx, DbErr, QueryResult, TryGetError, TryGetable, Value};

use crate::error::Error;
use crate::id_type::{self, IdType};
use crate::ulid_flake::UlidFlake;

/// The error of a value that is no ID of type `I`, read from a column of type `from`:
/// SeaORM's conversion error, with the core's error (which names the value) as its source.
fn conversion_error<I: IdType>(from: &'static str, error: Error) -> DbErr {
    DbErr::TryIntoErr {
        from,
        into: I::NAME,
        source: Arc::new(error),
    }
}

/// Reads a `BIGINT` into an ID; a negative value is a `DbErr::TryIntoErr` whose source is an
/// [`Error::OutOfRange`](crate::Error) that names it.
pub fn try_get<I: IdType, C: ColIdx>(res: &QueryResult, index: C) -> Result<I, TryGetError> {
    let value = <i64 as TryGetable>::try_get_by(res, index)?;
    id_type::from_i64(value)
        .map_err(|error| TryGetError::DbErr(conversion_error::<I>("i64", error)))
}

/// Accepts a non-null `Value::BigInt` of a valid ID; anything else (another variant, `NULL`,
/// a negative value) is a `ValueTypeErr`.
pub fn try_from_value<I: IdType>(value: Value) -> Result<I, ValueTypeErr> {
    let value = <i64 as ValueType>::try_from(value)?;
    id_type::from_i64(value).map_err(|_| ValueTypeErr)
}

/// The ID of a `u64` key; above `i64::MAX` it is a `DbErr::TryIntoErr` whose source is an
/// [`Error::OutOfRange`](crate::Error) that names it.
pub fn try_from_u64<I: IdType>(n: u64) -> Result<I, DbErr> {
    UlidFlake::from_u64(n)
        .map(I::from_ulid_flake)
        .map_err(|error| conversion_error::<I>("u64", error))
}

/// Reads a `BIGINT[]` (PostgreSQL); a negative element is the error of a negative `BIGINT`.
pub fn try_get_array<I: IdType, C: ColIdx>(
    res: &QueryResult,
    index: C,
) -> Result<Vec<I>, TryGetError> {
    <Vec<i64> as TryGetable>::try_get_by(res, index)?
        .into_iter()
        .map(id_type::from_i64)
        .collect::<Result<_, _>>()
        .map_err(|error| TryGetError::DbErr(conversion_error::<I>("i64", error)))
}

/// The `BIGINT` value of an ID.
pub fn to_value<I: IdType>(id: I) -> Value {
    Value::BigInt(Some(id_type::to_i64(id)))
}

/// `ValueType::type_name`: the Rust type's name.
pub fn type_name<I: IdType>() -> String {
    I::NAME.into()
}

/// Implements SeaORM's column-type traits for an ID type, as the module docs list them. Not
/// public API: the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_sea_orm2 {
    (["sea-orm2" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_sea_orm2!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        const _: () = {

            impl<$($generics)*> ::core::convert::From<$ty> for $crate::__private::sea_orm::Value {
                fn from(id: $ty) -> Self {
                    $crate::__private::sea_orm2_support::to_value(id)
                }
            }

            impl<$($generics)*> $crate::__private::sea_orm::TryGetable for $ty {
                fn try_get_by<I: $crate::__private::sea_orm::ColIdx>(
                    res: &$crate::__private::sea_orm::QueryResult,
                    index: I,
                ) -> ::core::result::Result<Self, $crate::__private::sea_orm::TryGetError> {
                    $crate::__private::sea_orm2_support::try_get(res, index)
                }
            }

            impl<$($generics)*> $crate::__private::sea_orm::sea_query::ValueType for $ty {
                fn try_from(value: $crate::__private::sea_orm::Value) -> ::core::result::Result<Self, $crate::__private::sea_orm::sea_query::ValueTypeErr> {
                    $crate::__private::sea_orm2_support::try_from_value(value)
                }

                fn type_name() -> $crate::__private::String {
                    $crate::__private::sea_orm2_support::type_name::<Self>()
                }

                fn array_type() -> $crate::__private::sea_orm::sea_query::ArrayType {
                    $crate::__private::sea_orm::sea_query::ArrayType::BigInt
                }

                fn column_type() -> $crate::__private::sea_orm::sea_query::ColumnType {
                    $crate::__private::sea_orm::sea_query::ColumnType::BigInteger
                }
            }

            impl<$($generics)*> $crate::__private::sea_orm::sea_query::Nullable for $ty {
                fn null() -> $crate::__private::sea_orm::Value {
                    $crate::__private::sea_orm::Value::BigInt(::core::option::Option::None)
                }
            }

            impl<$($generics)*> $crate::__private::sea_orm::IntoActiveValue<$ty> for $ty {
                fn into_active_value(self) -> $crate::__private::sea_orm::ActiveValue<$ty> {
                    $crate::__private::sea_orm::ActiveValue::Set(self)
                }
            }

            impl<$($generics)*> $crate::__private::sea_orm::TryFromU64 for $ty {
                fn try_from_u64(n: u64) -> ::core::result::Result<Self, $crate::__private::sea_orm::DbErr> {
                    $crate::__private::sea_orm2_support::try_from_u64(n)
                }
            }

            impl<$($generics)*> $crate::__private::sea_orm::sea_query::postgres_array::NotU8 for $ty {}

            impl<$($generics)*> $crate::__private::sea_orm::TryGetableArray for $ty {
                fn try_get_by<I: $crate::__private::sea_orm::ColIdx>(
                    res: &$crate::__private::sea_orm::QueryResult,
                    index: I,
                ) -> ::core::result::Result<$crate::__private::Vec<Self>, $crate::__private::sea_orm::TryGetError> {
                    $crate::__private::sea_orm2_support::try_get_array(res, index)
                }
            }
        };
    };
}
