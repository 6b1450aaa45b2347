//! diesel-async: the same impls, generic over the backend, through `AsyncPgConnection` and
//! `AsyncMysqlConnection` against the real PostgreSQL and MariaDB servers. Nothing in this
//! crate is specific to diesel-async; these tests show that nothing needs to be.
//!
//! The schema or database is made and migrated through a synchronous connection
//! (`crate::support`); every query of a test goes through the async connection.

use std::error::Error as _;

use diesel::{ExpressionMethods, QueryDsl, SelectableHelper};
use diesel_async::{
    AsyncConnection, AsyncMysqlConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection,
};
use ulid_flake_diesel::{Id, OptionalId, UlidFlake};

use crate::support::{User, VALUES, chain, out_of_range, users};

/// An `AsyncPgConnection` whose search path is a new schema, migrated.
async fn postgres() -> AsyncPgConnection {
    let (_, schema) = crate::support::postgres_schema();
    let url = crate::support::postgres_url();
    let mut conn = AsyncPgConnection::establish(&url)
        .await
        .unwrap_or_else(|error| panic!("PostgreSQL at {url} is unreachable: {error}"));
    conn.batch_execute(&format!("SET search_path TO {schema}, public"))
        .await
        .unwrap();
    conn
}

/// An `AsyncMysqlConnection` to a new database, migrated.
async fn mysql() -> AsyncMysqlConnection {
    let url = crate::support::mysql_database();
    AsyncMysqlConnection::establish(&url)
        .await
        .unwrap_or_else(|error| panic!("MariaDB/MySQL at {url} is unreachable: {error}"))
}

fn user(id: impl Into<Id<User>>, name: &str, invited_by: Option<Id<User>>) -> User {
    User {
        id: id.into(),
        name: name.into(),
        invited_by,
    }
}

