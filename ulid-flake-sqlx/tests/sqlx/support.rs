//! Connections to the test databases, and names that concurrent runs do not share.

use sqlx::mysql::{MySqlPool, MySqlPoolOptions};
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};

pub(crate) use ulid_flake_test_support::databases::{
    VALUES, mysql_url, postgres_url, sqlite_file, unique_name,
};

/// The entity of the test tables.
#[derive(Debug, PartialEq, sqlx::FromRow)]
pub(crate) struct User {
    pub(crate) id: ulid_flake_sqlx::Id<User>,
    pub(crate) name: String,
    pub(crate) invited_by: Option<ulid_flake_sqlx::Id<User>>,
}

pub(crate) async fn postgres() -> PgPool {
    let url = postgres_url();
    PgPoolOptions::new()
        .max_connections(4)
        .connect(&url)
        .await
        .unwrap_or_else(|error| panic!("PostgreSQL at {url} is unreachable: {error}"))
}

pub(crate) async fn mysql() -> MySqlPool {
    let url = mysql_url();
    MySqlPoolOptions::new()
        .max_connections(4)
        .connect(&url)
        .await
        .unwrap_or_else(|error| panic!("MariaDB/MySQL at {url} is unreachable: {error}"))
}

/// A new SQLite file, in `ULID_FLAKE_TEST_SQLITE_DIR` when set.
pub(crate) async fn sqlite() -> SqlitePool {
    let path = sqlite_file("ulid_flake");
    let options = SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true);
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap_or_else(|error| panic!("cannot create SQLite file {}: {error}", path.display()))
}

/// Marks SQL built with `format!` as safe: these tests put only generated table names in it.
pub(crate) fn sql(text: &str) -> sqlx::AssertSqlSafe<&str> {
    sqlx::AssertSqlSafe(text)
}
