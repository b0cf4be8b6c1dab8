"""The graph of a build from its extraction lines: added to the builder as the workers send them, or
after extraction from the store in paper-id order.

While workers extract, the build process mostly waits for them: parsing each line and adding it to
the builder then (GraphBuilder.add takes papers in any order) leaves only `finalize` for after
extraction, where one core would otherwise parse and add every line while the other idles.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from paperkg.core.schema import Extraction

if TYPE_CHECKING:
    from paperkg.graph.builder import GraphBuilder


class LineFeed:
    """Adds each new extraction line to a builder as it arrives. A paper met twice ends it (`builder`
    None): which of its records is kept is decided by sorting the lines (ExtractionStore.sorted_lines),
    so the build then adds them all again in id order."""

    def __init__(self, thesaurus: dict[str, str]) -> None:
        from paperkg.graph.builder import GraphBuilder

        self.builder: GraphBuilder | None = GraphBuilder()
        self.thesaurus = thesaurus
        self._ids: set[str] = set()

    def add(self, paper_id: str, line: str, where: str) -> None:
        """Add one line (`where`: its place, for an error) unless the feed has ended."""
        if self.builder is None:
            return
        if paper_id in self._ids:
            self.builder = None
            return
        self._ids.add(paper_id)
        add_line(self.builder, line, where, self.thesaurus)


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
