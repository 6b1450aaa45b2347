//! What every ID type is to the integrations: a [`UlidFlake`] under another type, with its own
//! text (13 characters, or a prefix, `_` and 13 characters). [`UlidFlake`], [`Id<T>`](Id),
//! [`PrefixedId<T>`](PrefixedId) and each `newtype!` key implement [`IdType`], and every
//! integration is written once, generic over it (`src/external/`).

use crate::error::Error;
use crate::id::Id;
use crate::layout::ENCODED_LEN;
use crate::ulid_flake::UlidFlake;

/// An ID type: a [`UlidFlake`] with a name and, perhaps, a prefix on its text.
///
/// Not public API: `newtype!` implements it; the integrations' macros are written against it.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an ID type",
    note = "an ID type is `UlidFlake`, `Id<T>`, `PrefixedId<T>` or a `newtype!` key"
)]
pub trait IdType: Copy {
    /// The prefix of the type's text, without the `_`; `None` for the bare 13 characters.
    const PREFIX: Option<&'static str>;

    /// The type's name, for the integrations that name a Rust type (SeaORM's `type_name`, a
    /// prefixed key's OpenAPI component).
    const NAME: &'static str;

    /// The ID of a Ulid-Flake.
    fn from_ulid_flake(value: UlidFlake) -> Self;

    /// The Ulid-Flake of the ID.
    fn to_ulid_flake(self) -> UlidFlake;

    /// The Ulid-Flake inside, borrowed: Diesel's `ToSql` must lend the value it binds.
    fn as_ulid_flake(&self) -> &UlidFlake;

    /// `ids` as the `UlidFlake`s they are, for the crate's own types (each
    /// `#[repr(transparent)]` over one), so that a batch writes them in place; `None` for a
    /// `newtype!` key, whose batch is converted one ID at a time. A batch takes only `ids`
    /// themselves: any other slice, and it converts.
    fn as_ulid_flakes(ids: &mut [Self]) -> Option<&mut [UlidFlake]> {
        let _ = ids;
        None
    }
}

impl IdType for UlidFlake {
    const PREFIX: Option<&'static str> = None;
    const NAME: &'static str = "UlidFlake";

    fn from_ulid_flake(value: UlidFlake) -> Self {
        value
    }

    fn to_ulid_flake(self) -> UlidFlake {
        self
    }

    fn as_ulid_flake(&self) -> &UlidFlake {
        self
    }

    fn as_ulid_flakes(ids: &mut [Self]) -> Option<&mut [UlidFlake]> {
        Some(ids)
    }
}

impl<T: ?Sized> IdType for Id<T> {
    const PREFIX: Option<&'static str> = None;
    const NAME: &'static str = "Id";

    fn from_ulid_flake(value: UlidFlake) -> Self {
        Self::from_ulid_flake(value)
    }

    fn to_ulid_flake(self) -> UlidFlake {
        self.to_ulid_flake()
    }

    fn as_ulid_flake(&self) -> &UlidFlake {
        &self.value
    }

    fn as_ulid_flakes(ids: &mut [Self]) -> Option<&mut [UlidFlake]> {
        // SAFETY: `Id<T>` is `#[repr(transparent)]` over a `UlidFlake` (its other field is a
        // `PhantomData`): the two slices have one layout, and every `UlidFlake` is an `Id<T>`.
        Some(unsafe { core::slice::from_raw_parts_mut(ids.as_mut_ptr().cast(), ids.len()) })
    }
}

/// The ID of a `BIGINT`; a negative value is an [`Error::OutOfRange`] that names it.
pub fn from_i64<I: IdType>(value: i64) -> Result<I, Error> {
    UlidFlake::from_i64(value).map(I::from_ulid_flake)
}

/// The `BIGINT` of an ID.
pub fn to_i64<I: IdType>(id: I) -> i64 {
    id.to_ulid_flake().to_i64()
}

/// Parses an ID's text, as its `FromStr` does: the 13 characters, after `prefix` and `_` when
/// there is a prefix. The index of a bad character counts from the start of the whole text.
///
/// # Errors
///
/// [`Error::WrongPrefix`] for a text that does not start with the prefix and `_`; the
/// parser's errors for the rest.
#[doc(hidden)]
pub fn parse_text<I: IdType>(text: &[u8]) -> Result<I, Error> {
    parse_prefixed(I::PREFIX, text).map(I::from_ulid_flake)
}

