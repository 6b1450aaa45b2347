//! The test databases: their URLs, SQLite files, names that concurrent runs do not share, and
//! the IDs every backend round-trips.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use ulid_flake_core::{UlidFlake, ulid_flake};

/// SPEC §5's vectors and the extremes, in ascending order.
pub const VALUES: [UlidFlake; 8] = [
    UlidFlake::MIN,
    ulid_flake!("0000000000001"),
    ulid_flake!("00CMXB6TAK4SA"),
    ulid_flake!("00F2N078MDT7J"),
    ulid_flake!("00F5MN1MCFT30"),
    ulid_flake!("00F5PEXFDQCGR"),
    ulid_flake!("128GGYHYYK08N"),
    UlidFlake::MAX,
];

/// The test PostgreSQL server's URL.
pub fn postgres_url() -> String {
    required_url("ULID_FLAKE_TEST_POSTGRES_URL")
}

/// The URL of the test PostgreSQL server through PgBouncer in transaction mode.
pub fn pgbouncer_url() -> String {
    required_url("ULID_FLAKE_TEST_PGBOUNCER_URL")
}

/// The test MariaDB/MySQL server's URL.
pub fn mysql_url() -> String {
    required_url("ULID_FLAKE_TEST_MYSQL_URL")
}

/// A server's URL: a missing one fails the test, never skips it.
fn required_url(variable: &str) -> String {
    std::env::var(variable).unwrap_or_else(|_| {
        panic!(
            "{variable} is not set: run the database tests through scripts/test.sh or \
             scripts/with-databases.sh cargo test"
        )
    })
}

#[cfg(test)]
#[test]
#[should_panic(
    expected = "ULID_FLAKE_TEST_NEVER_SET_URL is not set: run the database tests \
                           through scripts/test.sh or scripts/with-databases.sh cargo test"
)]
fn a_missing_server_url_fails_the_test() {
    required_url("ULID_FLAKE_TEST_NEVER_SET_URL");
}

/// A new SQLite file's path, in `ULID_FLAKE_TEST_SQLITE_DIR` when set.
pub fn sqlite_file(prefix: &str) -> PathBuf {
    std::env::var_os("ULID_FLAKE_TEST_SQLITE_DIR")
        .map_or_else(std::env::temp_dir, PathBuf::from)
        .join(format!("{}.sqlite3", unique_name(prefix)))
}

/// `prefix` made unique across the tests of this process and across processes.
pub fn unique_name(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "{prefix}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}
