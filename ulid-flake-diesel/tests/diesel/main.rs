//! The integration tests of `ulid-flake-diesel`, in one binary, against real PostgreSQL and
//! MariaDB servers and real SQLite files, each test in a fresh schema, database or file set up
//! by Diesel migrations.
//!
//! The server URLs come from `ULID_FLAKE_TEST_POSTGRES_URL` and `ULID_FLAKE_TEST_MYSQL_URL`,
//! which `scripts/with-databases.sh` (run by `scripts/test.sh`) sets. A missing or unreachable
//! server fails the test that needs it: these tests never skip.

mod async_connections;
mod backends;
mod database_generator;
mod lease_faults;
mod sql_functions;
mod support;
