//! The same behaviour on PostgreSQL, MariaDB and SQLite: each test is written once and
//! instantiated per database.

use ulid_flake_sqlx::generator::Generator;
use ulid_flake_sqlx::{Epoch, Id, Prefix, PrefixedId, UlidFlake, UnixMs};

use crate::support::{User, VALUES, sql, unique_name};

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

/// The message of decoding `found` from a `BIGINT`.
fn out_of_range(found: i64) -> String {
    format!("value out of range: expected 0..=9223372036854775807, found {found}")
}

ulid_flake_sqlx::newtype! {
    /// A user's own key type.
    struct UserId;
}

/// A row keyed by the newtype, nullable reference included.
#[derive(Debug, PartialEq, sqlx::FromRow)]
struct NewtypeRow {
    id: UserId,
    name: String,
    invited_by: Option<UserId>,
}

/// How many IDs the ordering test inserts, in chunks of `CHUNK` rows per statement.
const ORDERED_IDS: usize = 100_000;
const CHUNK: usize = 1_000;

macro_rules! database_tests {
    ($database:ident, $db_type:ty, $connect:path, [$p1:literal, $p2:literal, $p3:literal]) => {
        mod $database {
            use super::*;

            /// A new table of users, with a name no other test uses.
            async fn users_table(pool: &sqlx::Pool<$db_type>) -> String {
                let table = unique_name("users");
                sqlx::query(sql(&format!(
                    "CREATE TABLE {table} (id BIGINT PRIMARY KEY, name TEXT NOT NULL, \
                     invited_by BIGINT NULL)"
                )))
                .execute(pool)
                .await
                .unwrap();
                table
            }

            /// A new table of users holding the `VALUES`, each named by its text.
            pub(super) async fn values_table(pool: &sqlx::Pool<$db_type>) -> String {
                let table = users_table(pool).await;
                let insert = format!("INSERT INTO {table} (id, name) VALUES ({}, {})", $p1, $p2);
                for value in VALUES {
                    sqlx::query(sql(&insert))
                        .bind(value)
                        .bind(value.to_string())
                        .execute(pool)
                        .await
                        .unwrap();
                }
                table
            }

            /// Every `id` of `table`, in order, decoded as `T`.
            async fn ids_as<T>(pool: &sqlx::Pool<$db_type>, table: &str) -> Vec<T>
            where
                T: Send + Unpin,
                (T,): for<'r> sqlx::FromRow<'r, <$db_type as sqlx::Database>::Row>,
            {
                let select = format!("SELECT id FROM {table} ORDER BY id");
                sqlx::query_scalar(sql(&select))
                    .fetch_all(pool)
                    .await
                    .unwrap()
            }

            /// The name of the row of `table` whose `id` is `id`, bound as it is.
            async fn name_of<T>(pool: &sqlx::Pool<$db_type>, table: &str, id: T) -> String
            where
                T: for<'q> sqlx::Encode<'q, $db_type> + sqlx::Type<$db_type> + Send + 'static,
            {
                let by_id = format!("SELECT name FROM {table} WHERE id = {}", $p1);
                sqlx::query_scalar(sql(&by_id))
                    .bind(id)
                    .fetch_one(pool)
                    .await
                    .unwrap()
            }

            #[tokio::test]
            async fn vectors_and_extremes_round_trip_as_bigint() {
                let pool = $connect().await;
                let table = values_table(&pool).await;
                assert_eq!(ids_as::<UlidFlake>(&pool, &table).await, VALUES);
            }

            #[tokio::test]
            async fn ids_are_stored_as_the_plain_integer() {
                let pool = $connect().await;
                let table = values_table(&pool).await;
                assert_eq!(
                    ids_as::<i64>(&pool, &table).await,
                    VALUES.map(UlidFlake::to_i64)
                );
            }

            #[tokio::test]
            async fn typed_ids_read_the_bigint() {
                let pool = $connect().await;
                let table = values_table(&pool).await;
                assert_eq!(
                    ids_as::<Id<User>>(&pool, &table).await,
                    VALUES.map(Id::from)
                );
            }

            #[tokio::test]
            async fn newtypes_read_the_bigint() {
                let pool = $connect().await;
                let table = values_table(&pool).await;
                assert_eq!(ids_as::<UserId>(&pool, &table).await, VALUES.map(UserId));
            }

            #[tokio::test]
            async fn prefixed_ids_read_the_bigint() {
                let pool = $connect().await;
                let table = values_table(&pool).await;
                // A prefixed ID is the same BIGINT: `user_…` is text-only.
                assert_eq!(
                    ids_as::<PrefixedId<User>>(&pool, &table).await,
                    VALUES.map(PrefixedId::from)
                );
            }

            #[tokio::test]
            async fn a_bound_typed_id_finds_its_row() {
                let pool = $connect().await;
                let table = values_table(&pool).await;
                assert_eq!(
                    name_of(&pool, &table, Id::<User>::MAX).await,
                    "7ZZZZZZZZZZZZ"
                );
            }

            #[tokio::test]
            async fn a_bound_newtype_finds_its_row() {
                let pool = $connect().await;
                let table = values_table(&pool).await;
                assert_eq!(
                    name_of(&pool, &table, UserId(UlidFlake::MIN)).await,
                    "0000000000000"
                );
            }

            #[tokio::test]
            async fn a_bound_prefixed_id_finds_its_row() {
                let pool = $connect().await;
                let table = values_table(&pool).await;
                assert_eq!(
                    name_of(&pool, &table, PrefixedId::<User>::from(Id::<User>::MAX)).await,
                    "7ZZZZZZZZZZZZ"
                );
            }

            #[tokio::test]
            async fn a_newtype_round_trips_in_a_row() {
                let pool = $connect().await;
                let table = users_table(&pool).await;
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
                let insert = format!(
                    "INSERT INTO {table} (id, name, invited_by) VALUES ({}, {}, {})",
                    $p1, $p2, $p3
                );
                for row in [&ada, &bob] {
                    sqlx::query(sql(&insert))
                        .bind(row.id)
                        .bind(&row.name)
                        .bind(row.invited_by)
                        .execute(&pool)
                        .await
                        .unwrap();
                }
                let select = format!("SELECT id, name, invited_by FROM {table} ORDER BY id");
                let rows: Vec<NewtypeRow> =
                    sqlx::query_as(sql(&select)).fetch_all(&pool).await.unwrap();
                assert_eq!(rows, [ada, bob]);
                // The text the API shows parses back to the key the database holds.
                assert_eq!(
                    rows[1].id.to_string().parse::<UserId>().unwrap(),
                    rows[1].id
                );
            }

            #[tokio::test]
            async fn a_negative_bigint_is_a_decode_error_that_names_it() {
                let pool = $connect().await;
                let table = users_table(&pool).await;
                let insert = format!(
                    "INSERT INTO {table} (id, name, invited_by) VALUES ({}, {}, {})",
                    $p1, $p2, $p3
                );
                sqlx::query(sql(&insert))
                    .bind(-5_i64)
                    .bind("x")
                    .bind(i64::MIN)
                    .execute(&pool)
                    .await
                    .unwrap();

                let decode_error = |error: sqlx::Error| match error {
                    sqlx::Error::ColumnDecode { source, .. } => source.to_string(),
                    other => panic!("expected a decode error, found {other:?}"),
                };
                let id = format!("SELECT id FROM {table}");
                let error = sqlx::query_scalar::<_, Id<User>>(sql(&id))
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(decode_error(error), out_of_range(-5));
                let error = sqlx::query_scalar::<_, UlidFlake>(sql(&id))
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(decode_error(error), out_of_range(-5));
                let error = sqlx::query_scalar::<_, UserId>(sql(&id))
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(decode_error(error), out_of_range(-5));
                let invited_by = format!("SELECT invited_by FROM {table}");
                let error = sqlx::query_scalar::<_, Option<Id<User>>>(sql(&invited_by))
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(decode_error(error), out_of_range(i64::MIN));
                let error = sqlx::query_as::<_, User>(sql(&format!("SELECT * FROM {table}")))
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(decode_error(error), out_of_range(-5));
            }

            #[tokio::test]
            async fn a_null_read_as_an_id_is_a_decode_error_not_the_id_zero() {
                let pool = $connect().await;
                let table = users_table(&pool).await;
                let insert = format!(
                    "INSERT INTO {table} (id, name, invited_by) VALUES ({}, {}, NULL)",
                    $p1, $p2
                );
                sqlx::query(sql(&insert))
                    .bind(Id::<User>::generate().unwrap())
                    .bind("x")
                    .execute(&pool)
                    .await
                    .unwrap();

                // SQLite's `i64` reads NULL as 0: an ID type must not.
                let unexpected_null = |error: sqlx::Error| match error {
                    sqlx::Error::ColumnDecode { source, .. } => {
                        assert!(
                            source.is::<sqlx::error::UnexpectedNullError>(),
                            "{source:?}"
                        );
                        source.to_string()
                    }
                    other => panic!("expected a decode error, found {other:?}"),
                };
                let message = "unexpected null; try decoding as an `Option`";
                let invited_by = format!("SELECT invited_by FROM {table}");
                let error = sqlx::query_scalar::<_, Id<User>>(sql(&invited_by))
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(unexpected_null(error), message);
                let error = sqlx::query_scalar::<_, UlidFlake>(sql(&invited_by))
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(unexpected_null(error), message);
                let error = sqlx::query_scalar::<_, UserId>(sql(&invited_by))
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(unexpected_null(error), message);
                let error = sqlx::query_scalar::<_, PrefixedId<User>>(sql(&invited_by))
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(unexpected_null(error), message);
                let read = sqlx::query_scalar::<_, Option<Id<User>>>(sql(&invited_by))
                    .fetch_one(&pool)
                    .await
                    .unwrap();
                assert_eq!(read, None);
            }

            #[tokio::test]
            async fn from_row_structs_map_null_to_none() {
                let pool = $connect().await;
                let table = users_table(&pool).await;
                let insert = format!(
                    "INSERT INTO {table} (id, name, invited_by) VALUES ({}, {}, {})",
                    $p1, $p2, $p3
                );
                let ada = User {
                    id: Id::generate().unwrap(),
                    name: "Ada".into(),
                    invited_by: None,
                };
                let bob = User {
                    id: Id::generate().unwrap(),
                    name: "Bob".into(),
                    invited_by: Some(ada.id),
                };
                for user in [&ada, &bob] {
                    sqlx::query(sql(&insert))
                        .bind(user.id)
                        .bind(&user.name)
                        .bind(user.invited_by)
                        .execute(&pool)
                        .await
                        .unwrap();
                }
                let users: Vec<User> = sqlx::query_as(sql(&format!(
                    "SELECT id, name, invited_by FROM {table} ORDER BY id"
                )))
                .fetch_all(&pool)
                .await
                .unwrap();
                assert_eq!(users, [ada, bob]);
                // NULL reads as None, and None binds as NULL.
                let nulls: i64 = sqlx::query_scalar(sql(&format!(
                    "SELECT COUNT(*) FROM {table} WHERE invited_by IS NULL"
                )))
                .fetch_one(&pool)
                .await
                .unwrap();
                assert_eq!(nulls, 1);
            }

            #[tokio::test]
            async fn a_time_window_is_an_id_range_through_the_primary_key() {
                let pool = $connect().await;
                let table = users_table(&pool).await;
                // The window is [1 000 ms, 2 000 ms) after the epoch; its first and last
                // milliseconds are in it, with any randomness, and their neighbours are not.
                let max = (1 << 20) - 1;
                let at = |timestamp_ms, randomness| {
                    UlidFlake::from_parts(timestamp_ms, randomness).unwrap()
                };
                let inside = [at(1_000, 0), at(1_000, max), at(1_999, 0), at(1_999, max)];
                let insert = format!("INSERT INTO {table} (id, name) VALUES ({}, {})", $p1, $p2);
                for id in inside.iter().chain(&[at(999, max), at(2_000, 0)]) {
                    sqlx::query(sql(&insert))
                        .bind(id)
                        .bind("")
                        .execute(&pool)
                        .await
                        .unwrap();
                }
                let epoch_ms = Epoch::DEFAULT.unix_ms() as i64;
                let (lowest, highest) = UlidFlake::range_for(
                    Epoch::DEFAULT,
                    UnixMs(epoch_ms + 1_000)..UnixMs(epoch_ms + 2_000),
                )
                .unwrap();
                let select = format!(
                    "SELECT id FROM {table} WHERE id BETWEEN {} AND {} ORDER BY id",
                    $p1, $p2
                );
                let found: Vec<UlidFlake> = sqlx::query_scalar(sql(&select))
                    .bind(lowest)
                    .bind(highest)
                    .fetch_all(&pool)
                    .await
                    .unwrap();
                assert_eq!(found, inside);
            }

            #[tokio::test]
            async fn generated_ids_read_back_in_generation_order() {
                let pool = $connect().await;
                let table = users_table(&pool).await;
                let generator = Generator::new();
                let generated: Vec<Id<User>> = (0..ORDERED_IDS)
                    .map(|_| generator.generate().map(Id::from))
                    .collect::<Result<_, _>>()
                    .unwrap();
                // Insert the last chunk first, so that only the IDs can put them back in order.
                for chunk in generated.chunks(CHUNK).rev() {
                    let mut insert =
                        sqlx::QueryBuilder::new(format!("INSERT INTO {table} (id, name) "));
                    insert.push_values(chunk, |mut row, id| {
                        row.push_bind(*id).push_bind("");
                    });
                    insert.build().execute(&pool).await.unwrap();
                }
                let read: Vec<Id<User>> =
                    sqlx::query_scalar(sql(&format!("SELECT id FROM {table} ORDER BY id")))
                        .fetch_all(&pool)
                        .await
                        .unwrap();
                assert_eq!(read.len(), ORDERED_IDS);
                assert!(
                    read == generated,
                    "ORDER BY id differs from generation order"
                );
            }
        }
    };
}

