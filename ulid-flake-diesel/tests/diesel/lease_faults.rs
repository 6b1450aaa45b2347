//! Scalability-id leases through Diesel against the real servers: the shared scenarios of
//! `ulid_flake_test_support::lease` (connections killed, replicas partitioned, servers
//! stalled, ids refused) with this crate's `lease_postgres` and `lease_mysql`.

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
