//! Reading one ID in any of its written forms: the canonical Base32 text, a decimal integer,
//! or `0x`-prefixed hexadecimal — and, for Base32, an entity prefix before it
//! (`user_00CMXB6TAK4SA`, as `ulid_flake_core::PrefixedId` writes it).
//!
//! The Base32 text is parsed by the library itself, so its errors (and their wording) are the
//! library's. The integer forms are checked here for syntax and 64-bit overflow; the range of
//! a valid ID by the library (`UlidFlake::from_u64`), whose message, for a number, leaves out
//! its reading as Base32 text.

use std::fmt;

use clap::ValueEnum;
use ulid_flake_core::{ENCODED_LEN, Error, UlidFlake};

/// Which form an input is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Form {
    /// Guess from the text: a leading - is a (negative, so refused) integer; exactly 13
    /// characters are Base32, whatever they are (digits, or 0x and 11 more: then with a
    /// warning); otherwise a 0x or 0X prefix is hex, digits are an integer, and anything else
    /// is Base32.
    Auto,
    /// The canonical 13-character Crockford Base32 text, in either case.
    Base32,
    /// A decimal integer, 0..=9223372036854775807.
    Integer,
    /// Hexadecimal digits, in either case, with or without a 0x prefix.
    Hex,
}

/// Why an input is not an ID.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum InputError {
    /// The library rejected the text or the value.
    Id(Error),
    /// Thirteen decimal digits, read as Base32 (as `--from auto` does) and rejected: the
    /// user may have meant a decimal integer, so the message says how to get that reading.
    AmbiguousDigits(Error),
    /// A byte that is not a digit of the integer form (`radix` 10 or 16) at a 0-based index.
    InvalidDigit {
        /// The 0-based byte index, counted from the start of the input.
        index: usize,
        /// The offending byte.
        found: u8,
        /// 10 or 16.
        radix: u32,
    },
    /// A sign or prefix with no digits after it (`-`, `0x`), or an empty integer.
    NoDigits {
        /// 10 or 16.
        radix: u32,
    },
    /// An integer that does not even fit 64 bits, so the library cannot be asked about it.
    TooLarge,
    /// A decimal or hexadecimal integer outside `0..=i64::MAX`: negative (`-0` too, which no
    /// ID is written as), or from 2^63.
    IntegerOutOfRange {
        /// The value as written: its sign and magnitude.
        negative: bool,
        /// The magnitude.
        magnitude: u64,
    },
    /// Text with a `_` whose part before it is no entity prefix (`User_…`); the library
    /// reads it as a prefix where none belongs ([`Error::WrongPrefix`]).
    InvalidPrefix {
        /// The part up to and including the `_`, escaped.
        found: String,
    },
    /// An input that `--from auto` can read in no form: not 13 characters (Base32), and
    /// neither `0x` and hex digits, nor decimal digits with an optional leading `-`. The
    /// library's length error would name Base32 alone, and blame the length of what may be
    /// a number with a stray character.
    NoForm {
        /// The input's first bytes, escaped (see [`quoted`]).
        found: String,
        /// The input's length in bytes.
        bytes: usize,
    },
    /// A prefixed input whose part after the prefix is not 13 bytes long: the library's
    /// `Error::InvalidLength`, which names a type's prefix, where this one is the input's.
    LengthAfterPrefix {
        /// The input's prefix, without the `_`.
        prefix: String,
        /// The length of the part after the prefix and `_`, in bytes.
        found: usize,
    },
    /// A prefixed ID of another entity than `convert --prefix` names: writing it with that
    /// prefix would turn one entity's ID into another's.
    WrongPrefix {
        /// The prefix `--prefix` names, without the `_`.
        expected: String,
        /// The input's prefix, up to and including the `_` (as in `InvalidPrefix`).
        found: String,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Id(error) => error.fmt(f),
            Self::AmbiguousDigits(error) => write!(
                f,
                "{error} (13 characters are read as Base32; pass --from integer to read a \
                 decimal number)"
            ),
            Self::InvalidDigit {
                index,
                found,
                radix,
            } => {
                f.write_str("invalid character ")?;
                if found.is_ascii() {
                    write!(f, "'{}'", (found as char).escape_debug())?;
                } else {
                    write!(f, "(non-ASCII byte 0x{found:02X})")?;
                }
                write!(f, " at index {index}: expected {}", digit_name(radix))
            }
            Self::NoDigits { radix } => {
                write!(f, "no digits: expected {}, found none", digit_name(radix))
            }
            Self::TooLarge => write!(
                f,
                "value out of range: expected 0..={}, found a number above 64 bits",
                i64::MAX
            ),
            Self::IntegerOutOfRange {
                negative,
                magnitude,
            } => write!(
                f,
                "value out of range: expected 0..={}, found {}{magnitude}",
                i64::MAX,
                if negative { "-" } else { "" }
            ),
            Self::NoForm { ref found, bytes } => {
                let plural = if bytes == 1 { "" } else { "s" };
                write!(
                    f,
                    "no ID form fits: expected {ENCODED_LEN} Base32 characters, a decimal \
                     integer or 0x and hexadecimal digits, found `{found}` ({bytes} byte{plural})"
                )
            }
            Self::LengthAfterPrefix { ref prefix, found } => {
                let plural = if found == 1 { "" } else { "s" };
                write!(
                    f,
                    "invalid length: expected {ENCODED_LEN} ASCII characters after `{prefix}_`, \
                     found {found} byte{plural}"
                )
            }
            Self::InvalidPrefix { ref found } => write!(
                f,
                "invalid entity prefix: expected a lowercase ASCII letter, then up to 30 \
                 lowercase letters and digits, then `_`, or no prefix, found `{found}`"
            ),
            Self::WrongPrefix {
                ref expected,
                ref found,
            } => write!(
                f,
                "wrong prefix: expected `{expected}_` (--prefix) or none, found `{found}` \
                 (to relabel an ID on purpose, convert its bare form)"
            ),
        }
    }
}

