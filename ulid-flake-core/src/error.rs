//! The one error type of the crate.

use core::fmt;

use crate::fmt::ALPHABET;
use crate::layout::{ENCODED_LEN, MAX_EPOCH_UNIX_MS, MAX_TIMESTAMP};

/// Everything that can go wrong when parsing, converting or generating a Ulid-Flake.
///
/// Callers tell the kinds apart by matching on the variants, which carry the offending value
/// where there is one; each message says what was expected and what was found. A message
/// never repeats a whole input: a malformed string is described by its length or by the one
/// character that is wrong.
///
/// The type is `Copy` and holds no heap data, so it works without `alloc` and in `const`
/// contexts (the [`ulid_flake!`](crate::ulid_flake) macro relies on that).
///
/// Its `Debug` form is its message, as `Display` writes it: what `fn main() -> Result<(),
/// Error>` prints on failure, and what an `assert_eq!` on two errors shows. The variant's
/// fields are for matching.
///
/// ```
/// use ulid_flake_core::{Error, UlidFlake};
///
/// let err = "00CMXB6TAK4SI".parse::<UlidFlake>().unwrap_err();
/// assert_eq!(err, Error::InvalidCharacter { index: 12, found: b'I' });
/// assert_eq!(
///     err.to_string(),
///     "invalid character 'I' at index 12: expected a Crockford Base32 digit \
///      (0-9, A-Z without I, L, O, U, in either case)"
/// );
/// assert_eq!(format!("{err:?}"), err.to_string());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A text form did not have exactly 13 bytes (after the prefix and `_`, for a prefixed
    /// type's text).
    InvalidLength {
        /// The length of the input (after the prefix and `_`), in bytes.
        found: usize,
        /// The prefix the 13 characters follow, without the `_` (`"user"`); empty for a type
        /// without one.
        prefix: &'static str,
    },
    /// A text form held a byte outside the Crockford Base32 alphabet.
    InvalidCharacter {
        /// The 0-based byte index of the first offending byte.
        index: usize,
        /// The offending byte (the first byte of it, for a non-ASCII character).
        found: u8,
    },
    /// A value does not fit the 63 bits of a Ulid-Flake (negative, or above `i64::MAX`;
    /// for text, a first character above `7`).
    OutOfRange {
        /// The value that was found.
        found: i128,
    },
    /// A randomness field given to a constructor is wider than its layout allows.
    RandomnessOutOfRange {
        /// The randomness that was found.
        found: u32,
        /// The largest randomness of the layout (`2^20 - 1` or `2^15 - 1`).
        max: u32,
    },
    /// The randomness of the current millisecond is exhausted: no ID can be made in it
    /// without breaking the order. Wait for the next millisecond (the generator's
    /// `generate` and `generate_async` do that for you).
    Overflow {
        /// The millisecond, since the epoch, that is exhausted.
        timestamp_ms: u64,
    },
    /// The clock went backwards by more than the generator's rollback allowance.
    ClockMovedBackwards {
        /// How far back the clock is, in milliseconds, from the last ID's timestamp.
        by_ms: u64,
        /// The generator's allowance, in milliseconds.
        allowance_ms: u64,
    },
    /// A leased generator's scalability-id lease is not known to be valid now: it was lost,
    /// could not be confirmed in time, was released, is still being acquired, or belongs to
    /// the parent of this forked process. The generator issues no ID rather than one that
    /// another holder of the id may issue too; the lease re-acquires one by itself (see
    /// `ulid_flake_core::lease`).
    LeaseNotValid {
        /// The scalability id the generator last held (or was to hold).
        scalability_id: u8,
        /// The Unix millisecond from which the lease was no longer known to be valid, when it
        /// had been valid and ran out or was lost; `None` when it was never valid or was
        /// given up (released, or in a forked child).
        valid_until_unix_ms: Option<i64>,
    },
    /// A leased generator's lease is held, but this machine's wall clock, which stamps the
    /// IDs, was found further from the database's than the lease's margin allows (half of
    /// it: two replicas within that of one clock are within the margin of each other). The
    /// lease keeps its id renewed and issues IDs again once a renewal finds the clocks
    /// agreeing (see `ulid_flake_core::lease`).
    ClockSkew {
        /// The scalability id the lease holds.
        scalability_id: u8,
        /// How far this machine's wall clock was from the database's, in ms: positive when
        /// ahead, negative when behind (the middle of the interval the round trip allows).
        skew_ms: i64,
        /// The largest difference allowed, in ms.
        bound_ms: u64,
    },
    /// A moment lies before the epoch or more than `2^43 - 1` ms after it.
    TimestampOutOfRange {
        /// The moment, in milliseconds since the epoch (negative before it).
        found_ms: i128,
    },
    /// An epoch so late that IDs made from it could not be told in Unix milliseconds
    /// within 48 bits (after the year 10610).
    InvalidEpoch {
        /// The epoch that was found, in Unix milliseconds (negative before 1970).
        found_unix_ms: i128,
    },
    /// An entropy size outside `1..=3` bytes (stand-alone) or `1..=2` bytes (scalable).
    InvalidEntropySize {
        /// The entropy size that was found, in bytes.
        found: u8,
        /// The largest size the layout allows, in bytes.
        max: u8,
    },
    /// A generator's headroom (`GeneratorBuilder::headroom_bits`) as wide as its randomness
    /// field or wider: `0..=19` bits stand-alone, `0..=14` scalable.
    InvalidHeadroom {
        /// The headroom that was found, in bits.
        found: u8,
        /// The largest headroom the layout allows, in bits.
        max: u8,
    },
    /// A scalability id outside `0..=31`.
    InvalidScalabilityId {
        /// The id that was found.
        found: u64,
    },
    /// An environment variable held a value that is not what it must hold (a host name that
    /// is no `StatefulSet` pod name).
    InvalidEnvironmentVariable {
        /// The variable's name.
        name: &'static str,
        /// What the variable must hold.
        expected: &'static str,
    },
    /// An environment variable that configures the default generator held a bad value, which
    /// the error shows (up to [`Excerpt::CAPACITY`] bytes of it).
    InvalidEnvironmentValue {
        /// The variable's name.
        name: &'static str,
        /// What the variable must hold.
        expected: &'static str,
        /// The value found.
        found: Excerpt,
    },
    /// The process-wide default generator was configured after it had already been set up,
    /// by an earlier configuration or by a first use.
    DefaultGeneratorAlreadySet,
    /// The default generator's scalability id was given twice: by the environment variable
    /// and by a scalability-id lease, in either order.
    ScalabilityIdConfiguredTwice {
        /// The environment variable, `ULID_FLAKE_SCALABILITY_ID`.
        variable: &'static str,
    },
    /// The environment variable asks for one scalability id, and the default generator in
    /// place, or the one code installs, has another layout (or the default in place was built
    /// by a use before the variable was set).
    ScalabilityIdMismatch {
        /// The environment variable, `ULID_FLAKE_SCALABILITY_ID`.
        variable: &'static str,
        /// The scalability id the variable asks for.
        expected: u8,
        /// The scalability id of the default in place; `None` when it is stand-alone.
        found: Option<u8>,
    },
    /// A UUID that does not come from [`UlidFlake::to_uuid_v7`](crate::UlidFlake) with the
    /// given epoch.
    InvalidUuid {
        /// Which property of the UUID does not hold.
        expected: &'static str,
        /// What the UUID has in its place (`"version 4"`).
        found: &'static str,
    },
    /// An ID's or an epoch's moment lies beyond the last one a [`Moment`](crate::Moment) type
    /// can hold: `time`'s `OffsetDateTime` and `jiff`'s `Timestamp` stop in the year 9999,
    /// while the IDs of a late epoch reach the year 10889.
    DateTimeOutOfRange {
        /// The moment, in Unix milliseconds.
        found_unix_ms: i128,
        /// The last Unix millisecond the date-time type can hold.
        max_unix_ms: i128,
    },
    /// The text of a [`PrefixedId`](crate::PrefixedId) did not start with its entity's
    /// prefix and `_`: another prefix (`post_…` for a `user_…` ID), or none at all (no `_`
    /// in the text: an unprefixed ID, which a prefixed type rejects, or `user-…`).
    ///
    /// The found prefix is kept inline, so that the error stays `Copy` and heap-free: its
    /// first [`FOUND_PREFIX_BYTES`](Error::FOUND_PREFIX_BYTES) bytes and its length.
    WrongPrefix {
        /// The entity's prefix, without the `_` (`"user"`): its [`Prefix::PREFIX`](crate::Prefix::PREFIX);
        /// empty for a type without one, given text with a `_` and not 13 bytes long.
        expected: &'static str,
        /// The first bytes of the prefix that was found, up to and including its first `_`
        /// (`b"post_"`), zero-padded: the text is `&found[..found_len.min(16)]`.
        found: [u8; Error::FOUND_PREFIX_BYTES],
        /// The length of the found prefix with its `_`, in bytes (saturating at
        /// `u16::MAX`); 0 when the text has no `_`, that is no prefix.
        found_len: u16,
    },
}

