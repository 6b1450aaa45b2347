//! `Id<T>`: zero cost, no bounds on `T`, and the entity in its `Debug`.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Debug;
use std::hash::Hash;
use std::str::FromStr;

use ulid_flake_core::{Error, Id, UlidFlake, ulid_flake};

/// An entity that implements nothing, not even `Debug`, and is neither `Send` nor `Sync`.
struct User {
    _not_send_or_sync: *const u8,
}

mod app {
    pub(crate) struct Post;
}

fn assert_traits<
    V: Copy + Clone + Eq + Ord + Hash + Debug + std::fmt::Display + FromStr + Send + Sync,
>() {
}

#[test]
fn costs_nothing() {
    assert_eq!(size_of::<Id<User>>(), 8);
    assert_eq!(size_of::<Option<Id<User>>>(), 16);
    assert_eq!(align_of::<Id<User>>(), align_of::<u64>());
}

#[test]
fn needs_nothing_of_its_entity() {
    assert_traits::<Id<User>>();
    assert_traits::<Id<dyn Debug>>();
    assert_traits::<Id<str>>();
}

#[test]
fn sets_hold_it_as_its_value() {
    let a = Id::<User>::parse_str("00CMXB6TAK4SA").unwrap();
    let b = a;
    assert_eq!(a, b);
    let set: HashSet<Id<User>> = [a, b].into_iter().collect();
    assert_eq!(set.len(), 1);
    let ordered: BTreeSet<Id<User>> = [Id::MAX, a, Id::MIN].into_iter().collect();
    assert_eq!(
        ordered.into_iter().collect::<Vec<_>>(),
        [Id::MIN, a, Id::MAX]
    );
}

#[test]
fn debug_shows_the_entity_without_its_path() {
    let value = ulid_flake!("00CMXB6TAK4SA");
    assert_eq!(
        format!("{:?}", Id::<User>::from(value)),
        "Id<User>(00CMXB6TAK4SA)"
    );
    assert_eq!(
        format!("{:?}", Id::<app::Post>::from(value)),
        "Id<Post>(00CMXB6TAK4SA)"
    );
    assert_eq!(
        format!("{:?}", Id::<Vec<app::Post>>::from(value)),
        "Id<Vec<Post>>(00CMXB6TAK4SA)"
    );
    assert_eq!(
        format!("{:?}", Id::<(u8, String)>::from(value)),
        "Id<(u8, String)>(00CMXB6TAK4SA)"
    );
}

#[test]
fn display_is_the_text_alone() {
    let value = ulid_flake!("00CMXB6TAK4SA");
    assert_eq!(format!("{}", Id::<User>::from(value)), "00CMXB6TAK4SA");
}

/// The value of SPEC §5's `128GGYHYYK08N`, untyped and as a user's ID.
fn value_and_id() -> (UlidFlake, Id<User>) {
    let value = ulid_flake!("128GGYHYYK08N");
    (value, value.into())
}

#[test]
fn converts_to_and_from_the_untyped_value() {
    let (value, id) = value_and_id();
    assert_eq!(UlidFlake::from(id), value);
    assert_eq!(id.to_ulid_flake(), value);
}

#[test]
fn converts_to_and_from_integers() {
    let (_, id) = value_and_id();
    assert_eq!(u64::from(id), 1_234_567_890_123_456_789);
    assert_eq!(i64::from(id), 1_234_567_890_123_456_789);
    assert_eq!(Id::<User>::try_from(1_234_567_890_123_456_789_u64), Ok(id));
    assert_eq!(Id::<User>::try_from(1_234_567_890_123_456_789_i64), Ok(id));
}

#[test]
fn parses_text_in_either_case() {
    let (_, id) = value_and_id();
    assert_eq!(Id::<User>::try_from("128ggyhyyk08n"), Ok(id));
    assert_eq!("128GGYHYYK08N".parse::<Id<User>>(), Ok(id));
}

#[test]
fn rejects_integers_outside_0_to_i64_max() {
    assert_eq!(
        Id::<User>::try_from(-5_i64),
        Err(Error::OutOfRange { found: -5 })
    );
    assert_eq!(
        Id::<User>::try_from(u64::MAX),
        Err(Error::OutOfRange {
            found: u64::MAX.into()
        })
    );
}

#[test]
fn rejects_text_of_the_wrong_length() {
    assert_eq!(
        "128GGYHYYK08".parse::<Id<User>>(),
        Err(Error::InvalidLength { found: 12, prefix: "" })
    );
}

#[test]
fn generates_from_the_default_generator() {
    let a = Id::<User>::generate().unwrap();
    let b = Id::<User>::generate().unwrap();
    assert!(a < b);
}

#[test]
fn reads_every_field_as_the_untyped_value_does() {
    use ulid_flake_core::Epoch;

    for text in [
        "0000000000000",
        "00CMXB6TAK4SA",
        "00F5MN1MCFT30",
        "7ZZZZZZZZZZZZ",
    ] {
        let value = UlidFlake::parse_str(text).unwrap();
        let id = Id::<User>::from(value);
        assert_eq!(id.ms_since_epoch(), value.ms_since_epoch(), "{text}");
        assert_eq!(id.randomness(), value.randomness(), "{text}");
        assert_eq!(
            id.scalable_randomness(),
            value.scalable_randomness(),
            "{text}"
        );
        assert_eq!(id.scalability_id(), value.scalability_id(), "{text}");
        for epoch in [Epoch::DEFAULT, Epoch::UNIX, Epoch::MAX] {
            assert_eq!(id.unix_ms(epoch), value.unix_ms(epoch), "{text}");
            assert_eq!(
                id.to_moment::<std::time::SystemTime>(epoch),
                value.to_moment(epoch),
                "{text}"
            );
        }
    }
}

