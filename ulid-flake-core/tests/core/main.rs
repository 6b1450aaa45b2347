//! The integration tests of `ulid-flake-core`, in one binary.

mod clock_faults;
mod concurrency;
mod default_generator;
mod error;
mod fmt;
mod fork;
mod generator;
mod id;
mod lease;
#[cfg(ulid_flake_loom)]
mod loom;
mod parser;
mod prefixed;
mod schema;
mod serde;
mod statefulset;
mod support;
mod timestamp;
mod ulid_flake;
mod uuid;
