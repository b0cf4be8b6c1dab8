"""The graph of a build from its extraction lines: added to the builder as the workers send them, or
after extraction from the store in paper-id order.

While workers extract, the build process mostly waits for them: parsing each line and adding it to
the builder then (GraphBuilder.add takes papers in any order) leaves only `finalize` for after
extraction, where one core would otherwise parse and add every line while the other idles. The new
papers of a build are distinct (the readers skip a paper read again), so the order of arrival
decides nothing that the id order would decide otherwise.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from paperkg.core.schema import Extraction

if TYPE_CHECKING:
    from paperkg.graph.builder import GraphBuilder


def add_line(builder: GraphBuilder, line: str, where: str, thesaurus: dict[str, str]) -> None:
    """Parse one extraction line, apply the thesaurus and add the record to the builder."""
    from paperkg.graph.thesaurus import apply_thesaurus

    builder.add(apply_thesaurus(Extraction.from_json(line, where), thesaurus))


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the graph is built: the builder's objects (some
    600,000 at 10,000 papers) all live until the graph is written and form no cycles, and each full
    collection scanned them all again (about a fifth of the graph step's CPU at 10,000 papers)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
