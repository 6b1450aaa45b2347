//! serde: text in human-readable formats, the integer in binary ones, `with` modules.

use serde::{Deserialize, Serialize};
use ulid_flake_core::{Id, UlidFlake, ulid_flake};

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct User {
    id: Id<User>,
    referrer: Option<Id<User>>,
    raw: UlidFlake,
}

const ID: UlidFlake = ulid_flake!("00CMXB6TAK4SA");

fn user() -> User {
    User {
        id: ID.into(),
        referrer: Some(UlidFlake::MAX.into()),
        raw: UlidFlake::MIN,
    }
}

#[test]
fn json_carries_the_text_and_round_trips() {
    let json = serde_json::to_string(&user()).unwrap();
    assert_eq!(
        json,
        r#"{"id":"00CMXB6TAK4SA","referrer":"7ZZZZZZZZZZZZ","raw":"0000000000000"}"#
    );
    assert_eq!(serde_json::from_str::<User>(&json).unwrap(), user());
}

/// A user in JSON with a lowercase ID and a `null` referrer.
fn lowercase_user_with_null_referrer() -> User {
    let lower = r#"{"id":"00cmxb6tak4sa","referrer":null,"raw":"0000000000000"}"#;
    serde_json::from_str(lower).unwrap()
}

#[test]
fn json_accepts_lowercase_text() {
    assert_eq!(lowercase_user_with_null_referrer().id, ID.into());
}

#[test]
fn json_null_is_none() {
    assert_eq!(lowercase_user_with_null_referrer().referrer, None);
}

/// The message of deserializing `json` as an ID.
fn json_error(json: &str) -> String {
    serde_json::from_str::<Id<User>>(json)
        .unwrap_err()
        .to_string()
}

#[test]
fn json_rejects_numbers_with_a_clear_message() {
    assert_eq!(
        json_error("14246757444195114"),
        "invalid type: integer `14246757444195114`, expected a Ulid-Flake as a 13-character \
         Crockford Base32 string (not a number: IDs exceed 2^53) at line 1 column 17"
    );
    assert_eq!(
        json_error("-1"),
        "invalid type: integer `-1`, expected a Ulid-Flake as a 13-character Crockford Base32 \
         string (not a number: IDs exceed 2^53) at line 1 column 2"
    );
    // A float, as JavaScript writes a large integer, is refused alike.
    assert_eq!(
        json_error("1.4246757444195114e16"),
        "invalid type: floating point `1.4246757444195114e+16`, expected a Ulid-Flake as a \
         13-character Crockford Base32 string (not a number: IDs exceed 2^53) at line 1 column 21"
    );
    assert_eq!(
        json_error("14246757444195114.0"),
        "invalid type: floating point `1.4246757444195114e+16`, expected a Ulid-Flake as a \
         13-character Crockford Base32 string (not a number: IDs exceed 2^53) at line 1 column 19"
    );
}

