#!/usr/bin/env bash
# The whole test suite from a fresh checkout: .venv with the test extras, Debian's Chromium
# (browser tests), a local Neo4j 5 from Maven Central (Neo4j tests), the Gephi toolkit jar from
# Maven Central (tests/test_exports_readers.py imports the exports with it), then the static checks
# (ruff, mypy through scripts/typecheck.sh; settings in pyproject.toml; the pages' ES modules with
# scripts/jslint.mjs, Node alone), the pages' modules' unit tests (Node's test runner, tests/js/), then pytest.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -m "not neo4j"`).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test,dev]"
bash scripts/install-chromium.sh
bash scripts/neo4j.sh install
# One jar (classifier `all`, ~83 MB): its own POM's dependencies do not resolve, so it is copied alone.
GEPHI_JAR=.gephi/gephi-toolkit-0.10.1-all.jar
if [[ ! -s "$GEPHI_JAR" ]]; then
  mvn -q dependency:copy -Dartifact=org.gephi:gephi-toolkit:0.10.1:jar:all -DoutputDirectory=.gephi
fi
.venv/bin/ruff check .
bash scripts/typecheck.sh
node scripts/jslint.mjs
node --test tests/js/*.test.mjs
.venv/bin/python -m pytest --training --acceptance "$@"
