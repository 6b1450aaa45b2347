//! Ulid-Flake IDs as `BigInt` columns in [Diesel](diesel): PostgreSQL, MySQL/MariaDB and
//! SQLite.
//!
//! This crate re-exports [`ulid_flake_core`] with its `diesel` feature on: the same
//! [`Id<T>`](Id) and [`UlidFlake`] types, never wrappers, are `AsExpression<BigInt>` (and
//! `Nullable<BigInt>`), `FromSqlRow`, `ToSql<BigInt, _>` and `FromSql<BigInt, _>` on every
//! backend. They match the `BigInt` columns that `diesel print-schema` writes for `BIGINT`, with
//! no `serialize_as`/`deserialize_as` attributes:
//!
//! ```toml
//! [dependencies]
//! ulid-flake-diesel = { version = "0.1", features = ["postgres"] }
//! diesel = { version = "2.3", features = ["postgres"] }
//! ```
//!
//! Every other feature of the core passes through under the same name (`serde` is on by
//! default; `features = ["postgres", "utoipa"]`): no separate `ulid-flake-core` line is
//! needed.
//!
//! For PostgreSQL (the same code runs on MySQL/MariaDB and SQLite with a `MysqlConnection`
//! or `SqliteConnection`; see `examples/diesel-sqlite`):
//!
//! ```no_run
//! use diesel::prelude::*;
//! use ulid_flake_diesel::Id;
//!
//! diesel::table! {
//!     users (id) {
//!         id -> BigInt,
//!         name -> Text,
//!         invited_by -> Nullable<BigInt>,
//!     }
//! }
//!
//! #[derive(Queryable, Selectable, Insertable, AsChangeset, Debug, PartialEq)]
//! #[diesel(table_name = users)]
//! struct User {
//!     id: Id<User>,
//!     name: String,
//!     invited_by: Option<Id<User>>,
//! }
//!
//! # fn example(conn: &mut PgConnection) -> Result<(), Box<dyn std::error::Error>> {
//! let ada = User { id: Id::generate()?, name: "Ada".into(), invited_by: None };
//! diesel::insert_into(users::table).values(&ada).execute(conn)?;
//! let found: User = users::table.find(ada.id).select(User::as_select()).first(conn)?;
//! let some: Vec<User> = users::table
//!     .filter(users::id.eq_any(vec![ada.id]))
//!     .select(User::as_select())
//!     .load(conn)?;
//! # Ok(())
//! # }
//! ```
//!
//! A negative `BIGINT` fails to load with a deserialization error whose message names it —
//! `value out of range: expected 0..=9223372036854775807, found -5` — never a panic and
//! never a wrapped ID. That is what `{error}` prints for a `NOT NULL` column read as an
//! `Id<T>`, a `UlidFlake`, a newtype or a struct's field.
//!
//! From a nullable column, read as an `Option<Id<T>>` (alone or as a struct's field), the
//! message is Diesel's and names only the field — `Error deserializing field 'invited_by'` —
//! and the error above is its [`source()`](std::error::Error::source), so a reporter that
//! prints the chain (anyhow's `{:#}`) shows `Error deserializing field 'invited_by': value out
//! of range: ..., found -5`. This crate cannot change that: Diesel reads every `Option<T>`
//! through its own `Queryable` impl, which takes the value through `FromSql` and wraps any
//! error of `FromSql` in its `DeserializeFieldError`, and the orphan rule leaves no impl for
//! `Option<Id<T>>` to this crate. (For a `NOT NULL` column, `Id<T>`'s own `Queryable` checks
//! the value after Diesel has read the `i64`, so nothing wraps the error.) To get the value
//! in the message for a nullable column too, read it through [`OptionalId`]: the field keeps
//! its type, and one attribute names the reader.
//!
//! ```
//! # use diesel::prelude::*;
//! # diesel::table! { users (id) { id -> BigInt, invited_by -> Nullable<BigInt> } }
//! use ulid_flake_diesel::{Id, OptionalId};
//!
//! #[derive(Queryable, Selectable)]
//! #[diesel(table_name = users)]
//! struct User {
//!     id: Id<User>,
//!     #[diesel(deserialize_as = OptionalId<Id<User>>)]
//!     invited_by: Option<Id<User>>, // -5 reads as "value out of range: ..., found -5"
//! }
//! ```
//!
//! On SQLite, declare ID columns `BIGINT`, or write `id -> BigInt` in `table!`: Diesel's
//! `print-schema` maps SQLite's `INTEGER` to `Integer`, which IDs do not take (SQLite stores
//! either as up to 64 bits). SQLite keeps a storage class per value, and Diesel reads a
//! `BigInt` through SQLite's own conversion, so a `TEXT`, `REAL` or `BLOB` value written into
//! the column by other means (raw SQL, another client) loads as the number SQLite makes of it
//! — the leading digits of the text (of the blob's bytes read as text), the real's integer
//! part — not as an error (`sqlite_values_of_another_storage_class_load_as_sqlite_converts_them`).
//! Bind IDs, never their text, into these columns; a `STRICT` table refuses other values at
//! the insert (its ID columns `INTEGER`, with `id -> BigInt` in `table!`; the same test).
//! A key declared `INTEGER PRIMARY KEY` is the table's rowid (no second B-tree, as `BIGINT
//! PRIMARY KEY` has), but a row inserted without it gets the largest key plus one, in
//! silence; the workspace README's *Databases* weighs the two.
//!
//! # Rows made in a time window
//!
//! Integer order is time order, so the rows created in a window are a range of IDs, found
//! through the primary-key index; [`UlidFlake::range_for`] gives its bounds for a window of
//! any [`Moment`] (`SystemTime`, [`UnixMs`], chrono, time, jiff), and [`Id::range_for`] the
//! same bounds typed as `Id<T>`. An ID records its millisecond and no finer time, so a window
//! is rounded out to whole milliseconds: one that ends inside a millisecond finds the rows
//! made later in it too. For PostgreSQL (any backend's connection works the same):
//!
//! ```no_run
//! # use diesel::prelude::*;
//! # diesel::table! { users (id) { id -> BigInt, name -> Text } }
//! use std::time::{Duration, SystemTime};
//! use ulid_flake_diesel::{Epoch, UlidFlake};
//!
//! # fn example(conn: &mut PgConnection) -> QueryResult<()> {
//! let end = SystemTime::now();
//! if let Some((lowest, highest)) = UlidFlake::range_for(Epoch::DEFAULT, end - Duration::from_secs(3600)..end) {
//!     let names: Vec<String> = users::table
//!         .filter(users::id.between(lowest, highest))
//!         .select(users::name)
//!         .load(conn)?;
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # SQL helper functions
//!
//! `create_postgres_functions` (feature `postgres`) and `create_mysql_functions` (feature `mysql`) create
//! `ulid_flake_to_text(id)`, `ulid_flake_from_text(text)`,
//! `ulid_flake_to_timestamp(id, epoch_ms)`, and for prefixed IDs
//! `ulid_flake_to_prefixed_text(id, prefix)` and `ulid_flake_from_prefixed_text(text, prefix)`
//! in the database — the same SQL as
//! `ulid-flake-sqlx`'s migrations ([`sql`]) — and [`functions`] declares them for the query
//! builder. They also create the database's own generator, `ulid_flake_generate(namespace)`,
//! for keys the database makes itself (a column default on PostgreSQL, a trigger on MariaDB:
//! [`sql`'s docs](sql#keys-made-by-the-database)), with its tables: `ulid_flake_leases` (the
//! leases' table too), `ulid_flake_generators` and `ulid_flake_generator_state` (a sequence
//! on PostgreSQL, a table on MariaDB). To manage them with `diesel migration`, write the SQL into a
//! migration's `up.sql`: `ulid-flake sql postgres > migrations/…/up.sql` (or `mysql`; the
//! command of `ulid-flake-cli`) prints the [`sql`] constants in the order the functions run
//! them, as do the files `sql/postgres.sql`, `sql/postgres-prefixed.sql` and
//! `sql/postgres-generate.sql` of the `ulid-flake-core` package, one after the other.
//!
//! # Your own newtypes
//!
//! If you prefer `struct UserId(UlidFlake)` to `Id<User>`, [`newtype!`] (the core's, re-exported
//! here and by `ulid-flake-sqlx`) defines one with what every ID type has: the same Diesel
//! support, `Display`, `FromStr`, the integer conversions, serde and every other integration
//! that is on (a prefix and leaving integrations out: the core's `newtype!` docs):
//!
//! ```
//! use diesel::serialize::ToSql;
//! use diesel::sql_types::BigInt;
//!
//! ulid_flake_diesel::newtype! {
//!     /// The key of a user.
//!     pub struct UserId;
//! }
//!
//! fn assert_diesel<T: ToSql<BigInt, diesel::sqlite::Sqlite>>() {}
//! assert_diesel::<UserId>();
//! let id: UserId = "00CMXB6TAK4SA".parse()?;
//! assert_eq!(i64::from(id), 14_246_757_444_195_114);
//! # Ok::<(), ulid_flake_diesel::Error>(())
//! ```
//!
//! # diesel-async
//!
//! The impls are generic over the backend, so [diesel-async](https://docs.rs/diesel-async)'s
//! `AsyncPgConnection` and `AsyncMysqlConnection` load and store `Id<T>`, `UlidFlake` and
//! newtypes as they are: this crate has no diesel-async feature and needs none. Add
//! `diesel-async` (0.9, the release for Diesel 2.3) with its `postgres` or `mysql` feature;
//! this crate's `postgres` and `mysql` features are then needed only for what uses a
//! synchronous connection (the `ulid_flake_to_timestamp` declarations, `create_*_functions`
//! and the leases), since they link the C client libraries that diesel-async does without.
//! The SQL of the helper functions is in [`sql`], for `batch_execute` on an async connection:
//! each part of [`sql::POSTGRES_INSTALL`] (or [`sql::MYSQL_INSTALL`]) in turn, as
//! `create_postgres_functions` runs them.
//!
//! ```no_run
//! # use diesel::{ExpressionMethods, QueryDsl, SelectableHelper};
//! # diesel::table! { users (id) { id -> BigInt, name -> Text, invited_by -> Nullable<BigInt> } }
//! # #[derive(diesel::Queryable, diesel::Selectable, diesel::Insertable)]
//! # #[diesel(table_name = users)]
//! # struct User { id: ulid_flake_diesel::Id<User>, name: String, invited_by: Option<ulid_flake_diesel::Id<User>> }
//! use diesel_async::{AsyncPgConnection, RunQueryDsl};
//! use ulid_flake_diesel::Id;
//!
//! # async fn example(conn: &mut AsyncPgConnection) -> Result<(), Box<dyn std::error::Error>> {
//! let ada = User { id: Id::generate()?, name: "Ada".into(), invited_by: None };
//! diesel::insert_into(users::table).values(&ada).execute(conn).await?;
//! let some: Vec<User> = users::table
//!     .filter(users::id.eq_any(vec![ada.id]))
//!     .select(User::as_select())
//!     .load(conn)
//!     .await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Replicas: scalability-id leases
//!
//! With the `lease` feature, `lease_postgres` and `lease_mysql` lease one of the 32
//! scalability ids from the database, so replicas' IDs never collide, and keep it renewed on
//! a thread of their own; the generator issues no ID while the lease is not known to be
//! valid. It works directly and
//! through PgBouncer in transaction mode. The protocol, its timing argument and the faults it
//! survives are in [`lease`](mod@lease) (the core's docs, whose examples name it
//! `ulid_flake_core::lease`: from this crate alone it is `ulid_flake_diesel::lease`); the
//! leases of `ulid-flake-sqlx` share its table and exclude these
//! (`postgres_sqlx_and_diesel_leases_exclude_each_other`, `mysql_…`). The call blocks its thread
//! until it holds an id, or fails: a database it cannot reach fails it after
//! [`LeaseTiming::acquire_timeout`](lease::LeaseTiming::acquire_timeout) (30 s unless set), so
//! call it at start-up, or in async code through `tokio::task::spawn_blocking`. For PostgreSQL
//! (`lease_mysql` takes a MySQL URL):
//!
//! ```no_run
//! # #[cfg(all(feature = "lease", feature = "postgres"))]
//! # fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use ulid_flake_diesel::lease::LeaseOptions;
//!
//! ulid_flake_diesel::lease_postgres("postgres://app@db/app", LeaseOptions::new("billing"))?
//!     .install_default()?;
//! let id = ulid_flake_diesel::UlidFlake::generate()?; // scalable, under the lease
//! # Ok(())
//! # }
//! ```
//!
//! # Features
//!
//! The core impls need no backend; each backend feature links its C client library.
//!
#![doc = document_features::document_features!()]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use ulid_flake_core::*;

