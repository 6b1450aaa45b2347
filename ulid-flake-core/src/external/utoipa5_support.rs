//! utoipa: IDs in OpenAPI documents, as the 13-character strings JSON carries.
//!
//! [`UlidFlake`] is the component `UlidFlake`. An `Id<T>` field needs no attribute in a
//! `#[derive(ToSchema)]` type: utoipa's derive composes a generic type with its parameters,
//! so it refers to a component `UlidFlake_{T}` (`UlidFlake_User`), which it registers too;
//! every such component is the same string schema. The derive reads `T`'s schema name, so
//! `T` must implement `ToSchema`, as the entities of an API do; for an entity that does not,
//! mark the field `#[schema(value_type = UlidFlake)]`.
//!
//! A path parameter (`params(("id" = Id<User>, Path))`) refers to the same `UlidFlake_User`,
//! which the document defines only when a schema it registers has an `Id<User>` field (as
//! `components(schemas(User))` does when `User` has its key): otherwise the reference
//! dangles. Register such a schema, or give the parameter `UlidFlake`.
//!
//! `Id<T>` implements utoipa's `ComposeSchema`, which the derive calls for generic types.
//! utoipa hides that trait from its docs (`utoipa::__dev`), but it is the only way a
//! hand-written generic type composes, and the tests pin the document it produces.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use utoipa::__dev::ComposeSchema;
use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::schema_text::{DESCRIPTION, EXAMPLE, NAME, PATTERN};
use crate::external::schema_text::prefixed;
use crate::id::Id;
use crate::layout::ENCODED_LEN;
use crate::prefixed::{Prefix, PrefixedId};
use crate::ulid_flake::UlidFlake;

fn text_schema() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::String))
        .min_length(Some(ENCODED_LEN))
        .max_length(Some(ENCODED_LEN))
        .pattern(Some(PATTERN))
        .description(Some(DESCRIPTION))
        .examples([EXAMPLE])
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
        Cow::Borrowed(NAME)
    }
}

impl<T: ?Sized> ComposeSchema for Id<T> {
    /// The schema of [`UlidFlake`], whatever `T`'s schema is: the entity never reaches the
    /// wire. Through it, `Id<T>` has utoipa's `PartialSchema`.
    ///
    /// ```
    /// use ulid_flake_core::Id;
    /// use utoipa::{PartialSchema, ToSchema};
    ///
    /// #[derive(ToSchema)]
    /// struct User {
    ///     id: Id<User>,
    ///     parent: Option<Id<User>>,
    /// }
    ///
    /// let schema = serde_json::to_value(Id::<User>::schema()).unwrap();
    /// assert_eq!((schema["type"].as_str(), schema["maxLength"].as_u64()), (Some("string"), Some(13)));
    /// let user = serde_json::to_value(User::schema()).unwrap();
    /// assert_eq!(user["properties"]["id"]["$ref"], "#/components/schemas/UlidFlake_User");
    /// ```
    fn compose(_entity: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        text_schema()
    }
}

impl<T: ?Sized> ToSchema for Id<T> {
    /// `UlidFlake`, whatever `T` is; a derived type's field names its component
    /// `UlidFlake_{T}`.
    fn name() -> Cow<'static, str> {
        Cow::Borrowed(NAME)
    }
}

impl<T: Prefix + ?Sized> ComposeSchema for PrefixedId<T> {
    /// A string of exactly the prefixed length, with the prefix in its pattern and example:
    /// for `user`, `^user_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$` and
    /// `user_00CMXB6TAK4SA`. A derived type's field names its component `PrefixedId_{T}`
    /// (`PrefixedId_User`), one per entity, as the schemas differ.
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    /// use utoipa::PartialSchema;
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let schema = serde_json::to_value(PrefixedId::<User>::schema()).unwrap();
    /// assert_eq!(schema["pattern"], "^user_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$");
    /// assert_eq!(schema["maxLength"], 18);
    /// ```
    fn compose(_entity: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        let prefix = Self::PREFIX;
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .min_length(Some(prefixed::length(prefix)))
            .max_length(Some(prefixed::length(prefix)))
            .pattern(Some(prefixed::pattern(prefix)))
            .description(Some(prefixed::description(prefix)))
            .examples([prefixed::example(prefix)])
            .into()
    }
}

impl<T: Prefix + ?Sized> ToSchema for PrefixedId<T> {
    /// `PrefixedId`; a derived type's field names its component `PrefixedId_{T}`.
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("PrefixedId")
    }
}