/// Parses `text` after `prefix` and `_`, if any. `const`, so that every ID type's `parse_str`
/// can be.
pub const fn parse_prefixed(prefix: Option<&'static str>, text: &[u8]) -> Result<UlidFlake, Error> {
    let Some(prefix) = prefix else {
        return UlidFlake::parse_ascii(text);
    };
    let head = prefix.len() + 1;
    if text.len() < head || text[prefix.len()] != b'_' || !starts_with(text, prefix.as_bytes()) {
        return Err(Error::wrong_prefix(prefix, text));
    }
    let (_, rest) = text.split_at(head);
    match UlidFlake::parse_bare(rest) {
        Err(Error::InvalidCharacter { index, found }) => Err(Error::InvalidCharacter {
            index: index + head,
            found,
        }),
        Err(Error::InvalidLength { found, .. }) => Err(Error::InvalidLength { found, prefix }),
        result => result,
    }
}

/// Whether `text` starts with `prefix` (`<[u8]>::starts_with`, which is not `const`).
const fn starts_with(text: &[u8], prefix: &[u8]) -> bool {
    if text.len() < prefix.len() {
        return false;
    }
    let mut index = 0;
    while index < prefix.len() {
        if text[index] != prefix[index] {
            return false;
        }
        index += 1;
    }
    true
}

/// Writes an ID's text into `buf` and returns it, without allocating: what its `Display`
/// writes. `buf` is the type's `encode` buffer: 13 bytes for an unprefixed type,
/// [`MAX_PREFIXED_LEN`](crate::MAX_PREFIXED_LEN) for a prefixed one.
///
/// # Panics
///
/// When `buf` is shorter than the text (no caller passes such a buffer).
#[doc(hidden)]
pub fn encode<I: IdType>(id: I, buf: &mut [u8]) -> &str {
    encode_prefixed(I::PREFIX, id.to_ulid_flake(), buf)
}

/// Writes `prefix`, `_` (if there is a prefix) and the 13 characters of `value` into `buf`.
pub(crate) fn encode_prefixed<'b>(
    prefix: Option<&'static str>,
    value: UlidFlake,
    buf: &'b mut [u8],
) -> &'b str {
    let prefix = prefix.map_or(&[][..], str::as_bytes);
    let head = if prefix.is_empty() {
        0
    } else {
        prefix.len() + 1
    };
    buf[..prefix.len()].copy_from_slice(prefix);
    if head > 0 {
        buf[prefix.len()] = b'_';
    }
    let body: &mut [u8; ENCODED_LEN] = (&mut buf[head..head + ENCODED_LEN])
        .try_into()
        .expect("a slice of 13 bytes");
    value.encode(body);
    // SAFETY: a prefix is checked to be ASCII before a type can carry it (`PrefixedId::PREFIX`,
    // `newtype!`'s constant), and `_` and the Base32 digits are ASCII: valid UTF-8.
    unsafe { core::str::from_utf8_unchecked(&buf[..head + ENCODED_LEN]) }
}

