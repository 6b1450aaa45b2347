#!/usr/bin/env bash
# Every check and test of the workspace, in named steps, ending with a table of each step's time
# (printed on failure too, the failed step marked).
#
#   scripts/test.sh               the full gate, what CI runs: installs what it needs (as root),
#                                 starts throwaway PostgreSQL, PgBouncer and MariaDB servers
#   scripts/test.sh --fast        the edit loop: formatting, clippy, tests and doctests of the
#                                 core and the CLI; no servers, no installs, no root
#   scripts/test.sh --only STEP   one step of the full gate (servers started if it needs them);
#                                 repeat --only for several
#   scripts/test.sh --list        the steps, in order
#
# The full gate builds the heavy dependency graph (sqlx, Diesel, SeaORM, axum, async-graphql,
# utoipa) as few times as it can: one check build for clippy, one test-profile build that the
# tests, the benchmarks' smoke runs, the examples and the OpenAPI check all run from.
set -euo pipefail
cd "$(dirname "$0")/.."

# The checked sqlx macros build from the committed query data (.sqlx/), never a live database.
export SQLX_OFFLINE=true

usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# The steps of the full gate, in order, with what each checks. The step table lists them so.
STEPS=(deps feature-tables fmt clippy features docs package build loom fuzz tests leases
  benchmarks examples openapi typescript vectors)
# The steps that run against the database servers, inside one scripts/with-databases.sh.
DATABASE_STEPS=" tests leases benchmarks "
describe() {
  case $1 in
    deps) echo "Debian packages (C client libraries, servers, PgBouncer) and cargo-hack" ;;
    feature-tables) echo "feature tables in the READMEs, against the Cargo.toml comments" ;;
    fmt) echo "formatting, the workspace and the fuzz workspace" ;;
    clippy) echo "clippy, every target and feature, warnings denied" ;;
    docs) echo "docs with default, no and all features, each adapter with one database, and as docs.rs builds them (--cfg docsrs)" ;;
    features) echo "every feature of each published crate alone, and the combinations users pick" ;;
    package) echo "each published crate as crates.io would receive it, built on its own" ;;
    build) echo "the workspace's tests, benchmarks, examples and binaries, test profile" ;;
    loom) echo "loom: every interleaving of three threads on one generator, and of calls racing a lease's release" ;;
    fuzz) echo "fuzz targets: lints, and the saved inputs replayed as tests" ;;
    servers) echo "PostgreSQL, PgBouncer and MariaDB started (throwaway, loopback)" ;;
    tests) echo "tests and doctests against the servers and SQLite files, but the lease faults" ;;
    leases) echo "the lease fault scenarios (sqlx and Diesel on PostgreSQL, PgBouncer and MariaDB; the tokio-postgres store on PostgreSQL and PgBouncer): on each server one lane per test binary, then the stalls alone, and on MariaDB a crash under the database's generator" ;;
    benchmarks) echo "benchmarks run once each, and the database-scale one in smoke mode" ;;
    examples) echo "the README's main job and the SQLite examples" ;;
    openapi) echo "the example API's OpenAPI document, through openapi-spec-validator" ;;
    typescript) echo "a TypeScript client compiled against the example API's declarations" ;;
    vectors) echo "the test vectors against the Python reference implementation" ;;
    fast-clippy) echo "clippy on the core and the CLI, every target and feature" ;;
    fast-tests) echo "the core's and the CLI's tests and doctests" ;;
    *) return 1 ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# The steps
# ---------------------------------------------------------------------------------------------

# The crates published to crates.io, and the same as cargo's package arguments.
CRATES=(ulid-flake-core ulid-flake-sqlx ulid-flake-diesel ulid-flake-cli)
published=()
for crate in "${CRATES[@]}"; do published+=(-p "$crate"); done
# One feature set for the heavy graph: every step that builds the workspace uses exactly these
# flags, so cargo reuses one build of the dependencies.
workspace_build=(--workspace --all-features --all-targets)

step_deps() {
  scripts/install-build-deps.sh
  command -v cargo-hack >/dev/null || cargo install -q --locked cargo-hack
}

step_feature-tables() { scripts/feature-tables.py --check; }

step_fmt() {
  cargo fmt --all -- --check
  cargo fmt --manifest-path fuzz/Cargo.toml -- --check
}

# clippy's incompatible_msrv holds the code to the workspace's rust-version.
step_clippy() { cargo clippy -q "${workspace_build[@]}" -- -D warnings; }

