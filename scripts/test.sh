#!/usr/bin/env bash
# Every check and test of the workspace, as CI runs them.
set -euo pipefail
cd "$(dirname "$0")/.."

# The checked sqlx macros build from the committed query data (.sqlx/), never a live database.
export SQLX_OFFLINE=true

step() { printf '\n==> %s\n' "$*" >&2; }

step "build dependencies: C client libraries, database servers, PgBouncer; cargo-hack"
scripts/install-build-deps.sh
command -v cargo-hack >/dev/null || cargo install -q --locked cargo-hack

step "feature tables in the READMEs, against the Cargo.toml comments they are made from"
scripts/feature-tables.py --check

step "formatting"
cargo fmt --all -- --check

step "lints (clippy's incompatible_msrv holds the code to the workspace's rust-version)"
cargo clippy --workspace --all-targets --all-features -- -D warnings

published=(-p ulid-flake-core -p ulid-flake-sqlx -p ulid-flake-diesel -p ulid-flake-cli)

step "docs with default, no and all features, and as docs.rs builds them (nightly, --cfg docsrs)"
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps "${published[@]}"
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps "${published[@]}" --no-default-features
RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps --workspace --all-features
if rustup toolchain list | grep -q '^nightly'; then
  RUSTDOCFLAGS="-D warnings --cfg docsrs" CARGO_TARGET_DIR=target/docsrs \
    cargo +nightly doc -q --no-deps "${published[@]}" --all-features
fi

step "every feature of each published crate alone, and the combinations users pick (no_std first)"
cargo hack check -q --each-feature --no-dev-deps "${published[@]}"
for features in alloc serde,uuid alloc,schemars std,serde std,serde,uuid,utoipa,schemars \
  chrono time jiff chrono,time,jiff,serde arbitrary proptest arbitrary,proptest,serde; do
  cargo check -q -p ulid-flake-core --no-default-features --features "$features"
done

step "packages: each published crate as crates.io would receive it, built on its own"
# cargo unpacks the packages it verifies against from a local registry, and reuses an earlier
# run's copy of the same version: drop those, so each run builds today's sources.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/ulid-flake-* \
  "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/-*/ulid-flake-*
cargo package -q --allow-dirty "${published[@]}"

step "tests and doctests, against throwaway PostgreSQL and MariaDB servers and SQLite files"
# with-databases.sh starts the servers (installed by install-build-deps.sh) on loopback, exports their
# URLs and stops them on exit; the database tests fail, never skip, without them.
scripts/with-databases.sh cargo test --workspace --all-features

step "loom: every interleaving of three threads on one generator (its own target dir: other cfg)"
RUSTFLAGS="--cfg ulid_flake_loom" LOOM_MAX_PREEMPTIONS=3 CARGO_TARGET_DIR=target/loom \
  cargo test -q --release -p ulid-flake-core --all-features --test core loom

step "benchmarks compile and run once each (cargo bench -- --test), so they cannot rot"
cargo bench -q -p ulid-flake-benchmarks --benches -- --test

step "the database-scale benchmark in smoke mode (5,000 rows per key), so it cannot rot"
# The full run is scripts/bench-db.sh, on demand. cargo bench above has built this binary
# already (benchmarks build their package's binaries, and the bench profile is release's), so
# this only runs it: 10 to 20 s with the servers' start. The report goes nowhere; the CSV and
# the chart go to a temp directory, never over the committed ones.
smoke=$(mktemp -d)
scripts/with-databases.sh cargo run -q --release -p ulid-flake-benchmarks --bin db -- \
  --smoke --csv "$smoke/db-insert-rate.csv" --svg "$smoke/db-insert-rate.svg" >/dev/null

step "fuzz targets: lints, and the saved inputs replayed as ordinary tests (fuzz/ is its own workspace)"
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
cargo clippy --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings
cargo test --manifest-path fuzz/Cargo.toml

step "examples, and the README's main job"
cargo run -q -p ulid-flake-cli -- generate -n 2 | cargo run -q -p ulid-flake-cli -- inspect >/dev/null
cargo run -q -p example-sqlx-sqlite -- "$(mktemp -d)/example.sqlite3" >/dev/null
cargo run -q -p example-diesel-sqlite -- "$(mktemp -d)/example.sqlite3" >/dev/null
cargo run -q -p example-sea-orm-sqlite -- "$(mktemp -d)/example.sqlite3" >/dev/null

step "the example API's OpenAPI document, through openapi-spec-validator (installed under target/)"
scripts/validate-openapi.sh
