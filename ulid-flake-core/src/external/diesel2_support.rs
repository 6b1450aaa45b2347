//! Diesel: IDs are `BigInt` columns, through `i64`, on every backend Diesel supports.
//!
//! Every ID type gets what `#[derive(AsExpression)]` with `#[diesel(sql_type = BigInt)]`
//! writes (done by hand, so that a crate calling `newtype!` need not name `diesel`), the
//! conversions, and `Queryable` (hence `FromSqlRow`).
//!
//! `Queryable` is written by hand, with the row an `i64`, rather than derived through
//! `FromSqlRow` (which reads the value with `FromSql`): Diesel wraps an error of `FromSql` in a
//! `DeserializeFieldError` whose message names only the field, whereas an error of
//! `Queryable::build` reaches the caller as it is, so the message of a negative `BIGINT`
//! shows the value.
//!
//! A nullable column, read as `Option<Id<T>>`, cannot get the same message: Diesel reads it
//! only through its own `impl Queryable<ST, DB> for Option<T>` (`Row = Self`, through
//! `FromSql<Nullable<ST>, DB> for Option<T>`, which calls this module's `FromSql`), and its
//! `FromStaticSqlRow` wraps every `FromSql` error in `DeserializeFieldError`, whose `Display`
//! is `Error deserializing field 'invited_by'` and whose `source()` is this crate's error.
//! The orphan rule forbids a `Queryable` or `FromSql` for `Option<Id<T>>` outside Diesel (and
//! either would overlap Diesel's blanket impls), so the value stays in the `source()`;
//! `diesel::result::Error::source` returns it directly, and error reporters that print the
//! chain show `Error deserializing field 'invited_by': value out of range: ..., found -5`.
//! A field that names [`OptionalId`] in `#[diesel(deserialize_as = ...)]` is read through
//! its `Queryable` instead, and its message shows the value too.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::{BigInt, Nullable};

use crate::id_type::{self, IdType};
use crate::ulid_flake::UlidFlake;

impl UlidFlake {
    /// The value as the `&i64` Diesel's `ToSql` must borrow for the output's lifetime.
    fn as_i64_ref(&self) -> &i64 {
        let value: &u64 = self.as_u64_ref();
        // SAFETY: u64 and i64 have the same size and alignment and every bit pattern is valid
        // for both; the invariant value <= i64::MAX even makes the two readings equal.
        unsafe { &*core::ptr::from_ref(value).cast::<i64>() }
    }
}

/// Writes an ID as a `BigInt`.
pub fn to_sql<'b, DB: Backend>(
    value: &'b UlidFlake,
    out: &mut Output<'b, '_, DB>,
) -> serialize::Result
where
    i64: ToSql<BigInt, DB>,
{
    value.as_i64_ref().to_sql(out)
}

/// Checks a `BIGINT`; a negative value is an [`Error::OutOfRange`](crate::Error) whose
/// message names it — never a panic, never a wrapped ID.
pub fn from_i64<I: IdType>(value: i64) -> deserialize::Result<I> {
    Ok(id_type::from_i64(value)?)
}

/// An `Option` of an ID (`Id<T>`, `PrefixedId<T>`, `UlidFlake` or a newtype) read from a
/// nullable `BIGINT` so that the message of a negative value shows it, for an `Option` field
/// of a `Queryable` struct: name it in `#[diesel(deserialize_as = ...)]`.
///
/// Without it, Diesel reads an `Option<Id<T>>` through `FromSql` and wraps the error in a
/// `DeserializeFieldError` whose message names only the field (`Error deserializing field
/// 'invited_by'`), with this crate's error as its `source()`. `OptionalId` reads the
/// `Option<i64>` and checks it in its own `Queryable::build`, whose error Diesel passes on as
/// it is: `value out of range: expected 0..=9223372036854775807 ..., found -5`.
///
/// For SQLite (any backend works the same):
///
/// ```
/// use diesel::prelude::*;
/// use ulid_flake_core::{Id, diesel2::OptionalId};
///
/// diesel::table! {
///     users (id) {
///         id -> BigInt,
///         invited_by -> Nullable<BigInt>,
///     }
/// }
///
/// #[derive(Queryable, Selectable, Debug)]
/// #[diesel(table_name = users)]
/// struct User {
///     id: Id<User>,
///     #[diesel(deserialize_as = OptionalId<Id<User>>)]
///     invited_by: Option<Id<User>>,
/// }
///
/// let conn = &mut SqliteConnection::establish(":memory:")?;
/// diesel::sql_query("CREATE TABLE users (id BIGINT PRIMARY KEY, invited_by BIGINT)")
///     .execute(conn)?;
/// diesel::sql_query("INSERT INTO users VALUES (1, NULL), (2, -5)").execute(conn)?;
/// let first: User = users::table.find(1).select(User::as_select()).first(conn)?;
/// assert_eq!(first.invited_by, None);
/// let error = users::table.find(2).select(User::as_select()).first(conn).unwrap_err();
/// assert!(error.to_string().ends_with("found -5"), "{error}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OptionalId<I>(pub Option<I>);

