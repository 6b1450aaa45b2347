//! Encoding: the canonical Base32 text, hexadecimal and binary.

use core::fmt;

use crate::layout::ENCODED_LEN;
use crate::ulid_flake::UlidFlake;

/// Crockford's Base32 alphabet: the digit for each 5-bit value.
pub(crate) const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

impl UlidFlake {
    /// Writes the canonical text into `buf` and returns it, without allocating.
    ///
    /// ```
    /// use ulid_flake_core::{ENCODED_LEN, UlidFlake};
    ///
    /// let mut buf = [0; ENCODED_LEN];
    /// assert_eq!(UlidFlake::MAX.encode(&mut buf), "7ZZZZZZZZZZZZ");
    /// ```
    pub fn encode(self, buf: &mut [u8; ENCODED_LEN]) -> &str {
        let value = self.to_u64();
        // Most significant group first: the first character takes bits 64..60 (of which
        // bit 64 does not exist and bit 63 is 0), each next one the 5 bits below.
        for (position, byte) in buf.iter_mut().enumerate() {
            let shift = 5 * (ENCODED_LEN - 1 - position);
            *byte = ALPHABET[((value >> shift) & 0x1F) as usize];
        }
        // SAFETY: every byte was just taken from ALPHABET, which is ASCII, so valid UTF-8.
        unsafe { core::str::from_utf8_unchecked(buf) }
    }

    /// The hexadecimal form: `0x` and uppercase digits, without padding.
    ///
    /// ```
    /// let id = ulid_flake_core::ulid_flake!("00F5MFHSEYXCM");
    /// assert_eq!(id.to_hex(), "0x3CB47C72EF7594");
    /// ```
    #[cfg(feature = "alloc")]
    pub fn to_hex(self) -> alloc::string::String {
        alloc::format!("{self:#X}")
    }

    /// The binary form: `0b` and the digits, without padding.
    ///
    /// ```
    /// let id = ulid_flake_core::UlidFlake::from_u64(5)?;
    /// assert_eq!(id.to_bin(), "0b101");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn to_bin(self) -> alloc::string::String {
        alloc::format!("{self:#b}")
    }
}

impl fmt::Display for UlidFlake {
    /// The canonical text: 13 uppercase Crockford Base32 characters. Width, fill and
    /// alignment flags are honoured.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0; ENCODED_LEN];
        let text = self.encode(&mut buf);
        // `pad` only when asked to: its width and precision handling costs on every call.
        if f.width().is_none() && f.precision().is_none() {
            f.write_str(text)
        } else {
            f.pad(text)
        }
    }
}

#[cfg(feature = "alloc")]
impl From<UlidFlake> for alloc::string::String {
    /// The canonical text, as `to_string` gives it.
    ///
    /// ```
    /// let text: String = ulid_flake_core::UlidFlake::MAX.into();
    /// assert_eq!(text, "7ZZZZZZZZZZZZ");
    /// ```
    fn from(id: UlidFlake) -> Self {
        let mut buf = [0; ENCODED_LEN];
        id.encode(&mut buf).into()
    }
}

impl fmt::Debug for UlidFlake {
    /// `UlidFlake(00CMXB6TAK4SA)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UlidFlake({self})")
    }
}

/// The integer formats (`{:X}`, `{:x}`, `{:b}`, `{:o}`) of an ID type: its integer value
/// (`to_u64`), honouring every flag (`{:#X}` adds the `0x` prefix). One list for every ID type,
/// `newtype!` keys included. Not public API.
#[doc(hidden)]
#[macro_export]
macro_rules! __integer_formats {
    ([$($generics:tt)*] $type:ty) => {
        $crate::__integer_formats!(@one UpperHex [$($generics)*] $type);
        $crate::__integer_formats!(@one LowerHex [$($generics)*] $type);
        $crate::__integer_formats!(@one Binary [$($generics)*] $type);
        $crate::__integer_formats!(@one Octal [$($generics)*] $type);
    };
    (@one $trait:ident [$($generics:tt)*] $type:ty) => {
        impl<$($generics)*> ::core::fmt::$trait for $type {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::$trait::fmt(&self.to_u64(), f)
            }
        }
    };
}

crate::__integer_formats!([] UlidFlake);
