//! Serves the example API: `cargo run -p example-web-axum`.
//!
//! - `DATABASE_URL`: `sqlite://...` or `postgres://...`; an SQLite file
//!   `ulid-flake-example.sqlite3` in the current directory without it.
//! - `ADDRESS`: where to listen; `127.0.0.1:3000` without it.
//!
//! `example-web-axum --print-openapi` prints the OpenAPI document (as `/openapi.json` serves
//! it) and exits, touching no database: `scripts/validate-openapi.sh` checks it.

use example_web_axum::{ApiDoc, Store, router};
use utoipa::OpenApi;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    match std::env::args().nth(1).as_deref() {
        None => {}
        Some("--print-openapi") => {
            println!("{}", ApiDoc::openapi().to_pretty_json()?);
            return Ok(());
        }
        Some(other) => {
            return Err(
                format!("unknown argument {other}: expected none or --print-openapi").into(),
            );
        }
    }
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
