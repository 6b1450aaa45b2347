//! OpenAPI (utoipa) and JSON Schema (schemars): an ID is described as the 13-character
//! string JSON carries, with its pattern and an example, for `UlidFlake` and `Id<T>` fields
//! alike, with no attribute on the fields.

/// The schema every ID field ends up at, in both crates' output.
#[cfg(any(feature = "utoipa5", feature = "schemars1"))]
fn id_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "string",
        "minLength": 13,
        "maxLength": 13,
        "pattern": "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$",
        "description": "A Ulid-Flake: a time-sortable 64-bit ID as 13 Crockford Base32 characters \
                        (either case accepted). A string, not a number: IDs exceed 2^53.",
        "examples": ["00CMXB6TAK4SA"]
    })
}

// utoipa's `path` and `OpenApi` macros qualify the types they are given, which this
// workspace's `unused_qualifications` lint reports on the test's own code.
#[cfg(feature = "utoipa5")]
#[allow(unused_qualifications)]
mod utoipa_schema {
    use serde_json::json;
    use ulid_flake_core::{Id, UlidFlake};
    use utoipa::{OpenApi, PartialSchema, ToSchema};

    use super::id_schema;

    #[derive(ToSchema)]
    #[allow(dead_code)]
    struct User {
        id: Id<User>,
        parent: Option<Id<User>>,
        tags: Vec<Id<Tag>>,
        raw: UlidFlake,
    }

    // The derive names `Id<Tag>`'s component after `Tag`, so `Tag` must have a schema name.
    #[derive(ToSchema)]
    #[allow(dead_code)]
    struct Tag {
        id: Id<Tag>,
    }

    /// `GET /users/{id}`, with the ID as a path parameter.
    #[utoipa::path(get, path = "/users/{id}", params(("id" = Id<User>, Path)), responses((status = 200, body = User)))]
    #[allow(dead_code)]
    fn get_user() {}

    #[derive(OpenApi)]
    #[openapi(paths(get_user), components(schemas(User)))]
    struct Doc;

    #[test]
    fn id_fields_refer_to_a_string_component_per_entity() {
        assert_eq!(
            serde_json::to_value(User::schema()).unwrap(),
            json!({
                "type": "object",
                "required": ["id", "tags", "raw"],
                "properties": {
                    "id": { "$ref": "#/components/schemas/UlidFlake_User" },
                    "parent": {
                        "oneOf": [
                            { "type": "null" },
                            { "$ref": "#/components/schemas/UlidFlake_User" }
                        ]
                    },
                    "tags": {
                        "type": "array",
                        "items": { "$ref": "#/components/schemas/UlidFlake_Tag" }
                    },
                    "raw": { "$ref": "#/components/schemas/UlidFlake" }
                }
            })
        );
    }

    #[test]
    fn documents_define_every_referenced_id_component_as_the_string() {
        let document = serde_json::to_value(Doc::openapi()).unwrap();
        let schemas = &document["components"]["schemas"];
        let mut names: Vec<&str> = schemas
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        names.sort_unstable();
        assert_eq!(
            names,
            ["UlidFlake", "UlidFlake_Tag", "UlidFlake_User", "User"]
        );
        for name in ["UlidFlake", "UlidFlake_Tag", "UlidFlake_User"] {
            assert_eq!(schemas[name], id_schema(), "{name}");
        }
        assert_eq!(
            document["paths"]["/users/{id}"]["get"]["parameters"],
            json!([{
                "name": "id",
                "in": "path",
                "required": true,
                "schema": { "$ref": "#/components/schemas/UlidFlake_User" }
            }])
        );
    }

    #[test]
    fn the_schema_of_an_id_is_the_schema_of_the_untyped_value() {
        assert_eq!(
            serde_json::to_value(Id::<User>::schema()).unwrap(),
            id_schema()
        );
        assert_eq!(
            serde_json::to_value(UlidFlake::schema()).unwrap(),
            id_schema()
        );
        assert_eq!(Id::<User>::name(), "UlidFlake");
        assert_eq!(UlidFlake::name(), "UlidFlake");
    }
}

#[cfg(feature = "schemars1")]
mod json_schema {
    use serde_json::json;
    use ulid_flake_core::{Id, UlidFlake};

    use super::id_schema;

    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct User {
        id: Id<User>,
        parent: Option<Id<User>>,
        tags: Vec<Id<Tag>>,
        raw: UlidFlake,
    }

    /// An entity with no `JsonSchema`: `Id<Tag>` does not need one.
    struct Tag;

    #[test]
    fn every_id_field_refers_to_one_string_definition() {
        assert_eq!(
            serde_json::to_value(schemars::schema_for!(User)).unwrap(),
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": "User",
                "type": "object",
                "properties": {
                    "id": { "$ref": "#/$defs/UlidFlake" },
                    "parent": {
                        "anyOf": [{ "$ref": "#/$defs/UlidFlake" }, { "type": "null" }]
                    },
                    "tags": { "type": "array", "items": { "$ref": "#/$defs/UlidFlake" } },
                    "raw": { "$ref": "#/$defs/UlidFlake" }
                },
                "required": ["id", "tags", "raw"],
                "$defs": { "UlidFlake": id_schema() }
            })
        );
    }

    #[test]
    fn a_lone_id_is_the_string_schema() {
        let mut expected = id_schema();
        expected["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        expected["title"] = json!("UlidFlake");
        assert_eq!(
            serde_json::to_value(schemars::schema_for!(Id<Tag>)).unwrap(),
            expected
        );
        assert_eq!(
            serde_json::to_value(schemars::schema_for!(UlidFlake)).unwrap(),
            expected
        );
    }
}
