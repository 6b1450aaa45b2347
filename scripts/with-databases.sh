#!/usr/bin/env bash
# Run a command against throwaway PostgreSQL, PgBouncer and MariaDB servers.
#
#   scripts/with-databases.sh <command> [args...]
#
# The servers listen on 127.0.0.1 only, on free non-default ports, with all data, sockets and
# logs in a fresh temp directory (in /dev/shm when it has room and TMPDIR is unset). The
# database, role and password are in lib/test-databases.env. The command runs with:
#
#   ULID_FLAKE_TEST_POSTGRES_URL    postgres://ulid:<pw>@127.0.0.1:<port>/ulid_flake_test
#       The role owns the database and has CREATEDB and CREATEROLE (no superuser); password
#       auth is scram-sha-256.
#   ULID_FLAKE_TEST_PGBOUNCER_URL   postgres://ulid:<pw>@127.0.0.1:<port>/ulid_flake_test
#       The same role and database through PgBouncer in transaction pooling mode
#       (pool_mode = transaction: session state, advisory locks included, does not outlive a
#       transaction). Any other database name is routed to the same PostgreSQL; the `pgbouncer`
#       database is its console, where the role may run SHOW commands (SHOW CONFIG).
#   ULID_FLAKE_TEST_POSTGRES_DATA   the PostgreSQL cluster's data directory; the first line of
#       its postmaster.pid is the postmaster's pid. A test that stalls the server stops
#       (SIGSTOP) and continues the postmaster and all its children (found via /proc).
#   ULID_FLAKE_TEST_MYSQL_URL       mysql://ulid:<pw>@127.0.0.1:<port>/ulid_flake_test
#       The user may also create and use databases named ulid_flake_test_*.
#   ULID_FLAKE_TEST_MYSQL_PID_FILE  the file holding mariadbd's pid (a single process).
#   ULID_FLAKE_TEST_SQLITE_DIR      an empty directory for SQLite files.
#
# On exit (success, failure, Ctrl-C or SIGTERM) the servers are stopped and the temp directory
# is deleted. The exit status is the command's.
#
# This installs nothing: scripts/install-build-deps.sh installs the servers (Debian packages).
# Nothing relies on systemd or init scripts: PostgreSQL runs in a pg_virtualenv (Debian's
# postgresql-common) cluster of its own, MariaDB and PgBouncer are started directly.
set -euo pipefail

# shellcheck source=scripts/lib/test-databases.env
source "$(dirname "${BASH_SOURCE[0]}")/lib/test-databases.env"
readonly DB_NAME DB_USER DB_PASSWORD
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
# The server binaries
# ---------------------------------------------------------------------------

# Debian keeps the PostgreSQL server binaries out of PATH, one directory per major version;
# take the newest (pg_virtualenv is told to use the same one).
find_pg_bin() {
    local dir
    for dir in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V -r); do
        if [[ -x $dir/postgres && -x $dir/pg_ctl && -x $dir/psql && -x $dir/pg_isready ]]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

# First executable found among the given names, in PATH or the sbin dirs (mariadbd and
# pgbouncer live in /usr/sbin, which is not on a normal user's PATH).
find_exe() {
    local name
    for name in "$@"; do
        if command -v "$name" 2>/dev/null; then return 0; fi
        if [[ -x /usr/sbin/$name ]]; then echo "/usr/sbin/$name"; return 0; fi
        if [[ -x /usr/local/sbin/$name ]]; then echo "/usr/local/sbin/$name"; return 0; fi
    done
    return 1
}

