//! The handlers. Every extractor's rejection is the API's JSON error rather than axum's plain
//! text: the handlers use those of `extract.rs` only.

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ulid_flake_core::PrefixedId;
use utoipa::OpenApi;

use crate::error::{excerpt, excerpt_code_points};
use crate::extract::{JsonBody, PageQuery, PathId};
use crate::{
    ApiDoc, ApiError, MAX_TEXT_CHARS, MAX_URI_BYTES, NewPost, NewUser, Page, Post, Store, User,
};

/// The routes, for the 404 of any other.
const ROUTES: &str = "POST /users, GET /users, GET /users/{id}, GET /users/{id}/posts, \
                      POST /posts, GET /posts/{id}, GET /openapi.json, GET /health";

/// The router's fallback: a 404 naming the routes, where axum's has an empty body.
pub(crate) async fn no_route(method: Method, uri: Uri) -> ApiError {
    ApiError::not_found(format!(
        "no such route: expected one of {ROUTES}, found `{}`",
        excerpt(&format!("{method} {}", uri.path()))
    ))
}

/// A 405 (a route, another method) with a JSON body naming the methods of the route: axum's
/// has an empty body and the `Allow` header, which a fallback handler cannot read, and which
/// stays.
pub(crate) async fn method_not_allowed(request: Request, next: Next) -> Response {
    let (method, uri) = (request.method().clone(), request.uri().clone());
    let response = next.run(request).await;
    if response.status() != StatusCode::METHOD_NOT_ALLOWED {
        return response;
    }
    let allow = response.headers().get(header::ALLOW).cloned();
    let allowed = allow
        .as_ref()
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let expected = match allowed.split(',').collect::<Vec<_>>().as_slice() {
        [one] => (*one).to_owned(),
        several => format!("one of {}", several.join(", ")),
    };
    let mut json = ApiError::method_not_allowed(format!(
        "method not allowed for `{}`: expected {expected}, found `{}`",
        excerpt(uri.path()),
        excerpt(method.as_str())
    ))
    .into_response();
    if let Some(allow) = allow {
        json.headers_mut().insert(header::ALLOW, allow);
    }
    json
}

/// A request target longer than [`MAX_URI_BYTES`] is a 414 before routing. (Over 64 KiB, hyper
/// answers the 414 itself, with an empty body: such a request never reaches the router.)
pub(crate) async fn limit_uri(request: Request, next: Next) -> Response {
    let length = request
        .uri()
        .path_and_query()
        .map_or(0, |target| target.as_str().len());
    if length > MAX_URI_BYTES {
        return ApiError::uri_too_long(length).into_response();
    }
    next.run(request).await
}

/// A 400 for a text `field` that is blank (empty or only whitespace: a name or title that
/// shows nothing), or that not every database stores: longer than [`MAX_TEXT_CHARS`] (counted
/// as JSON Schema's `maxLength` counts: Unicode scalar values, not bytes), or holding a NUL
/// character (valid JSON, `\u0000`, but PostgreSQL's `TEXT` refuses it while SQLite stores it:
/// the same request must get the same answer on both).
fn check_text(field: &str, value: &str) -> Result<(), ApiError> {
    if let Some(index) = value.chars().position(|character| character == '\0') {
        return Err(ApiError::bad_request(format!(
            "invalid JSON body: {field}: expected text without NUL characters (U+0000), \
             found one at character {index}"
        )));
    }
    if value.chars().all(is_ecmascript_whitespace) {
        // By code points: the whitespace itself would show nothing.
        return Err(ApiError::bad_request(format!(
            "invalid JSON body: {field}: expected a non-blank {field}, found `{}`",
            excerpt_code_points(value)
        )));
    }
    match value.chars().count() {
        found if found > MAX_TEXT_CHARS => Err(ApiError::bad_request(format!(
            "invalid JSON body: {field}: expected at most {MAX_TEXT_CHARS} characters, found {found}"
        ))),
        _ => Ok(()),
    }
}

/// Whitespace as ECMAScript's `\s` matches it (its `WhiteSpace` and `LineTerminator`): the
/// schema's `pattern: "\S"` for a non-blank text, so that the server and a client checking
/// the schema agree. (Rust's `char::is_whitespace` differs: U+0085 is whitespace there, U+FEFF
/// is not.)
fn is_ecmascript_whitespace(character: char) -> bool {
    matches!(
        character,
        '\u{9}'..='\u{D}'
            | ' '
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

#[utoipa::path(post, path = "/users", request_body = NewUser,
    responses((status = 201, body = User), (status = 400, body = ApiError),
        (status = 413, body = ApiError), (status = 415, body = ApiError), (status = 500, body = ApiError)))]
