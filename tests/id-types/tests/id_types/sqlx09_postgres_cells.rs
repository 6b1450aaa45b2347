use std::fmt::Debug;

use sqlx::postgres::{PgHasArrayType, PgPool};
use sqlx::{Decode, Encode, Postgres, Type};
use ulid_flake_test_support::databases::postgres_url;

use super::*;

/// Binds a `Vec` of the IDs as a PostgreSQL `BIGINT[]` and reads one back.
async fn check<I>(pool: &PgPool, id: I)
where
    I: for<'q> Encode<'q, Postgres> + for<'r> Decode<'r, Postgres> + Type<Postgres>,
    I: PgHasArrayType + Send + Unpin + PartialEq + Debug + Copy + 'static,
{
    let found: bool = sqlx::query_scalar("SELECT $1 = ARRAY[14246757444195114]::INT8[]")
        .bind(vec![id])
        .fetch_one(pool)
        .await
        .unwrap();
    assert!(found);
    let back: Vec<I> = sqlx::query_scalar("SELECT ARRAY[14246757444195114, 0]::INT8[]")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(back[0], id);
}

#[tokio::test]
async fn every_id_type_binds_in_a_postgres_bigint_array() {
    let pool = PgPool::connect(&postgres_url()).await.unwrap();
    macro_rules! cell {
        ($ty:ty, $id:expr, $text:literal) => {
            check(&pool, $id).await
        };
    }
    each_id_type!(cell);
}
