#!/usr/bin/env bash
# Create or refresh the project's virtual environment from the pinned requirements.
# Usage: tools/bootstrap.sh PYTHON VENV   (called by make when requirements.lock or pyproject.toml changed)
# The system packages come first (tools/prereqs.sh: as root on Debian/Ubuntu it installs what is missing).
set -euo pipefail
py=${1:-python3}
venv=${2:-.venv}
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/tools/prereqs.sh" --install --for venv --python "$py" --venv "$venv"
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import sys' 2>/dev/null; then
  rm -rf "$venv"
  echo "creating $venv with $("$py" -V 2>&1)"
  "$py" -m venv "$venv"
fi
# pip, not uv: uv lays out cppyy's header folder under a lower-case name and ns-3 callbacks then fail.
"$venv/bin/python" -m pip install --disable-pip-version-check --quiet -r "$here/requirements.lock"
"$venv/bin/python" -m pip install --disable-pip-version-check --quiet --no-deps -e "$here"
touch "$venv/.installed"
echo "$venv is ready ($("$venv/bin/python" -V 2>&1), pins from requirements.lock)"
