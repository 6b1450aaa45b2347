#!/usr/bin/env bash
# The database benchmark (on demand, not in CI): insert rate and primary-key index size of
# Ulid-Flake BIGINT keys against a raw i64, UUIDv4, UUIDv7 and ULID-as-text keys, on a
# throwaway PostgreSQL. Prints a Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export SQLX_OFFLINE=true
cargo build -q --release -p ulid-flake-benchmarks --bin db
exec scripts/with-databases.sh target/release/db
