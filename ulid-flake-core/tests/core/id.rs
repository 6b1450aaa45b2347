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
fn costs_nothing_and_needs_nothing_of_its_entity() {
    assert_eq!(size_of::<Id<User>>(), 8);
    assert_eq!(size_of::<Option<Id<User>>>(), 16);
    assert_eq!(align_of::<Id<User>>(), align_of::<u64>());
    assert_traits::<Id<User>>();
    assert_traits::<Id<dyn Debug>>();
    assert_traits::<Id<str>>();

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
    assert_eq!(format!("{}", Id::<User>::from(value)), "00CMXB6TAK4SA");
}

#[test]
fn converts_to_and_from_the_untyped_value_and_integers() {
    let value = ulid_flake!("128GGYHYYK08N");
    let id: Id<User> = value.into();
    assert_eq!(UlidFlake::from(id), value);
    assert_eq!(id.to_ulid_flake(), value);
    assert_eq!(u64::from(id), 1_234_567_890_123_456_789);
    assert_eq!(i64::from(id), 1_234_567_890_123_456_789);
    assert_eq!(Id::<User>::try_from(1_234_567_890_123_456_789_u64), Ok(id));
    assert_eq!(Id::<User>::try_from(1_234_567_890_123_456_789_i64), Ok(id));
    assert_eq!(Id::<User>::try_from("128ggyhyyk08n"), Ok(id));
    assert_eq!("128GGYHYYK08N".parse::<Id<User>>(), Ok(id));
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
    assert_eq!(
        "128GGYHYYK08".parse::<Id<User>>(),
        Err(Error::InvalidLength { found: 12 })
    );
}

#[test]
fn generates_from_the_default_generator() {
    let a = Id::<User>::generate().unwrap();
    let b = Id::<User>::generate().unwrap();
    assert!(a < b);
}
