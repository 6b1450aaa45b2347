//! The same behaviour on PostgreSQL, MariaDB and SQLite: each test is written once and
//! instantiated per backend.

use std::error::Error as _;

use diesel::prelude::*;
use ulid_flake_diesel::generator::Generator;
use ulid_flake_diesel::{Epoch, Id, OptionalId, Prefix, PrefixedId, UlidFlake, UnixMs};

use crate::support::{User, VALUES, chain, out_of_range, users};

ulid_flake_diesel::newtype! {
    /// A user's own key type.
    pub(crate) struct UserId;
}

/// A row of `users` keyed by the newtype, nullable reference included.
#[derive(Debug, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = users)]
struct NewtypeRow {
    id: UserId,
    name: String,
    invited_by: Option<UserId>,
}

/// A row of `users` whose nullable ID is read through `OptionalId`.
#[derive(Debug, PartialEq, Queryable, Selectable)]
#[diesel(table_name = users)]
struct CheckedRow {
    id: Id<User>,
    #[diesel(deserialize_as = OptionalId<Id<User>>)]
    invited_by: Option<Id<User>>,
}

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

fn user(id: impl Into<Id<User>>, name: &str, invited_by: Option<Id<User>>) -> User {
    User {
        id: id.into(),
        name: name.into(),
        invited_by,
    }
}

