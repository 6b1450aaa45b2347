//! The READMEs' examples, run as doctests of this crate.

/// Keeps the workspace README's quick start compiling and passing.
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

/// Keeps this crate's README example compiling and passing.
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
