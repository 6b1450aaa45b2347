//! Ulid-Flake IDs as `BIGINT` columns in [sqlx](https://docs.rs/sqlx/0.9): PostgreSQL, MySQL/MariaDB and SQLite.
//!
//! This crate re-exports [`ulid_flake_core`] with its `sqlx` feature on: the same
//! [`Id<T>`](Id) and [`UlidFlake`] types, never wrappers, implement sqlx's `Type`, `Encode` and
//! `Decode` for every database whose `i64` does. Add this crate with the features of your
//! databases and use the types in your rows:
//!
//! ```toml
//! [dependencies]
//! ulid-flake-sqlx = { version = "0.1", features = ["postgres"] }
//! sqlx = { version = "0.9", features = ["runtime-tokio", "postgres", "macros"] }
//! ```
//!
//! Every other feature of the core passes through under the same name (`serde` is on by
//! default; `features = ["postgres", "utoipa"]`): no separate `ulid-flake-core` line is
//! needed.
//!
//! # Rows with typed IDs
//!
//! `FromRow` needs no attribute and no wrapper: an `Id<User>` field reads a `BIGINT`, an
//! `Option<Id<User>>` a nullable one. For PostgreSQL (on MySQL/MariaDB and SQLite, take a
//! `MySqlPool` or `SqlitePool` and write the placeholders `?`):
//!
//! ```no_run
//! use ulid_flake_sqlx::Id;
//!
//! #[derive(sqlx::FromRow)]
//! struct User {
//!     id: Id<User>,
//!     name: String,
//!     invited_by: Option<Id<User>>,
//! }
//!
//! # async fn example(pool: sqlx::PgPool) -> Result<(), Box<dyn std::error::Error>> {
//! let id: Id<User> = Id::generate()?;
//! sqlx::query("INSERT INTO users (id, name) VALUES ($1, $2)")
//!     .bind(id)
//!     .bind("Ada")
//!     .execute(&pool)
//!     .await?;
//! let user: User = sqlx::query_as("SELECT id, name, invited_by FROM users WHERE id = $1")
//!     .bind(id)
//!     .fetch_one(&pool)
//!     .await?;
//! assert_eq!(user.id, id);
//! # Ok(())
//! # }
//! ```
//!
//! A negative `BIGINT` (written by something else) fails to decode with an error that names
//! it — `value out of range: expected 0..=9223372036854775807 ..., found -5` — never a panic
//! and never a wrapped ID. A `NULL` read into an ID (not an `Option`) is sqlx's
//! `UnexpectedNullError` on every database, SQLite included, where a plain `i64` would read it
//! as 0 (`tests/sqlx/databases.rs`, `a_null_read_as_an_id_is_a_decode_error_not_the_id_zero`).
//!
//! # Binding a list on PostgreSQL
//!
//! With the `postgres` feature, IDs have `PgHasArrayType`, so a `Vec` binds to `= ANY($1)`:
//!
//! ```no_run
//! # #[cfg(feature = "postgres")]
//! # async fn example(pool: sqlx::PgPool, ids: Vec<ulid_flake_sqlx::Id<()>>) -> sqlx::Result<()> {
//! let names: Vec<String> = sqlx::query_scalar("SELECT name FROM users WHERE id = ANY($1)")
//!     .bind(&ids)
//!     .fetch_all(&pool)
//!     .await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Rows made in a time window
//!
//! Integer order is time order, so the rows created in a window are a range of IDs, found
//! through the primary-key index; [`UlidFlake::range_for`] gives its bounds for a window of
//! any [`Moment`] (`SystemTime`, [`UnixMs`], chrono, time, jiff), and [`Id::range_for`] the
//! same bounds typed as `Id<T>`. An ID records its millisecond and no finer time, so a window
//! is rounded out to whole milliseconds: one that ends inside a millisecond finds the rows
//! made later in it too. For PostgreSQL (`?` placeholders elsewhere):
//!
//! ```no_run
//! # async fn example(pool: sqlx::PgPool) -> sqlx::Result<()> {
//! use std::time::{Duration, SystemTime};
//! use ulid_flake_sqlx::{Epoch, UlidFlake};
//!
//! let end = SystemTime::now();
//! if let Some((lowest, highest)) = UlidFlake::range_for(Epoch::DEFAULT, end - Duration::from_secs(3600)..end) {
//!     let names: Vec<String> = sqlx::query_scalar("SELECT name FROM users WHERE id BETWEEN $1 AND $2")
//!         .bind(lowest)
//!         .bind(highest)
//!         .fetch_all(&pool)
//!         .await?;
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # The checked macros: `query!` and `query_as!`
//!
//! The macros infer `i64` for a `BIGINT` column. Name the ID type in the query per column
//! (`"id: Id<User>"`), and the macros check the rest. A parameter is cast: `id as Id<User>`
//! keeps the cast, so rustc refuses another entity's ID there; `id as _` checks nothing
//! (any value sqlx can encode binds). Cast every ID parameter to its type: SQLite reports no
//! parameter types, so there a parameter without a cast binds as with `as _`, unchecked (seen
//! in a review, no test). The snippets below are, query for query, the ones this
//! workspace type-checks against committed query data and runs against each database (named
//! with each); their offline data is also in this crate's `.sqlx`, so they compile here
//! without a database.
//!
//! On **PostgreSQL** (run by this crate's `tests/sqlx/macros.rs`):
//!
//! ```no_run
//! # #[cfg(feature = "postgres")]
//! # async fn example(pool: sqlx::PgPool) -> Result<(), Box<dyn std::error::Error>> {
//! use ulid_flake_sqlx::Id;
//!
//! #[derive(Debug, PartialEq)]
//! struct MacroUser {
//!     id: Id<MacroUser>,
//!     name: String,
//!     invited_by: Option<Id<MacroUser>>,
//! }
//!
//! let ada = MacroUser { id: Id::generate()?, name: "Ada".into(), invited_by: None };
//! // Parameters: each ID cast to its own type, which rustc checks (another entity's ID is
//! // refused; `as _` would bind any).
//! sqlx::query!(
//!     "INSERT INTO macro_users (id, name, invited_by) VALUES ($1, $2, $3)",
//!     ada.id as Id<MacroUser>,
//!     ada.name,
//!     ada.invited_by as Option<Id<MacroUser>>,
//! )
//! .execute(&pool)
//! .await?;
//!
//! // Columns: the override names the ID type; nullability is still inferred.
//! let read = sqlx::query_as!(
//!     MacroUser,
//!     r#"SELECT id AS "id: Id<MacroUser>", name, invited_by AS "invited_by: Id<MacroUser>"
//!            FROM macro_users WHERE id = $1 OR id = $2 ORDER BY id"#,
//!     ada.id as Id<MacroUser>,
//!     ada.id as Id<MacroUser>,
//! )
//! .fetch_all(&pool)
//! .await?;
//! # Ok(())
//! # }
//! ```
//!
//! Where a parameter is cast to its type, rustc refuses another entity's ID (`E0605`, a
//! non-primitive cast from `Id<Post>` to `Id<MacroUser>`; this snippet is compiled to see it
//! fail):
//!
#![cfg_attr(feature = "postgres", doc = "```compile_fail,E0605")]
#![cfg_attr(not(feature = "postgres"), doc = "```ignore")]
//! # async fn example(pool: sqlx::PgPool) -> Result<(), Box<dyn std::error::Error>> {
//! # use ulid_flake_sqlx::Id;
//! # #[derive(Debug, PartialEq)]
//! # struct MacroUser {
//! #     id: Id<MacroUser>,
//! #     name: String,
//! #     invited_by: Option<Id<MacroUser>>,
//! # }
//! struct Post;
//!
//! let post: Id<Post> = Id::generate()?;
//! let read = sqlx::query_as!(
//!     MacroUser,
//!     r#"SELECT id AS "id: Id<MacroUser>", name, invited_by AS "invited_by: Id<MacroUser>"
//!            FROM macro_users WHERE id = $1 OR id = $2 ORDER BY id"#,
//!     post as Id<MacroUser>,
//!     post as Id<MacroUser>,
//! )
//! .fetch_all(&pool)
//! .await?;
//! # Ok(())
//! # }
//! ```
//!
//! On **MySQL/MariaDB** the overrides are quoted with backticks (run by
//! `tests/sqlx-mysql-macros`):
//!
//! ```no_run
//! # #[cfg(feature = "mysql")]
//! # async fn example(pool: sqlx::MySqlPool) -> Result<(), Box<dyn std::error::Error>> {
//! # use ulid_flake_sqlx::Id;
//! # #[derive(Debug, PartialEq)]
//! # struct MacroUser {
//! #     id: Id<MacroUser>,
//! #     name: String,
//! #     invited_by: Option<Id<MacroUser>>,
//! # }
//! # let ada = MacroUser { id: Id::generate()?, name: "Ada".into(), invited_by: None };
//! sqlx::query!(
//!     "INSERT INTO macro_users (id, name, invited_by) VALUES (?, ?, ?)",
//!     ada.id as Id<MacroUser>,
//!     ada.name,
//!     ada.invited_by as Option<Id<MacroUser>>,
//! )
//! .execute(&pool)
//! .await?;
//!
//! let read = sqlx::query_as!(
//!     MacroUser,
//!     r#"SELECT id AS `id: Id<MacroUser>`, name, invited_by AS `invited_by: Id<MacroUser>`
//!            FROM macro_users WHERE id IN (?, ?) ORDER BY id"#,
//!     ada.id as Id<MacroUser>,
//!     ada.id as Id<MacroUser>,
//! )
//! .fetch_all(&pool)
//! .await?;
//! # Ok(())
//! # }
//! ```
//!
//! On **SQLite** a `BIGINT PRIMARY KEY` may hold `NULL`: SQLite lets any primary key but an
//! `INTEGER` one hold it, and reading one is sqlx's "unexpected null", so declare a table's
//! key `BIGINT NOT NULL PRIMARY KEY`, as the example does; the macros then read it as
//! non-null. (A key declared without `NOT NULL` reads as an `Option`: `query_as!` then needs
//! `"id!: Id<Post>"` to read it into an `Id<Post>`.) Run by `examples/sqlx-sqlite`:
//!
//! ```no_run
//! # #[cfg(feature = "sqlite")]
//! # async fn example(pool: sqlx::SqlitePool) -> Result<(), Box<dyn std::error::Error>> {
//! use ulid_flake_sqlx::Id;
//!
//! #[derive(Debug)]
//! struct User {
//!     id: Id<User>,
//!     name: String,
//! }
//!
//! #[derive(Debug)]
//! struct Post {
//!     id: Id<Post>,
//!     author: Id<User>,
//!     title: String,
//! }
//!
//! # let ada = User { id: Id::generate()?, name: "Ada".into() };
//! let posts = sqlx::query_as!(
//!     Post,
//!     r#"SELECT id AS "id: Id<Post>", author AS "author: Id<User>", title
//!            FROM posts WHERE author = ? ORDER BY id"#,
//!     ada.id as Id<User>,
//! )
//! .fetch_all(&pool)
//! .await?;
//! # Ok(())
//! # }
//! ```
//!
//! Without the override, `query_as!` fails to compile: "the trait bound `Id<User>:
//! From<i64>` is not satisfied" (`From<Option<i64>>` on SQLite, for a column that may be
//! `NULL`). To override columns once for the whole crate, turn on sqlx's `sqlx-toml` feature
//! and put a `sqlx.toml` next to `Cargo.toml` (on SQLite, declare the key `NOT NULL`: an
//! override names the type, not the nullability, and a `BIGINT PRIMARY KEY` may otherwise be
//! `NULL`):
//!
//! ```toml
//! [macros.table-overrides.'users']
//! 'id' = "ulid_flake_sqlx::Id<crate::User>"
//! 'invited_by' = "ulid_flake_sqlx::Id<crate::User>"   # nullability is still inferred
//! ```
//!
//! Prefer `table-overrides` to `type-overrides`: the latter matches the SQL type, and would
//! turn every `BIGINT` (counts included) into an ID. Run `cargo sqlx prepare` and commit the
//! `.sqlx` directory so the crate builds with `SQLX_OFFLINE=true` and no database.
//!
//! # Your own newtypes
//!
//! If you prefer `struct UserId(UlidFlake)` to `Id<User>`, [`newtype!`] (the core's, re-exported
//! here and by `ulid-flake-diesel`) defines one with what every ID type has: the same sqlx
//! support, `Display`, `FromStr`, the integer conversions, serde and every other integration
//! that is on (a prefix and leaving integrations out: the core's `newtype!` docs):
//!
//! ```
//! ulid_flake_sqlx::newtype! {
//!     /// The key of a user.
//!     pub struct UserId;
//! }
//!
//! fn assert_sqlx<T: sqlx::Type<sqlx::Sqlite> + for<'q> sqlx::Encode<'q, sqlx::Sqlite>>() {}
//! assert_sqlx::<UserId>();
//! let id: UserId = "00CMXB6TAK4SA".parse()?;
//! assert_eq!(i64::from(id), 14_246_757_444_195_114);
//! # Ok::<(), ulid_flake_sqlx::Error>(())
//! ```
//!
//! # SQL helpers
//!
//! So that someone reading the database in `psql` or `mysql` sees the IDs the API shows, this
//! crate ships migrations that create three functions (PostgreSQL and MySQL/MariaDB):
//! `ulid_flake_to_text(id)`, `ulid_flake_from_text(text)` and
//! `ulid_flake_to_timestamp(id, epoch_ms)` (UTC; the default epoch is `1704067200000`, and
//! PostgreSQL makes it the default argument), and two for the IDs of an entity with a
//! prefix, `ulid_flake_to_prefixed_text(id, prefix)` and
//! `ulid_flake_from_prefixed_text(text, prefix)` ([`sql`]'s docs). Apply them with
//! `POSTGRES_MIGRATOR` (feature `postgres`) or `MYSQL_MIGRATOR` (feature `mysql`), first and
//! then your own migrator with `set_ignore_missing(true)`, or copy the files from this crate's
//! `migrations/` directory into your own migrations.
//!
//! ```sql
//! SELECT ulid_flake_to_text(id), ulid_flake_to_timestamp(id), name FROM users;
//! --  ulid_flake_to_text |  ulid_flake_to_timestamp   | name
//! -- --------------------+----------------------------+------
//! --  00CMXB6TAK4SA      | 2024-06-06 06:06:06.666+00 | Ada
//!
//! SELECT ulid_flake_to_prefixed_text(id, 'user') FROM users
//! WHERE id = ulid_flake_from_prefixed_text('user_00cmxb6tak4sa', 'user');
//! --  ulid_flake_to_prefixed_text
//! -- -----------------------------
//! --  user_00CMXB6TAK4SA
//! ```
//!
//! The second migration creates the database's own generator, `ulid_flake_generate(namespace)`,
//! for keys the database makes itself — a column default on PostgreSQL, a trigger on MariaDB
//! ([`sql`'s docs](sql#keys-made-by-the-database) say how it never repeats a key); the
//! application reads them back with `RETURNING`:
//!
//! ```no_run
//! # #[cfg(feature = "postgres")]
//! # async fn example(pool: sqlx::PgPool) -> Result<(), sqlx::Error> {
//! # struct Invoice;
//! use ulid_flake_sqlx::Id;
//!
//! sqlx::query("SELECT ulid_flake_install_generator('billing')").execute(&pool).await?;
//! sqlx::query("CREATE TABLE invoice (id BIGINT PRIMARY KEY DEFAULT ulid_flake_generate('billing'), total BIGINT)")
//!     .execute(&pool)
//!     .await?;
//! let id: Id<Invoice> = sqlx::query_scalar("INSERT INTO invoice (total) VALUES ($1) RETURNING id")
//!     .bind(100_i64)
//!     .fetch_one(&pool)
//!     .await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Replicas: scalability-id leases
//!
//! With the `lease` feature, `lease_postgres` and `lease_mysql` lease one of the 32
//! scalability ids from the database, so replicas' IDs never collide, and keep it renewed on
//! a thread of their own; the generator issues no ID while the lease is not known to be valid.
//! It works directly and through PgBouncer in transaction mode. The protocol, its timing
//! argument and the faults it survives are in [`lease`](mod@lease) (the core's docs, whose
//! examples name it `ulid_flake_core::lease`: from this crate alone it is
//! `ulid_flake_sqlx::lease`); the leases of `ulid-flake-diesel` share its table and exclude
//! these (`postgres_sqlx_and_diesel_leases_exclude_each_other`, and `mysql_…`, in that crate's
//! tests). For PostgreSQL (`lease_mysql` takes a MySQL URL):
//!
//! ```no_run
//! # #[cfg(all(feature = "lease", feature = "postgres"))]
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use ulid_flake_sqlx::lease::{LeaseOptions, installed_lease_status};
//!
//! ulid_flake_sqlx::lease_postgres("postgres://app@db/app", LeaseOptions::new("billing"))
//!     .await?
//!     .install_default()?;
//! let id = ulid_flake_sqlx::UlidFlake::generate()?; // scalable, under the lease
//! let health = installed_lease_status(); // for a health endpoint
//! # Ok(())
//! # }
//! ```
//!
//! # Features
//!
//! This crate forces no runtime and no TLS: pick those in your own `sqlx` dependency.
//!
#![doc = document_features::document_features!()]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use ulid_flake_core::*;

