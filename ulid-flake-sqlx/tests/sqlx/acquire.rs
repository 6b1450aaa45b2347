//! Leases through this crate from synchronous test code: the shared lease scenarios call it,
//! here and in `ulid-flake-diesel`'s tests (which include this file), where its leases meet
//! Diesel's in one table.

use ulid_flake_sqlx::lease::{LeaseError, LeaseOptions, ScalabilityIdLease};
use ulid_flake_sqlx::{lease_mysql, lease_postgres};

/// A lease through `lease_mysql` or `lease_postgres`, as the URL's scheme says, on a runtime
/// of its own.
pub(crate) fn acquire(url: &str, options: LeaseOptions) -> Result<ScalabilityIdLease, LeaseError> {
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
