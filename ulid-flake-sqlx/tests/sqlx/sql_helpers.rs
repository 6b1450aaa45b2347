//! The SQL helper functions agree with the Rust codec, on PostgreSQL and MariaDB.

use ulid_flake_sqlx::generator::Generator;
use ulid_flake_sqlx::{Epoch, Error, Prefix, PrefixedId, UlidFlake, ulid_flake};

use crate::support::{VALUES, sql, unique_name};

/// The published test vectors (`ulid-flake-core/test-vectors/`).
const VECTORS: &str = include_str!("../../../ulid-flake-core/test-vectors/ulid-flake.json");

/// How many generated IDs each database converts both ways.
const GENERATED: usize = 10_000;

/// Bad text and the database's message for it (the same words as the Rust codec).
const REJECTED: [(&str, &str); 6] = [
    (
        "00CMXB6TAK4SI",
        "invalid character 'I' at index 12: expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)",
    ),
    (
        "00CMXB6TAK4SU",
        "invalid character 'U' at index 12: expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)",
    ),
    (
        "00CMXB6TAK4é",
        "invalid character 'é' at index 11: expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)",
    ),
    (
        "00CMXB6TAK4S",
        "invalid length: expected 13 ASCII characters, found 12 bytes",
    ),
    (
        "8000000000000",
        "value out of range: expected a first character 0-7, found '8'",
    ),
    (
        "G000000000000",
        "value out of range: expected a first character 0-7, found 'G'",
    ),
];

/// The entity of the test vectors' prefixed section.
struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

/// Prefixed texts the codec rejects beyond the test vectors' (each wrong prefix of the core's
/// `prefixes_are_exact`, a prefix past the codec's 65535-byte count, one byte after the prefix, a
/// bad character of the 13), whose messages the database must repeat word for word.
fn more_rejected_prefixed_texts() -> Vec<String> {
    let mut texts: Vec<String> = [
        "users_02MWMFBHB1YJ2",
        "_02MWMFBHB1YJ2",
        "invoice_02MWMFBHB1YJ2",
        "organization_02MWMFBHB1YJ2",
        "internationalization_02MWMFBHB1YJ2",
        "user-02MWMFBHB1YJ2",
        "user",
        "",
        "user_02MWMFBHB1YJ",
        "user_0",
        "user_02MWMFBHB1YJ2U",
        "user_0 MWMFBHB1YJ2",
        "user_G2MWMFBHB1YJ2",
    ]
    .map(str::to_owned)
    .into();
    texts.push(format!("{}_00CMXB6TAK4SA", "a".repeat(70_000)));
    texts
}

/// Prefixes no `Prefix` may have, and how the database quotes each in its message.
const INVALID_PREFIXES: [(&str, &str); 7] = [
    ("", "''"),
    ("User", "'User'"),
    ("2fa", "'2fa'"),
    ("user_", "'user_'"),
    ("usér", "'usér'"),
    ("user\n", "'user\n'"),
    (
        "abcdefghijklmnopqrstuvwxyzabcdef",
        "'abcdefghijklmnopqrstuvwxyzabcdef'",
    ),
];

/// Serialises the migrations of this process: concurrent runs would race to create sqlx's
/// migrations table.
static MIGRATING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn database_message(error: sqlx::Error) -> String {
    match error {
        sqlx::Error::Database(error) => error.message().to_owned(),
        other => panic!("expected a database error, found {other:?}"),
    }
}

