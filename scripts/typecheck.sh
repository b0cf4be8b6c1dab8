#!/usr/bin/env bash
# mypy over paperkg as installed: setuptools maps the packages (paperkg.core -> core/, ...), so the layout
# mypy checks is a throw-away `pip install --target` of this checkout; settings in pyproject.toml [tool.mypy].
# Uses the interpreter in $PYTHON (default .venv/bin/python), which needs the `dev` extra.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
LAYOUT=$(mktemp -d)
trap 'rm -rf "$LAYOUT"' EXIT
"$PYTHON" -m pip install --quiet --no-deps --no-compile --target "$LAYOUT" "$ROOT"
cd "$LAYOUT"
"$PYTHON" -m mypy --config-file "$ROOT/pyproject.toml" --cache-dir "$ROOT/.mypy_cache" -p paperkg