macro_rules! backend_tests {
    ($backend:ident, $connection:ty) => {
        mod $backend {
            use super::*;

            /// A connection whose `users` table holds Ada (no inviter) and Bob, invited by
            /// Ada, with generated IDs.
            fn with_ada_and_bob() -> ($connection, User, User) {
                let mut conn = crate::support::$backend();
                let ada = user(Id::generate().unwrap(), "Ada", None);
                let bob = user(Id::generate().unwrap(), "Bob", Some(ada.id));
                for row in [&ada, &bob] {
                    diesel::insert_into(users::table)
                        .values(row)
                        .execute(&mut conn)
                        .unwrap();
                }
                (conn, ada, bob)
            }

            #[test]
            fn structs_with_typed_ids_insert_and_load() {
                let (mut conn, ada, bob) = with_ada_and_bob();
                let conn = &mut conn;
                let all: Vec<User> = users::table
                    .order(users::id)
                    .select(User::as_select())
                    .load(conn)
                    .unwrap();
                assert_eq!(
                    all,
                    [user(ada.id, "Ada", None), user(bob.id, "Bob", Some(ada.id))]
                );
                let found: User = users::table
                    .find(bob.id)
                    .select(User::as_select())
                    .first(conn)
                    .unwrap();
                assert_eq!(found.invited_by, Some(ada.id));
            }

            #[test]
            fn a_nullable_key_compares_with_an_id_and_with_null() {
                let (mut conn, ada, bob) = with_ada_and_bob();
                let conn = &mut conn;
                let invited: Vec<Id<User>> = users::table
                    .filter(users::invited_by.eq(ada.id))
                    .select(users::id)
                    .load(conn)
                    .unwrap();
                assert_eq!(invited, [bob.id]);
                let roots: Vec<Option<Id<User>>> = users::table
                    .filter(users::invited_by.is_null())
                    .select(users::invited_by)
                    .load(conn)
                    .unwrap();
                assert_eq!(roots, [None]);
            }

            #[test]
            fn a_changeset_writes_typed_ids_and_leaves_a_none_field_as_it_is() {
                let (mut conn, ada, bob) = with_ada_and_bob();
                let conn = &mut conn;
                // AsChangeset: typed IDs in the SET clause (a `None` leaves its column as it
                // is, as Diesel does for every `Option` field).
                let changed = user(bob.id, "Robert", None);
                diesel::update(users::table.find(bob.id))
                    .set(&changed)
                    .execute(conn)
                    .unwrap();
                let found: User = users::table
                    .find(bob.id)
                    .select(User::as_select())
                    .first(conn)
                    .unwrap();
                assert_eq!(found, user(bob.id, "Robert", Some(ada.id)));
            }

            #[test]
            fn a_nullable_key_is_set_to_null_through_a_typed_none() {
                let (mut conn, _, bob) = with_ada_and_bob();
                let conn = &mut conn;
                diesel::update(users::table.find(bob.id))
                    .set(users::invited_by.eq(None::<Id<User>>))
                    .execute(conn)
                    .unwrap();
                let found: User = users::table
                    .find(bob.id)
                    .select(User::as_select())
                    .first(conn)
                    .unwrap();
                assert_eq!(found, user(bob.id, "Bob", None));
            }

            /// A connection whose `users` table holds a row per golden vector, named by its
            /// text.
            fn with_values() -> $connection {
                let mut conn = crate::support::$backend();
                let rows: Vec<User> = VALUES
                    .iter()
                    .map(|value| user(*value, &value.to_string(), None))
                    .collect();
                diesel::insert_into(users::table)
                    .values(&rows)
                    .execute(&mut conn)
                    .unwrap();
                conn
            }

            #[test]
            fn vectors_and_extremes_round_trip() {
                let conn = &mut with_values();
                let ids: Vec<UlidFlake> = users::table
                    .order(users::id)
                    .select(users::id)
                    .load(conn)
                    .unwrap();
                assert_eq!(ids, VALUES);
            }

            #[test]
            fn vectors_and_extremes_are_stored_as_their_integer_values() {
                let conn = &mut with_values();
                let raw: Vec<i64> = users::table
                    .order(users::id)
                    .select(users::id)
                    .load(conn)
                    .unwrap();
                assert_eq!(raw, VALUES.map(UlidFlake::to_i64));
            }

            #[test]
            fn vectors_and_extremes_load_as_newtypes() {
                let conn = &mut with_values();
                let newtypes: Vec<UserId> = users::table
                    .order(users::id)
                    .select(users::id)
                    .load(conn)
                    .unwrap();
                assert_eq!(newtypes, VALUES.map(UserId));
            }

            #[test]
            fn eq_any_matches_a_vec_of_ids() {
                let conn = &mut with_values();
                let wanted: Vec<Id<User>> = vec![
                    VALUES[7].into(),
                    VALUES[2].into(),
                    Id::from_u64(42).unwrap(),
                ];
                let names: Vec<String> = users::table
                    .filter(users::id.eq_any(wanted))
                    .order(users::id)
                    .select(users::name)
                    .load(conn)
                    .unwrap();
                assert_eq!(names, ["00CMXB6TAK4SA", "7ZZZZZZZZZZZZ"]);
            }

            #[test]
            fn find_takes_a_newtype() {
                let conn = &mut with_values();
                let by_newtype: String = users::table
                    .find(UserId(VALUES[0]))
                    .select(users::name)
                    .first(conn)
                    .unwrap();
                assert_eq!(by_newtype, "0000000000000");
            }

            /// A connection whose `users` table holds Ada and Bob, invited by Ada, keyed by
            /// the newtype.
            fn with_newtype_rows() -> ($connection, NewtypeRow, NewtypeRow) {
                let mut conn = crate::support::$backend();
                let ada = NewtypeRow {
                    id: UserId::generate().unwrap(),
                    name: "Ada".into(),
                    invited_by: None,
                };
                let bob = NewtypeRow {
                    id: UserId::generate().unwrap(),
                    name: "Bob".into(),
                    invited_by: Some(ada.id),
                };
                for row in [&ada, &bob] {
                    diesel::insert_into(users::table)
                        .values(row)
                        .execute(&mut conn)
                        .unwrap();
                }
                (conn, ada, bob)
            }

            #[test]
            fn a_newtype_round_trips_in_a_row() {
                let (mut conn, ada, bob) = with_newtype_rows();
                let rows: Vec<NewtypeRow> = users::table
                    .order(users::id)
                    .select(NewtypeRow::as_select())
                    .load(&mut conn)
                    .unwrap();
                assert_eq!(rows, [ada, bob]);
            }

            #[test]
            fn a_nullable_newtype_key_compares_with_some_newtype() {
                let (mut conn, ada, _) = with_newtype_rows();
                let invited: Vec<String> = users::table
                    .filter(users::invited_by.eq(Some(ada.id)))
                    .select(users::name)
                    .load(&mut conn)
                    .unwrap();
                assert_eq!(invited, ["Bob"]);
            }

            #[test]
            fn a_loaded_newtype_round_trips_through_its_text() {
                let (mut conn, _, bob) = with_newtype_rows();
                let loaded: UserId = users::table
                    .find(bob.id)
                    .select(users::id)
                    .first(&mut conn)
                    .unwrap();
                assert_eq!(loaded.to_string().parse::<UserId>().unwrap(), loaded);
            }

            /// A connection whose `users` table holds one row keyed by a generated
            /// `PrefixedId`, and that ID.
            fn with_a_prefixed_id() -> ($connection, PrefixedId<User>) {
                let mut conn = crate::support::$backend();
                let id = PrefixedId::<User>::generate().unwrap();
                diesel::insert_into(users::table)
                    .values((users::id.eq(id), users::name.eq("Ada")))
                    .execute(&mut conn)
                    .unwrap();
                (conn, id)
            }

            #[test]
            fn a_prefixed_id_round_trips() {
                let (mut conn, id) = with_a_prefixed_id();
                let read: PrefixedId<User> = users::table
                    .filter(users::id.eq(id))
                    .select(users::id)
                    .first(&mut conn)
                    .unwrap();
                assert_eq!(read, id);
            }

            #[test]
            fn a_prefixed_id_is_stored_as_the_bigint_of_its_id() {
                let (mut conn, id) = with_a_prefixed_id();
                let raw: i64 = users::table.select(users::id).first(&mut conn).unwrap();
                assert_eq!(raw, id.to_i64());
            }

            /// A connection whose `users` table holds the rows (-5, 'negative', -5) and
            /// (1, 'invited by a negative id', -5).
            fn with_negative_ids() -> $connection {
                let mut conn = crate::support::$backend();
                diesel::sql_query(
                    "INSERT INTO users (id, name, invited_by) VALUES \
                     (-5, 'negative', -5), (1, 'invited by a negative id', -5)",
                )
                .execute(&mut conn)
                .unwrap();
                conn
            }

            #[test]
            fn a_negative_bigint_in_a_not_null_column_is_an_error_whose_message_names_it() {
                let conn = &mut with_negative_ids();
                let negative = users::table.filter(users::name.eq("negative"));
                // The message itself names the value, for a column, a struct's field and a
                // newtype alike: what `{error}` prints.
                let error = negative
                    .select(users::id)
                    .first::<Id<User>>(conn)
                    .unwrap_err();
                assert!(matches!(
                    error,
                    diesel::result::Error::DeserializationError(_)
                ));
                assert_eq!(
                    error.to_string(),
                    "value out of range: expected 0..=9223372036854775807, \
                     found -5"
                );
                assert_eq!(chain(&error), out_of_range(-5));
                let error = negative
                    .select(users::id)
                    .first::<UlidFlake>(conn)
                    .unwrap_err();
                assert!(matches!(
                    error,
                    diesel::result::Error::DeserializationError(_)
                ));
                assert_eq!(error.to_string(), out_of_range(-5));
                let error = negative.select(User::as_select()).first(conn).unwrap_err();
                assert!(matches!(
                    error,
                    diesel::result::Error::DeserializationError(_)
                ));
                assert_eq!(error.to_string(), out_of_range(-5));
                let error = negative
                    .select(users::id)
                    .first::<UserId>(conn)
                    .unwrap_err();
                assert!(matches!(
                    error,
                    diesel::result::Error::DeserializationError(_)
                ));
                assert_eq!(error.to_string(), out_of_range(-5));
            }

            #[test]
            fn a_negative_bigint_in_a_nullable_column_names_the_field_then_the_value_in_the_source()
            {
                let conn = &mut with_negative_ids();
                let invited = users::table.filter(users::name.eq("invited by a negative id"));
                // Diesel reads an `Option<T>` through `FromSql` and wraps the error in its
                // `DeserializeFieldError`, whose message names only the field; the value is in
                // the source, which error reporters print after it (see the crate docs: this
                // crate cannot change it). The same for a column and a struct's field.
                let error = invited
                    .select(users::invited_by)
                    .first::<Option<Id<User>>>(conn)
                    .unwrap_err();
                assert!(matches!(
                    error,
                    diesel::result::Error::DeserializationError(_)
                ));
                assert_eq!(error.to_string(), "Error deserializing field 'invited_by'");
                assert_eq!(
                    error.source().expect("the error of the value").to_string(),
                    out_of_range(-5)
                );
                assert_eq!(
                    chain(&error),
                    format!(
                        "Error deserializing field 'invited_by': {}",
                        out_of_range(-5)
                    )
                );
                let error = invited.select(User::as_select()).first(conn).unwrap_err();
                assert_eq!(error.to_string(), "Error deserializing field 'invited_by'");
                assert_eq!(
                    chain(&error),
                    format!(
                        "Error deserializing field 'invited_by': {}",
                        out_of_range(-5)
                    )
                );
                let error = invited
                    .select(users::invited_by)
                    .first::<Option<UserId>>(conn)
                    .unwrap_err();
                assert_eq!(
                    chain(&error),
                    format!(
                        "Error deserializing field 'invited_by': {}",
                        out_of_range(-5)
                    )
                );
            }

            #[test]
            fn a_negative_bigint_in_a_nullable_column_read_through_optional_id_is_an_error_whose_message_names_it()
             {
                let conn = &mut with_negative_ids();
                let invited = users::table.filter(users::name.eq("invited by a negative id"));
                let error = invited.select(CheckedRow::as_select()).first(conn).unwrap_err();
                assert!(matches!(
                    error,
                    diesel::result::Error::DeserializationError(_)
                ));
                assert_eq!(error.to_string(), out_of_range(-5));
                let error = invited
                    .select(users::invited_by)
                    .first::<OptionalId<UserId>>(conn)
                    .unwrap_err();
                assert_eq!(error.to_string(), out_of_range(-5));
            }

            #[test]
            fn a_nullable_column_read_through_optional_id_is_none_for_null_and_the_id_otherwise() {
                let (mut conn, ada, bob) = with_ada_and_bob();
                let rows: Vec<CheckedRow> = users::table
                    .order(users::name)
                    .select(CheckedRow::as_select())
                    .load(&mut conn)
                    .unwrap();
                assert_eq!(
                    rows,
                    [
                        CheckedRow { id: ada.id, invited_by: None },
                        CheckedRow { id: bob.id, invited_by: Some(ada.id) },
                    ]
                );
            }

            #[test]
            fn generated_ids_read_back_in_generation_order() {
                let conn = &mut crate::support::$backend();
                let generator = Generator::new();
                let rows: Vec<User> = (0..10_000)
                    .map(|_| user(generator.generate().unwrap(), "", None))
                    .collect();
                // The last chunk first, so that only the IDs can put them back in order.
                for chunk in rows.chunks(1_000).rev() {
                    diesel::insert_into(users::table)
                        .values(chunk)
                        .execute(conn)
                        .unwrap();
                }
                let read: Vec<Id<User>> = users::table
                    .order(users::id)
                    .select(users::id)
                    .load(conn)
                    .unwrap();
                assert!(
                    read == rows.iter().map(|row| row.id).collect::<Vec<_>>(),
                    "ORDER BY id differs from generation order"
                );
            }

            #[test]
            fn a_time_window_is_an_id_range_through_the_primary_key() {
                let conn = &mut crate::support::$backend();
                // The window is [1 000 ms, 2 000 ms) after the epoch.
                let max = (1 << 20) - 1;
                let at = |timestamp_ms, randomness| {
                    UlidFlake::from_parts(timestamp_ms, randomness).unwrap()
                };
                let inside = [at(1_000, 0), at(1_000, max), at(1_999, 0), at(1_999, max)];
                let outside = [at(999, max), at(2_000, 0)];
                let rows: Vec<User> = inside
                    .iter()
                    .chain(&outside)
                    .map(|id| user(*id, "", None))
                    .collect();
                diesel::insert_into(users::table)
                    .values(&rows)
                    .execute(conn)
                    .unwrap();

                let epoch_ms = Epoch::DEFAULT.unix_ms() as i64;
                let (lowest, highest) = UlidFlake::range_for(
                    Epoch::DEFAULT,
                    UnixMs(epoch_ms + 1_000)..UnixMs(epoch_ms + 2_000),
                )
                .unwrap();
                let found: Vec<UlidFlake> = users::table
                    .filter(users::id.between(lowest, highest))
                    .order(users::id)
                    .select(users::id)
                    .load(conn)
                    .unwrap();
                assert_eq!(found, inside);
            }
        }
    };
}

