//! Test support shared by the test binaries of `ulid-flake-sqlx` and `ulid-flake-diesel`, as
//! a dev-dependency: the test databases ([`databases`]) and the adversarial lease tests, with
//! their replica processes, proxy and server stalls ([`lease`]).
//!
//! Cross-crate tests live in the workspace's `tests/` directory; this crate holds no tests,
//! only the code that several test binaries share.

pub mod databases;
pub mod lease;