impl InputError {
    /// Whether the input's length is what is wrong: then its length alone may not show why
    /// (a blank input, whitespace around it, a non-ASCII character of several bytes).
    pub(crate) fn is_about_length(&self) -> bool {
        matches!(
            self,
            Self::Id(Error::InvalidLength { .. })
                | Self::NoForm { .. }
                | Self::LengthAfterPrefix { .. }
        )
    }
}

/// The most bytes of an input that a message quotes; a longer input is cut.
const MAX_QUOTED_BYTES: usize = 32;

/// The start of `text` as a message quotes it: escaped (`\xC3`, `\n`), at most
/// [`MAX_QUOTED_BYTES`] bytes of it, and `…` when cut.
fn quoted(text: &[u8]) -> String {
    let start = &text[..text.len().min(MAX_QUOTED_BYTES)];
    let cut = if start.len() < text.len() { "…" } else { "" };
    format!("{}{cut}", start.escape_ascii())
}

/// How the digits of a radix are described in messages.
fn digit_name(radix: u32) -> &'static str {
    if radix == 16 {
        "a hexadecimal digit (0-9, A-F, in either case)"
    } else {
        "a decimal digit (0-9)"
    }
}

/// Parses one input, given as bytes so that a line that is not UTF-8 still gets a precise
/// message (the library names the offending byte).
pub(crate) fn parse(text: &[u8], form: Form) -> Result<UlidFlake, InputError> {
    match form {
        Form::Base32 => UlidFlake::parse_ascii(text).map_err(InputError::Id),
        Form::Integer => parse_integer(text),
        Form::Hex => match hex_prefix(text) {
            Some(digits) => parse_hex(digits, 2),
            None => parse_hex(text, 0),
        },
        Form::Auto => {
            if text.first() == Some(&b'-') {
                // Never Base32 (no `-` in the alphabet), whatever its length: a negative
                // integer, rejected with the library's out-of-range message rather than as a
                // bad character.
                parse_integer(text)
            } else if text.len() == ENCODED_LEN {
                // Base32, as the help says, even where another reading is possible: every
                // valid ID has a Base32 text of 13 characters, while only IDs of the first
                // hours after the epoch have 13 decimal digits, or `0x` and 11 hex digits.
                let ambiguous = text.iter().all(u8::is_ascii_digit);
                UlidFlake::parse_ascii(text).map_err(|error| {
                    if ambiguous {
                        InputError::AmbiguousDigits(error)
                    } else {
                        InputError::Id(error)
                    }
                })
            } else if let Some(digits) = hex_prefix(text) {
                parse_hex(digits, 2)
            } else if !text.is_empty() && text.iter().all(u8::is_ascii_digit) {
                parse_integer(text)
            } else {
                UlidFlake::parse_ascii(text).map_err(|error| match error {
                    Error::InvalidLength { found, .. } => InputError::NoForm {
                        found: quoted(text),
                        bytes: found,
                    },
                    error => InputError::Id(error),
                })
            }
        }
    }
}