#[test]
fn reads_the_fields_of_the_spec_vector() {
    use std::time::{Duration, UNIX_EPOCH};
    use ulid_flake_core::Epoch;

    // The vector of SPEC §5: 2024-06-06T06:06:06.666Z with the default epoch.
    let id = Id::<User>::parse_str("00CMXB6TAK4SA").unwrap();
    assert_eq!(id.ms_since_epoch(), 13_586_766_666);
    assert_eq!(id.unix_ms(Epoch::DEFAULT), 1_717_653_966_666);
    assert_eq!(
        id.to_moment(Epoch::DEFAULT),
        Ok(UNIX_EPOCH + Duration::from_millis(1_717_653_966_666))
    );
    assert_eq!(id.randomness(), 627_498);
}

/// SPEC §2's formatting vector, untyped and as a user's ID.
fn formatting_vector() -> (UlidFlake, Id<User>) {
    let value = ulid_flake!("00F5MFHSEYXCM");
    (value, value.into())
}

#[test]
fn bytes_match_the_untyped_value() {
    let (value, id) = formatting_vector();
    assert_eq!(id.to_bytes(), value.to_bytes());
    assert_eq!(<[u8; 8]>::from(id), value.to_bytes());
    assert_eq!(Id::<User>::from_bytes(id.to_bytes()), Ok(id));
    assert_eq!(
        Id::<User>::from_bytes([0x80, 0, 0, 0, 0, 0, 0, 0]),
        Err(Error::OutOfRange { found: 1 << 63 })
    );
}

#[test]
fn formatting_matches_the_untyped_value() {
    let (value, id) = formatting_vector();
    assert_eq!(id.to_hex(), "0x3CB47C72EF7594");
    assert_eq!(id.to_bin(), value.to_bin());
    assert_eq!(
        format!("{id:x} {id:#X} {id:b} {id:o} {id:>15}"),
        format!("{value:x} {value:#X} {value:b} {value:o} {value:>15}")
    );
}

#[test]
fn text_matches_the_untyped_value() {
    let (value, id) = formatting_vector();
    assert_eq!(String::from(id), "00F5MFHSEYXCM");
    assert_eq!(String::from(value), "00F5MFHSEYXCM");
    let mut buf = [0; ulid_flake_core::ENCODED_LEN];
    assert_eq!(id.encode(&mut buf), "00F5MFHSEYXCM");
    assert_eq!(Id::<User>::parse_ascii(b"00f5mfhseyxcm"), Ok(id));
}

#[test]
fn cast_changes_the_entity_and_nothing_else() {
    struct Profile;
    let user = Id::<User>::parse_str("00CMXB6TAK4SA").unwrap();
    let profile: Id<Profile> = user.cast();
    assert_eq!(profile.to_ulid_flake(), user.to_ulid_flake());
    assert_eq!(format!("{profile:?}"), "Id<Profile>(00CMXB6TAK4SA)");
    assert_eq!(profile.cast::<User>(), user);
    // `const`: typed constants of one entity can be derived from another's.
    const ADMIN: Id<app::Post> = Id::<User>::MAX.cast();
    assert_eq!(ADMIN, Id::MAX);
}

#[test]
fn time_windows_give_typed_bounds() {
    use ulid_flake_core::{Epoch, UnixMs};

    let epoch = Epoch::DEFAULT.unix_ms() as i64;
    let window = UnixMs(epoch + 5)..UnixMs(epoch + 7);
    let (lowest, highest) = Id::<User>::range_for(Epoch::DEFAULT, window.clone()).unwrap();
    let untyped = UlidFlake::range_for(Epoch::DEFAULT, window).unwrap();
    assert_eq!((lowest.to_ulid_flake(), highest.to_ulid_flake()), untyped);
    assert_eq!((lowest.ms_since_epoch(), highest.ms_since_epoch()), (5, 6));
    assert_eq!(
        Id::<User>::range_for(Epoch::DEFAULT, UnixMs(epoch)..UnixMs(epoch)),
        None
    );
}

#[test]
fn system_time_windows_give_typed_bounds() {
    use std::time::{Duration, UNIX_EPOCH};
    use ulid_flake_core::Epoch;

    let epoch = Epoch::DEFAULT.unix_ms() as i64;
    let at = |ms: i64| UNIX_EPOCH + Duration::from_millis((epoch + ms) as u64);
    let (lowest, highest) =
        Id::<User>::range_for(Epoch::DEFAULT, at(5)..at(7)).unwrap();
    assert_eq!((lowest.ms_since_epoch(), highest.ms_since_epoch()), (5, 6));
    assert_eq!(
        Id::<User>::range_for(Epoch::DEFAULT, at(-10)..at(-1)),
        None
    );
}
