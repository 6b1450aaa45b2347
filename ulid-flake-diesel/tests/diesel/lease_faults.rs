//! Scalability-id leases through Diesel against the real servers: the shared scenarios of
//! `ulid_flake_test_support::lease` (connections killed, replicas partitioned, servers
//! stalled, ids refused) with this crate's `lease_postgres` and `lease_mysql`; and the
//! leases of `ulid-flake-sqlx` beside them, from the same table.

use ulid_flake_diesel::lease::{LeaseError, LeaseOptions, ScalabilityIdLease};
use ulid_flake_diesel::{lease_mysql, lease_postgres};

/// Leases through this crate.
fn acquire(url: &str, options: LeaseOptions) -> Result<ScalabilityIdLease, LeaseError> {
    if url.starts_with("mysql:") {
        lease_mysql(url, options)
    } else {
        lease_postgres(url, options)
    }
}

ulid_flake_test_support::lease_tests!(acquire, AfterTheTimeout);

/// Leases through `ulid-flake-sqlx`: its tests' own function.
#[path = "../../../ulid-flake-sqlx/tests/sqlx/acquire.rs"]
mod sqlx_leases;
use sqlx_leases::acquire as acquire_through_sqlx;

#[test]
fn postgres_sqlx_and_diesel_leases_exclude_each_other() {
    ulid_flake_test_support::lease::two_stores_exclude_each_other(
        ulid_flake_test_support::lease::Server::Postgres,
        acquire_through_sqlx,
        acquire,
    );
}

#[test]
fn mysql_sqlx_and_diesel_leases_exclude_each_other() {
    ulid_flake_test_support::lease::two_stores_exclude_each_other(
        ulid_flake_test_support::lease::Server::Mysql,
        acquire_through_sqlx,
        acquire,
    );
}
