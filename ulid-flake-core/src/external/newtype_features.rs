//! The parts of `newtype!` that depend on a feature. Each is defined twice, under the feature
//! and under its negation (as a no-op), so that `newtype!` expands according to this crate's
//! features wherever it is called.

/// `newtype!`'s serde impls, as [`UlidFlake`](crate::UlidFlake)'s.
#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_serde {
    ($name:ident) => {
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::__private::serde::Serialize::serialize(&self.0, serializer)
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                <$crate::UlidFlake as $crate::__private::serde::Deserialize<'de>>::deserialize(
                    deserializer,
                )
                .map(Self)
            }
        }
    };
}

/// Without serde there is nothing to generate.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_serde {
    ($name:ident) => {};
}

/// `newtype!`'s sqlx impls.
#[cfg(feature = "sqlx09")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_sqlx {
    ($name:ident) => {
        $crate::__impl_sqlx_via_ulid_flake!([] $name);
    };
}

/// Without sqlx there is nothing to generate.
#[cfg(not(feature = "sqlx09"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_sqlx {
    ($name:ident) => {};
}

/// `newtype!`'s SeaORM impls.
#[cfg(feature = "sea-orm2")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_sea_orm {
    ($name:ident) => {
        $crate::__impl_sea_orm_via_ulid_flake!([] $name, ::core::stringify!($name));
    };
}

/// Without SeaORM there is nothing to generate.
#[cfg(not(feature = "sea-orm2"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_sea_orm {
    ($name:ident) => {};
}

/// `newtype!`'s Diesel impls: what `#[derive(AsExpression)]` with
/// `#[diesel(sql_type = BigInt)]` writes (done by hand, so that the calling crate need not
/// name `diesel`), then the conversions.
#[cfg(feature = "diesel2")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_diesel {
    ($name:ident) => {
        $crate::__newtype_diesel!(@as_expression $name, $crate::__private::diesel::sql_types::BigInt);
        $crate::__newtype_diesel!(
            @as_expression $name,
            $crate::__private::diesel::sql_types::Nullable<$crate::__private::diesel::sql_types::BigInt>
        );

        impl<DB: $crate::__private::diesel::backend::Backend>
            $crate::__private::diesel::serialize::ToSql<
                $crate::__private::diesel::sql_types::Nullable<$crate::__private::diesel::sql_types::BigInt>,
                DB,
            > for $name
        where
            Self: $crate::__private::diesel::serialize::ToSql<$crate::__private::diesel::sql_types::BigInt, DB>,
        {
            fn to_sql<'b>(
                &'b self,
                out: &mut $crate::__private::diesel::serialize::Output<'b, '_, DB>,
            ) -> $crate::__private::diesel::serialize::Result {
                $crate::__private::diesel::serialize::ToSql::<
                    $crate::__private::diesel::sql_types::BigInt,
                    DB,
                >::to_sql(self, out)
            }
        }

        $crate::__impl_diesel_via_ulid_flake!([] $name, |value| &value.0);
    };
    (@as_expression $name:ident, $sql_type:ty) => {
        impl $crate::__private::diesel::expression::AsExpression<$sql_type> for $name {
            type Expression = $crate::__private::diesel::internal::derives::as_expression::Bound<$sql_type, Self>;

            fn as_expression(self) -> Self::Expression {
                $crate::__private::diesel::internal::derives::as_expression::Bound::new(self)
            }
        }

        impl<'expr> $crate::__private::diesel::expression::AsExpression<$sql_type> for &'expr $name {
            type Expression = $crate::__private::diesel::internal::derives::as_expression::Bound<$sql_type, Self>;

            fn as_expression(self) -> Self::Expression {
                $crate::__private::diesel::internal::derives::as_expression::Bound::new(self)
            }
        }

        impl<'expr, 'expr2> $crate::__private::diesel::expression::AsExpression<$sql_type>
            for &'expr2 &'expr $name
        {
            type Expression = $crate::__private::diesel::internal::derives::as_expression::Bound<$sql_type, Self>;

            fn as_expression(self) -> Self::Expression {
                $crate::__private::diesel::internal::derives::as_expression::Bound::new(self)
            }
        }
    };
}

/// Without Diesel there is nothing to generate.
#[cfg(not(feature = "diesel2"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_diesel {
    ($name:ident) => {};
}

/// `newtype!`'s utoipa impls: the schema of `UlidFlake`, under its name.
#[cfg(feature = "utoipa5")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_utoipa {
    ($name:ident) => {
        impl $crate::__private::utoipa::PartialSchema for $name {
            fn schema()
            -> $crate::__private::utoipa::openapi::RefOr<$crate::__private::utoipa::openapi::Schema>
            {
                <$crate::UlidFlake as $crate::__private::utoipa::PartialSchema>::schema()
            }
        }

        impl $crate::__private::utoipa::ToSchema for $name {
            fn name() -> $crate::__private::Cow<'static, str> {
                <$crate::UlidFlake as $crate::__private::utoipa::ToSchema>::name()
            }
        }
    };
}

/// Without utoipa there is nothing to generate.
#[cfg(not(feature = "utoipa5"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_utoipa {
    ($name:ident) => {};
}

/// `newtype!`'s schemars impl: the schema of `UlidFlake`, under its name and id, so that
/// the definition is shared.
#[cfg(feature = "schemars1")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_schemars {
    ($name:ident) => {
        impl $crate::__private::schemars::JsonSchema for $name {
            fn schema_name() -> $crate::__private::Cow<'static, str> {
                <$crate::UlidFlake as $crate::__private::schemars::JsonSchema>::schema_name()
            }

            fn schema_id() -> $crate::__private::Cow<'static, str> {
                <$crate::UlidFlake as $crate::__private::schemars::JsonSchema>::schema_id()
            }

            fn json_schema(
                generator: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                <$crate::UlidFlake as $crate::__private::schemars::JsonSchema>::json_schema(
                    generator,
                )
            }
        }
    };
}

/// Without schemars there is nothing to generate.
#[cfg(not(feature = "schemars1"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_schemars {
    ($name:ident) => {};
}
