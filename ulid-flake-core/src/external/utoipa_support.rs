//! utoipa: IDs in OpenAPI documents, as the 13-character strings JSON carries.
//!
//! utoipa's derives treat a generic field type such as `Id<User>` as a composition of its
//! parameters' schemas; mark such fields `#[schema(value_type = UlidFlake)]` (and
//! `#[param(value_type = ...)]` in `IntoParams`), and list `UlidFlake` among the document's
//! schemas.

use std::borrow::Cow;

use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use crate::{ENCODED_LEN, Id, UlidFlake};

/// What the parser accepts: a first character 0-7, then 12 Crockford Base32 digits, in
/// either case.
const PATTERN: &str = "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$";

fn text_schema() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .min_length(Some(ENCODED_LEN))
        .max_length(Some(ENCODED_LEN))
        .pattern(Some(PATTERN))
        .description(Some(
            "A Ulid-Flake: a time-sortable 64-bit ID as 13 Crockford Base32 characters \
             (either case accepted). A string, not a number: IDs exceed 2^53.",
        ))
        .examples(["00CMXB6TAK4SA"])
        .into()
}

impl PartialSchema for UlidFlake {
    /// A 13-character string with its pattern and an example.
    ///
    /// ```
    /// use utoipa::PartialSchema;
    /// let schema = serde_json::to_value(ulid_flake_core::UlidFlake::schema()).unwrap();
    /// assert_eq!(schema["pattern"], "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$");
    /// ```
    fn schema() -> RefOr<Schema> {
        text_schema()
    }
}

impl ToSchema for UlidFlake {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("UlidFlake")
    }
}

impl<T: ?Sized> PartialSchema for Id<T> {
    /// The schema of [`UlidFlake`]: every `Id<T>` is the same string on the wire.
    fn schema() -> RefOr<Schema> {
        text_schema()
    }
}

impl<T: ?Sized> ToSchema for Id<T> {
    /// `UlidFlake`, whatever `T` is: one schema serves every entity.
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("UlidFlake")
    }
}