database_tests!(
    postgres,
    sqlx::Postgres,
    crate::support::postgres,
    ["$1", "$2", "$3"]
);
database_tests!(mysql, sqlx::MySql, crate::support::mysql, ["?", "?", "?"]);
database_tests!(
    sqlite,
    sqlx::Sqlite,
    crate::support::sqlite,
    ["?", "?", "?"]
);

/// The two ways to declare a SQLite key, as the crates' docs weigh them: `BIGINT PRIMARY KEY
/// NOT NULL` is a second B-tree beside the table's rowid and refuses a row without its key;
/// `INTEGER PRIMARY KEY` is the rowid itself, and a row without its key gets the largest key
/// plus one, in silence: an ID the generator may yet issue in that millisecond.
#[tokio::test]
async fn sqlite_keys_as_bigint_refuse_a_missing_id_and_as_integer_are_the_rowid() {
    let pool = crate::support::sqlite().await;
    for statement in [
        "CREATE TABLE bigint_keys (id BIGINT PRIMARY KEY NOT NULL, name TEXT)",
        "CREATE TABLE integer_keys (id INTEGER PRIMARY KEY, name TEXT)",
    ] {
        sqlx::query(statement).execute(&pool).await.unwrap();
    }
    let indexes: Vec<String> =
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(indexes, ["sqlite_autoindex_bigint_keys_1"]);

    let id: Id<User> = Id::generate().unwrap();
    for table in ["bigint_keys", "integer_keys"] {
        sqlx::query(sql(&format!(
            "INSERT INTO {table} (id, name) VALUES (?, 'typed')"
        )))
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
        let back: Id<User> =
            sqlx::query_scalar(sql(&format!("SELECT id FROM {table} WHERE name = 'typed'")))
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(back, id, "{table}");
    }

    let missing = sqlx::query("INSERT INTO bigint_keys (name) VALUES ('no key')")
        .execute(&pool)
        .await
        .unwrap_err();
    assert_eq!(
        missing.as_database_error().unwrap().message(),
        "NOT NULL constraint failed: bigint_keys.id"
    );
    sqlx::query("INSERT INTO integer_keys (name) VALUES ('no key')")
        .execute(&pool)
        .await
        .unwrap();
    let given: Id<User> = sqlx::query_scalar("SELECT id FROM integer_keys WHERE name = 'no key'")
        .fetch_one(&pool)
        .await
        .unwrap();
    // The largest rowid plus one: the typed row's ID, plus one.
    assert_eq!(given.to_u64(), id.to_u64() + 1);
}

