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
# directory ($CARGO_TARGET_DIR, else target/): into a venv made with `python3 -m venv` (Debian's
# own Python needs the python3-venv package for that), else with `pip install --target`. It
# needs python3 with pip, and PyPI the first time only.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly VALIDATOR=openapi-spec-validator==0.9.0

prog=${0##*/}
log() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { log "error: $*"; exit 1; }

command -v python3 >/dev/null || die "python3 is missing (Debian: apt-get install python3 python3-venv)"

tools=${CARGO_TARGET_DIR:-target}/openapi-spec-validator
mkdir -p "$tools"
tools=$(cd "$tools" && pwd)
readonly stamp=$tools/installed-$VALIDATOR

# How to run the validator's Python: the venv's interpreter, or python3 with the --target dir.
python=()
use_installed() {
  if [[ -x $tools/venv/bin/python ]]; then
    python=("$tools/venv/bin/python")
  else
    python=(env "PYTHONPATH=$tools/lib" python3)
  fi
}

if [[ ! -e $stamp ]]; then
  log "installing $VALIDATOR into $tools"
  rm -rf "${tools:?}/venv" "${tools:?}/lib" "${tools:?}"/installed-*
  pip_flags=(-q --disable-pip-version-check --no-input)
  if python3 -m venv "$tools/venv" >/dev/null 2>&1; then
    "$tools/venv/bin/python" -m pip install "${pip_flags[@]}" "$VALIDATOR" ||
      die "pip could not install $VALIDATOR into $tools/venv"
  else
    rm -rf "$tools/venv"
    log "python3 -m venv is unavailable (Debian: python3-venv); using pip install --target"
    python3 -m pip --version >/dev/null 2>&1 ||
      die "neither python3 -m venv nor pip works (Debian: apt-get install python3-venv)"
    python3 -m pip install "${pip_flags[@]}" --no-warn-conflicts --target "$tools/lib" "$VALIDATOR" ||
      die "pip could not install $VALIDATOR into $tools/lib"
  fi
  touch "$stamp"
fi
use_installed

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
