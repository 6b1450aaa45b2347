//! The checked macros with ID types, on PostgreSQL. They are type-checked at build time
//! against the query data committed in `.sqlx/` (the test command builds with
//! `SQLX_OFFLINE=true`, so no database is needed to compile) and run against the server.

use ulid_flake_sqlx::Id;

use crate::support::postgres;

/// The row of `macro_users`.
#[derive(Debug, PartialEq)]
struct MacroUser {
    id: Id<MacroUser>,
    name: String,
    invited_by: Option<Id<MacroUser>>,
}

/// The table the committed query data describes.
const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS macro_users \
    (id BIGINT PRIMARY KEY, name TEXT NOT NULL, invited_by BIGINT NULL)";

/// A pool with `macro_users` created. The table is shared by the tests (the committed query
/// data names it), so concurrent creations are serialised by an advisory lock: PostgreSQL's
/// `CREATE TABLE IF NOT EXISTS` is not safe against itself.
async fn pool_with_table() -> sqlx::PgPool {
    let pool = postgres().await;
    let mut transaction = pool.begin().await.unwrap();
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('macro_users'))")
        .execute(&mut *transaction)
        .await
        .unwrap();
    sqlx::query(CREATE_TABLE)
        .execute(&mut *transaction)
        .await
        .unwrap();
    transaction.commit().await.unwrap();
    pool
}

/// Inserts two new users, Bob invited by Ada, binding their IDs through `query!`.
async fn insert_ada_and_bob(pool: &sqlx::PgPool) -> [MacroUser; 2] {
    let ada = MacroUser {
        id: Id::generate().unwrap(),
        name: "Ada".into(),
        invited_by: None,
    };
    let bob = MacroUser {
        id: Id::generate().unwrap(),
        name: "Bob".into(),
        invited_by: Some(ada.id),
    };
    for user in [&ada, &bob] {
        // Parameters: each ID cast to its own type, which rustc checks.
        sqlx::query!(
            "INSERT INTO macro_users (id, name, invited_by) VALUES ($1, $2, $3)",
            user.id as Id<MacroUser>,
            user.name,
            user.invited_by as Option<Id<MacroUser>>,
        )
        .execute(pool)
        .await
        .unwrap();
    }
    [ada, bob]
}

#[tokio::test]
async fn ids_bound_with_their_types_read_back_through_type_overrides() {
    let pool = pool_with_table().await;
    let [ada, bob] = insert_ada_and_bob(&pool).await;
    // Columns: the override names the ID type; nullability is still inferred.
    let read = sqlx::query_as!(
        MacroUser,
        r#"SELECT id AS "id: Id<MacroUser>", name, invited_by AS "invited_by: Id<MacroUser>"
           FROM macro_users WHERE id = $1 OR id = $2 ORDER BY id"#,
        ada.id as Id<MacroUser>,
        bob.id as Id<MacroUser>,
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(read, [ada, bob]);
}

#[tokio::test]
async fn without_an_override_an_id_column_reads_as_i64() {
    let pool = pool_with_table().await;
    let [_, bob] = insert_ada_and_bob(&pool).await;
    let raw: i64 = sqlx::query_scalar!(
        "SELECT id FROM macro_users WHERE id = $1",
        bob.id as Id<MacroUser>
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(raw, bob.id.to_i64());
}