impl Error {
    /// How many bytes of a wrong prefix [`Error::WrongPrefix`] keeps: enough for
    /// `organization_`, and few enough that the error is no larger than before it existed.
    pub const FOUND_PREFIX_BYTES: usize = 16;

    /// The first of the 13 Base32 characters of an [`Error::OutOfRange`] value above the
    /// range, when 13 characters hold it (below 2^65): `8`..=`Z`.
    pub(crate) const fn first_base32_character(found: i128) -> Option<u8> {
        if found > i64::MAX as i128 && found < 1 << 65 {
            Some(ALPHABET[(found >> 60) as usize])
        } else {
            None
        }
    }

    /// The [`Error::WrongPrefix`] for `text`, which does not start with `expected` and `_`
    /// (`expected` empty: a type without a prefix, given text with a `_`).
    #[cold]
    pub(crate) const fn wrong_prefix(expected: &'static str, text: &[u8]) -> Self {
        // The prefix found runs up to and including the first `_`; none without one.
        let mut found_len = 0;
        let mut index = 0;
        while index < text.len() {
            if text[index] == b'_' {
                found_len = index + 1;
                break;
            }
            index += 1;
        }
        let mut found = [0; Self::FOUND_PREFIX_BYTES];
        let mut kept = 0;
        while kept < found_len && kept < Self::FOUND_PREFIX_BYTES {
            found[kept] = text[kept];
            kept += 1;
        }
        Self::WrongPrefix {
            expected,
            found,
            found_len: if found_len > u16::MAX as usize {
                u16::MAX
            } else {
                found_len as u16
            },
        }
    }
}