macro_rules! sql_helper_tests {
    (
        $database:ident, $db_type:ty, $connect:path, $migrator:path,
        to_text: $to_text:literal, from_text: $from_text:literal, to_utc: $to_utc:literal,
        to_prefixed: $to_prefixed:literal, from_prefixed: $from_prefixed:literal,
        sqlstates: $sqlstates:expr
    ) => {
        mod $database {
            use super::*;

            /// A pool with the helper functions installed.
            async fn migrated() -> sqlx::Pool<$db_type> {
                let pool = $connect().await;
                {
                    let _migrating = MIGRATING.lock().await;
                    $migrator.run(&pool).await.unwrap();
                }
                pool
            }

            #[tokio::test]
            async fn to_text_writes_the_codec_s_text() {
                let pool = migrated().await;
                for value in VALUES {
                    let text: String = sqlx::query_scalar($to_text)
                        .bind(value)
                        .fetch_one(&pool)
                        .await
                        .unwrap();
                    assert_eq!(text, value.to_string());
                }
            }

            #[tokio::test]
            async fn from_text_reads_the_codec_s_text_in_either_case() {
                let pool = migrated().await;
                for value in VALUES {
                    let text = value.to_string();
                    for input in [text.clone(), text.to_ascii_lowercase()] {
                        let parsed: UlidFlake = sqlx::query_scalar($from_text)
                            .bind(input)
                            .fetch_one(&pool)
                            .await
                            .unwrap();
                        assert_eq!(parsed, value);
                    }
                }
            }

            #[tokio::test]
            async fn to_timestamp_is_the_id_s_moment() {
                let pool = migrated().await;
                let utc = |id: UlidFlake| {
                    let pool = pool.clone();
                    async move {
                        sqlx::query_scalar::<_, String>($to_utc)
                            .bind(id)
                            .bind(Epoch::DEFAULT.unix_ms() as i64)
                            .fetch_one(&pool)
                            .await
                            .unwrap()
                    }
                };
                assert_eq!(
                    utc(ulid_flake!("00CMXB6TAK4SA")).await,
                    "2024-06-06T06:06:06.666000Z"
                );
                assert_eq!(utc(UlidFlake::MIN).await, "2024-01-01T00:00:00.000000Z");
                assert_eq!(utc(UlidFlake::MAX).await, "2302-09-27T15:10:22.207000Z");
            }

            #[tokio::test]
            async fn from_text_rejects_bad_text_with_the_codec_s_words() {
                let pool = migrated().await;
                for (input, message) in REJECTED {
                    let error = sqlx::query_scalar::<_, i64>($from_text)
                        .bind(input)
                        .fetch_one(&pool)
                        .await
                        .unwrap_err();
                    assert_eq!(database_message(error), message, "{input:?}");
                }
            }

            /// Every case of the published test vectors that SQL can take: the valid IDs
            /// both ways and their moments, the accepted spellings, the rejected texts with
            /// the codec's kind of error at the codec's index, the negative integers.
            #[tokio::test]
            async fn the_test_vectors_agree() {
                let pool = migrated().await;
                let vectors: serde_json::Value = serde_json::from_str(VECTORS).unwrap();
                let cases = |section: &str| vectors[section].as_array().unwrap().clone();
                let int = |case: &serde_json::Value, field: &str| -> i64 {
                    case[field].as_str().unwrap().parse().unwrap()
                };
                let text = |case: &serde_json::Value, field: &str| -> String {
                    case[field].as_str().unwrap().to_owned()
                };
                let to_text = |id: i64| {
                    sqlx::query_scalar::<_, String>($to_text).bind(id).fetch_one(&pool)
                };
                let from_text = |input: String| {
                    sqlx::query_scalar::<_, i64>($from_text).bind(input).fetch_one(&pool)
                };
                let to_utc = |id: i64| {
                    sqlx::query_scalar::<_, String>($to_utc)
                        .bind(id)
                        .bind(Epoch::DEFAULT.unix_ms() as i64)
                        .fetch_one(&pool)
                };

                let valid = cases("valid");
                for case in &valid {
                    let (id, canonical) = (int(case, "int"), text(case, "text"));
                    assert_eq!(to_text(id).await.unwrap(), canonical);
                    assert_eq!(from_text(canonical.clone()).await.unwrap(), id);
                    // The vectors' milliseconds, as the query writes microseconds.
                    let utc = text(case, "utc").replace('Z', "000Z");
                    assert_eq!(to_utc(id).await.unwrap(), utc, "{canonical}");
                }
                let accepted = cases("accepted");
                for case in &accepted {
                    let id = UlidFlake::parse_str(&text(case, "text")).unwrap().to_i64();
                    assert_eq!(from_text(text(case, "input")).await.unwrap(), id);
                }
                // Text the database takes (not the one case of bytes that are no UTF-8).
                let mut rejected = 0;
                for case in cases("invalid_text") {
                    let Some(input) = case["input"].as_str() else {
                        continue;
                    };
                    let message = database_message(from_text(input.to_owned()).await.unwrap_err());
                    let error = &case["error"];
                    // The whole message, but the bad character as each database quotes it.
                    let (start, end) = match error["kind"].as_str().unwrap() {
                        "invalid_length" => (
                            format!(
                                "invalid length: expected 13 ASCII characters, found {} {}",
                                error["found"],
                                if error["found"] == 1 { "byte" } else { "bytes" }
                            ),
                            String::new(),
                        ),
                        "invalid_character" => (
                            "invalid character '".to_owned(),
                            format!(
                                "' at index {}: expected a Crockford Base32 digit (0-9, A-Z \
                                 without I, L, O, U, in either case)",
                                error["index"]
                            ),
                        ),
                        "out_of_range" => (
                            format!(
                                "value out of range: expected a first character 0-7, found '{}'",
                                &input[..1]
                            ),
                            String::new(),
                        ),
                        other => panic!("no such kind {other}"),
                    };
                    let as_expected = if end.is_empty() {
                        message == start
                    } else {
                        message.starts_with(&start) && message.ends_with(&end)
                    };
                    assert!(as_expected, "{input:?}: {message}");
                    rejected += 1;
                }
                let mut negative = 0;
                for case in cases("invalid_int") {
                    let Ok(id) = case["int"].as_str().unwrap().parse::<i64>() else {
                        continue;
                    };
                    let expected =
                        format!("value out of range: expected 0..=9223372036854775807, found {id}");
                    assert_eq!(database_message(to_text(id).await.unwrap_err()), expected);
                    assert_eq!(database_message(to_utc(id).await.unwrap_err()), expected);
                    negative += 1;
                }
                assert_eq!(
                    (valid.len(), accepted.len(), rejected, negative),
                    (16, 3, 23, 2)
                );
            }

            #[tokio::test]
            async fn prefixed_text_is_the_prefixed_id_s_text() {
                let pool = migrated().await;
                for value in VALUES {
                    let id = PrefixedId::<User>::from(value);
                    let text: String = sqlx::query_scalar($to_prefixed)
                        .bind(value)
                        .bind("user")
                        .fetch_one(&pool)
                        .await
                        .unwrap();
                    assert_eq!(text, id.to_string());
                    let lowercase = format!("user_{}", value.to_string().to_ascii_lowercase());
                    for input in [text, lowercase] {
                        let parsed: UlidFlake = sqlx::query_scalar($from_prefixed)
                            .bind(&input)
                            .bind("user")
                            .fetch_one(&pool)
                            .await
                            .unwrap();
                        assert_eq!(parsed, value, "{input}");
                    }
                }
                // The longest prefix a `Prefix` may have.
                let longest = "abcdefghijklmnopqrstuvwxyzabcde";
                let text: String = sqlx::query_scalar($to_prefixed)
                    .bind(UlidFlake::MAX)
                    .bind(longest)
                    .fetch_one(&pool)
                    .await
                    .unwrap();
                assert_eq!(text, format!("{longest}_7ZZZZZZZZZZZZ"));
            }

            /// The test vectors' prefixed section, and more wrong prefixes: the database
            /// raises the prefixed ID parser's own message, word for word, but for the range,
            /// which it words as `ulid_flake_from_text` does.
            #[tokio::test]
            async fn prefixed_text_fails_with_the_codec_s_message() {
                let pool = migrated().await;
                let vectors: serde_json::Value = serde_json::from_str(VECTORS).unwrap();
                let prefixed = &vectors["prefixed"];
                assert_eq!(prefixed["prefix"], "user");
                let from_prefixed = |input: String| {
                    sqlx::query_scalar::<_, i64>($from_prefixed)
                        .bind(input)
                        .bind("user")
                        .fetch_one(&pool)
                };
                let valid = prefixed["valid"].as_array().unwrap();
                for case in valid {
                    let int: i64 = case["int"].as_str().unwrap().parse().unwrap();
                    let text = case["text"].as_str().unwrap().to_owned();
                    assert_eq!(from_prefixed(text).await.unwrap(), int);
                }
                let invalid: Vec<String> = prefixed["invalid"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|case| case["input"].as_str().unwrap().to_owned())
                    .collect();
                let rejected = invalid.len();
                for input in invalid.into_iter().chain(more_rejected_prefixed_texts()) {
                    let expected = match input.parse::<PrefixedId<User>>().unwrap_err() {
                        // As ulid_flake_from_text words it: the first character alone.
                        Error::OutOfRange { .. } => format!(
                            "value out of range: expected a first character 0-7, found '{}'",
                            &input["user_".len()..][..1]
                        ),
                        error => error.to_string(),
                    };
                    let error = from_prefixed(input.clone()).await.unwrap_err();
                    assert_eq!(database_message(error), expected, "{:.40}", input);
                }
                assert_eq!((valid.len(), rejected), (3, 9));
            }

            /// A wrong prefix with non-ASCII characters: quoted as the database writes it, but
            /// cut and counted in bytes, as the codec counts them.
            #[tokio::test]
            async fn a_non_ascii_wrong_prefix_is_counted_in_bytes() {
                let pool = migrated().await;
                let message = |input: &'static str| {
                    let pool = pool.clone();
                    async move {
                        let error = sqlx::query_scalar::<_, i64>($from_prefixed)
                            .bind(input)
                            .bind("user")
                            .fetch_one(&pool)
                            .await
                            .unwrap_err();
                        database_message(error)
                    }
                };
                assert_eq!(
                    message("usér_00CMXB6TAK4SA").await,
                    "wrong prefix: expected `user_`, found `usér_`"
                );
                let input = "éééééééé_00CMXB6TAK4SA";
                let codec = input.parse::<PrefixedId<User>>().unwrap_err().to_string();
                assert!(codec.ends_with("…` (17 bytes)"), "{codec}");
                assert_eq!(
                    message(input).await,
                    "wrong prefix: expected `user_`, found `éééééééé_…` (17 bytes)"
                );
            }

            /// The SQLSTATE of each kind of error, as `sql`'s docs list them: bad text, a
            /// value out of range, an invalid prefix.
            #[tokio::test]
            async fn each_kind_of_error_has_its_sqlstate() {
                let pool = migrated().await;
                let [text, range, prefix]: [&str; 3] = $sqlstates;
                let calls = [
                    (sqlx::query($from_text).bind("00CMXB6TAK4S"), text),
                    (sqlx::query($from_text).bind("00CMXB6TAK4SI"), text),
                    (sqlx::query($from_prefixed).bind("post_00CMXB6TAK4SA").bind("user"), text),
                    (sqlx::query($from_text).bind("G000000000000"), range),
                    (sqlx::query($to_text).bind(-1_i64), range),
                    (sqlx::query($to_prefixed).bind(1_i64).bind("User"), prefix),
                ];
                for (index, (call, expected)) in calls.into_iter().enumerate() {
                    match call.execute(&pool).await {
                        Err(sqlx::Error::Database(error)) => {
                            assert_eq!(error.code().as_deref(), Some(expected), "call {index}");
                        }
                        other => panic!("call {index}: expected a database error, found {other:?}"),
                    }
                }
            }

            #[tokio::test]
            async fn an_invalid_prefix_is_refused_both_ways() {
                let pool = migrated().await;
                for (prefix, quoted) in INVALID_PREFIXES {
                    let expected = format!(
                        "invalid prefix: expected a lowercase ASCII letter, then up to 30 \
                         lowercase letters and digits, found {quoted}"
                    );
                    let to = sqlx::query_scalar::<_, String>($to_prefixed)
                        .bind(1_i64)
                        .bind(prefix)
                        .fetch_one(&pool)
                        .await
                        .unwrap_err();
                    assert_eq!(database_message(to), expected, "{prefix:?}");
                    let from = sqlx::query_scalar::<_, i64>($from_prefixed)
                        .bind(format!("{prefix}_0000000000001"))
                        .bind(prefix)
                        .fetch_one(&pool)
                        .await
                        .unwrap_err();
                    assert_eq!(database_message(from), expected, "{prefix:?}");
                }
                let negative = sqlx::query_scalar::<_, String>($to_prefixed)
                    .bind(-1_i64)
                    .bind("user")
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(
                    database_message(negative),
                    "value out of range: expected 0..=9223372036854775807, found -1"
                );
            }

            #[tokio::test]
            async fn to_text_rejects_a_negative_bigint() {
                let pool = migrated().await;
                let error = sqlx::query_scalar::<_, String>($to_text)
                    .bind(-1_i64)
                    .fetch_one(&pool)
                    .await
                    .unwrap_err();
                assert_eq!(
                    database_message(error),
                    "value out of range: expected 0..=9223372036854775807, found -1"
                );
            }

            #[tokio::test]
            async fn generated_ids_convert_both_ways_in_one_query() {
                let pool = migrated().await;
                // Generated IDs: in a table, converted both ways by the database in one query.
                let table = unique_name("generated");
                sqlx::query(sql(&format!(
                    "CREATE TABLE {table} (id BIGINT PRIMARY KEY)"
                )))
                .execute(&pool)
                .await
                .unwrap();
                let generator = Generator::new();
                let mut generated: Vec<UlidFlake> = (0..GENERATED)
                    .map(|_| generator.generate().unwrap())
                    .collect();
                for chunk in generated.chunks(1_000) {
                    let mut insert =
                        sqlx::QueryBuilder::new(format!("INSERT INTO {table} (id) "));
                    insert.push_values(chunk, |mut row, id| {
                        row.push_bind(*id);
                    });
                    insert.build().execute(&pool).await.unwrap();
                }
                let rows: Vec<(UlidFlake, String, UlidFlake)> = sqlx::query_as(sql(&format!(
                    "SELECT id, ulid_flake_to_text(id), ulid_flake_from_text(ulid_flake_to_text(id)) \
                     FROM {table} ORDER BY id"
                )))
                .fetch_all(&pool)
                .await
                .unwrap();
                generated.sort();
                assert_eq!(rows.len(), GENERATED);
                for ((id, text, back), expected) in rows.into_iter().zip(generated) {
                    assert_eq!(
                        (id, text.as_str(), back),
                        (expected, expected.to_string().as_str(), expected)
                    );
                }
            }
        }
    };
}