# Runs a command unless it passed on these very inputs before: every file of the repository
# (tracked or new, not ignored), the toolchain, the environment's cargo and rustc variables and
# the command line, whose digest is kept under target/test-stamps/ (one file per command, so a
# clean clone runs everything). For the checks whose results cargo cannot keep: the doc builds
# of one crate with different features write the same pages, so cargo documents the crate again
# on every run (measured: 130–143 s of a 6.4–6.5 min run with the build cache), and the package
# step drops its fingerprints on purpose.
unless_passed_on_these_inputs() {
  # The files' and the toolchain's part once per step: nothing a step runs writes them.
  if [[ -z ${repository_digest:-} ]]; then
    repository_digest=$({
      rustc -vV
      env | grep -E '^(CARGO|RUST|SQLX)' | sort || true
      git ls-files -z -co --exclude-standard | python3 -c '
import hashlib, os, sys
for path in sorted(set(sys.stdin.read().split("\0")) - {""}):
    if os.path.isfile(path):
        with open(path, "rb") as file:
            print(hashlib.sha256(file.read()).hexdigest(), path)'
    } | sha256sum)
  fi
  local command inputs stamp
  command=$(printf '%s\n' "$@" | sha256sum)
  inputs=$(printf '%s\n' "$repository_digest" "$@" | sha256sum)
  stamp=target/test-stamps/${command%% *}
  if [[ -f $stamp && $(<"$stamp") == "$inputs" ]]; then
    echo "passed before on these inputs: $*" >&2
    return 0
  fi
  rm -f "$stamp"
  "$@"
  mkdir -p target/test-stamps
  echo "$inputs" >"$stamp"
}

step_docs() {
  # Each published crate with its default features and with none: the features step's checks
  # built their dependencies already (check mode is what rustdoc reads).
  doc() { unless_passed_on_these_inputs env RUSTDOCFLAGS="-D warnings" cargo doc -q --no-deps "$@"; }
  local crate
  for crate in "${CRATES[@]}"; do
    doc -p "$crate"
    doc -p "$crate" --no-default-features
  done
  # An adapter with one database and its lease, as a user sets it up: a link to the other
  # database's items would not resolve (the features step checked these builds).
  local features
  for crate in ulid-flake-sqlx ulid-flake-diesel; do
    for features in postgres,lease mysql,lease sqlite; do
      doc -p "$crate" --features "$features"
    done
  done
  # Every crate with every feature, as docs.rs builds it (`--cfg docsrs`, whose `doc(cfg)` is
  # unstable: the stable rustdoc with RUSTC_BOOTSTRAP, set for rustdoc alone so that no
  # dependency is rebuilt). No plain all-features build beside it: `docsrs` gates nothing but
  # `doc(cfg)`, so it would document the same items again. Its targets are chosen so that cargo
  # resolves features as for clippy (examples bring the dev-dependencies in), whose check
  # build then serves here.
  unless_passed_on_these_inputs env RUSTDOC="$PWD/scripts/lib/rustdoc-docsrs" \
    RUSTDOCFLAGS="-D warnings --cfg docsrs" \
    cargo doc -q --no-deps --workspace --all-features --lib --bins --examples
}

step_features() {
  # no_std first: the lints (std_instead_of_core, ...) catch what they can; these builds the rest.
  # Without --no-dev-deps, which would rewrite the manifests (and so rebuild the workspace's
  # crates in the next step): a library's check does not resolve dev-dependencies' features.
  # Aliases are not checked alone, nor an adapter's features that only turn on the core's
  # (scripts/lib/hack-exclusions.py says why).
  local crate excluded features
  for crate in "${CRATES[@]}"; do
    excluded=$(scripts/lib/hack-exclusions.py "$crate")
    cargo hack check -q --each-feature -p "$crate" ${excluded:+--exclude-features "$excluded"}
  done
  for features in serde,uuid alloc,schemars1 std,serde std,serde,uuid,utoipa5,schemars1 \
    chrono04,time03,jiff02,serde arbitrary,proptest,serde; do
    cargo check -q -p ulid-flake-core --no-default-features --features "$features"
  done
}

step_package() {
  # The verification builds take the packaged crates from a local registry, and cargo counts a
  # registry crate of the same version as unchanged: in the shared target dir the CLI would be
  # verified against an earlier build of the core. So they build in a target dir of their
  # own, where the packaged crates' fingerprints are dropped before each run (their
  # dependencies stay built); cargo's copies of earlier runs' packages go too.
  unless_passed_on_these_inputs package_verified
}
package_verified() {
  rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/ulid-flake-* \
    "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/-*/ulid-flake-* \
    target/package-verify/debug/.fingerprint/ulid-flake-*
  # No debug info: nothing runs these builds (measured: 121 s instead of 142 s from cold).
  CARGO_PROFILE_DEV_DEBUG=false CARGO_TARGET_DIR=target/package-verify \
    cargo package -q --allow-dirty "${published[@]}"
}

