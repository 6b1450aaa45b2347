//! The API's errors: a status and a JSON body that says what was wrong.

use std::fmt::Display;

use axum::Json;
use axum::extract::path::ErrorKind;
use axum::extract::rejection::PathRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use ulid_flake_core::Prefix;

use crate::{MAX_BODY_BYTES, MAX_URI_BYTES};

/// An error response: `{"error": "..."}` with its status.
#[derive(Debug, Serialize, utoipa::ToSchema, ts_rs::TS)]
pub struct ApiError {
    /// What was wrong: what was expected and what was found, e.g.
    /// ``invalid query parameter `limit`: expected an integer of 1 to 100, found `101` ``.
    pub error: String,
    #[serde(skip)]
    status: StatusCode,
}

impl ApiError {
    /// A 400: the request was malformed.
    pub fn bad_request(error: impl Into<String>) -> Self {
        Self {
            error: error.into(),
            status: StatusCode::BAD_REQUEST,
        }
    }

    /// A 404: an ID names nothing.
    pub fn not_found(error: impl Into<String>) -> Self {
        Self {
            error: error.into(),
            status: StatusCode::NOT_FOUND,
        }
    }

    /// A 405: the route takes other methods.
    pub(crate) fn method_not_allowed(error: impl Into<String>) -> Self {
        Self {
            error: error.into(),
            status: StatusCode::METHOD_NOT_ALLOWED,
        }
    }

    /// A 413: the body is longer than [`MAX_BODY_BYTES`]: `declared` is its `Content-Length`,
    /// if it has one (else the body was read up to the limit only).
    pub(crate) fn body_too_large(declared: Option<u64>) -> Self {
        let found = match declared {
            Some(length) => format!("{length} bytes"),
            None => "more".to_owned(),
        };
        Self {
            error: format!(
                "request body too large: expected at most {MAX_BODY_BYTES} bytes, found {found}"
            ),
            status: StatusCode::PAYLOAD_TOO_LARGE,
        }
    }

    /// A 415: the body's `Content-Type` (`found`, if any) is not JSON.
    pub(crate) fn unsupported_media_type(found: Option<&str>) -> Self {
        let found = found.map_or_else(
            || "none".to_owned(),
            |found| format!("`{}`", excerpt(found)),
        );
        Self {
            error: format!(
                "unsupported media type: expected Content-Type `application/json`, found {found}"
            ),
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }

    /// A 414: the request target (path and query) is longer than [`MAX_URI_BYTES`].
    pub(crate) fn uri_too_long(found: usize) -> Self {
        Self {
            error: format!("URI too long: expected at most {MAX_URI_BYTES} bytes, found {found}"),
            status: StatusCode::URI_TOO_LONG,
        }
    }

    /// A 500 whose detail goes to the server's log only: the client learns `error`, never
    /// internals (type names, SQL, the driver's text).
    pub(crate) fn internal(error: &str, detail: &dyn Display) -> Self {
        eprintln!("{error}: {detail}");
        Self {
            error: error.to_owned(),
            status: StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self)).into_response()
    }
}

/// The most characters of an input that an error message quotes; a longer input is cut.
pub(crate) const MAX_QUOTED_CHARS: usize = 32;

/// The start of `input` to quote between backticks: all of it, or its first
/// [`MAX_QUOTED_CHARS`] characters and `…`. Characters that would not show or would garble the
/// message are written as their code points (`<U+0060>`): control characters, the bidi
/// controls that reorder the text around them, and the backtick that would end the quote.
pub(crate) fn excerpt(input: &str) -> String {
    excerpt_escaping(input, |character| {
        character.is_control()
            || matches!(
                character,
                '`' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
            )
    })
}

/// The start of `input` as [`excerpt`] quotes it, with every character written as its code
/// point: for text of whitespace only, which shows nothing otherwise.
pub(crate) fn excerpt_code_points(input: &str) -> String {
    excerpt_escaping(input, |_| true)
}

fn excerpt_escaping(input: &str, escaped: impl Fn(char) -> bool) -> String {
    let mut quoted = String::new();
    for (index, character) in input.chars().enumerate() {
        if index == MAX_QUOTED_CHARS {
            quoted.push('…');
            break;
        }
        if escaped(character) {
            quoted.push_str(&format!("<U+{:04X}>", u32::from(character)));
        } else {
            quoted.push(character);
        }
    }
    quoted
}

impl ApiError {
    /// A 400 for a path parameter that is not an ID of `T`, in the API's words
    /// ([`ApiError::bad_id`]) rather than axum's (`Invalid URL: Cannot parse ...`).
    pub(crate) fn from_path_rejection<T: Prefix>(rejection: &PathRejection) -> Self {
        if let PathRejection::FailedToDeserializePathParams(error) = rejection {
            match error.kind() {
                ErrorKind::DeserializeError {
                    key,
                    value,
                    message,
                } => return Self::bad_id::<T>("path", key, value, message),
                // axum has the key only, not the value.
                ErrorKind::InvalidUtf8InPathParam { key } => {
                    return Self::bad_request(format!(
                        "invalid path parameter `{key}`: expected a `{}_` ID, found bytes that \
                         are not UTF-8 once percent-decoded",
                        T::PREFIX
                    ));
                }
                _ => {}
            }
        }
        // The other kinds come from a route and an extractor that do not fit (another number
        // of parameters, a type that is no text): axum answers them with a 500 too, and their
        // text names Rust types.
        Self::internal(
            "internal error: the path parameters could not be read",
            &rejection.body_text(),
        )
    }

    /// A 400 for a `kind` (`path`, `query`) parameter `key` whose `value` is not an ID of `T`:
    /// the ID expected, the value (only its start if long: the ID's message gives the length)
    /// and the ID's own `message`.
    pub(crate) fn bad_id<T: Prefix>(
        kind: &str,
        key: &str,
        value: &str,
        message: &dyn Display,
    ) -> Self {
        Self::bad_request(format!(
            "invalid {kind} parameter `{key}`: expected a `{}_` ID, found `{}`: {message}",
            T::PREFIX,
            excerpt(value)
        ))
    }
}

// sqlx's text names Rust types (`ulid_flake_core::Id<...>`), columns and SQL: it is logged,
// and the client gets a fixed message.
impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        match error {
            // A row the types reject: a `TEXT` or negative value in an ID column, say.
            sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_) => {
                Self::internal("internal error: a stored row could not be read", &error)
            }
            _ => Self::internal("internal error: the database request failed", &error),
        }
    }
}

impl From<ulid_flake_core::Error> for ApiError {
    /// Generation fails only on a broken clock: a server error.
    fn from(error: ulid_flake_core::Error) -> Self {
        Self {
            error: format!("cannot make an ID: {error}"),
            status: StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}
