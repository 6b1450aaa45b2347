//! Prefixed IDs: `user_02MWMFBHB1YJ2` as text, the `Id<T>` value and storage otherwise.

use ulid_flake_core::{
    Error, Id, MAX_PREFIXED_LEN, Prefix, PrefixedId, UlidFlake, is_valid_prefix, split_prefix,
    ulid_flake,
};

#[derive(Debug)]
struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

struct Post;

impl Prefix for Post {
    const PREFIX: &'static str = "post";
}

/// The longest prefix there is, to check the buffers.
struct Long;

impl Prefix for Long {
    const PREFIX: &'static str = "abcdefghijklmnopqrstuvwxyz01234";
}

const VALUE: UlidFlake = ulid_flake!("02MWMFBHB1YJ2");

fn user() -> PrefixedId<User> {
    VALUE.into()
}

#[test]
fn display_writes_the_prefix_then_the_id() {
    assert_eq!(user().to_string(), "user_02MWMFBHB1YJ2");
    assert_eq!(
        PrefixedId::<Post>::from(VALUE).to_string(),
        "post_02MWMFBHB1YJ2"
    );
    assert_eq!(String::from(user()), "user_02MWMFBHB1YJ2");
}

#[test]
fn from_str_reads_the_exact_string() {
    assert_eq!("user_02MWMFBHB1YJ2".parse::<PrefixedId<User>>(), Ok(user()));
}

#[test]
fn from_str_reads_the_id_in_either_case() {
    // The 13 characters in either case, as unprefixed IDs; the prefix as written.
    assert_eq!("user_02mwmfbhb1yj2".parse::<PrefixedId<User>>(), Ok(user()));
}

#[test]
fn display_honours_width() {
    assert_eq!(format!("{:>20}|", user()), "  user_02MWMFBHB1YJ2|");
}

#[test]
fn debug_names_the_type() {
    assert_eq!(
        format!("{:?}", user()),
        "PrefixedId<User>(user_02MWMFBHB1YJ2)"
    );
}

#[test]
fn the_longest_prefix_round_trips() {
    let long = PrefixedId::<Long>::from(UlidFlake::MAX);
    assert_eq!(
        long.to_string(),
        "abcdefghijklmnopqrstuvwxyz01234_7ZZZZZZZZZZZZ"
    );
    assert_eq!(long.to_string().parse::<PrefixedId<Long>>(), Ok(long));
}

#[test]
fn the_value_is_the_id_s() {
    let id: Id<User> = user().into();
    assert_eq!(id.to_string(), "02MWMFBHB1YJ2");
    assert_eq!(PrefixedId::from(id), user());
    assert_eq!(user().to_id(), id);
    assert_eq!(user().to_i64(), VALUE.to_i64());
    assert_eq!(i64::from(user()), VALUE.to_i64());
    assert_eq!(PrefixedId::<User>::from_i64(VALUE.to_i64()), Ok(user()));
    assert_eq!(size_of::<PrefixedId<User>>(), 8);
}

#[test]
fn a_negative_integer_is_rejected() {
    assert_eq!(
        PrefixedId::<User>::from_i64(-1),
        Err(Error::OutOfRange { found: -1 })
    );
}

#[test]
fn a_generated_id_sorts_after_an_older_one() {
    let newer = PrefixedId::<User>::generate().unwrap();
    assert!(newer > user());
}

#[test]
fn a_generated_id_s_text_sorts_after_an_older_one_s() {
    let newer = PrefixedId::<User>::generate().unwrap();
    assert!(newer.to_string() > user().to_string());
}

#[test]
fn a_wrong_prefix_names_both() {
    let error = "post_02MWMFBHB1YJ2"
        .parse::<PrefixedId<User>>()
        .unwrap_err();
    assert_eq!(
        error,
        Error::WrongPrefix {
            expected: "user",
            found: *b"post_\0\0\0\0\0\0\0\0\0\0\0",
            found_len: 5
        }
    );
    assert_eq!(
        error.to_string(),
        "wrong prefix: expected `user_`, found `post_`"
    );
}

