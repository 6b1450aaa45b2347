#!/usr/bin/env bash
# Installs the C client libraries that Diesel's backends link against (libpq, the MariaDB
# client, SQLite), pkg-config, and the C++ compiler that libFuzzer's sources need (the fuzz
# replay tests), from Debian's packages, when they are missing. Needs root;
# without it, names what to install.
set -euo pipefail

packages=(pkg-config g++ libpq-dev libmariadb-dev libmariadb-dev-compat libsqlite3-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "install-build-deps.sh: missing ${missing[*]}; run as root or install them" >&2
  exit 1
fi
echo "install-build-deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
