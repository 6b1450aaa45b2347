//! Parsing the canonical Base32 text.

use core::str::FromStr;

use crate::{ENCODED_LEN, Error, UlidFlake, fmt::ALPHABET};

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
    /// first, so a huge input is rejected at once); [`Error::InvalidCharacter`] for the first
    /// byte outside the alphabet; [`Error::OutOfRange`] for a first character above `7`,
    /// which would need a 64th bit — never wrapped around.
    ///
    /// ```
    /// use ulid_flake_core::{Error, UlidFlake};
    ///
    /// assert_eq!(UlidFlake::parse_str("00cmxb6tak4sa")?.to_string(), "00CMXB6TAK4SA");
    /// assert_eq!(UlidFlake::parse_str("00CMXB6TAK4S"), Err(Error::InvalidLength { found: 12 }));
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
        if bytes.len() != ENCODED_LEN {
            return Err(Error::InvalidLength { found: bytes.len() });
        }
        // 13 digits carry 65 bits: accumulate in a u128 and range-check once at the end.
        let mut value: u128 = 0;
        let mut index = 0;
        while index < ENCODED_LEN {
            let digit = DIGIT_VALUES[bytes[index] as usize];
            if digit == NOT_A_DIGIT {
                return Err(Error::InvalidCharacter {
                    index,
                    found: bytes[index],
                });
            }
            value = value << 5 | digit as u128;
            index += 1;
        }
        if value > i64::MAX as u128 {
            return Err(Error::OutOfRange {
                found: value as i128,
            });
        }
        Ok(Self::from_raw(value as u64))
    }
}

impl FromStr for UlidFlake {
    type Err = Error;

    /// [`UlidFlake::parse_str`].
    fn from_str(text: &str) -> Result<Self, Error> {
        Self::parse_str(text)
    }
}
