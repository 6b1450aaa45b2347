//! The core through tokio-postgres, on the PostgreSQL at `ULID_FLAKE_TEST_POSTGRES_URL` (set
//! by `scripts/with-databases.sh`; the tests fail without it): `UlidFlake`, `Id<T>` and
//! `PrefixedId<T>` as `INT8` and `INT8[]` in the binary protocol of prepared statements,
//! `TEXT` holding the text, and what the text protocol (`simple_query`) returns; and a third
//! lease store (`lease_store`), through the lease fault scenarios (`lease_faults`).

mod lease_faults;
mod lease_store;

use std::error::Error as _;

use tokio_postgres::{Client, NoTls, SimpleQueryMessage};
use ulid_flake_core::{Error, Id, Prefix, PrefixedId, UlidFlake, ulid_flake};
use ulid_flake_test_support::databases::{VALUES, postgres_url};

struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

/// A session on the test server, with a temporary table of an `INT8` and a `TEXT` column.
async fn connect() -> Client {
    let url = postgres_url();
    let (client, connection) = tokio_postgres::connect(&url, NoTls)
        .await
        .unwrap_or_else(|error| panic!("PostgreSQL at {url} is unreachable: {error}"));
    tokio::spawn(async move {
        if let Err(error) = connection.await {
            panic!("the PostgreSQL connection failed: {error}");
        }
    });
    client
        .batch_execute(
            "CREATE TEMPORARY TABLE ids (n INT NOT NULL, id INT8, label TEXT); \
             CREATE TEMPORARY TABLE id_lists (ids INT8[] NOT NULL)",
        )
        .await
        .unwrap();
    client
}

/// The error of reading column 0 of `sql`'s one row as a `V`: the core's [`Error`], which
/// tokio-postgres keeps as the `source()` of its own (whose message names only the column).
async fn read_error<V>(client: &Client, sql: &str) -> Error
where
    V: for<'a> tokio_postgres::types::FromSql<'a> + std::fmt::Debug,
{
    let row = client.query_one(sql, &[]).await.unwrap();
    let error = row.try_get::<_, V>(0).unwrap_err();
    assert_eq!(error.to_string(), "error deserializing column 0");
    error
        .source()
        .and_then(|source| source.downcast_ref::<Error>())
        .copied()
        .unwrap_or_else(|| panic!("expected the core's Error as the source of {error:?}"))
}

/// The message of the `source()` of tokio-postgres's error of reading column 0 of `row` as `V`.
fn source_message<V>(row: &tokio_postgres::Row) -> String
where
    V: for<'a> tokio_postgres::types::FromSql<'a> + std::fmt::Debug,
{
    let error = row.try_get::<_, V>(0).unwrap_err();
    assert_eq!(error.to_string(), "error deserializing column 0");
    error.source().unwrap().to_string()
}

#[tokio::test]
async fn the_binary_protocol_round_trips_the_vectors_as_int8() {
    let client = connect().await;
    let insert = client
        .prepare("INSERT INTO ids (n, id) VALUES ($1, $2)")
        .await
        .unwrap();
    for (n, value) in (0..).zip(VALUES) {
        match n % 3 {
            0 => client.execute(&insert, &[&n, &value]).await,
            1 => {
                client
                    .execute(&insert, &[&n, &Id::<User>::from(value)])
                    .await
            }
            _ => {
                let prefixed = PrefixedId::<User>::from(value);
                client.execute(&insert, &[&n, &prefixed]).await
            }
        }
        .unwrap();
    }

    let rows = client
        .query("SELECT id, id AS bigint FROM ids ORDER BY n", &[])
        .await
        .unwrap();
    let stored: Vec<(UlidFlake, Id<User>, PrefixedId<User>, i64)> = rows
        .iter()
        .map(|row| (row.get(0), row.get(0), row.get(0), row.get(1)))
        .collect();
    let expected: Vec<_> = VALUES
        .iter()
        .map(|&value| {
            (
                value,
                Id::from(value),
                PrefixedId::from(value),
                value.to_i64(),
            )
        })
        .collect();
    assert_eq!(stored, expected);
}

#[tokio::test]
async fn ids_bind_in_where_clauses_and_keep_the_integer_order() {
    let client = connect().await;
    for (n, value) in (0..).zip(VALUES.iter().rev()) {
        client
            .execute("INSERT INTO ids (n, id) VALUES ($1, $2)", &[&n, value])
            .await
            .unwrap();
    }
    let above: Vec<Id<User>> = client
        .query(
            "SELECT id FROM ids WHERE id > $1 ORDER BY id",
            &[&Id::<User>::from(ulid_flake!("00F5MN1MCFT30"))],
        )
        .await
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(
        above,
        [
            Id::from(ulid_flake!("00F5PEXFDQCGR")),
            Id::from(ulid_flake!("128GGYHYYK08N")),
            Id::from(UlidFlake::MAX),
        ]
    );
}

