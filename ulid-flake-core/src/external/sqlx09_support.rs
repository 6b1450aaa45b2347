//! sqlx: IDs are `BIGINT` columns, through `i64`, on every database sqlx supports.

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::{Database, Decode, Encode, Type};

use crate::ulid_flake::UlidFlake;

impl<DB: Database> Type<DB> for UlidFlake
where
    i64: Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <i64 as Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <i64 as Type<DB>>::compatible(ty)
    }
}

impl<'q, DB: Database> Encode<'q, DB> for UlidFlake
where
    i64: Encode<'q, DB>,
{
    fn encode_by_ref(
        &self,
        buf: &mut <DB as Database>::ArgumentBuffer,
    ) -> Result<IsNull, BoxDynError> {
        self.to_i64().encode_by_ref(buf)
    }

    fn size_hint(&self) -> usize {
        self.to_i64().size_hint()
    }
}

impl<'r, DB: Database> Decode<'r, DB> for UlidFlake
where
    i64: Decode<'r, DB>,
{
    /// Decodes a `BIGINT`; a negative value is an [`Error::OutOfRange`](crate::Error) that
    /// names it — never a panic, never a wrapped ID.
    fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self::from_i64(<i64 as Decode<'r, DB>>::decode(value)?)?)
    }
}

crate::__impl_sqlx_via_ulid_flake!([T: ?Sized,] crate::id::Id<T>);
crate::__impl_sqlx_via_ulid_flake!([T: crate::prefixed::Prefix + ?Sized,] crate::prefixed::PrefixedId<T>);

/// Implements sqlx's `Type`, `Encode` and `Decode` (and, with the `sqlx-postgres` feature of
/// `ulid-flake-core`, `PgHasArrayType`) for `$ty` by converting to and from [`UlidFlake`];
/// `$ty` must be `Copy`, `From<UlidFlake>`, and `UlidFlake: From<$ty>`. Generics go in the
/// brackets with a trailing comma: `[T: ?Sized,] Id<T>`.
///
/// Not public API: the core's `newtype!` expands to it (through `__newtype_sqlx!`), as the
/// impls of `Id<T>` and `PrefixedId<T>` here do.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_sqlx_via_ulid_flake {
    ([$($generics:tt)*] $ty:ty) => {
        const _: () = {
            use $crate::__private::sqlx::{Database, Decode, Encode, Type};
            use $crate::__private::sqlx::encode::IsNull;
            use $crate::__private::sqlx::error::BoxDynError;
            use $crate::UlidFlake;

            impl<$($generics)* DB: Database> Type<DB> for $ty
            where
                i64: Type<DB>,
            {
                fn type_info() -> DB::TypeInfo {
                    <UlidFlake as Type<DB>>::type_info()
                }

                fn compatible(ty: &DB::TypeInfo) -> bool {
                    <UlidFlake as Type<DB>>::compatible(ty)
                }
            }

            impl<'q, $($generics)* DB: Database> Encode<'q, DB> for $ty
            where
                i64: Encode<'q, DB>,
            {
                fn encode_by_ref(
                    &self,
                    buf: &mut <DB as Database>::ArgumentBuffer,
                ) -> Result<IsNull, BoxDynError> {
                    <UlidFlake as Encode<'q, DB>>::encode_by_ref(&UlidFlake::from(*self), buf)
                }

                fn size_hint(&self) -> usize {
                    <UlidFlake as Encode<'q, DB>>::size_hint(&UlidFlake::from(*self))
                }
            }

            impl<'r, $($generics)* DB: Database> Decode<'r, DB> for $ty
            where
                i64: Decode<'r, DB>,
            {
                fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
                    <UlidFlake as Decode<'r, DB>>::decode(value).map(Self::from)
                }
            }

            $crate::__impl_pg_array_via_ulid_flake!([$($generics)*] $ty);
        };
    };
}

#[cfg(feature = "sqlx09-postgres")]
mod postgres {
    use sqlx::postgres::{PgHasArrayType, PgTypeInfo};

    use crate::ulid_flake::UlidFlake;

    impl PgHasArrayType for UlidFlake {
        fn array_type_info() -> PgTypeInfo {
            <i64 as PgHasArrayType>::array_type_info()
        }

        fn array_compatible(ty: &PgTypeInfo) -> bool {
            <i64 as PgHasArrayType>::array_compatible(ty)
        }
    }

    /// `PgHasArrayType` for a type that converts to and from [`UlidFlake`]: defined here, so
    /// it follows this crate's `sqlx-postgres` feature, not the calling crate's.
    #[doc(hidden)]
    #[macro_export]
    macro_rules! __impl_pg_array_via_ulid_flake {
        ([$($generics:tt)*] $ty:ty) => {
            impl<$($generics)*> $crate::__private::sqlx::postgres::PgHasArrayType for $ty {
                fn array_type_info() -> $crate::__private::sqlx::postgres::PgTypeInfo {
                    <UlidFlake as $crate::__private::sqlx::postgres::PgHasArrayType>::array_type_info()
                }

                fn array_compatible(ty: &$crate::__private::sqlx::postgres::PgTypeInfo) -> bool {
                    <UlidFlake as $crate::__private::sqlx::postgres::PgHasArrayType>::array_compatible(ty)
                }
            }
        };
    }
}

/// Without PostgreSQL support there are no array impls to generate.
#[cfg(not(feature = "sqlx09-postgres"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_pg_array_via_ulid_flake {
    ([$($generics:tt)*] $ty:ty) => {};
}
