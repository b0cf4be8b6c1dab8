"""The Python API: read abstracts, extract, build the graph, export it; usable from a notebook.

    import paperkg
    graph = paperkg.build_graph(paperkg.read_records("examples/icml2025"))
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import networkx as nx
from spacy.language import Language

from paperkg.extract.extraction import extract
from paperkg.extract.pipeline import DEFAULT_MODEL, build_pipeline
from paperkg.graph.builder import GraphBuilder
from paperkg.records import PaperRecord

_PIPELINES: dict[str, Language] = {}


def load_pipeline(model: Path | str | None = DEFAULT_MODEL) -> Language:
    """The extraction pipeline (cached per model path); model=None gives the rules-only pipeline."""
    cache_key = str(model)
    if cache_key not in _PIPELINES:
        _PIPELINES[cache_key] = build_pipeline(model)
    return _PIPELINES[cache_key]


def extract_records(
    records: Iterable[PaperRecord | dict[str, Any]], nlp: Language | None = None, batch_size: int = 32
) -> Iterator[dict[str, Any]]:
    """One extraction record (entities, acronyms, relations, evidence) per paper, streamed."""
    papers = (r.to_dict() if isinstance(r, PaperRecord) else r for r in records)
    return extract(nlp or load_pipeline(), papers, batch_size=batch_size)


def build_graph(
    records: Iterable[PaperRecord | dict[str, Any]],
    graph: nx.MultiDiGraph | None = None,
    nlp: Language | None = None,
) -> nx.MultiDiGraph:
    """Extract from the records and build (or extend `graph` with) the knowledge graph."""
    builder = GraphBuilder(graph)
    builder.add_all(extract_records(records, nlp))
    return builder.finalize()


def graph_from_extractions(extractions: Iterable[dict[str, Any]], graph: nx.MultiDiGraph | None = None) -> nx.MultiDiGraph:
    """Build the graph from saved extraction records (extractions.jsonl) without re-running spaCy."""
    builder = GraphBuilder(graph)
    builder.add_all(extractions)
    return builder.finalize()
