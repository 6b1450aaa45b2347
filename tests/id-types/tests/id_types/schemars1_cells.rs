use schemars::JsonSchema;

use super::*;

/// The JSON Schema describes the text, under one name per text: `UlidFlake` or
/// `PrefixedId_{prefix}`.
fn check<I: JsonSchema>(_id: I, text: &str) {
    let schema = serde_json::to_value(schemars::schema_for!(I)).unwrap();
    let prefix = text.strip_suffix("00CMXB6TAK4SA").unwrap();
    assert_eq!(
        schema["pattern"],
        format!("^{prefix}[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{{12}}$")
    );
    assert_eq!(schema["maxLength"], text.len());
    let name = match prefix.strip_suffix('_') {
        None => "UlidFlake".to_owned(),
        Some(prefix) => format!("PrefixedId_{prefix}"),
    };
    assert_eq!(I::schema_name(), name);
}

macro_rules! cell {
    ($ty:ty, $id:expr, $text:literal) => {
        check($id, $text)
    };
}

#[test]
fn every_id_type_is_described_as_its_text() {
    each_id_type!(cell);
}

/// A document with all five types has three definitions: one shared by the unprefixed types,
/// one per prefix.
#[test]
fn unprefixed_types_share_one_definition_and_each_prefix_has_its_own() {
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Row {
        a: UlidFlake,
        b: Id<User>,
        c: PrefixedId<User>,
        d: UserKey,
        e: OrderKey,
    }
    let schema = serde_json::to_value(schemars::schema_for!(Row)).unwrap();
    let mut definitions: Vec<&String> = schema["$defs"].as_object().unwrap().keys().collect();
    definitions.sort();
    assert_eq!(definitions, ["PrefixedId_order", "PrefixedId_user", "UlidFlake"]);
    assert_eq!(schema["properties"]["d"]["$ref"], "#/$defs/UlidFlake");
    assert_eq!(schema["properties"]["e"]["$ref"], "#/$defs/PrefixedId_order");
}