#[cfg(all(feature = "lease", any(feature = "postgres", feature = "mysql")))]
mod lease_store;

#[cfg(any(feature = "postgres", feature = "mysql"))]
use std::sync::LazyLock;

#[cfg(all(feature = "lease", feature = "mysql"))]
pub use lease_store::lease_mysql;
#[cfg(all(feature = "lease", feature = "postgres"))]
pub use lease_store::lease_postgres;
#[cfg(all(feature = "lease", any(feature = "postgres", feature = "mysql")))]
pub use lease_store::{SqlxLeaseConnection, SqlxLeaseDatabase, SqlxLeaseStore};
#[cfg(any(feature = "postgres", feature = "mysql"))]
use sqlx::SqlStr;
#[cfg(any(feature = "postgres", feature = "mysql"))]
use sqlx::migrate::{Migration, MigrationType, Migrator};

/// Migrations that create the SQL helper functions on PostgreSQL: [`sql::POSTGRES_FUNCTIONS`]
/// (version `20240101000000`), the database's own generator, [`sql::POSTGRES_GENERATOR`]
/// (`20261125000000`), and the functions for prefixed IDs,
/// [`sql::POSTGRES_PREFIXED_FUNCTIONS`] (`20261128000000`), as a sqlx migrator.
///
/// Run it on its own, or first and then your own migrator, at every start. sqlx refuses a
/// database holding migrations that a migrator does not know: this one ignores those (yours,
/// whatever their versions), and yours must ignore its three, with `set_ignore_missing(true)`.
/// Your migrations may then call the functions. Or copy the three files from `migrations/`
/// into your own directory instead (their versions and checksums are this migrator's).
///
/// ```no_run
/// # async fn example(pool: sqlx::PgPool) -> Result<(), sqlx::migrate::MigrateError> {
/// ulid_flake_sqlx::POSTGRES_MIGRATOR.run(&pool).await?;
/// let mut yours = sqlx::migrate::Migrator::new(std::path::Path::new("migrations")).await?;
/// yours.set_ignore_missing(true).run(&pool).await?;
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "postgres")]
pub static POSTGRES_MIGRATOR: LazyLock<Migrator> = LazyLock::new(|| {
    migrator([
        sql::POSTGRES_FUNCTIONS,
        sql::POSTGRES_GENERATOR,
        sql::POSTGRES_PREFIXED_FUNCTIONS,
    ])
});

