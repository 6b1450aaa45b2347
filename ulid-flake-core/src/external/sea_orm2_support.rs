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
            use $crate::__private::sea_orm::sea_query::postgres_array::NotU8;
            use $crate::__private::sea_orm::sea_query::{
                ArrayType, ColumnType, Nullable, ValueType, ValueTypeErr,
            };
            use $crate::__private::sea_orm::{
                ActiveValue, ColIdx, DbErr, IntoActiveValue, QueryResult, TryFromU64, TryGetError,
                TryGetable, TryGetableArray, Value,
            };
            use $crate::__private::sea_orm2_support as support;

            impl<$($generics)*> ::core::convert::From<$ty> for Value {
                fn from(id: $ty) -> Self {
                    support::to_value(id)
                }
            }

            impl<$($generics)*> TryGetable for $ty {
                fn try_get_by<I: ColIdx>(
                    res: &QueryResult,
                    index: I,
                ) -> ::core::result::Result<Self, TryGetError> {
                    support::try_get(res, index)
                }
            }

            impl<$($generics)*> ValueType for $ty {
                fn try_from(value: Value) -> ::core::result::Result<Self, ValueTypeErr> {
                    support::try_from_value(value)
                }

                fn type_name() -> $crate::__private::String {
                    support::type_name::<Self>()
                }

                fn array_type() -> ArrayType {
                    ArrayType::BigInt
                }

                fn column_type() -> ColumnType {
                    ColumnType::BigInteger
                }
            }

            impl<$($generics)*> Nullable for $ty {
                fn null() -> Value {
                    Value::BigInt(None)
                }
            }

            impl<$($generics)*> IntoActiveValue<$ty> for $ty {
                fn into_active_value(self) -> ActiveValue<$ty> {
                    ActiveValue::Set(self)
                }
            }

            impl<$($generics)*> TryFromU64 for $ty {
                fn try_from_u64(n: u64) -> ::core::result::Result<Self, DbErr> {
                    support::try_from_u64(n)
                }
            }

            impl<$($generics)*> NotU8 for $ty {}

            impl<$($generics)*> TryGetableArray for $ty {
                fn try_get_by<I: ColIdx>(
                    res: &QueryResult,
                    index: I,
                ) -> ::core::result::Result<$crate::__private::Vec<Self>, TryGetError> {
                    support::try_get_array(res, index)
                }
            }
        };
    };
}