#[test]
fn prefixes_are_exact() {
    // No other case, no near miss.
    for (text, message) in [
        (
            "USER_02MWMFBHB1YJ2",
            "wrong prefix: expected `user_`, found `USER_`",
        ),
        (
            "users_02MWMFBHB1YJ2",
            "wrong prefix: expected `user_`, found `users_`",
        ),
        (
            "_02MWMFBHB1YJ2",
            "wrong prefix: expected `user_`, found `_`",
        ),
        (
            "invoice_02MWMFBHB1YJ2",
            "wrong prefix: expected `user_`, found `invoice_`",
        ),
        (
            "organization_02MWMFBHB1YJ2",
            "wrong prefix: expected `user_`, found `organization_`",
        ),
        (
            "internationalization_02MWMFBHB1YJ2",
            "wrong prefix: expected `user_`, found `internationaliza…` (21 bytes)",
        ),
        // Another separator, or none: no `_`, so no prefix was found.
        (
            "user-02MWMFBHB1YJ2",
            "wrong prefix: expected `user_`, found none (no `_` in the text)",
        ),
        (
            "user02MWMFBHB1YJ2",
            "wrong prefix: expected `user_`, found none (no `_` in the text)",
        ),
        (
            "\u{e9}t\u{e9}_02MWMFBHB1YJ2",
            "wrong prefix: expected `user_`, found `\\xc3\\xa9t\\xc3\\xa9_`",
        ),
    ] {
        assert_eq!(
            text.parse::<PrefixedId<User>>().unwrap_err().to_string(),
            message,
            "{text}"
        );
    }
}

/// A found prefix's length saturates at `u16::MAX` bytes: the message says it may be longer.
#[test]
fn a_prefix_past_u16_max_bytes_is_said_to_be_at_least_that_long() {
    for (prefix_len, said) in [(65_533, "65534 bytes)"), (70_000, "65535 bytes or more)")] {
        let text = format!("{}_02MWMFBHB1YJ2", "a".repeat(prefix_len));
        let message = text.parse::<PrefixedId<User>>().unwrap_err().to_string();
        assert_eq!(
            message,
            format!("wrong prefix: expected `user_`, found `aaaaaaaaaaaaaaaa…` ({said}")
        );
    }
}

#[test]
fn an_unprefixed_id_is_rejected() {
    let error = "02MWMFBHB1YJ2".parse::<PrefixedId<User>>().unwrap_err();
    assert_eq!(
        error,
        Error::WrongPrefix {
            expected: "user",
            found: [0; 16],
            found_len: 0
        }
    );
    assert_eq!(
        error.to_string(),
        "wrong prefix: expected `user_`, found none (no `_` in the text)"
    );
}

#[test]
fn a_prefixed_id_given_to_a_type_without_a_prefix_is_said_to_have_one() {
    let expected = Error::WrongPrefix {
        expected: "",
        found: *b"user_\0\0\0\0\0\0\0\0\0\0\0",
        found_len: 5,
    };
    assert_eq!(UlidFlake::parse_str("user_02MWMFBHB1YJ2"), Err(expected));
    assert_eq!(Id::<User>::parse_str("user_02MWMFBHB1YJ2"), Err(expected));
    assert_eq!(
        expected.to_string(),
        "wrong prefix: expected none (the bare 13 characters), found `user_`"
    );
    // After the prefix, a second one is the rest's length, as before.
    assert_eq!(
        PrefixedId::<User>::parse_str("user_post_02MWMFBHB1YJ2"),
        Err(Error::InvalidLength {
            found: 18,
            prefix: "user"
        })
    );
    // Only where a prefix can end, within 32 bytes: then the length, as for any text.
    let text = format!("{}_02MWMFBHB1YJ2", "a".repeat(32));
    assert_eq!(
        UlidFlake::parse_str(&text),
        Err(Error::InvalidLength { found: 46, prefix: "" })
    );
    let longest = format!("{}_02MWMFBHB1YJ2", "a".repeat(31));
    assert_eq!(
        UlidFlake::parse_str(&longest).unwrap_err().to_string(),
        "wrong prefix: expected none (the bare 13 characters), found \
         `aaaaaaaaaaaaaaaa…` (32 bytes)"
    );
    // Thirteen bytes with a `_` are a bad character, not a prefix.
    assert_eq!(
        UlidFlake::parse_str("02MWMFBHB1YJ_"),
        Err(Error::InvalidCharacter {
            index: 12,
            found: b'_'
        })
    );
}

#[test]
fn an_unprefixed_id_is_read_on_purpose_as_an_id() {
    let id: PrefixedId<User> = "02MWMFBHB1YJ2".parse::<Id<User>>().unwrap().into();
    assert_eq!(id, user());
}