impl<I: From<UlidFlake>, DB: Backend> Queryable<Nullable<BigInt>, DB> for OptionalId<I>
where
    i64: FromSql<BigInt, DB>,
{
    type Row = Option<i64>;

    /// Checks the `BIGINT`, if any; a negative value is an
    /// [`Error::OutOfRange`](crate::Error) whose message names it.
    fn build(row: Option<i64>) -> deserialize::Result<Self> {
        Ok(Self(row.map(UlidFlake::from_i64).transpose()?.map(I::from)))
    }
}

impl<I> From<OptionalId<I>> for Option<I> {
    /// The ID read, or `None` for `NULL`.
    ///
    /// ```
    /// use ulid_flake_core::{UlidFlake, diesel2::OptionalId};
    ///
    /// assert_eq!(Option::from(OptionalId(Some(UlidFlake::MIN))), Some(UlidFlake::MIN));
    /// ```
    fn from(optional: OptionalId<I>) -> Self {
        optional.0
    }
}

/// Implements Diesel's `AsExpression` (for `BigInt` and `Nullable<BigInt>`), `ToSql` and
/// `FromSql` as `BigInt`, and `Queryable<BigInt, _>` (hence `FromSqlRow`) for an ID type, on
/// every backend whose `i64` has them. Not public API: the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_diesel2 {
    (["diesel2" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_diesel2!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        const _: () = {

            $crate::__impl_diesel2!(@as_expression [$($generics)*] $ty, $crate::__private::diesel::sql_types::BigInt);
            $crate::__impl_diesel2!(@as_expression [$($generics)*] $ty, $crate::__private::diesel::sql_types::Nullable<$crate::__private::diesel::sql_types::BigInt>);

            impl<$($generics)* DB: $crate::__private::diesel::backend::Backend> $crate::__private::diesel::serialize::ToSql<$crate::__private::diesel::sql_types::BigInt, DB> for $ty
            where
                i64: $crate::__private::diesel::serialize::ToSql<$crate::__private::diesel::sql_types::BigInt, DB>,
            {
                fn to_sql<'b>(&'b self, out: &mut $crate::__private::diesel::serialize::Output<'b, '_, DB>) -> $crate::__private::diesel::serialize::Result {
                    $crate::__private::diesel2_support::to_sql($crate::__private::IdType::as_ulid_flake(self), out)
                }
            }

            impl<$($generics)* DB: $crate::__private::diesel::backend::Backend> $crate::__private::diesel::serialize::ToSql<$crate::__private::diesel::sql_types::Nullable<$crate::__private::diesel::sql_types::BigInt>, DB> for $ty
            where
                i64: $crate::__private::diesel::serialize::ToSql<$crate::__private::diesel::sql_types::BigInt, DB>,
            {
                fn to_sql<'b>(&'b self, out: &mut $crate::__private::diesel::serialize::Output<'b, '_, DB>) -> $crate::__private::diesel::serialize::Result {
                    $crate::__private::diesel2_support::to_sql($crate::__private::IdType::as_ulid_flake(self), out)
                }
            }

            impl<$($generics)* DB: $crate::__private::diesel::backend::Backend> $crate::__private::diesel::deserialize::FromSql<$crate::__private::diesel::sql_types::BigInt, DB> for $ty
            where
                i64: $crate::__private::diesel::deserialize::FromSql<$crate::__private::diesel::sql_types::BigInt, DB>,
            {
                fn from_sql(bytes: DB::RawValue<'_>) -> $crate::__private::diesel::deserialize::Result<Self> {
                    $crate::__private::diesel2_support::from_i64(i64::from_sql(bytes)?)
                }
            }

            impl<$($generics)* DB: $crate::__private::diesel::backend::Backend> $crate::__private::diesel::deserialize::Queryable<$crate::__private::diesel::sql_types::BigInt, DB> for $ty
            where
                i64: $crate::__private::diesel::deserialize::FromSql<$crate::__private::diesel::sql_types::BigInt, DB>,
            {
                type Row = i64;

                fn build(row: i64) -> $crate::__private::diesel::deserialize::Result<Self> {
                    $crate::__private::diesel2_support::from_i64(row)
                }
            }
        };
    };
    (@as_expression [$($generics:tt)*] $ty:ty, $sql_type:ty) => {
        impl<$($generics)*> $crate::__private::diesel::expression::AsExpression<$sql_type> for $ty {
            type Expression = $crate::__private::diesel::internal::derives::as_expression::Bound<$sql_type, Self>;

            fn as_expression(self) -> Self::Expression {
                $crate::__private::diesel::internal::derives::as_expression::Bound::new(self)
            }
        }

        impl<'expr, $($generics)*> $crate::__private::diesel::expression::AsExpression<$sql_type> for &'expr $ty {
            type Expression = $crate::__private::diesel::internal::derives::as_expression::Bound<$sql_type, Self>;

            fn as_expression(self) -> Self::Expression {
                $crate::__private::diesel::internal::derives::as_expression::Bound::new(self)
            }
        }

        impl<'expr, 'expr2, $($generics)*> $crate::__private::diesel::expression::AsExpression<$sql_type>
            for &'expr2 &'expr $ty
        {
            type Expression = $crate::__private::diesel::internal::derives::as_expression::Bound<$sql_type, Self>;

            fn as_expression(self) -> Self::Expression {
                $crate::__private::diesel::internal::derives::as_expression::Bound::new(self)
            }
        }
    };
}
