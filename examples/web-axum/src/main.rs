//! Serves the example API: `cargo run -p example-web-axum`.
//!
//! - `DATABASE_URL`: `sqlite://...` or `postgres://...`; an SQLite file
//!   `ulid-flake-example.sqlite3` in the current directory without it. A missing SQLite file
//!   is created.
//! - `ADDRESS`: where to listen; `127.0.0.1:3000` without it.
//! - `ULID_FLAKE_SCALABILITY_ID`: the scalability id (0 to 31) of the IDs, read at start-up.
//!
//! A failure to start (a bad `ULID_FLAKE_SCALABILITY_ID`, a database it cannot open, an
//! address it cannot listen on) is one line on standard error, with any password in the URL
//! shown as `***`, and exit status 1.
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

use std::process::ExitCode;
use std::time::Duration;

use example_web_axum::{ApiDoc, Store, router};
use ulid_flake_sqlx::lease::{LeaseOptions, LeaseTiming};
use utoipa::OpenApi;

/// A failure to start or to serve is one line on standard error and exit status 1.
#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("example-web-axum: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), String> {
    match std::env::args().nth(1).as_deref() {
        None => {}
        Some("--print-openapi") => {
            let document = ApiDoc::openapi().to_pretty_json();
            println!("{}", document.map_err(|error| error.to_string())?);
            return Ok(());
        }
        Some("--print-typescript") => {
            print!("{}", example_web_axum::typescript());
            return Ok(());
        }
        Some(other) => {
            return Err(format!(
                "unknown argument {other}: expected none, --print-openapi or --print-typescript"
            ));
        }
    }
    // A bad ULID_FLAKE_SCALABILITY_ID stops the server here, rather than failing every request
    // that makes an ID.
    ulid_flake_core::init_from_env().map_err(|error| error.to_string())?;
    let url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "sqlite://ulid-flake-example.sqlite3".to_owned());
    let shown_url = without_password(&url);
    let address = std::env::var("ADDRESS").unwrap_or_else(|_| "127.0.0.1:3000".to_owned());
    let store = Store::connect(&url)
        .await
        .map_err(|error| format!("cannot open the database {shown_url}: {error}"))?;
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
        let lease = ulid_flake_sqlx::lease_postgres(&url, options)
            .await
            .map_err(|error| format!("cannot lease a scalability id from {shown_url}: {error}"))?;
        eprintln!("leased scalability id {:?}", lease.status().scalability_id);
        lease.install_default().map_err(|error| error.to_string())?;
    }
    let cannot_listen = |error| format!("cannot listen on {address}: {error}");
    let listener = tokio::net::TcpListener::bind(&address)
        .await
        .map_err(cannot_listen)?;
    eprintln!(
        "listening on http://{} (database {shown_url}); try GET /openapi.json",
        listener.local_addr().map_err(cannot_listen)?
    );
    axum::serve(listener, router(store))
        .with_graceful_shutdown(shutdown_signal())
        .await
        .map_err(|error| format!("serving on {address} failed: {error}"))?;
    // Blocks until the release is sent: off the runtime's threads.
    tokio::task::spawn_blocking(ulid_flake_sqlx::lease::release_installed_lease)
        .await
        .map_err(|error| error.to_string())?
        .map_err(|error| format!("cannot release the scalability-id lease: {error}"))?;
    eprintln!("stopped; the scalability-id lease, if any, is released");
    Ok(())
}

/// `url` to print: the password of `user:password@` and of a `password=` parameter replaced
/// by `***`.
fn without_password(url: &str) -> String {
    let (head, query) = url
        .split_once('?')
        .map_or((url, None), |(h, q)| (h, Some(q)));
    let mut shown = head.to_owned();
    if let Some((scheme, rest)) = head.split_once("://") {
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        if let Some((user_info, host)) = authority.rsplit_once('@')
            && let Some((user, _)) = user_info.split_once(':')
        {
            shown = format!("{scheme}://{user}:***@{host}{path}");
        }
    }
    if let Some(query) = query {
        let parameters: Vec<String> = query
            .split('&')
            .map(|parameter| match parameter.split_once('=') {
                Some(("password", _)) => "password=***".to_owned(),
                _ => parameter.to_owned(),
            })
            .collect();
        shown = format!("{shown}?{}", parameters.join("&"));
    }
    shown
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
