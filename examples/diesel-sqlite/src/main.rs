//! Users and posts with typed Ulid-Flake keys, stored as `BIGINT` in an SQLite file through
//! Diesel, and shown as JSON with Base32 IDs.
//!
//! `cargo run -p example-diesel-sqlite [PATH]` (a temporary file unless `PATH` is given).

use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use serde::Serialize;
use ulid_flake_diesel::Id;

/// What `diesel print-schema` writes for the migration: plain `BigInt` columns.
mod schema {
    diesel::table! {
        users (id) {
            id -> BigInt,
            name -> Text,
        }
    }

    diesel::table! {
        posts (id) {
            id -> BigInt,
            author -> BigInt,
            title -> Text,
        }
    }

    diesel::joinable!(posts -> users (author));
    diesel::allow_tables_to_appear_in_same_query!(users, posts);
}

use schema::{posts, users};

const MIGRATIONS: EmbeddedMigrations = embed_migrations!();

#[derive(Debug, Serialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = users)]
struct User {
    id: Id<User>,
    name: String,
}

#[derive(Debug, Serialize, Queryable, Selectable, Insertable)]
#[diesel(table_name = posts)]
struct Post {
    id: Id<Post>,
    author: Id<User>,
    title: String,
}

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let path = std::env::args().nth(1).map_or_else(
        || {
            std::env::temp_dir().join(format!(
                "ulid-flake-diesel-example-{}.sqlite3",
                std::process::id()
            ))
        },
        Into::into,
    );
    let conn = &mut SqliteConnection::establish(path.to_str().ok_or("the path is not UTF-8")?)?;
    conn.run_pending_migrations(MIGRATIONS)?;

    let ada = User {
        id: Id::generate()?,
        name: "Ada".into(),
    };
    diesel::insert_into(users::table)
        .values(&ada)
        .execute(conn)?;
    for title in ["Notes on the Analytical Engine", "Sketch of the Engine"] {
        let post = Post {
            id: Id::generate()?,
            author: ada.id,
            title: title.into(),
        };
        diesel::insert_into(posts::table)
            .values(&post)
            .execute(conn)?;
    }

    // The column is a BIGINT, which any `Id<T>` compares with: the entity lives in the Rust
    // types, not in the schema, so Diesel cannot refuse an `Id<Post>` here.
    let by_ada: Vec<Post> = posts::table
        .filter(posts::author.eq(ada.id))
        .order(posts::id)
        .select(Post::as_select())
        .load(conn)?;
    let names: Vec<(String, String)> = posts::table
        .inner_join(users::table)
        .select((users::name, posts::title))
        .order(posts::id)
        .load(conn)?;

    println!(
        "{}",
        serde_json::to_string_pretty(&serde_json::json!({ "user": ada, "posts": by_ada }))?
    );
    println!("joined: {names:?}");
    println!("database file: {}", path.display());
    Ok(())
}
