//! The extractors of IDs in paths, of list queries and of JSON bodies, whose rejections are the
//! API's errors: the messages need what axum's rejections do not carry (the ID expected, the
//! body's declared length), a query takes no parameter the API does not know, and a body must
//! be a JSON object.

use std::fmt;
use std::marker::PhantomData;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde_path_to_error::Segment;
use ulid_flake_core::{Prefix, PrefixedId};

use crate::error::{MAX_QUOTED_CHARS, excerpt};
use crate::{ApiError, MAX_BODY_BYTES};

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

/// The query of a list of `T`s: `?after=<id>&limit=<n>`, both optional, each at most once; any
/// other parameter is a 400, as an unknown field of a body is.
#[derive(Debug, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct PageQuery<T: Prefix + utoipa::ToSchema> {
    /// The last ID of the previous page; the first page without it.
    #[param(required = false)]
    pub(crate) after: Option<PrefixedId<T>>,
    /// How many items, 1 to 100; 20 without it.
    #[param(required = false, minimum = 1, maximum = 100, default = 20)]
    pub(crate) limit: u32,
}

impl<T: Prefix + utoipa::ToSchema, S: Send + Sync> FromRequestParts<S> for PageQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        // As text: serde's errors (`Failed to deserialize query string: after: ...`, a
        // number's `invalid digit found in string`) would not say what a parameter must be.
        let Query(parameters) = Query::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            // Any query is a list of pairs (malformed percent-encoding is decoded lossily).
            .map_err(|rejection| {
                ApiError::internal(
                    "internal error: the query string could not be read",
                    &rejection.body_text(),
                )
            })?;
        let (mut after, mut limit) = (None, None);
        for (name, value) in parameters {
            let slot = match name.as_str() {
                "after" => &mut after,
                "limit" => &mut limit,
                _ => {
                    return Err(ApiError::bad_request(format!(
                        "invalid query string: expected one of `after`, `limit`, found `{}`",
                        excerpt(&name)
                    )));
                }
            };
            if slot.replace(value).is_some() {
                return Err(ApiError::bad_request(format!(
                    "invalid query parameter `{name}`: expected one value, found more than one"
                )));
            }
        }
        Ok(Self {
            after: after.as_deref().map(Self::after).transpose()?,
            limit: limit.as_deref().map_or(Ok(20), Self::limit)?,
        })
    }
}

impl<T: Prefix + utoipa::ToSchema> PageQuery<T> {
    fn after(text: &str) -> Result<PrefixedId<T>, ApiError> {
        text.parse()
            .map_err(|error| ApiError::bad_id::<T>("query", "after", text, &error))
    }

    fn limit(text: &str) -> Result<u32, ApiError> {
        match text.parse() {
            Ok(limit @ 1..=100) => Ok(limit),
            _ => Err(ApiError::bad_request(format!(
                "invalid query parameter `limit`: expected an integer of 1 to 100, found `{}`",
                excerpt(text)
            ))),
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
        check_json_content_type(request.headers())?;
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok()?.parse().ok());
        // Refused before reading: a client waiting for `100 Continue`, or one that declares
        // more than it sends, gets its answer at once.
        if declared.is_some_and(|length: u64| length > MAX_BODY_BYTES as u64) {
            return Err(ApiError::body_too_large(declared));
        }
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            // Only a body without `Content-Length` (chunked) reaches the limit
            // (`DefaultBodyLimit` in the router) here, and its whole length is unknown. Any
            // other failure is the connection's: a malformed chunk, a body cut short.
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::body_too_large(None)
            } else {
                ApiError::bad_request(
                    "invalid JSON body: expected a complete body, found one that could not be read",
                )
            }
        })?;
        if bytes.is_empty() {
            return Err(ApiError::bad_request(format!(
                "invalid JSON body: expected {}, found an empty body",
                T::EXPECTED
            )));
        }
        // serde_json's message names no field: the path to it (`title`) comes from
        // serde_path_to_error, as in axum's own `Json`.
        let mut deserializer = serde_json::Deserializer::from_slice(&bytes);
        let (path, error) = match serde_path_to_error::deserialize(&mut deserializer) {
            Ok(Object(body)) => match deserializer.end() {
                Ok(()) => return Ok(Self(body)),
                // Trailing characters: after the value, at no field.
                Err(error) => (None, error),
            },
            Err(error) => {
                let path = error.path();
                let named = path
                    .iter()
                    .any(|segment| !matches!(segment, Segment::Unknown));
                let last_key = match path.iter().next_back() {
                    Some(Segment::Map { key }) => Some(key.clone()),
                    _ => None,
                };
                (
                    named.then(|| (path.to_string(), last_key)),
                    error.into_inner(),
                )
            }
        };
        let message = in_json_words(&error.to_string());
        // The client's text that serde_json quotes — a key, a string — as an excerpt: a
        // message never repeats a whole input. Cut in the message: serde_json refuses a
        // string body before any method of `ObjectVisitor` runs, and the derived body types
        // name an unknown key themselves.
        let message = excerpt_string_value(&message).unwrap_or(message);
        Err(ApiError::bad_request(match path {
            Some((path, last_key)) => {
                let message = last_key
                    .and_then(|key| excerpt_unknown_field(&message, &key))
                    .unwrap_or(message);
                format!("invalid JSON body: {}: {message}", excerpt(&path))
            }
            None => format!("invalid JSON body: {message}"),
        }))
    }
}