/// The integer forms, the readings and the time methods of an ID type, as [`UlidFlake`]'s:
/// `MIN`, `MAX`, `to_u64`, `to_i64`, `from_u64`, `from_i64`, `to_bytes`, `from_bytes`,
/// `from_parts`, `from_scalable_parts`, `ms_since_epoch`, `randomness`,
/// `scalable_randomness`, `scalability_id`, `unix_ms` (all
/// `const`), `to_moment`, `from_moment` and `range_for`; with this crate's `alloc`, `to_hex`,
/// `to_bin` and `From<_> for String` ([`__id_alloc_methods!`](crate::__id_alloc_methods)).
/// The type must have `const fn from_ulid_flake` and `const fn to_ulid_flake` of its own.
///
/// Not public API: `PrefixedId<T>` and `newtype!` keys take theirs from here (`Id<T>` has
/// them written out, with examples).
#[doc(hidden)]
#[macro_export]
macro_rules! __id_methods {
    ([$($generics:tt)*] $ty:ty) => {
        $crate::__id_alloc_methods!([$($generics)*] $ty);

        #[allow(dead_code)]
        impl<$($generics)*> $ty {
            /// The smallest ID, `0000000000000` after the prefix if any.
            pub const MIN: Self = Self::from_ulid_flake($crate::UlidFlake::MIN);

            /// The largest ID, `7ZZZZZZZZZZZZ` after the prefix if any.
            pub const MAX: Self = Self::from_ulid_flake($crate::UlidFlake::MAX);

            /// The integer value, `0..=i64::MAX`, as `UlidFlake::to_u64`.
            pub const fn to_u64(self) -> u64 {
                self.to_ulid_flake().to_u64()
            }

            /// The integer value as the non-negative `i64` an SQL `BIGINT` stores, as
            /// `UlidFlake::to_i64`.
            pub const fn to_i64(self) -> i64 {
                self.to_ulid_flake().to_i64()
            }

            /// The ID with this integer value, as `UlidFlake::from_u64`.
            ///
            /// # Errors
            ///
            /// `Error::OutOfRange` above `i64::MAX`.
            pub const fn from_u64(value: u64) -> ::core::result::Result<Self, $crate::Error> {
                match $crate::UlidFlake::from_u64(value) {
                    ::core::result::Result::Ok(value) => ::core::result::Result::Ok(Self::from_ulid_flake(value)),
                    ::core::result::Result::Err(error) => ::core::result::Result::Err(error),
                }
            }

            /// The ID with this `BIGINT` value, as `UlidFlake::from_i64`.
            ///
            /// # Errors
            ///
            /// `Error::OutOfRange` for a negative value.
            pub const fn from_i64(value: i64) -> ::core::result::Result<Self, $crate::Error> {
                match $crate::UlidFlake::from_i64(value) {
                    ::core::result::Result::Ok(value) => ::core::result::Result::Ok(Self::from_ulid_flake(value)),
                    ::core::result::Result::Err(error) => ::core::result::Result::Err(error),
                }
            }

            /// The 8-byte big-endian form, as `UlidFlake::to_bytes`: no prefix (only text
            /// has one).
            pub const fn to_bytes(self) -> [u8; 8] {
                self.to_ulid_flake().to_bytes()
            }

            /// The ID of an 8-byte big-endian form, as `UlidFlake::from_bytes`.
            ///
            /// # Errors
            ///
            /// `Error::OutOfRange` when the top bit is set.
            pub const fn from_bytes(bytes: [u8; 8]) -> ::core::result::Result<Self, $crate::Error> {
                match $crate::UlidFlake::from_bytes(bytes) {
                    ::core::result::Result::Ok(value) => ::core::result::Result::Ok(Self::from_ulid_flake(value)),
                    ::core::result::Result::Err(error) => ::core::result::Result::Err(error),
                }
            }

            /// The stand-alone ID with this timestamp and 20-bit randomness, as
            /// `UlidFlake::from_parts`.
            ///
            /// # Errors
            ///
            /// As `UlidFlake::from_parts`.
            pub const fn from_parts(
                ms_since_epoch: u64,
                randomness: u32,
            ) -> ::core::result::Result<Self, $crate::Error> {
                match $crate::UlidFlake::from_parts(ms_since_epoch, randomness) {
                    ::core::result::Result::Ok(value) => ::core::result::Result::Ok(Self::from_ulid_flake(value)),
                    ::core::result::Result::Err(error) => ::core::result::Result::Err(error),
                }
            }

            /// The scalable ID with this timestamp, 15-bit randomness and scalability id, as
            /// `UlidFlake::from_scalable_parts`.
            ///
            /// # Errors
            ///
            /// As `UlidFlake::from_scalable_parts`.
            pub const fn from_scalable_parts(
                ms_since_epoch: u64,
                randomness: u16,
                scalability_id: u8,
            ) -> ::core::result::Result<Self, $crate::Error> {
                match $crate::UlidFlake::from_scalable_parts(ms_since_epoch, randomness, scalability_id) {
                    ::core::result::Result::Ok(value) => ::core::result::Result::Ok(Self::from_ulid_flake(value)),
                    ::core::result::Result::Err(error) => ::core::result::Result::Err(error),
                }
            }

            /// Milliseconds since the epoch, as `UlidFlake::ms_since_epoch`.
            pub const fn ms_since_epoch(self) -> u64 {
                self.to_ulid_flake().ms_since_epoch()
            }

            /// The 20-bit randomness of the stand-alone layout, as `UlidFlake::randomness`.
            pub const fn randomness(self) -> u32 {
                self.to_ulid_flake().randomness()
            }

            /// The 15-bit randomness of the scalable layout, as
            /// `UlidFlake::scalable_randomness`.
            pub const fn scalable_randomness(self) -> u16 {
                self.to_ulid_flake().scalable_randomness()
            }

            /// The scalability id of the scalable layout, as `UlidFlake::scalability_id`.
            pub const fn scalability_id(self) -> u8 {
                self.to_ulid_flake().scalability_id()
            }

            /// The moment of the ID in Unix milliseconds, given the epoch it was made with,
            /// as `UlidFlake::unix_ms`.
            pub const fn unix_ms(self, epoch: $crate::Epoch) -> u64 {
                self.to_ulid_flake().unix_ms(epoch)
            }

            /// The moment of the ID as a `Moment` (`SystemTime`, `UnixMs`, a chrono, time or
            /// jiff moment), given the epoch it was made with, as `UlidFlake::to_moment`.
            ///
            /// # Errors
            ///
            /// As `UlidFlake::to_moment`.
            pub fn to_moment<M: $crate::Moment>(
                self,
                epoch: $crate::Epoch,
            ) -> ::core::result::Result<M, $crate::Error> {
                self.to_ulid_flake().to_moment(epoch)
            }

            /// The ID of a moment with the given 20-bit randomness, as
            /// `UlidFlake::from_moment`.
            ///
            /// # Errors
            ///
            /// As `UlidFlake::from_moment`.
            pub fn from_moment<M: $crate::Moment>(
                epoch: $crate::Epoch,
                moment: M,
                randomness: u32,
            ) -> ::core::result::Result<Self, $crate::Error> {
                $crate::UlidFlake::from_moment(epoch, moment, randomness).map(Self::from_ulid_flake)
            }

            /// The inclusive bounds `(lowest, highest)` of the IDs made during a window of
            /// moments, as `UlidFlake::range_for`; `None` when no ID can fall in it.
            pub fn range_for<M: $crate::Moment>(
                epoch: $crate::Epoch,
                window: ::core::ops::Range<M>,
            ) -> ::core::option::Option<(Self, Self)> {
                match $crate::UlidFlake::range_for(epoch, window) {
                    ::core::option::Option::Some((lowest, highest)) => ::core::option::Option::Some((
                        Self::from_ulid_flake(lowest),
                        Self::from_ulid_flake(highest),
                    )),
                    ::core::option::Option::None => ::core::option::Option::None,
                }
            }
        }
    };
}

