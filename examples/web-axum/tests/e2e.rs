//! End to end: the server on a loopback port, driven over HTTP, on an SQLite file and on
//! PostgreSQL (`ULID_FLAKE_TEST_POSTGRES_URL`, set by `scripts/with-databases.sh`; the
//! PostgreSQL tests fail without it).

use std::sync::atomic::{AtomicU32, Ordering};

use example_web_axum::{MAX_BODY_BYTES, MAX_TEXT_CHARS, MAX_URI_BYTES, Post, Store, User, router};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Connection;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A server on a free loopback port over a fresh database, and its store for checks.
struct Server {
    base: String,
    /// The database's URL, to change rows behind the API's back.
    url: String,
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

/// The URL of a new database on the test PostgreSQL server.
async fn postgres_database() -> String {
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
    format!("{server}/{database}")
}

/// The path of a new SQLite file, not created.
fn sqlite_path() -> std::path::PathBuf {
    let directory =
        std::env::var_os("ULID_FLAKE_TEST_SQLITE_DIR").map_or_else(std::env::temp_dir, Into::into);
    directory.join(format!("{}.sqlite3", unique("web")))
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
            url: url.to_owned(),
            store,
            client: reqwest::Client::new(),
        }
    }

    async fn sqlite() -> Self {
        Self::start(&format!("sqlite://{}?mode=rwc", sqlite_path().display())).await
    }

    /// A new database on the test server, so that tests do not see each other's rows.
    async fn postgres() -> Self {
        Self::start(&postgres_database().await).await
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

    /// The status, `Allow` header and body of a `method` request without a body.
    async fn request(
        &self,
        method: reqwest::Method,
        path: &str,
    ) -> (StatusCode, Option<String>, Value) {
        let response = self
            .client
            .request(method, format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        let allow = response
            .headers()
            .get("allow")
            .map(|value| value.to_str().unwrap().to_owned());
        (response.status(), allow, response.json().await.unwrap())
    }

    async fn post(&self, path: &str, body: &str) -> (StatusCode, Value) {
        self.post_as(path, Some("application/json"), body).await
    }

    /// A `POST` with `content_type` as its `Content-Type`, or none.
    async fn post_as(
        &self,
        path: &str,
        content_type: Option<&str>,
        body: &str,
    ) -> (StatusCode, Value) {
        let mut request = self
            .client
            .post(format!("{}{path}", self.base))
            .body(body.to_owned());
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        let response = request.send().await.unwrap();
        (response.status(), response.json().await.unwrap())
    }

    async fn create_user(&self, name: &str) -> User {
        let (status, body) = self
            .post("/users", &json!({ "name": name }).to_string())
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        serde_json::from_value(body).unwrap()
    }

    async fn create_post(&self, author: &User, title: &str) -> Post {
        let body = json!({ "author": author.id, "title": title }).to_string();
        let (status, body) = self.post("/posts", &body).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        serde_json::from_value(body).unwrap()
    }

    /// Runs SQL on the database directly, as a buggy writer or a manual fix might.
    async fn execute(&self, sql: &str) {
        let mut connection = sqlx::AnyConnection::connect(&self.url).await.unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
            .execute(&mut connection)
            .await
            .unwrap();
    }

    /// The raw response to a request of `head` (its request line and any headers but `host`
    /// and `connection`) and `body`, for requests reqwest refuses to send (targets over 64 KiB)
    /// or cannot without its `stream` feature (chunked bodies).
    async fn raw(&self, head: &str, body: &str) -> String {
        let address = self.base.strip_prefix("http://").unwrap();
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let request = format!("{head}\r\nhost: {address}\r\nconnection: close\r\n\r\n{body}");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).await.unwrap();
        response
    }
}

/// The body of every 500 for a row the types reject.
const UNREADABLE_ROW: &str = "internal error: a stored row could not be read";

/// What serde expected where a user's ID belongs.
const EXPECTED_USER_ID: &str = "a Ulid-Flake as a string of `user_` and 13 Crockford Base32 characters (not a number: IDs exceed 2^53)";

/// The message of a rejected ID, as the codec words it.
const BAD_CHARACTER: &str =
    "expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)";

/// The malformed IDs of an entity with `prefix`, and what the codec says of each. Indexes count
/// from the start of the prefixed text.
fn malformed_ids(prefix: &str) -> [(String, String); 8] {
    [
        (format!("{prefix}_00CMXB6TAK4SI"), format!("invalid character 'I' at index 17: {BAD_CHARACTER}")),
        (format!("{prefix}_00CMXB6TAK4SL"), format!("invalid character 'L' at index 17: {BAD_CHARACTER}")),
        (format!("{prefix}_00CMXB6TAK4SO"), format!("invalid character 'O' at index 17: {BAD_CHARACTER}")),
        (format!("{prefix}_00CMXB6TAK4S"), format!("invalid length: expected 13 ASCII characters after `{prefix}_`, found 12 bytes")),
        (format!("{prefix}_00CMXB6TAK4SAA"), format!("invalid length: expected 13 ASCII characters after `{prefix}_`, found 14 bytes")),
        (format!("{prefix}_8000000000000"), "value out of range: expected 0..=9223372036854775807, found 9223372036854775808 (in Base32 text: expected a first character 0-7, found 8)".to_owned()),
        // Unprefixed IDs are rejected: one spelling per ID.
        ("00CMXB6TAK4SA".to_owned(), no_prefix(prefix)),
        ("14246757444195114".to_owned(), no_prefix(prefix)),
    ]
}

/// The body of a `POST /users` of `length` bytes (its name is `length - 11` characters).
fn user_body_of(length: usize) -> String {
    format!("{{\"name\":\"{}\"}}", "x".repeat(length - 11))
}

/// Texts over the limit on names and titles, with their lengths in characters: within the body
/// limit, names and titles have their own, in characters.
fn over_long_texts() -> [(String, usize); 3] {
    [
        ("x".repeat(MAX_TEXT_CHARS + 1), MAX_TEXT_CHARS + 1),
        // 2 bytes a character: counted as 201 characters, not 402 bytes.
        ("é".repeat(MAX_TEXT_CHARS + 1), MAX_TEXT_CHARS + 1),
        ("x".repeat(16_000), 16_000),
    ]
}

/// The 400 for a `field` of `found` characters.
fn too_long(field: &str, found: usize) -> Value {
    json!({ "error": format!("invalid JSON body: {field}: expected at most 200 characters, found {found}") })
}

/// The 400 for a `parameter` (``path parameter `id` ``) that is no ID of `prefix`: `found` is
/// the value as quoted (the start only of a long one), `message` the ID's own.
fn bad_id(parameter: &str, prefix: &str, found: &str, message: &str) -> Value {
    let error =
        format!("invalid {parameter}: expected a `{prefix}_` ID, found `{found}`: {message}");
    json!({ "error": error })
}

/// The 400 for an `id` in a path that is no ID of `prefix`, as [`bad_id`].
fn bad_path_id(prefix: &str, found: &str, message: &str) -> Value {
    bad_id("path parameter `id`", prefix, found, message)
}

/// What the ID parser says of an empty text where an ID of `prefix` belongs.
fn no_prefix(prefix: &str) -> String {
    format!("wrong prefix: expected `{prefix}_`, found none (no `_` in the text)")
}

/// The body of a `POST /posts` by the user with `author`'s ID.
fn post_by(author: &User, title: &str) -> String {
    json!({ "author": author.id, "title": title }).to_string()
}