macro_rules! async_tests {
    ($backend:ident, $connection:ty) => {
        mod $backend {
            use super::*;

            /// A connection whose `users` table holds Ada (no inviter) and Bob, invited by
            /// Ada, with generated IDs.
            async fn with_ada_and_bob() -> ($connection, User, User) {
                let mut conn = super::$backend().await;
                let ada = user(Id::generate().unwrap(), "Ada", None);
                let bob = user(Id::generate().unwrap(), "Bob", Some(ada.id));
                for row in [&ada, &bob] {
                    diesel::insert_into(users::table)
                        .values(row)
                        .execute(&mut conn)
                        .await
                        .unwrap();
                }
                (conn, ada, bob)
            }

            /// A connection whose `users` table holds the rows (-5, 'negative', -5) and
            /// (1, 'invited by a negative id', -5).
            async fn with_negative_ids() -> $connection {
                let mut conn = super::$backend().await;
                diesel::sql_query(
                    "INSERT INTO users (id, name, invited_by) VALUES \
                     (-5, 'negative', -5), (1, 'invited by a negative id', -5)",
                )
                .execute(&mut conn)
                .await
                .unwrap();
                conn
            }

            #[tokio::test]
            async fn structs_with_typed_ids_insert_and_load() {
                let (mut conn, ada, bob) = with_ada_and_bob().await;
                let all: Vec<User> = users::table
                    .order(users::id)
                    .select(User::as_select())
                    .load(&mut conn)
                    .await
                    .unwrap();
                assert_eq!(
                    all,
                    [user(ada.id, "Ada", None), user(bob.id, "Bob", Some(ada.id))]
                );
                let found: User = users::table
                    .find(bob.id)
                    .select(User::as_select())
                    .first(&mut conn)
                    .await
                    .unwrap();
                assert_eq!(found, user(bob.id, "Bob", Some(ada.id)));
            }

            #[tokio::test]
            async fn a_nullable_key_compares_with_an_id_and_with_null() {
                let (mut conn, ada, bob) = with_ada_and_bob().await;
                let invited: Vec<Id<User>> = users::table
                    .filter(users::invited_by.eq(ada.id))
                    .select(users::id)
                    .load(&mut conn)
                    .await
                    .unwrap();
                assert_eq!(invited, [bob.id]);
                let inviters: Vec<Option<Id<User>>> = users::table
                    .order(users::id)
                    .select(users::invited_by)
                    .load(&mut conn)
                    .await
                    .unwrap();
                assert_eq!(inviters, [None, Some(ada.id)]);
                let roots: Vec<Id<User>> = users::table
                    .filter(users::invited_by.is_null())
                    .select(users::id)
                    .load(&mut conn)
                    .await
                    .unwrap();
                assert_eq!(roots, [ada.id]);
            }

            #[tokio::test]
            async fn eq_any_matches_a_vec_of_ids() {
                let mut conn = super::$backend().await;
                let rows: Vec<User> = VALUES
                    .iter()
                    .map(|value| user(*value, &value.to_string(), None))
                    .collect();
                diesel::insert_into(users::table)
                    .values(&rows)
                    .execute(&mut conn)
                    .await
                    .unwrap();
                let ids: Vec<UlidFlake> = users::table
                    .order(users::id)
                    .select(users::id)
                    .load(&mut conn)
                    .await
                    .unwrap();
                assert_eq!(ids, VALUES);

                let wanted: Vec<Id<User>> = vec![
                    VALUES[7].into(),
                    VALUES[2].into(),
                    Id::from_u64(42).unwrap(),
                ];
                let names: Vec<String> = users::table
                    .filter(users::id.eq_any(wanted))
                    .order(users::id)
                    .select(users::name)
                    .load(&mut conn)
                    .await
                    .unwrap();
                assert_eq!(names, ["00CMXB6TAK4SA", "7ZZZZZZZZZZZZ"]);
            }

            #[tokio::test]
            async fn a_negative_bigint_in_a_not_null_column_is_an_error_whose_message_names_it()
            {
                let mut conn = with_negative_ids().await;
                let negative = users::table.filter(users::name.eq("negative"));
                let error = negative
                    .select(users::id)
                    .first::<Id<User>>(&mut conn)
                    .await
                    .unwrap_err();
                assert!(matches!(error, diesel::result::Error::DeserializationError(_)));
                assert_eq!(
                    error.to_string(),
                    "value out of range: expected 0..=9223372036854775807, \
                     found -5"
                );
                let error = negative
                    .select(User::as_select())
                    .first(&mut conn)
                    .await
                    .unwrap_err();
                assert!(matches!(error, diesel::result::Error::DeserializationError(_)));
                assert_eq!(error.to_string(), out_of_range(-5));
            }

            #[tokio::test]
            async fn a_negative_bigint_in_a_nullable_column_names_the_field_then_the_value_in_the_source()
             {
                let mut conn = with_negative_ids().await;
                let invited = users::table.filter(users::name.eq("invited by a negative id"));
                // As with the synchronous connections: Diesel's `Option<T>` wraps the error
                // (see the crate docs).
                let error = invited
                    .select(users::invited_by)
                    .first::<Option<Id<User>>>(&mut conn)
                    .await
                    .unwrap_err();
                assert!(matches!(error, diesel::result::Error::DeserializationError(_)));
                assert_eq!(error.to_string(), "Error deserializing field 'invited_by'");
                assert_eq!(
                    error.source().expect("the error of the value").to_string(),
                    out_of_range(-5)
                );
                let error = invited
                    .select(User::as_select())
                    .first(&mut conn)
                    .await
                    .unwrap_err();
                assert_eq!(
                    chain(&error),
                    format!("Error deserializing field 'invited_by': {}", out_of_range(-5))
                );
            }

            #[tokio::test]
            async fn a_negative_bigint_in_a_nullable_column_read_through_optional_id_is_an_error_whose_message_names_it()
             {
                let mut conn = with_negative_ids().await;
                let error = users::table
                    .filter(users::name.eq("invited by a negative id"))
                    .select(users::invited_by)
                    .first::<OptionalId<Id<User>>>(&mut conn)
                    .await
                    .unwrap_err();
                assert!(matches!(error, diesel::result::Error::DeserializationError(_)));
                assert_eq!(error.to_string(), out_of_range(-5));
            }
        }
    };
}

async_tests!(postgres, AsyncPgConnection);
async_tests!(mysql, AsyncMysqlConnection);
