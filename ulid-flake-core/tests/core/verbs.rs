//! One meaning per verb on every ID type (the table in the crate docs): `generate` and
//! `generate_async` wait and return a `Result`, `try_generate` never waits, `new` returns the
//! ID. Each type's IDs come from the one process-wide generator, so they strictly increase
//! across types and calls.

use ulid_flake_core::{Error, Id, Prefix, PrefixedId, UlidFlake};

struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

ulid_flake_core::newtype! {
    /// A key of the tests.
    struct Key;
}

/// A `try_generate` result as the next value of the sequence: an ID, or the millisecond was
/// full (the only error it adds to `generate`'s), then the waiting call.
fn try_or_wait(tried: Result<UlidFlake, Error>) -> UlidFlake {
    match tried {
        Ok(id) => id,
        Err(Error::Overflow { .. }) => UlidFlake::generate().unwrap(),
        Err(other) => panic!("{other}"),
    }
}

#[test]
fn every_id_type_has_the_same_verbs_from_one_generator() {
    let ids = [
        UlidFlake::generate().unwrap(),
        Id::<User>::generate().unwrap().to_ulid_flake(),
        PrefixedId::<User>::generate().unwrap().to_ulid_flake(),
        Key::generate().unwrap().0,
        try_or_wait(UlidFlake::try_generate()),
        try_or_wait(Id::<User>::try_generate().map(Id::to_ulid_flake)),
        try_or_wait(PrefixedId::<User>::try_generate().map(PrefixedId::to_ulid_flake)),
        try_or_wait(Key::try_generate().map(|key| key.0)),
        UlidFlake::new(),
        Id::<User>::new().to_ulid_flake(),
        PrefixedId::<User>::new().to_ulid_flake(),
        Key::new().0,
    ];
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "{ids:?}");
}

#[cfg(feature = "tokio")]
#[tokio::test]
async fn every_id_type_has_generate_async() {
    let ids = [
        UlidFlake::generate_async().await.unwrap(),
        Id::<User>::generate_async().await.unwrap().to_ulid_flake(),
        PrefixedId::<User>::generate_async().await.unwrap().to_ulid_flake(),
        Key::generate_async().await.unwrap().0,
    ];
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "{ids:?}");
}

#[test]
fn try_generate_never_waits_generate_does() {
    // A full millisecond: try_generate says so, generate moves on to the next one.
    let generator = ulid_flake_core::generator::Generator::builder()
        .random_source(Max)
        .build()
        .unwrap();
    let (first, second) = (0..100)
        .find_map(|_| {
            let first = generator.try_generate().unwrap();
            match generator.try_generate() {
                // The clock turned between the two calls: the next millisecond's first ID.
                Ok(id) if id.ms_since_epoch() > first.ms_since_epoch() => None,
                second => Some((first, second)),
            }
        })
        .expect("two calls in one millisecond within 100 tries");
    assert_eq!(
        second,
        Err(Error::Overflow {
            timestamp_ms: first.ms_since_epoch()
        })
    );
    let next = generator.generate().unwrap();
    assert!(next.ms_since_epoch() > first.ms_since_epoch());
}

/// Every draw at its largest: a millisecond's first ID takes the top of the field, so no
/// second one fits.
struct Max;

impl ulid_flake_core::generator::RandomSource for Max {
    fn next_u32(&self) -> u32 {
        u32::MAX
    }
}