/// The core's Diesel-only type, at this crate's root where Diesel users look for it.
pub use ulid_flake_core::diesel2::OptionalId;

#[cfg(all(feature = "lease", any(feature = "postgres", feature = "mysql")))]
mod lease_store;
#[cfg(all(feature = "lease", feature = "mysql"))]
pub use lease_store::lease_mysql;
#[cfg(all(feature = "lease", feature = "postgres"))]
pub use lease_store::lease_postgres;
#[cfg(all(feature = "lease", any(feature = "postgres", feature = "mysql")))]
pub use lease_store::{
    DatabaseError, DieselLeaseConnection, DieselLeaseDatabase, DieselLeaseStore,
};

/// Diesel declarations of the SQL helper functions, for the query builder. Create them in the
/// database first (`create_postgres_functions`, `create_mysql_functions`). The functions
/// exist on PostgreSQL and MySQL/MariaDB, not SQLite; the example is for PostgreSQL:
///
/// ```no_run
/// # use diesel::prelude::*;
/// # diesel::table! { users (id) { id -> BigInt } }
/// use ulid_flake_diesel::Epoch;
/// use ulid_flake_diesel::functions::postgres::ulid_flake_to_timestamp;
/// use ulid_flake_diesel::functions::{
///     ulid_flake_from_prefixed_text, ulid_flake_from_text, ulid_flake_to_prefixed_text,
///     ulid_flake_to_text,
/// };
///
/// # fn example(conn: &mut PgConnection) -> QueryResult<()> {
/// let texts: Vec<String> = users::table.select(ulid_flake_to_text(users::id)).load(conn)?;
/// let count: i64 = users::table
///     .filter(users::id.eq(ulid_flake_from_text("00cmxb6tak4sa")))
///     .count()
///     .get_result(conn)?;
/// // A prefixed ID's text: the column holds the ID alone, each call names the prefix.
/// let prefixed: Vec<String> = users::table
///     .select(ulid_flake_to_prefixed_text(users::id, "user"))
///     .filter(users::id.eq(ulid_flake_from_prefixed_text("user_00cmxb6tak4sa", "user")))
///     .load(conn)?;
/// // The epoch is a `BigInt`.
/// let made_before_now: i64 = users::table
///     .filter(ulid_flake_to_timestamp(users::id, Epoch::DEFAULT.unix_ms() as i64).lt(diesel::dsl::now))
///     .count()
///     .get_result(conn)?;
/// # Ok(())
/// # }
/// ```
pub mod functions {
    use diesel::sql_types::{BigInt, Text};

