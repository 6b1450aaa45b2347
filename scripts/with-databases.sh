#!/usr/bin/env bash
# Run a command against throwaway PostgreSQL and MariaDB servers.
#
#   scripts/with-databases.sh <command> [args...]
#
# Both servers listen on 127.0.0.1 only, on free non-default ports, with all
# data, sockets and logs in a fresh temp directory. The command runs with:
#
#   ULID_FLAKE_TEST_POSTGRES_URL  postgres://ulid:<pw>@127.0.0.1:<port>/ulid_flake_test
#   ULID_FLAKE_TEST_MYSQL_URL     mysql://ulid:<pw>@127.0.0.1:<port>/ulid_flake_test
#   ULID_FLAKE_TEST_SQLITE_DIR    an empty directory for SQLite files
#   ULID_FLAKE_REQUIRE_DATABASES  1
#
# On exit (success, failure, Ctrl-C or SIGTERM) both servers are stopped and
# the temp directory is deleted. The exit status is the command's.
#
# If the server binaries are missing and we are root, they are installed from
# the distribution's packages (Debian/Ubuntu, apt-get). Nothing relies on
# systemd or init scripts: the servers are started directly.
set -euo pipefail

readonly DB_NAME=ulid_flake_test
readonly DB_USER=ulid
# Fixed, URL-safe password: the servers are throwaway and loopback-only, but
# PostgreSQL really checks it (scram-sha-256 over TCP), as does MariaDB.
readonly DB_PASSWORD=ulid_test_pw
readonly STARTUP_TIMEOUT=60