pub(crate) async fn create_user(
    State(store): State<Store>,
    JsonBody(new): JsonBody<NewUser>,
) -> Result<(StatusCode, Json<User>), ApiError> {
    check_text("name", &new.name)?;
    Ok((
        StatusCode::CREATED,
        Json(store.create_user(new.name).await?),
    ))
}

#[utoipa::path(get, path = "/users", params(PageQuery<User>),
    responses((status = 200, body = Page<User>), (status = 400, body = ApiError), (status = 500, body = ApiError)))]
pub(crate) async fn list_users(
    State(store): State<Store>,
    page: PageQuery<User>,
) -> Result<Json<Page<User>>, ApiError> {
    Ok(Json(store.users(page.after, page.limit).await?))
}

#[utoipa::path(get, path = "/users/{id}", params(("id" = PrefixedId<User>, Path, description = "The user's ID")),
    responses((status = 200, body = User), (status = 400, body = ApiError), (status = 404, body = ApiError),
        (status = 500, body = ApiError)))]
pub(crate) async fn get_user(
    State(store): State<Store>,
    PathId(id): PathId<User>,
) -> Result<Json<User>, ApiError> {
    let user = store.user(id).await?;
    user.map(Json)
        .ok_or_else(|| ApiError::not_found(format!("no user {id}")))
}

#[utoipa::path(get, path = "/users/{id}/posts",
    params(("id" = PrefixedId<User>, Path, description = "The author's ID"), PageQuery<Post>),
    responses((status = 200, body = Page<Post>), (status = 400, body = ApiError), (status = 404, body = ApiError),
        (status = 500, body = ApiError)))]
pub(crate) async fn list_posts_of_user(
    State(store): State<Store>,
    PathId(id): PathId<User>,
    page: PageQuery<Post>,
) -> Result<Json<Page<Post>>, ApiError> {
    if store.user(id).await?.is_none() {
        return Err(ApiError::not_found(format!("no user {id}")));
    }
    Ok(Json(store.posts_of(id, page.after, page.limit).await?))
}

#[utoipa::path(post, path = "/posts", request_body = NewPost,
    responses((status = 201, body = Post), (status = 400, body = ApiError), (status = 404, body = ApiError),
        (status = 413, body = ApiError), (status = 415, body = ApiError), (status = 500, body = ApiError)))]
pub(crate) async fn create_post(
    State(store): State<Store>,
    JsonBody(new): JsonBody<NewPost>,
) -> Result<(StatusCode, Json<Post>), ApiError> {
    check_text("title", &new.title)?;
    let author = new.author;
    match store.create_post(new).await? {
        Some(post) => Ok((StatusCode::CREATED, Json(post))),
        None => Err(ApiError::not_found(format!("no user {author}"))),
    }
}

#[utoipa::path(get, path = "/posts/{id}", params(("id" = PrefixedId<Post>, Path, description = "The post's ID")),
    responses((status = 200, body = Post), (status = 400, body = ApiError), (status = 404, body = ApiError),
        (status = 500, body = ApiError)))]
pub(crate) async fn get_post(
    State(store): State<Store>,
    PathId(id): PathId<Post>,
) -> Result<Json<Post>, ApiError> {
    let post = store.post(id).await?;
    post.map(Json)
        .ok_or_else(|| ApiError::not_found(format!("no post {id}")))
}

pub(crate) async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

/// `GET /health`: 200 while IDs can be issued, 503 while the scalability-id lease (on
/// PostgreSQL, see `main.rs`) is not known to be valid; the body reports the lease.
pub(crate) async fn health() -> Response {
    let Some(lease) = ulid_flake_core::lease::installed_lease_status() else {
        return Json(serde_json::json!({ "status": "ok", "lease": null })).into_response();
    };
    let issuing = matches!(
        lease.state,
        ulid_flake_core::lease::LeaseState::Held | ulid_flake_core::lease::LeaseState::Confirming
    );
    let valid_until_unix_ms = lease.valid_until.and_then(|moment| {
        let since = moment.duration_since(std::time::UNIX_EPOCH).ok()?;
        u64::try_from(since.as_millis()).ok()
    });
    let body = serde_json::json!({
        "status": if issuing { "ok" } else { "unavailable" },
        "lease": {
            "state": lease.state.to_string(),
            "namespace": lease.namespace,
            "scalability_id": lease.scalability_id,
            "valid_until_unix_ms": valid_until_unix_ms,
            "last_error": lease.last_error,
            "acquisitions": lease.acquisitions,
            "losses": lease.losses,
        },
    });
    let status = if issuing {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body)).into_response()
}
