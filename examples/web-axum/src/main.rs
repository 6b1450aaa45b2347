//! Serves the example API: `cargo run -p example-web-axum`.
//!
//! - `DATABASE_URL`: `sqlite://...` or `postgres://...`; an SQLite file
//!   `ulid-flake-example.sqlite3` in the current directory without it.
//! - `ADDRESS`: where to listen; `127.0.0.1:3000` without it.
//!
//! On PostgreSQL the server leases its scalability id from the database (namespace
//! `LEASE_NAMESPACE`, `example-web-axum` without it) before it listens, so that replicas of it
//! never issue the same ID; `GET /health` reports the lease. On `SIGTERM` or Ctrl-C it stops
//! accepting connections, finishes the requests in flight, and releases the lease, so that the
//! replica replacing it can take the id after the lease's margin (1 s), not its whole
//! validity (15 s). One started in place of a replica that was killed instead waits up to
//! 20 s for its id when no other is free.
//!
//! `example-web-axum --print-openapi` prints the OpenAPI document (as `/openapi.json` serves
//! it) and exits, touching no database: `scripts/validate-openapi.sh` checks it.
//! `example-web-axum --print-typescript` prints the TypeScript declarations of the API's
//! types: `scripts/check-typescript.sh` compiles a client against them.

use std::time::Duration;

use example_web_axum::{ApiDoc, Store, router};
use ulid_flake_sqlx::lease::{LeaseOptions, LeaseTiming};
use utoipa::OpenApi;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    match std::env::args().nth(1).as_deref() {
        None => {}
        Some("--print-openapi") => {
            println!("{}", ApiDoc::openapi().to_pretty_json()?);
            return Ok(());
        }
        Some("--print-typescript") => {
            print!("{}", example_web_axum::typescript());
            return Ok(());
        }
        Some(other) => {
            return Err(format!(
                "unknown argument {other}: expected none, --print-openapi or --print-typescript"
            )
            .into());
        }
    }
    let url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "sqlite://ulid-flake-example.sqlite3?mode=rwc".to_owned());
    let address = std::env::var("ADDRESS").unwrap_or_else(|_| "127.0.0.1:3000".to_owned());
    let store = Store::connect(&url).await?;
    if url.starts_with("postgres") {
        let namespace =
            std::env::var("LEASE_NAMESPACE").unwrap_or_else(|_| "example-web-axum".to_owned());
        // A replica started in place of one that was killed waits for its row to expire
        // (the validity plus the margin) rather than fail when no other id is free.
        let timing = LeaseTiming {
            wait_for_free_id: Duration::from_secs(20),
            ..LeaseTiming::default()
        };
        let options = LeaseOptions::new(namespace).timing(timing);
        let lease = ulid_flake_sqlx::lease_postgres(&url, options).await?;
        eprintln!("leased scalability id {:?}", lease.status().scalability_id);
        lease.install_default()?;
    }
    let listener = tokio::net::TcpListener::bind(&address).await?;
    eprintln!(
        "listening on http://{} (database {url}); try GET /openapi.json",
        listener.local_addr()?
    );
    axum::serve(listener, router(store))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    // Blocks until the release is sent: off the runtime's threads.
    tokio::task::spawn_blocking(ulid_flake_sqlx::lease::release_installed_lease).await??;
    eprintln!("stopped; the scalability-id lease, if any, is released");
    Ok(())
}

/// `SIGTERM` (what a container runtime or systemd sends) or Ctrl-C.
async fn shutdown_signal() {
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("a SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate.recv() => {}
    }
}
