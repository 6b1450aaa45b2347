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
fn display_is_the_text() {
    assert_eq!(ADA.to_string(), "00CMXB6TAK4SA");
}

#[test]
fn debug_names_the_type() {
    assert_eq!(format!("{ADA:?}"), "UserId(00CMXB6TAK4SA)");
}

#[test]
fn from_str_reads_either_case() {
    assert_eq!("00cmxb6tak4sa".parse::<UserId>(), Ok(ADA));
}

#[test]
fn from_str_rejects_an_invalid_character() {
    assert_eq!(
        "00CMXB6TAK4SI".parse::<UserId>(),
        Err(Error::InvalidCharacter {
            index: 12,
            found: b'I'
        })
    );
}

#[test]
fn attributes_before_struct_are_kept() {
    assert_eq!(UserId::default(), UserId(UlidFlake::MIN));
}

#[test]
fn converts_to_and_from_ulid_flake() {
    assert_eq!(UlidFlake::from(ADA), ADA.0);
    assert_eq!(UserId::from(ADA.0), ADA);
}

#[test]
fn converts_to_and_from_integers() {
    assert_eq!(i64::from(ADA), 14_246_757_444_195_114);
    assert_eq!(u64::from(ADA), 14_246_757_444_195_114);
    assert_eq!(UserId::try_from(14_246_757_444_195_114_i64), Ok(ADA));
    assert_eq!(UserId::try_from(14_246_757_444_195_114_u64), Ok(ADA));
}

#[test]
fn rejects_integers_outside_0_to_i64_max() {
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

/// A user's key made after `ADA`.
const LATER: UserId = UserId(ulid_flake!("00F5PEXFDQCGR"));

#[test]
fn order_is_the_id_s() {
    assert!(ADA < LATER);
}

#[test]
fn a_copy_is_equal() {
    let copy = ADA;
    assert_eq!(copy, ADA);
}

#[test]
fn hash_is_the_id_s() {
    let copy = ADA;
    assert_eq!(HashSet::from([ADA, copy, LATER]).len(), 2);
}

#[test]
fn generate_uses_the_default_generator() {
    let first = UserId::generate().unwrap();
    let second = UserId::generate().unwrap();
    assert!(first < second);
}

#[cfg(feature = "serde")]
#[test]
fn json_carries_the_text_as_ulid_flake_does() {
    assert_eq!(serde_json::to_string(&ADA).unwrap(), r#""00CMXB6TAK4SA""#);
    assert_eq!(
        serde_json::from_str::<UserId>(r#""00cmxb6tak4sa""#).unwrap(),
        ADA
    );
}

#[cfg(feature = "serde")]
#[test]
fn json_rejects_numbers_as_ulid_flake_does() {
    assert!(serde_json::from_str::<UserId>("14246757444195114").is_err());
}

#[cfg(feature = "serde")]
#[test]
fn binary_formats_carry_the_integer_as_ulid_flake_does() {
    let mut cbor = Vec::new();
    ciborium::into_writer(&ADA, &mut cbor).unwrap();
    let mut expected = Vec::new();
    ciborium::into_writer(&14_246_757_444_195_114_u64, &mut expected).unwrap();
    assert_eq!(cbor, expected);
    assert_eq!(ciborium::from_reader::<UserId, _>(&cbor[..]).unwrap(), ADA);
}

#[cfg(feature = "utoipa5")]
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

#[cfg(feature = "schemars1")]
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
#[cfg(feature = "sqlx09-postgres")]
#[test]
fn sqlx_encodes_and_decodes_it_on_postgres() {
    fn assert_sqlx<T>()
    where
        T: sqlx::Type<sqlx::Postgres>
            + for<'q> sqlx::Encode<'q, sqlx::Postgres>
            + for<'r> sqlx::Decode<'r, sqlx::Postgres>,
    {
    }
    assert_sqlx::<UserId>();
}

#[cfg(feature = "sqlx09-postgres")]
#[test]
fn postgres_arrays_of_it_are_sqlx_types() {
    fn assert_array<T: sqlx::postgres::PgHasArrayType>() {}
    assert_array::<UserId>();
}