prog=${0##*/}
log() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { log "error: $*"; exit 1; }

if [[ $# -eq 0 ]]; then
    echo "usage: $prog <command> [args...]" >&2
    exit 2
fi

is_root() { [[ $(id -u) -eq 0 ]]; }

# ---------------------------------------------------------------------------
# Locating (and if need be installing) the server binaries
# ---------------------------------------------------------------------------

# Debian keeps the PostgreSQL server binaries out of PATH, one directory per
# major version; take the newest. Fall back to whatever is on PATH.
find_pg_bin() {
    local dir
    for dir in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V -r); do
        if [[ -x $dir/initdb && -x $dir/postgres && -x $dir/psql && -x $dir/pg_isready ]]; then
            echo "$dir"
            return 0
        fi
    done
    if dir=$(command -v initdb) && dir=${dir%/*} &&
        [[ -x $dir/postgres && -x $dir/psql && -x $dir/pg_isready ]]; then
        echo "$dir"
        return 0
    fi
    return 1
}

# First executable found among the given names, in PATH or the sbin dirs
# (mariadbd lives in /usr/sbin, which is not on a normal user's PATH).
find_exe() {
    local name
    for name in "$@"; do
        if command -v "$name" 2>/dev/null; then return 0; fi
        if [[ -x /usr/sbin/$name ]]; then echo "/usr/sbin/$name"; return 0; fi
        if [[ -x /usr/local/sbin/$name ]]; then echo "/usr/local/sbin/$name"; return 0; fi
    done
    return 1
}

find_binaries() {
    pg_bin=$(find_pg_bin) || pg_bin=
    mariadbd=$(find_exe mariadbd mysqld) || mariadbd=
    mariadb_install_db=$(find_exe mariadb-install-db mysql_install_db) || mariadb_install_db=
    mariadb_client=$(find_exe mariadb mysql) || mariadb_client=
}

install_packages() {
    local packages=("$@") policy=/usr/sbin/policy-rc.d created_policy='' status=0
    is_root || die "missing database server binaries; install them (Debian: apt-get install ${packages[*]}) or run as root to have this script do it"
    command -v apt-get >/dev/null || die "missing database server binaries and no apt-get to install ${packages[*]}"
    log "installing ${packages[*]} (one-time, via apt-get)..."
    # The postgresql package's maintainer scripts create a default cluster
    # and try to start it via invoke-rc.d; deny that for the duration of the
    # install (exit 101 = "action forbidden") so no stray server is left
    # running on the default port. Docker images usually ship this already.
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod 755 "$policy"
        created_policy=1
    fi
    local apt_log
    apt_log=$(mktemp -t ulid-flake-apt.XXXXXX)
    {
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q &&
            apt-get install -y -q --no-install-recommends \
                -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
                -o DPkg::Lock::Timeout=120 "${packages[@]}"
    } >"$apt_log" 2>&1 || status=$?
    if [[ -n $created_policy ]]; then rm -f "$policy"; fi
    if [[ $status -ne 0 ]]; then
        cat "$apt_log" >&2
        rm -f "$apt_log"
        die "apt-get failed (status $status)"
    fi
    rm -f "$apt_log"
}

find_binaries
missing=()
[[ -n $pg_bin ]] || missing+=(postgresql postgresql-client)
# The -core packages hold just the server/client binaries and support files;
# unlike mariadb-server they have no maintainer scripts that set up
# /var/lib/mysql or start a system-wide service.
[[ -n $mariadbd && -n $mariadb_install_db ]] || missing+=(mariadb-server-core)
[[ -n $mariadb_client ]] || missing+=(mariadb-client-core)
if [[ ${#missing[@]} -gt 0 ]]; then
    install_packages "${missing[@]}"
    find_binaries
    [[ -n $pg_bin ]] || die "PostgreSQL binaries (initdb, postgres, psql, pg_isready) still not found after install"
    [[ -n $mariadbd && -n $mariadb_install_db && -n $mariadb_client ]] ||
        die "MariaDB binaries (mariadbd, mariadb-install-db, mariadb) still not found after install"
fi

# ---------------------------------------------------------------------------
# Users: PostgreSQL refuses to run as root, so as root it runs as `postgres`.
# MariaDB drops privileges itself via --user (to `mysql`, or stays root).
# ---------------------------------------------------------------------------
if is_root; then
    id postgres >/dev/null 2>&1 || die "running as root but there is no 'postgres' user to run PostgreSQL as"
    pg_user=postgres
    if id mysql >/dev/null 2>&1; then my_user=mysql; else my_user=root; fi
    my_user_opt=(--user="$my_user")
else
    pg_user=$(id -un)
    my_user=$pg_user
    my_user_opt=() # --user is only valid (and needed) when started as root
fi

# Run a PostgreSQL program as $pg_user. The cd avoids "could not change
# directory" warnings when our cwd is unreadable to that user.
as_pg() {
    if is_root; then
        (cd "$tmp" && exec setpriv --reuid="$pg_user" --regid="$pg_user" --init-groups -- "$@")
    else
        "$@"
    fi
}

# ---------------------------------------------------------------------------
# Ports: prefer the defaults below, otherwise the next free one.
# ---------------------------------------------------------------------------
port_in_use() {
    if command -v ss >/dev/null; then
        [[ -n $(ss -Hltn "sport = :$1" 2>/dev/null) ]]
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
    fi
}

pick_port() {
    local port
    for ((port = $1; port < $1 + 200; port++)); do
        if ! port_in_use "$port"; then echo "$port"; return 0; fi
    done
    die "no free TCP port in $1..$(($1 + 199))"
}

# ---------------------------------------------------------------------------
# Temp directory and cleanup
# ---------------------------------------------------------------------------
tmp=
pg_pid=
my_pid=

# stop_server <name> <pid> <signal>: signal, wait up to 30 s, then SIGKILL.
# shellcheck disable=SC2317 # only called from the EXIT trap
stop_server() {
    local name=$1 pid=$2 i
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
    kill -"$3" "$pid" 2>/dev/null
    for ((i = 0; i < 300; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "warning: $name (pid $pid) did not stop within 30 s; killing it"
        kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
}

# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
    local status=$?
    set +e
    trap - EXIT INT TERM
    # SIGINT is PostgreSQL's "fast shutdown"; SIGTERM is MariaDB's normal one.
    [[ -n $pg_pid ]] && stop_server PostgreSQL "$pg_pid" INT
    [[ -n $my_pid ]] && stop_server MariaDB "$my_pid" TERM
    [[ -n $tmp ]] && rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
# Exit via the EXIT trap with the conventional 128+signal status.
trap 'exit 130' INT
trap 'exit 143' TERM

tmp=$(mktemp -d -t ulid-flake-db.XXXXXX)
# mktemp makes the dir 0700; the server users only need to traverse it.
chmod 711 "$tmp"
mkdir "$tmp/postgres" "$tmp/mariadb" "$tmp/sqlite"
if is_root; then
    chown "$pg_user" "$tmp/postgres"
    chown "$my_user" "$tmp/mariadb"
    as_pg test -x "$tmp/postgres" ||
        die "$pg_user cannot access $tmp; set TMPDIR to a world-traversable directory"
fi

fail_with_log() {
    local what=$1 logfile=$2
    log "error: $what; server log ($logfile):"
    [[ -f $logfile ]] && sed 's/^/    /' "$logfile" >&2
    exit 1
}

# wait_until_ready <pid> <probe command...>: polls the probe until it
# succeeds (returns 0); returns 1 if the server process died, 2 on timeout.
wait_until_ready() {
    local pid=$1 deadline=$((SECONDS + STARTUP_TIMEOUT))
    shift
    until "$@" >/dev/null 2>&1; do
        kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 1; }
        ((SECONDS < deadline)) || return 2
        sleep 0.1
    done
}

# startup_failed <name> <status from wait_until_ready> <logfile>
startup_failed() {
    case $2 in
        1) fail_with_log "$1 exited during startup" "$3" ;;
        *) fail_with_log "$1 did not accept connections within ${STARTUP_TIMEOUT} s" "$3" ;;
    esac
}

# True if a server died because its port was taken between pick_port and the
# bind, e.g. by a concurrent run of this script; worth retrying then.
lost_port_race() {
    [[ $1 -eq 1 && $2 -lt 10 ]] && grep -q 'Address already in use' "$3"
}

# ---------------------------------------------------------------------------
# PostgreSQL
# ---------------------------------------------------------------------------
start_postgres() {
    local dir=$tmp/postgres
    pg_port=$(pick_port 55432)
    # trust over the unix socket (used only by this script for setup); the
    # URL goes over TCP, where the password is actually checked.
    as_pg "$pg_bin/initdb" -D "$dir/data" -U postgres --no-sync \
        --auth-local=trust --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 ||
        fail_with_log "initdb failed" "$dir/initdb.log"
    # Durability is pointless for a throwaway server; turning it off makes
    # DDL-heavy tests noticeably faster.
    cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
    # Started directly rather than via pg_ctl, so that it is our child and we
    # can stop and reap it deterministically. Not via as_pg: calling a
    # function in the background adds a subshell, and $! must be the
    # postmaster itself.
    local attempt status
    for ((attempt = 0; ; attempt++)); do
        # A later `port` line overrides an earlier one.
        echo "port = $pg_port" >>"$dir/data/postgresql.conf"
        if is_root; then
            (cd "$tmp" && exec setpriv --reuid="$pg_user" --regid="$pg_user" --init-groups -- \
                "$pg_bin/postgres" -D "$dir/data") </dev/null >"$dir/server.log" 2>&1 &
        else
            "$pg_bin/postgres" -D "$dir/data" </dev/null >"$dir/server.log" 2>&1 &
        fi
        pg_pid=$!
        status=0
        wait_until_ready "$pg_pid" "$pg_bin/pg_isready" -q -h "$dir" -p "$pg_port" -U postgres -d postgres ||
            status=$?
        ((status == 0)) && break
        pg_pid=
        lost_port_race "$status" "$attempt" "$dir/server.log" || startup_failed PostgreSQL "$status" "$dir/server.log"
        pg_port=$(pick_port $((pg_port + 1)))
    done
    # The user owns the database, so it can create tables, functions and
    # schemas there (PG 15 no longer lets everyone create in `public`);
    # CREATEDB lets tests make scratch databases of their own.
    pg_admin -q -c "CREATE ROLE $DB_USER LOGIN CREATEDB PASSWORD '$DB_PASSWORD'" \
        -c "CREATE DATABASE $DB_NAME OWNER $DB_USER" >/dev/null ||
        fail_with_log "creating the PostgreSQL user/database failed" "$dir/server.log"
    pg_version=$(pg_admin -At -c 'SHOW server_version')
    pg_version=${pg_version%% *}
}

# psql as the superuser over the unix socket (trust auth).
pg_admin() {
    as_pg env -u PGPASSWORD -u PGSERVICE -u PGOPTIONS "$pg_bin/psql" -X -v ON_ERROR_STOP=1 -h "$tmp/postgres" -p "$pg_port" -U postgres -d postgres "$@"
}

# ---------------------------------------------------------------------------
# MariaDB
# ---------------------------------------------------------------------------
start_mariadb() {
    local dir=$tmp/mariadb
    my_port=$(pick_port 53306)
    # --no-defaults everywhere: ignore /etc/mysql/my.cnf and ~/.my.cnf.
    # Root gets "normal" (password, here empty) auth instead of unix_socket
    # so the setup below works whichever OS user we are.
    "$mariadb_install_db" --no-defaults --datadir="$dir/data" "${my_user_opt[@]}" \
        --auth-root-authentication-method=normal --skip-test-db --skip-name-resolve \
        >"$dir/install-db.log" 2>&1 ||
        fail_with_log "mariadb-install-db failed" "$dir/install-db.log"
    # Binary logging is off (no --log-bin), so users with CREATE ROUTINE can
    # create stored functions; log_bin_trust_function_creators keeps that
    # true even if binary logging gets turned on.
    local attempt status
    for ((attempt = 0; ; attempt++)); do
        rm -f "$dir/server.log" # mariadbd appends; keep only this attempt's log
        "$mariadbd" --no-defaults "${my_user_opt[@]}" --datadir="$dir/data" \
            --bind-address=127.0.0.1 --port="$my_port" --socket="$dir/mysqld.sock" \
            --pid-file="$dir/mysqld.pid" --log-error="$dir/server.log" --tmpdir="$dir" \
            --skip-name-resolve --log-bin-trust-function-creators=1 \
            --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
            --innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 \
            --innodb-buffer-pool-size=64M \
            </dev/null >/dev/null 2>&1 &
        my_pid=$!
        status=0
        wait_until_ready "$my_pid" my_root -e 'SELECT 1' || status=$?
        ((status == 0)) && break
        my_pid=
        lost_port_race "$status" "$attempt" "$dir/server.log" || startup_failed MariaDB "$status" "$dir/server.log"
        my_port=$(pick_port $((my_port + 1)))
    done
    # Both host names: clients connecting to 127.0.0.1 over TCP are matched
    # as '127.0.0.1' with --skip-name-resolve, socket clients as 'localhost'.
    # The pattern grant lets tests create scratch databases ulid_flake_test_*
    # (in grant patterns `_` is a wildcard, so it is escaped).
    local scratch_pattern="${DB_NAME//_/\\_}\\_%"
    my_root <<EOF || fail_with_log "creating the MariaDB user/database failed" "$dir/server.log"
CREATE DATABASE $DB_NAME;
CREATE USER '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
CREATE USER '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$DB_USER'@'127.0.0.1', '$DB_USER'@'localhost';
GRANT ALL PRIVILEGES ON \`$scratch_pattern\`.* TO '$DB_USER'@'127.0.0.1', '$DB_USER'@'localhost';
EOF
    my_version=$(my_root -N -B -e 'SELECT VERSION()')
    my_version=${my_version%%-*}
}

# The mariadb client as the server's root user over the unix socket (root has
# no password; a MYSQL_PWD from the caller's environment would break that).
my_root() {
    env -u MYSQL_PWD "$mariadb_client" --no-defaults --protocol=socket --socket="$tmp/mariadb/mysqld.sock" -uroot "$@"
}

start_postgres
start_mariadb

export ULID_FLAKE_TEST_POSTGRES_URL="postgres://$DB_USER:$DB_PASSWORD@127.0.0.1:$pg_port/$DB_NAME"
export ULID_FLAKE_TEST_MYSQL_URL="mysql://$DB_USER:$DB_PASSWORD@127.0.0.1:$my_port/$DB_NAME"
export ULID_FLAKE_TEST_SQLITE_DIR="$tmp/sqlite"
export ULID_FLAKE_REQUIRE_DATABASES=1

log "PostgreSQL $pg_version on 127.0.0.1:$pg_port, MariaDB $my_version on 127.0.0.1:$my_port (temp dir $tmp)"

# Not exec: the EXIT trap must still run to stop the servers.
status=0
"$@" || status=$?
exit "$status"
