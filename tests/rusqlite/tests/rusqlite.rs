//! `UlidFlake`, `Id<T>` and `PrefixedId<T>` through rusqlite on real SQLite files (in
//! `ULID_FLAKE_TEST_SQLITE_DIR` when set): written as `INTEGER`s, read from an `INTEGER` or
//! from a `TEXT` holding the ID's text.

use std::error::Error as _;

use rusqlite::{Connection, params};
use ulid_flake_core::{Error, Id, Prefix, PrefixedId, UlidFlake, ulid_flake};
use ulid_flake_test_support::databases::{VALUES, sqlite_file};

struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

/// One stored ID read as each type, with its storage class and its `i64`.
type Readings = (UlidFlake, Id<User>, PrefixedId<User>, String, i64);

/// A new SQLite file with a table of an `INTEGER` and a `TEXT` column.
fn open() -> Connection {
    let path = sqlite_file("rusqlite");
    let connection = Connection::open(&path)
        .unwrap_or_else(|error| panic!("cannot open the SQLite file {}: {error}", path.display()));
    connection
        .execute_batch(
            "CREATE TABLE ids (n INTEGER PRIMARY KEY, id INTEGER, label TEXT); \
             CREATE TABLE users (id INTEGER PRIMARY KEY, invited_by INTEGER REFERENCES users (id))",
        )
        .unwrap();
    connection
}

/// The error of reading column 0 of `sql`'s one row as a `V`: its message, and the core's
/// [`Error`], which rusqlite keeps as the `source()` of its own.
fn read_error<V: rusqlite::types::FromSql + std::fmt::Debug>(
    connection: &Connection,
    sql: &str,
) -> (String, Error) {
    let error = connection
        .query_row(sql, [], |row| row.get::<_, V>(0))
        .unwrap_err();
    let source = error
        .source()
        .and_then(|source| source.downcast_ref::<Error>())
        .copied()
        .unwrap_or_else(|| panic!("expected the core's Error as the source of {error:?}"));
    (error.to_string(), source)
}

