"""The Python API for notebooks: read abstracts, extract, build the graph (load_pipeline: the cached pipeline).

    import paperkg
    graph = paperkg.build_graph(paperkg.read_records("examples/icml2025"))
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from paperkg.core.schema import Extraction, PaperRecord
from paperkg.extract.limits import BATCH_SIZE
from paperkg.extract.pipeline_cache import cached_pipeline as load_pipeline

if TYPE_CHECKING:  # spaCy and NetworkX load only when a function that needs them runs (load_pipeline too)
    import networkx as nx
    from spacy.language import Language


def extract_records(records: Iterable[PaperRecord], nlp: Language | None = None,
                    batch_size: int = BATCH_SIZE) -> Iterator[Extraction]:
    """One Extraction (entities, acronyms, relations, evidence) per paper, streamed."""
    from paperkg.extract.extraction import extract

    return extract(nlp or load_pipeline(), records, batch_size=batch_size)


def build_graph(records: Iterable[PaperRecord], graph: nx.MultiDiGraph | None = None,
                nlp: Language | None = None) -> nx.MultiDiGraph:
    """Extract from the records and build (or extend `graph` with) the knowledge graph."""
    return graph_from_extractions(extract_records(records, nlp), graph)


def graph_from_extractions(extractions: Iterable[Extraction], graph: nx.MultiDiGraph | None = None) -> nx.MultiDiGraph:
    """Build the graph from Extraction records (e.g. read back from extractions.jsonl) without spaCy."""
    from paperkg.admit.admission import admit_all
    from paperkg.graph.builder import GraphBuilder

    builder = GraphBuilder(graph)
    builder.add_all(admit_all(extractions))
    return builder.finalize()
