//! The lease fault scenarios of `ulid_flake_test_support::lease` with the third store, on
//! PostgreSQL directly and through PgBouncer in transaction mode.

use ulid_flake_core::lease::{LeaseError, LeaseOptions, ScalabilityIdLease};

use crate::lease_store::TokioPostgresLeaseStore;

fn acquire(url: &str, options: LeaseOptions) -> Result<ScalabilityIdLease, LeaseError> {
    ScalabilityIdLease::acquire(TokioPostgresLeaseStore::postgres(url)?, options)
}

ulid_flake_test_support::lease_tests!(acquire, AtOnce; postgres);
