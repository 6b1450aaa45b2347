use utoipa::ToSchema;

use super::*;

/// The schema's pattern for the ID's text: the prefix, if any, then the 13 characters.
fn pattern(text: &str) -> String {
    let prefix = text.strip_suffix("00CMXB6TAK4SA").unwrap();
    format!("^{prefix}[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{{12}}$")
}

/// The schema describes the text (its pattern, length and example), under the type's name.
fn check<I: ToSchema>(_id: I, text: &str, name: &str) {
    let schema = serde_json::to_value(I::schema()).unwrap();
    assert_eq!(schema["type"], "string");
    assert_eq!(schema["pattern"], pattern(text));
    assert_eq!(schema["maxLength"], text.len());
    assert_eq!(schema["examples"][0], text);
    assert_eq!(I::name(), name);
}

#[test]
fn every_id_type_is_described_as_its_text() {
    macro_rules! cell {
        ($ty:ty, $id:expr, $text:literal) => {
            // Unprefixed types share `UlidFlake`'s component; a prefixed one has its own.
            check($id, $text, match $text {
                "user_00CMXB6TAK4SA" => "PrefixedId",
                "order_00CMXB6TAK4SA" => "OrderKey",
                _ => "UlidFlake",
            })
        };
    }
    each_id_type!(cell);
}
