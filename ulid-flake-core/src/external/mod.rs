//! Integrations with other crates, each behind a feature named after the crate.

#[cfg(feature = "arbitrary")]
mod arbitrary_support;
#[cfg(feature = "async-graphql")]
mod async_graphql_support;
#[cfg(feature = "chrono")]
mod chrono_support;
#[cfg(feature = "diesel")]
pub(crate) mod diesel_support;
#[cfg(feature = "jiff")]
mod jiff_support;
#[cfg(feature = "postgres-types")]
mod postgres_types_support;
#[cfg(feature = "proptest")]
pub(crate) mod proptest_support;
#[cfg(feature = "rand010")]
pub(crate) mod rand010_support;
#[cfg(feature = "rusqlite")]
mod rusqlite_support;
#[cfg(feature = "schemars")]
mod schemars_support;
#[cfg(feature = "sea-orm")]
mod sea_orm_support;
#[cfg(feature = "serde")]
pub(crate) mod serde_support;
#[cfg(feature = "sqlx")]
mod sqlx_support;
#[cfg(feature = "time")]
mod time_support;
#[cfg(feature = "utoipa")]
mod utoipa_support;
#[cfg(feature = "uuid")]
mod uuid_support;

/// The two forms of an ID that the SQL and GraphQL integrations (postgres-types, rusqlite,
/// async-graphql) convert between, for [`UlidFlake`](crate::UlidFlake), [`Id<T>`](crate::Id)
/// and [`PrefixedId<T>`](crate::PrefixedId) alike: the integer of a `BIGINT` column, and the
/// type's own text (`Display`/`FromStr`: 13 characters, with `T`'s prefix and `_` before them
/// for a `PrefixedId<T>`).
#[cfg(any(
    feature = "postgres-types",
    feature = "rusqlite",
    feature = "async-graphql"
))]
pub(crate) mod text_form {
    use crate::{ENCODED_LEN, Error, Id, Prefix, PrefixedId, UlidFlake};

    /// An ID type's integer and text forms.
    pub(crate) trait TextForm: Copy {
        /// The ID of a `BIGINT`; a negative value is an [`Error::OutOfRange`].
        #[cfg_attr(
            not(any(feature = "postgres-types", feature = "rusqlite")),
            allow(dead_code, reason = "GraphQL carries the text only")
        )]
        fn from_i64(value: i64) -> Result<Self, Error>;

        /// The `BIGINT` of the ID.
        #[cfg_attr(
            not(any(feature = "postgres-types", feature = "rusqlite")),
            allow(dead_code, reason = "GraphQL carries the text only")
        )]
        fn to_i64(self) -> i64;

        /// The ID of its text, as `FromStr` reads it.
        fn parse_text(text: &[u8]) -> Result<Self, Error>;

        /// Calls `f` with the ID's text, as `Display` writes it, without allocating.
        #[cfg_attr(
            not(any(feature = "postgres-types", feature = "async-graphql")),
            allow(dead_code, reason = "rusqlite writes the integer only")
        )]
        fn with_text<R>(self, f: impl FnOnce(&str) -> R) -> R;
    }

    /// One impl per ID type: each has these four as inherent methods; only its text's
    /// longest length differs.
    macro_rules! text_form {
        ($([$($generics:tt)*] $ty:ty, $text_len:expr;)*) => {$(
            impl<$($generics)*> TextForm for $ty {
                fn from_i64(value: i64) -> Result<Self, Error> {
                    Self::from_i64(value)
                }

                fn to_i64(self) -> i64 {
                    self.to_i64()
                }

                fn parse_text(text: &[u8]) -> Result<Self, Error> {
                    Self::parse_ascii(text)
                }

                fn with_text<R>(self, f: impl FnOnce(&str) -> R) -> R {
                    f(self.encode(&mut [0; $text_len]))
                }
            }
        )*};
    }

    text_form! {
        [] UlidFlake, ENCODED_LEN;
        [T: ?Sized] Id<T>, ENCODED_LEN;
        [T: Prefix + ?Sized] PrefixedId<T>, crate::prefixed::MAX_TEXT_LEN;
    }
}

/// What the OpenAPI (utoipa) and JSON Schema (schemars) descriptions of an ID say, so that the
/// two agree: the string that JSON carries (serde's human-readable form), never the integer.
#[cfg(any(feature = "utoipa", feature = "schemars"))]
pub(crate) mod schema_text {
    /// The schema's name: the same for `UlidFlake` and every `Id<T>`.
    pub(crate) const NAME: &str = "UlidFlake";

    /// What the parser accepts: a first character 0-7, then 12 Crockford Base32 digits, in
    /// either case.
    pub(crate) const PATTERN: &str = "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$";

    /// The schema's description.
    pub(crate) const DESCRIPTION: &str = "A Ulid-Flake: a time-sortable 64-bit ID as 13 \
        Crockford Base32 characters (either case accepted). A string, not a number: IDs \
        exceed 2^53.";

    /// The example: the first vector of the specification.
    pub(crate) const EXAMPLE: &str = "00CMXB6TAK4SA";
}

