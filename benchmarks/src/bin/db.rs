//! The database benchmark, run on demand (not in CI): `scripts/bench-db.sh`.
//!
//! Inserts the same number of rows into PostgreSQL (`ULID_FLAKE_TEST_POSTGRES_URL`) with
//! different primary keys — an `Id<T>` through sqlx, the same value as a raw `i64`, UUIDv4,
//! UUIDv7 and ULID as text — in batches of 1,000, and reports the insert rate and the size of
//! the primary-key index, as a Markdown table.

use std::time::{Duration, Instant};

use sqlx::{PgPool, Postgres, QueryBuilder};
use ulid_flake_core::Id;
use ulid_flake_core::generator::Generator;

const ROWS: usize = 100_000;
const BATCH: usize = 1_000;
/// Each scheme is measured this many times; the best run counts (the least disturbed).
const RUNS: usize = 5;

struct Row;

/// One way to make and bind a key.
enum Keys {
    UlidFlake(Vec<Id<Row>>),
    RawI64(Vec<i64>),
    Uuid(Vec<uuid::Uuid>),
    Text(Vec<String>),
}

impl Keys {
    fn push_batch(&self, range: std::ops::Range<usize>, builder: &mut QueryBuilder<Postgres>) {
        builder.push_values(range, |mut row, index| {
            match self {
                Self::UlidFlake(keys) => row.push_bind(keys[index]),
                Self::RawI64(keys) => row.push_bind(keys[index]),
                Self::Uuid(keys) => row.push_bind(keys[index]),
                Self::Text(keys) => row.push_bind(keys[index].clone()),
            };
            row.push_bind(index as i64);
        });
    }
}

/// One insert of all rows into a fresh table: the time, and the primary-key index's size.
async fn insert_all(pool: &PgPool, name: &str, column: &str, keys: &Keys) -> (Duration, i64) {
    let table = format!("bench_{name}");
    let drop = format!("DROP TABLE IF EXISTS {table}");
    sqlx::query(sqlx::AssertSqlSafe(drop))
        .execute(pool)
        .await
        .unwrap();
    let create = format!("CREATE TABLE {table} (id {column} PRIMARY KEY, payload BIGINT NOT NULL)");
    sqlx::query(sqlx::AssertSqlSafe(create))
        .execute(pool)
        .await
        .unwrap();
    let start = Instant::now();
    for batch in (0..ROWS).step_by(BATCH) {
        let mut builder = QueryBuilder::new(format!("INSERT INTO {table} (id, payload) "));
        keys.push_batch(batch..batch + BATCH, &mut builder);
        builder.build().execute(pool).await.unwrap();
    }
    let elapsed = start.elapsed();
    let size = format!("SELECT pg_relation_size('{table}_pkey')");
    let index_bytes = sqlx::query_scalar(sqlx::AssertSqlSafe(size))
        .fetch_one(pool)
        .await
        .unwrap();
    (elapsed, index_bytes)
}

#[tokio::main]
async fn main() {
    let url = std::env::var("ULID_FLAKE_TEST_POSTGRES_URL")
        .expect("run through scripts/bench-db.sh, which starts PostgreSQL");
    let pool = PgPool::connect(&url).await.unwrap();
    let generator = Generator::new();
    let ids: Vec<Id<Row>> = (0..ROWS)
        .map(|_| generator.generate_blocking().unwrap().into())
        .collect();
    let mut ulid_generator = ulid::Generator::new();
    let schemes = [
        ("ulid_flake", "BIGINT", Keys::UlidFlake(ids.clone())),
        (
            "raw_i64",
            "BIGINT",
            Keys::RawI64(ids.iter().map(|id| id.to_i64()).collect()),
        ),
        (
            "uuid_v7",
            "UUID",
            Keys::Uuid((0..ROWS).map(|_| uuid::Uuid::now_v7()).collect()),
        ),
        (
            "uuid_v4",
            "UUID",
            Keys::Uuid((0..ROWS).map(|_| uuid::Uuid::new_v4()).collect()),
        ),
        (
            "ulid_text",
            "TEXT",
            Keys::Text(
                (0..ROWS)
                    .map(|_| ulid_generator.generate().unwrap().to_string())
                    .collect(),
            ),
        ),
    ];
    // The schemes take turns, run after run, so that a warm-up or a disturbance does not
    // favour one; each keeps its best run.
    let mut results: Vec<_> = schemes
        .iter()
        .map(|(name, column, _)| (name, column, (Duration::MAX, 0)))
        .collect();
    for _ in 0..RUNS {
        for ((name, column, keys), result) in schemes.iter().zip(&mut results) {
            let (elapsed, index_bytes) = insert_all(&pool, name, column, keys).await;
            result.2 = (result.2.0.min(elapsed), index_bytes);
        }
    }
    let raw = results
        .iter()
        .find(|result| *result.0 == "raw_i64")
        .unwrap()
        .2
        .0;
    println!("| key | column | rows/s | vs raw i64 | primary-key index |");
    println!("|---|---|---|---|---|");
    for (name, column, (elapsed, index_bytes)) in &results {
        println!(
            "| {name} | {column} | {:.0} | {:.2} | {:.1} MiB |",
            ROWS as f64 / elapsed.as_secs_f64(),
            raw.as_secs_f64() / elapsed.as_secs_f64(),
            *index_bytes as f64 / (1024.0 * 1024.0)
        );
    }
}
