"""Compare two build folders byte for byte: which files are the same, which differ, which only one has; for
manifest.json, which of its entries differ. Used to check that a refactor leaves every output as it was
(issue 34: the example build and a 1,000-abstract build, before and after).

    python bench/compare_builds.py BEFORE_DIR AFTER_DIR

Exits 1 when a file both folders hold differs.
"""
from __future__ import annotations

import argparse
import filecmp
import json
import sys
from pathlib import Path
from typing import Any


def _flat(value: Any, path: str = "") -> dict[str, Any]:
    """A JSON value as {path: leaf}."""
    if isinstance(value, dict):
        return {key: leaf for name, item in value.items() for key, leaf in _flat(item, f"{path}/{name}").items()}
    if isinstance(value, list):
        return {key: leaf for number, item in enumerate(value)
                for key, leaf in _flat(item, f"{path}[{number}]").items()}
    return {path: value}


def manifest_changes(before: Path, after: Path) -> list[str]:
    """The manifest entries that differ, as 'path: before -> after'."""
    old, new = (_flat(json.loads(path.read_text(encoding="utf-8"))) for path in (before, after))
    return [f"{key}: {old.get(key)} -> {new.get(key)}" for key in sorted(old.keys() | new.keys())
            if old.get(key) != new.get(key)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    for folder in (args.before, args.after):
        if not folder.is_dir():
            parser.error(f"{folder} is no folder; name two build output folders")
    names = sorted({path.name for folder in (args.before, args.after) for path in folder.iterdir() if path.is_file()})
    differ = []
    for name in names:
        old, new = args.before / name, args.after / name
        if not (old.is_file() and new.is_file()):
            print(f"{name:20} only in {'before' if old.is_file() else 'after'}")
            continue
        same = filecmp.cmp(old, new, shallow=False)
        print(f"{name:20} {'same' if same else 'differs'}")
        if not same:
            differ.append(name)
            if name == "manifest.json":
                for change in manifest_changes(old, new):
                    print(f"    {change}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