missing=()
pg_bin=$(find_pg_bin) || missing+=("PostgreSQL server (/usr/lib/postgresql/*/bin)")
pg_virtualenv=$(find_exe pg_virtualenv) || missing+=(pg_virtualenv)
mariadbd=$(find_exe mariadbd mysqld) || missing+=(mariadbd)
mariadb_install_db=$(find_exe mariadb-install-db mysql_install_db) || missing+=(mariadb-install-db)
mariadb_client=$(find_exe mariadb mysql) || missing+=(mariadb)
pgbouncer=$(find_exe pgbouncer) || missing+=(pgbouncer)
if [[ ${#missing[@]} -gt 0 ]]; then
    die "not installed: ${missing[*]}; run scripts/install-build-deps.sh (as root) first"
fi
pg_major=${pg_bin%/bin}
pg_major=${pg_major##*/}

# ---------------------------------------------------------------------------
# Users: PostgreSQL and PgBouncer refuse to run as root, so as root they run as `postgres`
# (pg_virtualenv does that itself). MariaDB drops privileges itself via --user.
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

# Run a program as $pg_user, replacing the current shell: call it in a subshell or in the
# background (where $! is then the program's own pid). The cd avoids "could not change
# directory" warnings when our cwd is unreadable to that user.
as_pg() {
    if is_root; then
        cd "$tmp" && exec setpriv --reuid="$pg_user" --regid="$pg_user" --init-groups -- "$@"
    else
        exec "$@"
    fi
}

# ---------------------------------------------------------------------------
# Ports: prefer the given default, otherwise the next free one.
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
pgve_pid= # pg_virtualenv, which owns the PostgreSQL cluster
bouncer_pid=
my_pid=

# A test may leave a server stopped (SIGSTOP) when it fails mid-stall; a stopped process
# ignores everything but SIGKILL until continued.
# shellcheck disable=SC2317 # only called from the EXIT trap
continue_process_tree() {
    local pid
    kill -CONT "$1" 2>/dev/null || return 0
    for pid in $(ps -o pid= --ppid "$1" 2>/dev/null); do kill -CONT "$pid" 2>/dev/null; done
}

# stop_server <name> <pid> <signal>: signal (none if empty), wait up to 30 s, then SIGKILL.
# shellcheck disable=SC2317 # only called from the EXIT trap
stop_server() {
    local name=$1 pid=$2 i
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
    continue_process_tree "$pid"
    [[ -z $3 ]] || kill -"$3" "$pid" 2>/dev/null
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

# shellcheck disable=SC2317 # only called from the EXIT trap
stop_postgres() {
    local postmaster='' holder='' children
    # pg_virtualenv can only drop the cluster once it runs its command: if we got here
    # during its startup (Ctrl-C, MariaDB failing), let that finish first.
    wait_until_ready "$pgve_pid" test -e "$tmp/postgres-ready" && read -r holder <"$tmp/postgres-ready"
    [[ -f $tmp/postgres/postmaster.pid ]] && read -r postmaster <"$tmp/postgres/postmaster.pid"
    [[ -n $postmaster ]] && continue_process_tree "$postmaster"
    # Ending the holder ends pg_virtualenv's command; pg_virtualenv then stops the server
    # (immediate mode: nothing to keep) and drops the cluster.
    [[ -n $holder ]] && kill -TERM "$holder" 2>/dev/null
    stop_server "PostgreSQL (pg_virtualenv)" "$pgve_pid" ""
    # (An exited postmaster may linger as a zombie until init reaps it: state Z.)
    if [[ -n $postmaster && $(ps -o stat=,comm= -p "$postmaster" 2>/dev/null) =~ ^[^Z].*postgres ]]; then
        log "warning: PostgreSQL (pid $postmaster) outlived pg_virtualenv; killing it"
        mapfile -t children < <(ps -o pid= --ppid "$postmaster")
        kill -KILL "$postmaster" "${children[@]}" 2>/dev/null
    fi
}

# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
    local status=$?
    set +e
    trap - EXIT INT TERM
    # SIGTERM is PgBouncer's immediate shutdown and MariaDB's normal one.
    [[ -n $bouncer_pid ]] && stop_server PgBouncer "$bouncer_pid" TERM
    [[ -n $pgve_pid ]] && stop_postgres
    [[ -n $my_pid ]] && stop_server MariaDB "$my_pid" TERM
    # A test that crashes MariaDB starts it again: that process is not our child.
    local restarted=''
    [[ -f $tmp/mariadb/mysqld.pid ]] && read -r restarted <"$tmp/mariadb/mysqld.pid"
    [[ -n $restarted && $restarted != "$my_pid" ]] && stop_server "MariaDB (restarted)" "$restarted" TERM
    [[ -n $tmp ]] && rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
# Exit via the EXIT trap with the conventional 128+signal status.
trap 'exit 130' INT
trap 'exit 143' TERM

# The servers' data in memory (/dev/shm, a tmpfs) when it has room and TMPDIR is not set: a
# full test run writes up to 1.1 GB there (scratch databases, WAL, MariaDB's logs; measured),
# which then takes nothing from the disk the build needs. Elsewhere, TMPDIR or /tmp.
data_root=${TMPDIR:-}
if [[ -z $data_root && -d /dev/shm && -w /dev/shm ]] &&
    (($(df -Pk /dev/shm | awk 'NR == 2 { print $4 }') >= 3 * 1024 * 1024)); then
    data_root=/dev/shm
fi
tmp=$(TMPDIR=${data_root:-/tmp} mktemp -d -t ulid-flake-db.XXXXXX)
# pg_virtualenv splits its options, and some of its own paths, on whitespace.
[[ $tmp != *[[:space:]]* ]] || die "the temp directory '$tmp' contains whitespace; set TMPDIR"
# mktemp makes the dir 0700; the server users only need to traverse it.
chmod 711 "$tmp"
mkdir "$tmp/postgres" "$tmp/pgbouncer" "$tmp/mariadb" "$tmp/sqlite"
if is_root; then
    chown "$pg_user" "$tmp/postgres" "$tmp/pgbouncer"
    chown "$my_user" "$tmp/mariadb"
    (as_pg test -x "$tmp/postgres") ||
        die "$pg_user cannot access $tmp; set TMPDIR to a world-traversable directory"
fi

# fail_with_log <what> <logfile...>
fail_with_log() {
    local what=$1 logfile
    shift
    log "error: $what; server log:"
    for logfile in "$@"; do
        [[ -f $logfile ]] || continue
        printf '  %s:\n' "$logfile" >&2
        sed 's/^/    /' "$logfile" >&2
    done
    exit 1
}

# wait_until_ready <pid> <probe command...>: polls the probe until it succeeds (returns 0);
# returns 1 if the server process died, 2 on timeout.
wait_until_ready() {
    local pid=$1 deadline=$((SECONDS + STARTUP_TIMEOUT))
    shift
    until "$@" >/dev/null 2>&1; do
        kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 1; }
        ((SECONDS < deadline)) || return 2
        sleep 0.1
    done
}

# startup_failed <name> <status from wait_until_ready> <logfile...>
startup_failed() {
    local name=$1 status=$2
    shift 2
    case $status in
        1) fail_with_log "$name exited during startup" "$@" ;;
        *) fail_with_log "$name did not accept connections within ${STARTUP_TIMEOUT} s" "$@" ;;
    esac
}

# True if a server died because its port was taken between pick_port and the bind, e.g. by a
# concurrent run of this script; worth retrying then.
lost_port_race() {
    [[ $1 -eq 1 && $2 -lt 10 ]] && grep -q 'Address already in use' "$3"
}

# ---------------------------------------------------------------------------
# PostgreSQL, in a pg_virtualenv: Debian's tool for throwaway clusters (pg_createcluster +
# pg_ctlcluster with a private config root), which drops the cluster when its command ends.
# That command here is a holder that just waits: pg_virtualenv runs in the background while
# everything else (PgBouncer, the user's command) runs outside it, and we end the holder to
# stop the cluster. If this script is killed outright, the holder notices (tail --pid) and the
# cluster still goes.
# ---------------------------------------------------------------------------
launch_postgres() {
    local dir=$tmp/postgres
    pg_port=$(pick_port "$1")
    rm -f "$dir/pg_virtualenv.log"
    # -t: a private temp cluster even as root (else it would use /etc/postgresql and
    #   /var/lib/postgresql, and refuse to run twice at once); TMPDIR puts it in our dir.
    # PGPORT: pg_createcluster's port. Its own pick would avoid only the clusters it knows of.
    # --socketdir, external_pid_file: else both would go to the shared /var/run/postgresql.
    # listen_addresses: pg_createcluster writes number-like values unquoted, and an unquoted
    #   127.0.0.1 is a syntax error; the trailing space makes it quote the value (and
    #   PostgreSQL trims it).
    # ssl=off: the cluster would otherwise use the snakeoil certificate, and clients would
    #   default to TLS. fsync (off already), synchronous_commit, full_page_writes: durability
    #   is pointless here, and without it DDL-heavy tests are noticeably faster.
    # The holder writes the superuser's name and generated password for us, then waits.
    # shellcheck disable=SC2016 # expanded by the holder's shell
    env -u PG_VIRTUALENV_UNSHARE -u PG_VIRTUALENV_NEWPID TMPDIR="$dir" PGPORT="$pg_port" \
        "$pg_virtualenv" -t -v "$pg_major" -i "--encoding=UTF8 --locale=C" \
        -c "--socketdir=$dir" -o "external_pid_file=$dir/postmaster.pid" \
        -o "listen_addresses=127.0.0.1 " -o ssl=off \
        -o synchronous_commit=off -o full_page_writes=off \
        bash -c 'umask 077
            printf "%s\n" "$$" "$PGUSER" "$PGPASSWORD" >"$1.part" && mv "$1.part" "$1"
            exec tail --pid="$2" -f /dev/null' holder "$tmp/postgres-ready" "$$" \
        </dev/null >"$dir/pg_virtualenv.log" 2>&1 &
    pgve_pid=$!
}

# psql as the cluster's superuser (created by pg_virtualenv), over TCP with its password.
pg_admin() {
    env -u PGSERVICE -u PGSERVICEFILE -u PGOPTIONS -u PGSSLMODE PGPASSWORD="$pg_super_password" \
        "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 \
        "host=127.0.0.1 port=$pg_port user=$pg_super dbname=postgres" "$@"
}

await_postgres() {
    local dir=$tmp/postgres attempt status
    for ((attempt = 0; ; attempt++)); do
        status=0
        wait_until_ready "$pgve_pid" test -e "$tmp/postgres-ready" || status=$?
        ((status == 0)) && break
        pgve_pid=
        lost_port_race "$status" "$attempt" "$dir/pg_virtualenv.log" ||
            startup_failed "PostgreSQL (pg_virtualenv)" "$status" "$dir/pg_virtualenv.log" "$dir"/pg_virtualenv.*/log/*.log
        launch_postgres $((pg_port + 1))
    done
    { read -r _ && read -r pg_super && read -r pg_super_password; } <"$tmp/postgres-ready"
    # The role owns the database, so it can create tables, functions and schemas there (PG 15
    # no longer lets everyone create in `public`); CREATEDB lets tests make scratch databases,
    # CREATEROLE a role with fewer rights (the lease tests' least-privilege scenario).
    pg_admin -c "CREATE ROLE $DB_USER LOGIN CREATEDB CREATEROLE PASSWORD '$DB_PASSWORD'" \
        -c "CREATE DATABASE $DB_NAME OWNER $DB_USER" ||
        fail_with_log "creating the PostgreSQL role/database failed" "$dir"/pg_virtualenv.*/log/*.log
    pg_data=$(pg_admin -At -c 'SHOW data_directory')
    pg_version=$(pg_admin -At -c 'SHOW server_version')
    pg_version=${pg_version%% *}
    # The role's SCRAM secret, as PostgreSQL stores it, for PgBouncer's auth_file.
    pg_scram_secret=$(pg_admin -At -c "SELECT rolpassword FROM pg_authid WHERE rolname = '$DB_USER'")
    [[ $pg_scram_secret == SCRAM-SHA-256\$* ]] ||
        die "PostgreSQL stored the password of $DB_USER not as a SCRAM secret; PgBouncer needs one"
}

# ---------------------------------------------------------------------------
# PgBouncer, in front of the PostgreSQL above.
# ---------------------------------------------------------------------------
# PgBouncer only warns when it cannot bind its TCP port and carries on with just the unix
# socket, so probing the port could reach another run's PgBouncer: read its log instead, and
# stop it (to retry) when it could not listen.
# shellcheck disable=SC2317 # called via wait_until_ready
bouncer_listening() {
    local logfile=$tmp/pgbouncer/pgbouncer.log
    grep -q "listening on 127\.0\.0\.1:$bouncer_port\$" "$logfile" && return 0
    if grep -q "cannot listen on" "$logfile"; then kill -TERM "$bouncer_pid"; fi
    return 1
}

start_pgbouncer() {
    local dir=$tmp/pgbouncer attempt status
    # With a SCRAM secret in the auth_file, PgBouncer checks the client's password against it
    # and, from the client's proof, logs in to PostgreSQL as the same role (scram-sha-256
    # there too): no plain-text password is stored anywhere.
    printf '"%s" "%s"\n' "$DB_USER" "$pg_scram_secret" >"$dir/userlist.txt"
    chmod 600 "$dir/userlist.txt"
    bouncer_port=$(pick_port 56432)
    for ((attempt = 0; ; attempt++)); do
        # `*`: any database name goes to the same server, so tests may use scratch databases.
        # ignore_startup_parameters: clients (sqlx: extra_float_digits) send parameters
        # PgBouncer would otherwise reject the connection for.
        cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$pg_port

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $bouncer_port
unix_socket_dir = $dir
pidfile = $dir/pgbouncer.pid
logfile = $dir/pgbouncer.log
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
stats_users = $DB_USER
pool_mode = transaction
max_client_conn = 500
default_pool_size = 20
ignore_startup_parameters = extra_float_digits,options,search_path
EOF
        : >"$dir/pgbouncer.log" # PgBouncer appends; keep only this attempt's log
        if is_root; then chown "$pg_user" "$dir/pgbouncer.ini" "$dir/userlist.txt" "$dir/pgbouncer.log"; fi
        # Foreground (no -d), so that it is our child; -q: log to the logfile only (stderr,
        # there too, catches what comes before PgBouncer opens it).
        as_pg "$pgbouncer" -q "$dir/pgbouncer.ini" </dev/null >>"$dir/pgbouncer.log" 2>&1 &
        bouncer_pid=$!
        status=0
        wait_until_ready "$bouncer_pid" bouncer_listening || status=$?
        ((status == 0)) && break
        bouncer_pid=
        lost_port_race "$status" "$attempt" "$dir/pgbouncer.log" || startup_failed PgBouncer "$status" "$dir/pgbouncer.log"
        bouncer_port=$(pick_port $((bouncer_port + 1)))
    done
    # Listening is not enough: check that the role really gets through to PostgreSQL.
    env -u PGSERVICE -u PGSERVICEFILE -u PGOPTIONS -u PGSSLMODE "$pg_bin/psql" -X -q -At -c 'SELECT 1' \
        "postgres://$DB_USER:$DB_PASSWORD@127.0.0.1:$bouncer_port/$DB_NAME" >/dev/null ||
        fail_with_log "logging in to PostgreSQL through PgBouncer failed" "$dir/pgbouncer.log"
    bouncer_version=$("$pgbouncer" --version | sed -n '1s/^PgBouncer //p')
}

# ---------------------------------------------------------------------------
# MariaDB
# ---------------------------------------------------------------------------
start_mariadb() {
    local dir=$tmp/mariadb
    my_port=$(pick_port 53306)
    # --no-defaults everywhere: ignore /etc/mysql/my.cnf and ~/.my.cnf. Root gets "normal"
    # (password, here empty) auth instead of unix_socket so the setup below works whichever
    # OS user we are.
    "$mariadb_install_db" --no-defaults --datadir="$dir/data" "${my_user_opt[@]}" \
        --auth-root-authentication-method=normal --skip-test-db --skip-name-resolve \
        >"$dir/install-db.log" 2>&1 ||
        fail_with_log "mariadb-install-db failed" "$dir/install-db.log"
    # Binary logging is on, as on a primary with replicas, and log_bin_trust_function_creators
    # off, so every function the tests create must declare characteristics the server accepts
    # there (error 1418 otherwise); the test user has SUPER, which creating any function with
    # binary logging on needs (error 1419 otherwise).
    local attempt status
    for ((attempt = 0; ; attempt++)); do
        rm -f "$dir/server.log" # mariadbd appends; keep only this attempt's log
        "$mariadbd" --no-defaults "${my_user_opt[@]}" --datadir="$dir/data" \
            --bind-address=127.0.0.1 --port="$my_port" --socket="$dir/mysqld.sock" \
            --pid-file="$dir/mysqld.pid" --log-error="$dir/server.log" --tmpdir="$dir" \
            --skip-name-resolve --log-bin="$dir/binlog" --log-bin-trust-function-creators=0 \
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
    # Both host names: clients connecting to 127.0.0.1 over TCP are matched as '127.0.0.1'
    # with --skip-name-resolve, socket clients as 'localhost'. The pattern grant lets tests
    # create scratch databases ulid_flake_test_* (in grant patterns `_` is a wildcard, so it
    # is escaped), and grant rights on their tables to a user of their own (CREATE USER, and
    # GRANT OPTION there: the lease tests' least-privilege scenario). PROCESS lets the lease
    # tests read information_schema.INNODB_TRX; SUPER, functions with binary logging on.
    local scratch_pattern="${DB_NAME//_/\\_}\\_%"
    my_root <<EOF || fail_with_log "creating the MariaDB user/database failed" "$dir/server.log"
CREATE DATABASE $DB_NAME;
CREATE USER '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
CREATE USER '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$DB_USER'@'127.0.0.1', '$DB_USER'@'localhost';
GRANT ALL PRIVILEGES ON \`$scratch_pattern\`.* TO '$DB_USER'@'127.0.0.1', '$DB_USER'@'localhost' WITH GRANT OPTION;
GRANT PROCESS, CREATE USER, SUPER ON *.* TO '$DB_USER'@'127.0.0.1', '$DB_USER'@'localhost';
EOF
    my_version=$(my_root -N -B -e 'SELECT VERSION()')
    my_version=${my_version%%-*}
}

# The mariadb client as the server's root user over the unix socket (root has no password; a
# MYSQL_PWD from the caller's environment would break that).
my_root() {
    env -u MYSQL_PWD "$mariadb_client" --no-defaults --protocol=socket --socket="$tmp/mariadb/mysqld.sock" -uroot "$@"
}

# PostgreSQL starts in the background while MariaDB starts; PgBouncer needs PostgreSQL.
launch_postgres 55432
start_mariadb
await_postgres
start_pgbouncer

export ULID_FLAKE_TEST_POSTGRES_URL="postgres://$DB_USER:$DB_PASSWORD@127.0.0.1:$pg_port/$DB_NAME"
export ULID_FLAKE_TEST_PGBOUNCER_URL="postgres://$DB_USER:$DB_PASSWORD@127.0.0.1:$bouncer_port/$DB_NAME"
export ULID_FLAKE_TEST_POSTGRES_DATA="$pg_data"
export ULID_FLAKE_TEST_MYSQL_URL="mysql://$DB_USER:$DB_PASSWORD@127.0.0.1:$my_port/$DB_NAME"
export ULID_FLAKE_TEST_MYSQL_PID_FILE="$tmp/mariadb/mysqld.pid"
export ULID_FLAKE_TEST_SQLITE_DIR="$tmp/sqlite"

log "PostgreSQL $pg_version on 127.0.0.1:$pg_port, PgBouncer $bouncer_version on 127.0.0.1:$bouncer_port," \
    "MariaDB $my_version on 127.0.0.1:$my_port (temp dir $tmp)"

# Not exec: the EXIT trap must still run to stop the servers.
status=0
"$@" || status=$?
exit "$status"
