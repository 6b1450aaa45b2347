//! `with` modules that pin a field to one representation, whatever the format.
//!
//! By default an ID — of any of the ID types: [`UlidFlake`](crate::UlidFlake),
//! [`Id`](crate::Id), [`PrefixedId`](crate::PrefixedId), a `newtype!` key — is text in
//! human-readable formats and an integer in binary ones; these modules override that per
//! field, each with an `option` submodule for `Option` fields. The text is the type's own: a
//! prefixed ID keeps its prefix.
//!
//! They are needed in one case: inside `#[serde(flatten)]`, untagged enums and internally
//! tagged enums, serde buffers the input and reports every format as human-readable
//! (serde-rs/serde#2172), so a binary format's integer would be read as if it had to be text.
//! Pin such fields with [`integer`] (or [`text`])
//! and they read back in every format.
//!
//! ```
//! use ulid_flake_core::{UlidFlake, ulid_flake};
//!
//! #[derive(serde::Serialize)]
//! struct Event {
//!     id: UlidFlake, // text in JSON
//!     #[serde(with = "ulid_flake_core::serde::integer")]
//!     sequence: UlidFlake, // an integer, even in JSON
//! }
//!
//! let event = Event { id: ulid_flake!("00CMXB6TAK4SA"), sequence: ulid_flake!("0000000000001") };
//! assert_eq!(serde_json::to_string(&event)?, r#"{"id":"00CMXB6TAK4SA","sequence":1}"#);
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! An `Option` field with a `with` module is required, as serde makes every field with one
//! (a plain `Option` field may be left out); `#[serde(default)]` reads a missing one as `None`:
//!
//! ```
//! use ulid_flake_core::UlidFlake;
//!
//! #[derive(Debug, serde::Deserialize)]
//! struct Event {
//!     #[serde(default, with = "ulid_flake_core::serde::integer::option")]
//!     parent: Option<UlidFlake>,
//! }
//!
//! #[derive(Debug, serde::Deserialize)]
//! struct Required {
//!     #[serde(with = "ulid_flake_core::serde::integer::option")]
//!     parent: Option<UlidFlake>,
//! }
//!
//! assert_eq!(serde_json::from_str::<Event>("{}")?.parent, None);
//! assert_eq!(serde_json::from_str::<Event>(r#"{"parent":1}"#)?.parent.map(UlidFlake::to_u64), Some(1));
//! let missing = serde_json::from_str::<Required>("{}").unwrap_err();
//! assert_eq!(missing.to_string(), "missing field `parent` at line 1 column 2");
//! # Ok::<(), serde_json::Error>(())
//! ```

pub use crate::external::serde_support::{integer, text};
