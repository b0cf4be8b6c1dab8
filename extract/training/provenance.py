"""Provenance of the shipped model: the checksum of its weights and the meta.json that names its
version, training data and licences, seed and dev figures."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

WEIGHT_FILES = ("model",)  # the trained weights inside each component folder (tok2vec/model, ...)


def weights_checksum(model_dir: Path) -> str:
    """SHA-256 over the weight files of every component (sorted relative path, then its bytes' SHA-256)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in model_dir.rglob("*") if p.is_file() and p.name in WEIGHT_FILES):
        digest.update(f"{path.relative_to(model_dir).as_posix()}\t{hashlib.sha256(path.read_bytes()).hexdigest()}\n"
                      .encode("utf8"))
    return digest.hexdigest()


def write_meta(model_dir: Path, meta: dict[str, Any]) -> None:
    """Merge paperkg's provenance into the model's meta.json, with the checksum of its weights."""
    path = model_dir / "meta.json"
    current = json.loads(path.read_text(encoding="utf8"))
    current.update(meta, paperkg_weights_sha256=weights_checksum(model_dir))
    path.write_text(json.dumps(current, indent=2, sort_keys=True) + "\n", encoding="utf8")
