use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::*;

/// JSON carries the text and rejects a number; CBOR (a binary format) carries the integer.
fn check<I: Serialize + DeserializeOwned + PartialEq + Debug>(id: I, text: &str) {
    let json = format!("\"{text}\"");
    assert_eq!(serde_json::to_string(&id).unwrap(), json);
    assert_eq!(serde_json::from_str::<I>(&json).unwrap(), id);
    let error = serde_json::from_str::<I>(&INTEGER.to_string()).unwrap_err();
    assert!(
        error.to_string().starts_with(&format!(
            "invalid type: integer `{INTEGER}`, expected a Ulid-Flake as a"
        )),
        "{error}"
    );

    let mut cbor = Vec::new();
    ciborium::into_writer(&id, &mut cbor).unwrap();
    assert_eq!(ciborium::from_reader::<u64, _>(&cbor[..]).unwrap(), INTEGER as u64);
    assert_eq!(ciborium::from_reader::<I, _>(&cbor[..]).unwrap(), id);
}

macro_rules! cell {
    ($ty:ty, $id:expr, $text:literal) => {
        check($id, $text)
    };
}

#[test]
fn every_id_type_is_its_text_in_json_and_its_integer_in_cbor() {
    each_id_type!(cell);
}

ulid_flake_core::newtype! {
    /// A key that implements serde itself.
    struct OwnSerdeKey;
    without = ["serde"];
}

impl Serialize for OwnSerdeKey {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(self.to_i64())
    }
}

#[test]
fn a_key_without_serde_has_its_own_impl_and_not_the_cores() {
    assert_eq!(
        serde_json::to_string(&OwnSerdeKey::from(ID)).unwrap(),
        INTEGER.to_string()
    );
}