/// A 415 unless the `Content-Type` is JSON: `application/json` or `application/*+json`, with
/// any parameters (as axum's `Json` accepts).
fn check_json_content_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Err(ApiError::unsupported_media_type(None));
    };
    let text = String::from_utf8_lossy(value.as_bytes());
    let essence = text.split(';').next().unwrap_or_default().trim();
    let json = essence.split_once('/').is_some_and(|(kind, subtype)| {
        let subtype = subtype.to_ascii_lowercase();
        kind.eq_ignore_ascii_case("application")
            && (subtype == "json" || subtype.ends_with("+json"))
    });
    if json {
        Ok(())
    } else {
        Err(ApiError::unsupported_media_type(Some(&text)))
    }
}

/// `serde_json`'s `message` with JSON's words for the types that serde calls a sequence and a
/// map (`invalid type: sequence, expected a string`). Only at the start: the message of
/// another error may quote the client's text.
fn in_json_words(message: &str) -> String {
    for (serde, json) in [("sequence", "array"), ("map", "object")] {
        if let Some(rest) = message.strip_prefix(&format!("invalid type: {serde},")) {
            return format!("invalid type: {json},{rest}");
        }
    }
    message.to_owned()
}

/// `message` with the string value it quotes (`invalid type: string "…"`, in Rust's escaped
/// form) cut to [`MAX_QUOTED_CHARS`] characters and `…`; `None` when it quotes none.
fn excerpt_string_value(message: &str) -> Option<String> {
    let lead = ["invalid type: string \"", "invalid value: string \""]
        .into_iter()
        .find(|lead| message.starts_with(lead))?;
    let quoted = &message[lead.len()..];
    let mut characters = quoted.char_indices();
    let mut count = 0;
    let mut cut = None;
    while let Some((index, character)) = characters.next() {
        match character {
            '"' => {
                let (shown, ellipsis) = match cut {
                    Some(cut) if cut < index => (&quoted[..cut], "…"),
                    _ => (&quoted[..index], ""),
                };
                return Some(format!("{lead}{shown}{ellipsis}{}", &quoted[index..]));
            }
            // An escape is one character of the string: `\"`, `\n`, `\u{1f}`.
            '\\' => {
                let escaped = characters.next().map(|(_, escaped)| escaped);
                if escaped == Some('u') {
                    characters.find(|&(_, character)| character == '}');
                }
            }
            _ => {}
        }
        count += 1;
        if count == MAX_QUOTED_CHARS && cut.is_none() {
            cut = characters.clone().next().map(|(next, _)| next);
        }
    }
    None
}

/// `message` with the unknown field `key` that it names first (``unknown field `key` ``)
/// quoted as an [`excerpt`]; `None` when it names no such field.
fn excerpt_unknown_field(message: &str, key: &str) -> Option<String> {
    let rest = message.strip_prefix(&format!("unknown field `{key}`"))?;
    Some(format!("unknown field `{}`{rest}", excerpt(key)))
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
