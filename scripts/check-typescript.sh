#!/usr/bin/env bash
# Compiles a TypeScript client of the example API against the declarations the server prints
# (`example-web-axum --print-typescript`, built with cargo; or the file given, as the test
# command passes what its built binary printed): examples/web-axum/typescript's
# client.ts must compile, and wrong-id.ts, which passes a post's ID where a user's belongs,
# must fail with TS2322 at its line 6. The compiler is the one package-lock.json pins, installed
# with `npm ci` under the Cargo target directory ($CARGO_TARGET_DIR, else target/); it needs
# node and npm (scripts/install-build-deps.sh installs them when missing), and the npm
# registry the first time only.
#
#   scripts/check-typescript.sh [declarations.ts]
set -euo pipefail
cd "$(dirname "$0")/.."

prog=${0##*/}
log() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { log "error: $*"; exit 1; }

command -v npm >/dev/null || die "npm is missing (Debian: apt-get install nodejs npm)"
readonly source=examples/web-axum/typescript
work=${CARGO_TARGET_DIR:-target}/typescript
mkdir -p "$work"
work=$(cd "$work" && pwd)
if ! cmp -s "$source/package-lock.json" "$work/package-lock.json" ||
  [[ ! -x $work/node_modules/.bin/tsc ]]; then
  log "installing the pinned TypeScript compiler into $work"
  cp "$source/package.json" "$source/package-lock.json" "$work/"
  (cd "$work" && npm ci -q --no-audit --no-fund) || die "npm ci failed in $work"
fi
cp "$source/client.ts" "$source/wrong-id.ts" "$work/"
if [[ $# -gt 0 ]]; then
  cp "$1" "$work/api.ts"
else
  cargo run -q -p example-web-axum -- --print-typescript >"$work/api.ts" ||
    die "example-web-axum --print-typescript failed"
fi

tsc=("$work/node_modules/.bin/tsc" --noEmit --strict --target es2020 --module es2020)
(cd "$work" && "${tsc[@]}" client.ts) || die "client.ts does not compile against the declarations"
if output=$(cd "$work" && "${tsc[@]}" wrong-id.ts 2>&1); then
  die "wrong-id.ts compiled: a post's ID was accepted where a user's belongs"
fi
errors=$(grep -c ': error TS' <<<"$output" || :)
[[ $errors -eq 1 ]] && grep -Eq '^wrong-id\.ts\(6,[0-9]+\): error TS2322: Type .`post_\$\{string\}`. is not assignable to type .`user_\$\{string\}`.' <<<"$output" ||
  die "wrong-id.ts failed otherwise than expected (one TS2322 at line 6): $output"
log "client.ts compiles; wrong-id.ts fails with TS2322 at line 6, as it must"