sql_helper_tests!(
    postgres_functions,
    sqlx::Postgres,
    crate::support::postgres,
    ulid_flake_sqlx::POSTGRES_MIGRATOR,
    to_text: "SELECT ulid_flake_to_text($1)",
    from_text: "SELECT ulid_flake_from_text($1)",
    to_utc: r#"SELECT to_char(ulid_flake_to_timestamp($1, $2) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"#,
    to_prefixed: "SELECT ulid_flake_to_prefixed_text($1, $2)",
    from_prefixed: "SELECT ulid_flake_from_prefixed_text($1, $2)",
    sqlstates: ["22P02", "22003", "22023"]
);

sql_helper_tests!(
    mysql_functions,
    sqlx::MySql,
    crate::support::mysql,
    ulid_flake_sqlx::MYSQL_MIGRATOR,
    to_text: "SELECT ulid_flake_to_text(?)",
    from_text: "SELECT ulid_flake_from_text(?)",
    to_utc: "SELECT DATE_FORMAT(ulid_flake_to_timestamp(?, ?), '%Y-%m-%dT%H:%i:%s.%fZ')",
    to_prefixed: "SELECT ulid_flake_to_prefixed_text(?, ?)",
    from_prefixed: "SELECT ulid_flake_from_prefixed_text(?, ?)",
    sqlstates: ["22018", "22003", "22023"]
);