impl Server {
    /// A server with one user, Ada, and the row counts after her creation.
    async fn with_ada(server: Self) -> (Self, User, (i64, i64)) {
        let ada = server.create_user("Ada").await;
        let counts = server.store.counts().await.unwrap();
        (server, ada, counts)
    }

    /// Three users, Ada, Bob and Cy, in creation order.
    async fn create_three_users(&self) -> [User; 3] {
        [
            self.create_user("Ada").await,
            self.create_user("Bob").await,
            self.create_user("Cy").await,
        ]
    }

    /// Expects `GET path` to be a 400 saying that `id` in the path is no ID of `prefix`.
    async fn assert_bad_path_id(&self, path: String, prefix: &str, id: &str, message: &str) {
        assert_eq!(
            self.get(&path).await,
            (StatusCode::BAD_REQUEST, bad_path_id(prefix, id, message)),
            "{path}"
        );
    }

    /// Expects the row counts to be `counts`: no rejected request wrote.
    async fn assert_wrote_nothing(&self, counts: (i64, i64)) {
        assert_eq!(
            self.store.counts().await.unwrap(),
            counts,
            "a rejected request wrote"
        );
    }

    /// The served OpenAPI document.
    async fn openapi_document(&self) -> Value {
        let (status, document) = self.get("/openapi.json").await;
        assert_eq!(status, StatusCode::OK);
        document
    }
}

