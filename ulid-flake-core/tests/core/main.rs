//! The integration tests of `ulid-flake-core`, in one binary.

mod batch;
mod clock_faults;
mod concurrency;
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
mod date_time;
mod default_generator;
mod error;
mod fmt;
mod fork;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
mod fuzzing;
mod generator;
#[cfg(feature = "async-graphql")]
mod graphql;
mod headroom;
mod id;
mod lease;
#[cfg(ulid_flake_loom)]
mod loom;
mod new_id;
mod newtype;
mod parser;
mod prefixed;
#[cfg(feature = "rand010")]
mod rand;
mod schema;
#[cfg(feature = "sea-orm")]
mod sea_orm;
mod serde;
mod statefulset;
mod support;
mod ticker;
mod timestamp;
#[cfg(feature = "tracing")]
mod tracing;
mod ulid_flake;
mod uuid;
