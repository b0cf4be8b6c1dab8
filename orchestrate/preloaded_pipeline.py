"""Imported by the extraction workers' fork server (paperkg.orchestrate.parallel.SERVER_PRELOAD): loads the
pipeline the build named in paperkg.orchestrate.parallel.PIPELINE_VARIABLE once, so every worker forked
from the server starts with it loaded and shares its memory pages with the server (copy-on-write) instead
of loading its own copy (paperkg.processes.pool then freezes the server's heap).

A pipeline that fails to load here is left to the worker, which loads it again and reports the
error as the build does without workers.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from paperkg.orchestrate.parallel import PIPELINE_VARIABLE


def preload_pipeline(setting: str | None) -> None:
    """Load the pipeline `setting` names into extract/pipeline_cache.py's cache."""
    if not setting:
        return
    from paperkg.extract.pipeline_cache import cached_pipeline

    try:
        model, rules_only = json.loads(setting)
        cached_pipeline(Path(model) if model else None, bool(rules_only))
    except Exception:  # noqa: BLE001 - the worker loads it again and reports what went wrong
        return


preload_pipeline(os.environ.get(PIPELINE_VARIABLE))