/// PostgreSQL's default argument is the default epoch.
#[tokio::test]
async fn postgres_timestamps_default_to_the_default_epoch() {
    let pool = crate::support::postgres().await;
    {
        let _migrating = MIGRATING.lock().await;
        ulid_flake_sqlx::POSTGRES_MIGRATOR.run(&pool).await.unwrap();
    }
    let same: bool = sqlx::query_scalar(
        "SELECT ulid_flake_to_timestamp($1) = ulid_flake_to_timestamp($1, 1704067200000)",
    )
    .bind(ulid_flake!("128GGYHYYK08N"))
    .fetch_one(&pool)
    .await
    .unwrap();
    assert!(same);
}

/// The prefixed functions find the functions they call in their own schema, whatever the
/// caller's `search_path`: `pg_dump` and `pg_restore` run with an empty one while they
/// rebuild an index or a generated column on them.
#[tokio::test]
async fn postgres_prefixed_functions_work_under_an_empty_search_path() {
    use sqlx::{Connection, Executor};

    let pool = crate::support::postgres().await;
    {
        let _migrating = MIGRATING.lock().await;
        ulid_flake_sqlx::POSTGRES_MIGRATOR.run(&pool).await.unwrap();
    }
    let mut conn = pool.acquire().await.unwrap().detach();
    let schema: String = sqlx::query_scalar("SELECT current_schema()")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.execute("SET search_path = ''").await.unwrap();
    let (text, id): (String, i64) = sqlx::query_as(sql(&format!(
        "SELECT \"{schema}\".ulid_flake_to_prefixed_text(14246757444195114, 'user'), \
         \"{schema}\".ulid_flake_from_prefixed_text('user_00cmxb6tak4sa', 'user')"
    )))
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(
        (text.as_str(), id),
        ("user_00CMXB6TAK4SA", 14_246_757_444_195_114)
    );
    conn.close().await.unwrap();
}