# Builds every target the later steps run: the tests, the benchmarks (run by `cargo test` in
# criterion's test mode), the examples and the binaries (target/debug/…). The test profile
# inherits the dev profile, so `cargo test` reuses all of it.
step_build() { cargo build -q "${workspace_build[@]}"; }

step_loom() {
  # Its own target dir (another cfg rebuilds everything), and only the features the model
  # needs: under the cfg the core's test binary holds the model check alone; of the library's
  # unit tests, only the release's model runs (the others are not written for loom).
  # The core's dev-dependencies are left out under the cfg (its Cargo.toml). Warnings are
  # errors here too: clippy does not see the code under the cfg.
  local loom=(env RUSTFLAGS="--cfg ulid_flake_loom -D warnings" LOOM_MAX_PREEMPTIONS=3
    CARGO_TARGET_DIR=target/loom cargo test -q --release -p ulid-flake-core --no-default-features
    --features std)
  # Both test binaries built in one invocation first, so that cargo builds them side by side.
  "${loom[@]}" --test core --lib --no-run
  "${loom[@]}" --test core loom
  "${loom[@]}" --lib loom_release
}

step_fuzz() {
  cargo clippy -q --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings
  cargo test -q --manifest-path fuzz/Cargo.toml
}

# The lease fault scenarios are in the adapters' test binaries, module `lease_faults`: their own
# step, not beside the other tests (sub-second renewals lose leases on two busy cores). So is
# the test that crashes the MariaDB server (module `server_crash`), after those on MariaDB.
step_tests() { cargo test --workspace --all-features -- --skip lease_faults:: --skip server_crash::; }

