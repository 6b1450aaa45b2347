//! `newtype!`: a key type of one's own, with what `Id<T>` has, following the core's features.

use std::collections::HashSet;

use ulid_flake_core::{Error, UlidFlake, ulid_flake};

ulid_flake_core::newtype! {
    /// The key of a user.
    #[derive(Default)]
    pub struct UserId;
}

const ADA: UserId = UserId(ulid_flake!("00CMXB6TAK4SA"));

#[test]
fn display_debug_and_from_str() {
    assert_eq!(ADA.to_string(), "00CMXB6TAK4SA");
    assert_eq!(format!("{ADA:?}"), "UserId(00CMXB6TAK4SA)");
    assert_eq!("00cmxb6tak4sa".parse::<UserId>(), Ok(ADA));
    assert_eq!(
        "00CMXB6TAK4SI".parse::<UserId>(),
        Err(Error::InvalidCharacter {
            index: 12,
            found: b'I'
        })
    );
    // Attributes before `struct` are kept.
    assert_eq!(UserId::default(), UserId(UlidFlake::MIN));
}

#[test]
fn conversions_with_ulid_flake_and_the_integers() {
    assert_eq!(UlidFlake::from(ADA), ADA.0);
    assert_eq!(UserId::from(ADA.0), ADA);
    assert_eq!(i64::from(ADA), 14_246_757_444_195_114);
    assert_eq!(u64::from(ADA), 14_246_757_444_195_114);
    assert_eq!(UserId::try_from(14_246_757_444_195_114_i64), Ok(ADA));
    assert_eq!(UserId::try_from(14_246_757_444_195_114_u64), Ok(ADA));
    assert_eq!(
        UserId::try_from(-5_i64),
        Err(Error::OutOfRange { found: -5 })
    );
    assert_eq!(
        UserId::try_from(u64::MAX),
        Err(Error::OutOfRange {
            found: u64::MAX.into()
        })
    );
}

#[test]
fn order_equality_and_hash_are_the_ids() {
    let later = UserId(ulid_flake!("00F5PEXFDQCGR"));
    assert!(ADA < later);
    let copy = ADA;
    assert_eq!(copy, ADA);
    assert_eq!(HashSet::from([ADA, copy, later]).len(), 2);
}

#[test]
fn generate_uses_the_default_generator() {
    let first = UserId::generate().unwrap();
    let second = UserId::generate().unwrap();
    assert!(first < second);
}

#[cfg(feature = "serde")]
#[test]
fn serde_as_ulid_flake() {
    assert_eq!(serde_json::to_string(&ADA).unwrap(), r#""00CMXB6TAK4SA""#);
    assert_eq!(
        serde_json::from_str::<UserId>(r#""00cmxb6tak4sa""#).unwrap(),
        ADA
    );
    assert!(serde_json::from_str::<UserId>("14246757444195114").is_err());
    // Binary formats get the integer.
    let mut cbor = Vec::new();
    ciborium::into_writer(&ADA, &mut cbor).unwrap();
    let mut expected = Vec::new();
    ciborium::into_writer(&14_246_757_444_195_114_u64, &mut expected).unwrap();
    assert_eq!(cbor, expected);
    assert_eq!(ciborium::from_reader::<UserId, _>(&cbor[..]).unwrap(), ADA);
}

#[cfg(feature = "utoipa")]
#[test]
fn utoipa_schema_is_ulid_flakes() {
    use utoipa::{PartialSchema, ToSchema};

    #[derive(ToSchema)]
    #[allow(dead_code)]
    struct User {
        id: UserId,
    }

    assert_eq!(UserId::name(), "UlidFlake");
    assert_eq!(
        serde_json::to_value(UserId::schema()).unwrap(),
        serde_json::to_value(UlidFlake::schema()).unwrap()
    );
    let user = serde_json::to_value(User::schema()).unwrap();
    assert_eq!(
        user["properties"]["id"]["$ref"],
        "#/components/schemas/UlidFlake"
    );
}

#[cfg(feature = "schemars")]
#[test]
fn json_schema_shares_ulid_flakes_definition() {
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct User {
        id: UserId,
        raw: UlidFlake,
    }

    let schema = schemars::schema_for!(User);
    let properties = schema.get("properties").unwrap();
    assert_eq!(properties["id"]["$ref"], "#/$defs/UlidFlake");
    assert_eq!(properties["raw"]["$ref"], "#/$defs/UlidFlake");
    assert_eq!(schema.get("$defs").unwrap().as_object().unwrap().len(), 1);
}

// The database traits are exercised on real databases in the adapters' tests; here, that
// they follow the core's features.
#[cfg(feature = "sqlx-postgres")]
#[test]
fn sqlx_traits_and_postgres_arrays() {
    fn assert_sqlx<T>()
    where
        T: sqlx::Type<sqlx::Postgres>
            + for<'q> sqlx::Encode<'q, sqlx::Postgres>
            + for<'r> sqlx::Decode<'r, sqlx::Postgres>
            + sqlx::postgres::PgHasArrayType,
    {
    }
    assert_sqlx::<UserId>();
}