    diesel::define_sql_function! {
        /// `ulid_flake_to_text(id)`: the 13-character text of an ID; an error for a negative
        /// value.
        fn ulid_flake_to_text(id: BigInt) -> Text;
    }

    diesel::define_sql_function! {
        /// `ulid_flake_from_text(text)`: the ID of a 13-character text, in either case; an
        /// error, worded like the codec's, for anything else.
        fn ulid_flake_from_text(text_id: Text) -> BigInt;
    }

    diesel::define_sql_function! {
        /// `ulid_flake_to_prefixed_text(id, prefix)`: the text of an ID of an entity with the
        /// prefix `prefix` (`user_00CMXB6TAK4SA`); an error for a prefix no
        /// [`Prefix`](crate::Prefix) may have or a negative value.
        fn ulid_flake_to_prefixed_text(id: BigInt, prefix: Text) -> Text;
    }

    diesel::define_sql_function! {
        /// `ulid_flake_from_prefixed_text(text, prefix)`: the ID of a prefixed text, the
        /// prefix exact and the 13 characters in either case; an error, worded like the
        /// prefixed ID's parser's, for anything else.
        fn ulid_flake_from_prefixed_text(text_id: Text, prefix: Text) -> BigInt;
    }

    diesel::define_sql_function! {
        /// `ulid_flake_generate(namespace)`: a new key of the database's own generator for
        /// `namespace` ([`sql`'s docs](crate::sql#keys-made-by-the-database)). On MySQL
        /// backends, where Diesel reads no `RETURNING`, select it first and insert it.
        fn ulid_flake_generate(namespace: Text) -> BigInt;
    }

