#!/usr/bin/env bash
# The unit tests against the lowest versions pyproject.toml declares (uv's lowest-direct resolution),
# in a venv of their own, so a lower bound that no longer works fails here rather than on a user's machine.
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv-lowest
.venv-lowest/bin/python -m pip install --quiet --upgrade pip uv
.venv-lowest/bin/uv pip install --quiet --python .venv-lowest/bin/python --resolution lowest-direct --compile-bytecode -e ".[test]"
.venv-lowest/bin/python -m pytest -m "not neo4j and not browser and not gephi and not training" -p no:cacheprovider "$@"