#[tokio::test]
async fn int8_arrays_round_trip_and_bind_any() {
    let client = connect().await;
    let ids: Vec<Id<User>> = VALUES.iter().map(|&value| Id::from(value)).collect();
    client
        .execute("INSERT INTO id_lists (ids) VALUES ($1)", &[&ids])
        .await
        .unwrap();
    let row = client
        .query_one("SELECT ids, ids::TEXT FROM id_lists", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, Vec<Id<User>>>(0), ids);
    assert_eq!(
        row.get::<_, String>(1),
        format!(
            "{{{}}}",
            VALUES.map(|value| value.to_i64().to_string()).join(",")
        )
    );

    for (n, value) in (0..).zip(VALUES) {
        client
            .execute("INSERT INTO ids (n, id) VALUES ($1, $2)", &[&n, &value])
            .await
            .unwrap();
    }
    let wanted = [ulid_flake!("00CMXB6TAK4SA"), UlidFlake::MAX];
    let found: Vec<UlidFlake> = client
        .query(
            "SELECT id FROM ids WHERE id = ANY($1) ORDER BY id",
            &[&&wanted[..]],
        )
        .await
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(found, wanted);
}

#[tokio::test]
async fn a_negative_int8_is_an_out_of_range_error_that_names_it() {
    let client = connect().await;
    let source = read_error::<UlidFlake>(&client, "SELECT (-5)::INT8").await;
    assert_eq!(
        source.to_string(),
        "value out of range: expected 0..=9223372036854775807, \
         found -5"
    );
    assert_eq!(source, Error::OutOfRange { found: -5 });
    let source = read_error::<Id<User>>(&client, "SELECT (-9223372036854775808)::INT8").await;
    assert_eq!(
        source,
        Error::OutOfRange {
            found: i64::MIN.into()
        }
    );
    let source = read_error::<PrefixedId<User>>(&client, "SELECT (-1)::INT8").await;
    assert_eq!(source, Error::OutOfRange { found: -1 });
}

#[tokio::test]
async fn a_negative_element_of_an_int8_array_is_an_out_of_range_error() {
    let client = connect().await;
    let source = read_error::<Vec<Id<User>>>(&client, "SELECT ARRAY[1, -7, 2]::INT8[]").await;
    assert_eq!(
        source.to_string(),
        "value out of range: expected 0..=9223372036854775807, \
         found -7"
    );
    assert_eq!(source, Error::OutOfRange { found: -7 });
}

#[tokio::test]
async fn null_reads_as_none_and_fails_a_plain_id() {
    let client = connect().await;
    let none: Option<UlidFlake> = None;
    client
        .execute("INSERT INTO ids (n, id) VALUES (0, $1)", &[&none])
        .await
        .unwrap();
    let row = client.query_one("SELECT id FROM ids", &[]).await.unwrap();
    assert_eq!(row.get::<_, Option<Id<User>>>(0), None);
    assert_eq!(
        source_message::<Id<User>>(&row),
        "a Postgres value was `NULL`"
    );
}

#[tokio::test]
async fn another_integer_type_is_refused_before_reading() {
    let client = connect().await;
    let row = client.query_one("SELECT 5", &[]).await.unwrap();
    assert_eq!(
        source_message::<UlidFlake>(&row),
        "cannot convert between the Rust type \
         `ulid_flake_core::ulid_flake::UlidFlake` and the Postgres type `int4`"
    );
}

#[tokio::test]
async fn text_columns_hold_each_types_text() {
    let client = connect().await;
    let value = ulid_flake!("00CMXB6TAK4SA");
    let insert = "INSERT INTO ids (n, label) VALUES ($1, $2)";
    client.execute(insert, &[&0, &value]).await.unwrap();
    client
        .execute(insert, &[&1, &Id::<User>::from(value)])
        .await
        .unwrap();
    client
        .execute(insert, &[&2, &PrefixedId::<User>::from(value)])
        .await
        .unwrap();

    let rows = client
        .query("SELECT label FROM ids ORDER BY n", &[])
        .await
        .unwrap();
    let labels: Vec<String> = rows.iter().map(|row| row.get(0)).collect();
    assert_eq!(
        labels,
        ["00CMXB6TAK4SA", "00CMXB6TAK4SA", "user_00CMXB6TAK4SA"]
    );
    assert_eq!(rows[0].get::<_, UlidFlake>(0), value);
    assert_eq!(rows[1].get::<_, Id<User>>(0), Id::from(value));
    assert_eq!(
        rows[2].get::<_, PrefixedId<User>>(0),
        PrefixedId::from(value)
    );
}

