//! End to end: the server on a loopback port, driven over HTTP, on an SQLite file and on
//! PostgreSQL (`ULID_FLAKE_TEST_POSTGRES_URL`, set by `scripts/with-databases.sh`; the
//! PostgreSQL tests fail without it).

use std::sync::atomic::{AtomicU32, Ordering};

use example_web_axum::{Post, Store, User, router};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Connection;

/// A server on a free loopback port over a fresh database, and its store for checks.
struct Server {
    base: String,
    store: Store,
    client: reqwest::Client,
}

fn unique(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "{prefix}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

impl Server {
    async fn start(url: &str) -> Self {
        let store = Store::connect(url).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app = router(store.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self {
            base,
            store,
            client: reqwest::Client::new(),
        }
    }

    async fn sqlite() -> Self {
        let directory = std::env::var_os("ULID_FLAKE_TEST_SQLITE_DIR")
            .map_or_else(std::env::temp_dir, Into::into);
        let path = directory.join(format!("{}.sqlite3", unique("web")));
        Self::start(&format!("sqlite://{}?mode=rwc", path.display())).await
    }

    /// A new database on the test server, so that tests do not see each other's rows.
    async fn postgres() -> Self {
        let url = std::env::var("ULID_FLAKE_TEST_POSTGRES_URL")
            .expect("ULID_FLAKE_TEST_POSTGRES_URL is not set: run through scripts/test.sh");
        let mut admin = sqlx::PgConnection::connect(&url)
            .await
            .unwrap_or_else(|error| panic!("PostgreSQL at {url} is unreachable: {error}"));
        let database = unique("ulid_flake_web");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {database}")))
            .execute(&mut admin)
            .await
            .unwrap();
        let (server, _) = url.rsplit_once('/').unwrap();
        Self::start(&format!("{server}/{database}")).await
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        (response.status(), response.json().await.unwrap())
    }

    async fn post(&self, path: &str, body: &str) -> (StatusCode, Value) {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
            .await
            .unwrap();
        (response.status(), response.json().await.unwrap())
    }

    async fn create_user(&self, name: &str) -> User {
        let (status, body) = self
            .post("/users", &json!({ "name": name }).to_string())
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        serde_json::from_value(body).unwrap()
    }
}

/// The message of a rejected ID, as the codec words it.
const BAD_CHARACTER: &str =
    "expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)";

macro_rules! e2e_tests {
    ($backend:ident) => {
        mod $backend {
            use super::*;

            #[tokio::test]
            async fn users_and_posts_round_trip_with_base32_ids_and_cursor_pages() {
                let server = Server::$backend().await;
                let users = [server.create_user("Ada").await, server.create_user("Bob").await, server.create_user("Cy").await];
                for user in &users {
                    let id = user.id.to_string();
                    assert_eq!(id.len(), 13);
                    let (status, body) = server.get(&format!("/users/{id}")).await;
                    assert_eq!((status, body), (StatusCode::OK, json!({ "id": id, "name": user.name })));
                }
                // Lowercase is the same ID.
                let (status, _) = server.get(&format!("/users/{}", users[0].id.to_string().to_lowercase())).await;
                assert_eq!(status, StatusCode::OK);

                // Pages follow creation order; `next` is the cursor of the following page.
                let (status, first) = server.get("/users?limit=2").await;
                assert_eq!(status, StatusCode::OK);
                assert_eq!(first, json!({ "items": [users[0], users[1]], "next": users[1].id.to_string() }));
                let (_, second) = server.get(&format!("/users?limit=2&after={}", users[1].id)).await;
                assert_eq!(second, json!({ "items": [users[2]], "next": null }));

                let body = json!({ "author": users[0].id, "title": "Notes" }).to_string();
                let (status, created) = server.post("/posts", &body).await;
                assert_eq!(status, StatusCode::CREATED, "{created}");
                let post: Post = serde_json::from_value(created.clone()).unwrap();
                assert_eq!(post.author, users[0].id);
                assert_eq!(server.get(&format!("/posts/{}", post.id)).await, (StatusCode::OK, created.clone()));
                let (_, posts) = server.get(&format!("/users/{}/posts", users[0].id)).await;
                assert_eq!(posts, json!({ "items": [created], "next": null }));
                let (_, none) = server.get(&format!("/users/{}/posts", users[1].id)).await;
                assert_eq!(none, json!({ "items": [], "next": null }));
            }

            #[tokio::test]
            async fn malformed_ids_are_400s_that_say_what_was_wrong_and_write_nothing() {
                let server = Server::$backend().await;
                let ada = server.create_user("Ada").await;
                let counts = server.store.counts().await.unwrap();

                let path_cases = [
                    ("00CMXB6TAK4SI", format!("invalid character 'I' at index 12: {BAD_CHARACTER}")),
                    ("00CMXB6TAK4SL", format!("invalid character 'L' at index 12: {BAD_CHARACTER}")),
                    ("00CMXB6TAK4SO", format!("invalid character 'O' at index 12: {BAD_CHARACTER}")),
                    ("00CMXB6TAK4S", "invalid length: expected 13 ASCII characters, found 12 bytes".to_owned()),
                    ("00CMXB6TAK4SAA", "invalid length: expected 13 ASCII characters, found 14 bytes".to_owned()),
                    ("8000000000000", "value out of range: expected 0..=9223372036854775807 (a first character 0-7 in text), found 9223372036854775808".to_owned()),
                    ("14246757444195114", "invalid length: expected 13 ASCII characters, found 17 bytes".to_owned()),
                ];
                for (id, message) in &path_cases {
                    for path in [format!("/users/{id}"), format!("/posts/{id}"), format!("/users/{id}/posts")] {
                        let (status, body) = server.get(&path).await;
                        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
                        assert_eq!(
                            body["error"],
                            format!("invalid path parameter: Invalid URL: Cannot parse `id` with value `{id}`: {message}"),
                            "{path}"
                        );
                    }
                    let (status, body) = server.get(&format!("/users?after={id}")).await;
                    assert_eq!(status, StatusCode::BAD_REQUEST);
                    assert_eq!(body["error"], format!("invalid query string: Failed to deserialize query string: after: {message}"));
                }
                let (status, body) = server.get("/users?limit=101").await;
                assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid query string: expected a limit of 1 to 100, found 101")));

                let body_prefix = "invalid JSON body: Failed to deserialize the JSON body into the target type: author: ";
                let body_cases = [
                    // A number where the string belongs: it may have lost precision already.
                    (json!({ "author": ada.id.to_i64(), "title": "x" }).to_string(),
                     format!("{body_prefix}invalid type: integer `{}`, expected a Ulid-Flake as a 13-character Crockford Base32 string (not a number: IDs exceed 2^53) at line 1 column 27", ada.id.to_i64())),
                    (r#"{"author":"00CMXB6TAK4SI","title":"x"}"#.to_owned(),
                     format!("{body_prefix}invalid character 'I' at index 12: {BAD_CHARACTER} at line 1 column 25")),
                    (r#"{"author":"00CMXB6TAK4S","title":"x"}"#.to_owned(),
                     format!("{body_prefix}invalid length: expected 13 ASCII characters, found 12 bytes at line 1 column 24")),
                    (r#"{"author":null,"title":"x"}"#.to_owned(),
                     format!("{body_prefix}invalid type: null, expected a Ulid-Flake as a 13-character Crockford Base32 string (not a number: IDs exceed 2^53) at line 1 column 14")),
                ];
                for (body, message) in body_cases {
                    let (status, response) = server.post("/posts", &body).await;
                    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
                    assert_eq!(response["error"], message, "{body}");
                }
                let (status, response) = server.post("/posts", r#"{"title":"x"}"#).await;
                assert_eq!(status, StatusCode::BAD_REQUEST);
                assert_eq!(response["error"], "invalid JSON body: Failed to deserialize the JSON body into the target type: missing field `author` at line 1 column 13");
                assert_eq!(server.store.counts().await.unwrap(), counts, "a rejected request wrote");
            }

            #[tokio::test]
            async fn unknown_ids_are_404s_and_write_nothing() {
                let server = Server::$backend().await;
                let counts = server.store.counts().await.unwrap();
                let unknown = "00CMXB6TAK4SA";
                for path in [format!("/users/{unknown}"), format!("/users/{unknown}/posts")] {
                    assert_eq!(server.get(&path).await, (StatusCode::NOT_FOUND, json!({ "error": format!("no user {unknown}") })));
                }
                assert_eq!(server.get(&format!("/posts/{unknown}")).await, (StatusCode::NOT_FOUND, json!({ "error": format!("no post {unknown}") })));
                let body = json!({ "author": unknown, "title": "x" }).to_string();
                assert_eq!(server.post("/posts", &body).await, (StatusCode::NOT_FOUND, json!({ "error": format!("no user {unknown}") })));
                assert_eq!(server.store.counts().await.unwrap(), counts);
            }

            #[tokio::test]
            async fn the_openapi_document_describes_ids_as_13_character_strings() {
                let server = Server::$backend().await;
                let (status, document) = server.get("/openapi.json").await;
                assert_eq!(status, StatusCode::OK);
                let schema = &document["components"]["schemas"]["UlidFlake"];
                assert_eq!(schema["type"], "string");
                assert_eq!(schema["pattern"], "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$");
                assert_eq!((schema["minLength"].as_u64(), schema["maxLength"].as_u64()), (Some(13), Some(13)));
                assert_eq!(schema["examples"], json!(["00CMXB6TAK4SA"]));
                assert_eq!(document["components"]["schemas"]["User"]["properties"]["id"]["$ref"], "#/components/schemas/UlidFlake_User");
                assert_eq!(document["components"]["schemas"]["UlidFlake_User"], document["components"]["schemas"]["UlidFlake"]);
            }
        }
    };
}

e2e_tests!(sqlite);
e2e_tests!(postgres);
