#!/usr/bin/env bash
# The whole test suite from a fresh checkout: .venv with the test extras, Debian's Chromium
# (browser tests), a local Neo4j 5 from Maven Central (Neo4j tests), then pytest.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -m "not neo4j"`).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
bash scripts/install-chromium.sh
bash scripts/neo4j.sh install
.venv/bin/python -m pytest --training "$@"