# The scenarios run in lanes, each a series of test binaries with their filters, several lanes
# at once. A stall stops its whole server and the crash kills MariaDB, so no other scenario runs
# on a server while it is stalled or crashed. On each server, one lane per test binary for the
# scenarios that leave the server running, then the stalls (`…_stalled_…`) alone, one after the
# other (on MariaDB, the crash last); the two servers' lanes at the same time. Each lane's name
# is in ULID_FLAKE_TEST_LANE, where a test that stops or kills its server checks that it runs
# alone (test-support's `assert_alone_on_server`). The replicas sleep between
# their milliseconds, so five lanes at once leave the two cores half idle (measured: 41 s of
# user and 11 s of system time in a 62 s step; seven runs passed). The test binaries run
# directly, from their package's directory as `cargo test` runs them: a second `cargo test`
# would wait for the first's lock on the build directory.
step_leases() {
  local -A dir exe
  local artifacts target package executable
  # The tests step's selection, whose binaries are built: naming the three test targets alone
  # builds them again, differently (measured: 30 s).
  artifacts=$(cargo test -q --workspace --all-features --no-run --message-format=json | python3 -c '
import json, os, sys
for line in sys.stdin:
    message = json.loads(line)
    target = message.get("target", {})
    if target.get("kind") == ["test"] and target.get("name") in ("sqlx", "diesel", "tokio_postgres"):
        print(target["name"], os.path.dirname(message["manifest_path"]), message["executable"])
')
  while read -r target package executable; do
    dir[$target]=$package exe[$target]=$executable
  done <<<"$artifacts"
  for target in sqlx diesel tokio_postgres; do
    [[ -n ${exe[$target]:-} ]] || { echo "expected a test binary '$target', found none" >&2; return 1; }
  done
  # A lane: its label, then its runs separated by `;`, each a test binary's target and its
  # filters ("postgres diesel:diesel lease_faults::postgres_ --skip …").
  lane() {
    local label=${1%%:*} runs run
    IFS=';' read -ra runs <<<"${1#*:}"
    for run in "${runs[@]}"; do
      set -- $run
      (cd "${dir[$1]}" && ULID_FLAKE_TEST_LANE=$label "${exe[$1]}" "${@:2}") 2>&1 |
        sed -u "s/^/[$label] /" || return 1
    done
  }
  # The lanes given, all at once; fails when one of them failed, after all have ended.
  lanes() {
    local pids=() spec failed=0 i
    for spec in "$@"; do
      lane "$spec" &
      pids+=($!)
    done
    for i in "${!pids[@]}"; do
      wait "${pids[$i]}" || { echo "the lane ${1%%:*} failed" >&2; failed=1; }
      shift
    done
    return "$failed"
  }
  # A server's lanes: `running` (one per binary) at once, then `stalled`, one lane.
  # Arguments: the server's label, its scenarios' filters, its stall scenarios' filters, what
  # runs after the stalls (or nothing), and its test binaries.
  local -A running stalled
  server_lanes() {
    local label=$1 filters=$2 stalls=$3 after=$4 binary runs=()
    shift 4
    for binary in "$@"; do
      running[$label]+="${running[$label]:+|}$label $binary:$binary $filters --skip _stalled_"
      runs+=("$binary $stalls")
    done
    [[ -z $after ]] || runs+=("$after")
    stalled[$label]="$label alone:$(IFS=';' && echo "${runs[*]}")"
  }
  server_lanes postgres "lease_faults::postgres_ lease_faults::pgbouncer_" \
    "lease_faults::postgres_stalled_ lease_faults::pgbouncer_stalled_" "" sqlx diesel tokio_postgres
  server_lanes mariadb lease_faults::mysql_ lease_faults::mysql_stalled_ "sqlx server_crash::" \
    sqlx diesel
  # A scenario's name starts with its server, which picks its lanes: one named otherwise would
  # run in none, so the lanes' tests are counted against every scenario.
  tests_of() { "${exe[$1]}" --list "${@:2}" | grep -v '::lease_child: test$' | grep -c ': test$' || true; }
  local server specs spec runs run every=0 laned=0
  for target in sqlx diesel tokio_postgres; do
    every=$((every + $(tests_of "$target" lease_faults::)))
  done
  for server in postgres mariadb; do
    IFS='|' read -ra specs <<<"${running[$server]}"
    for spec in "${specs[@]}" "${stalled[$server]}"; do
      IFS=';' read -ra runs <<<"${spec#*:}"
      for run in "${runs[@]}"; do
        [[ $run == *server_crash* ]] || laned=$((laned + $(tests_of $run)))
      done
    done
  done
  if [[ $every == 0 || $every != "$laned" ]]; then
    echo "$every lease scenarios, $laned of them in a lane: name each after its server" >&2
    return 1
  fi
  # `server_crash::` is skipped by the tests step: it must run here.
  if [[ $(tests_of sqlx server_crash::) == 0 ]]; then
    echo "expected the MariaDB crash tests in sqlx's test binary (server_crash::), found none" >&2
    return 1
  fi
  on_server() {
    local lanes_at_once
    IFS='|' read -ra lanes_at_once <<<"${running[$1]}"
    lanes "${lanes_at_once[@]}" && lanes "${stalled[$1]}"
  }
  on_server postgres &
  local postgres=$!
  on_server mariadb &
  local mariadb=$!
  local failed=0
  wait "$postgres" || { echo "the PostgreSQL lanes failed" >&2; failed=1; }
  wait "$mariadb" || { echo "the MariaDB lanes failed" >&2; failed=1; }
  return "$failed"
}

step_benchmarks() {
  # Each criterion benchmark once, in criterion's test mode, from the build step's build.
  cargo test -q --workspace --all-features --benches
  # The database-scale benchmark in
  # smoke mode (5,000 rows per key); the full run is scripts/bench-db.sh. The CSV and the chart
  # go to a temp directory, never over the committed ones.
  local smoke
  smoke=$(mktemp -d)
  target/debug/db --smoke --csv "$smoke/db-insert-rate.csv" --svg "$smoke/db-insert-rate.svg" >/dev/null
}

step_examples() {
  # The README's main job, exactly as written there.
  cargo run -q -p ulid-flake-cli -- generate -n 2 | cargo run -q -p ulid-flake-cli -- inspect >/dev/null
  local example
  for example in example-sqlx-sqlite example-diesel-sqlite example-sea-orm-sqlite; do
    "target/debug/$example" "$(mktemp -d)/example.sqlite3" >/dev/null
  done
}

step_openapi() {
  local document
  document=$(mktemp --suffix=.json)
  target/debug/example-web-axum --print-openapi >"$document"
  scripts/validate-openapi.sh "$document"
}

step_typescript() {
  local declarations
  declarations=$(mktemp --suffix=.ts)
  target/debug/example-web-axum --print-typescript >"$declarations"
  scripts/check-typescript.sh "$declarations"
  rm -f "$declarations"
}

step_vectors() { scripts/check-vectors.sh; }

step_fast-clippy() {
  cargo clippy -q -p ulid-flake-core -p ulid-flake-cli --all-targets --all-features -- -D warnings
}

step_fast-tests() { cargo test -q -p ulid-flake-core -p ulid-flake-cli --all-features; }

# ---------------------------------------------------------------------------------------------
# Running steps, timing them, and the table
# ---------------------------------------------------------------------------------------------

# One line per step run, "name<TAB>seconds<TAB>status", shared with the re-entered script that
# runs the database steps inside scripts/with-databases.sh.
if [[ -z ${ULID_FLAKE_TEST_TIMINGS:-} ]]; then
  ULID_FLAKE_TEST_TIMINGS=$(mktemp -t test-timings.XXXXXX)
  export ULID_FLAKE_TEST_TIMINGS
  started=$SECONDS
  print_table() {
    local status=$? name seconds result total=$((SECONDS - started))
    printf '\n%-16s %8s  %-6s %s\n' step seconds result what >&2
    while IFS=$'\t' read -r name seconds result; do
      printf '%-16s %8s  %-6s %s\n' "$name" "$seconds" "$result" "$(describe "$name")" >&2
    done <"$ULID_FLAKE_TEST_TIMINGS"
    printf '%-16s %8s  %-6s\n' total "$total" "$([[ $status -eq 0 ]] && echo ok || echo FAILED)" >&2
    rm -f "$ULID_FLAKE_TEST_TIMINGS"
    exit "$status"
  }
  trap print_table EXIT
fi

record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$ULID_FLAKE_TEST_TIMINGS"; }

run_step() {
  local name=$1 begun=$SECONDS status
  printf '\n==> %s: %s\n' "$name" "$(describe "$name")" >&2
  # A subshell with -e of its own: in `step || …` bash would ignore -e inside the step.
  set +e
  (
    set -e
    "step_$name"
  )
  status=$?
  set -e
  if [[ $status -ne 0 ]]; then
    record "$name" $((SECONDS - begun)) FAILED
    exit "$status"
  fi
  record "$name" $((SECONDS - begun)) ok
}

# Runs the given steps, the database ones inside one scripts/with-databases.sh (started once).
run_steps() {
  local name database=()
  for name in "$@"; do
    if [[ $DATABASE_STEPS == *" $name "* && -z ${ULID_FLAKE_TEST_POSTGRES_URL:-} ]]; then
      database+=("$name")
    else
      flush_database_steps "${database[@]}"
      database=()
      run_step "$name"
    fi
  done
  flush_database_steps "${database[@]}"
}

flush_database_steps() {
  [[ $# -gt 0 ]] || return 0
  printf '\n==> servers: %s\n' "$(describe servers)" >&2
  local args=() name
  for name in "$@"; do args+=(--only "$name"); done
  local asked_at status=0
  asked_at=$(date +%s)
  ULID_FLAKE_TEST_SERVERS_ASKED_AT=$asked_at scripts/with-databases.sh "$0" --inside-databases \
    "${args[@]}" || status=$?
  # The re-entered script records the servers' start-up; when they never started, say so here.
  if ! grep -q "^servers"$'\t' "$ULID_FLAKE_TEST_TIMINGS"; then
    record servers $(($(date +%s) - asked_at)) FAILED
  fi
  [[ $status -eq 0 ]] || exit "$status"
}

# A full run from a clean clone writes about 3.7 GB to the disk (measured: target/ 3.2 GB,
# fuzz/target 0.3 GB, then the Debian packages; the servers' data goes to /dev/shm when it has
# room). Short of that, a step fails with "No space left on device" well into the run: the
# warning says why at the start.
warn_if_short_of_disk() {
  local free_kib
  free_kib=$(df -Pk . | awk 'NR == 2 { print $4 }')
  if ((free_kib < 4 * 1024 * 1024)); then
    printf 'warning: expected at least 4 GiB free on the disk of %s for a full run from a clean clone, found %d MiB\n' \
      "$PWD" $((free_kib / 1024)) >&2
  fi
}

mode=full
only=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --fast) mode=fast ;;
    --only)
      [[ $# -ge 2 ]] && describe "$2" >/dev/null || { echo "unknown step: ${2:-}" >&2; usage; }
      only+=("$2")
      shift
      ;;
    --list)
      for name in "${STEPS[@]}"; do printf '%-16s %s\n' "$name" "$(describe "$name")"; done
      trap - EXIT
      exit 0
      ;;
    --inside-databases)
      # Re-entered by flush_database_steps: the servers' start-up is a step of its own.
      record servers $(($(date +%s) - ULID_FLAKE_TEST_SERVERS_ASKED_AT)) ok
      ;;
    -h | --help) usage ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
  shift
done

if [[ $mode == fast ]]; then
  run_steps fmt fast-clippy fast-tests
elif [[ ${#only[@]} -gt 0 ]]; then
  run_steps "${only[@]}"
else
  warn_if_short_of_disk
  run_steps "${STEPS[@]}"
fi
