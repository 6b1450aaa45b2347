//! The format: SPEC §1, §2 and the vectors of §5.

use proptest::prelude::*;
use ulid_flake_core::{ENCODED_LEN, Error, MAX_TIMESTAMP, UlidFlake, ulid_flake};

/// SPEC §5: text, integer, timestamp, 20-bit randomness.
const VECTORS: [(&str, u64, u64, u32); 6] = [
    ("0000000000000", 0, 0, 0),
    (
        "00CMXB6TAK4SA",
        14_246_757_444_195_114,
        13_586_766_666,
        627_498,
    ),
    (
        "00F5PEXFDQCGR",
        17_089_122_411_459_096,
        16_297_457_133,
        766_488,
    ),
    (
        "00F2N078MDT7J",
        16_981_964_897_052_914,
        16_195_263_764,
        452_850,
    ),
    (
        "128GGYHYYK08N",
        1_234_567_890_123_456_789,
        1_177_375_688_670,
        622_869,
    ),
    (
        "7ZZZZZZZZZZZZ",
        9_223_372_036_854_775_807,
        8_796_093_022_207,
        1_048_575,
    ),
];

#[test]
fn vectors_decode_encode_and_split_into_fields() {
    for (text, integer, timestamp, randomness) in VECTORS {
        let id: UlidFlake = text.parse().unwrap();
        assert_eq!(id.to_u64(), integer, "{text}");
        assert_eq!(id.to_i64(), integer as i64, "{text}");
        assert_eq!(id.timestamp_ms(), timestamp, "{text}");
        assert_eq!(id.randomness(), randomness, "{text}");
        assert_eq!(id.to_string(), text);
        assert_eq!(UlidFlake::from_u64(integer).unwrap(), id);
        assert_eq!(UlidFlake::from_parts(timestamp, randomness).unwrap(), id);
        let mut buf = [0; ENCODED_LEN];
        assert_eq!(id.encode(&mut buf), text);
    }
}

#[test]
fn vectors_are_in_integer_and_text_order() {
    let mut by_text = VECTORS;
    by_text.sort_by_key(|vector| vector.0);
    let mut by_integer = VECTORS;
    by_integer.sort_by_key(|vector| vector.1);
    assert_eq!(by_text, by_integer);
}

#[test]
fn scalable_reading_and_hex_vectors() {
    let id = ulid_flake!("00F5MN1MCFT30");
    assert_eq!(id.to_u64(), 17_087_134_008_076_384);
    assert_eq!(id.timestamp_ms(), 16_295_560_844);
    assert_eq!(id.scalable_randomness(), 16_195);
    assert_eq!(id.scalability_id(), 0);
    assert_eq!(
        UlidFlake::from_scalable_parts(16_295_560_844, 16_195, 0).unwrap(),
        id
    );

    let id = ulid_flake!("00F5MFHSEYXCM");
    assert_eq!(id.to_u64(), 17_086_945_199_879_572);
    assert_eq!(id.to_hex(), "0x3CB47C72EF7594");
    assert_eq!(format!("{id:X}"), "3CB47C72EF7594");
    assert_eq!(format!("{id:x}"), "3cb47c72ef7594");
    assert_eq!(format!("{id:#x}"), "0x3cb47c72ef7594");
    assert_eq!(
        id.to_bin(),
        "0b111100101101000111110001110010111011110111010110010100"
    );
    assert_eq!(format!("{id:b}"), id.to_bin()[2..]);
    // No padding: small values give short forms.
    assert_eq!(UlidFlake::MIN.to_hex(), "0x0");
    assert_eq!(UlidFlake::MIN.to_bin(), "0b0");
    assert_eq!(UlidFlake::MAX.to_hex(), "0x7FFFFFFFFFFFFFFF");
}

#[test]
fn rejection_table() {
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
        ("00CMXB6TAK4S", Error::InvalidLength { found: 12 }),
        ("00CMXB6TAK4SAA", Error::InvalidLength { found: 14 }),
        ("", Error::InvalidLength { found: 0 }),
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
fn rejects_separators_white_space_and_non_ascii_without_trimming() {
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
        Err(Error::InvalidLength { found: 14 })
    );
    // 'é' is two bytes: 11 ASCII + 2 = 13 bytes, rejected at its first byte.
    assert_eq!(
        UlidFlake::parse_str("00CMXB6TAK4é"),
        Err(Error::InvalidCharacter {
            index: 11,
            found: 0xC3
        })
    );
    // A huge input fails on its length, and the message does not repeat it.
    let huge = "0".repeat(1 << 20);
    let error = UlidFlake::parse_str(&huge).unwrap_err();
    assert_eq!(error, Error::InvalidLength { found: 1 << 20 });
    assert_eq!(
        error.to_string(),
        "invalid length: expected 13 ASCII characters, found 1048576 bytes"
    );
}

