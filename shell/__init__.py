"""paperkg: a typed, evidence-backed knowledge graph of methods, tasks, datasets, metrics and acronyms.

The public API (see paperkg.api) is imported on first use, so `import paperkg` and the CLI's
start-up stay light: spaCy and NetworkX load only when a function that needs them is called.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.3.0"

_API = {"build_graph": "paperkg.api", "extract_records": "paperkg.api", "graph_from_extractions": "paperkg.api",
        "load_pipeline": "paperkg.api", "read_records": "paperkg.ingest.readers", "trends": "paperkg.graph.trends"}
__all__ = [*_API, "__version__"]


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(import_module(_API[name]), name)
    raise AttributeError(f"module 'paperkg' has no attribute {name!r}")
