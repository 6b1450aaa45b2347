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

use sea_orm::sea_query::postgres_array::NotU8;
use sea_orm::sea_query::{ArrayType, ColumnType, Nullable, ValueType, ValueTypeErr};
use sea_orm::{
    ActiveValue, ColIdx, DbErr, IntoActiveValue, QueryResult, TryFromU64, TryGetError, TryGetable,
    TryGetableArray, Value,
};

use crate::error::Error;
use crate::ulid_flake::UlidFlake;

/// The error of a value that is no Ulid-Flake, read from a column of type `from`: SeaORM's
/// conversion error, with the core's error (which names the value) as its source.
fn conversion_error(from: &'static str, error: Error) -> DbErr {
    DbErr::TryIntoErr {
        from,
        into: "UlidFlake",
        source: Arc::new(error),
    }
}

impl From<UlidFlake> for Value {
    fn from(id: UlidFlake) -> Self {
        Self::BigInt(Some(id.to_i64()))
    }
}

impl TryGetable for UlidFlake {
    /// Reads a `BIGINT`; a negative value is a `DbErr::TryIntoErr` whose source is an
    /// [`Error::OutOfRange`](crate::Error) that names it.
    fn try_get_by<I: ColIdx>(res: &QueryResult, index: I) -> Result<Self, TryGetError> {
        let value = <i64 as TryGetable>::try_get_by(res, index)?;
        Self::from_i64(value).map_err(|error| TryGetError::DbErr(conversion_error("i64", error)))
    }
}

impl ValueType for UlidFlake {
    /// Accepts a non-null `Value::BigInt` of a valid ID; anything else (another variant,
    /// `NULL`, a negative value) is a `ValueTypeErr`.
    fn try_from(value: Value) -> Result<Self, ValueTypeErr> {
        let value = <i64 as ValueType>::try_from(value)?;
        Self::from_i64(value).map_err(|_| ValueTypeErr)
    }

    fn type_name() -> String {
        "UlidFlake".into()
    }

    fn array_type() -> ArrayType {
        ArrayType::BigInt
    }

    fn column_type() -> ColumnType {
        ColumnType::BigInteger
    }
}

impl Nullable for UlidFlake {
    fn null() -> Value {
        Value::BigInt(None)
    }
}

impl IntoActiveValue<Self> for UlidFlake {
    fn into_active_value(self) -> ActiveValue<Self> {
        ActiveValue::Set(self)
    }
}

impl TryFromU64 for UlidFlake {
    /// The ID of a `u64` key; above `i64::MAX` it is a `DbErr::TryIntoErr` whose source is an
    /// [`Error::OutOfRange`](crate::Error) that names it.
    fn try_from_u64(n: u64) -> Result<Self, DbErr> {
        Self::from_u64(n).map_err(|error| conversion_error("u64", error))
    }
}

impl NotU8 for UlidFlake {}

impl TryGetableArray for UlidFlake {
    /// Reads a `BIGINT[]` (PostgreSQL); a negative element is the error of a negative
    /// `BIGINT`.
    fn try_get_by<I: ColIdx>(res: &QueryResult, index: I) -> Result<Vec<Self>, TryGetError> {
        <Vec<i64> as TryGetable>::try_get_by(res, index)?
            .into_iter()
            .map(Self::from_i64)
            .collect::<Result<_, _>>()
            .map_err(|error| TryGetError::DbErr(conversion_error("i64", error)))
    }
}

crate::__impl_sea_orm_via_ulid_flake!([T: ?Sized,] crate::id::Id<T>, "Id");
crate::__impl_sea_orm_via_ulid_flake!([T: crate::prefixed::Prefix + ?Sized,] crate::prefixed::PrefixedId<T>, "PrefixedId");

/// Implements SeaORM's column-type traits for `$ty` by converting to and from
/// [`UlidFlake`]: `$ty` must be `Copy`, `From<UlidFlake>`, and `UlidFlake: From<$ty>`;
/// `$name` is what `ValueType::type_name` returns. Generics go in the brackets with a trailing
/// comma: `[T: ?Sized,] Id<T>`.
///
/// Not public API: `newtype!` calls it through `__newtype_sea_orm!`.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_sea_orm_via_ulid_flake {
    ([$($generics:tt)*] $ty:ty, $name:expr) => {
        const _: () = {
            use $crate::__private::sea_orm::sea_query::postgres_array::NotU8;
            use $crate::__private::sea_orm::sea_query::{
                ArrayType, ColumnType, Nullable, ValueType, ValueTypeErr,
            };
            use $crate::__private::sea_orm::{
                ActiveValue, ColIdx, DbErr, IntoActiveValue, QueryResult, TryFromU64, TryGetError,
                TryGetable, TryGetableArray, Value,
            };
            use $crate::UlidFlake;

            impl<$($generics)*> ::core::convert::From<$ty> for Value {
                fn from(id: $ty) -> Self {
                    Value::from(UlidFlake::from(id))
                }
            }

            impl<$($generics)*> TryGetable for $ty {
                fn try_get_by<I: ColIdx>(
                    res: &QueryResult,
                    index: I,
                ) -> ::core::result::Result<Self, TryGetError> {
                    <UlidFlake as TryGetable>::try_get_by(res, index).map(Self::from)
                }
            }

            impl<$($generics)*> ValueType for $ty {
                fn try_from(value: Value) -> ::core::result::Result<Self, ValueTypeErr> {
                    <UlidFlake as ValueType>::try_from(value).map(Self::from)
                }

                fn type_name() -> $crate::__private::String {
                    $crate::__private::String::from($name)
                }

                fn array_type() -> ArrayType {
                    <UlidFlake as ValueType>::array_type()
                }

                fn column_type() -> ColumnType {
                    <UlidFlake as ValueType>::column_type()
                }
            }

            impl<$($generics)*> Nullable for $ty {
                fn null() -> Value {
                    <UlidFlake as Nullable>::null()
                }
            }

            impl<$($generics)*> IntoActiveValue<$ty> for $ty {
                fn into_active_value(self) -> ActiveValue<$ty> {
                    ActiveValue::Set(self)
                }
            }

            impl<$($generics)*> TryFromU64 for $ty {
                fn try_from_u64(n: u64) -> ::core::result::Result<Self, DbErr> {
                    <UlidFlake as TryFromU64>::try_from_u64(n).map(Self::from)
                }
            }

            impl<$($generics)*> NotU8 for $ty {}

            impl<$($generics)*> TryGetableArray for $ty {
                fn try_get_by<I: ColIdx>(
                    res: &QueryResult,
                    index: I,
                ) -> ::core::result::Result<$crate::__private::Vec<Self>, TryGetError> {
                    <UlidFlake as TryGetableArray>::try_get_by(res, index)
                        .map(|ids| ids.into_iter().map(Self::from).collect())
                }
            }
        };
    };
}