/// The migrators, built at run time, are the ones `sqlx::migrate!` builds from the
/// `migrations/` files: the same versions, descriptions, types, checksums and transactions,
/// so a database migrated by either is up to date for the other.
#[test]
fn the_migrators_are_those_of_the_migration_files() {
    let summary = |migrator: &sqlx::migrate::Migrator| {
        migrator
            .iter()
            .map(|migration| {
                (
                    migration.version,
                    migration.description.to_string(),
                    migration.migration_type,
                    migration.checksum.to_vec(),
                    migration.no_tx,
                )
            })
            .collect::<Vec<_>>()
    };
    for (built, from_files) in [
        (
            &*ulid_flake_sqlx::POSTGRES_MIGRATOR,
            sqlx::migrate!("migrations/postgres"),
        ),
        (
            &*ulid_flake_sqlx::MYSQL_MIGRATOR,
            sqlx::migrate!("migrations/mysql"),
        ),
    ] {
        assert_eq!(summary(built).len(), 3);
        assert_eq!(summary(built), summary(&from_files));
    }
}

/// The crate's migrators run beside a user's own on one database at every start, as their docs
/// say: the crate's first, ignoring the user's migrations (which may call its functions),
/// then the user's with `set_ignore_missing(true)`, ignoring the crate's. Without the first
/// ignore, the second start fails on the user's applied migrations.
#[tokio::test]
async fn the_migrators_run_beside_the_user_s_own_at_every_start() {
    use sqlx::migrate::{Migrate, Migration, MigrationType, Migrator};
    use ulid_flake_test_support::lease::Server;

    async fn start_twice<DB>(server: Server, crates: &Migrator) -> Vec<i64>
    where
        DB: sqlx::Database,
        DB::Connection: Migrate,
    {
        let migration = |version, sql| {
            let sql = sqlx::SqlStr::from_static(sql);
            Migration::new(version, "app".into(), MigrationType::Simple, sql, false)
        };
        // One version before the crate's and one after, which calls a function of its.
        let mut yours = Migrator::with_migrations(vec![
            migration(
                20250101000000,
                "CREATE TABLE app_users (id BIGINT NOT NULL PRIMARY KEY)",
            ),
            migration(
                20270101000000,
                "CREATE VIEW app_user_texts AS SELECT ulid_flake_to_text(id) AS id FROM app_users",
            ),
        ]);
        yours.set_ignore_missing(true);
        let url = server.url(&server.scratch_database());
        let pool = sqlx::Pool::<DB>::connect(&url).await.unwrap();
        for _start in 0..2 {
            crates.run(&pool).await.unwrap();
            yours.run(&pool).await.unwrap();
        }
        let applied = pool
            .acquire()
            .await
            .unwrap()
            .list_applied_migrations("_sqlx_migrations")
            .await
            .unwrap();
        pool.close().await;
        applied.iter().map(|migration| migration.version).collect()
    }
    let every = [
        20240101000000,
        20250101000000,
        20261125000000,
        20261128000000,
        20270101000000,
    ];
    let postgres = &ulid_flake_sqlx::POSTGRES_MIGRATOR;
    assert_eq!(
        start_twice::<sqlx::Postgres>(Server::Postgres, postgres).await,
        every
    );
    let mysql = &ulid_flake_sqlx::MYSQL_MIGRATOR;
    assert_eq!(
        start_twice::<sqlx::MySql>(Server::Mysql, mysql).await,
        every
    );
}

