"""No working directory shadows the installed package: after the quick start's own `pip install .` (not
editable) into a fresh virtual environment, a `--jobs 2` build of 2,000 real abstracts run from the repository
root works (its workers import the whole installed package), and the README's API example works from a script
outside the repository, also beside a clone folder named `paperkg`.

The environment is made once per module (pip's cache makes it a matter of a minute or two where scripts/test.sh
has installed the same dependencies before); the source is copied, so the build leaves nothing in this checkout.
"""
from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import ROOT
from readme_example import check_output, script_in

pytestmark = [pytest.mark.acceptance, pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="paths of a POSIX virtual env")]

SAMPLE, EVERY = 2000, 60  # every 60th abstract of the shared corpus (126,678) from the first: a fixed sample
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv*", ".neo4j", ".gephi", ".data", "build", "dist", "out", "runs",
                                    "*.egg-info", "__pycache__", ".*_cache", ".hypothesis")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with paperkg installed by `pip install .` from a copy of this checkout;
    returns its bin folder."""
    folder = tmp_path_factory.mktemp("plain-install")
    source = folder / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE, symlinks=True)
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True, timeout=300)
    bin_folder = folder / "venv" / "bin"
    install = subprocess.run([str(bin_folder / "python"), "-m", "pip", "install", "--quiet", "."], cwd=source,
                             capture_output=True, text=True, timeout=1800)
    assert install.returncode == 0, install.stderr
    return bin_folder


def test_the_installed_package_is_whole_and_comes_from_the_environment(installed):
    probe = ("import paperkg, paperkg.extract.pipeline, paperkg.orchestrate.parallel; "
             "print(paperkg.__file__); print(paperkg.extract_records.__module__)")
    ran = subprocess.run([str(installed / "python"), "-c", probe], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert ran.returncode == 0, ran.stderr
    where, module = ran.stdout.splitlines()
    assert Path(where).is_relative_to(installed.parent) and "site-packages" in where and module == "paperkg.api"


def test_a_jobs_2_build_of_2000_abstracts_runs_from_the_repository_root(installed, shared, tmp_path):
    sample = tmp_path / "sample.jsonl"
    with gzip.open(shared / "corpus" / "abstracts" / "abstracts.jsonl.gz", "rt", encoding="utf8") as rows:
        chosen = [line for number, line in enumerate(rows) if number % EVERY == 0][:SAMPLE]
    sample.write_text("".join(chosen), encoding="utf8")
    build = subprocess.run([str(installed / "paperkg"), "build", str(sample), "-o", str(tmp_path / "out"),
                            "--jobs", "2"], cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert build.returncode in (0, 3), build.stdout + build.stderr  # 3: a record skipped, with its warning
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf8"))
    assert manifest["papers"] > 0.99 * SAMPLE
    assert build.stdout.splitlines()[-1].endswith("leaderboards.json, manifest.json")


@pytest.mark.parametrize("beside", [None, "paperkg"], ids=["alone", "beside-a-clone-named-paperkg"])
def test_the_readme_api_example_runs_from_a_script_outside_the_repository(installed, tmp_path, beside):
    script = script_in(tmp_path / "elsewhere")
    if beside:
        (script.parent / beside).symlink_to(ROOT, target_is_directory=True)  # a clone of the repository
    ran = subprocess.run([str(installed / "python"), str(script)], cwd=script.parent, capture_output=True,
                         text=True, timeout=900)
    assert ran.returncode == 0, ran.stderr
    check_output(ran.stdout)
