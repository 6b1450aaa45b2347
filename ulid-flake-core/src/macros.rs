//! The macros: `ulid_flake!` for literals, `newtype!` for a key type of your own.

/// A [`UlidFlake`](crate::UlidFlake) from a string literal, checked at compile time.
///
/// The literal is parsed by the same `const fn` as at run time
/// ([`UlidFlake::parse_str`](crate::UlidFlake::parse_str)), inside a constant: an invalid
/// literal stops the build, and a valid one costs nothing at run time.
///
/// ```
/// use ulid_flake_core::{UlidFlake, ulid_flake};
///
/// const ADMIN: UlidFlake = ulid_flake!("00CMXB6TAK4SA");
/// assert_eq!(ADMIN.to_u64(), 14_246_757_444_195_114);
/// ```
///
/// An invalid literal does not compile, and the error says what is wrong and where, in the
/// words of [`Error`](crate::Error)'s message:
///
/// ```text
/// error[E0080]: evaluation panicked: invalid Ulid-Flake literal "00CMXB6TAK4SI": invalid
///               character 'I' at index 12: expected a Crockford Base32 digit (0-9, A-Z
///               without I, L, O, U, in either case)
/// ```
///
/// ```compile_fail,E0080
/// let id = ulid_flake_core::ulid_flake!("00CMXB6TAK4SI"); // `I` is not Crockford Base32
/// ```
///
/// ```compile_fail,E0080
/// let id = ulid_flake_core::ulid_flake!("8000000000000"); // above i64::MAX
/// ```
///
/// ```compile_fail,E0080
/// let id = ulid_flake_core::ulid_flake!("00CMXB6TAK4S"); // 12 characters
/// ```
#[macro_export]
macro_rules! ulid_flake {
    ($text:literal) => {{
        const VALUE: $crate::UlidFlake = match $crate::UlidFlake::parse_str($text) {
            ::core::result::Result::Ok(value) => value,
            ::core::result::Result::Err(error) => {
                let message =
                    $crate::__private::LiteralError::new(::core::stringify!($text), error);
                ::core::panic!("{}", message.as_str())
            }
        };
        VALUE
    }};
}

