//! The extractors of IDs in paths and of JSON bodies, whose rejections are the API's errors:
//! the messages need what axum's rejections do not carry (the ID expected, the body's declared
//! length), and a body must be a JSON object.

use std::fmt;
use std::marker::PhantomData;

use axum::Json;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::header;
use axum::http::request::Parts;
use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use ulid_flake_core::{Prefix, PrefixedId};

use crate::ApiError;

/// The ID of a `T` that the route's one path parameter holds.
pub(crate) struct PathId<T: Prefix>(pub(crate) PrefixedId<T>);

impl<T: Prefix, S: Send + Sync> FromRequestParts<S> for PathId<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<PrefixedId<T>>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(Self(id)),
            Err(rejection) => Err(ApiError::from_path_rejection::<T>(&rejection)),
        }
    }
}

/// A request body: a struct read from a JSON object (with [`JsonBody`]).
pub(crate) trait RequestBody: DeserializeOwned {
    /// What the body must be, in the error of any other JSON value: serde's own text names the
    /// Rust type (`expected struct NewUser`).
    const EXPECTED: &'static str;
}

/// A JSON body: a `T` read from a JSON object.
pub(crate) struct JsonBody<T>(pub(crate) T);

impl<T: RequestBody, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        // Read before the body is: a rejection at the body limit does not know the length.
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok()?.parse().ok());
        match Json::<Object<T>>::from_request(request, state).await {
            Ok(Json(Object(body))) => Ok(Self(body)),
            Err(rejection) => Err(ApiError::from_json_rejection(&rejection, declared)),
        }
    }
}

/// A `T` read from a JSON object only. A derived struct also takes an array of its fields in
/// order (`["Ada"]` for a user), which the API does not document, and the errors of an array
/// (`invalid length 0`) would not say that an object was expected.
struct Object<T>(T);

impl<'de, T: RequestBody> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ObjectVisitor(PhantomData))
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: RequestBody> Visitor<'de> for ObjectVisitor<T> {
    type Value = Object<T>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(T::EXPECTED)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(Object)
    }
}
