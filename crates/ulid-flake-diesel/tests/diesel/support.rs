//! Fresh, migrated databases for each test, and the schema the migrations create.

use std::sync::atomic::{AtomicU32, Ordering};

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use ulid_flake_diesel::{Id, UlidFlake};

diesel::table! {
    users (id) {
        id -> BigInt,
        name -> Text,
        invited_by -> Nullable<BigInt>,
    }
}

/// A row of `users`, with typed IDs and no attributes on them.
#[derive(Debug, PartialEq, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = users)]
pub(crate) struct User {
    pub(crate) id: Id<User>,
    pub(crate) name: String,
    pub(crate) invited_by: Option<Id<User>>,
}

/// SPEC §5's vectors and the extremes, in ascending order.
pub(crate) const VALUES: [UlidFlake; 8] = [
    UlidFlake::MIN,
    ulid_flake_diesel::ulid_flake!("0000000000001"),
    ulid_flake_diesel::ulid_flake!("00CMXB6TAK4SA"),
    ulid_flake_diesel::ulid_flake!("00F2N078MDT7J"),
    ulid_flake_diesel::ulid_flake!("00F5MN1MCFT30"),
    ulid_flake_diesel::ulid_flake!("00F5PEXFDQCGR"),
    ulid_flake_diesel::ulid_flake!("128GGYHYYK08N"),
    UlidFlake::MAX,
];

const POSTGRES: EmbeddedMigrations = embed_migrations!("tests/migrations/postgres");
const MYSQL: EmbeddedMigrations = embed_migrations!("tests/migrations/mysql");
const SQLITE: EmbeddedMigrations = embed_migrations!("tests/migrations/sqlite");

fn url(variable: &str) -> String {
    std::env::var(variable).unwrap_or_else(|_| {
        panic!(
            "{variable} is not set: run the database tests through scripts/test.sh or \
             scripts/with-databases.sh cargo test"
        )
    })
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

/// A connection whose search path is a new schema, migrated.
pub(crate) fn postgres() -> PgConnection {
    let url = url("ULID_FLAKE_TEST_POSTGRES_URL");
    let mut conn = PgConnection::establish(&url)
        .unwrap_or_else(|error| panic!("PostgreSQL at {url} is unreachable: {error}"));
    let schema = unique_name("diesel");
    conn.batch_execute(&format!(
        "CREATE SCHEMA {schema}; SET search_path TO {schema}, public"
    ))
    .unwrap();
    conn.run_pending_migrations(POSTGRES).unwrap();
    conn
}

/// A connection to a new database, migrated.
pub(crate) fn mysql() -> MysqlConnection {
    let url = url("ULID_FLAKE_TEST_MYSQL_URL");
    let mut conn = MysqlConnection::establish(&url)
        .unwrap_or_else(|error| panic!("MariaDB/MySQL at {url} is unreachable: {error}"));
    // The test user may create databases named ulid_flake_test_*.
    let database = unique_name("ulid_flake_test_diesel");
    conn.batch_execute(&format!("CREATE DATABASE {database}"))
        .unwrap();
    let (server, _) = url.rsplit_once('/').unwrap();
    let mut conn = MysqlConnection::establish(&format!("{server}/{database}")).unwrap();
    conn.run_pending_migrations(MYSQL).unwrap();
    conn
}

/// A connection to a new SQLite file, migrated.
pub(crate) fn sqlite() -> SqliteConnection {
    let directory =
        std::env::var_os("ULID_FLAKE_TEST_SQLITE_DIR").map_or_else(std::env::temp_dir, Into::into);
    let path = directory.join(format!("{}.sqlite3", unique_name("diesel")));
    let mut conn = SqliteConnection::establish(path.to_str().unwrap())
        .unwrap_or_else(|error| panic!("cannot create SQLite file {}: {error}", path.display()));
    conn.run_pending_migrations(SQLITE).unwrap();
    conn
}