/// For an input that `--from auto` reads as Base32 and that is also another form's text, that
/// form: 13 decimal digits are an integer's, `0x` and 11 hex digits a hex number's — what
/// `--to integer` and `--to hex` write for the IDs made in the first hours after their epoch
/// (13 digits: about 16 minutes to 2.1 hours after it; `0x` and 11: about 17 minutes to 4.7
/// hours), which a custom epoch set shortly before makes common.
///
/// Nothing when that reading is the same ID (`0000000000000` is 0 either way) or no ID.
pub(crate) fn also_reads_as(text: &[u8], form: Form, id: UlidFlake) -> Option<Form> {
    if form != Form::Auto || text.len() != ENCODED_LEN {
        return None;
    }
    let other = if text.iter().all(u8::is_ascii_digit) {
        Form::Integer
    } else if hex_prefix(text).is_some() {
        Form::Hex
    } else {
        return None;
    };
    parse(text, other)
        .is_ok_and(|read| read != id)
        .then_some(other)
}

/// An ID and the entity prefix it was written with, if any (`user` in `user_00CMXB6TAK4SA`).
pub(crate) type Prefixed<'a> = (Option<&'a str>, UlidFlake);

/// Parses one input that may start with an entity prefix (`[a-z][a-z0-9]*_`, at most 31
/// characters: the core's `split_prefix`): with
/// `--from auto` or `base32`, such a prefix is split off and the rest must be the 13 Base32
/// characters (a prefixed ID is always text); errors then count indexes from the start of
/// the whole input. Integer and hex inputs have no prefix. With an `entity`, a prefix other
/// than it is an error: the ID is another entity's.
pub(crate) fn parse_prefixed<'a>(
    text: &'a [u8],
    form: Form,
    entity: Option<&str>,
) -> Result<Prefixed<'a>, InputError> {
    let split = match form {
        Form::Auto | Form::Base32 => ulid_flake_core::split_prefix(text),
        Form::Integer | Form::Hex => None,
    };
    let Some((prefix, rest)) = split else {
        return parse(text, form)
            .map(|id| (None, id))
            .map_err(|error| match error {
                InputError::Id(Error::WrongPrefix { found_len, .. }) => InputError::InvalidPrefix {
                    found: text[..usize::from(found_len)].escape_ascii().to_string(),
                },
                error => error,
            });
    };
    if let Some(entity) = entity.filter(|&entity| entity != prefix) {
        return Err(InputError::WrongPrefix {
            expected: entity.to_owned(),
            found: format!("{prefix}_"),
        });
    }
    let offset = prefix.len() + 1;
    match UlidFlake::parse_ascii(rest) {
        Ok(id) => Ok((Some(prefix), id)),
        Err(Error::InvalidCharacter { index, found }) => {
            Err(InputError::Id(Error::InvalidCharacter {
                index: index + offset,
                found,
            }))
        }
        // A `_` in the rest is no second prefix but part of a rest of the wrong length, as
        // the library reads it (`user__00CMXB6TAK4SA`: 14 bytes after `user_`).
        Err(Error::InvalidLength { .. } | Error::WrongPrefix { .. }) => {
            Err(InputError::LengthAfterPrefix {
                prefix: prefix.to_owned(),
                found: rest.len(),
            })
        }
        Err(error) => Err(InputError::Id(error)),
    }
}

/// The digits after a `0x` or `0X` prefix, if there is one.
fn hex_prefix(text: &[u8]) -> Option<&[u8]> {
    text.strip_prefix(b"0x")
        .or_else(|| text.strip_prefix(b"0X"))
}

/// A decimal integer, with an optional leading `-` so that a negative value is reported as
/// out of range.
fn parse_integer(text: &[u8]) -> Result<UlidFlake, InputError> {
    match text.strip_prefix(b"-") {
        Some(digits) => Err(InputError::IntegerOutOfRange {
            negative: true,
            magnitude: accumulate(digits, 10, 1)?,
        }),
        None => range_check(accumulate(text, 10, 0)?),
    }
}