    /// `ulid_flake_to_timestamp` on PostgreSQL, a `timestamptz`.
    #[cfg(feature = "postgres")]
    pub mod postgres {
        // The return type resolves through the macro's own import of Diesel's SQL types.
        use diesel::sql_types::BigInt;

        diesel::define_sql_function! {
            /// `ulid_flake_to_timestamp(id, epoch_ms)`: the moment of an ID made with the
            /// epoch `epoch_ms` (Unix milliseconds, a `BigInt`: `Epoch::DEFAULT.unix_ms() as
            /// i64`, `1704067200000`).
            fn ulid_flake_to_timestamp(id: BigInt, epoch_ms: BigInt) -> Timestamptz;
        }
    }

    /// `ulid_flake_to_timestamp` on MySQL/MariaDB, a `DATETIME(3)` in UTC.
    #[cfg(feature = "mysql")]
    pub mod mysql {
        // The return type resolves through the macro's own import of Diesel's SQL types.
        use diesel::sql_types::BigInt;

        diesel::define_sql_function! {
            /// `ulid_flake_to_timestamp(id, epoch_ms)`: the moment of an ID made with the
            /// epoch `epoch_ms` (Unix milliseconds, a `BigInt`: `Epoch::DEFAULT.unix_ms() as
            /// i64`, `1704067200000`), in UTC.
            fn ulid_flake_to_timestamp(id: BigInt, epoch_ms: BigInt) -> Datetime;
        }
    }
}