/// The message: the derived form would print a wrong prefix as an array of bytes and a wrong
/// character as a number.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::InvalidLength { found, prefix } => {
                write!(f, "invalid length: expected {ENCODED_LEN} ASCII characters")?;
                if !prefix.is_empty() {
                    write!(f, " after `{prefix}_`")?;
                }
                let plural = if found == 1 { "" } else { "s" };
                write!(f, ", found {found} byte{plural}")
            }
            Self::InvalidCharacter { index, found } => {
                f.write_str("invalid character ")?;
                if found.is_ascii() {
                    write!(f, "'{}'", (found as char).escape_debug())?;
                } else {
                    write!(f, "(non-ASCII byte 0x{found:02X})")?;
                }
                write!(
                    f,
                    " at index {index}: expected a Crockford Base32 digit \
                     (0-9, A-Z without I, L, O, U, in either case)"
                )
            }
            Self::OutOfRange { found } => {
                write!(
                    f,
                    "value out of range: expected 0..={}, found {found}",
                    i64::MAX
                )?;
                // Above the range, the value's reading as Base32 text too: whoever wrote
                // `G000000000000` knows it by its first character, not as 2^64.
                match Self::first_base32_character(found) {
                    Some(first) => write!(
                        f,
                        " (in Base32 text: expected a first character 0-7, found {})",
                        char::from(first)
                    ),
                    None => Ok(()),
                }
            }
            Self::RandomnessOutOfRange { found, max } => write!(
                f,
                "randomness out of range: expected 0..={max}, found {found}"
            ),
            Self::Overflow { timestamp_ms } => {
                write!(
                    f,
                    "randomness overflow: expected an ID left in millisecond {timestamp_ms} \
                     since the epoch, found its randomness used up; "
                )?;
                f.write_str(if timestamp_ms < MAX_TIMESTAMP {
                    "call again in a later millisecond"
                } else {
                    "the format has no later millisecond (use a later epoch)"
                })
            }
            Self::ClockMovedBackwards {
                by_ms,
                allowance_ms,
            } => write!(
                f,
                "clock moved backwards: expected at most {allowance_ms} ms behind the last ID, \
                 found {by_ms} ms behind"
            ),
            Self::LeaseNotValid {
                scalability_id,
                valid_until_unix_ms: Some(until),
            } => write!(
                f,
                "scalability-id lease not valid: expected a lease on id {scalability_id} \
                 confirmed until after now, found it lost or unconfirmed since Unix ms {until}"
            ),
            Self::LeaseNotValid {
                scalability_id,
                valid_until_unix_ms: None,
            } => write!(
                f,
                "scalability-id lease not valid: expected a lease on id {scalability_id} \
                 confirmed until after now, found none (not acquired yet, given up, or held by \
                 the parent of this forked process)"
            ),
            Self::ClockSkew {
                scalability_id,
                skew_ms,
                bound_ms,
            } => write!(
                f,
                "clock skew: expected this machine's wall clock within {bound_ms} ms of the \
                 database's, found it {} ms {}; no ID under scalability id {scalability_id} \
                 until they agree",
                skew_ms.unsigned_abs(),
                if skew_ms < 0 { "behind" } else { "ahead" }
            ),
            Self::TimestampOutOfRange { found_ms } => {
                write!(
                    f,
                    "timestamp out of range: expected 0..={MAX_TIMESTAMP} ms since the epoch, \
                     found {found_ms} ms"
                )?;
                // A clock behind an epoch set in the future reads negative: say where it is.
                if found_ms < 0 {
                    f.write_str(" (before the epoch)")?;
                }
                Ok(())
            }
            Self::InvalidEpoch { found_unix_ms } => write!(
                f,
                "invalid epoch: expected 0..={} ms since 1970-01-01, found {found_unix_ms} ms",
                MAX_EPOCH_UNIX_MS
            ),
            Self::InvalidEntropySize { found, max } => write!(
                f,
                "invalid entropy size: expected 1..={max} bytes for this layout, found {found}"
            ),
            Self::InvalidHeadroom { found, max } => write!(
                f,
                "invalid headroom: expected 0..={max} bits for this layout, found {found}"
            ),
            Self::InvalidScalabilityId { found } => {
                write!(f, "invalid scalability id: expected 0..=31, found {found}")
            }
            Self::InvalidEnvironmentValue {
                name,
                expected,
                found,
            } => write!(
                f,
                "invalid environment variable {name}: expected {expected}, found {found}"
            ),
            Self::InvalidEnvironmentVariable { name, expected } => write!(
                f,
                "invalid environment variable {name}: expected {expected}, found another value"
            ),
            Self::DefaultGeneratorAlreadySet => f.write_str(
                "default generator already set: expected to configure it once, at start-up \
                 before the first ID made through it, found it configured (by \
                 set_default_generator, a lease's install_default, or init_from_env with \
                 ULID_FLAKE_SCALABILITY_ID set) or built by its first use (an ID, or \
                 default_generator())",
            ),
            Self::ScalabilityIdConfiguredTwice { variable } => write!(
                f,
                "scalability id configured twice: expected {variable} or a scalability-id \
                 lease, found both; where a lease assigns the id, unset {variable}"
            ),
            Self::ScalabilityIdMismatch {
                variable,
                expected,
                found,
            } => {
                write!(
                    f,
                    "default generator not the one {variable} asks for: expected scalability \
                     id {expected}, found "
                )?;
                match found {
                    Some(found) => write!(f, "scalability id {found}")?,
                    None => f.write_str("a stand-alone generator")?,
                }
                f.write_str(
                    " (build a default from code with GeneratorBuilder::layout_from_env, and \
                     set the variable before the first ID)",
                )
            }
            Self::InvalidUuid { expected, found } => write!(
                f,
                "not a UUID mapped from a Ulid-Flake: expected {expected}, found {found}"
            ),
            Self::DateTimeOutOfRange {
                found_unix_ms,
                max_unix_ms,
            } => write!(
                f,
                "moment out of range of the date-time type: expected at most Unix ms \
                 {max_unix_ms}, found Unix ms {found_unix_ms}"
            ),
            Self::WrongPrefix {
                expected,
                found,
                found_len,
            } => {
                if expected.is_empty() {
                    f.write_str("wrong prefix: expected none (the bare 13 characters), found ")?;
                } else {
                    write!(f, "wrong prefix: expected `{expected}_`, found ")?;
                }
                let len = usize::from(found_len);
                if len == 0 {
                    return f.write_str("none (no `_` in the text)");
                }
                let kept = &found[..len.min(Self::FOUND_PREFIX_BYTES)];
                write!(f, "`{}", kept.escape_ascii())?;
                if found_len == u16::MAX {
                    // The length saturated: the prefix may be longer.
                    write!(f, "…` ({len} bytes or more)")
                } else if len > Self::FOUND_PREFIX_BYTES {
                    write!(f, "…` ({len} bytes)")
                } else {
                    f.write_str("`")
                }
            }
        }
    }
}

