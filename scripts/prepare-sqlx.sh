#!/usr/bin/env bash
# Regenerates the sqlx offline query data (*/.sqlx) that lets the checked macros
# build without a database. Run it after changing a query!/query_as! call.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck disable=SC2016 # expanded by the inner shell, where with-databases.sh sets the URL
exec scripts/with-databases.sh bash -c '
  set -euo pipefail
  source scripts/lib/test-databases.env # DB_NAME, DB_USER, DB_PASSWORD
  table="CREATE TABLE IF NOT EXISTS macro_users (id BIGINT PRIMARY KEY, name TEXT NOT NULL, invited_by BIGINT NULL)"
  psql "$ULID_FLAKE_TEST_POSTGRES_URL" -q -c "$table"
  mysql_port=$(sed -E "s#.*:([0-9]+)/.*#\\1#" <<<"$ULID_FLAKE_TEST_MYSQL_URL")
  mariadb --protocol=tcp -h 127.0.0.1 -P "$mysql_port" -u "$DB_USER" -p"$DB_PASSWORD" "$DB_NAME" -e "$table"
  sqlite="$ULID_FLAKE_TEST_SQLITE_DIR/example.sqlite3"
  python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).executescript(open(sys.argv[2]).read())" \
    "$sqlite" examples/sqlx-sqlite/migrations/*.sql

  # Online builds: the macros check each query against the server and save its data.
  prepare() { # crate directory, package, database URL, cargo target flag
    rm -rf "$1/.sqlx" && mkdir -p "$1/.sqlx"
    find "$1" -name "*.rs" -exec touch {} +
    SQLX_OFFLINE=false DATABASE_URL="$3" SQLX_OFFLINE_DIR="$PWD/$1/.sqlx" cargo build -q -p "$2" "$4"
    echo "$1/.sqlx: $(ls "$1/.sqlx" | wc -l) queries"
  }
  prepare ulid-flake-sqlx ulid-flake-sqlx "$ULID_FLAKE_TEST_POSTGRES_URL" --tests
  prepare tests/sqlx-mysql-macros sqlx-mysql-macros-tests "$ULID_FLAKE_TEST_MYSQL_URL" --tests
  prepare examples/sqlx-sqlite example-sqlx-sqlite "sqlite://$sqlite" --bins
  # The crate docs of ulid-flake-sqlx quote the MySQL and SQLite queries too: their doctests
  # compile against the same data.
  cp tests/sqlx-mysql-macros/.sqlx/*.json examples/sqlx-sqlite/.sqlx/*.json ulid-flake-sqlx/.sqlx/
  echo "ulid-flake-sqlx/.sqlx: $(ls ulid-flake-sqlx/.sqlx | wc -l) queries, with the MySQL and SQLite ones"
'
