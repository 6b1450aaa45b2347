//! utoipa: IDs in OpenAPI documents, as the 13-character strings JSON carries.
//!
//! [`UlidFlake`](crate::UlidFlake) (and every unprefixed `newtype!` key) is the component
//! `UlidFlake`. An `Id<T>` field needs no attribute in a `#[derive(ToSchema)]` type: utoipa's derive composes a generic type with its parameters,
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
//! A prefixed type has a schema of its own: `PrefixedId<User>` is the component
//! `PrefixedId_User`, a prefixed `newtype!` key its own name (`OrderId`). A path parameter
//! `PrefixedId<Tag>` whose component no registered schema brings in is defined by
//! registering the type itself, `components(schemas(PrefixedId<Tag>))`
//! (`a_path_parameter_s_component_is_defined_once_registered`). The component is named after
//! the entity's schema name, not its prefix (utoipa composes the name): two entities both
//! named `User` would share one component, whichever prefix came last; give one its own
//! name, `#[schema(as = admin::User)]`, and its IDs get `PrefixedId_admin.User`
//! (`two_entities_of_one_name_need_schema_as_to_keep_their_components_apart`).
//!
//! Every ID type implements utoipa's `ComposeSchema`, which the derive calls for generic
//! types. utoipa hides that trait from its docs (`utoipa::__dev`), but it is the only way a
//! hand-written generic type composes, and the tests pin the document it produces.

use alloc::borrow::Cow;

use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
use utoipa::openapi::{RefOr, Schema};

use super::schema_text::{DESCRIPTION, EXAMPLE, NAME, PATTERN, prefixed};
use crate::id_type::IdType;
use crate::layout::ENCODED_LEN;

/// The schema of an ID type's text: the 13-character string, its pattern and an example, or
/// for a prefixed type a string of exactly the prefixed length with the prefix in its
/// pattern and example (for `user`, `^user_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$` and
/// `user_00CMXB6TAK4SA`).
///
/// ```
/// use ulid_flake_core::{Prefix, PrefixedId, UlidFlake};
/// use utoipa::PartialSchema;
///
/// let schema = serde_json::to_value(UlidFlake::schema()).unwrap();
/// assert_eq!(schema["pattern"], "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$");
///
/// struct User;
/// impl Prefix for User {
///     const PREFIX: &'static str = "user";
/// }
/// let schema = serde_json::to_value(PrefixedId::<User>::schema()).unwrap();
/// assert_eq!(schema["pattern"], "^user_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$");
/// assert_eq!(schema["maxLength"], 18);
/// ```
pub fn schema<I: IdType>() -> RefOr<Schema> {
    let builder = ObjectBuilder::new().schema_type(SchemaType::new(Type::String));
    match I::PREFIX {
        None => builder
            .min_length(Some(ENCODED_LEN))
            .max_length(Some(ENCODED_LEN))
            .pattern(Some(PATTERN))
            .description(Some(DESCRIPTION))
            .examples([EXAMPLE]),
        Some(prefix) => builder
            .min_length(Some(prefixed::length(prefix)))
            .max_length(Some(prefixed::length(prefix)))
            .pattern(Some(prefixed::pattern(prefix)))
            .description(Some(prefixed::description(prefix)))
            .examples([prefixed::example(prefix)]),
    }
    .into()
}

/// The schema's name: `UlidFlake` for every unprefixed type, so that they share one
/// component; a prefixed type's own name (`PrefixedId`, which a derived type's field
/// composes with `T`'s into `PrefixedId_User`, or a `newtype!` key's, `OrderId`).
pub fn name<I: IdType>() -> Cow<'static, str> {
    Cow::Borrowed(if I::PREFIX.is_none() { NAME } else { I::NAME })
}

/// Implements utoipa's `ToSchema` and `ComposeSchema` (hence `PartialSchema`) for an ID type,
/// as [`schema`] and [`name`]. Not public API: the list in `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_utoipa5 {
    (["utoipa5" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_utoipa5!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        const _: () = {

            impl<$($generics)*> $crate::__private::utoipa::__dev::ComposeSchema for $ty {
                /// The schema of the ID's text, whatever the entity's schema is: the entity
                /// never reaches the wire.
                fn compose(_entity: $crate::__private::Vec<$crate::__private::utoipa::openapi::RefOr<$crate::__private::utoipa::openapi::Schema>>) -> $crate::__private::utoipa::openapi::RefOr<$crate::__private::utoipa::openapi::Schema> {
                    $crate::__private::utoipa5_support::schema::<Self>()
                }
            }

            impl<$($generics)*> $crate::__private::utoipa::ToSchema for $ty {
                fn name() -> $crate::__private::Cow<'static, str> {
                    $crate::__private::utoipa5_support::name::<Self>()
                }
            }
        };
    };
}