#[test]
fn the_vectors_round_trip_as_integers() {
    let connection = open();
    for (n, value) in (0..).zip(VALUES) {
        match n % 3 {
            0 => connection.execute("INSERT INTO ids (n, id) VALUES (?1, ?2)", params![n, value]),
            1 => connection.execute(
                "INSERT INTO ids (n, id) VALUES (?1, ?2)",
                params![n, Id::<User>::from(value)],
            ),
            _ => connection.execute(
                "INSERT INTO ids (n, id) VALUES (?1, ?2)",
                params![n, PrefixedId::<User>::from(value)],
            ),
        }
        .unwrap();
    }

    let mut statement = connection
        .prepare("SELECT id, typeof(id), id FROM ids ORDER BY n")
        .unwrap();
    let stored: Vec<Readings> = statement
        .query_map([], |row| {
            Ok((
                row.get(0)?,
                row.get(0)?,
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expected: Vec<_> = VALUES
        .iter()
        .map(|&value| {
            (
                value,
                Id::from(value),
                PrefixedId::from(value),
                "integer".to_owned(),
                value.to_i64(),
            )
        })
        .collect();
    assert_eq!(stored, expected);
}

#[test]
fn typed_keys_bind_in_where_clauses_and_joins() {
    let connection = open();
    let ada = Id::<User>::from(ulid_flake!("00CMXB6TAK4SA"));
    let bob = Id::<User>::from(ulid_flake!("00F5PEXFDQCGR"));
    connection
        .execute(
            "INSERT INTO users (id, invited_by) VALUES (?1, NULL)",
            [ada],
        )
        .unwrap();
    connection
        .execute(
            "INSERT INTO users (id, invited_by) VALUES (?1, ?2)",
            [bob, ada],
        )
        .unwrap();
    let (invitee, inviter): (Id<User>, Option<Id<User>>) = connection
        .query_row(
            "SELECT u.id, i.id FROM users u LEFT JOIN users i ON i.id = u.invited_by \
             WHERE u.id > ?1",
            [ada],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!((invitee, inviter), (bob, Some(ada)));
}

#[test]
fn null_reads_as_none_and_fails_a_plain_id() {
    let connection = open();
    connection
        .execute(
            "INSERT INTO ids (n, id) VALUES (0, ?1)",
            [None::<UlidFlake>],
        )
        .unwrap();
    let none: Option<Id<User>> = connection
        .query_row("SELECT id FROM ids", [], |row| row.get(0))
        .unwrap();
    assert_eq!(none, None);
    let error = connection
        .query_row("SELECT id FROM ids", [], |row| row.get::<_, Id<User>>(0))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "Invalid column type Null at index: 0, name: id"
    );
}

#[test]
fn a_negative_integer_is_an_out_of_range_error_that_names_it() {
    let connection = open();
    let (message, source) = read_error::<UlidFlake>(&connection, "SELECT -5");
    assert_eq!(
        message,
        "Conversion error from type Integer at index: 0, value out of range: expected \
         0..=9223372036854775807, found -5"
    );
    assert_eq!(source, Error::OutOfRange { found: -5 });
    let (_, source) = read_error::<Id<User>>(&connection, "SELECT -9223372036854775808");
    assert_eq!(
        source,
        Error::OutOfRange {
            found: i64::MIN.into()
        }
    );
    let (_, source) = read_error::<PrefixedId<User>>(&connection, "SELECT -1");
    assert_eq!(source, Error::OutOfRange { found: -1 });
}

#[test]
fn text_holding_the_ids_text_reads_in_either_case() {
    let connection = open();
    let value = ulid_flake!("00CMXB6TAK4SA");
    connection
        .execute(
            "INSERT INTO ids (n, label) VALUES (0, ?1), (1, ?2), (2, ?3)",
            params![
                value.to_string(),
                "00cmxb6tak4sa",
                PrefixedId::<User>::from(value).to_string()
            ],
        )
        .unwrap();
    let read = |n: i64| -> rusqlite::Result<(UlidFlake, Option<Id<User>>)> {
        connection.query_row("SELECT label, label FROM ids WHERE n = ?1", [n], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
    };
    assert_eq!(read(0).unwrap(), (value, Some(Id::from(value))));
    assert_eq!(read(1).unwrap(), (value, Some(Id::from(value))));
    let prefixed: PrefixedId<User> = connection
        .query_row("SELECT label FROM ids WHERE n = 2", [], |row| row.get(0))
        .unwrap();
    assert_eq!(prefixed, PrefixedId::from(value));
}

#[test]
fn malformed_text_is_an_error_that_says_what_was_expected() {
    let connection = open();
    let (message, source) = read_error::<UlidFlake>(&connection, "SELECT '00CMXB6TAK4SI'");
    assert_eq!(
        message,
        "Conversion error from type Text at index: 0, invalid character 'I' at index 12: \
         expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)"
    );
    assert_eq!(
        source,
        Error::InvalidCharacter {
            index: 12,
            found: b'I'
        }
    );
    let (message, _) = read_error::<PrefixedId<User>>(&connection, "SELECT '00CMXB6TAK4SA'");
    assert_eq!(
        message,
        "Conversion error from type Text at index: 0, wrong prefix: expected `user_`, found \
         none (no `_` in the text)"
    );
}

#[test]
fn an_integer_stored_in_a_text_column_is_not_guessed_at() {
    let connection = open();
    // A TEXT column turns a bound integer into its decimal digits, which are not an ID's text.
    let value = ulid_flake!("00CMXB6TAK4SA");
    connection
        .execute("INSERT INTO ids (n, label) VALUES (0, ?1)", [value])
        .unwrap();
    let (kind, digits): (String, String) = connection
        .query_row("SELECT typeof(label), label FROM ids", [], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .unwrap();
    assert_eq!(
        (kind.as_str(), digits.as_str()),
        ("text", "14246757444195114")
    );
    let (message, source) = read_error::<UlidFlake>(&connection, "SELECT label FROM ids");
    assert_eq!(
        message,
        "Conversion error from type Text at index: 0, invalid length: expected 13 ASCII \
         characters, found 17 bytes"
    );
    assert_eq!(
        source,
        Error::InvalidLength {
            found: 17,
            prefix: ""
        }
    );
}

/// The one case where an integer bound into a `TEXT` column does read back, as another ID:
/// 13 digits, the first 1-7, valid Base32 text of an unprefixed type. Those are the IDs made
/// from about 16 minutes (953,674 ms) to 2.1 hours (7,629,394 ms) after their epoch.
#[test]
fn thirteen_digits_in_a_text_column_read_as_another_id_of_an_unprefixed_type() {
    let connection = open();
    let ids = [
        UlidFlake::from_parts(953_674, 0).unwrap(),
        UlidFlake::from_parts(953_674, 0xF_FFFF).unwrap(),
        UlidFlake::from_parts(7_629_394, 0).unwrap(),
        UlidFlake::from_parts(7_629_394, 0xF_FFFF).unwrap(),
    ];
    for (n, id) in (0_i64..).zip(ids) {
        connection
            .execute("INSERT INTO ids (n, label) VALUES (?1, ?2)", params![n, id])
            .unwrap();
    }
    let labels = |n: usize| {
        connection
            .query_row("SELECT label FROM ids WHERE n = ?1", [n as i64], |row| {
                row.get::<_, String>(0)
            })
            .unwrap()
    };
    assert_eq!(
        (0..4).map(labels).collect::<Vec<_>>(),
        [
            "999999668224",
            "1000000716799",
            "7999999442944",
            "8000000491519"
        ]
    );
    // 12 digits: the wrong length.
    let (_, source) = read_error::<UlidFlake>(&connection, "SELECT label FROM ids WHERE n = 0");
    assert_eq!(
        source,
        Error::InvalidLength {
            found: 12,
            prefix: ""
        }
    );
    // 13 digits from 1 to 7: another ID, with no error, for every unprefixed type.
    for n in [1, 2] {
        let sql = format!("SELECT label FROM ids WHERE n = {n}");
        let read: UlidFlake = connection.query_row(&sql, [], |row| row.get(0)).unwrap();
        assert_ne!(read, ids[n]);
        assert_eq!(read, labels(n).parse::<UlidFlake>().unwrap());
        let read: Id<User> = connection.query_row(&sql, [], |row| row.get(0)).unwrap();
        assert_eq!(read, Id::from(labels(n).parse::<UlidFlake>().unwrap()));
        // A prefixed type finds no prefix.
        let (_, source) = read_error::<PrefixedId<User>>(&connection, &sql);
        assert!(matches!(source, Error::WrongPrefix { .. }), "{source:?}");
    }
    // 13 digits from 8: out of range.
    let (_, source) = read_error::<UlidFlake>(&connection, "SELECT label FROM ids WHERE n = 3");
    assert!(matches!(source, Error::OutOfRange { .. }), "{source:?}");
}

#[test]
fn real_and_blob_values_are_the_wrong_type() {
    let connection = open();
    for sql in ["SELECT 1.5", "SELECT x'0001'"] {
        let error = connection
            .query_row(sql, [], |row| row.get::<_, UlidFlake>(0))
            .unwrap_err();
        assert!(
            matches!(error, rusqlite::Error::InvalidColumnType(0, ..)),
            "{sql}: expected InvalidColumnType, found {error:?}"
        );
    }
}