/// Defines a key type of your own over [`UlidFlake`](crate::UlidFlake): `struct UserId(pub
/// UlidFlake)`, for those who prefer one type per key to `Id<User>`. It can do what every ID
/// type of this crate can: the readings, conversions, formats and verbs listed below (those
/// of [`Id<T>`](crate::Id) but `cast`, for a key has no entity parameter to change: another
/// key of the same value is `OtherId::from_ulid_flake(id.to_ulid_flake())`), and every
/// integration that is on. Its methods are `#[allow(dead_code)]`, so that a key need not use
/// them all: a crate that forbids `dead_code` cannot call `newtype!`.
///
/// ```
/// ulid_flake_core::newtype! {
///     /// The key of a user.
///     pub struct UserId;
/// }
///
/// let id: UserId = "00CMXB6TAK4SA".parse()?;
/// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
/// assert_eq!(format!("{id:?}"), "UserId(00CMXB6TAK4SA)");
/// assert_eq!(i64::from(id), 14_246_757_444_195_114);
/// assert_eq!(UserId::try_from(14_246_757_444_195_114_u64)?, id);
/// assert!(UserId::try_from(-5_i64).is_err());
/// assert_eq!(id.ms_since_epoch(), 14_246_757_444_195_114 >> 20);
/// assert_eq!(id.to_hex(), "0x329D59B4A9932A");
/// assert_eq!(String::from(id), "00CMXB6TAK4SA");
/// assert!(UserId::generate()? > id);
/// # #[cfg(feature = "serde")]
/// assert_eq!(serde_json::to_string(&id).unwrap(), r#""00CMXB6TAK4SA""#);
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
///
/// A key can carry a prefix, as [`PrefixedId<T>`](crate::PrefixedId) does: its text (and
/// serde's JSON, the schemas, GraphQL) is `order_` and the 13 characters, its `BIGINT` the
/// same. And it can go without integrations, named by their features: features unify across
/// a dependency graph, so an impl of your own for a trait an integration implements would
/// otherwise collide with ours.
///
/// ```
/// ulid_flake_core::newtype! {
///     /// The key of an order.
///     pub struct OrderId;
///     prefix = "order";
///     without = ["serde"];
/// }
///
/// let id: OrderId = "order_00CMXB6TAK4SA".parse()?;
/// assert_eq!(id.to_string(), "order_00CMXB6TAK4SA");
/// assert_eq!(OrderId::PREFIX, "order");
/// assert_eq!(id.to_i64(), 14_246_757_444_195_114);
/// assert!("00CMXB6TAK4SA".parse::<OrderId>().is_err());
///
/// // Our serde impls are left out, so this one does not collide with them.
/// # #[cfg(feature = "serde")]
/// impl serde::Serialize for OrderId {
///     fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
///         serializer.serialize_i64(self.to_i64())
///     }
/// }
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
///
/// `prefix` and `without` may come in either order. `without` takes the features' names
/// (`"serde"`, `"sqlx09"`, `"sqlx09-postgres"`, `"diesel2"`, `"sea-orm2"`, `"utoipa5"`,
/// `"schemars1"`, `"postgres-types02"`, `"rusqlite"`, `"async-graphql7"`, `"arbitrary"`,
/// `"proptest"`, `"uuid"`, `"ts-rs12"`), whether or not the feature is on. Leaving serde out
/// leaves the schemas, the GraphQL scalar and the TypeScript type describing the text: leave
/// those out too when your format differs. A `#[derive(Serialize)]` on the key goes through the inner `UlidFlake` and so
/// writes no prefix. Do not derive `Default`: a defaulted key would be `0000000000000`, the
/// reason `Id<T>` has none.
///
/// A prefix is 1 to 31 characters, a lowercase ASCII letter then lowercase letters and
/// digits (see [`is_valid_prefix`](crate::is_valid_prefix)); another prefix, or a name in
/// `without` that is no integration's feature, does not compile, and the error names it:
///
/// ```compile_fail,E0080
/// ulid_flake_core::newtype! {
///     /// Not a valid prefix.
///     pub struct OrderId;
///     prefix = "Order";
/// }
/// ```
///
/// ```compile_fail,E0080
/// ulid_flake_core::newtype! {
///     /// `sqlx` is the alias; integrations are named by their versioned features.
///     pub struct OrderId;
///     without = ["sqlx"];
/// }
/// ```
///
/// The type gets, whatever the features:
///
/// - `Clone`, `Copy`, `PartialEq`, `Eq`, `PartialOrd`, `Ord` and `Hash` (derived: do not derive
///   them again), `Debug` (`UserId(00CMXB6TAK4SA)`), `Display` (its text) and `FromStr`
///   (strict, as [`UlidFlake::parse_str`](crate::UlidFlake::parse_str), after the prefix if it
///   has one), and the integer formats (`{:x}`, `{:X}`, `{:b}`, `{:o}`);
/// - the constants `MIN` and `MAX` (and `PREFIX`, for a key with a prefix), and the methods
///   `from_ulid_flake`, `to_ulid_flake`, `to_u64`, `to_i64`, `from_u64`, `from_i64`,
///   `to_bytes`, `from_bytes`, `from_parts`, `from_scalable_parts`, `parse_str`,
///   `parse_ascii`, `encode`, `ms_since_epoch`, `randomness`, `scalable_randomness`,
///   `scalability_id` and `unix_ms` (all `const` but `encode`), and the time methods
///   `to_moment`, `from_moment` and `range_for` (every [`Moment`](crate::Moment)), as
///   [`Id<T>`](crate::Id)'s;
/// - `From` conversions to and from [`UlidFlake`](crate::UlidFlake), `From<UserId>` for `i64`,
///   `u64` and `[u8; 8]`, and `TryFrom<i64>`, `TryFrom<u64>` and `TryFrom<&str>`, which reject
///   what [`UlidFlake`](crate::UlidFlake) rejects;
///
/// and, with the features of `ulid-flake-core` that are on (the database adapters turn theirs
/// on; the calling crate needs no dependency or feature of its own), the same as every other
/// ID type:
///
/// - `std`: `UserId::generate()`, `try_generate()` and `new()`, from the process-wide
///   generator (the verbs table of the crate docs); `tokio`: `UserId::generate_async()`;
/// - `serde`: `Serialize` and `Deserialize` (the text in human-readable formats, the integer
///   in the others);
/// - `sqlx09`: `Type`, `Encode` and `Decode` as a `BIGINT` on every database;
///   `sqlx09-postgres`: `PgHasArrayType`;
/// - `diesel2`: `AsExpression` (also for `Nullable<BigInt>`), `Queryable` (hence
///   `FromSqlRow`), `ToSql` and `FromSql` as `BigInt`, on every backend;
/// - `sea-orm2`: the column-type traits as a `BIGINT` (`TryGetable`, `ValueType`, `Nullable`,
///   `From<UserId> for Value`, `TryFromU64`, so it can be a primary key, and the array traits
///   for PostgreSQL);
/// - `utoipa5` and `schemars1`: the schema of the text (an unprefixed key shares
///   `UlidFlake`'s definition);
/// - `postgres-types02`: `ToSql` and `FromSql` (`INT8`, or the text in a `TEXT` column);
/// - `rusqlite`: `ToSql` and `FromSql` (`INTEGER`, or the text in a `TEXT` value);
/// - `async-graphql7`: the scalar (`UlidFlake`, or `PrefixedId_order` for a prefixed key);
/// - `arbitrary` and `proptest`: `Arbitrary`, edge values drawn often;
/// - `uuid`: `to_uuid_v7` and `from_uuid_v7`.
///
/// Attributes before `struct` (documentation, `#[derive]`s of other traits) are kept. The
/// field is public: any [`UlidFlake`](crate::UlidFlake) is a valid key.
#[macro_export]
macro_rules! newtype {
    (@prefix) => { ::core::option::Option::None };
    (@prefix $prefix:literal) => { ::core::option::Option::Some($prefix) };
    (@text_len) => { $crate::ENCODED_LEN };
    (@text_len $prefix:literal) => { $crate::MAX_PREFIXED_LEN };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident;
        $(prefix = $prefix:literal;)?
        $(without = [$($without:tt),* $(,)?];)?
    ) => {
        $crate::newtype!(@define [$(#[$meta])*] $vis $name [$($prefix)?] [$($($without)*)?]);
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident;
        without = [$($without:tt),* $(,)?];
        prefix = $prefix:literal;
    ) => {
        $crate::newtype!(@define [$(#[$meta])*] $vis $name [$prefix] [$($without)*]);
    };
    (@define [$($attrs:tt)*] $vis:vis $name:ident [$($prefix:literal)?] [$($without:tt)*]) => {
        $($attrs)*
        #[derive(
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::cmp::PartialEq,
            ::core::cmp::Eq,
            ::core::cmp::PartialOrd,
            ::core::cmp::Ord,
            ::core::hash::Hash,
        )]
        #[repr(transparent)]
        $vis struct $name(pub $crate::UlidFlake);

        $(const _: () = ::core::assert!(
            $crate::is_valid_prefix($prefix),
            ::core::concat!(
                "newtype!: invalid prefix ", ::core::stringify!($prefix), ": expected 1 to 31 \
                 characters, a lowercase ASCII letter then lowercase ASCII letters and digits \
                 (no `_`: it separates the prefix from the ID)"
            )
        );)?

        impl $crate::__private::IdType for $name {
            const PREFIX: ::core::option::Option<&'static str> = $crate::newtype!(@prefix $($prefix)?);
            const NAME: &'static str = ::core::stringify!($name);

            fn from_ulid_flake(value: $crate::UlidFlake) -> Self {
                Self(value)
            }

            fn to_ulid_flake(self) -> $crate::UlidFlake {
                self.0
            }

            fn as_ulid_flake(&self) -> &$crate::UlidFlake {
                &self.0
            }
        }

        #[allow(dead_code)]
        impl $name {
            $(
                /// The prefix of the key's text, without the `_`.
                pub const PREFIX: &'static str = $prefix;
            )?

            /// The key of a Ulid-Flake.
            pub const fn from_ulid_flake(value: $crate::UlidFlake) -> Self {
                Self(value)
            }

            /// The Ulid-Flake of the key.
            pub const fn to_ulid_flake(self) -> $crate::UlidFlake {
                self.0
            }

            /// Parses the key's text (after its prefix, if it has one), as `FromStr`.
            ///
            /// # Errors
            ///
            /// As `UlidFlake::parse_str`, and `Error::WrongPrefix` for a prefixed key's text
            /// without its prefix; after a prefix, `Error::InvalidLength` names it and
            /// `Error::InvalidCharacter`'s index counts from the start of the whole text.
            pub const fn parse_str(text: &str) -> ::core::result::Result<Self, $crate::Error> {
                Self::parse_ascii(text.as_bytes())
            }

            /// Parses the key's text from bytes, as `parse_str`.
            ///
            /// # Errors
            ///
            /// As `parse_str`.
            pub const fn parse_ascii(bytes: &[u8]) -> ::core::result::Result<Self, $crate::Error> {
                match $crate::__private::parse_prefixed($crate::newtype!(@prefix $($prefix)?), bytes) {
                    ::core::result::Result::Ok(value) => ::core::result::Result::Ok(Self(value)),
                    ::core::result::Result::Err(error) => ::core::result::Result::Err(error),
                }
            }

            /// Writes the key's text into `buf` and returns it, without allocating: the text
            /// `Display` writes.
            pub fn encode(self, buf: &mut [u8; $crate::newtype!(@text_len $($prefix)?)]) -> &str {
                $crate::__private::encode(self, buf)
            }
        }

        $crate::__id_methods!([] $name);

        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::write!(f, "{}({})", ::core::stringify!($name), self)
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.pad(self.encode(&mut [0; $crate::newtype!(@text_len $($prefix)?)]))
            }
        }

        $crate::__integer_formats!([] $name);

        impl ::core::str::FromStr for $name {
            type Err = $crate::Error;

            fn from_str(text: &str) -> ::core::result::Result<Self, $crate::Error> {
                Self::parse_str(text)
            }
        }

        impl ::core::convert::TryFrom<&str> for $name {
            type Error = $crate::Error;

            fn try_from(text: &str) -> ::core::result::Result<Self, $crate::Error> {
                Self::parse_str(text)
            }
        }

        impl ::core::convert::From<$crate::UlidFlake> for $name {
            fn from(value: $crate::UlidFlake) -> Self {
                Self(value)
            }
        }

        impl ::core::convert::From<$name> for $crate::UlidFlake {
            fn from(value: $name) -> Self {
                value.0
            }
        }

        impl ::core::convert::From<$name> for i64 {
            fn from(value: $name) -> Self {
                value.0.to_i64()
            }
        }

        impl ::core::convert::From<$name> for u64 {
            fn from(value: $name) -> Self {
                value.0.to_u64()
            }
        }

        impl ::core::convert::From<$name> for [u8; 8] {
            fn from(value: $name) -> Self {
                value.0.to_bytes()
            }
        }

        impl ::core::convert::TryFrom<i64> for $name {
            type Error = $crate::Error;

            fn try_from(value: i64) -> ::core::result::Result<Self, $crate::Error> {
                Self::from_i64(value)
            }
        }

        impl ::core::convert::TryFrom<u64> for $name {
            type Error = $crate::Error;

            fn try_from(value: u64) -> ::core::result::Result<Self, $crate::Error> {
                Self::from_u64(value)
            }
        }

        // The verbs follow this crate's features (each helper is a no-op when its feature is
        // off), and so do the integrations, from the one list in `external/mod.rs`.
        $crate::__newtype_std!($name);
        $crate::__newtype_tokio!($name);
        $crate::__impl_integrations!([$($without)*] [] $name);
    };
}

/// `newtype!`'s part that needs `std`: `generate()`.
#[cfg(feature = "std")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_std {
    ($name:ident) => {
        impl $name {
            /// A new key from the process-wide default generator, as `UlidFlake::generate`.
            ///
            /// # Errors
            ///
            /// As `UlidFlake::generate`.
            #[allow(dead_code)]
            pub fn generate() -> ::core::result::Result<Self, $crate::Error> {
                $crate::UlidFlake::generate().map(Self)
            }

            /// A new key from the process-wide default generator, never waiting, as
            /// `UlidFlake::try_generate`.
            ///
            /// # Errors
            ///
            /// As `UlidFlake::try_generate`.
            #[allow(dead_code)]
            pub fn try_generate() -> ::core::result::Result<Self, $crate::Error> {
                $crate::UlidFlake::try_generate().map(Self)
            }

            /// A new key from the process-wide default generator, without an error to
            /// handle, as `UlidFlake::new`.
            ///
            /// # Panics
            ///
            /// As `UlidFlake::new`.
            #[allow(dead_code, clippy::new_without_default)]
            pub fn new() -> Self {
                Self($crate::UlidFlake::new())
            }
        }
    };
}

