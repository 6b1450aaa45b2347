//! Ulid-Flake: 64-bit, time-sortable identifiers that live in an SQL `BIGINT` and travel as
//! 13-character strings.
//!
//! A Ulid-Flake is a `u64` with the top bit clear: 43 bits of milliseconds since an epoch
//! (2024-01-01 by default, good until the year 2302) above 20 bits of randomness — or 15
//! bits of randomness and a 5-bit scalability id, so that up to 32 replicas never collide.
//!
//! ```
//! use ulid_flake_core::{Id, UlidFlake, ulid_flake};
//!
//! struct User;
//!
//! let id: Id<User> = Id::generate()?;               // the process-wide generator
//! let text = id.to_string();                         // "00F5PEXFDQCGR"-like, 13 characters
//! let back: Id<User> = text.parse()?;                // strict, either case
//! assert_eq!(back, id);
//! let bigint: i64 = id.into();                       // what the database stores
//! assert!(bigint >= 0);
//!
//! const KNOWN: UlidFlake = ulid_flake!("00CMXB6TAK4SA"); // checked at compile time
//! assert_eq!(KNOWN.ms_since_epoch(), 13_586_766_666);
//! # Ok::<(), ulid_flake_core::Error>(())
//! ```
//!
//! # Design and trade-offs
//!
//! - **Why 64 bits.** A `BIGINT` primary key is half the size of a UUID in every index and
//!   foreign key, and IDs made later sort later, so inserts append to the index. The price is
//!   a small randomness field: IDs are unique per generator by construction, but two
//!   stand-alone generators in the same millisecond collide with probability about 2^-20
//!   per pair of IDs — and two generators that fill a millisecond share about twenty of its
//!   IDs. So a process makes its IDs from one generator (the process-wide one, configured
//!   once with `generator::set_default_generator`), and several replicas use the scalable
//!   layout with distinct scalability ids.
//! - **Why text in JSON.** Every ID made after about 2024-04-09 exceeds 2^53, which a
//!   JavaScript `number` cannot hold exactly. serde therefore writes the canonical text in
//!   human-readable formats, and reading a JSON number where the text belongs is an error,
//!   since precision may already be lost. Binary formats get the integer.
//! - **Schemas describe the wire.** With the `utoipa` or `schemars` feature, [`UlidFlake`]
//!   and `Id<T>` are described as the string serde writes in JSON — 13 characters, the
//!   parser's pattern, an example — never as an `integer`, which client generators would map
//!   to a lossy JavaScript `number`. `Id<T>` fields of derived types need no attribute when
//!   `T` implements `ToSchema` (utoipa reads its name; otherwise mark the field
//!   `#[schema(value_type = UlidFlake)]`). In JSON Schema every unprefixed ID refers to one
//!   definition, `UlidFlake`; utoipa's derive names a component per entity
//!   (`UlidFlake_User`), each the same string.
//! - **Capacity is small by design.** A millisecond holds about 4,100 IDs on average with the
//!   default entropy (about 130 scalable) and can run out after a single one, so
//!   [`Error::Overflow`] is normal in bulk work: `generate` waits for the next millisecond,
//!   `try_generate` returns the error (the table below).
//! - **Not a secret.** At most 20 bits of an ID are unpredictable. The randomness comes from
//!   a per-thread CSPRNG — AES-128 in counter mode on an x86 processor with AES
//!   instructions, ChaCha12 elsewhere (no system call per ID, reseeded after `fork`) — but an ID
//!   must never serve as a capability or a token.
//! - **`Id<T>` is the everyday type.** Rows, request bodies and signatures hold an
//!   [`Id<User>`](Id), which cannot be passed where an `Id<Post>` belongs and costs nothing
//!   over a `u64`. It has every reading of [`UlidFlake`] itself, re-types only through an
//!   explicit [`Id::cast`], and has no `Default`: a defaulted entity would otherwise get the
//!   key `0000000000000`, the same for every row (its docs say more).
//! - **Prefixed IDs are opt-in and text-only.** An entity that implements [`Prefix`]
//!   (`PREFIX = "user"`) can use [`PrefixedId<User>`](PrefixedId), whose text is
//!   `user_00CMXB6TAK4SA` in `Display`, `FromStr`, serde and the schemas while the value and
//!   the `BIGINT` column stay `Id<User>`'s. It is a separate type, not a mode of `Id<T>`:
//!   stable Rust has no specialization, so a prefix inside `Id<T>` would need a bound on
//!   every `T`, breaking every user for a feature few want. Parsing requires the prefix (an
//!   unprefixed ID is an [`Error::WrongPrefix`]), so each type has one spelling: give an
//!   entity's key and the keys that point at it the same type (`PrefixedId<User>` in both),
//!   or a client sees one user written two ways and cannot send back what it read.
//! - **Names say what they count from.** An ID does not store its epoch, so
//!   [`UlidFlake::ms_since_epoch`] is the raw field, milliseconds since whatever [`Epoch`]
//!   made it; [`UlidFlake::unix_ms`] and [`UlidFlake::to_moment`] take the epoch and answer
//!   in Unix time.
//! - **Stricter than the references.** Parsing accepts exactly 13 characters of Crockford's
//!   alphabet in either case: no aliases (`I`, `L`, `O`), no trimming, and a first
//!   character above `7` is out of range, never wrapped around. A clock that moves back by
//!   less than the generator's allowance (1 s by default) keeps IDs ordered instead of failing
//!   or re-randomising an older timestamp.
//!
//! # Four ID types, one list of integrations
//!
//! [`UlidFlake`], [`Id<T>`](Id), [`PrefixedId<T>`](PrefixedId) and the keys of [`newtype!`]
//! (prefixed or not) meet every integration the same way: the text where the integration has
//! one (serde's human-readable formats, schemas, GraphQL), the `BIGINT` where it stores. The
//! orphan rule allows a trait impl for a user's key only in the user's crate, so every
//! integration is a hidden macro of this crate, generic over what an ID type is (its
//! Ulid-Flake, its name, its prefix), and one list in `src/external/mod.rs` names them all:
//! this crate's own types expand that list as `newtype!` does, so a new integration reaches
//! every ID type at once, and a key can leave one out by its feature's name when it
//! implements that trait itself (`without = ["serde"];`). A feature that is off expands to
//! nothing, whichever crate calls `newtype!`: what a key gets follows this crate's features.
//! The trade-off: the impls are macro expansions, compiled in the user's crate for a key, so
//! the macros stay thin and the logic lives once, in the generic functions they call.
//!
//! # Making IDs: one meaning per verb
//!
//! Every ID type — [`UlidFlake`], [`Id<T>`](Id), [`PrefixedId<T>`](PrefixedId) and the keys of
//! [`newtype!`] — makes IDs from the process-wide generator with the same verbs; a
//! `generator::Generator` has the same verbs for its own IDs.
//!
//! | verb | when the millisecond is full | returns | ID types | a `Generator` |
//! |---|---|---|---|---|
//! | `generate` | waits for the next (on the thread) | `Result` | `Id::<User>::generate()` | `generator.generate()` |
//! | `generate_async` (feature `tokio`) | waits on the tokio timer | `Result` | `Id::<User>::generate_async()` | `generator.generate_async()` |
//! | `try_generate` | never waits: [`Error::Overflow`] | `Result` | `Id::<User>::try_generate()` | `generator.try_generate()` |
//! | `new` (a generator: `new_id`) | waits; after a clock rollback, carries on from the last ID | the ID | `Id::<User>::new()` | `generator.new_id()` |
//! | `generate_batch`, `generate_batch_async` | as `generate`, for a whole slice | `Result<()>` | — (`generator::default_generator()?.generate_batch(&mut ids)`, `ids` a slice of the type) | `generator.generate_batch(&mut ids)` |
//! | `try_generate_batch` | fills what fits in the millisecond; [`Error::Overflow`] only when nothing does | `Result<usize>`: how many | — (as above) | `generator.try_generate_batch(&mut ids)` |
//!
//! The `Result`s carry the clock's errors ([`Error::ClockMovedBackwards`] beyond the
//! rollback allowance, [`Error::TimestampOutOfRange`]), a lease's [`Error::LeaseNotValid`] and,
//! for the process-wide generator, the configuration's. `new` has no `Result`: it panics only
//! where no ID can be issued without risking a duplicate — a lease that stays invalid, or a
//! wall clock that stays further from the database's than the lease allows
//! ([`Error::ClockSkew`], the same wait), for `lease::NEW_ID_LEASE_WAIT` (30 s); a clock past
//! the format's last millisecond, or that millisecond used up (the year 2302 with the default
//! epoch); or, for the process-wide generator, a bad `ULID_FLAKE_SCALABILITY_ID` (call
//! `init_from_env()` at start-up to meet that as an error). The tests:
//! `an_invalid_lease_is_waited_for_then_panics_rather_than_issue`,
//! `a_clock_apart_from_the_database_s_is_waited_for_then_panics_rather_than_issue`,
//! `a_clock_past_the_format_s_last_millisecond_panics`,
//! `the_format_s_last_millisecond_used_up_panics_rather_than_wrap`,
//! `init_from_env_reports_a_bad_variable_at_start_up_as_the_lazy_path_does`.
//! (`Generator::new()` makes a generator, as constructors do.)
//!
//! # Time
//!
//! Every time library's moment is a [`Moment`]: [`UnixMs`] (milliseconds as an integer),
//! `SystemTime` (feature `std`), chrono's `DateTime<Utc>` (`chrono04`), time's
//! `OffsetDateTime` (`time03`) and jiff's `Timestamp` (`jiff02`). The same methods take each,
//! the epoch first, then the moment or the window, then the randomness:
//!
//! - `to_moment(epoch)`, `from_moment(epoch, moment, randomness)` and
//!   `range_for(epoch, start..end)` (the inclusive bounds of a window's IDs, for an SQL
//!   `BETWEEN`) on every ID type: [`UlidFlake`], [`Id<T>`](Id), [`PrefixedId<T>`](PrefixedId)
//!   and `newtype!` keys;
//! - [`Epoch::from_moment`] and [`Epoch::to_moment`]; `generator.id_at(moment)`.
//!
//! IDs tell time to the millisecond: a moment is rounded down to its millisecond (towards the
//! past, before 1970 too), the end of a window up, so that a window ending inside a
//! millisecond covers it.
//!
//! ```
//! use std::time::{Duration, SystemTime, UNIX_EPOCH};
//! use ulid_flake_core::{Epoch, Id, UnixMs};
//!
//! struct Post;
//! let epoch = Epoch::DEFAULT;
//! let moment = UNIX_EPOCH + Duration::from_micros(1_717_653_966_666_900); // .666900
//! let id = Id::<Post>::from_moment(epoch, moment, 627_498)?;
//! assert_eq!(id.to_string(), "00CMXB6TAK4SA");
//! assert_eq!(id.to_moment(epoch), Ok(UnixMs(1_717_653_966_666)));
//! let made: SystemTime = id.to_moment(epoch)?;
//! assert_eq!(made, UNIX_EPOCH + Duration::from_millis(1_717_653_966_666));
//!
//! let (lowest, highest) = Id::<Post>::range_for(epoch, made..moment).unwrap();
//! assert!(lowest <= id && id <= highest);
//! # #[cfg(feature = "chrono04")]
//! # {
//! let made: chrono::DateTime<chrono::Utc> = id.to_moment(epoch)?;
//! assert_eq!(made.to_rfc3339(), "2024-06-06T06:06:06.666+00:00");
//! # }
//! # Ok::<(), ulid_flake_core::Error>(())
//! ```
//!
//! # Clients without an adapter crate
//!
//! The sqlx and Diesel integrations have adapter crates (`ulid-flake-sqlx`,
//! `ulid-flake-diesel`); these have none: turn them on here, or through either adapter. Each
//! covers every ID type, and reports a bad value (a negative integer, a malformed text) with
//! this crate's [`Error`] as the source of the client's own error, so its message says what
//! was expected and what was found; a value of a type IDs are not read from (an `INT4`, a
//! `REAL`) is the client's own type error, as for `i64`.
//!
//! - **`postgres-types`** (the `postgres` and `tokio-postgres` clients, 0.7): `ToSql` and
//!   `FromSql` for `INT8` (`BIGINT`), so IDs bind as parameters and read from rows; `INT8[]`
//!   follows through postgres-types' `Vec`/slice impls (`= ANY($1)` with a slice of IDs), and
//!   `Option` reads `NULL` as postgres-types' own `Option` impl does. A negative `INT8` is an
//!   [`Error::OutOfRange`] that names it. A `TEXT`, `VARCHAR` or `CHAR(n)` value holds the
//!   type's text, written as `Display` writes it and read as `FromStr` reads it (either case;
//!   `user_` first for a `PrefixedId<User>`; the spaces that pad a `CHAR(n)` value dropped); an
//!   integer's decimal digits in a text column are read as text, never guessed to be an
//!   integer: an error, or — for an unprefixed type and 13 digits, the first 1-7 (an ID made
//!   about 16 minutes to 2.1 hours after its epoch) — another ID. Other integer types (`INT4`)
//!   are refused, as for `i64`. These impls see the binary format only: the text protocol
//!   (`simple_query`) takes no parameters and hands back strings — an `INT8` as its decimal,
//!   which `i64::from_str` and `UlidFlake::try_from` read.
//!
//! - **`rusqlite`** (rusqlite 0.39: the release that links libsqlite3-sys 0.37, as sqlx 0.9's
//!   SQLite driver does, so both fit in one build; pick rusqlite's `bundled` feature or the
//!   system library yourself): `ToSql` writes an `INTEGER`; `FromSql` follows the value's
//!   storage class, since SQLite keeps one per value: an `INTEGER` is the ID (a negative one
//!   is an [`Error::OutOfRange`]), a `TEXT` is the type's text as `FromStr` reads it, a `REAL`
//!   or `BLOB` is rusqlite's `InvalidColumnType`, `NULL` is `None` for an `Option`. Decimal
//!   digits in a `TEXT` are read as text, not guessed to be an integer: an ID bound into a
//!   `TEXT` column (which stores its digits) therefore fails to read back — or, for an
//!   unprefixed type and an ID of 13 digits starting 1-7 (valid Base32: every ID made about
//!   16 minutes to 2.1 hours after its epoch), reads back as another ID, with no error. Keep
//!   IDs in `INTEGER` columns, or write `id.to_string()` into `TEXT` ones.
//!
//! - **`async-graphql`** (7): IDs are custom scalars, strings in and out — the text serde
//!   writes in JSON, never a number. `UlidFlake` and every `Id<T>` are one scalar,
//!   `UlidFlake` (as in the OpenAPI and JSON Schema documents); a `PrefixedId<T>`, whose text
//!   differs, is a scalar per prefix, `PrefixedId_user`. A malformed argument or variable is
//!   a GraphQL error in the response, never a panic, worded `Failed to parse "UlidFlake":`
//!   and this crate's message (`invalid character 'I' at index 12: expected ...`), or
//!   `expected a string of 13 Crockford Base32 characters, found 42` for a non-string.
//!
//! # The format
//!
//! | layout | bit 63 | bits 62..20 | bits 19..5 | bits 4..0 |
//! |---|---|---|---|---|
//! | stand-alone | 0 | timestamp (ms since the epoch) | randomness (20 bits) | (randomness) |
//! | scalable | 0 | timestamp (ms since the epoch) | randomness (15 bits) | scalability id |
//!
//! The canonical text is the value in Crockford's Base32, most significant digit first,
//! zero-padded to 13 characters; the first is always `0`..`7`. The byte form is 8 bytes,
//! big-endian. Integer order, time order (to the millisecond) and text order agree.
//!
//! # SeaORM
//!
//! With the `sea-orm` feature (SeaORM 2), [`UlidFlake`], [`Id<T>`](Id), [`PrefixedId<T>`]
//! and the types of [`newtype!`] are `BIGINT` column types — `TryGetable`, `ValueType`,
//! `Nullable`, `From<…> for Value`, `IntoActiveValue` — and primary keys of
//! `DeriveEntityModel` entities (`TryFromU64`), and a `Vec` of them is a `BIGINT[]` on
//! PostgreSQL. Add this crate with the feature next to `sea-orm` with the driver and runtime
//! you use; the feature turns on no driver and no runtime (only SeaORM's `postgres-array`
//! value types).
//!
//! ```toml
//! ulid-flake-core = { version = "0.1", features = ["sea-orm"] }
//! sea-orm = { version = "2", features = ["sqlx-postgres", "runtime-tokio-rustls", "macros"] }
//! ```
//!
//! The application makes the keys, so a key column has `auto_increment = false`:
//!
//! ```text
//! #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
//! #[sea_orm(table_name = "posts")]
//! pub struct Model {
//!     #[sea_orm(primary_key, auto_increment = false)]
//!     pub id: Id<Model>,
//!     pub author: Id<super::user::Model>, // a foreign key: `belongs_to` works as with i64
//!     pub reviewer: Option<Id<super::user::Model>>,
//!     pub title: String,
//! }
//! ```
//!
//! (`examples/sea-orm-sqlite` in the repository builds and runs entities like this one.)
//! Filters take IDs wherever SeaORM takes values, and a time window is a `between` on the key
//! ([`UlidFlake::range_for`]). A negative `BIGINT` in the table is an error, never a panic:
//! `DbErr::TryIntoErr`, whose message names the value and whose source is the
//! [`Error::OutOfRange`]:
//!
#![cfg_attr(not(feature = "sea-orm2"), doc = "```ignore")]
#![cfg_attr(feature = "sea-orm2", doc = "```")]
//! use sea_orm::{TryFromU64, Value};
//! use ulid_flake_core::{Id, ulid_flake};
//!
//! struct User;
//!
//! let id: Id<User> = ulid_flake!("00CMXB6TAK4SA").into();
//! assert_eq!(Value::from(id), Value::BigInt(Some(14_246_757_444_195_114)));
//! assert_eq!(
//!     Id::<User>::try_from_u64(1 << 63).unwrap_err().to_string(),
//!     "Error converting `u64` into `Id`: value out of range: \
//!      expected 0..=9223372036854775807, found 9223372036854775808 \
//!      (in Base32 text: expected a first character 0-7, found 8)"
//! );
//! ```
//!
//! Two things of SeaORM's own to know:
//! - On SQLite its schema builder declares the key `INTEGER PRIMARY KEY`, the table's rowid:
//!   a row inserted with its key `NotSet` gets the largest key plus one from SQLite, in
//!   silence, an ID the generator may yet issue. A table created with `id BIGINT NOT NULL
//!   PRIMARY KEY`, as `examples/sea-orm-sqlite` does, refuses that insert
//!   (`sqlite_a_key_left_out_is_made_up_by_the_rowid_unless_the_key_is_declared_bigint`).
//! - Its own JSON goes through its values, not serde: `into_json` writes an ID as a JSON
//!   number, which JavaScript cannot hold exactly, and `ActiveModel::from_json` and
//!   `set_from_json` fill a field left out with the number 0, which an ID's serde refuses
//!   (``invalid type: integer `0` ``), even on a model loaded from the table; the 0 is
//!   SeaORM's `ActiveModel::default_values()`, which sets every ID field to
//!   `0000000000000`, the key `Id<T>` has no `Default` to avoid: never insert it. Serialize
//!   models with serde, and send every ID field
//!   (`sea_orm_s_json_carries_ids_as_numbers_and_serde_as_text`).
//!
//! # Feature flags
//!
//! Without `std`, the value type, [`Id`], [`PrefixedId`], [`newtype!`] keys, the codec, serde,
//! schemars and the chrono, time and jiff moments build on `no_std`.
//! The `ulid-flake-sqlx` and `ulid-flake-diesel` crates turn on the database features for
//! you, and pass every other feature of this crate through under the same name, so one
//! dependency line is enough.
//!
//! **Versioned feature names.** This crate's version must not be tied to the majors of the
//! crates it integrates with. So each integration with a crate before 1.0, or one whose
//! majors come often, is named with that crate's major: `sqlx09`, `diesel2`, `sea-orm2`,
//! `async-graphql7`, `utoipa5`, `schemars1`, `ts-rs12`, `postgres-types02`, `chrono04`,
//! `time03`, `jiff02`, `tracing01`, `rand010`. The plain name (`sqlx`, `sea-orm`, …) is an alias of
//! the current major's feature and stays one until a breaking release of this crate. A new
//! major of sqlx arrives as a new feature, `sqlx010`, beside `sqlx09`: an addition, not a
//! breaking change, and an application moves when it moves its own sqlx. Inside this crate
//! the code names the versioned feature only. Integrations with crates whose 1.x has long
//! been stable keep one plain name: `serde`, `uuid`, `tokio`, `arbitrary`, `proptest`.
//!
//! One exception: **`rusqlite`** (and the SQLite drivers of the adapters) take one major at a
//! time. They link the C library through `libsqlite3-sys`, whose manifest says
//! `links = "sqlite3"`: Cargo allows one version of such a crate in a build, so two majors of
//! rusqlite cannot both be features of one build, and this crate follows the major that
//! sqlx's SQLite driver links (a new one is a breaking change of this crate).
//!
#![doc = document_features::document_features!()]
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
// `no_std` regressions caught at lint time: a `std::` path where `core::` or `alloc::` has the
// item builds with `std` on and breaks the `no_std` builds; the feature checks of the test
// command catch the rest.
#![warn(
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc,
    clippy::alloc_instead_of_core
)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[doc(hidden)]
pub mod __private;
#[cfg(feature = "diesel2")]
pub mod diesel2;
mod epoch;
pub mod error;
mod external;
mod fmt;
#[cfg(feature = "std")]
pub mod generator;
mod id;
mod id_type;
mod layout;
#[cfg(feature = "std")]
pub mod lease;
mod macros;
mod moment;
mod parser;
mod prefixed;
#[cfg(feature = "proptest")]
pub mod proptest;
#[cfg(feature = "rand010")]
pub mod rand010;
#[cfg(doctest)]
mod readme_doctests;
#[cfg(feature = "serde")]
pub mod serde;
pub mod sql;
mod ulid_flake;

pub use epoch::Epoch;
pub use error::Error;
#[cfg(feature = "std")]
pub use generator::init_from_env;
pub use id::Id;
pub use layout::{ENCODED_LEN, MAX_PREFIXED_LEN, MAX_TIMESTAMP};
pub use moment::{Moment, UnixMs};
pub use prefixed::{Prefix, PrefixedId, is_valid_prefix, split_prefix};
pub use ulid_flake::UlidFlake;
