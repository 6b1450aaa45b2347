//! Connections to the test databases, and names that concurrent runs do not share.

use std::sync::atomic::{AtomicU32, Ordering};

use sqlx::mysql::{MySqlPool, MySqlPoolOptions};
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};
use ulid_flake_sqlx::UlidFlake;

/// The entity of the test tables.
#[derive(Debug, PartialEq, sqlx::FromRow)]
pub(crate) struct User {
    pub(crate) id: ulid_flake_sqlx::Id<User>,
    pub(crate) name: String,
    pub(crate) invited_by: Option<ulid_flake_sqlx::Id<User>>,
}

/// SPEC §5's vectors and the extremes, in ascending order.
pub(crate) const VALUES: [UlidFlake; 8] = [
    UlidFlake::MIN,
    ulid_flake_sqlx::ulid_flake!("0000000000001"),
    ulid_flake_sqlx::ulid_flake!("00CMXB6TAK4SA"),
    ulid_flake_sqlx::ulid_flake!("00F2N078MDT7J"),
    ulid_flake_sqlx::ulid_flake!("00F5MN1MCFT30"),
    ulid_flake_sqlx::ulid_flake!("00F5PEXFDQCGR"),
    ulid_flake_sqlx::ulid_flake!("128GGYHYYK08N"),
    UlidFlake::MAX,
];

fn url(variable: &str) -> String {
    std::env::var(variable).unwrap_or_else(|_| {
        panic!(
            "{variable} is not set: run the database tests through scripts/test.sh or \
             scripts/with-databases.sh cargo test"
        )
    })
}

pub(crate) async fn postgres() -> PgPool {
    let url = url("ULID_FLAKE_TEST_POSTGRES_URL");
    PgPoolOptions::new()
        .max_connections(4)
        .connect(&url)
        .await
        .unwrap_or_else(|error| panic!("PostgreSQL at {url} is unreachable: {error}"))
}

pub(crate) async fn mysql() -> MySqlPool {
    let url = url("ULID_FLAKE_TEST_MYSQL_URL");
    MySqlPoolOptions::new()
        .max_connections(4)
        .connect(&url)
        .await
        .unwrap_or_else(|error| panic!("MariaDB/MySQL at {url} is unreachable: {error}"))
}

/// A new SQLite file, in `ULID_FLAKE_TEST_SQLITE_DIR` when set.
pub(crate) async fn sqlite() -> SqlitePool {
    let directory =
        std::env::var_os("ULID_FLAKE_TEST_SQLITE_DIR").map_or_else(std::env::temp_dir, Into::into);
    let path = directory.join(format!("{}.sqlite3", unique_name("ulid_flake")));
    let options = SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true);
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap_or_else(|error| panic!("cannot create SQLite file {}: {error}", path.display()))
}

/// `prefix` made unique across the tests of this process and across processes.
pub(crate) fn unique_name(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "{prefix}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Marks SQL built with `format!` as safe: these tests put only generated table names in it.
pub(crate) fn sql(text: &str) -> sqlx::AssertSqlSafe<&str> {
    sqlx::AssertSqlSafe(text)
}