/// `to_hex`, `to_bin` and `From<_> for String` of an ID type, as [`Id<T>`](Id)'s, where this
/// crate has `alloc`; nothing where it has not (a `cfg` inside [`__id_methods!`] would test
/// the features of the crate that calls `newtype!`, not this one's).
///
/// Not public API.
#[cfg(feature = "alloc")]
#[doc(hidden)]
#[macro_export]
macro_rules! __id_alloc_methods {
    ([$($generics:tt)*] $ty:ty) => {
        #[allow(dead_code)]
        impl<$($generics)*> $ty {
            /// The hexadecimal form of the integer: `0x` and uppercase digits, without
            /// padding (and without a prefix), as `UlidFlake::to_hex`.
            pub fn to_hex(self) -> $crate::__private::String {
                self.to_ulid_flake().to_hex()
            }

            /// The binary form of the integer: `0b` and the digits, without padding, as
            /// `UlidFlake::to_bin`.
            pub fn to_bin(self) -> $crate::__private::String {
                self.to_ulid_flake().to_bin()
            }
        }

        impl<$($generics)*> ::core::convert::From<$ty> for $crate::__private::String {
            /// The ID's text, as `to_string` gives it.
            fn from(id: $ty) -> Self {
                $crate::__private::id_text(id)
            }
        }
    };
}

/// Without `alloc`: no method that returns a `String`.
#[cfg(not(feature = "alloc"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __id_alloc_methods {
    ([$($generics:tt)*] $ty:ty) => {};
}

/// The text of `id`, as `Display` writes it.
#[cfg(feature = "alloc")]
pub fn id_text<I: IdType>(id: I) -> alloc::string::String {
    let mut buf = [0; crate::layout::MAX_PREFIXED_LEN];
    encode(id, &mut buf).into()
}