/// Migrations that create the SQL helper functions on MySQL and MariaDB,
/// [`sql::MYSQL_FUNCTIONS`] (version `20240101000000`), the generator of MariaDB,
/// [`sql::MYSQL_GENERATOR`] (`20261125000000`), and the functions for prefixed IDs,
/// [`sql::MYSQL_PREFIXED_FUNCTIONS`] (`20261128000000`). Run it on its own, or first and then
/// your own migrator, at every start: it ignores the migrations it does not know (yours), and
/// yours must ignore its three, with `set_ignore_missing(true)`.
///
/// ```no_run
/// # async fn example(pool: sqlx::MySqlPool) -> Result<(), sqlx::migrate::MigrateError> {
/// ulid_flake_sqlx::MYSQL_MIGRATOR.run(&pool).await?;
/// let mut yours = sqlx::migrate::Migrator::new(std::path::Path::new("migrations")).await?;
/// yours.set_ignore_missing(true).run(&pool).await?;
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "mysql")]
pub static MYSQL_MIGRATOR: LazyLock<Migrator> = LazyLock::new(|| {
    migrator([
        sql::MYSQL_FUNCTIONS,
        sql::MYSQL_GENERATOR,
        sql::MYSQL_PREFIXED_FUNCTIONS,
    ])
});

