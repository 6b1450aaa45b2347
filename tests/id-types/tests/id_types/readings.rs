//! What is not an integration: every ID type has the same readings, integer forms, time
//! methods, formats and verbs.

use std::time::{Duration, SystemTime};

use ulid_flake_core::{Epoch, UnixMs};

use super::*;

macro_rules! cell {
    ($ty:ty, $id:expr, $text:literal) => {{
        let id: $ty = $id;
        assert_eq!(id.to_u64(), INTEGER as u64);
        assert_eq!(id.to_i64(), INTEGER);
        assert_eq!(<$ty>::from_i64(INTEGER), Ok(id));
        assert_eq!(<$ty>::from_u64(INTEGER as u64), Ok(id));
        assert!(<$ty>::from_i64(-1).is_err());
        assert_eq!(id.to_bytes(), [0, 0x32, 0x9d, 0x59, 0xb4, 0xa9, 0x93, 0x2a]);
        assert_eq!(<$ty>::from_bytes(id.to_bytes()), Ok(id));
        assert_eq!(
            (i64::from(id), u64::from(id), <[u8; 8]>::from(id)),
            (INTEGER, INTEGER as u64, id.to_bytes())
        );
        assert_eq!(<$ty>::try_from(INTEGER), Ok(id));
        assert_eq!(<$ty>::try_from(INTEGER as u64), Ok(id));
        assert_eq!(<$ty>::try_from($text), Ok(id));
        assert_eq!(UlidFlake::from(id), ID);
        assert_eq!(<$ty>::from(ID), id);
        assert_eq!(<$ty>::from_parts(13_586_766_666, 627_498), Ok(id));
        assert_eq!(
            <$ty>::from_scalable_parts(13_586_766_666, 19_609, 10),
            Ok(id)
        );
        assert!(<$ty>::from_parts(0, 1 << 20).is_err());
        assert!(<$ty>::from_scalable_parts(0, 0, 32).is_err());
        assert_eq!(id.ms_since_epoch(), 13_586_766_666);
        assert_eq!(id.randomness(), 627_498);
        assert_eq!(id.scalable_randomness(), 19_609);
        assert_eq!(id.scalability_id(), 10);
        assert_eq!(id.unix_ms(Epoch::DEFAULT), 1_717_653_966_666);
        assert_eq!(id.to_moment(Epoch::DEFAULT), Ok(UnixMs(1_717_653_966_666)));
        let made: SystemTime = id.to_moment(Epoch::DEFAULT).unwrap();
        assert_eq!(<$ty>::from_moment(Epoch::DEFAULT, made, 627_498), Ok(id));
        let window = made..made + Duration::from_millis(1);
        let (lowest, highest) = <$ty>::range_for(Epoch::DEFAULT, window).unwrap();
        assert!(lowest <= id && id <= highest);
        assert_eq!(
            (lowest.randomness(), highest.ms_since_epoch()),
            (0, 13_586_766_666)
        );
        assert_eq!((<$ty>::MIN.to_u64(), <$ty>::MAX.to_i64()), (0, i64::MAX));
        assert_eq!(id.to_string(), $text);
        assert_eq!(<$ty>::parse_str(&$text.to_lowercase()), Ok(id));
        // Both `const`: a constant's text and parts are checked when the crate is built.
        const PARSED: $ty = match <$ty>::parse_str($text) {
            Ok(id) => id,
            Err(_) => panic!("the cell's text"),
        };
        const FROM_PARTS: $ty = match <$ty>::from_parts(13_586_766_666, 627_498) {
            Ok(id) => id,
            Err(_) => panic!("the cell's parts"),
        };
        assert_eq!((PARSED, FROM_PARTS), (id, id));
        assert_eq!(
            format!("{id:x} {id:#X} {id:o}"),
            "329d59b4a9932a 0x329D59B4A9932A 624725466452311452"
        );
        assert_eq!(format!("{id:b}").len(), 54);
        assert_eq!(id.to_hex(), "0x329D59B4A9932A");
        assert_eq!(id.to_bin(), format!("0b{id:b}"));
        assert_eq!(String::from(id), $text);
        assert!(<$ty>::generate().unwrap() > id);
        assert!(<$ty>::try_generate().unwrap() > id);
        assert!(<$ty>::new() > id);
    }};
}

#[test]
fn every_id_type_has_the_same_readings_forms_moments_formats_and_verbs() {
    each_id_type!(cell);
}

#[tokio::test]
async fn every_id_type_generates_on_the_tokio_timer() {
    assert!(UlidFlake::generate_async().await.unwrap() > ID);
    assert!(Id::<User>::generate_async().await.unwrap() > Id::from_ulid_flake(ID));
    assert!(PrefixedId::<User>::generate_async().await.unwrap() > PrefixedId::from(ID));
    assert!(UserKey::generate_async().await.unwrap() > UserKey::from(ID));
    assert!(OrderKey::generate_async().await.unwrap() > OrderKey::from(ID));
}
