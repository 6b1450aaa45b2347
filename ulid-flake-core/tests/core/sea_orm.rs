//! SeaORM's column-type traits, without a database: the `Value` an ID becomes and is read
//! back from, the column and array types, and the errors of values that are no ID. Reading
//! rows, entities and relations are tested against real databases in `tests/sea-orm`.

// SeaORM through the core's re-export: a dev-dependency would build SeaORM for every test run
// of the core, with the feature or without.
use ulid_flake_core::__private::sea_orm::sea_query::{
    ArrayType, ColumnType, Nullable, ValueType, ValueTypeErr,
};
use ulid_flake_core::__private::sea_orm::{ActiveValue, DbErr, IntoActiveValue, TryFromU64, Value};
use ulid_flake_core::{Error, Id, Prefix, PrefixedId, UlidFlake, ulid_flake};

struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

ulid_flake_core::newtype! {
    /// A user's own key type.
    struct UserId;
}

const ID: UlidFlake = ulid_flake!("00CMXB6TAK4SA");
const ID_I64: i64 = 14_246_757_444_195_114;

/// The message of an out-of-range value read as a `from`.
fn out_of_range(from: &str, into: &str, found: i128) -> String {
    format!(
        "Error converting `{from}` into `{into}`: value out of range: expected \
         0..=9223372036854775807, found {found}"
    )
}

#[test]
fn every_id_type_becomes_a_bigint_value() {
    let bigint = Value::BigInt(Some(ID_I64));
    assert_eq!(Value::from(ID), bigint);
    assert_eq!(Value::from(Id::<User>::from(ID)), bigint);
    assert_eq!(Value::from(PrefixedId::<User>::from(ID)), bigint);
    assert_eq!(Value::from(UserId(ID)), bigint);
    assert_eq!(Value::from(UlidFlake::MAX), Value::BigInt(Some(i64::MAX)));
    assert_eq!(Value::from(UlidFlake::MIN), Value::BigInt(Some(0)));
}

#[test]
fn every_id_type_reads_a_bigint_value_back() {
    let bigint = || Value::BigInt(Some(ID_I64));
    assert_eq!(<UlidFlake as ValueType>::try_from(bigint()).unwrap(), ID);
    assert_eq!(
        <Id<User> as ValueType>::try_from(bigint()).unwrap(),
        Id::from(ID)
    );
    assert_eq!(
        <PrefixedId<User> as ValueType>::try_from(bigint()).unwrap(),
        PrefixedId::from(ID)
    );
    assert_eq!(
        <UserId as ValueType>::try_from(bigint()).unwrap(),
        UserId(ID)
    );
    assert_eq!(
        <Option<Id<User>> as ValueType>::try_from(Value::BigInt(None)).unwrap(),
        None
    );
}

#[test]
fn a_negative_null_or_other_value_is_no_id() {
    let rejects = |value: Value| {
        assert!(
            matches!(<Id<User> as ValueType>::try_from(value), Err(ValueTypeErr)),
            "accepted"
        );
    };
    rejects(Value::BigInt(Some(-1)));
    rejects(Value::BigInt(Some(i64::MIN)));
    rejects(Value::BigInt(None));
    rejects(Value::Int(Some(5)));
    rejects(Value::String(Some("00CMXB6TAK4SA".into())));
}

#[test]
fn the_column_is_a_bigint_and_the_array_a_bigint_array() {
    assert_eq!(
        <Id<User> as ValueType>::column_type(),
        ColumnType::BigInteger
    );
    assert_eq!(
        <UlidFlake as ValueType>::column_type(),
        ColumnType::BigInteger
    );
    assert_eq!(<UserId as ValueType>::column_type(), ColumnType::BigInteger);
    assert_eq!(<Id<User> as ValueType>::array_type(), ArrayType::BigInt);
    assert_eq!(<UlidFlake as ValueType>::type_name(), "UlidFlake");
    assert_eq!(<Id<User> as ValueType>::type_name(), "Id");
    assert_eq!(<PrefixedId<User> as ValueType>::type_name(), "PrefixedId");
    assert_eq!(<UserId as ValueType>::type_name(), "UserId");
}

#[test]
fn null_is_a_null_bigint() {
    assert_eq!(<Id<User> as Nullable>::null(), Value::BigInt(None));
    assert_eq!(<UlidFlake as Nullable>::null(), Value::BigInt(None));
    assert_eq!(Value::from(None::<Id<User>>), Value::BigInt(None));
}

#[test]
fn a_vec_of_ids_is_a_bigint_array_value() {
    let ids = vec![Id::<User>::from(ID), Id::from(UlidFlake::MAX)];
    let array = Value::Array(
        ArrayType::BigInt,
        Some(Box::new(vec![
            Value::BigInt(Some(ID_I64)),
            Value::BigInt(Some(i64::MAX)),
        ])),
    );
    assert_eq!(Value::from(ids.clone()), array);
    assert_eq!(<Vec<Id<User>> as ValueType>::try_from(array).unwrap(), ids);
}

#[test]
fn an_id_is_set_as_an_active_value() {
    let id = Id::<User>::from(ID);
    assert_eq!(id.into_active_value(), ActiveValue::Set(id));
    assert_eq!(ID.into_active_value(), ActiveValue::Set(ID));
}

#[test]
fn try_from_u64_builds_keys_up_to_i64_max() {
    assert_eq!(UlidFlake::try_from_u64(ID_I64 as u64).unwrap(), ID);
    assert_eq!(
        Id::<User>::try_from_u64(i64::MAX as u64).unwrap(),
        Id::from(UlidFlake::MAX)
    );
    assert_eq!(UserId::try_from_u64(0).unwrap(), UserId(UlidFlake::MIN));
}

#[test]
fn try_from_u64_above_i64_max_is_an_error_that_names_it() {
    let error = Id::<User>::try_from_u64(1 << 63).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "{} (in Base32 text: expected a first character 0-7, found 8)",
            out_of_range("u64", "Id", 1 << 63)
        )
    );
    // The core's error is the source, for callers that match on it.
    let DbErr::TryIntoErr { from, into, source } = error else {
        panic!("expected DbErr::TryIntoErr, found {error:?}");
    };
    assert_eq!((from, into), ("u64", "Id"));
    assert_eq!(
        source.downcast_ref::<Error>(),
        Some(&Error::OutOfRange { found: 1 << 63 })
    );
}
