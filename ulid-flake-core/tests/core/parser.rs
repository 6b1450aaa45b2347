//! Parsing: SPEC §2's acceptance rule and its rejections.

use proptest::prelude::*;
use ulid_flake_core::{Error, UlidFlake};

#[test]
fn the_spec_rejections_fail_with_their_errors() {
    let cases: [(&str, Error); 11] = [
        ("8000000000000", Error::OutOfRange { found: 1 << 63 }),
        (
            "ZZZZZZZZZZZZZ",
            Error::OutOfRange {
                found: (1 << 65) - 1,
            },
        ),
        // The Go reference wraps this to 0.
        ("G000000000000", Error::OutOfRange { found: 16 << 60 }),
        (
            "00CMXB6TAK4SI",
            Error::InvalidCharacter {
                index: 12,
                found: b'I',
            },
        ),
        (
            "00CMXB6TAK4SL",
            Error::InvalidCharacter {
                index: 12,
                found: b'L',
            },
        ),
        (
            "00CMXB6TAK4SO",
            Error::InvalidCharacter {
                index: 12,
                found: b'O',
            },
        ),
        (
            "00CMXB6TAK4SU",
            Error::InvalidCharacter {
                index: 12,
                found: b'U',
            },
        ),
        ("00CMXB6TAK4S", Error::InvalidLength { found: 12, prefix: "" }),
        ("00CMXB6TAK4SAA", Error::InvalidLength { found: 14, prefix: "" }),
        ("", Error::InvalidLength { found: 0, prefix: "" }),
        (
            "00CMXB6TAK4Si",
            Error::InvalidCharacter {
                index: 12,
                found: b'i',
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(text.parse::<UlidFlake>(), Err(expected), "{text:?}");
        assert_eq!(UlidFlake::try_from(text), Err(expected), "{text:?}");
    }
}

#[test]
fn separators_and_white_space_are_rejected_not_trimmed() {
    assert_eq!(
        UlidFlake::parse_str(" 0CMXB6TAK4SA"),
        Err(Error::InvalidCharacter {
            index: 0,
            found: b' '
        })
    );
    assert_eq!(
        UlidFlake::parse_str("00CMX-6TAK4SA"),
        Err(Error::InvalidCharacter {
            index: 5,
            found: b'-'
        })
    );
    assert_eq!(
        UlidFlake::parse_str("00CMXB6TAK4SA\n"),
        Err(Error::InvalidLength { found: 14, prefix: "" })
    );
}

#[test]
fn non_ascii_is_rejected_at_its_first_byte() {
    // 'é' is two bytes: 11 ASCII + 2 = 13 bytes, rejected at its first byte.
    assert_eq!(
        UlidFlake::parse_str("00CMXB6TAK4é"),
        Err(Error::InvalidCharacter {
            index: 11,
            found: 0xC3
        })
    );
}

#[test]
fn a_huge_input_fails_on_its_length_without_being_echoed() {
    // Every character invalid too: the length is checked first, before any character.
    let huge = "I".repeat(1 << 20);
    let error = UlidFlake::parse_str(&huge).unwrap_err();
    assert_eq!(error, Error::InvalidLength { found: 1 << 20, prefix: "" });
    assert_eq!(
        error.to_string(),
        "invalid length: expected 13 ASCII characters, found 1048576 bytes"
    );
}

/// The alphabet and every byte Crockford's decoders alias or that often sneaks in.
const SOME_BYTES: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzILOUilou-_ .~é";

/// SPEC §2's acceptance rule, written independently of the parser.
fn is_canonical(text: &str) -> bool {
    text.len() == 13
        && text.chars().enumerate().all(|(index, c)| {
            let digit = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".find(c.to_ascii_uppercase());
            digit.is_some_and(|digit| index > 0 || digit <= 7)
        })
}

proptest! {
    #[test]
    fn parse_accepts_exactly_the_canonical_texts(
        chars in proptest::collection::vec(proptest::sample::select(SOME_BYTES.chars().collect::<Vec<_>>()), 11..=14)
    ) {
        let text: String = chars.into_iter().collect();
        match text.parse::<UlidFlake>() {
            Ok(id) => {
                prop_assert!(is_canonical(&text), "accepted {:?}", text);
                prop_assert_eq!(id.to_string(), text.to_ascii_uppercase());
            }
            Err(_) => prop_assert!(!is_canonical(&text), "rejected {:?}", text),
        }
    }
}
