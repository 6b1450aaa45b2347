//! Serves the example API: `cargo run -p example-web-axum`.
//!
//! - `DATABASE_URL`: `sqlite://...` or `postgres://...`; an SQLite file
//!   `ulid-flake-example.sqlite3` in the current directory without it.
//! - `ADDRESS`: where to listen; `127.0.0.1:3000` without it.

use example_web_axum::{Store, router};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "sqlite://ulid-flake-example.sqlite3?mode=rwc".to_owned());
    let address = std::env::var("ADDRESS").unwrap_or_else(|_| "127.0.0.1:3000".to_owned());
    let store = Store::connect(&url).await?;
    let listener = tokio::net::TcpListener::bind(&address).await?;
    eprintln!(
        "listening on http://{} (database {url}); try GET /openapi.json",
        listener.local_addr()?
    );
    axum::serve(listener, router(store))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