#[test]
fn error_messages_say_what_was_expected_and_found() {
    let message = |text: &str| UlidFlake::parse_str(text).unwrap_err().to_string();
    assert_eq!(
        message("G000000000000"),
        "value out of range: expected 0..=9223372036854775807 (a first character 0-7 in text), \
         found 18446744073709551616"
    );
    assert_eq!(
        message("00CMXB6TAK4S\t"),
        "invalid character '\\t' at index 12: expected a Crockford Base32 digit \
         (0-9, A-Z without I, L, O, U, in either case)"
    );
    assert_eq!(
        message("00CMXB6TAK4é"),
        "invalid character (non-ASCII byte 0xC3) at index 11: expected a Crockford Base32 \
         digit (0-9, A-Z without I, L, O, U, in either case)"
    );
}

#[test]
fn integers_in_and_out_of_range() {
    assert_eq!(UlidFlake::try_from(i64::MAX), Ok(UlidFlake::MAX));
    assert_eq!(UlidFlake::try_from(0_i64), Ok(UlidFlake::MIN));
    assert_eq!(
        UlidFlake::try_from(-1_i64),
        Err(Error::OutOfRange { found: -1 })
    );
    assert_eq!(
        UlidFlake::try_from(i64::MIN),
        Err(Error::OutOfRange {
            found: i64::MIN.into()
        })
    );
    assert_eq!(
        UlidFlake::try_from(1_u64 << 63),
        Err(Error::OutOfRange { found: 1 << 63 })
    );
    assert_eq!(
        UlidFlake::try_from(u64::MAX),
        Err(Error::OutOfRange {
            found: u64::MAX.into()
        })
    );
    assert_eq!(u64::from(UlidFlake::MAX), i64::MAX as u64);
    assert_eq!(i64::from(UlidFlake::MAX), i64::MAX);
    assert_eq!(
        UlidFlake::from_bytes([0xFF; 8]),
        Err(Error::OutOfRange {
            found: u64::MAX.into()
        })
    );
    assert_eq!(
        UlidFlake::MAX.to_bytes(),
        [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    );
}

#[test]
fn constructors_check_every_field() {
    assert_eq!(
        UlidFlake::from_parts(MAX_TIMESTAMP, (1 << 20) - 1),
        Ok(UlidFlake::MAX)
    );
    assert_eq!(
        UlidFlake::from_parts(MAX_TIMESTAMP + 1, 0),
        Err(Error::TimestampOutOfRange { found_ms: 1 << 43 })
    );
    assert_eq!(
        UlidFlake::from_parts(0, 1 << 20),
        Err(Error::RandomnessOutOfRange {
            found: 1 << 20,
            max: (1 << 20) - 1
        })
    );
    assert_eq!(
        UlidFlake::from_scalable_parts(0, 1 << 15, 0),
        Err(Error::RandomnessOutOfRange {
            found: 1 << 15,
            max: (1 << 15) - 1
        })
    );
    assert_eq!(
        UlidFlake::from_scalable_parts(0, 0, 32),
        Err(Error::InvalidScalabilityId { found: 32 })
    );
    let id = UlidFlake::from_scalable_parts(MAX_TIMESTAMP, (1 << 15) - 1, 31).unwrap();
    assert_eq!(id, UlidFlake::MAX);
    assert_eq!(id.scalability_id(), 31);
}

#[test]
fn display_honours_width_and_debug_names_the_type() {
    let id = ulid_flake!("00CMXB6TAK4SA");
    assert_eq!(format!("[{id:>15}]"), "[  00CMXB6TAK4SA]");
    assert_eq!(format!("{id:?}"), "UlidFlake(00CMXB6TAK4SA)");
}

#[test]
fn instants_count_from_the_given_epoch() {
    use std::time::{Duration, UNIX_EPOCH};
    use ulid_flake_core::Epoch;

    let last = UlidFlake::MAX;
    // SPEC §1: 2302-09-27T15:10:22.207Z is the last instant of the default epoch.
    assert_eq!(last.unix_ms(Epoch::DEFAULT), 10_500_160_222_207);
    assert_eq!(
        last.instant(Epoch::DEFAULT),
        UNIX_EPOCH + Duration::from_millis(10_500_160_222_207)
    );
    assert_eq!(last.unix_ms(Epoch::UNIX), MAX_TIMESTAMP);
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
    fn integer_text_and_bytes_round_trip(value in 0..=i64::MAX as u64) {
        let id = UlidFlake::from_u64(value).unwrap();
        let text = id.to_string();
        prop_assert_eq!(text.len(), 13);
        prop_assert_eq!(text.parse::<UlidFlake>(), Ok(id));
        prop_assert_eq!(text.to_ascii_lowercase().parse::<UlidFlake>(), Ok(id));
        prop_assert_eq!(UlidFlake::from_bytes(id.to_bytes()), Ok(id));
        prop_assert_eq!(UlidFlake::from_i64(id.to_i64()), Ok(id));
    }

    #[test]
    fn integer_order_is_text_order_and_byte_order(a in 0..=i64::MAX as u64, b in 0..=i64::MAX as u64) {
        let (a, b) = (UlidFlake::from_u64(a).unwrap(), UlidFlake::from_u64(b).unwrap());
        prop_assert_eq!(a.cmp(&b), a.to_string().cmp(&b.to_string()));
        prop_assert_eq!(a.cmp(&b), a.to_bytes().cmp(&b.to_bytes()));
    }

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

#[test]
fn every_error_message_says_what_was_expected_and_found() {
    use ulid_flake_core::Epoch;

    let cases = [
        (
            Error::Overflow { timestamp_ms: 42 },
            "randomness overflow: millisecond 42 since the epoch has no ID left; expected a call in a later millisecond",
        ),
        (
            Error::ClockMovedBackwards {
                by_ms: 1_500,
                allowance_ms: 1_000,
            },
            "clock moved backwards: expected at most 1000 ms behind the last ID, found 1500 ms behind",
        ),
        (
            Error::TimestampOutOfRange { found_ms: -1 },
            "timestamp out of range: expected 0..=8796093022207 ms since the epoch, found -1 ms",
        ),
        (
            Error::InvalidEpoch { found_unix_ms: -5 },
            "invalid epoch: expected 0..=272678883688448 ms since 1970-01-01, found -5 ms",
        ),
        (
            Error::InvalidEntropySize { found: 3, max: 2 },
            "invalid entropy size: expected 1..=2 bytes for this layout, found 3",
        ),
        (
            Error::InvalidScalabilityId { found: 32 },
            "invalid scalability id: expected 0..=31, found 32",
        ),
        (
            Error::RandomnessOutOfRange {
                found: 1 << 20,
                max: (1 << 20) - 1,
            },
            "randomness out of range: expected 0..=1048575, found 1048576",
        ),
        (
            Error::DefaultGeneratorAlreadySet,
            "default generator already set: expected to configure it once, before its first use, found it configured or used already",
        ),
        (
            Error::InvalidUuid {
                expected: "version 7",
            },
            "not a UUID mapped from a Ulid-Flake: expected version 7",
        ),
        (
            Error::OutOfRange { found: -1 },
            "value out of range: expected 0..=9223372036854775807 (a first character 0-7 in text), found -1",
        ),
    ];
    for (error, message) in cases {
        assert_eq!(error.to_string(), message);
    }
    assert_eq!(Epoch::MAX.unix_ms(), 272_678_883_688_448);
}

#[test]
fn epochs_are_bounded_by_48_bit_unix_milliseconds() {
    use std::time::{Duration, UNIX_EPOCH};
    use ulid_flake_core::Epoch;

    assert_eq!(Epoch::from_unix_ms(Epoch::MAX.unix_ms()), Ok(Epoch::MAX));
    assert_eq!(
        Epoch::from_unix_ms(Epoch::MAX.unix_ms() + 1),
        Err(Error::InvalidEpoch {
            found_unix_ms: 272_678_883_688_449
        })
    );
    assert_eq!(
        Epoch::from_system_time(UNIX_EPOCH - Duration::from_millis(5)),
        Err(Error::InvalidEpoch { found_unix_ms: -5 })
    );
    assert_eq!(
        Epoch::DEFAULT.to_system_time(),
        UNIX_EPOCH + Duration::from_millis(1_704_067_200_000)
    );
}

#[test]
fn time_windows_map_to_id_ranges_with_clipping() {
    use std::time::{Duration, UNIX_EPOCH};
    use ulid_flake_core::Epoch;

    let epoch = Epoch::DEFAULT.unix_ms() as i64;
    let max = (1 << 20) - 1;
    let range = |start: i64, end: i64| Epoch::DEFAULT.range_for(epoch + start..epoch + end);
    assert_eq!(
        range(5, 6),
        Some((
            UlidFlake::from_parts(5, 0).unwrap(),
            UlidFlake::from_parts(5, max).unwrap()
        ))
    );
    assert_eq!(range(5, 5), None);
    assert_eq!(range(-10, -1), None, "wholly before the epoch");
    assert_eq!(
        range(-10, 1).map(|(lowest, _)| lowest),
        Some(UlidFlake::MIN)
    );
    let last = MAX_TIMESTAMP as i64;
    assert_eq!(
        range(last, last + 100).map(|(_, highest)| highest),
        Some(UlidFlake::MAX)
    );
    assert_eq!(
        range(last + 1, last + 2),
        None,
        "wholly after the last millisecond"
    );

    // A window that starts or ends inside a millisecond covers all of it.
    let at = |ms: u64, extra_micros: u64| {
        UNIX_EPOCH + Duration::from_millis(epoch as u64 + ms) + Duration::from_micros(extra_micros)
    };
    assert_eq!(
        Epoch::DEFAULT.range_for_system_time(at(5, 300)..at(7, 1)),
        Some((
            UlidFlake::from_parts(5, 0).unwrap(),
            UlidFlake::from_parts(7, max).unwrap()
        ))
    );
    assert_eq!(
        Epoch::DEFAULT.range_for_system_time(at(5, 0)..at(7, 0)),
        Some((
            UlidFlake::from_parts(5, 0).unwrap(),
            UlidFlake::from_parts(6, max).unwrap()
        ))
    );
}