/// `CHAR(n)` pads a value with spaces to `n` characters; the padding is no part of the ID.
#[tokio::test]
async fn a_char_column_wider_than_the_text_reads_back_what_was_written() {
    let client = connect().await;
    client
        .batch_execute("CREATE TEMPORARY TABLE padded (n INT8, label CHAR(24))")
        .await
        .unwrap();
    let value = ulid_flake!("00CMXB6TAK4SA");
    let insert = "INSERT INTO padded VALUES ($1, $2)";
    client
        .execute(insert, &[&1_i64, &Id::<User>::from(value)])
        .await
        .unwrap();
    client
        .execute(insert, &[&2_i64, &PrefixedId::<User>::from(value)])
        .await
        .unwrap();
    let rows = client
        .query(
            "SELECT label, octet_length(label) FROM padded ORDER BY n",
            &[],
        )
        .await
        .unwrap();
    // What the server sends: the text and its padding.
    assert_eq!(rows[0].get::<_, i32>(1), 24);
    assert_eq!(rows[0].get::<_, Id<User>>(0), Id::from(value));
    assert_eq!(
        rows[1].get::<_, PrefixedId<User>>(0),
        PrefixedId::from(value)
    );
    // Spaces inside the text are still an error.
    let source = read_error::<UlidFlake>(&client, "SELECT '00CMXB6 AK4SA'::CHAR(20)").await;
    assert_eq!(
        source,
        Error::InvalidCharacter {
            index: 7,
            found: b' '
        }
    );
}

#[tokio::test]
async fn text_values_read_in_either_case_from_text_varchar_and_char() {
    let client = connect().await;
    let row = client
        .query_one(
            "SELECT '00cmxb6tak4sa'::TEXT, '00CMXB6TAK4SA'::VARCHAR(13), \
             '00CMXB6TAK4SA'::CHAR(13), 'user_00cmxb6tak4sa'::TEXT",
            &[],
        )
        .await
        .unwrap();
    let value = ulid_flake!("00CMXB6TAK4SA");
    assert_eq!(row.get::<_, UlidFlake>(0), value);
    assert_eq!(row.get::<_, Id<User>>(1), Id::from(value));
    assert_eq!(row.get::<_, UlidFlake>(2), value);
    assert_eq!(row.get::<_, PrefixedId<User>>(3), PrefixedId::from(value));
}

#[tokio::test]
async fn malformed_text_is_an_error_that_says_what_was_expected() {
    let client = connect().await;
    let source = read_error::<UlidFlake>(&client, "SELECT '00CMXB6TAK4SI'::TEXT").await;
    assert_eq!(
        source.to_string(),
        "invalid character 'I' at index 12: expected a Crockford \
         Base32 digit (0-9, A-Z without I, L, O, U, in either case)"
    );
    assert_eq!(
        source,
        Error::InvalidCharacter {
            index: 12,
            found: b'I'
        }
    );

    // An integer's decimal digits are not an ID's text: no guessing.
    let source = read_error::<Id<User>>(&client, "SELECT '77309411328'::TEXT").await;
    assert_eq!(
        source.to_string(),
        "invalid length: expected 13 ASCII characters, found 11 bytes"
    );
    assert_eq!(
        source,
        Error::InvalidLength {
            found: 11,
            prefix: ""
        }
    );
    // Thirteen digits are valid Base32: read as text, they are another ID than their number.
    let row = client
        .query_one("SELECT '1234567890123'::TEXT", &[])
        .await
        .unwrap();
    let read: Id<User> = row.get(0);
    assert_eq!(read, "1234567890123".parse().unwrap());
    assert_ne!(read.to_i64(), 1_234_567_890_123);

    let source = read_error::<PrefixedId<User>>(&client, "SELECT 'post_00CMXB6TAK4SA'::TEXT").await;
    assert_eq!(
        source.to_string(),
        "wrong prefix: expected `user_`, found `post_`"
    );
}

#[tokio::test]
async fn the_text_protocol_returns_int8_as_its_decimal_and_text_as_written() {
    let client = connect().await;
    let value = ulid_flake!("00CMXB6TAK4SA");
    // No parameters in the text protocol: the ID goes into the SQL as its integer.
    client
        .simple_query(&format!(
            "INSERT INTO ids (n, id, label) VALUES (0, {}, '{value}')",
            value.to_i64()
        ))
        .await
        .unwrap();
    let messages = client
        .simple_query("SELECT id, label, -id FROM ids")
        .await
        .unwrap();
    let SimpleQueryMessage::Row(row) = &messages[1] else {
        panic!("expected a row after the row description, found {messages:?}");
    };
    assert_eq!(row.get(0), Some("14246757444195114"));
    assert_eq!(row.get(1), Some("00CMXB6TAK4SA"));

    let read = |index: usize| -> Result<UlidFlake, Error> {
        let decimal: i64 = row.get(index).unwrap().parse().unwrap();
        UlidFlake::try_from(decimal)
    };
    assert_eq!(read(0), Ok(value));
    assert_eq!(row.get(1).unwrap().parse::<UlidFlake>(), Ok(value));
    assert_eq!(
        read(2),
        Err(Error::OutOfRange {
            found: -14_246_757_444_195_114
        })
    );
}
