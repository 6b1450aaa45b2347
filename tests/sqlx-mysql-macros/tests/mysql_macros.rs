//! `query!` and `query_as!` with ID types on MySQL/MariaDB, checked at build time against the
//! committed query data (`.sqlx/`) and run against the server at
//! `ULID_FLAKE_TEST_MYSQL_URL` (set by `scripts/with-databases.sh`; the test fails without it).

use ulid_flake_sqlx::Id;

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
async fn ids_bound_with_their_types_read_back_through_type_overrides() {
    let url = std::env::var("ULID_FLAKE_TEST_MYSQL_URL")
        .expect("ULID_FLAKE_TEST_MYSQL_URL is not set: run through scripts/test.sh");
    let pool = sqlx::MySqlPool::connect(&url)
        .await
        .unwrap_or_else(|error| panic!("MariaDB/MySQL at {url} is unreachable: {error}"));
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
        sqlx::query!(
            "INSERT INTO macro_users (id, name, invited_by) VALUES (?, ?, ?)",
            user.id as Id<MacroUser>,
            user.name,
            user.invited_by as Option<Id<MacroUser>>,
        )
        .execute(&pool)
        .await
        .unwrap();
    }
    let read = sqlx::query_as!(
        MacroUser,
        r#"SELECT id AS `id: Id<MacroUser>`, name, invited_by AS `invited_by: Id<MacroUser>`
           FROM macro_users WHERE id IN (?, ?) ORDER BY id"#,
        ada.id as Id<MacroUser>,
        bob.id as Id<MacroUser>,
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(read, [ada, bob]);
}
