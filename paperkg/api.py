"""The Python API: read abstracts, extract, build the graph; usable from a notebook.

    import paperkg
    graph = paperkg.build_graph(paperkg.read_records("examples/icml2025"))
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from paperkg.core.schema import Extraction, PaperRecord

if TYPE_CHECKING:  # spaCy and NetworkX load only when a function that needs them runs
    import networkx as nx
    from spacy.language import Language


def load_pipeline(model: Path | str | None = None, rules_only: bool = False) -> Language:
    """The extraction pipeline (cached): the shipped one, or a trained model / saved pipeline directory;
    `rules_only` leaves the statistical model out."""
    return _pipeline(Path(model).resolve() if model else None, bool(rules_only))


@cache
def _pipeline(model: Path | None, rules_only: bool) -> Language:
    """One pipeline per (model, rules_only), however the caller spelt them (keyword, positional, str)."""
    from paperkg.extract import pipeline

    return pipeline.load_pipeline(model, rules_only=rules_only)


def extract_records(records: Iterable[PaperRecord], nlp: Language | None = None,
                    batch_size: int = 32) -> Iterator[Extraction]:
    """One Extraction (entities, acronyms, relations, evidence) per paper, streamed."""
    from paperkg.extract.extraction import extract

    return extract(nlp or load_pipeline(), records, batch_size=batch_size)


def build_graph(records: Iterable[PaperRecord], graph: nx.MultiDiGraph | None = None,
                nlp: Language | None = None) -> nx.MultiDiGraph:
    """Extract from the records and build (or extend `graph` with) the knowledge graph."""
    return graph_from_extractions(extract_records(records, nlp), graph)


def graph_from_extractions(extractions: Iterable[Extraction], graph: nx.MultiDiGraph | None = None) -> nx.MultiDiGraph:
    """Build the graph from Extraction records (e.g. read back from extractions.jsonl) without spaCy."""
    from paperkg.graph.builder import GraphBuilder

    builder = GraphBuilder(graph)
    builder.add_all(extractions)
    return builder.finalize()
