//! Scalability-id leases through sqlx against the real servers: the shared scenarios of
//! `ulid_flake_test_support::lease` (connections killed, replicas partitioned, servers
//! stalled, ids refused) with this crate's `lease_postgres` and `lease_mysql`.

use crate::acquire::acquire;

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
