//! The API's errors: a status and a JSON body that says what was wrong.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// An error response: `{"error": "..."}` with its status.
#[derive(Debug, Serialize, utoipa::ToSchema)]
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
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self)).into_response()
    }
}

// The extractors' rejections become 400s with the parser's own message (axum's text names
// the part of the request; the ID's error says what was expected and found).
impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> Self {
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
        Self::bad_request(format!("invalid JSON body: {}", rejection.body_text()))
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        Self {
            error: format!("database error: {error}"),
            status: StatusCode::INTERNAL_SERVER_ERROR,
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
