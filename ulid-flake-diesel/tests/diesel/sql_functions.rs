//! The SQL helper functions, created through this crate and called through its Diesel
//! declarations, on PostgreSQL and MariaDB.

use diesel::dsl::sql;
use diesel::prelude::*;
use ulid_flake_diesel::functions::{
    ulid_flake_from_prefixed_text, ulid_flake_from_text, ulid_flake_to_prefixed_text,
    ulid_flake_to_text,
};
use ulid_flake_diesel::{Epoch, Id, Prefix, PrefixedId, UlidFlake, ulid_flake};

use crate::support::{User, VALUES, users};

fn database_message(error: diesel::result::Error) -> String {
    match error {
        diesel::result::Error::DatabaseError(_, info) => info.message().to_owned(),
        other => panic!("expected a database error, found {other:?}"),
    }
}

macro_rules! sql_function_tests {
    (
        $backend:ident,
        $connection:ty,
        $create:path,
        $to_timestamp:path,
        $sql_type:ty,
        $moment:literal
    ) => {
        mod $backend {
            use super::*;

            /// A connection with the functions created and a row per golden vector, named by
            /// its text.
            fn with_functions_and_values() -> $connection {
                let mut conn = crate::support::$backend();
                $create(&mut conn).unwrap();
                let rows: Vec<User> = VALUES
                    .iter()
                    .map(|value| User {
                        id: Id::from(*value),
                        name: value.to_string(),
                        invited_by: None,
                    })
                    .collect();
                diesel::insert_into(users::table)
                    .values(&rows)
                    .execute(&mut conn)
                    .unwrap();
                conn
            }

            #[test]
            fn creating_the_functions_is_idempotent() {
                let conn = &mut crate::support::$backend();
                $create(conn).unwrap();
                $create(conn).unwrap();
                let text: String = diesel::select(ulid_flake_to_text(ulid_flake!("00CMXB6TAK4SA")))
                    .get_result(conn)
                    .unwrap();
                assert_eq!(text, "00CMXB6TAK4SA");
            }

            #[test]
            fn to_text_gives_each_vector_its_text() {
                let conn = &mut with_functions_and_values();
                let texts: Vec<(String, String)> = users::table
                    .order(users::id)
                    .select((ulid_flake_to_text(users::id), users::name))
                    .load(conn)
                    .unwrap();
                assert!(texts.iter().all(|(text, name)| text == name), "{texts:?}");
            }

            #[test]
            fn from_text_finds_an_id_by_its_lowercase_text() {
                let conn = &mut with_functions_and_values();
                let found: Vec<UlidFlake> = users::table
                    .filter(users::id.eq(ulid_flake_from_text("00cmxb6tak4sa")))
                    .select(users::id)
                    .load(conn)
                    .unwrap();
                assert_eq!(found, [ulid_flake!("00CMXB6TAK4SA")]);
            }

            #[test]
            fn to_timestamp_gives_the_moment_of_an_id() {
                let conn = &mut with_functions_and_values();
                let epoch = Epoch::DEFAULT.unix_ms() as i64;
                let matches: bool = users::table
                    .find(ulid_flake!("00CMXB6TAK4SA"))
                    .select($to_timestamp(users::id, epoch).eq(sql::<$sql_type>($moment)))
                    .first(conn)
                    .unwrap();
                assert!(matches);
            }

            #[test]
            fn from_text_rejects_an_invalid_character_in_the_codecs_words() {
                let conn = &mut with_functions_and_values();
                let error = diesel::select(ulid_flake_from_text("00CMXB6TAK4SL"))
                    .get_result::<i64>(conn)
                    .unwrap_err();
                assert_eq!(
                    database_message(error),
                    "invalid character 'L' at index 12: expected a Crockford Base32 digit \
                     (0-9, A-Z without I, L, O, U, in either case)"
                );
            }

            #[test]
            fn the_prefixed_functions_read_and_write_the_prefixed_ids_text() {
                struct Member;
                impl Prefix for Member {
                    const PREFIX: &'static str = "member";
                }
                let conn = &mut with_functions_and_values();
                let texts: Vec<(String, UlidFlake)> = users::table
                    .order(users::id)
                    .select((ulid_flake_to_prefixed_text(users::id, "member"), users::id))
                    .load(conn)
                    .unwrap();
                assert_eq!(texts.len(), VALUES.len());
                for (text, id) in texts {
                    assert_eq!(text, PrefixedId::<Member>::from(id).to_string());
                }
                let found: Vec<UlidFlake> = users::table
                    .filter(users::id.eq(ulid_flake_from_prefixed_text(
                        "member_00cmxb6tak4sa",
                        "member",
                    )))
                    .select(users::id)
                    .load(conn)
                    .unwrap();
                assert_eq!(found, [ulid_flake!("00CMXB6TAK4SA")]);
                let error = diesel::select(ulid_flake_from_prefixed_text(
                    "user_00CMXB6TAK4SA",
                    "member",
                ))
                .get_result::<i64>(conn)
                .unwrap_err();
                assert_eq!(
                    database_message(error),
                    "wrong prefix: expected `member_`, found `user_`"
                );
            }

            #[test]
            fn to_text_rejects_a_negative_value() {
                let conn = &mut with_functions_and_values();
                let error = diesel::select(ulid_flake_to_text(-1_i64))
                    .get_result::<String>(conn)
                    .unwrap_err();
                assert_eq!(
                    database_message(error),
                    "value out of range: expected 0..=9223372036854775807, found -1"
                );
            }
        }
    };
}

sql_function_tests!(
    postgres,
    PgConnection,
    ulid_flake_diesel::create_postgres_functions,
    ulid_flake_diesel::functions::postgres::ulid_flake_to_timestamp,
    diesel::sql_types::Timestamptz,
    "timestamptz '2024-06-06 06:06:06.666+00'"
);

sql_function_tests!(
    mysql,
    MysqlConnection,
    ulid_flake_diesel::create_mysql_functions,
    ulid_flake_diesel::functions::mysql::ulid_flake_to_timestamp,
    diesel::sql_types::Datetime,
    "TIMESTAMP '2024-06-06 06:06:06.666'"
);