/// Without `std` there is no generator.
#[cfg(not(feature = "std"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_std {
    ($name:ident) => {};
}

/// `newtype!`'s part that needs `tokio`: `generate_async()`.
#[cfg(feature = "tokio")]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_tokio {
    ($name:ident) => {
        impl $name {
            /// A new key from the process-wide default generator, waiting on the tokio timer,
            /// as `UlidFlake::generate_async`.
            ///
            /// # Errors
            ///
            /// As `UlidFlake::generate`.
            #[allow(dead_code)]
            pub async fn generate_async() -> ::core::result::Result<Self, $crate::Error> {
                $crate::UlidFlake::generate_async().await.map(Self)
            }
        }
    };
}

/// Without `tokio` there is no async wait.
#[cfg(not(feature = "tokio"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_tokio {
    ($name:ident) => {};
}

/// The compile error of an invalid [`ulid_flake!`] literal, built by a `const fn` into a fixed
/// buffer: a panic in a constant can show a `&str` but cannot format. The text is
/// `invalid Ulid-Flake literal {literal}: {error}`, the error worded exactly as its `Display`;
/// a literal too long for the buffer is cut short with `...`.
///
/// Not public API: the macro's helper.
#[doc(hidden)]
pub struct LiteralError {
    buf: [u8; Self::CAPACITY],
    len: usize,
}

