//! A small but real JSON API with typed Ulid-Flake keys: users and posts, stored with
//! `BIGINT` primary keys and a foreign key through sqlx, with Base32 IDs in every JSON body.
//! The IDs are prefixed (`user_02MWMFBHB1YJ2`, `post_…`) in JSON, paths and the OpenAPI
//! document, and stored as the same `BIGINT`s: a post's ID where a user's belongs is a 400
//! that names both prefixes.
//!
//! - `POST /users`, `GET /users?after=&limit=`, `GET /users/{id}`,
//!   `GET /users/{id}/posts?after=&limit=`, `POST /posts`, `GET /posts/{id}`;
//! - cursor pagination by ID: IDs sort by creation time, so `after` is the last ID of a page;
//! - a malformed ID in a path, query or body is a 400 with a JSON error saying what was
//!   wrong, an unknown ID a 404, and a rejected request writes nothing;
//! - an unknown route is a 404 that lists the routes, and a route asked with another method a
//!   405 that names its methods (as its `Allow` header does);
//! - a `limit` that is not a number of 1 to 100 is a 400 that quotes it, and so is a query
//!   parameter the API does not know or given twice, and a body field the API does not know
//!   (a client's `id` is not silently replaced); a body that is not a JSON object (an array of
//!   the fields in order included) is a 400, and one whose `Content-Type` is not JSON a 415;
//! - an error quotes the client's input by its start only (32 characters; a string or an
//!   unknown key that serde's message quotes too), with control characters, bidi
//!   controls and backticks written as code points (`<U+0060>`), and a blank name by code
//!   points (`<U+3000>`);
//! - limits: a request body of at most [`MAX_BODY_BYTES`] (16 KiB; a 413 beyond, before it
//!   is read if its `Content-Length` declares more), a request target (path and query) of at
//!   most [`MAX_URI_BYTES`] (2 KiB; a 414 beyond), names and titles of at most
//!   [`MAX_TEXT_CHARS`] (200) characters (a 400 beyond), not blank (a 400 for empty or
//!   whitespace-only text, whitespace as ECMAScript's `\s`, so as the schema's pattern `\S`
//!   means it), without NUL characters (a 400 on every database:
//!   PostgreSQL's `TEXT` refuses them, SQLite does not);
//! - a stored row the types reject (a corrupt ID column) is a 500 with a fixed message; the
//!   detail goes to the server's standard error only;
//! - the OpenAPI document at `/openapi.json` (and `example-web-axum --print-openapi`), and
//!   the TypeScript declarations of the API's types ([`typescript`], printed by
//!   `example-web-axum --print-typescript`), where a prefixed ID is the template literal type
//!   of its text (`` `user_${string}` ``), so that a frontend cannot pass a post's ID where a
//!   user's belongs;
//! - `GET /health`: on PostgreSQL the server leases its scalability id from the database
//!   (`ulid_flake_sqlx::lease_postgres`), and the health check reports the lease — 200 while
//!   it is valid, 503 while IDs cannot be issued.
//!
//! Every error is a JSON [`ApiError`], except for a request target over 64 KiB or a request
//! head over about 400 KiB: hyper answers those (414, 431) itself, with an empty body, before
//! any of this code runs.
//!
//! SQLite by default (a file, created on first run), PostgreSQL when the URL says so.

mod api;
mod error;
mod extract;
mod store;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use utoipa::{Modify, OpenApi};

pub use error::ApiError;
pub use store::{NewPost, NewUser, Page, Post, Store, User};

/// The largest request body read, in bytes: a longer one is a 413.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// The longest request target (path and query), in bytes: a longer one is a 414.
pub const MAX_URI_BYTES: usize = 2 * 1024;

/// The most characters (Unicode scalar values) in a name or a title: more is a 400.
pub const MAX_TEXT_CHARS: usize = 200;

/// The OpenAPI document of the API.
#[derive(OpenApi)]
#[openapi(
    info(title = "Ulid-Flake example API"),
    modifiers(&DocumentInfo),
    paths(
        api::create_user,
        api::list_users,
        api::get_user,
        api::list_posts_of_user,
        api::create_post,
        api::get_post
    ),
    components(schemas(User, Post, NewUser, NewPost, ApiError))
)]
pub struct ApiDoc;

/// The document's description, with the limits from their constants, and no license: the
/// crate declares none, and utoipa's default (from `CARGO_PKG_LICENSE`) is one named `""`.
struct DocumentInfo;

impl Modify for DocumentInfo {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.info.license = None;
        openapi.info.description = Some(format!(
            "Users and posts with Ulid-Flake keys. Limits: request bodies of at most \
             {MAX_BODY_BYTES} bytes (413 beyond), request targets of at most {MAX_URI_BYTES} \
             bytes (414 beyond), names and titles of at most {MAX_TEXT_CHARS} characters, \
             not blank and without NUL characters (400 otherwise)."
        ));
    }
}

/// The TypeScript declarations of the API's types, one `export type` each (ts-rs): what
/// `example-web-axum --print-typescript` prints for a frontend.
pub fn typescript() -> String {
    use ts_rs::{Config, TS};

    let config = Config::new();
    let declarations = [
        User::decl(&config),
        Post::decl(&config),
        NewUser::decl(&config),
        NewPost::decl(&config),
        ApiError::decl(&config),
    ];
    let mut text = String::from(
        "// The types of the Ulid-Flake example API (example-web-axum --print-typescript).\n",
    );
    for declaration in declarations {
        text.push_str("\nexport ");
        text.push_str(&declaration);
        text.push('\n');
    }
    // `Page<T>` by hand: ts-rs declares a generic type with a placeholder for `T`, which has
    // no prefix for the `next` cursor's `PrefixedId<T>`. The cursor is the item type's ID.
    text.push_str(
        "\n/** One page of a list, in ID (creation) order: `next` is the cursor of the next \
         page (`?after=`), or `null` on the last page. */\n\
         export type Page<T extends { id: string }> = { items: Array<T>, next: T[\"id\"] | null, };\n",
    );
    text
}

/// The API's routes over a store, with the body and request-target limits.
pub fn router(store: Store) -> Router {
    let routes = Router::new()
        .route("/users", post(api::create_user).get(api::list_users))
        .route("/users/{id}", get(api::get_user))
        .route("/users/{id}/posts", get(api::list_posts_of_user))
        .route("/posts", post(api::create_post))
        .route("/posts/{id}", get(api::get_post))
        .route("/openapi.json", get(api::openapi))
        .route("/health", get(api::health))
        .fallback(api::no_route)
        .with_state(store)
        // The JSON extractors stop reading here; the rejection becomes a JSON 413.
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));
    // Around the routes as one service: a layer of `routes` wraps each route inside it, where
    // a 405 has no `Allow` header yet.
    Router::new()
        .fallback_service(routes)
        .layer(axum::middleware::from_fn(api::method_not_allowed))
        .layer(axum::middleware::from_fn(api::limit_uri))
}
