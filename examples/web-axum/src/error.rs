//! The API's errors: a status and a JSON body that says what was wrong.

use axum::Json;
use axum::extract::path::ErrorKind;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::{MAX_BODY_BYTES, MAX_URI_BYTES};

/// An error response: `{"error": "..."}` with its status.
#[derive(Debug, Serialize, utoipa::ToSchema, ts_rs::TS)]
pub struct ApiError {
    /// What was wrong, e.g. `invalid path parameter: invalid character 'I' at index 12: ...`.
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

    /// A 414: the request target (path and query) is longer than [`MAX_URI_BYTES`].
    pub(crate) fn uri_too_long(found: usize) -> Self {
        Self {
            error: format!("URI too long: expected at most {MAX_URI_BYTES} bytes, found {found}"),
            status: StatusCode::URI_TOO_LONG,
        }
    }

    /// A 500 whose detail goes to the server's log only: the client learns `error`, never
    /// internals (type names, SQL, the driver's text).
    fn internal(error: &str, detail: &dyn std::fmt::Display) -> Self {
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
const MAX_QUOTED_CHARS: usize = 32;

/// The start of `input` to quote: all of it, or its first [`MAX_QUOTED_CHARS`] characters and
/// `…`.
pub(crate) fn excerpt(input: &str) -> String {
    match input.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((end, _)) => format!("{}…", &input[..end]),
        None => input.to_owned(),
    }
}

// The extractors' rejections become 400s with the parser's own message (axum's text names
// the part of the request; the ID's error says what was expected and found).
impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> Self {
        // axum quotes the whole value; quote only the start of a long one (the message that
        // follows gives its length).
        if let PathRejection::FailedToDeserializePathParams(error) = &rejection
            && let ErrorKind::DeserializeError {
                key,
                value,
                message,
            } = error.kind()
            && value.chars().count() > MAX_QUOTED_CHARS
        {
            let start = excerpt(value);
            return Self::bad_request(format!(
                "invalid path parameter: Invalid URL: Cannot parse `{key}` with value `{start}`: {message}"
            ));
        }
        Self::bad_request(format!("invalid path parameter: {}", rejection.body_text()))
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        Self::bad_request(format!("invalid query string: {}", rejection.body_text()))
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        // Reading the body stopped at the limit (`DefaultBodyLimit` in the router).
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return Self {
                error: format!("request body too large: expected at most {MAX_BODY_BYTES} bytes"),
                status: StatusCode::PAYLOAD_TOO_LARGE,
            };
        }
        Self::bad_request(format!("invalid JSON body: {}", rejection.body_text()))
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
