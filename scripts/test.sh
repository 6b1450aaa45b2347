#!/usr/bin/env bash
# Every check and test of the workspace, as CI runs them.
set -euo pipefail
cd "$(dirname "$0")/.."

# The checked sqlx macros build from the committed query data (.sqlx/), never a live database.
export SQLX_OFFLINE=true

step() { printf '\n==> %s\n' "$*" >&2; }

step "build dependencies: the C client libraries Diesel's backends link"
scripts/install-build-deps.sh

step "formatting"
cargo fmt --all -- --check

step "lints"
cargo clippy --workspace --all-targets --all-features -- -D warnings

step "docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --all-features --no-deps

step "feature combinations of ulid-flake-core (no_std first)"
for features in "" alloc serde,uuid std std,serde tokio; do
  cargo check -q -p ulid-flake-core --no-default-features --features "$features"
done

step "tests and doctests, against throwaway PostgreSQL and MariaDB servers and SQLite files"
# with-databases.sh installs the servers when missing, starts them on loopback, exports their
# URLs and stops them on exit; the database tests fail, never skip, without them.
scripts/with-databases.sh cargo test --workspace --all-features

step "loom: every interleaving of three threads on one generator (its own target dir: other cfg)"
RUSTFLAGS="--cfg ulid_flake_loom" LOOM_MAX_PREEMPTIONS=3 CARGO_TARGET_DIR=target/loom \
  cargo test -q --release -p ulid-flake-core --all-features --test core loom

step "benchmarks compile and run once each (cargo bench -- --test), so they cannot rot"
cargo bench -q -p ulid-flake-benchmarks --benches -- --test

step "fuzz targets: lints, and the saved inputs replayed as ordinary tests (fuzz/ is its own workspace)"
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
cargo clippy --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings
cargo test --manifest-path fuzz/Cargo.toml

step "examples, and the README's main job"
cargo run -q -p ulid-flake-cli -- generate -n 2 | cargo run -q -p ulid-flake-cli -- inspect >/dev/null
cargo run -q -p example-sqlx-sqlite -- "$(mktemp -d)/example.sqlite3" >/dev/null
cargo run -q -p example-diesel-sqlite -- "$(mktemp -d)/example.sqlite3" >/dev/null
