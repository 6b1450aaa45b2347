#!/usr/bin/env bash
# Regenerates the sqlx offline query data (crates/*/.sqlx) that lets the checked macros
# build without a database. Run it after changing a query!/query_as! call.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck disable=SC2016 # expanded by the inner shell, where with-databases.sh sets the URL
exec scripts/with-databases.sh bash -c '
  set -euo pipefail
  psql "$ULID_FLAKE_TEST_POSTGRES_URL" -q -c "CREATE TABLE IF NOT EXISTS macro_users (id BIGINT PRIMARY KEY, name TEXT NOT NULL, invited_by BIGINT NULL)"
  rm -rf crates/ulid-flake-sqlx/.sqlx
  mkdir -p crates/ulid-flake-sqlx/.sqlx
  # Online build: the macros check each query against the server and save its data.
  touch crates/ulid-flake-sqlx/tests/sqlx/macros.rs
  SQLX_OFFLINE=false DATABASE_URL="$ULID_FLAKE_TEST_POSTGRES_URL" \
    SQLX_OFFLINE_DIR="$PWD/crates/ulid-flake-sqlx/.sqlx" \
    cargo build -q -p ulid-flake-sqlx --tests
  ls crates/ulid-flake-sqlx/.sqlx
'
