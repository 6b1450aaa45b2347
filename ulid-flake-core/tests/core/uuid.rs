//! The UUIDv7 mapping: lossless and order-preserving.

use proptest::prelude::*;
use ulid_flake_core::{Epoch, Error, MAX_TIMESTAMP, UlidFlake, ulid_flake};
use uuid::Uuid;

/// The SPEC §5 vector and its UUID with the default epoch.
fn vector() -> (UlidFlake, Uuid) {
    let id = ulid_flake!("00CMXB6TAK4SA");
    (id, id.to_uuid_v7(Epoch::DEFAULT))
}

#[test]
fn maps_the_vector_to_a_version_7_uuid() {
    let (_, uuid) = vector();
    assert_eq!(uuid.to_string(), "018fec27-8f4a-7993-8a80-000000000000");
    assert_eq!(uuid.get_version_num(), 7);
    assert_eq!(uuid.get_variant(), uuid::Variant::RFC4122);
}

#[test]
fn the_uuid_timestamp_is_the_id_s_unix_moment() {
    let (id, uuid) = vector();
    // The UUID's timestamp is the ID's moment in Unix milliseconds.
    let (seconds, nanos) = uuid.get_timestamp().unwrap().to_unix();
    assert_eq!(
        seconds * 1000 + u64::from(nanos) / 1_000_000,
        id.unix_ms(Epoch::DEFAULT)
    );
}

#[test]
fn maps_the_vector_s_uuid_back() {
    let (id, uuid) = vector();
    assert_eq!(UlidFlake::from_uuid_v7(uuid, Epoch::DEFAULT), Ok(id));
}

#[test]
fn the_extremes_round_trip_in_every_epoch() {
    for id in [UlidFlake::MIN, UlidFlake::MAX] {
        for epoch in [Epoch::UNIX, Epoch::DEFAULT, Epoch::MAX] {
            assert_eq!(UlidFlake::from_uuid_v7(id.to_uuid_v7(epoch), epoch), Ok(id));
        }
    }
}

#[test]
fn the_largest_id_of_the_latest_epoch_maps_to_the_largest_uuid() {
    assert_eq!(
        UlidFlake::MAX.to_uuid_v7(Epoch::MAX).to_string(),
        "ffffffff-ffff-7fff-bfc0-000000000000"
    );
}

fn invalid(expected: &'static str, found: &'static str) -> Result<UlidFlake, Error> {
    Err(Error::InvalidUuid { expected, found })
}

#[test]
fn rejects_other_versions() {
    assert_eq!(
        UlidFlake::from_uuid_v7(
            Uuid::from_u128(0x0190_0000_0000_4000_8000_0000_0000_0000),
            Epoch::DEFAULT
        ),
        invalid("version 7", "version 4")
    );
}

#[test]
fn rejects_other_variants() {
    let (_, v7) = vector();
    assert_eq!(
        UlidFlake::from_uuid_v7(Uuid::from_u128(v7.as_u128() ^ (1 << 63)), Epoch::DEFAULT),
        invalid("the RFC 9562 variant", "the NCS variant (0b0)")
    );
}

#[test]
fn rejects_uuids_with_low_bits_set() {
    let (_, v7) = vector();
    assert_eq!(
        UlidFlake::from_uuid_v7(Uuid::from_u128(v7.as_u128() | 1), Epoch::DEFAULT),
        invalid("the low 54 bits zero", "some of them set")
    );
}

#[test]
fn rejects_moments_before_the_epoch() {
    let (_, v7) = vector();
    // Another epoch: the moment falls before it.
    let later = Epoch::from_unix_ms(Epoch::DEFAULT.unix_ms() + 13_586_766_667).unwrap();
    assert_eq!(
        UlidFlake::from_uuid_v7(v7, later),
        Err(Error::TimestampOutOfRange { found_ms: -1 })
    );
}

#[test]
fn rejects_moments_past_the_last_millisecond_of_the_epoch() {
    let past_the_end =
        Uuid::from_u128(UlidFlake::MAX.to_uuid_v7(Epoch::UNIX).as_u128() + (1 << 80));
    assert_eq!(
        UlidFlake::from_uuid_v7(past_the_end, Epoch::UNIX),
        Err(Error::TimestampOutOfRange {
            found_ms: i128::from(MAX_TIMESTAMP) + 1
        })
    );
}

proptest! {
    #[test]
    fn round_trips_and_keeps_the_order(a in 0..=i64::MAX as u64, b in 0..=i64::MAX as u64) {
        let (a, b) = (UlidFlake::from_u64(a).unwrap(), UlidFlake::from_u64(b).unwrap());
        let (ua, ub) = (a.to_uuid_v7(Epoch::DEFAULT), b.to_uuid_v7(Epoch::DEFAULT));
        prop_assert_eq!(UlidFlake::from_uuid_v7(ua, Epoch::DEFAULT), Ok(a));
        prop_assert_eq!(a.cmp(&b), ua.cmp(&ub));
        prop_assert_eq!(ua.get_version_num(), 7);
    }
}

#[test]
fn typed_ids_map_as_the_untyped_value_does() {
    use ulid_flake_core::Id;
    struct User;

    let value = ulid_flake!("00CMXB6TAK4SA");
    let id = Id::<User>::from(value);
    for epoch in [Epoch::DEFAULT, Epoch::UNIX] {
        let uuid = id.to_uuid_v7(epoch);
        assert_eq!(uuid, value.to_uuid_v7(epoch));
        assert_eq!(Id::<User>::from_uuid_v7(uuid, epoch), Ok(id));
    }
    assert_eq!(
        Id::<User>::from_uuid_v7(Uuid::nil(), Epoch::DEFAULT).map(Id::to_u64),
        UlidFlake::from_uuid_v7(Uuid::nil(), Epoch::DEFAULT).map(UlidFlake::to_u64)
    );
}
