//! The API's errors: a status and a JSON body that says what was wrong.

use axum::Json;
use axum::extract::path::ErrorKind;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use ulid_flake_core::Prefix;

use crate::{MAX_BODY_BYTES, MAX_URI_BYTES};

/// An error response: `{"error": "..."}` with its status.
#[derive(Debug, Serialize, utoipa::ToSchema, ts_rs::TS)]
pub struct ApiError {
    /// What was wrong: what was expected and what was found, e.g.
    /// ``invalid query string: expected a limit of 1 to 100, found `101` ``.
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

impl ApiError {
    /// A 400 for a path parameter that is not an ID of `T`, in the API's words rather than
    /// axum's (`Invalid URL: Cannot parse ...`): the parameter, the ID expected, the value (only
    /// its start if long: the ID's message gives the length) and the ID's own message.
    pub(crate) fn from_path_rejection<T: Prefix>(rejection: &PathRejection) -> Self {
        let expected = format!("expected a `{}_` ID", T::PREFIX);
        if let PathRejection::FailedToDeserializePathParams(error) = rejection {
            match error.kind() {
                ErrorKind::DeserializeError {
                    key,
                    value,
                    message,
                } => {
                    let found = excerpt(value);
                    return Self::bad_request(format!(
                        "invalid path parameter `{key}`: {expected}, found `{found}`: {message}"
                    ));
                }
                // axum has the key only, not the value.
                ErrorKind::InvalidUtf8InPathParam { key } => {
                    return Self::bad_request(format!(
                        "invalid path parameter `{key}`: {expected}, found bytes that are not \
                         UTF-8 once percent-decoded"
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

    /// The error of a JSON body: a 413 for one over [`MAX_BODY_BYTES`], which states the size
    /// that the request declared (`Content-Length`, read by the caller: the rejection does not
    /// know it), else a 400 with the parser's message.
    pub(crate) fn from_json_rejection(rejection: &JsonRejection, declared: Option<u64>) -> Self {
        // Reading the body stopped at the limit (`DefaultBodyLimit` in the router).
        if rejection.status() != StatusCode::PAYLOAD_TOO_LARGE {
            return Self::bad_request(format!("invalid JSON body: {}", rejection.body_text()));
        }
        // A body without `Content-Length` (chunked) was read up to the limit only. hyper ends a
        // body at its declared length (and drops the header beside chunked encoding), so a
        // declared one is over the limit: the filter only keeps the message from contradicting
        // itself behind another server.
        let found = match declared.filter(|&length| length > MAX_BODY_BYTES as u64) {
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
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        Self::bad_request(format!("invalid query string: {}", rejection.body_text()))
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
