//! SQL that creates helper functions in the database, so that someone reading it in `psql` or
//! `mysql` sees the IDs the API shows: `ulid_flake_to_text(id)`, `ulid_flake_from_text(text)`
//! and `ulid_flake_to_timestamp(id, epoch_ms)` (UTC). They follow the codec exactly (no
//! aliases, a first character 0-7, either case) and raise errors worded like its own.
//!
//! The database adapters apply this SQL (`ulid-flake-sqlx` as migrations, `ulid-flake-diesel`
//! through its connection); it is here so both share one source.
//!
//! ```
//! assert!(ulid_flake_core::sql::POSTGRES_FUNCTIONS.contains("FUNCTION ulid_flake_to_text"));
//! ```

/// The PostgreSQL functions; `ulid_flake_to_timestamp`'s epoch defaults to
/// `1704067200000`. Idempotent (`CREATE OR REPLACE`).
pub const POSTGRES_FUNCTIONS: &str = include_str!("../sql/postgres.sql");

/// The MySQL/MariaDB functions, in one batch of statements (compound bodies without a
/// `DELIMITER`: send it as a multi-statement query, not through the `mysql` shell).
/// Idempotent (each function is dropped first).
pub const MYSQL_FUNCTIONS: &str = include_str!("../sql/mysql.sql");