backend_tests!(postgres, PgConnection);
backend_tests!(mysql, MysqlConnection);
backend_tests!(sqlite, SqliteConnection);

/// SQLite keeps a storage class per value, and Diesel reads a `BigInt` through SQLite's own
/// conversion: a value of another class, written into the column by other means, loads as the
/// number SQLite makes of it. Not prevented (the crate docs say so, and how to avoid it): this
/// shows what loads, so that the docs' words stay true.
#[test]
fn sqlite_values_of_another_storage_class_load_as_sqlite_converts_them() {
    let conn = &mut crate::support::sqlite();
    diesel::sql_query(
        "INSERT INTO users (id, name, invited_by) VALUES \
         ('02NERSQJ4M5KQ', 'text', NULL), (1.5, 'real', NULL), (x'0102', 'blob', NULL), \
         (x'3432', 'blob of digits', NULL)",
    )
    .execute(conn)
    .unwrap();
    let loaded: Vec<(String, Id<User>)> = users::table
        .select((users::name, users::id))
        .order(users::name)
        .load(conn)
        .unwrap();
    let id = |value| Id::<User>::from_u64(value).unwrap();
    // The leading digits of the text (of the blob's bytes read as text), the real's integer
    // part.
    assert_eq!(
        loaded,
        [
            ("blob".to_owned(), id(0)),
            ("blob of digits".to_owned(), id(42)),
            ("real".to_owned(), id(1)),
            ("text".to_owned(), id(2)),
        ]
    );

    // A STRICT table refuses them at the insert.
    diesel::sql_query("CREATE TABLE strict_keys (id INTEGER NOT NULL) STRICT")
        .execute(conn)
        .unwrap();
    for (value, class) in [
        ("'02NERSQJ4M5KQ'", "TEXT"),
        ("1.5", "REAL"),
        ("x'3432'", "BLOB"),
    ] {
        let error = diesel::sql_query(format!("INSERT INTO strict_keys (id) VALUES ({value})"))
            .execute(conn)
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("cannot store {class} value in INTEGER column strict_keys.id")
        );
    }
}

#[test]
fn a_lease_database_error_is_diesel_s_message_once_in_the_chain() {
    let refused = ConnectionError::BadConnection("connection refused".to_owned());
    let error = ulid_flake_diesel::lease::LeaseError::Database(Box::new(
        ulid_flake_diesel::DatabaseError::from(refused),
    ));
    assert_eq!(chain(&error), "lease database error: connection refused");
}
