//! The literal macro.

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
/// An invalid literal does not compile:
///
/// ```compile_fail,E0080
/// let id = ulid_flake_core::ulid_flake!("00CMXB6TAK4SI"); // `I` is not Crockford Base32
/// ```
///
/// ```compile_fail,E0080
/// let id = ulid_flake_core::ulid_flake!("8000000000000"); // above i64::MAX
/// ```
#[macro_export]
macro_rules! ulid_flake {
    ($text:literal) => {{
        const VALUE: $crate::UlidFlake = match $crate::UlidFlake::parse_str($text) {
            ::core::result::Result::Ok(value) => value,
            ::core::result::Result::Err(_) => ::core::panic!(::core::concat!(
                "invalid Ulid-Flake literal ",
                ::core::stringify!($text),
                ": expected 13 Crockford Base32 characters, the first 0-7"
            )),
        };
        VALUE
    }};
}
