//! Fresh, migrated databases for each test, and the schema the migrations create.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use ulid_flake_diesel::Id;

pub(crate) use ulid_flake_test_support::databases::{
    VALUES, mysql_url, postgres_url, sqlite_file, unique_name,
};

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

/// The message of an error followed by those of its sources, joined by ": ", as error reporters
/// (anyhow's `{:#}`, eyre) print them.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(error) = source {
        message = format!("{message}: {error}");
        source = error.source();
    }
    message
}

/// The message of loading `found` from a `BIGINT`.
pub(crate) fn out_of_range(found: i64) -> String {
    format!("value out of range: expected 0..=9223372036854775807, found {found}")
}

const POSTGRES: EmbeddedMigrations = embed_migrations!("tests/migrations/postgres");
const MYSQL: EmbeddedMigrations = embed_migrations!("tests/migrations/mysql");
const SQLITE: EmbeddedMigrations = embed_migrations!("tests/migrations/sqlite");

/// A connection whose search path is a new schema, migrated.
pub(crate) fn postgres() -> PgConnection {
    postgres_schema().0
}

/// A connection whose search path is a new schema, migrated, and the schema's name.
pub(crate) fn postgres_schema() -> (PgConnection, String) {
    let url = postgres_url();
    let mut conn = PgConnection::establish(&url)
        .unwrap_or_else(|error| panic!("PostgreSQL at {url} is unreachable: {error}"));
    let schema = unique_name("diesel");
    conn.batch_execute(&format!(
        "CREATE SCHEMA {schema}; SET search_path TO {schema}, public"
    ))
    .unwrap();
    conn.run_pending_migrations(POSTGRES).unwrap();
    (conn, schema)
}

/// A connection to a new database, migrated.
pub(crate) fn mysql() -> MysqlConnection {
    let url = mysql_database();
    MysqlConnection::establish(&url).unwrap()
}

/// The URL of a new database, migrated.
pub(crate) fn mysql_database() -> String {
    let url = mysql_url();
    let mut conn = MysqlConnection::establish(&url)
        .unwrap_or_else(|error| panic!("MariaDB/MySQL at {url} is unreachable: {error}"));
    // The test user may create databases named ulid_flake_test_*.
    let database = unique_name("ulid_flake_test_diesel");
    conn.batch_execute(&format!("CREATE DATABASE {database}"))
        .unwrap();
    let (server, _) = url.rsplit_once('/').unwrap();
    let url = format!("{server}/{database}");
    let mut conn = MysqlConnection::establish(&url).unwrap();
    conn.run_pending_migrations(MYSQL).unwrap();
    url
}

/// A connection to a new SQLite file, migrated.
pub(crate) fn sqlite() -> SqliteConnection {
    let path = sqlite_file("diesel");
    let mut conn = SqliteConnection::establish(path.to_str().unwrap())
        .unwrap_or_else(|error| panic!("cannot create SQLite file {}: {error}", path.display()));
    conn.run_pending_migrations(SQLITE).unwrap();
    conn
}
