#!/usr/bin/env bash
# Installs, from Debian's packages and only when missing, everything outside Cargo that the
# build and the tests (scripts/test.sh) need:
#   - the C client libraries Diesel's backends link against (libpq, the MariaDB client,
#     SQLite), pkg-config, and the C++ compiler libFuzzer's sources need (fuzz replay tests);
#   - the servers and clients scripts/with-databases.sh runs the tests against: PostgreSQL
#     (postgresql-common brings pg_virtualenv), MariaDB and PgBouncer;
#   - libfaketime, which steps a lease replica's wall clock in the clock-step scenarios;
#   - node and npm, for the TypeScript compiler (scripts/check-typescript.sh), unless npm is
#     there already (as with NodeSource's nodejs, whose npm no Debian package provides).
# Silent and quick when everything is there. Installing needs root; without it, this names
# what to install and fails.
set -euo pipefail

prog=${0##*/}

packages=(
  pkg-config g++ libpq-dev libmariadb-dev libmariadb-dev-compat libsqlite3-dev
  postgresql postgresql-client postgresql-common
  # The -core packages hold just the binaries: unlike mariadb-server they have no maintainer
  # scripts that set up /var/lib/mysql or start a system-wide service.
  mariadb-server-core mariadb-client-core
  pgbouncer
  libfaketime
)

# One dpkg-query for all of them keeps the common case (nothing to do) fast. It fails when
# some package is unknown to dpkg; those are simply not listed as installed.
installed=" $({ dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${packages[@]}" 2>/dev/null || :; } |
  awk '$1 == "ii" { printf "%s ", $2 }')"
missing=()
for package in "${packages[@]}"; do
  [[ $installed == *" $package "* ]] || missing+=("$package")
done
command -v npm >/dev/null || missing+=(nodejs npm)
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "$prog: missing Debian packages: ${missing[*]}; run this as root, or: apt-get install ${missing[*]}" >&2
  exit 1
fi
command -v apt-get >/dev/null || { echo "$prog: no apt-get to install ${missing[*]}" >&2; exit 1; }
echo "$prog: installing ${missing[*]}" >&2

# The postgresql and pgbouncer packages' maintainer scripts would create and start a default
# cluster on port 5432 and a PgBouncer on 6432 (via invoke-rc.d / deb-systemd-invoke). The
# tests need neither, so deny starting services for the install: policy-rc.d exiting 101
# means "action forbidden". Docker images usually ship this file already; keep theirs.
policy=/usr/sbin/policy-rc.d
created_policy=
apt_log=$(mktemp -t install-build-deps.XXXXXX)
cleanup() {
  if [[ -n $created_policy ]]; then rm -f "$policy"; fi
  rm -f "$apt_log"
}
trap cleanup EXIT
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  created_policy=1
fi

export DEBIAN_FRONTEND=noninteractive
if ! {
  apt-get update -q &&
    apt-get install -y -q --no-install-recommends \
      -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
      -o DPkg::Lock::Timeout=120 "${missing[@]}"
} >"$apt_log" 2>&1; then
  cat "$apt_log" >&2
  echo "$prog: apt-get failed" >&2
  exit 1
fi

# policy-rc.d only stopped the install from starting PgBouncer's system-wide service; the
# package still enabled it for the next boot. Disable it (and stop it, should a permissive
# policy-rc.d have let it start): with-databases.sh runs its own PgBouncer.
if [[ " ${missing[*]} " == *" pgbouncer "* ]]; then
  if [[ -d /run/systemd/system ]]; then
    systemctl disable --now --quiet pgbouncer.service || true
  else
    deb-systemd-helper disable pgbouncer.service >/dev/null 2>&1 || true
    update-rc.d pgbouncer disable >/dev/null 2>&1 || true
    /etc/init.d/pgbouncer stop >/dev/null 2>&1 || true
  fi
fi