/// The SQL files install through the databases' own command-line clients, as their headers
/// say, in the order `ulid-flake sql` prints them, and then convert and make keys.
#[test]
fn the_sql_files_install_through_the_command_line_clients() {
    use ulid_flake_test_support::lease::Server;

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ulid-flake-core/sql");
    let installs = [
        (
            Server::Postgres,
            [
                "postgres.sql",
                "postgres-prefixed.sql",
                "postgres-generate.sql",
            ],
            "SELECT ulid_flake_install_generator('cli')",
        ),
        (
            Server::Mysql,
            ["mysql.sql", "mysql-prefixed.sql", "mysql-generate.sql"],
            "CALL ulid_flake_install_generator('cli', 1704067200000)",
        ),
    ];
    for (server, files, install_generator) in installs {
        let paths = files.map(|file| dir.join(file));
        let database = server
            .install_with_the_client(&paths.each_ref().map(|path| path.as_path()))
            .unwrap_or_else(|error| panic!("{server:?}: {error}"));
        let sql = |sql: &str| server.client(&database, sql).trim().to_owned();
        assert_eq!(
            sql("SELECT ulid_flake_to_text(14246757444195114)"),
            "00CMXB6TAK4SA"
        );
        assert_eq!(
            sql("SELECT ulid_flake_from_text('00cmxb6tak4sa')"),
            "14246757444195114"
        );
        assert_eq!(
            sql("SELECT ulid_flake_to_prefixed_text(14246757444195114, 'user')"),
            "user_00CMXB6TAK4SA"
        );
        assert_eq!(
            sql("SELECT ulid_flake_from_prefixed_text('user_00cmxb6tak4sa', 'user')"),
            "14246757444195114"
        );
        sql(install_generator);
        let key: i64 = sql("SELECT ulid_flake_generate('cli')").parse().unwrap();
        let made = UlidFlake::from_i64(key).unwrap().unix_ms(Epoch::DEFAULT);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        assert!(
            made.abs_diff(now) < 60_000,
            "{server:?}: key {key} made at {made}, now {now}"
        );
    }
}

