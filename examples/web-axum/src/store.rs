//! Users and posts in SQLite or PostgreSQL, through sqlx's `Any` driver: the same SQL (with
//! `$n` parameters, which both accept) and the same ID columns on both.
//!
//! IDs are prefixed in the API (`user_…`, `post_…`: [`PrefixedId`]), so that a post's ID
//! pasted where a user's belongs is a 400 that says so; the tables store the same `BIGINT`s as
//! unprefixed `Id<T>`s would.

use serde::{Deserialize, Serialize};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, FromRow};
use ts_rs::TS;
use ulid_flake_core::{Prefix, PrefixedId};

use crate::extract::RequestBody;

/// A user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow, utoipa::ToSchema, TS)]
pub struct User {
    /// The user's ID, `user_…`.
    pub id: PrefixedId<User>,
    /// The user's name.
    pub name: String,
}

/// A post, written by a user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow, utoipa::ToSchema, TS)]
pub struct Post {
    /// The post's ID, `post_…`.
    pub id: PrefixedId<Post>,
    /// The author's ID: a foreign key to `users`.
    pub author: PrefixedId<User>,
    /// The title.
    pub title: String,
}

/// The body of `POST /users`. Any other field is a 400: a client's `id` would otherwise be
/// dropped without a word, and the user made with a new one.
#[derive(Debug, Deserialize, utoipa::ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct NewUser {
    /// The user's name: not blank, at most 200 characters (`MAX_TEXT_CHARS`).
    #[schema(max_length = 200, pattern = r"\S")]
    pub name: String,
}

/// The body of `POST /posts`; any other field is a 400, as for [`NewUser`].
#[derive(Debug, Deserialize, utoipa::ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct NewPost {
    /// The author's ID, as its text `user_…`.
    pub author: PrefixedId<User>,
    /// The title: not blank, at most 200 characters (`MAX_TEXT_CHARS`).
    #[schema(max_length = 200, pattern = r"\S")]
    pub title: String,
}

impl RequestBody for NewUser {
    const EXPECTED: &'static str = "an object with a `name`";
}

impl RequestBody for NewPost {
    const EXPECTED: &'static str = "an object with an `author` and a `title`";
}

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

impl Prefix for Post {
    const PREFIX: &'static str = "post";
}

/// One page of a list, in ID (creation) order.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Page<T: Prefix> {
    /// The items of this page.
    pub items: Vec<T>,
    /// The cursor of the next page (`?after=`), or `null` on the last page.
    // Required: always present, if only as `null` (utoipa makes an `Option` optional).
    #[schema(required = true)]
    pub next: Option<PrefixedId<T>>,
}

impl<T: Prefix> Page<T> {
    /// A page of `limit` items from `items`, read with one row more (`LIMIT limit + 1`): that
    /// row is only there to tell a page with a successor from the last page.
    fn new(mut items: Vec<T>, limit: u32, id: impl Fn(&T) -> PrefixedId<T>) -> Self {
        let more = items.len() > limit as usize;
        items.truncate(limit as usize);
        let next = more.then(|| items.last().map(id)).flatten();
        Self { items, next }
    }
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
}

/// Idempotent schema: IDs are plain `BIGINT`s, sorted by creation time.
const SCHEMA: [&str; 2] = [
    "CREATE TABLE IF NOT EXISTS users (id BIGINT PRIMARY KEY, name TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS posts (id BIGINT PRIMARY KEY, \
     author BIGINT NOT NULL REFERENCES users (id), title TEXT NOT NULL)",
];

/// The cursor that precedes every ID.
const BEFORE_FIRST: i64 = -1;

impl Store {
    /// Connects to `url` (`sqlite://...` or `postgres://...`) and creates the tables, and a
    /// missing SQLite file unless the URL names another `mode` (`mode=rw`).
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn connect(url: &str) -> Result<Self, sqlx::Error> {
        install_default_drivers();
        let mut options: AnyConnectOptions = url.parse()?;
        // SQLite's default mode (`rw`) opens an existing file only.
        let database_url = &mut options.database_url;
        if database_url.scheme() == "sqlite"
            && !database_url.query_pairs().any(|(key, _)| key == "mode")
        {
            database_url.query_pairs_mut().append_pair("mode", "rwc");
        }
        let pool = AnyPoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        for statement in SCHEMA {
            sqlx::query(statement).execute(&pool).await?;
        }
        Ok(Self { pool })
    }

    pub(crate) async fn create_user(&self, name: String) -> Result<User, crate::ApiError> {
        let user = User {
            id: PrefixedId::generate()?,
            name,
        };
        sqlx::query("INSERT INTO users (id, name) VALUES ($1, $2)")
            .bind(user.id)
            .bind(&user.name)
            .execute(&self.pool)
            .await?;
        Ok(user)
    }

    pub(crate) async fn user(&self, id: PrefixedId<User>) -> Result<Option<User>, sqlx::Error> {
        sqlx::query_as("SELECT id, name FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
    }

    pub(crate) async fn users(
        &self,
        after: Option<PrefixedId<User>>,
        limit: u32,
    ) -> Result<Page<User>, sqlx::Error> {
        let users = sqlx::query_as("SELECT id, name FROM users WHERE id > $1 ORDER BY id LIMIT $2")
            .bind(after.map_or(BEFORE_FIRST, PrefixedId::to_i64))
            .bind(i64::from(limit) + 1)
            .fetch_all(&self.pool)
            .await?;
        Ok(Page::new(users, limit, |user: &User| user.id))
    }

    /// The new post, or `None` when its author does not exist (and nothing was written).
    pub(crate) async fn create_post(&self, new: NewPost) -> Result<Option<Post>, crate::ApiError> {
        let post = Post {
            id: PrefixedId::generate()?,
            author: new.author,
            title: new.title,
        };
        // One statement: the author check and the insert cannot be separated by a delete.
        let inserted = sqlx::query(
            "INSERT INTO posts (id, author, title) \
             SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM users WHERE id = $2)",
        )
        .bind(post.id)
        .bind(post.author)
        .bind(&post.title)
        .execute(&self.pool)
        .await?;
        Ok((inserted.rows_affected() == 1).then_some(post))
    }

    pub(crate) async fn post(&self, id: PrefixedId<Post>) -> Result<Option<Post>, sqlx::Error> {
        sqlx::query_as("SELECT id, author, title FROM posts WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
    }

    pub(crate) async fn posts_of(
        &self,
        author: PrefixedId<User>,
        after: Option<PrefixedId<Post>>,
        limit: u32,
    ) -> Result<Page<Post>, sqlx::Error> {
        let posts = sqlx::query_as(
            "SELECT id, author, title FROM posts WHERE author = $1 AND id > $2 ORDER BY id LIMIT $3",
        )
        .bind(author)
        .bind(after.map_or(BEFORE_FIRST, PrefixedId::to_i64))
        .bind(i64::from(limit) + 1)
        .fetch_all(&self.pool)
        .await?;
        Ok(Page::new(posts, limit, |post: &Post| post.id))
    }

    /// How many rows the tables hold: `(users, posts)`.
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn counts(&self) -> Result<(i64, i64), sqlx::Error> {
        let users = sqlx::query_scalar("SELECT COUNT(*) FROM users")
            .fetch_one(&self.pool)
            .await?;
        let posts = sqlx::query_scalar("SELECT COUNT(*) FROM posts")
            .fetch_one(&self.pool)
            .await?;
        Ok((users, posts))
    }
}
