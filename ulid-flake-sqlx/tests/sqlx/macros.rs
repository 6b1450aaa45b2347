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

#[tokio::test]
async fn query_as_reads_and_binds_ids_with_type_overrides() {
    let pool = postgres().await;
    sqlx::query(CREATE_TABLE).execute(&pool).await.unwrap();
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
        // Parameters: `as _` lets the macro accept the ID types for the BIGINT columns.
        sqlx::query!(
            "INSERT INTO macro_users (id, name, invited_by) VALUES ($1, $2, $3)",
            user.id as _,
            user.name,
            user.invited_by as _,
        )
        .execute(&pool)
        .await
        .unwrap();
    }

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

    // Without an override, the macros see the column's i64.
    let raw: i64 = sqlx::query_scalar!("SELECT id FROM macro_users WHERE id = $1", read[1].id as _)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(raw, read[1].id.to_i64());
}
