//! Users and posts with typed Ulid-Flake keys, stored as `BIGINT` in an SQLite file through
//! sqlx, and shown as JSON with Base32 IDs.
//!
//! `cargo run -p example-sqlx-sqlite [PATH]` (a temporary file unless `PATH` is given).

use serde::Serialize;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};
use ulid_flake_sqlx::Id;

#[derive(Debug, Serialize, sqlx::FromRow)]
struct User {
    id: Id<User>,
    name: String,
}

#[derive(Debug, Serialize, sqlx::FromRow)]
struct Post {
    id: Id<Post>,
    author: Id<User>,
    title: String,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).map_or_else(
        || std::env::temp_dir().join(format!("ulid-flake-example-{}.sqlite3", std::process::id())),
        Into::into,
    );
    let pool = SqlitePool::connect_with(
        SqliteConnectOptions::new()
            .filename(&path)
            .create_if_missing(true),
    )
    .await?;
    sqlx::migrate!().run(&pool).await?;

    let ada = User {
        id: Id::generate()?,
        name: "Ada".into(),
    };
    sqlx::query("INSERT INTO users (id, name) VALUES (?, ?)")
        .bind(ada.id)
        .bind(&ada.name)
        .execute(&pool)
        .await?;
    for title in ["Notes on the Analytical Engine", "Sketch of the Engine"] {
        let post = Post {
            id: Id::generate()?,
            author: ada.id,
            title: title.into(),
        };
        sqlx::query("INSERT INTO posts (id, author, title) VALUES (?, ?, ?)")
            .bind(post.id)
            .bind(post.author)
            .bind(&post.title)
            .execute(&pool)
            .await?;
    }

    // Checked at compile time against the committed query data (.sqlx/): the overrides name
    // the ID types of the BIGINT columns, and the argument's `as Id<User>` is what refuses an
    // `Id<Post>` where the foreign key is compared (with `as _`, any ID binds to a BIGINT).
    let posts = sqlx::query_as!(
        Post,
        r#"SELECT id AS "id: Id<Post>", author AS "author: Id<User>", title
           FROM posts WHERE author = ? ORDER BY id"#,
        ada.id as Id<User>,
    )
    .fetch_all(&pool)
    .await?;
    let stored: Vec<i64> = sqlx::query_scalar("SELECT id FROM posts ORDER BY id")
        .fetch_all(&pool)
        .await?;

    println!(
        "{}",
        serde_json::to_string_pretty(&serde_json::json!({ "user": ada, "posts": posts }))?
    );
    println!("stored in SQLite as BIGINT: {stored:?}");
    println!("database file: {}", path.display());
    Ok(())
}
