//! The value type: SPEC §1's layout, the vectors of §5, integers and bytes.

use proptest::prelude::*;
use ulid_flake_core::{ENCODED_LEN, Error, MAX_TIMESTAMP, UlidFlake, ulid_flake};

/// SPEC §5: text, integer, timestamp, 20-bit randomness.
pub(crate) const VECTORS: [(&str, u64, u64, u32); 6] = [
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
fn vectors_decode_to_their_integers() {
    for (text, integer, _, _) in VECTORS {
        let id: UlidFlake = text.parse().unwrap();
        assert_eq!(id.to_u64(), integer, "{text}");
        assert_eq!(id.to_i64(), integer as i64, "{text}");
        assert_eq!(UlidFlake::from_u64(integer).unwrap(), id);
    }
}

#[test]
fn vectors_encode_to_their_texts() {
    for (text, integer, _, _) in VECTORS {
        let id = UlidFlake::from_u64(integer).unwrap();
        assert_eq!(id.to_string(), text);
        let mut buf = [0; ENCODED_LEN];
        assert_eq!(id.encode(&mut buf), text);
    }
}

#[test]
fn vectors_split_into_timestamp_and_randomness() {
    for (text, integer, timestamp, randomness) in VECTORS {
        let id = UlidFlake::from_u64(integer).unwrap();
        assert_eq!(id.ms_since_epoch(), timestamp, "{text}");
        assert_eq!(id.randomness(), randomness, "{text}");
        assert_eq!(UlidFlake::from_parts(timestamp, randomness).unwrap(), id);
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
fn the_scalable_reading_splits_off_the_scalability_id() {
    let id = ulid_flake!("00F5MN1MCFT30");
    assert_eq!(id.to_u64(), 17_087_134_008_076_384);
    assert_eq!(id.ms_since_epoch(), 16_295_560_844);
    assert_eq!(id.scalable_randomness(), 16_195);
    assert_eq!(id.scalability_id(), 0);
    assert_eq!(
        UlidFlake::from_scalable_parts(16_295_560_844, 16_195, 0).unwrap(),
        id
    );
}

#[test]
fn integers_from_0_to_i64_max_are_accepted() {
    assert_eq!(UlidFlake::try_from(i64::MAX), Ok(UlidFlake::MAX));
    assert_eq!(UlidFlake::try_from(0_i64), Ok(UlidFlake::MIN));
}

#[test]
fn negative_integers_are_rejected() {
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
}

#[test]
fn unsigned_integers_above_i64_max_are_rejected() {
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
}

#[test]
fn the_largest_id_is_i64_max_as_either_integer() {
    assert_eq!(u64::from(UlidFlake::MAX), i64::MAX as u64);
    assert_eq!(i64::from(UlidFlake::MAX), i64::MAX);
}

#[test]
fn bytes_above_i64_max_are_rejected() {
    assert_eq!(
        UlidFlake::from_bytes([0xFF; 8]),
        Err(Error::OutOfRange {
            found: u64::MAX.into()
        })
    );
}

#[test]
fn the_largest_id_is_i64_max_in_big_endian_bytes() {
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
}