impl core::error::Error for Error {}

/// The start of a text an error shows: up to [`Excerpt::CAPACITY`] bytes, cut on a character
/// boundary, kept inline so that [`Error`] stays `Copy` and needs no allocator. It displays
/// quoted and escaped, with `…` when cut.
///
/// ```
/// use ulid_flake_core::error::Excerpt;
///
/// assert_eq!(Excerpt::new("40").to_string(), r#""40""#);
/// assert_eq!(Excerpt::new(&"9".repeat(100)).to_string(), format!("\"{}\"…", "9".repeat(13)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Excerpt {
    bytes: [u8; Excerpt::CAPACITY],
    len: u8,
    cut: bool,
}

impl Excerpt {
    /// The most bytes kept.
    pub const CAPACITY: usize = 13;

    /// The start of `text`.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::error::Excerpt::new("web-3").as_str(), "web-3");
    /// ```
    pub fn new(text: &str) -> Self {
        let mut len = text.len().min(Self::CAPACITY);
        while !text.is_char_boundary(len) {
            len -= 1;
        }
        let mut bytes = [0; Self::CAPACITY];
        bytes[..len].copy_from_slice(&text.as_bytes()[..len]);
        Self {
            bytes,
            // At most CAPACITY: lossless.
            len: len as u8,
            cut: len < text.len(),
        }
    }

    /// The text kept.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::error::Excerpt::new("é").as_str(), "é");
    /// ```
    pub fn as_str(&self) -> &str {
        // Cut on a character boundary of a `str`: valid UTF-8.
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl fmt::Display for Excerpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())?;
        if self.cut {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Excerpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
