use std::fmt::Debug;

use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};
use sqlx::{Decode, Encode, Sqlite, Type};
use ulid_flake_test_support::databases::sqlite_file;

use super::*;

/// Binds the ID into a `BIGINT` column of a SQLite file and reads it back typed; the column
/// holds the integer; a negative value read as the type is an error that names it.
async fn check<I>(pool: &SqlitePool, id: I)
where
    I: for<'q> Encode<'q, Sqlite> + for<'r> Decode<'r, Sqlite> + Type<Sqlite>,
    I: Send + Unpin + PartialEq + Debug + Copy + 'static,
{
    sqlx::query("DELETE FROM ids").execute(pool).await.unwrap();
    sqlx::query("INSERT INTO ids (id) VALUES (?)")
        .bind(id)
        .execute(pool)
        .await
        .unwrap();
    let back: I = sqlx::query_scalar("SELECT id FROM ids WHERE id = ?")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(back, id);
    let stored: i64 = sqlx::query_scalar("SELECT id FROM ids").fetch_one(pool).await.unwrap();
    assert_eq!(stored, INTEGER);
    let error = sqlx::query_scalar::<_, I>("SELECT -5")
        .fetch_one(pool)
        .await
        .unwrap_err();
    assert!(error.to_string().ends_with("found -5"), "{error}");
}

#[tokio::test]
async fn every_id_type_round_trips_through_a_sqlite_bigint() {
    let options = SqliteConnectOptions::new()
        .filename(sqlite_file("id_types_sqlx"))
        .create_if_missing(true);
    let pool = SqlitePool::connect_with(options).await.unwrap();
    sqlx::query("CREATE TABLE ids (id BIGINT NOT NULL)")
        .execute(&pool)
        .await
        .unwrap();
    macro_rules! cell {
        ($ty:ty, $id:expr, $text:literal) => {
            check(&pool, $id).await
        };
    }
    each_id_type!(cell);
}
