//! The integration tests of `ulid-flake-sqlx`, in one binary, against real PostgreSQL and
//! MariaDB servers and real SQLite files.
//!
//! The server URLs come from `ULID_FLAKE_TEST_POSTGRES_URL` and `ULID_FLAKE_TEST_MYSQL_URL`,
//! which `scripts/with-databases.sh` (run by `scripts/test.sh`) sets. A missing or unreachable
//! server fails the test that needs it: these tests never skip.

mod acquire;
mod adoption;
mod database_generator;
mod databases;
mod lease_faults;
mod macros;
mod sql_helpers;
mod support;
