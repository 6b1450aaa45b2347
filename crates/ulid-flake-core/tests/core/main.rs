//! The integration tests of `ulid-flake-core`, in one binary.

mod clock_faults;
mod codec;
mod concurrency;
mod default_generator;
mod fork;
mod generator;
mod id;
#[cfg(ulid_flake_loom)]
mod loom;
mod ordinal;
mod serde;
mod support;
mod uuid;
