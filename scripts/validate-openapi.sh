#!/usr/bin/env bash
# Validates the OpenAPI document of the example API (examples/web-axum: GET /openapi.json,
# printed by `example-web-axum --print-openapi`) with openapi-spec-validator, which checks a
# document against the OpenAPI 3.x schema and its rules (every path parameter appears in its
# path, $refs resolve, ...).
#
#   scripts/validate-openapi.sh [document.json ...]
#
# Without arguments it validates the document the example prints (built with cargo); with
# arguments, those files. Fails, listing every error, on an invalid document.
#
# The validator comes from PyPI, pinned, installed on first use under the Cargo target
# directory ($CARGO_TARGET_DIR, else target/) by scripts/lib/python-package.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly VALIDATOR=openapi-spec-validator==0.9.0

prog=${0##*/}
log() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { log "error: $*"; exit 1; }

source scripts/lib/python-package.sh
tools=${CARGO_TARGET_DIR:-target}/openapi-spec-validator
python_package "$VALIDATOR" "$tools"
tools=$(cd "$tools" && pwd)

documents=("$@")
if [[ ${#documents[@]} -eq 0 ]]; then
  documents=("$tools/example-web-axum.openapi.json")
  cargo run -q -p example-web-axum -- --print-openapi >"${documents[0]}" ||
    die "example-web-axum --print-openapi failed"
fi

failed=0
for document in "${documents[@]}"; do
  [[ -r $document ]] || die "cannot read $document"
  "${python[@]}" -m openapi_spec_validator --validation-errors all "$document" || failed=1
done
[[ $failed -eq 0 ]] || die "invalid OpenAPI document (see above)"