/// The migrator `sqlx::migrate!` would build from a database's directory in `migrations/`
/// (version, description and checksum alike, so a database migrated by either is up to date
/// for the other), given the files' SQL in their order, built at run time: with the macro,
/// this crate would turn on sqlx's `macros` feature, whose build compiles every enabled
/// database driver a second time, for the compiler. Unlike the macro's, it ignores the
/// migrations it does not know: it runs beside the user's own, whose applied migrations it
/// would otherwise refuse at the next start.
#[cfg(any(feature = "postgres", feature = "mysql"))]
fn migrator(sql: [&'static str; 3]) -> Migrator {
    /// The files' versions and descriptions, the same for every database.
    const MIGRATIONS: [(i64, &str); 3] = [
        (20240101000000, "ulid flake functions"),
        (20261125000000, "ulid flake generate"),
        (20261128000000, "ulid flake prefixed"),
    ];
    let mut migrator = Migrator::with_migrations(
        MIGRATIONS
            .into_iter()
            .zip(sql)
            .map(|((version, description), sql)| {
                Migration::new(
                    version,
                    description.into(),
                    MigrationType::Simple,
                    SqlStr::from_static(sql),
                    false,
                )
            })
            .collect(),
    );
    migrator.set_ignore_missing(true);
    migrator
}
