"""Every folder of the mapped packages ships: a plain `pip install .` (the README's quick start) has each
folder holding code or data listed as a package with its data files, or the installed copy misses it."""
from __future__ import annotations

import sys
from pathlib import Path

from cli_helpers import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def test_every_package_folder_is_listed_with_its_data() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf8"))["tool"]["setuptools"]
    folders = {package: Path(folder) for package, folder in setuptools["package-dir"].items()}
    listed, data = set(setuptools["packages"]), set(setuptools["package-data"])
    for package, folder in folders.items():
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_dir() and "__pycache__" not in path.parts and any(p.is_file() for p in path.iterdir()):
                name = ".".join([package, *path.relative_to(ROOT / folder).parts])
                assert name in listed, f"{path} is not in pyproject.toml's packages: `pip install .` leaves it out"
                if any(p.suffix not in (".py", ".pyc") for p in path.iterdir() if p.is_file()):
                    assert name in data or name == "paperkg.extract", f"{name} has data files but no package-data entry"
