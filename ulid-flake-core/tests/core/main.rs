//! The integration tests of `ulid-flake-core`, in one binary.
//!
//! Under `--cfg ulid_flake_loom` the binary holds the loom model check alone, which needs no
//! feature but `std`: the test command builds it so, without the integrations' dependencies.

#[cfg(ulid_flake_loom)]
mod loom;
#[cfg_attr(
    ulid_flake_loom,
    allow(dead_code, reason = "the model check uses a part")
)]
mod support;

/// Declares the test modules, each left out under `--cfg ulid_flake_loom`.
macro_rules! suite {
    ($($(#[$attribute:meta])* mod $name:ident;)*) => {$(
        $(#[$attribute])*
        #[cfg(not(ulid_flake_loom))]
        mod $name;
    )*};
}

suite! {
    mod batch;
    mod clock_faults;
    mod concurrency;
    mod date_time;
    mod default_generator;
    mod error;
    mod fmt;
    mod fork;
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    mod fuzzing;
    mod generator;
    #[cfg(feature = "async-graphql7")]
    mod graphql;
    mod headroom;
    mod id;
    mod lease;
    mod new_id;
    mod newtype;
    mod parser;
    mod prefixed;
    #[cfg(feature = "rand010")]
    mod rand;
    mod schema;
    #[cfg(feature = "sea-orm2")]
    mod sea_orm;
    mod serde;
    mod statefulset;
    mod ticker;
    mod timestamp;
    #[cfg(feature = "tracing01")]
    mod tracing;
    mod ulid_flake;
    mod uuid;
    mod vectors;
    mod verbs;
}
