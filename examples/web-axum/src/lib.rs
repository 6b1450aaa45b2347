//! A small but real JSON API with typed Ulid-Flake keys: users and posts, stored with
//! `BIGINT` primary keys and a foreign key through sqlx, with Base32 IDs in every JSON body.
//!
//! - `POST /users`, `GET /users?after=&limit=`, `GET /users/{id}`,
//!   `GET /users/{id}/posts?after=&limit=`, `POST /posts`, `GET /posts/{id}`;
//! - cursor pagination by ID: IDs sort by creation time, so `after` is the last ID of a page;
//! - a malformed ID in a path, query or body is a 400 with a JSON error saying what was
//!   wrong, an unknown ID a 404, and a rejected request writes nothing;
//! - the OpenAPI document at `/openapi.json`.
//!
//! SQLite by default (a file, created on first run), PostgreSQL when the URL says so.

mod api;
mod error;
mod store;

use axum::Router;
use axum::routing::{get, post};
use utoipa::OpenApi;

pub use error::ApiError;
pub use store::{NewPost, NewUser, Page, Post, Store, User};

/// The OpenAPI document of the API.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Ulid-Flake example API",
        description = "Users and posts with Ulid-Flake keys"
    ),
    paths(
        api::create_user,
        api::list_users,
        api::get_user,
        api::list_posts_of_user,
        api::create_post,
        api::get_post
    ),
    components(schemas(ulid_flake_core::UlidFlake, User, Post, NewUser, NewPost, ApiError))
)]
pub struct ApiDoc;

/// The API's routes over a store.
pub fn router(store: Store) -> Router {
    Router::new()
        .route("/users", post(api::create_user).get(api::list_users))
        .route("/users/{id}", get(api::get_user))
        .route("/users/{id}/posts", get(api::list_posts_of_user))
        .route("/posts", post(api::create_post))
        .route("/posts/{id}", get(api::get_post))
        .route("/openapi.json", get(api::openapi))
        .with_state(store)
}
