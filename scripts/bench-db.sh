#!/usr/bin/env bash
# The database-scale benchmark, on demand (CI runs only its smoke mode, in scripts/test.sh):
# auto-increment, Ulid-Flake BIGINT, UUIDv7 and UUIDv4 primary keys, 5,000,000 rows each, on
# throwaway PostgreSQL and MariaDB (InnoDB) servers. Prints a Markdown report for
# BENCHMARKS.md (insert rate per 500,000-row segment, table and index sizes, point lookups,
# a time-window range scan, all against auto-increment) and writes the segment rates to
# benchmarks/db-insert-rate.csv and their chart to benchmarks/db-insert-rate.svg.
#
#   scripts/bench-db.sh [--rows N] [--segment N] [--databases postgres,mariadb] [...]
#
# The options go to the binary (benchmarks/src/bin/db.rs, whose doc comment lists them all).
# The full run takes a long time; run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export SQLX_OFFLINE=true
cargo build -q --release -p ulid-flake-benchmarks --bin db
exec scripts/with-databases.sh "${CARGO_TARGET_DIR:-target}/release/db" "$@"
