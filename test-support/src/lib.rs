//! Test support shared by the test binaries of `ulid-flake-sqlx` and `ulid-flake-diesel`, as
//! a dev-dependency: the test databases ([`databases`]) and the child processes of the lease
//! tests ([`lease_children`]).
//!
//! Cross-crate tests live in the workspace's `tests/` directory; this crate holds no tests,
//! only the code that several test binaries share.

pub mod databases;
pub mod lease_children;
