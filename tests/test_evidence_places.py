"""Evidence is placed by the sentence spans of the extraction record: an abstract that repeats a sentence
keeps every mention's highlight on its own occurrence (the third "FooNet" at 88-94 was marked [0, 0]
when the panel found the sentence again by searching the abstract)."""
from __future__ import annotations

import networkx as nx
import pytest

from paperkg.core.schema import Extraction, PaperRecord
from paperkg.extract.extraction import extract
from paperkg.admit.admission import admit
from paperkg.graph.builder import GraphBuilder
from paperkg.viz.panel import PaperTable, evidence_item, link_panel, paper_panel

SENTENCES = ("We propose FooNet for image classification. ", "FooNet is evaluated on ImageNet.")
ABSTRACT = (SENTENCES[0] + SENTENCES[1] + " ") * 2 + "FooNet is evaluated on ImageNet."


@pytest.fixture(scope="module")
def record() -> Extraction:
    from paperkg.api import load_pipeline

    return next(extract(load_pipeline(), [PaperRecord(id="p1", abstract=ABSTRACT)]))


@pytest.fixture(scope="module")
def graph(record: Extraction) -> nx.MultiDiGraph:
    builder = GraphBuilder()
    builder.add(admit(record))
    return builder.finalize()


def _evidence(graph: nx.MultiDiGraph) -> list[tuple[str, str, str, dict]]:
    return [(u, k, v, ev) for u, v, k, data in graph.edges(keys=True, data=True) for ev in data["evidence"]]


def test_the_record_holds_where_each_sentence_lies_even_when_one_repeats(record: Extraction) -> None:
    assert [ABSTRACT[start:end] for start, end in record.sentence_spans] == record.sentences
    starts = [start for start, _ in record.sentence_spans]
    assert len(starts) == 5 and len(set(record.sentences)) == 2
    assert [ABSTRACT.index("FooNet", start) for start in starts] == [11, 44, 88, 121, 154]


def test_every_evidence_item_carries_its_own_sentence_start(graph: nx.MultiDiGraph) -> None:
    items = _evidence(graph)
    foonet = sorted(ev["start"] for _, kind, target, ev in items if kind == "PROPOSES" and target == "method:foonet")
    assert foonet == [11, 44, 88, 121, 154]
    for _, _, _, ev in items:
        start = ev["sentence_start"]
        assert ABSTRACT[start:start + len(ev["sentence"])] == ev["sentence"]
        assert start <= ev["start"] < ev["end"] <= start + len(ev["sentence"])


def test_every_mentions_highlight_in_the_panel_is_on_its_mention(graph: nx.MultiDiGraph) -> None:
    table = PaperTable(graph)
    for _, _, _, ev in _evidence(graph):
        row, sentence, start, end, _ = evidence_item(graph, ev, None, table)
        assert sentence[start:end] == ABSTRACT[ev["start"]:ev["end"]], ev


def test_the_paper_panel_marks_every_foonet_and_a_link_panel_its_sentence(graph: nx.MultiDiGraph) -> None:
    table = PaperTable(graph)
    panel = paper_panel(graph, "paper:p1", table, {}, [n for n in graph if not n.startswith("paper:")])
    marked = [panel["abstract"][mark["start"]:mark["end"]] for mark in panel["marks"]]
    assert marked.count("FooNet") == 5
    link = link_panel(graph, ("method:foonet", "dataset:imagenet"), ["paper:p1"], ["EVALUATED_ON"], 1, table)
    for quote in link["evidence"]:
        assert [quote["sentence"][mark["start"]:mark["end"]] for mark in quote["marks"]] in (
            ["FooNet is evaluated on ImageNet"], ["FooNet", "ImageNet"])


def test_a_record_whose_spans_do_not_hold_its_sentences_is_refused() -> None:
    paper = PaperRecord(id="p", abstract="A b. A b.")
    assert Extraction(paper, ["A b.", "A b."], sentence_spans=[(0, 4), (5, 9)]).sentence_spans[1] == (5, 9)
    with pytest.raises(ValueError, match="sentence span 4-8"):
        Extraction(paper, ["A b."], sentence_spans=[(4, 8)])
    with pytest.raises(ValueError, match="2 sentences but 1 sentence spans"):
        Extraction(paper, ["A b.", "A b."], sentence_spans=[(0, 4)])
