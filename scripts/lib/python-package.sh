# Sourced by the scripts that run a pinned package from PyPI (validate-openapi.sh,
# check-vectors.sh): `python_package NAME==VERSION DIR` installs it on first use under DIR — into
# a venv made with `python3 -m venv` (Debian's own Python needs the python3-venv package for
# that), else with `pip install --target` — and sets the array `python` to the command that
# runs Python with it. It needs python3 with pip, and PyPI the first time only. The caller
# defines `log` and `die`.

python_package() {
  local package=$1 tools=$2
  command -v python3 >/dev/null || die "python3 is missing (Debian: apt-get install python3 python3-venv)"
  mkdir -p "$tools"
  tools=$(cd "$tools" && pwd)
  local stamp=$tools/installed-$package
  if [[ ! -e $stamp ]]; then
    log "installing $package into $tools"
    rm -rf "${tools:?}/venv" "${tools:?}/lib" "${tools:?}"/installed-*
    local pip_flags=(-q --disable-pip-version-check --no-input)
    if python3 -m venv "$tools/venv" >/dev/null 2>&1; then
      "$tools/venv/bin/python" -m pip install "${pip_flags[@]}" "$package" ||
        die "pip could not install $package into $tools/venv"
    else
      rm -rf "$tools/venv"
      log "python3 -m venv is unavailable (Debian: python3-venv); using pip install --target"
      python3 -m pip --version >/dev/null 2>&1 ||
        die "neither python3 -m venv nor pip works (Debian: apt-get install python3-venv)"
      python3 -m pip install "${pip_flags[@]}" --no-warn-conflicts --target "$tools/lib" "$package" ||
        die "pip could not install $package into $tools/lib"
    fi
    touch "$stamp"
  fi
  if [[ -x $tools/venv/bin/python ]]; then
    python=("$tools/venv/bin/python")
  else
    python=(env "PYTHONPATH=$tools/lib" python3)
  fi
}