/// Every valid ID and accepted spelling of the test vectors through `from` and back through
/// `to`, and every text and prefixed text the codec refuses through `from` and
/// `from_prefixed` (prefix `user`): the same IDs as the codec, and only errors. Returns how
/// many were checked.
async fn the_codec_s_verdicts<DB: sqlx::Database>(
    connection: &mut DB::Connection,
    [to, from, from_prefixed]: [&'static str; 3],
) -> usize
where
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
    DB::Arguments: sqlx::IntoArguments<DB>,
    i64: sqlx::Type<DB> + for<'q> sqlx::Encode<'q, DB> + for<'r> sqlx::Decode<'r, DB>,
    String: sqlx::Type<DB> + for<'q> sqlx::Encode<'q, DB> + for<'r> sqlx::Decode<'r, DB>,
    (i64,): for<'r> sqlx::FromRow<'r, DB::Row>,
    (String,): for<'r> sqlx::FromRow<'r, DB::Row>,
{
    let vectors: serde_json::Value = serde_json::from_str(VECTORS).unwrap();
    let cases = |section: &str| vectors[section].as_array().unwrap().clone();
    let text = |case: &serde_json::Value, field: &str| case[field].as_str().unwrap().to_owned();
    let mut checked = 0;
    for case in cases("valid").iter().chain(&cases("accepted")) {
        let input = text(case, "text");
        let parsed: i64 = sqlx::query_scalar(from)
            .bind(input.clone())
            .fetch_one(&mut *connection)
            .await
            .unwrap();
        let id = UlidFlake::parse_str(&input).unwrap();
        assert_eq!(parsed, id.to_i64(), "{input}");
        let written: String = sqlx::query_scalar(to)
            .bind(parsed)
            .fetch_one(&mut *connection)
            .await
            .unwrap();
        assert_eq!(written, id.to_string());
        checked += 1;
    }
    let invalid_text = cases("invalid_text");
    let invalid_prefixed = vectors["prefixed"]["invalid"].as_array().unwrap().clone();
    let refused = invalid_text
        .iter()
        .filter_map(|case| case["input"].as_str().map(str::to_owned))
        .map(|input| (false, input))
        .chain(
            invalid_prefixed
                .iter()
                .map(|case| text(case, "input"))
                .chain(more_rejected_prefixed_texts())
                .map(|input| (true, input)),
        );
    for (is_prefixed, input) in refused {
        let query = if is_prefixed {
            assert!(input.parse::<PrefixedId<User>>().is_err());
            from_prefixed
        } else {
            assert!(UlidFlake::parse_str(&input).is_err());
            from
        };
        let result = sqlx::query_scalar::<_, i64>(query)
            .bind(input.clone())
            .fetch_one(&mut *connection)
            .await;
        assert!(result.is_err(), "{input:.40} read as {result:?}");
        checked += 1;
    }
    checked
}

/// Valid IDs, accepted spellings and refused texts of the test vectors, and the texts beyond
/// them the codec refuses.
const VERDICTS: usize = 19 + 23 + 9 + 14;

/// A test that creates a database of each of `encodings` (`create` names `{database}` and
/// `{encoding}`), applies `migrator`, checks that `encoding_query` reads the encoding back,
/// and runs [`the_codec_s_verdicts`] there.
macro_rules! encodings_test {
    (
        $(#[$doc:meta])* $name:ident, $db:ty, $connection:ty, $url:path, $migrator:path,
        create: $create:literal, encoding_query: $encoding_query:literal,
        encodings: $encodings:expr, queries: $queries:expr
    ) => {
        $(#[$doc])*
        #[tokio::test]
        async fn $name() {
            use sqlx::{Connection, Executor};

            let url = $url();
            let (server, _) = url.rsplit_once('/').expect("a URL ends in /database");
            for encoding in $encodings {
                let database =
                    unique_name(&format!("ulid_flake_test_{}", encoding.to_lowercase()));
                let mut admin = <$connection>::connect(&url).await.unwrap();
                let create = format!($create, database = database, encoding = encoding);
                admin.execute(sql(&create)).await.unwrap();
                let mut connection = <$connection>::connect(&format!("{server}/{database}"))
                    .await
                    .unwrap();
                $migrator.run(&mut connection).await.unwrap();
                let found: String = sqlx::query_scalar($encoding_query)
                    .fetch_one(&mut connection)
                    .await
                    .unwrap();
                assert_eq!(found, encoding);
                let checked = the_codec_s_verdicts::<$db>(&mut connection, $queries).await;
                assert_eq!(checked, VERDICTS, "{encoding}");
                connection.close().await.unwrap();
                admin
                    .execute(sql(&format!("DROP DATABASE {database}")))
                    .await
                    .unwrap();
            }
        }
    };
}

encodings_test!(
    /// In a PostgreSQL database of another encoding than UTF-8 (`LATIN1`, whose characters
    /// are single bytes, and `SQL_ASCII`, which takes any byte as it comes), the functions
    /// install, and take what the codec takes: no encoding makes another spelling an ID. (A
    /// character `LATIN1` lacks, as `А`, fails in the client's conversion, before the
    /// function.)
    postgres_in_latin1_and_sql_ascii_databases_the_functions_take_what_the_codec_takes,
    sqlx::Postgres,
    sqlx::PgConnection,
    crate::support::postgres_url,
    ulid_flake_sqlx::POSTGRES_MIGRATOR,
    create: "CREATE DATABASE {database} ENCODING '{encoding}' LC_COLLATE 'C' LC_CTYPE 'C' \
             TEMPLATE template0",
    encoding_query: "SHOW server_encoding",
    encodings: ["LATIN1", "SQL_ASCII"],
    queries: [
        "SELECT ulid_flake_to_text($1)",
        "SELECT ulid_flake_from_text($1)",
        "SELECT ulid_flake_from_prefixed_text($1, 'user')",
    ]
);

encodings_test!(
    /// The same in MariaDB databases whose default character set is `latin1` or `ascii`.
    mariadb_in_latin1_and_ascii_databases_the_functions_take_what_the_codec_takes,
    sqlx::MySql,
    sqlx::MySqlConnection,
    crate::support::mysql_url,
    ulid_flake_sqlx::MYSQL_MIGRATOR,
    create: "CREATE DATABASE {database} CHARACTER SET {encoding}",
    encoding_query: "SELECT @@character_set_database",
    encodings: ["latin1", "ascii"],
    queries: [
        "SELECT ulid_flake_to_text(?)",
        "SELECT ulid_flake_from_text(?)",
        "SELECT ulid_flake_from_prefixed_text(?, 'user')",
    ]
);