/// What the date-time integrations (chrono, time, jiff) share: moments in whole Unix
/// milliseconds, rounded as [`Epoch::range_for_system_time`](crate::Epoch) rounds them.
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
mod date_time {
    use crate::{Epoch, Error, UlidFlake};

    /// Unix nanoseconds rounded down to whole milliseconds (towards the past, before 1970
    /// too), saturating at the ends of `i64`.
    #[cfg(any(feature = "time", feature = "jiff"))]
    pub(crate) fn floor_ms(nanos: i128) -> i64 {
        saturate(nanos.div_euclid(1_000_000))
    }

    /// Unix nanoseconds rounded up to whole milliseconds, saturating at the ends of `i64`.
    #[cfg(any(feature = "time", feature = "jiff"))]
    pub(crate) fn ceil_ms(nanos: i128) -> i64 {
        saturate(-(-nanos).div_euclid(1_000_000))
    }

    #[cfg(any(feature = "time", feature = "jiff"))]
    fn saturate(ms: i128) -> i64 {
        i64::try_from(ms).unwrap_or(if ms < 0 { i64::MIN } else { i64::MAX })
    }

    /// The stand-alone ID of a moment in Unix milliseconds with the given randomness.
    pub(crate) fn from_parts(
        epoch: Epoch,
        unix_ms: i64,
        randomness: u32,
    ) -> Result<UlidFlake, Error> {
        UlidFlake::from_parts(epoch.ms_since_epoch_at(unix_ms)?, randomness)
    }
}

/// The values that the fuzzing and property-testing integrations (arbitrary, proptest) draw
/// often, because code that handles IDs breaks at them first.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
mod edges {
    use crate::{MAX_TIMESTAMP, RANDOMNESS_BITS, RANDOMNESS_MAX, UlidFlake};

    /// The first and last IDs, their neighbours, and both ends of the first and last
    /// milliseconds.
    pub(crate) const VALUES: [UlidFlake; 8] = [
        UlidFlake::MIN,
        UlidFlake::from_raw(1),
        UlidFlake::from_raw(RANDOMNESS_MAX as u64),
        UlidFlake::from_raw(1 << RANDOMNESS_BITS),
        UlidFlake::from_raw(MAX_TIMESTAMP << RANDOMNESS_BITS),
        UlidFlake::from_raw(MAX_TIMESTAMP << RANDOMNESS_BITS | 1),
        UlidFlake::from_raw(i64::MAX as u64 - 1),
        UlidFlake::MAX,
    ];

    /// The ID of this timestamp with randomness 0 (`max` false) or all ones.
    pub(crate) const fn with_edge_randomness(ms_since_epoch: u64, max: bool) -> UlidFlake {
        let randomness = if max { RANDOMNESS_MAX as u64 } else { 0 };
        UlidFlake::from_raw((ms_since_epoch & MAX_TIMESTAMP) << RANDOMNESS_BITS | randomness)
    }

    /// The ID of this randomness in the first (`last` false) or last millisecond.
    pub(crate) const fn at_edge_timestamp(last: bool, randomness: u32) -> UlidFlake {
        let timestamp = if last { MAX_TIMESTAMP } else { 0 };
        UlidFlake::from_raw(timestamp << RANDOMNESS_BITS | (randomness & RANDOMNESS_MAX) as u64)
    }

    /// Any valid ID, from 64 bits: the top bit dropped.
    #[cfg(feature = "arbitrary")]
    pub(crate) const fn from_bits(bits: u64) -> UlidFlake {
        UlidFlake::from_raw(bits >> 1)
    }
}

// The parts of `newtype!` that depend on a feature. Each is defined twice, under the feature
// and under its negation (as a no-op), so that `newtype!` expands according to this crate's
// features wherever it is called.

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
#[cfg(feature = "sqlx")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_sqlx {
    ($name:ident) => {
        $crate::__impl_sqlx_via_ulid_flake!([] $name);
    };
}

/// Without sqlx there is nothing to generate.
#[cfg(not(feature = "sqlx"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_sqlx {
    ($name:ident) => {};
}

/// `newtype!`'s SeaORM impls.
#[cfg(feature = "sea-orm")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_sea_orm {
    ($name:ident) => {
        $crate::__impl_sea_orm_via_ulid_flake!([] $name, ::core::stringify!($name));
    };
}

/// Without SeaORM there is nothing to generate.
#[cfg(not(feature = "sea-orm"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_sea_orm {
    ($name:ident) => {};
}

/// `newtype!`'s Diesel impls: what `#[derive(AsExpression)]` with
/// `#[diesel(sql_type = BigInt)]` writes (done by hand, so that the calling crate need not
/// name `diesel`), then the conversions.
#[cfg(feature = "diesel")]
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
#[cfg(not(feature = "diesel"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_diesel {
    ($name:ident) => {};
}

/// `newtype!`'s utoipa impls: the schema of `UlidFlake`, under its name.
#[cfg(feature = "utoipa")]
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
#[cfg(not(feature = "utoipa"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_utoipa {
    ($name:ident) => {};
}

/// `newtype!`'s schemars impl: the schema of `UlidFlake`, under its name and id, so that
/// the definition is shared.
#[cfg(feature = "schemars")]
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
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_schemars {
    ($name:ident) => {};
}