#[test]
fn json_rejects_malformed_text_with_the_codec_s_messages() {
    assert_eq!(
        json_error(r#""00CMXB6TAK4SI""#),
        "invalid character 'I' at index 12: expected a Crockford Base32 digit \
         (0-9, A-Z without I, L, O, U, in either case) at line 1 column 15"
    );
    assert_eq!(
        json_error(r#""00CMXB6TAK4S""#),
        "invalid length: expected 13 ASCII characters, found 12 bytes at line 1 column 14"
    );
    assert_eq!(
        json_error(r#""8000000000000""#),
        "value out of range: expected 0..=9223372036854775807, \
         found 9223372036854775808 (in Base32 text: expected a first character 0-7, found 8) at line 1 column 15"
    );
}

#[test]
fn json_rejects_other_types_naming_what_it_expected() {
    // serde_json reports every wrong type with the visitor's own words, which cannot tell
    // what was found: the word on numbers comes with each.
    assert_eq!(
        json_error("true"),
        "invalid type: boolean `true`, expected a Ulid-Flake as a 13-character Crockford \
         Base32 string (not a number: IDs exceed 2^53) at line 1 column 4"
    );
    assert_eq!(
        json_error("{}"),
        "invalid type: map, expected a Ulid-Flake as a 13-character Crockford Base32 string \
         (not a number: IDs exceed 2^53) at line 1 column 0"
    );
    assert_eq!(
        json_error("null"),
        "invalid type: null, expected a Ulid-Flake as a 13-character Crockford Base32 string \
         (not a number: IDs exceed 2^53) at line 1 column 4"
    );
}

#[derive(Debug, Deserialize)]
struct Page {
    after: Id<User>,
    limit: u32,
}

#[test]
fn query_strings_deserialize_through_deserialize_str() {
    let page: Page = serde_urlencoded::from_str("after=00CMXB6TAK4SA&limit=10").unwrap();
    assert_eq!((page.after, page.limit), (ID.into(), 10));
}

#[test]
fn query_strings_reject_malformed_ids_with_the_codec_s_message() {
    let error = serde_urlencoded::from_str::<Page>("after=00CMXB6TAK4S&limit=10").unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid length: expected 13 ASCII characters, found 12 bytes"
    );
}

#[test]
fn cbor_carries_the_integer() {
    let mut cbor = Vec::new();
    ciborium::into_writer(&ID, &mut cbor).unwrap();
    // CBOR major type 0 with an 8-byte argument (0x1B), then the value, big-endian.
    let mut expected = vec![0x1B];
    expected.extend(ID.to_u64().to_be_bytes());
    assert_eq!(cbor, expected);
}

#[test]
fn cbor_round_trips() {
    let mut cbor = Vec::new();
    ciborium::into_writer(&user(), &mut cbor).unwrap();
    assert_eq!(
        ciborium::from_reader::<User, _>(cbor.as_slice()).unwrap(),
        user()
    );
}

#[test]
fn cbor_rejects_an_integer_above_i64_max() {
    let mut too_large = Vec::new();
    ciborium::into_writer(&(1_u64 << 63), &mut too_large).unwrap();
    let error = ciborium::from_reader::<UlidFlake, _>(too_large.as_slice()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Semantic(None, \"value out of range: expected 0..=9223372036854775807, \
        found 9223372036854775808 (in Base32 text: expected a first character 0-7, found 8)\")"
    );
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Pinned {
    #[serde(with = "ulid_flake_core::serde::integer")]
    as_integer: Id<User>,
    #[serde(with = "ulid_flake_core::serde::integer::option")]
    maybe_integer: Option<UlidFlake>,
    #[serde(with = "ulid_flake_core::serde::text")]
    as_text: UlidFlake,
    #[serde(with = "ulid_flake_core::serde::text::option")]
    maybe_text: Option<Id<User>>,
}

fn pinned() -> Pinned {
    Pinned {
        as_integer: ID.into(),
        maybe_integer: None,
        as_text: ID,
        maybe_text: Some(ID.into()),
    }
}

#[test]
fn with_modules_pin_the_representation_in_json() {
    let json = serde_json::to_string(&pinned()).unwrap();
    assert_eq!(
        json,
        r#"{"as_integer":14246757444195114,"maybe_integer":null,"as_text":"00CMXB6TAK4SA","maybe_text":"00CMXB6TAK4SA"}"#
    );
    assert_eq!(serde_json::from_str::<Pinned>(&json).unwrap(), pinned());
}

#[test]
fn with_modules_round_trip_in_cbor() {
    let mut cbor = Vec::new();
    ciborium::into_writer(&pinned(), &mut cbor).unwrap();
    assert_eq!(
        ciborium::from_reader::<Pinned, _>(cbor.as_slice()).unwrap(),
        pinned()
    );
}

#[test]
fn the_integer_module_rejects_a_negative_number() {
    let negative =
        r#"{"as_integer":-1,"maybe_integer":null,"as_text":"00CMXB6TAK4SA","maybe_text":null}"#;
    assert_eq!(
        serde_json::from_str::<Pinned>(negative)
            .unwrap_err()
            .to_string(),
        "value out of range: expected 0..=9223372036854775807, found -1 at line 1 column 16"
    );
}

#[test]
fn the_integer_module_rejects_a_string() {
    let text = r#"{"as_integer":"00CMXB6TAK4SA","maybe_integer":null,"as_text":"00CMXB6TAK4SA","maybe_text":null}"#;
    assert_eq!(
        serde_json::from_str::<Pinned>(text)
            .unwrap_err()
            .to_string(),
        "invalid type: string \"00CMXB6TAK4SA\", expected a Ulid-Flake as an integer \
         0..=9223372036854775807 at line 1 column 29"
    );
}

impl ulid_flake_core::Prefix for User {
    const PREFIX: &'static str = "user";
}

ulid_flake_core::newtype! {
    /// A prefixed key, for the `with` modules.
    pub struct OrderId;
    prefix = "order";
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct PinnedPrefixed {
    #[serde(with = "ulid_flake_core::serde::text")]
    user: ulid_flake_core::PrefixedId<User>,
    #[serde(with = "ulid_flake_core::serde::text::option")]
    order: Option<OrderId>,
    #[serde(with = "ulid_flake_core::serde::integer")]
    user_number: ulid_flake_core::PrefixedId<User>,
    #[serde(with = "ulid_flake_core::serde::integer::option")]
    order_number: Option<OrderId>,
}

#[test]
fn text_keeps_each_id_type_s_prefix() {
    let pinned = PinnedPrefixed {
        user: ID.into(),
        order: Some(OrderId::from(ID)),
        user_number: ID.into(),
        order_number: Some(OrderId::from(ID)),
    };
    // The text is the type's own, prefix and all; the integer has no prefix to keep.
    let json = serde_json::to_string(&pinned).unwrap();
    assert_eq!(
        json,
        r#"{"user":"user_00CMXB6TAK4SA","order":"order_00CMXB6TAK4SA","user_number":14246757444195114,"order_number":14246757444195114}"#
    );
    assert_eq!(
        serde_json::from_str::<PinnedPrefixed>(&json).unwrap(),
        pinned
    );
    // In a binary format too, where the text is what the module pins.
    let mut cbor = Vec::new();
    ciborium::into_writer(&pinned, &mut cbor).unwrap();
    assert!(cbor.windows(18).any(|text| text == b"user_00CMXB6TAK4SA"));
    assert_eq!(
        ciborium::from_reader::<PinnedPrefixed, _>(cbor.as_slice()).unwrap(),
        pinned
    );
    // The bare 13 characters are another type's text: refused with the type's message.
    let bare = json.replace("user_00CMXB6TAK4SA", "00CMXB6TAK4SA");
    assert_eq!(
        serde_json::from_str::<PinnedPrefixed>(&bare)
            .unwrap_err()
            .to_string(),
        "wrong prefix: expected `user_`, found none (no `_` in the text) at line 1 column 23"
    );
}

#[test]
fn pinned_fields_survive_flatten_in_binary_formats() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Inner {
        #[serde(with = "ulid_flake_core::serde::integer")]
        id: UlidFlake,
    }
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Outer {
        #[serde(flatten)]
        inner: Inner,
    }
    let outer = Outer {
        inner: Inner { id: ID },
    };
    let mut cbor = Vec::new();
    ciborium::into_writer(&outer, &mut cbor).unwrap();
    assert_eq!(
        ciborium::from_reader::<Outer, _>(cbor.as_slice()).unwrap(),
        outer
    );
}

#[test]
fn unpinned_flattened_fields_refuse_the_integer_in_binary_formats() {
    // Unpinned, serde's buffering claims a human-readable format and the integer is refused:
    // the limitation the `with` modules exist for.
    #[derive(Debug, Serialize, Deserialize)]
    struct Unpinned {
        #[serde(flatten)]
        inner: Plain,
    }
    #[derive(Debug, Serialize, Deserialize)]
    struct Plain {
        id: UlidFlake,
    }
    let mut cbor = Vec::new();
    ciborium::into_writer(
        &Unpinned {
            inner: Plain { id: ID },
        },
        &mut cbor,
    )
    .unwrap();
    let error = ciborium::from_reader::<Unpinned, _>(cbor.as_slice()).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("invalid type: integer `14246757444195114`"),
        "{error}"
    );
}
