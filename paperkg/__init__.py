"""paperkg: a typed, evidence-backed knowledge graph of methods, tasks, datasets, metrics and acronyms."""
from __future__ import annotations

__version__ = "0.1.0"

from paperkg.api import build_graph, extract_records, graph_from_extractions, load_pipeline  # noqa: E402
from paperkg.readers import read_records  # noqa: E402

__all__ = ["build_graph", "extract_records", "graph_from_extractions", "load_pipeline", "read_records",
           "__version__"]