impl LiteralError {
    /// The buffer's size: room for the longest error message and a literal of about 100
    /// bytes.
    const CAPACITY: usize = 320;
    /// The longest part of the literal that is shown.
    const LITERAL_MAX: usize = 100;

    /// The message for `literal` (as written, quotes included) failing with `error`.
    pub const fn new(literal: &str, error: crate::error::Error) -> Self {
        use crate::error::Error;

        let mut message = Self {
            buf: [0; Self::CAPACITY],
            len: 0,
        };
        message.push_str("invalid Ulid-Flake literal ");
        let literal = literal.as_bytes();
        if literal.len() <= Self::LITERAL_MAX {
            message.push_bytes(literal);
        } else {
            // Cut on a character boundary, so that the buffer stays UTF-8.
            let mut end = Self::LITERAL_MAX;
            while literal[end] & 0b1100_0000 == 0b1000_0000 {
                end -= 1;
            }
            message.push_bytes(literal.split_at(end).0);
            message.push_str("...");
        }
        message.push_str(": ");
        match error {
            Error::InvalidLength { found, prefix } => {
                message.push_str("invalid length: expected ");
                message.push_u128(crate::layout::ENCODED_LEN as u128);
                message.push_str(" ASCII characters");
                if !prefix.is_empty() {
                    message.push_str(" after `");
                    message.push_str(prefix);
                    message.push_str("_`");
                }
                message.push_str(", found ");
                message.push_u128(found as u128);
                message.push_str(if found == 1 { " byte" } else { " bytes" });
            }
            Error::InvalidCharacter { index, found } => {
                message.push_str("invalid character ");
                if found.is_ascii() {
                    message.push_str("'");
                    message.push_escaped(found);
                    message.push_str("'");
                } else {
                    message.push_str("(non-ASCII byte 0x");
                    message.push_hex(found, true);
                    message.push_str(")");
                }
                message.push_str(" at index ");
                message.push_u128(index as u128);
                message.push_str(
                    ": expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either \
                     case)",
                );
            }
            Error::OutOfRange { found } => {
                message.push_str("value out of range: expected 0..=");
                message.push_u128(i64::MAX as u128);
                message.push_str(", found ");
                if found < 0 {
                    message.push_str("-");
                }
                message.push_u128(found.unsigned_abs());
                if let Some(first) = Error::first_base32_character(found) {
                    message.push_str(" (in Base32 text: expected a first character 0-7, found ");
                    message.push_escaped(first);
                    message.push_str(")");
                }
            }
            // `parse_str`'s is for a type without a prefix: `expected` is empty, and the
            // prefix found ends in a `_` within 32 bytes.
            Error::WrongPrefix {
                found, found_len, ..
            } => {
                message.push_str("wrong prefix: expected none (the bare 13 characters), found `");
                let len = found_len as usize;
                let mut index = 0;
                while index < len && index < Error::FOUND_PREFIX_BYTES {
                    message.push_ascii_escaped(found[index]);
                    index += 1;
                }
                if len > Error::FOUND_PREFIX_BYTES {
                    message.push_str("…` (");
                    message.push_u128(len as u128);
                    message.push_str(" bytes)");
                } else {
                    message.push_str("`");
                }
            }
            // `parse_str` returns no other error.
            _ => message.push_str("not a Ulid-Flake"),
        }
        message
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(text) => text,
            Err(_) => "invalid Ulid-Flake literal",
        }
    }

    const fn push_bytes(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() && self.len < Self::CAPACITY {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
    }

    const fn push_str(&mut self, text: &str) {
        self.push_bytes(text.as_bytes());
    }

    const fn push_u128(&mut self, mut value: u128) {
        let mut digits = [0u8; 39];
        let mut start = digits.len();
        loop {
            start -= 1;
            digits[start] = b'0' + (value % 10) as u8;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        self.push_bytes(digits.split_at(start).1);
    }

    /// `byte` in hexadecimal: two upper-case digits, or lower-case ones without leading zeros.
    const fn push_hex(&mut self, byte: u8, padded_upper: bool) {
        const UPPER: &[u8; 16] = b"0123456789ABCDEF";
        if padded_upper {
            self.push_bytes(&[UPPER[(byte >> 4) as usize], UPPER[(byte & 0xF) as usize]]);
        } else if byte >= 0x10 {
            self.push_bytes(&[
                HEX_LOWER[(byte >> 4) as usize],
                HEX_LOWER[(byte & 0xF) as usize],
            ]);
        } else {
            self.push_bytes(&[HEX_LOWER[byte as usize]]);
        }
    }

    /// A byte as `<[u8]>::escape_ascii` writes it.
    const fn push_ascii_escaped(&mut self, byte: u8) {
        match byte {
            b'\t' => self.push_str("\\t"),
            b'\r' => self.push_str("\\r"),
            b'\n' => self.push_str("\\n"),
            b'\\' | b'\'' | b'"' => self.push_bytes(&[b'\\', byte]),
            0x20..=0x7E => self.push_bytes(&[byte]),
            _ => {
                self.push_str("\\x");
                self.push_bytes(&[
                    HEX_LOWER[(byte >> 4) as usize],
                    HEX_LOWER[(byte & 0xF) as usize],
                ]);
            }
        }
    }

    /// An ASCII byte as `char::escape_debug` writes it: as `escape_ascii`, but for `\0` and
    /// the other control bytes.
    const fn push_escaped(&mut self, byte: u8) {
        match byte {
            b'\0' => self.push_str("\\0"),
            b'\t' | b'\r' | b'\n' | 0x20..=0x7E => self.push_ascii_escaped(byte),
            _ => {
                self.push_str("\\u{");
                self.push_hex(byte, false);
                self.push_str("}");
            }
        }
    }
}

/// Lower-case hexadecimal digits.
const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use alloc::format;
    use alloc::string::String;

    use super::LiteralError;
    use crate::error::Error;
    use crate::ulid_flake::UlidFlake;

    /// The message of `literal`, which must be invalid.
    fn message(literal: &str) -> String {
        let text = literal.trim_matches('"');
        let error = UlidFlake::parse_str(text).unwrap_err();
        LiteralError::new(literal, error).as_str().into()
    }

    #[test]
    fn the_message_names_the_character_and_its_index() {
        assert_eq!(
            message("\"00CMXB6TAK4SI\""),
            "invalid Ulid-Flake literal \"00CMXB6TAK4SI\": invalid character 'I' at index 12: \
             expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)"
        );
        assert_eq!(
            message("\"0U0000000000A\""),
            "invalid Ulid-Flake literal \"0U0000000000A\": invalid character 'U' at index 1: \
             expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)"
        );
    }

    #[test]
    fn the_message_names_a_value_out_of_range() {
        assert_eq!(
            message("\"8000000000000\""),
            "invalid Ulid-Flake literal \"8000000000000\": value out of range: expected \
             0..=9223372036854775807, found 9223372036854775808 (in Base32 text: expected a first character 0-7, found 8)"
        );
    }

    #[test]
    fn the_message_names_a_prefix_where_none_belongs() {
        assert_eq!(
            message("\"user_00CMXB6TAK4SA\""),
            "invalid Ulid-Flake literal \"user_00CMXB6TAK4SA\": wrong prefix: expected none \
             (the bare 13 characters), found `user_`"
        );
    }

    #[test]
    fn the_message_names_the_wrong_length() {
        assert_eq!(
            message("\"00CMXB6TAK4S\""),
            "invalid Ulid-Flake literal \"00CMXB6TAK4S\": invalid length: expected 13 ASCII \
             characters, found 12 bytes"
        );
    }

    #[test]
    fn the_message_is_the_errors_display() {
        let mut errors = alloc::vec![
            Error::InvalidLength {
                found: 0,
                prefix: ""
            },
            Error::InvalidLength {
                found: 1,
                prefix: ""
            },
            Error::InvalidLength {
                found: usize::MAX,
                prefix: ""
            },
            Error::InvalidLength {
                found: 12,
                prefix: "user"
            },
            Error::OutOfRange { found: i128::MAX },
            Error::OutOfRange { found: i128::MIN },
            Error::OutOfRange { found: 0 },
            Error::OutOfRange {
                found: i128::from(i64::MAX) + 1,
            },
        ];
        for found in 0..=u8::MAX {
            errors.push(Error::InvalidCharacter { index: 7, found });
            errors.push(Error::wrong_prefix("", &[b'a', found, b'\t', b'_', b'0']));
        }
        for text in [
            "user_00CMXB6TAK4SA",
            "x_",
            "a_b_0",
            "organization_member_00CMXB6TAK4SA",
        ] {
            errors.push(Error::wrong_prefix("", text.as_bytes()));
        }
        for error in errors {
            let literal = "\"x\"";
            assert_eq!(
                LiteralError::new(literal, error).as_str(),
                format!("invalid Ulid-Flake literal {literal}: {error}")
            );
        }
    }

    #[test]
    fn a_long_literal_is_cut_on_a_character_boundary() {
        let literal = format!("\"{}\"", "é".repeat(200));
        let error = UlidFlake::parse_str(&literal).unwrap_err();
        let message = LiteralError::new(&literal, error);
        let shown = &literal[..99];
        assert_eq!(
            message.as_str(),
            format!("invalid Ulid-Flake literal {shown}...: {error}")
        );
    }
}

/// A `tracing` event under `target` when the `tracing` feature is on; nothing otherwise.
#[cfg(feature = "std")]
macro_rules! event {
    ($target:literal, $level:ident, $($field:tt)*) => {
        #[cfg(feature = "tracing01")]
        tracing::$level!(target: $target, $($field)*);
    };
}
#[cfg(feature = "std")]
pub(crate) use event;