/// PostgreSQL arrays: `= ANY($1)` binds a `Vec` of IDs.
#[tokio::test]
async fn postgres_binds_a_vec_of_ids_to_any() {
    let pool = crate::support::postgres().await;
    let table = postgres::values_table(&pool).await;
    let wanted: Vec<Id<User>> = vec![
        VALUES[7].into(),
        VALUES[2].into(),
        Id::from_u64(42).unwrap(),
    ];
    let names: Vec<String> = sqlx::query_scalar(sql(&format!(
        "SELECT name FROM {table} WHERE id = ANY($1) ORDER BY id"
    )))
    .bind(&wanted)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(names, ["00CMXB6TAK4SA", "7ZZZZZZZZZZZZ"]);
}

#[tokio::test]
async fn postgres_binds_a_vec_of_newtypes_to_any() {
    let pool = crate::support::postgres().await;
    let table = postgres::values_table(&pool).await;
    let newtypes = vec![UserId(VALUES[0])];
    let count: i64 = sqlx::query_scalar(sql(&format!(
        "SELECT COUNT(*) FROM {table} WHERE id = ANY($1)"
    )))
    .bind(&newtypes)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(count, 1);
}

#[tokio::test]
async fn postgres_arrays_decode_to_a_vec_of_ids() {
    let pool = crate::support::postgres().await;
    let table = postgres::values_table(&pool).await;
    let all: Vec<UlidFlake> = sqlx::query_scalar(sql(&format!(
        "SELECT array_agg(id ORDER BY id) FROM {table}"
    )))
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(all, VALUES);
}
