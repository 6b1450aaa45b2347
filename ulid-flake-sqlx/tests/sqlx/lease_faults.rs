//! Scalability-id leases through sqlx against the real servers: the shared scenarios of
//! `ulid_flake_test_support::lease` (connections killed, replicas partitioned, servers
//! stalled, ids refused) with this crate's `lease_postgres` and `lease_mysql`.

use ulid_flake_sqlx::lease::{LeaseError, LeaseOptions, ScalabilityIdLease};
use ulid_flake_sqlx::{lease_mysql, lease_postgres};

/// Leases through this crate, from synchronous test code.
fn acquire(url: &str, options: LeaseOptions) -> Result<ScalabilityIdLease, LeaseError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        if url.starts_with("mysql:") {
            lease_mysql(url, options).await
        } else {
            lease_postgres(url, options).await
        }
    })
}

ulid_flake_test_support::lease_tests!(acquire, AtOnce);

// The core's statements, through each server's command-line client: one binary is enough.

#[test]
fn postgres_a_late_renewal_never_shortens_the_row() {
    ulid_flake_test_support::lease::a_late_renewal_never_shortens_the_row(
        ulid_flake_test_support::lease::Server::Postgres,
    );
}

#[test]
fn mysql_a_late_renewal_never_shortens_the_row() {
    ulid_flake_test_support::lease::a_late_renewal_never_shortens_the_row(
        ulid_flake_test_support::lease::Server::Mysql,
    );
}
