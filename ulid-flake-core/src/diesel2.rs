//! Diesel 2 only (feature `diesel2`): [`OptionalId`], which reads a nullable `BIGINT` into an
//! `Option` of an ID with the bad value in the error's message. Named for the major, as the
//! feature is: a Diesel 3 integration would have a module of its own.

pub use crate::external::diesel2_support::OptionalId;