macro_rules! e2e_tests {
    ($backend:ident) => {
        mod $backend {
            use super::*;

            #[tokio::test]
            async fn users_round_trip_with_prefixed_ids() {
                let server = Server::$backend().await;
                for user in &server.create_three_users().await {
                    let id = user.id.to_string();
                    assert!(id.len() == 18 && id.starts_with("user_"), "{id}");
                    let (status, body) = server.get(&format!("/users/{id}")).await;
                    assert_eq!((status, body), (StatusCode::OK, json!({ "id": id, "name": user.name })));
                }
            }

            #[tokio::test]
            async fn a_lowercase_user_id_is_the_same_id() {
                let server = Server::$backend().await;
                let ada = server.create_user("Ada").await;
                let (status, _) = server.get(&format!("/users/{}", ada.id.to_string().to_lowercase())).await;
                assert_eq!(status, StatusCode::OK);
            }

            #[tokio::test]
            async fn user_pages_follow_creation_order_with_a_cursor() {
                let server = Server::$backend().await;
                let users = server.create_three_users().await;
                // `next` is the cursor of the following page.
                let (status, first) = server.get("/users?limit=2").await;
                assert_eq!(status, StatusCode::OK);
                assert_eq!(first, json!({ "items": [users[0], users[1]], "next": users[1].id.to_string() }));
                let (_, second) = server.get(&format!("/users?limit=2&after={}", users[1].id)).await;
                assert_eq!(second, json!({ "items": [users[2]], "next": null }));
            }

            #[tokio::test]
            async fn posts_round_trip_with_prefixed_ids() {
                let server = Server::$backend().await;
                let ada = server.create_user("Ada").await;
                let (status, created) = server.post("/posts", &post_by(&ada, "Notes")).await;
                assert_eq!(status, StatusCode::CREATED, "{created}");
                let post: Post = serde_json::from_value(created.clone()).unwrap();
                assert_eq!(post.author, ada.id);
                assert!(post.id.to_string().starts_with("post_"), "{created}");
                assert_eq!(created["author"], ada.id.to_string());
                assert_eq!(server.get(&format!("/posts/{}", post.id)).await, (StatusCode::OK, created));
            }

            #[tokio::test]
            async fn a_user_s_posts_are_theirs_only() {
                let server = Server::$backend().await;
                let ada = server.create_user("Ada").await;
                let bob = server.create_user("Bob").await;
                let (status, created) = server.post("/posts", &post_by(&ada, "Notes")).await;
                assert_eq!(status, StatusCode::CREATED, "{created}");
                let (_, posts) = server.get(&format!("/users/{}/posts", ada.id)).await;
                assert_eq!(posts, json!({ "items": [created], "next": null }));
                let (_, none) = server.get(&format!("/users/{}/posts", bob.id)).await;
                assert_eq!(none, json!({ "items": [], "next": null }));
            }

            #[tokio::test]
            async fn malformed_user_ids_in_paths_are_400s_that_say_what_was_wrong() {
                let (server, _, counts) = Server::with_ada(Server::$backend().await).await;
                for (id, message) in &malformed_ids("user") {
                    server.assert_bad_path_id(format!("/users/{id}"), "user", id, message).await;
                    server.assert_bad_path_id(format!("/users/{id}/posts"), "user", id, message).await;
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn malformed_cursors_are_400s_that_say_what_was_wrong() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                // Worded as a malformed ID in a path is; an empty one too.
                for (path, prefix) in [("/users".to_owned(), "user"), (format!("/users/{}/posts", ada.id), "post")] {
                    for (id, message) in malformed_ids(prefix).into_iter().chain([(String::new(), no_prefix(prefix))]) {
                        let error = bad_id("query parameter `after`", prefix, &id, &message);
                        assert_eq!(server.get(&format!("{path}?after={id}")).await, (StatusCode::BAD_REQUEST, error), "{path}?after={id}");
                    }
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn unknown_and_repeated_query_parameters_are_400s() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                let unknown = |found: &str| json!({ "error": format!("invalid query string: expected one of `after`, `limit`, found `{found}`") });
                let repeated = |name: &str| json!({ "error": format!("invalid query parameter `{name}`: expected one value, found more than one") });
                let cases = [
                    ("limt=5", unknown("limt")),
                    ("limit=5&id=1", unknown("id")),
                    // Quoted as any input is.
                    ("a%60b", unknown("a<U+0060>b")),
                    ("limit=1&limit=2", repeated("limit")),
                    ("limit=2&limit=2", repeated("limit")),
                    (&format!("after={0}&after={0}", ada.id), repeated("after")),
                ];
                for (query, error) in cases {
                    for path in ["/users".to_owned(), format!("/users/{}/posts", ada.id)] {
                        assert_eq!(server.get(&format!("{path}?{query}")).await, (StatusCode::BAD_REQUEST, error.clone()), "{path}?{query}");
                    }
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn malformed_post_ids_in_paths_are_400s_that_say_what_was_wrong() {
                let (server, _, counts) = Server::with_ada(Server::$backend().await).await;
                for (id, message) in &malformed_ids("post") {
                    server.assert_bad_path_id(format!("/posts/{id}"), "post", id, message).await;
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn path_ids_that_are_not_utf_8_are_400s() {
                let (server, _, counts) = Server::with_ada(Server::$backend().await).await;
                // axum knows the parameter only, not its value.
                for (path, prefix) in [("/users/%FF", "user"), ("/users/%FF/posts", "user"), ("/posts/%C3%28", "post")] {
                    let error = format!("invalid path parameter `id`: expected a `{prefix}_` ID, found bytes that are not UTF-8 once percent-decoded");
                    assert_eq!(server.get(path).await, (StatusCode::BAD_REQUEST, json!({ "error": error })), "{path}");
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn a_limit_over_100_is_a_400() {
                let (server, _, counts) = Server::with_ada(Server::$backend().await).await;
                let (status, body) = server.get("/users?limit=101").await;
                assert_eq!((status, body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid query parameter `limit`: expected an integer of 1 to 100, found `101`")));
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn limits_that_are_not_1_to_100_are_400s_that_quote_them() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                let long = "1".repeat(40);
                let cases = [
                    ("0", "0".to_owned()),
                    ("-1", "-1".to_owned()),
                    ("99999999999", "99999999999".to_owned()),
                    ("", String::new()),
                    ("abc", "abc".to_owned()),
                    ("%201", " 1".to_owned()),
                    (&long, format!("{}…", "1".repeat(32))),
                ];
                for (limit, quoted) in cases {
                    let error = json!({ "error": format!("invalid query parameter `limit`: expected an integer of 1 to 100, found `{quoted}`") });
                    for path in ["/users".to_owned(), format!("/users/{}/posts", ada.id)] {
                        assert_eq!(server.get(&format!("{path}?limit={limit}")).await, (StatusCode::BAD_REQUEST, error.clone()), "{path}?limit={limit}");
                    }
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn a_full_last_page_has_no_next_cursor() {
                let server = Server::$backend().await;
                let users = server.create_three_users().await;
                let all = json!({ "items": users, "next": null });
                assert_eq!(server.get("/users?limit=3").await, (StatusCode::OK, all));
                let rest = json!({ "items": [users[1], users[2]], "next": null });
                assert_eq!(server.get(&format!("/users?limit=2&after={}", users[0].id)).await, (StatusCode::OK, rest));
                let posts = [server.create_post(&users[0], "One").await, server.create_post(&users[0], "Two").await];
                let all = json!({ "items": posts, "next": null });
                assert_eq!(server.get(&format!("/users/{}/posts?limit=2", users[0].id)).await, (StatusCode::OK, all));
                let first = json!({ "items": [posts[0]], "next": posts[0].id });
                assert_eq!(server.get(&format!("/users/{}/posts?limit=1", users[0].id)).await, (StatusCode::OK, first));
            }

            #[tokio::test]
            async fn malformed_authors_in_bodies_are_400s_that_say_what_was_wrong_and_write_nothing() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                let body_prefix = "invalid JSON body: author: ";
                let body_cases = [
                    // A number where the string belongs: it may have lost precision already.
                    (json!({ "author": ada.id.to_i64(), "title": "x" }).to_string(),
                     format!("{body_prefix}invalid type: integer `{}`, expected {EXPECTED_USER_ID} at line 1 column 27", ada.id.to_i64())),
                    (r#"{"author":"user_00CMXB6TAK4SI","title":"x"}"#.to_owned(),
                     format!("{body_prefix}invalid character 'I' at index 17: {BAD_CHARACTER} at line 1 column 30")),
                    (r#"{"author":"user_00CMXB6TAK4S","title":"x"}"#.to_owned(),
                     format!("{body_prefix}invalid length: expected 13 ASCII characters after `user_`, found 12 bytes at line 1 column 29")),
                    (r#"{"author":"00CMXB6TAK4SA","title":"x"}"#.to_owned(),
                     format!("{body_prefix}wrong prefix: expected `user_`, found none (no `_` in the text) at line 1 column 25")),
                    (r#"{"author":null,"title":"x"}"#.to_owned(),
                     format!("{body_prefix}invalid type: null, expected {EXPECTED_USER_ID} at line 1 column 14")),
                ];
                for (body, message) in body_cases {
                    let (status, response) = server.post("/posts", &body).await;
                    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
                    assert_eq!(response["error"], message, "{body}");
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn a_missing_author_is_a_400_that_writes_nothing() {
                let (server, _, counts) = Server::with_ada(Server::$backend().await).await;
                let (status, response) = server.post("/posts", r#"{"title":"x"}"#).await;
                assert_eq!(status, StatusCode::BAD_REQUEST);
                assert_eq!(response["error"], "invalid JSON body: missing field `author` at line 1 column 13");
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn unknown_fields_in_bodies_are_400s_that_write_nothing() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                let prefix = "invalid JSON body: ";
                let cases = [
                    ("/users", r#"{"name":"Ada","id":"user_00CMXB6TAK4SA"}"#.to_owned(),
                     format!("{prefix}id: unknown field `id`, expected `name` at line 1 column 18")),
                    ("/posts", format!(r#"{{"author":"{}","title":"x","id":1}}"#, ada.id),
                     format!("{prefix}id: unknown field `id`, expected `author` or `title` at line 1 column 47")),
                    // A key like serde's words is quoted as sent: only serde's own are JSON's.
                    ("/users", r#"{"invalid type: map, x":1}"#.to_owned(),
                     format!("{prefix}invalid type: map, x: unknown field `invalid type: map, x`, expected `name` at line 1 column 23")),
                    // A long key is quoted as an excerpt, in the path and in the message.
                    ("/users", format!(r#"{{"{}":1}}"#, "k".repeat(1_000)),
                     format!("{prefix}{k}…: unknown field `{k}…`, expected `name` at line 1 column 1003", k = "k".repeat(32))),
                ];
                for (path, body, message) in cases {
                    assert_eq!(server.post(path, &body).await, (StatusCode::BAD_REQUEST, json!({ "error": message })), "{body}");
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn unknown_ids_are_404s_and_write_nothing() {
                let server = Server::$backend().await;
                let counts = server.store.counts().await.unwrap();
                let unknown = "user_00CMXB6TAK4SA";
                for path in [format!("/users/{unknown}"), format!("/users/{unknown}/posts")] {
                    assert_eq!(server.get(&path).await, (StatusCode::NOT_FOUND, json!({ "error": format!("no user {unknown}") })));
                }
                let unknown_post = "post_00CMXB6TAK4SA";
                assert_eq!(server.get(&format!("/posts/{unknown_post}")).await, (StatusCode::NOT_FOUND, json!({ "error": format!("no post {unknown_post}") })));
                let body = json!({ "author": unknown, "title": "x" }).to_string();
                assert_eq!(server.post("/posts", &body).await, (StatusCode::NOT_FOUND, json!({ "error": format!("no user {unknown}") })));
                assert_eq!(server.store.counts().await.unwrap(), counts);
            }

            #[tokio::test]
            async fn bodies_over_the_byte_limit_are_413s_that_write_nothing() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                // 1 MiB: reading stops at the body limit, and the length found is the one the
                // request declares (`Content-Length`, which reqwest sends).
                let mebibyte = "x".repeat(1 << 20);
                let too_large = |found: usize| json!({ "error": format!("request body too large: expected at most 16384 bytes, found {found} bytes") });
                let body = json!({ "name": mebibyte }).to_string();
                assert_eq!(server.post("/users", &body).await, (StatusCode::PAYLOAD_TOO_LARGE, too_large((1 << 20) + 11)));
                let body = post_by(&ada, &mebibyte);
                assert_eq!(server.post("/posts", &body).await, (StatusCode::PAYLOAD_TOO_LARGE, too_large(body.len())));
                // The limit is on bytes: one over it is enough.
                assert_eq!(server.post("/users", &user_body_of(MAX_BODY_BYTES + 1)).await, (StatusCode::PAYLOAD_TOO_LARGE, too_large(16385)));
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn chunked_bodies_over_the_byte_limit_are_413s_that_say_more_was_found() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                // No `Content-Length`: reading stops at the limit, and the full length is unknown.
                let error = json!({ "error": "request body too large: expected at most 16384 bytes, found more" });
                for (path, body) in [("/users", user_body_of(MAX_BODY_BYTES + 1)), ("/posts", post_by(&ada, &"x".repeat(MAX_BODY_BYTES)))] {
                    let head = format!("POST {path} HTTP/1.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked");
                    let response = server.raw(&head, &format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len())).await;
                    let (head, body) = response.split_once("\r\n\r\n").unwrap();
                    assert!(head.starts_with("HTTP/1.1 413 Payload Too Large\r\n"), "{response}");
                    assert_eq!(serde_json::from_str::<Value>(body).unwrap(), error, "{path}");
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn declared_lengths_over_the_byte_limit_are_413s_before_the_body_is_read() {
                let (server, _, counts) = Server::with_ada(Server::$backend().await).await;
                let too_large = |found: &str| json!({ "error": format!("request body too large: expected at most 16384 bytes, found {found} bytes") });
                // No body follows: an answer only after reading would never come. And a client
                // waiting for `100 Continue` gets the 413 instead.
                for (length, expect) in [("99999999999", ""), ("16385", "\r\nexpect: 100-continue")] {
                    let head = format!("POST /users HTTP/1.1\r\ncontent-type: application/json\r\ncontent-length: {length}{expect}");
                    let response = tokio::time::timeout(std::time::Duration::from_secs(10), server.raw(&head, "")).await.expect("no answer within 10 s");
                    let (head, body) = response.split_once("\r\n\r\n").unwrap();
                    assert!(head.starts_with("HTTP/1.1 413 Payload Too Large\r\n"), "{response}");
                    assert_eq!(serde_json::from_str::<Value>(body).unwrap(), too_large(length), "{length}");
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn bodies_that_cannot_be_read_are_400s() {
                let (server, _, counts) = Server::with_ada(Server::$backend().await).await;
                let error = json!({ "error": "invalid JSON body: expected a complete body, found one that could not be read" });
                // A chunk size that is no hexadecimal number.
                let head = "POST /users HTTP/1.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked";
                let response = server.raw(head, "zz\r\n{}\r\n0\r\n\r\n").await;
                let (head, body) = response.split_once("\r\n\r\n").unwrap();
                assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{response}");
                assert_eq!(serde_json::from_str::<Value>(body).unwrap(), error);
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn bodies_that_are_not_declared_json_are_415s() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                let unsupported = |found: &str| json!({ "error": format!("unsupported media type: expected Content-Type `application/json`, found {found}") });
                let cases = [
                    (None, unsupported("none")),
                    (Some("text/plain"), unsupported("`text/plain`")),
                    (Some("application/x-www-form-urlencoded"), unsupported("`application/x-www-form-urlencode…`")),
                    (Some("application/jsonx"), unsupported("`application/jsonx`")),
                    // Quoted as any input is.
                    (Some("text/`x`"), unsupported("`text/<U+0060>x<U+0060>`")),
                ];
                for (content_type, error) in cases {
                    for (path, body) in [("/users", json!({ "name": "Bob" }).to_string()), ("/posts", post_by(&ada, "Notes"))] {
                        assert_eq!(server.post_as(path, content_type, &body).await, (StatusCode::UNSUPPORTED_MEDIA_TYPE, error.clone()), "{path} {content_type:?}");
                    }
                }
                server.assert_wrote_nothing(counts).await;
                // JSON with parameters, or a JSON-based type, in any case.
                for content_type in ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"] {
                    let (status, body) = server.post_as("/users", Some(content_type), &json!({ "name": "Bob" }).to_string()).await;
                    assert_eq!(status, StatusCode::CREATED, "{content_type}: {body}");
                }
            }

            #[tokio::test]
            async fn quoted_input_shows_invisible_characters_and_backticks_as_code_points() {
                let server = Server::$backend().await;
                // A backtick would end the quote, a control character or a bidi control garble
                // the message.
                let cases = [
                    ("a%60b", "a<U+0060>b"),
                    ("a%0Ab", "a<U+000A>b"),
                    ("%E2%80%AEx", "<U+202E>x"),
                    ("%E2%81%A6x%E2%80%8F", "<U+2066>x<U+200F>"),
                ];
                for (id, quoted) in cases {
                    server.assert_bad_path_id(format!("/users/{id}"), "user", quoted, &no_prefix("user")).await;
                }
            }

            #[tokio::test]
            async fn a_body_at_the_byte_limit_is_read() {
                let (server, _, counts) = Server::with_ada(Server::$backend().await).await;
                // Read, and its name is too long.
                let error = format!("invalid JSON body: name: expected at most 200 characters, found {}", MAX_BODY_BYTES - 11);
                assert_eq!(server.post("/users", &user_body_of(MAX_BODY_BYTES)).await, (StatusCode::BAD_REQUEST, json!({ "error": error })));
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn over_long_names_are_400s_counted_in_characters() {
                let (server, _, counts) = Server::with_ada(Server::$backend().await).await;
                for (text, found) in over_long_texts() {
                    assert_eq!(server.post("/users", &json!({ "name": text }).to_string()).await, (StatusCode::BAD_REQUEST, too_long("name", found)));
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn over_long_titles_are_400s_counted_in_characters() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                for (text, found) in over_long_texts() {
                    assert_eq!(server.post("/posts", &post_by(&ada, &text)).await, (StatusCode::BAD_REQUEST, too_long("title", found)));
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn names_and_titles_with_a_nul_character_are_400s_on_every_database() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                let text = "a\u{0}b";
                let expected = json!({ "error": "invalid JSON body: name: expected text without NUL characters (U+0000), found one at character 1" });
                assert_eq!(server.post("/users", &json!({ "name": text }).to_string()).await, (StatusCode::BAD_REQUEST, expected));
                let expected = json!({ "error": "invalid JSON body: title: expected text without NUL characters (U+0000), found one at character 1" });
                assert_eq!(server.post("/posts", &post_by(&ada, text)).await, (StatusCode::BAD_REQUEST, expected));
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn blank_names_and_titles_are_400s_that_quote_them() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                // Quoted by code points, so that the whitespace shows; a long text by its start.
                // Blank is said before too long.
                let long = " ".repeat(MAX_TEXT_CHARS + 1);
                let long_quoted = format!("`{}…`", "<U+0020>".repeat(32));
                let cases = [
                    ("", "``"),
                    ("   ", "`<U+0020><U+0020><U+0020>`"),
                    ("\t\r\n", "`<U+0009><U+000D><U+000A>`"),
                    ("\u{3000}", "`<U+3000>`"),
                    (&long, &long_quoted),
                ];
                for (text, quoted) in cases {
                    let blank = |field: &str| json!({ "error": format!("invalid JSON body: {field}: expected a non-blank {field}, found {quoted}") });
                    assert_eq!(server.post("/users", &json!({ "name": text }).to_string()).await, (StatusCode::BAD_REQUEST, blank("name")), "{text:?}");
                    assert_eq!(server.post("/posts", &post_by(&ada, text)).await, (StatusCode::BAD_REQUEST, blank("title")), "{text:?}");
                }
                server.assert_wrote_nothing(counts).await;
                // Text around the whitespace is a name, stored as sent.
                assert_eq!(server.create_user(" Bob ").await.name, " Bob ");
            }

            #[tokio::test]
            async fn blank_is_whitespace_as_the_schema_s_pattern_means_it() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                // ECMAScript's `\s`, which the schema's `pattern: "\S"` excludes: its WhiteSpace
                // (U+FEFF included) and LineTerminator.
                let blank = [
                    '\u{9}', '\u{A}', '\u{B}', '\u{C}', '\u{D}', ' ', '\u{A0}', '\u{1680}', '\u{2000}', '\u{2005}',
                    '\u{200A}', '\u{2028}', '\u{2029}', '\u{202F}', '\u{205F}', '\u{3000}', '\u{FEFF}',
                ];
                for character in blank {
                    let text = character.to_string();
                    let found = format!("<U+{:04X}>", u32::from(character));
                    let blank = |field: &str| json!({ "error": format!("invalid JSON body: {field}: expected a non-blank {field}, found `{found}`") });
                    assert_eq!(server.post("/users", &json!({ "name": text }).to_string()).await, (StatusCode::BAD_REQUEST, blank("name")), "{found}");
                    assert_eq!(server.post("/posts", &post_by(&ada, &text)).await, (StatusCode::BAD_REQUEST, blank("title")), "{found}");
                }
                server.assert_wrote_nothing(counts).await;
                // Whitespace to Rust (U+0085) or invisible, but no match of `\s`: not blank.
                for text in ["\u{85}", "\u{180E}", "\u{200B}"] {
                    assert_eq!(server.create_user(text).await.name, text);
                    assert_eq!(server.create_post(&ada, text).await.title, text);
                }
            }

            #[tokio::test]
            async fn bodies_of_the_wrong_shape_are_400s_that_name_no_rust_types() {
                let (server, ada, counts) = Server::with_ada(Server::$backend().await).await;
                let prefix = "invalid JSON body: ";
                let user = "an object with a `name`";
                let post = "an object with an `author` and a `title`";
                let cases = [
                    ("/users", r#""x""#.to_owned(), format!(r#"invalid type: string "x", expected {user} at line 1 column 3"#)),
                    // The client's string quoted up to 32 characters (an escape counts as one).
                    ("/users", format!(r#""{}""#, "x".repeat(32)), format!(r#"invalid type: string "{}", expected {user} at line 1 column 34"#, "x".repeat(32))),
                    ("/users", format!(r#""{}""#, "x".repeat(1_000)), format!(r#"invalid type: string "{}…", expected {user} at line 1 column 1002"#, "x".repeat(32))),
                    ("/users", format!(r#""{}""#, r"\n\u0001".repeat(20)), format!(r#"invalid type: string "{}…", expected {user} at line 1 column 162"#, r"\n\u{1}".repeat(16))),
                    ("/users", String::new(), format!("expected {user}, found an empty body")),
                    // JSON's words for arrays and objects, not serde's (`sequence`, `map`).
                    ("/users", "[]".to_owned(), format!("invalid type: array, expected {user} at line 1 column 0")),
                    // The fields in order, which a derived struct would take for an object.
                    ("/users", r#"["Ada"]"#.to_owned(), format!("invalid type: array, expected {user} at line 1 column 0")),
                    ("/users", "null".to_owned(), format!("invalid type: null, expected {user} at line 1 column 4")),
                    ("/users", "1".to_owned(), format!("invalid type: integer `1`, expected {user} at line 1 column 1")),
                    ("/users", "{}".to_owned(), "missing field `name` at line 1 column 2".to_owned()),
                    ("/users", r#"{"name":1}"#.to_owned(), "name: invalid type: integer `1`, expected a string at line 1 column 9".to_owned()),
                    ("/users", r#"{"name":null}"#.to_owned(), "name: invalid type: null, expected a string at line 1 column 12".to_owned()),
                    ("/users", r#"{"name":{}}"#.to_owned(), "name: invalid type: object, expected a string at line 1 column 8".to_owned()),
                    // Not JSON: serde_json's message, without axum's words.
                    ("/users", "{".to_owned(), "EOF while parsing an object at line 1 column 1".to_owned()),
                    ("/users", " ".to_owned(), "EOF while parsing a value at line 1 column 1".to_owned()),
                    ("/users", r#"{"name":"Ada"}x"#.to_owned(), "trailing characters at line 1 column 15".to_owned()),
                    ("/posts", String::new(), format!("expected {post}, found an empty body")),
                    ("/posts", r#""x""#.to_owned(), format!(r#"invalid type: string "x", expected {post} at line 1 column 3"#)),
                    ("/posts", format!(r#"["{}","x"]"#, ada.id), format!("invalid type: array, expected {post} at line 1 column 0")),
                    ("/posts", "true".to_owned(), format!("invalid type: boolean `true`, expected {post} at line 1 column 4")),
                    ("/posts", format!(r#"{{"author":"{}","title":[]}}"#, ada.id), "title: invalid type: array, expected a string at line 1 column 39".to_owned()),
                    ("/posts", r#"{"author":{},"title":"x"}"#.to_owned(), format!("author: invalid type: object, expected {EXPECTED_USER_ID} at line 1 column 10")),
                ];
                for (path, body, message) in cases {
                    let error = json!({ "error": format!("{prefix}{message}") });
                    assert_eq!(server.post(path, &body).await, (StatusCode::BAD_REQUEST, error), "{path} {body}");
                }
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn a_name_at_the_character_limit_is_stored_whole() {
                let server = Server::$backend().await;
                let name = "é".repeat(MAX_TEXT_CHARS);
                let user = server.create_user(&name).await;
                assert_eq!(server.get(&format!("/users/{}", user.id)).await, (StatusCode::OK, json!({ "id": user.id, "name": name })));
            }

            #[tokio::test]
            async fn a_title_at_the_character_limit_is_stored_whole() {
                let server = Server::$backend().await;
                let ada = server.create_user("Ada").await;
                let title = "é".repeat(MAX_TEXT_CHARS);
                let post = server.create_post(&ada, &title).await;
                assert_eq!(post.title, title);
            }

            #[tokio::test]
            async fn over_long_request_targets_are_414s_that_do_not_echo_them() {
                let server = Server::$backend().await;
                let counts = server.store.counts().await.unwrap();
                // A 414 naming the lengths only, before routing.
                for prefix in ["/users/", "/posts/", "/users?after="] {
                    for length in [MAX_URI_BYTES + 1, 60 * 1024] {
                        let target = format!("{prefix}{}", "0".repeat(length - prefix.len()));
                        let error = format!("URI too long: expected at most 2048 bytes, found {length}");
                        assert_eq!(server.get(&target).await, (StatusCode::URI_TOO_LONG, json!({ "error": error })), "{prefix}");
                    }
                }
                let target = format!("/users/{}/posts", "0".repeat(MAX_URI_BYTES));
                let error = format!("URI too long: expected at most 2048 bytes, found {}", target.len());
                assert_eq!(server.post(&target, "{}").await, (StatusCode::URI_TOO_LONG, json!({ "error": error })));
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn long_ids_within_the_target_limit_are_400s_that_quote_their_start_only() {
                let server = Server::$backend().await;
                // At the limit: the ID's own 400.
                for (path, prefix) in [("/users/", "user"), ("/posts/", "post")] {
                    let id_prefix = format!("{prefix}_");
                    let start = format!("{id_prefix}{}…", "0".repeat(32 - id_prefix.len()));
                    let length = MAX_URI_BYTES - path.len() - id_prefix.len();
                    let target = format!("{path}{id_prefix}{}", "0".repeat(length));
                    let message = format!("invalid length: expected 13 ASCII characters after `{id_prefix}`, found {length} bytes");
                    assert_eq!(server.get(&target).await, (StatusCode::BAD_REQUEST, bad_path_id(prefix, &start, &message)), "{path}");
                }
                let error = json!({ "error": format!("invalid path parameter `id`: expected a `user_` ID, found `user_{}…`: invalid length: expected 13 ASCII characters after `user_`, found 33 bytes", "0".repeat(27)) });
                assert_eq!(server.get(&format!("/users/user_{}", "0".repeat(33))).await, (StatusCode::BAD_REQUEST, error));
            }

            #[tokio::test]
            async fn targets_over_64_kib_are_414s_without_a_body() {
                let server = Server::$backend().await;
                let counts = server.store.counts().await.unwrap();
                // Hyper answers before the router sees the request (documented; reqwest refuses
                // to send such a URI, so raw HTTP).
                let response = server.raw(&format!("GET /users/{} HTTP/1.1", "0".repeat(100 * 1024)), "").await;
                assert!(response.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{response}");
                assert!(response.contains("\r\ncontent-length: 0\r\n") && response.ends_with("\r\n\r\n"), "{response}");
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn a_negative_id_in_a_row_is_a_500_that_exposes_no_internals() {
                let server = Server::$backend().await;
                let ada = server.create_user("Ada").await;
                let post = server.create_post(&ada, "Notes").await;
                assert_eq!(server.get(&format!("/posts/{}", post.id)).await.0, StatusCode::OK);

                // A negative BIGINT where an ID belongs (through the foreign key, so that the
                // post still exists and is read).
                server.execute(&format!("INSERT INTO users (id, name) VALUES (-5, 'Mallory'); UPDATE posts SET author = -5 WHERE id = {}", post.id.to_i64())).await;
                let unreadable = (StatusCode::INTERNAL_SERVER_ERROR, json!({ "error": UNREADABLE_ROW }));
                assert_eq!(server.get(&format!("/posts/{}", post.id)).await, unreadable);
            }

            #[tokio::test]
            async fn a_database_failure_is_a_500_with_a_fixed_message() {
                let server = Server::$backend().await;
                let ada = server.create_user("Ada").await;
                server.create_post(&ada, "Notes").await;
                // Not the driver's text.
                server.execute("DROP TABLE posts").await;
                assert_eq!(
                    server.get(&format!("/users/{}/posts", ada.id)).await,
                    (StatusCode::INTERNAL_SERVER_ERROR, json!({ "error": "internal error: the database request failed" }))
                );
                assert_eq!(server.get(&format!("/users/{}", ada.id)).await.0, StatusCode::OK);
            }

            #[tokio::test]
            async fn the_openapi_document_describes_ids_as_prefixed_strings() {
                let server = Server::$backend().await;
                let document = server.openapi_document().await;
                let schemas = &document["components"]["schemas"];
                for (entity, prefix) in [("User", "user"), ("Post", "post")] {
                    let schema = &schemas[format!("PrefixedId_{entity}")];
                    assert_eq!(schema["type"], "string");
                    assert_eq!(schema["pattern"], format!("^{prefix}_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{{12}}$"));
                    assert_eq!((schema["minLength"].as_u64(), schema["maxLength"].as_u64()), (Some(18), Some(18)));
                    assert_eq!(schema["examples"], json!([format!("{prefix}_00CMXB6TAK4SA")]));
                    assert_eq!(schemas[entity]["properties"]["id"]["$ref"], format!("#/components/schemas/PrefixedId_{entity}"));
                }
                assert_eq!(schemas["Post"]["properties"]["author"]["$ref"], "#/components/schemas/PrefixedId_User");
            }

            #[tokio::test]
            async fn an_id_of_another_entity_is_a_400_that_names_both_prefixes() {
                let server = Server::$backend().await;
                let ada = server.create_user("Ada").await;
                let post = server.create_post(&ada, "Notes").await;
                let counts = server.store.counts().await.unwrap();
                let wrong = |id: &dyn std::fmt::Display, expected: &str, found: &str| {
                    bad_path_id(expected, &id.to_string(), &format!("wrong prefix: expected `{expected}_`, found `{found}_`"))
                };
                assert_eq!(server.get(&format!("/users/{}", post.id)).await, (StatusCode::BAD_REQUEST, wrong(&post.id, "user", "post")));
                assert_eq!(server.get(&format!("/users/{}/posts", post.id)).await, (StatusCode::BAD_REQUEST, wrong(&post.id, "user", "post")));
                assert_eq!(server.get(&format!("/posts/{}", ada.id)).await, (StatusCode::BAD_REQUEST, wrong(&ada.id, "post", "user")));
                let body = json!({ "author": post.id, "title": "x" }).to_string();
                assert_eq!(
                    server.post("/posts", &body).await,
                    (StatusCode::BAD_REQUEST, json!({ "error": "invalid JSON body: author: wrong prefix: expected `user_`, found `post_` at line 1 column 30" }))
                );
                server.assert_wrote_nothing(counts).await;
            }

            #[tokio::test]
            async fn prefixed_ids_are_stored_as_plain_bigints() {
                let server = Server::$backend().await;
                let ada = server.create_user("Ada").await;
                let post = server.create_post(&ada, "Notes").await;
                // The database holds the same BIGINTs as unprefixed IDs would.
                let mut connection = sqlx::AnyConnection::connect(&server.url).await.unwrap();
                let stored: (i64, i64) = sqlx::query_as("SELECT id, author FROM posts").fetch_one(&mut connection).await.unwrap();
                assert_eq!(stored, (post.id.to_i64(), ada.id.to_i64()));
            }
        }
    };
}

e2e_tests!(sqlite);
e2e_tests!(postgres);

/// SQLite stores a `TEXT` in a `BIGINT` column if asked (column types are affinities there).
#[tokio::test]
async fn sqlite_text_in_an_id_column_is_a_500_that_exposes_no_internals() {
    let server = Server::sqlite().await;
    let ada = server.create_user("Ada").await;
    let bob = server.create_user("Bob").await;
    server.create_post(&bob, "Notes").await;
    server
        .execute(&format!(
            "UPDATE users SET id = 'corrupt' WHERE id = {}; UPDATE posts SET id = 'also corrupt'",
            ada.id.to_i64()
        ))
        .await;
    let unreadable = (
        StatusCode::INTERNAL_SERVER_ERROR,
        json!({ "error": UNREADABLE_ROW }),
    );
    assert_eq!(server.get("/users").await, unreadable);
    assert_eq!(
        server.get(&format!("/users/{}/posts", bob.id)).await,
        unreadable
    );
}

#[tokio::test]
async fn list_parameters_are_optional_query_parameters_in_the_openapi_document() {
    let document = Server::sqlite().await.openapi_document().await;
    let page = |entity: &str| {
        [
            json!({
                "name": "after",
                "in": "query",
                "description": "The last ID of the previous page; the first page without it.",
                "required": false,
                "schema": { "$ref": format!("#/components/schemas/PrefixedId_{entity}") }
            }),
            json!({
            "name": "limit",
            "in": "query",
            "description": "How many items, 1 to 100; 20 without it.",
            "required": false,
            "schema": { "type": "integer", "format": "int32", "default": 20, "minimum": 1, "maximum": 100 }
            }),
        ]
    };
    let id = |description, entity: &str| {
        json!({
            "name": "id",
            "in": "path",
            "description": description,
            "required": true,
            "schema": { "$ref": format!("#/components/schemas/PrefixedId_{entity}") }
        })
    };
    let paths = &document["paths"];
    assert_eq!(paths["/users"]["get"]["parameters"], json!(page("User")));
    let [after, limit] = page("Post");
    assert_eq!(
        paths["/users/{id}/posts"]["get"]["parameters"],
        json!([id("The author's ID", "User"), after, limit])
    );
    assert_eq!(
        paths["/users/{id}"]["get"]["parameters"],
        json!([id("The user's ID", "User")])
    );
    assert_eq!(
        paths["/posts/{id}"]["get"]["parameters"],
        json!([id("The post's ID", "Post")])
    );
    for operation in [&paths["/users"]["post"], &paths["/posts"]["post"]] {
        assert_eq!(operation.get("parameters"), None);
    }
}

#[tokio::test]
async fn the_openapi_document_states_the_enforced_limits() {
    let document = Server::sqlite().await.openapi_document().await;
    let schemas = &document["components"]["schemas"];
    for (schema, field) in [("NewUser", "name"), ("NewPost", "title")] {
        let property = &schemas[schema]["properties"][field];
        assert_eq!(property["maxLength"].as_u64(), Some(MAX_TEXT_CHARS as u64));
        // Not blank: a character that is not whitespace.
        assert_eq!(property["pattern"], r"\S");
    }
    assert_eq!(
        document["info"]["description"],
        format!(
            "Users and posts with Ulid-Flake keys. Limits: request bodies of at most \
             {MAX_BODY_BYTES} bytes (413 beyond), request targets of at most {MAX_URI_BYTES} \
             bytes (414 beyond), names and titles of at most {MAX_TEXT_CHARS} characters, \
             not blank and without NUL characters (400 otherwise)."
        )
    );
}

/// A body that is not declared JSON is a 415: the routes that take one say so.
#[tokio::test]
async fn the_openapi_document_lists_the_415_of_routes_with_a_body() {
    let document = Server::sqlite().await.openapi_document().await;
    for (path, statuses) in [
        ("/users", json!(["201", "400", "413", "415", "500"])),
        ("/posts", json!(["201", "400", "404", "413", "415", "500"])),
    ] {
        let responses = document["paths"][path]["post"]["responses"]
            .as_object()
            .unwrap();
        let found: Vec<&String> = responses.keys().collect();
        assert_eq!(json!(found), statuses, "{path}");
        assert_eq!(
            responses["415"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/ApiError"
        );
    }
}

/// A page's `next` is always there, `null` on the last page: required, and nullable.
#[tokio::test]
async fn the_openapi_document_requires_the_next_cursor_of_a_page() {
    let document = Server::sqlite().await.openapi_document().await;
    for entity in ["User", "Post"] {
        let page = &document["components"]["schemas"][format!("Page_{entity}")];
        assert_eq!(page["required"], json!(["items", "next"]), "{entity}");
        let next = &page["properties"]["next"]["oneOf"];
        assert_eq!(next[0], json!({ "type": "null" }), "{entity}");
        assert_eq!(
            next[1]["$ref"],
            format!("#/components/schemas/PrefixedId_{entity}")
        );
    }
}

/// The crate declares no license: the document has none, rather than one named `""`.
#[tokio::test]
async fn the_openapi_document_has_no_license_without_a_name() {
    let document = Server::sqlite().await.openapi_document().await;
    assert_eq!(
        document["info"].get("license"),
        None,
        "{}",
        document["info"]
    );
}

/// `scripts/validate-openapi.sh` validates the printed document: it must be the served one.
#[tokio::test]
async fn the_printed_openapi_document_is_the_served_one() {
    let server = Server::sqlite().await;
    let (status, served) = server.get("/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_example-web-axum"))
        .arg("--print-openapi")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed, served);
}

/// `--print-typescript` prints the declarations of `typescript()`: every ID a string, a
/// prefixed one the template literal type of its text, no `number`.
#[test]
fn the_printed_typescript_declares_prefixed_ids_as_template_literals() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_example-web-axum"))
        .arg("--print-typescript")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let printed = String::from_utf8(output.stdout).unwrap();
    assert_eq!(printed, example_web_axum::typescript());
    let declarations: Vec<&str> = printed
        .lines()
        .filter(|line| line.starts_with("export type "))
        .collect();
    assert_eq!(
        declarations,
        [
            "export type User = { ",
            "export type Post = { ",
            "export type NewUser = { ",
            "export type NewPost = { ",
            "export type ApiError = { ",
            "export type Page<T extends { id: string }> = { items: Array<T>, next: T[\"id\"] | null, };",
        ]
    );
    for field in [
        "id: `user_${string}`, ",
        "id: `post_${string}`, ",
        "author: `user_${string}`, ",
    ] {
        assert!(printed.lines().any(|line| line == field), "{field}");
    }
    assert!(!printed.contains("number"), "{printed}");
}

/// The server binary on PostgreSQL leases its scalability id before it listens, issues IDs
/// under it, and `/health` reports the lease; on `SIGTERM` it exits cleanly and releases the
/// lease: its row expires after the margin (1 s) and the few milliseconds the lease counts its
/// last ID as stamped ahead of the database's clock, not the validity (15 s).
#[tokio::test]
async fn on_postgres_the_server_issues_ids_under_a_lease_that_health_reports_and_sigterm_releases()
{
    use std::io::{BufRead, BufReader};

    let url = postgres_database().await;
    let namespace = unique("web");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_example-web-axum"))
        .env("DATABASE_URL", &url)
        .env("ADDRESS", "127.0.0.1:0")
        .env("LEASE_NAMESPACE", &namespace)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut child = Kill(child);
    let mut leased = None;
    let mut base = None;
    for line in stderr.by_ref() {
        let line = line.unwrap();
        if let Some(id) = line.strip_prefix("leased scalability id Some(") {
            leased = Some(id.trim_end_matches(')').parse::<u8>().unwrap());
        }
        if let Some(rest) = line.strip_prefix("listening on ") {
            base = Some(rest.split(' ').next().unwrap().to_owned());
            break;
        }
    }
    let (leased, base) = (leased.expect("a lease"), base.expect("an address"));
    let client = reqwest::Client::new();

    let health = client.get(format!("{base}/health")).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    let health: Value = health.json().await.unwrap();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["lease"]["state"], "held");
    assert_eq!(health["lease"]["scalability_id"], leased);
    assert_eq!(health["lease"]["losses"], 0);

    let created: Value = client
        .post(format!("{base}/users"))
        .json(&json!({ "name": "Ada" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let text = created["id"].as_str().unwrap();
    // The Base32 part, whatever prefix the entity's IDs carry.
    let id: ulid_flake_core::UlidFlake = text.rsplit('_').next().unwrap().parse().unwrap();
    assert_eq!(id.scalability_id(), leased);

    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    let expires_in_us = || {
        sqlx::query_scalar::<_, i64>(
            "SELECT expires_at_us - (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT \
             FROM ulid_flake_leases WHERE namespace = $1",
        )
        .bind(&namespace)
    };
    let held_for = expires_in_us().fetch_one(&mut conn).await.unwrap();
    assert!(held_for > 10_000_000, "held for {held_for} µs more");
    // SAFETY: `kill` with a child's pid and a valid signal number.
    assert_eq!(unsafe { libc::kill(child.0.id() as i32, libc::SIGTERM) }, 0);
    let status = child.0.wait().unwrap();
    assert!(status.success(), "{status}");
    let said: Vec<String> = stderr.map(Result::unwrap).collect();
    assert!(
        said.iter()
            .any(|line| line.contains("the scalability-id lease, if any, is released")),
        "{said:?}"
    );
    let released_for = expires_in_us().fetch_one(&mut conn).await.unwrap();
    // The release's grace is the margin and how far the last ID was stamped ahead of the
    // database's clock as the lease counts it: from its last reading, floored to the
    // millisecond, plus the time since, less the drift allowed (10⁻³ of up to a 3 s renewal
    // interval), so up to about 5 ms for an ID of the last milliseconds (seen: 1,000,298 µs).
    assert!(
        (0..=1_005_000).contains(&released_for),
        "released, yet held for {released_for} µs more"
    );
}

/// Unknown routes and methods are JSON errors too: a 404 naming the routes, and a 405 naming
/// the route's methods, with its `Allow` header. The method and path are quoted as any input
/// is: the start only of a long one (the request target may be 2 KiB).
#[tokio::test]
async fn unknown_routes_and_methods_are_json_404s_and_405s() {
    use reqwest::Method;

    let server = Server::sqlite().await;
    let ada = server.create_user("Ada").await;
    let counts = server.store.counts().await.unwrap();
    let no_route = |found: &str| {
        json!({ "error": format!(
            "no such route: expected one of POST /users, GET /users, GET /users/{{id}}, \
             GET /users/{{id}}/posts, POST /posts, GET /posts/{{id}}, GET /openapi.json, \
             GET /health, found `{found}`"
        ) })
    };
    let long = format!("/{}", "x".repeat(2000));
    for (method, path, found) in [
        (Method::GET, "/nope", "GET /nope".to_owned()),
        (Method::GET, "/users/", "GET /users/".to_owned()),
        (
            Method::POST,
            "/users/x/posts/y",
            "POST /users/x/posts/y".to_owned(),
        ),
        (Method::GET, &long, format!("GET /{}…", "x".repeat(27))),
    ] {
        assert_eq!(
            server.request(method, path).await,
            (StatusCode::NOT_FOUND, None, no_route(&found))
        );
    }
    // Raw UTF-8 in a path, which hyper takes: a bidi control would reorder the message.
    let response = server.raw("GET /a\u{202E}b HTTP/1.1", "").await;
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 404 Not Found\r\n"), "{response}");
    assert_eq!(
        serde_json::from_str::<Value>(body).unwrap(),
        no_route("GET /a<U+202E>b")
    );
    let not_allowed = |path: &str, expected: &str, found: &str| {
        let error =
            format!("method not allowed for `{path}`: expected {expected}, found `{found}`");
        json!({ "error": error })
    };
    let user = format!("/users/{}", ada.id);
    for (method, path, allow, expected) in [
        (Method::GET, "/posts", "POST", "POST"),
        (
            Method::DELETE,
            user.as_str(),
            "GET,HEAD",
            "one of GET, HEAD",
        ),
        (
            Method::PUT,
            "/users",
            "POST,GET,HEAD",
            "one of POST, GET, HEAD",
        ),
    ] {
        let body = not_allowed(path, expected, method.as_str());
        assert_eq!(
            server.request(method, path).await,
            (StatusCode::METHOD_NOT_ALLOWED, Some(allow.to_owned()), body)
        );
    }
    let long = format!("/users/{}", "x".repeat(2000));
    let long_method = Method::from_bytes("X".repeat(40).as_bytes()).unwrap();
    let body = not_allowed(
        &format!("/users/{}…", "x".repeat(25)),
        "one of GET, HEAD",
        &format!("{}…", "X".repeat(32)),
    );
    assert_eq!(
        server.request(long_method, &long).await,
        (
            StatusCode::METHOD_NOT_ALLOWED,
            Some("GET,HEAD".to_owned()),
            body
        )
    );
    server.assert_wrote_nothing(counts).await;
}

/// An SQLite URL without `mode=rwc` creates a missing file, as on first run.
#[tokio::test]
async fn a_missing_sqlite_file_is_created() {
    let path = sqlite_path();
    assert!(!path.exists(), "{}", path.display());
    let server = Server::start(&format!("sqlite://{}", path.display())).await;
    assert!(path.exists(), "{}", path.display());
    let ada = server.create_user("Ada").await;
    assert_eq!(
        server.get(&format!("/users/{}", ada.id)).await,
        (StatusCode::OK, json!({ "id": ada.id, "name": "Ada" }))
    );
}

/// Runs the server binary with `variables` until it exits (within 30 s; else it is killed
/// and the test fails): its exit code and standard error.
fn run_server(variables: &[(&str, &str)]) -> (Option<i32>, String) {
    use std::time::{Duration, Instant};

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_example-web-axum"))
        .env_remove("ULID_FLAKE_SCALABILITY_ID")
        .envs(variables.iter().copied())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "still running after 30 s: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// A bad `ULID_FLAKE_SCALABILITY_ID` stops the server at start-up, before it opens the
/// database, rather than a server that answers `/health` and fails every `POST`.
#[test]
fn a_bad_scalability_id_stops_the_server_before_it_starts() {
    for value in ["99", "abc", "-1"] {
        let path = sqlite_path();
        let url = format!("sqlite://{}", path.display());
        let (code, stderr) = run_server(&[
            ("ULID_FLAKE_SCALABILITY_ID", value),
            ("DATABASE_URL", &url),
            ("ADDRESS", "127.0.0.1:0"),
        ]);
        let message = format!(
            "example-web-axum: invalid environment variable ULID_FLAKE_SCALABILITY_ID: \
             expected a scalability id, an integer 0..=31, found \"{value}\"\n"
        );
        assert_eq!((code, stderr), (Some(1), message));
        assert!(!path.exists(), "{}", path.display());
    }
}

#[test]
fn an_address_in_use_is_one_line_and_exit_status_1() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let url = format!("sqlite://{}", sqlite_path().display());
    let (code, stderr) = run_server(&[("DATABASE_URL", &url), ("ADDRESS", &address)]);
    let message = format!(
        "example-web-axum: cannot listen on {address}: Address already in use (os error 98)\n"
    );
    assert_eq!((code, stderr), (Some(1), message));
}

#[test]
fn a_database_that_cannot_be_opened_is_one_line_and_exit_status_1() {
    // A file in a directory that does not exist: SQLite creates files, not directories.
    let url = format!("sqlite://{}", sqlite_path().join("web.sqlite3").display());
    let (code, stderr) = run_server(&[("DATABASE_URL", &url), ("ADDRESS", "127.0.0.1:0")]);
    let message = format!(
        "example-web-axum: cannot open the database {url}: error returned from database: \
         (code: 14) unable to open database file\n"
    );
    assert_eq!((code, stderr), (Some(1), message));
}

/// The message names the URL without its password, in the user information or a parameter.
#[test]
fn on_postgres_a_failed_login_is_reported_without_the_password() {
    let url = std::env::var("ULID_FLAKE_TEST_POSTGRES_URL")
        .expect("ULID_FLAKE_TEST_POSTGRES_URL is not set: run through scripts/test.sh");
    let (scheme, rest) = url.split_once("://").unwrap();
    let (user_info, server) = rest.split_once('@').unwrap();
    let user = user_info
        .split_once(':')
        .map_or(user_info, |(user, _)| user);
    for (wrong, shown) in [
        (
            format!("{scheme}://{user}:not-the-password@{server}"),
            format!("{scheme}://{user}:***@{server}"),
        ),
        (
            format!("{scheme}://{user}@{server}?password=not-the-password"),
            format!("{scheme}://{user}@{server}?password=***"),
        ),
    ] {
        let (code, stderr) = run_server(&[("DATABASE_URL", &wrong), ("ADDRESS", "127.0.0.1:0")]);
        // sqlx ends the server's message with the line of PostgreSQL's source that raised it,
        // which changes between versions.
        let line = stderr.trim_end_matches(|c: char| c.is_ascii_digit() || c == '\n');
        let message = format!(
            "example-web-axum: cannot open the database {shown}: error returned from database: \
             password authentication failed for user \"{user}\" at line "
        );
        assert_eq!((code, line), (Some(1), message.as_str()), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}