/// Hexadecimal digits that start at byte `offset` of the input (after a prefix).
fn parse_hex(digits: &[u8], offset: usize) -> Result<UlidFlake, InputError> {
    range_check(accumulate(digits, 16, offset)?)
}

/// The ID with this value, range-checked by the library.
fn range_check(value: u64) -> Result<UlidFlake, InputError> {
    UlidFlake::from_u64(value).map_err(|_| InputError::IntegerOutOfRange {
        negative: false,
        magnitude: value,
    })
}

/// The value of `digits` in `radix`, checked for syntax and 64-bit overflow; `offset` is the
/// index of the first digit in the whole input, for messages.
fn accumulate(digits: &[u8], radix: u32, offset: usize) -> Result<u64, InputError> {
    if digits.is_empty() {
        return Err(InputError::NoDigits { radix });
    }
    let mut value: u64 = 0;
    let mut too_large = false;
    for (index, &byte) in digits.iter().enumerate() {
        let digit = char::from(byte)
            .to_digit(radix)
            .ok_or(InputError::InvalidDigit {
                index: offset + index,
                found: byte,
                radix,
            })?;
        // Keep scanning after an overflow: a bad character later on is the better message.
        match value
            .checked_mul(u64::from(radix))
            .and_then(|value| value.checked_add(u64::from(digit)))
        {
            Some(next) => value = next,
            None => too_large = true,
        }
    }
    if too_large {
        return Err(InputError::TooLarge);
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn auto(text: &str) -> Result<u64, InputError> {
        parse(text.as_bytes(), Form::Auto).map(UlidFlake::to_u64)
    }

    #[test]
    fn auto_detects_each_form() {
        assert_eq!(auto("00F5MFHSEYXCM"), Ok(17_086_945_199_879_572));
        assert_eq!(auto("00f5mfhseyxcm"), Ok(17_086_945_199_879_572));
        assert_eq!(auto("17086945199879572"), Ok(17_086_945_199_879_572));
        assert_eq!(auto("0x3CB47C72EF7594"), Ok(17_086_945_199_879_572));
        assert_eq!(auto("0X3cb47c72ef7594"), Ok(17_086_945_199_879_572));
        assert_eq!(auto("0"), Ok(0));
        // Thirteen digits are Base32: "0000000000010" is 32, not 10.
        assert_eq!(auto("0000000000010"), Ok(32));
        assert_eq!(
            parse(b"0000000000010", Form::Integer).map(UlidFlake::to_u64),
            Ok(10)
        );
    }

    #[test]
    fn explicit_forms() {
        assert_eq!(
            parse(b"3CB47C72EF7594", Form::Hex).map(UlidFlake::to_u64),
            Ok(0x003C_B47C_72EF_7594)
        );
        assert_eq!(
            parse(b"17086945199879572", Form::Base32),
            Err(InputError::Id(Error::InvalidLength {
                found: 17,
                prefix: ""
            }))
        );
        assert_eq!(
            parse(b"0x1", Form::Integer),
            Err(InputError::InvalidDigit {
                index: 1,
                found: b'x',
                radix: 10
            })
        );
    }

    #[test]
    fn rejects_with_precise_errors() {
        assert_eq!(
            auto("9223372036854775808"),
            Err(InputError::IntegerOutOfRange {
                negative: false,
                magnitude: 1 << 63
            })
        );
        assert_eq!(
            auto("0x8000000000000000"),
            Err(InputError::IntegerOutOfRange {
                negative: false,
                magnitude: 1 << 63
            })
        );
        assert_eq!(
            auto("-1"),
            Err(InputError::IntegerOutOfRange {
                negative: true,
                magnitude: 1
            })
        );
        // No ID is written as -0: refused, and said so.
        assert_eq!(
            auto("-0").unwrap_err().to_string(),
            "value out of range: expected 0..=9223372036854775807, found -0"
        );
        assert_eq!(auto("-"), Err(InputError::NoDigits { radix: 10 }));
        assert_eq!(auto("0x"), Err(InputError::NoDigits { radix: 16 }));
        assert_eq!(auto("18446744073709551616"), Err(InputError::TooLarge));
        assert_eq!(auto("0x10000000000000000"), Err(InputError::TooLarge));
        assert_eq!(
            auto("0x12G"),
            Err(InputError::InvalidDigit {
                index: 4,
                found: b'G',
                radix: 16
            })
        );
        assert_eq!(
            auto("9000000000000"),
            Err(InputError::AmbiguousDigits(Error::OutOfRange {
                found: 9 << 60
            }))
        );
        // No form fits: the length error names every form `auto` reads, not Base32 alone;
        // with `--from base32`, Base32 alone.
        assert_eq!(
            auto(""),
            Err(InputError::NoForm {
                found: String::new(),
                bytes: 0
            })
        );
        assert_eq!(
            auto("12a\n").unwrap_err().to_string(),
            "no ID form fits: expected 13 Base32 characters, a decimal integer or 0x and \
             hexadecimal digits, found `12a\\n` (4 bytes)"
        );
        // A leading `-` is no Base32 at any length: 13 characters too are a negative integer.
        assert_eq!(
            auto("-123456789012"),
            Err(InputError::IntegerOutOfRange {
                negative: true,
                magnitude: 123_456_789_012
            })
        );
        assert_eq!(
            parse(b"+5", Form::Base32),
            Err(InputError::Id(Error::InvalidLength {
                found: 2,
                prefix: ""
            }))
        );
    }

    #[test]
    fn thirteen_characters_are_base32_even_after_0x() {
        // `0X` and 11 Base32 characters: an ID (X is a Crockford digit), not hexadecimal.
        assert_eq!(
            UlidFlake::from_u64(1_044_835_113_549_955_072)
                .unwrap()
                .to_string(),
            "0X00000000000"
        );
        assert_eq!(auto("0X00000000000"), Ok(1_044_835_113_549_955_072));
        assert_eq!(auto("0x00000000000"), Ok(1_044_835_113_549_955_072));
        assert_eq!(
            auto("0X0001TK2F0K8"),
            Ok(UlidFlake::parse_str("0X0001TK2F0K8").unwrap().to_u64())
        );
        // Shorter or longer, `0x` is hexadecimal.
        assert_eq!(auto("0x10"), Ok(16));
    }

    #[test]
    fn entity_prefixes_are_split_off_base32_only() {
        let id = UlidFlake::parse_str("00CMXB6TAK4SA").unwrap();
        assert_eq!(
            parse_prefixed(b"user_00CMXB6TAK4SA", Form::Auto, None),
            Ok((Some("user"), id))
        );
        assert_eq!(
            parse_prefixed(b"a1_00cmxb6tak4sa", Form::Base32, None),
            Ok((Some("a1"), id))
        );
        assert_eq!(
            parse_prefixed(b"00CMXB6TAK4SA", Form::Auto, None),
            Ok((None, id))
        );
        // After a prefix, Base32 only, with indexes in the whole input.
        assert_eq!(
            parse_prefixed(b"user_14246757444195114", Form::Auto, None),
            Err(InputError::LengthAfterPrefix {
                prefix: "user".to_owned(),
                found: 17
            })
        );
        assert_eq!(
            parse_prefixed(b"user_00CMXB6TAK4SI", Form::Auto, None),
            Err(InputError::Id(Error::InvalidCharacter {
                index: 17,
                found: b'I'
            }))
        );
        // Not a prefix: uppercase, a leading digit, an empty one; and not for integers.
        for (text, found) in [
            ("User_00CMXB6TAK4SA", "User_"),
            ("1user_00CMXB6TAK4SA", "1user_"),
            ("_00CMXB6TAK4SA", "_"),
        ] {
            assert_eq!(
                parse_prefixed(text.as_bytes(), Form::Auto, None),
                Err(InputError::InvalidPrefix {
                    found: found.into()
                }),
                "{text}"
            );
        }
        assert!(matches!(
            parse_prefixed(b"user_1", Form::Integer, None),
            Err(InputError::InvalidDigit { index: 0, .. })
        ));
    }

    #[test]
    fn messages() {
        assert_eq!(
            auto("0x12G").unwrap_err().to_string(),
            "invalid character 'G' at index 4: expected a hexadecimal digit (0-9, A-F, in either case)"
        );
        assert_eq!(
            auto("9000000000000").unwrap_err().to_string(),
            "value out of range: expected 0..=9223372036854775807, found 10376293541461622784 \
             (in Base32 text: expected a first character 0-7, found 9) (13 characters are read \
             as Base32; pass --from integer to read a decimal number)"
        );
    }
}