#[test]
fn errors_after_the_prefix_are_the_codec_s_with_whole_text_indexes() {
    let parse = PrefixedId::<User>::parse_str;
    assert_eq!(
        parse("user_02MWMFBHB1YJI"),
        Err(Error::InvalidCharacter {
            index: 17,
            found: b'I'
        })
    );
    assert_eq!(
        parse("user_02MWMFBHB1YJ"),
        Err(Error::InvalidLength {
            found: 12,
            prefix: "user"
        })
    );
    // The length is the rest's, and the message says so.
    assert_eq!(
        parse("user_02MWMFBHB1YJ").unwrap_err().to_string(),
        "invalid length: expected 13 ASCII characters after `user_`, found 12 bytes"
    );
    assert_eq!(
        parse("user_82MWMFBHB1YJ2"),
        Err(Error::OutOfRange {
            found: i128::from(8u64 << 60 | VALUE.to_u64())
        })
    );
    assert_eq!(
        parse("user_"),
        Err(Error::InvalidLength {
            found: 0,
            prefix: "user"
        })
    );
}

#[test]
fn the_error_stays_small() {
    // `WrongPrefix` keeps its found prefix inline without growing the error (its largest
    // variant holds two `&'static str`s).
    assert_eq!(size_of::<Error>(), 48);
}

#[cfg(feature = "serde")]
mod serde_text {
    use ::serde::{Deserialize, Serialize};

    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Row {
        id: PrefixedId<User>,
        author: Option<PrefixedId<User>>,
    }

