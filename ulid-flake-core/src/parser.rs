//! Parsing the canonical Base32 text.

use core::str::FromStr;

use crate::error::Error;
use crate::fmt::ALPHABET;
use crate::layout::{ENCODED_LEN, MAX_PREFIXED_LEN};
use crate::ulid_flake::UlidFlake;

/// Marks a byte that is no Base32 digit in [`DIGIT_VALUES`].
const NOT_A_DIGIT: u8 = 0xFF;

/// The value of every byte as a Base32 digit: the alphabet in upper- and lower-case, and
/// [`NOT_A_DIGIT`] for every other byte — Crockford's aliases `I`, `L`, `O` (and `U`)
/// included, as the specification asks.
const DIGIT_VALUES: [u8; 256] = {
    let mut table = [NOT_A_DIGIT; 256];
    let mut value = 0;
    while value < ALPHABET.len() {
        let digit = ALPHABET[value];
        table[digit as usize] = value as u8;
        table[digit.to_ascii_lowercase() as usize] = value as u8;
        value += 1;
    }
    table
};

impl UlidFlake {
    /// Parses the canonical text: exactly 13 Crockford Base32 characters in either case, the
    /// first `0` to `7`. Usable in `const` contexts (see [`ulid_flake!`](crate::ulid_flake)).
    ///
    /// # Errors
    ///
    /// In the order checked: [`Error::InvalidLength`] for any length but 13 bytes (checked
    /// first, so a huge input is rejected at once), or [`Error::WrongPrefix`] when that text
    /// has a `_` where a prefix ends (a prefixed ID's, `user_…`, which its `PrefixedId`
    /// parses); [`Error::InvalidCharacter`] for the first
    /// byte outside the alphabet; [`Error::OutOfRange`] for a first character above `7`,
    /// which would need a 64th bit — never wrapped around.
    ///
    /// ```
    /// use ulid_flake_core::{Error, UlidFlake};
    ///
    /// assert_eq!(UlidFlake::parse_str("00cmxb6tak4sa")?.to_string(), "00CMXB6TAK4SA");
    /// assert_eq!(UlidFlake::parse_str("00CMXB6TAK4S"), Err(Error::InvalidLength { found: 12, prefix: "" }));
    /// assert_eq!(
    ///     UlidFlake::parse_str("user_00CMXB6TAK4SA").unwrap_err().to_string(),
    ///     "wrong prefix: expected none (the bare 13 characters), found `user_`"
    /// );
    /// assert_eq!(
    ///     UlidFlake::parse_str("G000000000000"),
    ///     Err(Error::OutOfRange { found: 16 << 60 })
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub const fn parse_str(text: &str) -> Result<Self, Error> {
        Self::parse_ascii(text.as_bytes())
    }

    /// Parses the canonical text from bytes, as [`UlidFlake::parse_str`] does.
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::parse_str`].
    ///
    /// ```
    /// use ulid_flake_core::{Error, UlidFlake};
    ///
    /// assert_eq!(UlidFlake::parse_ascii(b"7ZZZZZZZZZZZZ"), Ok(UlidFlake::MAX));
    /// assert_eq!(
    ///     UlidFlake::parse_ascii(b"00CMXB6TAK4S\xFF"),
    ///     Err(Error::InvalidCharacter { index: 12, found: 0xFF })
    /// );
    /// ```
    pub const fn parse_ascii(bytes: &[u8]) -> Result<Self, Error> {
        match Self::parse_bare(bytes) {
            Err(Error::InvalidLength { .. }) => Err(length_error(bytes)),
            result => result,
        }
    }

    /// [`UlidFlake::parse_ascii`] but for its prefix hint: the 13 characters after a
    /// prefix, whose length error is theirs. Inlined into `parse_ascii`, whose valid text
    /// then costs what it did before the hint (a call here cost 0.3 ns of 14.7, criterion's
    /// `parse (validating)`, three alternated runs).
    #[inline(always)]
    pub(crate) const fn parse_bare(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != ENCODED_LEN {
            return Err(Error::InvalidLength {
                found: bytes.len(),
                prefix: "",
            });
        }
        // As an array, the indexing below needs no bounds checks.
        let Some(bytes) = bytes.first_chunk::<ENCODED_LEN>() else {
            unreachable!()
        };
        // Branch-free over the digits: OR every table value together — NOT_A_DIGIT's top bit
        // survives the OR, so one test after the loop tells whether any byte was bad; only
        // then is the position looked for. Each digit's bits are placed by their own shift
        // and ORed in two accumulators, so the digits do not wait on each other.
        let first = DIGIT_VALUES[bytes[0] as usize];
        let mut seen = first;
        let mut even: u64 = 0;
        let mut odd: u64 = 0;
        let mut index = 1;
        while index < ENCODED_LEN {
            let digit = DIGIT_VALUES[bytes[index] as usize];
            seen |= digit;
            let bits = ((digit & 0x1F) as u64) << (5 * (ENCODED_LEN - 1 - index));
            if index % 2 == 0 {
                even |= bits;
            } else {
                odd |= bits;
            }
            index += 1;
        }
        let low = even | odd;
        if seen & 0x80 != 0 {
            return Err(first_invalid_character(bytes));
        }
        // The first digit carries bits 64..60: above 7 it needs a 64th bit. Never wrapped.
        if first > 7 {
            return Err(Error::OutOfRange {
                found: (first as i128) << 60 | low as i128,
            });
        }
        Ok(Self::from_raw((first as u64) << 60 | low))
    }
}

/// The error of text that is not 13 bytes long: [`Error::WrongPrefix`] when a `_` stands
/// where a prefix can end (after at most 31 characters: a look at 32 bytes, however long the
/// input), else its length.
#[cold]
const fn length_error(bytes: &[u8]) -> Error {
    let prefix_end = MAX_PREFIXED_LEN - ENCODED_LEN;
    let (head, _) = bytes.split_at(if bytes.len() < prefix_end {
        bytes.len()
    } else {
        prefix_end
    });
    match Error::wrong_prefix("", head) {
        prefixed @ Error::WrongPrefix { found_len: 1.., .. } => prefixed,
        _ => Error::InvalidLength {
            found: bytes.len(),
            prefix: "",
        },
    }
}

/// The error for the first byte of `bytes` that is no Base32 digit (there is one).
#[cold]
const fn first_invalid_character(bytes: &[u8]) -> Error {
    let mut index = 0;
    while DIGIT_VALUES[bytes[index] as usize] != NOT_A_DIGIT {
        index += 1;
    }
    Error::InvalidCharacter {
        index,
        found: bytes[index],
    }
}

impl FromStr for UlidFlake {
    type Err = Error;

    /// [`UlidFlake::parse_str`].
    fn from_str(text: &str) -> Result<Self, Error> {
        Self::parse_str(text)
    }
}