/// Creates (or replaces) the SQL helper functions in a PostgreSQL database, from
/// [`sql::POSTGRES_FUNCTIONS`] and [`sql::POSTGRES_PREFIXED_FUNCTIONS`], and the database's
/// own generator, from [`sql::POSTGRES_GENERATOR`].
///
/// # Errors
///
/// The database's, e.g. for a role that may not create functions.
///
/// ```no_run
/// # fn example(conn: &mut diesel::PgConnection) -> diesel::QueryResult<()> {
/// ulid_flake_diesel::create_postgres_functions(conn)?;
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "postgres")]
pub fn create_postgres_functions(conn: &mut diesel::PgConnection) -> diesel::QueryResult<()> {
    sql::POSTGRES_INSTALL
        .iter()
        .try_for_each(|sql| diesel::connection::SimpleConnection::batch_execute(conn, sql))
}

/// Creates (or replaces) the SQL helper functions in a MySQL/MariaDB database, from
/// [`sql::MYSQL_FUNCTIONS`] and [`sql::MYSQL_PREFIXED_FUNCTIONS`], and MariaDB's own
/// generator, from [`sql::MYSQL_GENERATOR`].
///
/// # Errors
///
/// The database's, e.g. for a user without `CREATE ROUTINE`, or, on a server with binary
/// logging on, a user without `SUPER` while `log_bin_trust_function_creators` is off.
///
/// ```no_run
/// # fn example(conn: &mut diesel::MysqlConnection) -> diesel::QueryResult<()> {
/// ulid_flake_diesel::create_mysql_functions(conn)?;
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "mysql")]
pub fn create_mysql_functions(conn: &mut diesel::MysqlConnection) -> diesel::QueryResult<()> {
    sql::MYSQL_INSTALL
        .iter()
        .try_for_each(|sql| diesel::connection::SimpleConnection::batch_execute(conn, sql))
}