    #[test]
    fn json_carries_the_prefixed_text() {
        let row = Row {
            id: user(),
            author: None,
        };
        let json = serde_json::to_string(&row).unwrap();
        assert_eq!(json, r#"{"id":"user_02MWMFBHB1YJ2","author":null}"#);
        assert_eq!(serde_json::from_str::<Row>(&json).unwrap(), row);
    }

    /// The message of deserializing `json` as a user's prefixed ID.
    fn json_error(json: &str) -> String {
        serde_json::from_str::<PrefixedId<User>>(json)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn json_rejects_another_prefix() {
        assert_eq!(
            json_error(r#""post_02MWMFBHB1YJ2""#),
            "wrong prefix: expected `user_`, found `post_` at line 1 column 20"
        );
    }

    #[test]
    fn json_rejects_an_unprefixed_id() {
        assert_eq!(
            json_error(r#""02MWMFBHB1YJ2""#),
            "wrong prefix: expected `user_`, found none (no `_` in the text) at line 1 column 15"
        );
    }

    #[test]
    fn json_rejects_numbers() {
        assert_eq!(
            json_error("12345"),
            "invalid type: integer `12345`, expected a Ulid-Flake as a string of `user_` and 13 \
             Crockford Base32 characters (not a number: IDs exceed 2^53) at line 1 column 5"
        );
    }

    #[test]
    fn binary_formats_carry_the_integer_as_id_does() {
        let mut prefixed = Vec::new();
        ciborium::into_writer(&user(), &mut prefixed).unwrap();
        let mut plain = Vec::new();
        ciborium::into_writer(&user().to_id(), &mut plain).unwrap();
        assert_eq!(prefixed, plain);
        assert_eq!(
            ciborium::from_reader::<PrefixedId<User>, _>(prefixed.as_slice()).unwrap(),
            user()
        );
    }
}

// utoipa's macros qualify the types they are given, which `unused_qualifications` reports.
#[cfg(feature = "utoipa5")]
#[allow(unused_qualifications)]
mod utoipa_schema {
    use serde_json::json;
    use utoipa::{OpenApi, PartialSchema, ToSchema};

    use super::*;

    #[derive(ToSchema)]
    #[allow(dead_code)]
    struct Account {
        id: PrefixedId<Account>,
        owner: Option<PrefixedId<Account>>,
    }

    impl Prefix for Account {
        const PREFIX: &'static str = "user";
    }

    #[utoipa::path(get, path = "/accounts/{id}", params(("id" = PrefixedId<Account>, Path)), responses((status = 200, body = Account)))]
    #[allow(dead_code)]
    fn get_account() {}

    #[derive(OpenApi)]
    #[openapi(paths(get_account), components(schemas(Account)))]
    struct Doc;

    fn user_schema() -> serde_json::Value {
        json!({
            "type": "string",
            "minLength": 18,
            "maxLength": 18,
            "pattern": "^user_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$",
            "description": "A Ulid-Flake with the prefix `user_`: `user_` then a time-sortable \
                            64-bit ID as 13 Crockford Base32 characters (either case accepted). \
                            The prefix is required.",
            "examples": ["user_00CMXB6TAK4SA"]
        })
    }

    #[test]
    fn the_schema_is_the_prefixed_string() {
        assert_eq!(
            serde_json::to_value(PrefixedId::<Account>::schema()).unwrap(),
            user_schema()
        );
        assert_eq!(PrefixedId::<Account>::name(), "PrefixedId");
    }

    #[test]
    fn documents_define_a_component_per_entity() {
        let document = serde_json::to_value(Doc::openapi()).unwrap();
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["PrefixedId_Account"], user_schema());
        assert_eq!(
            schemas["Account"]["properties"]["id"],
            json!({ "$ref": "#/components/schemas/PrefixedId_Account" })
        );
        assert_eq!(
            document["paths"]["/accounts/{id}"]["get"]["parameters"][0]["schema"],
            json!({ "$ref": "#/components/schemas/PrefixedId_Account" })
        );
    }

    /// An entity whose schema no registered type holds an ID of.
    #[derive(ToSchema)]
    #[allow(dead_code)]
    struct Tag;

    impl Prefix for Tag {
        const PREFIX: &'static str = "tag";
    }

    #[utoipa::path(get, path = "/tags/{id}", params(("id" = PrefixedId<Tag>, Path)))]
    #[allow(dead_code)]
    fn get_tag() {}

    #[derive(OpenApi)]
    #[openapi(paths(get_tag))]
    struct Dangling;

    #[derive(OpenApi)]
    #[openapi(paths(get_tag), components(schemas(PrefixedId<Tag>)))]
    struct Registered;

    #[test]
    fn a_path_parameter_s_component_is_defined_once_registered() {
        let reference = json!({ "$ref": "#/components/schemas/PrefixedId_Tag" });
        let dangling = serde_json::to_value(Dangling::openapi()).unwrap();
        assert_eq!(
            dangling["paths"]["/tags/{id}"]["get"]["parameters"][0]["schema"],
            reference
        );
        assert_eq!(dangling["components"]["schemas"].get("PrefixedId_Tag"), None);

        let registered = serde_json::to_value(Registered::openapi()).unwrap();
        assert_eq!(
            registered["paths"]["/tags/{id}"]["get"]["parameters"][0]["schema"],
            reference
        );
        assert_eq!(
            registered["components"]["schemas"]["PrefixedId_Tag"]["pattern"],
            "^tag_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$"
        );
    }

    mod admin {
        use super::*;

        /// Another `User`: utoipa names the component after the entity's schema name.
        #[derive(ToSchema)]
        #[schema(as = admin::User)]
        #[allow(dead_code)]
        pub(super) struct User {
            name: String,
        }

        impl Prefix for User {
            const PREFIX: &'static str = "admin";
        }
    }

    #[derive(ToSchema)]
    #[allow(dead_code)]
    struct User;

    impl Prefix for User {
        const PREFIX: &'static str = "user";
    }

    #[derive(ToSchema)]
    #[allow(dead_code)]
    struct Both {
        user: PrefixedId<User>,
        admin: PrefixedId<admin::User>,
    }

    #[derive(OpenApi)]
    #[openapi(components(schemas(Both)))]
    struct Entities;

    #[test]
    fn two_entities_of_one_name_need_schema_as_to_keep_their_components_apart() {
        let document = serde_json::to_value(Entities::openapi()).unwrap();
        let schemas = &document["components"]["schemas"];
        let mut names: Vec<&str> = schemas.as_object().unwrap().keys().map(String::as_str).collect();
        names.sort_unstable();
        assert_eq!(names, ["Both", "PrefixedId_User", "PrefixedId_admin.User"]);
        assert_eq!(schemas["PrefixedId_User"]["pattern"], "^user_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$");
        assert_eq!(schemas["PrefixedId_admin.User"]["pattern"], "^admin_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$");
    }
}

#[cfg(feature = "schemars1")]
#[test]
fn the_json_schema_is_the_prefixed_string() {
    let schema = serde_json::to_value(schemars::schema_for!(PrefixedId<User>)).unwrap();
    assert_eq!(schema["title"], "PrefixedId_user");
    assert_eq!(
        schema["pattern"],
        "^user_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$"
    );
    assert_eq!(
        (&schema["minLength"], &schema["maxLength"]),
        (&18.into(), &18.into())
    );
}

/// The storage impls are `Id<T>`'s: the same `BIGINT` on every database.
#[cfg(feature = "sqlx09")]
#[test]
fn sqlx_stores_it_as_a_bigint() {
    use sqlx::{Database, Decode, Encode, Type};

    fn stored_as_bigint<DB: Database, V>()
    where
        i64: Type<DB>,
        V: Type<DB> + for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB>,
    {
    }
    // Type-checked for every `DB`, so never called.
    #[allow(dead_code)]
    fn on_every_database<DB: Database>()
    where
        i64: Type<DB> + for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB>,
    {
        stored_as_bigint::<DB, PrefixedId<User>>();
    }
}

#[cfg(feature = "diesel2")]
#[test]
fn diesel_stores_it_as_a_bigint() {
    use diesel::backend::Backend;
    use diesel::deserialize::FromSql;
    use diesel::serialize::ToSql;
    use diesel::sql_types::BigInt;

    fn stored_as_bigint<DB: Backend, V>()
    where
        i64: ToSql<BigInt, DB> + FromSql<BigInt, DB>,
        V: ToSql<BigInt, DB> + FromSql<BigInt, DB> + diesel::expression::AsExpression<BigInt>,
    {
    }
    // Type-checked for every `DB`, so never called.
    #[allow(dead_code)]
    fn on_every_backend<DB: Backend>()
    where
        i64: ToSql<BigInt, DB> + FromSql<BigInt, DB>,
    {
        stored_as_bigint::<DB, PrefixedId<User>>();
    }
}

#[test]
fn the_integer_forms_are_the_ids_without_a_prefix() {
    let id = user();
    let value = VALUE.to_u64();
    assert_eq!(id.to_u64(), value);
    assert_eq!(PrefixedId::<User>::from_u64(value), Ok(id));
    assert_eq!(
        PrefixedId::<User>::from_u64(1 << 63),
        Err(Error::OutOfRange { found: 1 << 63 })
    );
    assert_eq!(id.to_bytes(), value.to_be_bytes());
    assert_eq!(PrefixedId::<User>::from_bytes(value.to_be_bytes()), Ok(id));
    assert_eq!(
        PrefixedId::<User>::from_bytes([0x80, 0, 0, 0, 0, 0, 0, 0]),
        Err(Error::OutOfRange { found: 1 << 63 })
    );
    assert_eq!(format!("{id:x}"), format!("{value:x}"));
    assert_eq!(format!("{id:#X}"), format!("{value:#X}"));
    assert_eq!(format!("{id:b}"), format!("{value:b}"));
    assert_eq!(format!("{id:o}"), format!("{value:o}"));
    assert_eq!(format!("{id:#x}"), format!("{:#x}", id.to_id()));
}

#[test]
fn encode_writes_the_display_text_into_a_buffer() {
    let mut buf = [0; MAX_PREFIXED_LEN];
    assert_eq!(user().encode(&mut buf), "user_02MWMFBHB1YJ2");
    let long = PrefixedId::<Long>::from(UlidFlake::MAX);
    let mut buf = [0; MAX_PREFIXED_LEN];
    let text = long.encode(&mut buf);
    assert_eq!(text, "abcdefghijklmnopqrstuvwxyz01234_7ZZZZZZZZZZZZ");
    assert_eq!(text.len(), MAX_PREFIXED_LEN);
    assert_eq!(text, long.to_string());
}

#[test]
fn split_prefix_applies_the_rule_of_every_prefix() {
    assert_eq!(
        split_prefix(b"user_02MWMFBHB1YJ2"),
        Some(("user", &b"02MWMFBHB1YJ2"[..]))
    );
    // The rest is not parsed: the caller reads it.
    assert_eq!(split_prefix(b"v2_x"), Some(("v2", &b"x"[..])));
    let longest = format!("{}_02MWMFBHB1YJ2", Long::PREFIX);
    assert_eq!(
        split_prefix(longest.as_bytes()),
        Some((Long::PREFIX, &b"02MWMFBHB1YJ2"[..]))
    );
    for text in [
        "02MWMFBHB1YJ2",
        "_02MWMFBHB1YJ2",
        "User_02MWMFBHB1YJ2",
        "2fa_02MWMFBHB1YJ2",
        "us-er_02MWMFBHB1YJ2",
        "abcdefghijklmnopqrstuvwxyz012345_02MWMFBHB1YJ2", // 32 characters
    ] {
        assert_eq!(split_prefix(text.as_bytes()), None, "{text}");
    }
    assert_eq!(split_prefix(b"\xFFuser_02MWMFBHB1YJ2"), None);
    assert!(is_valid_prefix(Long::PREFIX));
    assert!(!is_valid_prefix("abcdefghijklmnopqrstuvwxyz012345"));
}
