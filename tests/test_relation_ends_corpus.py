"""No typed edge of a 1,000-abstract build of the shared corpus breaks its type's end labels (issue 17): real
abstracts of every part of the corpus (ACL Anthology and arXiv) through the shipped pipeline, relation model
included, so the check meets the relations the model writes on abstracts, not only the example corpus's."""
from __future__ import annotations

import gzip
import json
from collections import Counter
from itertools import islice

import pytest

from build_helpers import write_papers
from paperkg.api import build_graph
from paperkg.core.schema import PAPER_REL_TYPES, RESULT_REL_TYPES, RelType, relation_allowed
from paperkg.ingest.readers import read_records

PAPERS = 1000
STRIDE = 126  # every 126th row of the 126,678: a fixed sample spread over the corpus's years, venues and fields


@pytest.fixture(scope="module")
def corpus_graph(shared, tmp_path_factory):
    with gzip.open(shared / "corpus" / "abstracts" / "abstracts.jsonl.gz", "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in islice(lines, 0, None, STRIDE)][:PAPERS]
    papers = write_papers(tmp_path_factory.mktemp("corpus") / "sample.jsonl", rows)
    return build_graph(read_records(papers))


@pytest.mark.slow
@pytest.mark.acceptance  # corpus scale: about 30 s of CPU, most of it the build
def test_no_typed_edge_of_a_1000_abstract_corpus_build_breaks_its_type_s_end_labels(corpus_graph) -> None:
    labels = corpus_graph.nodes(data="label")
    entity_edges = [(head, key, tail) for head, tail, key in corpus_graph.edges(keys=True)
                    if RelType(key) not in PAPER_REL_TYPES and RelType(key) not in RESULT_REL_TYPES]
    typed = Counter(key for _, key, _ in entity_edges)
    broken = [(head, key, tail) for head, key, tail in entity_edges
              if not relation_allowed(RelType(key), labels[head], labels[tail])]
    assert corpus_graph.number_of_nodes() > PAPERS
    assert typed[RelType.USED_FOR.value] > 0, typed  # the check meets the model's edges, not an empty set
    assert broken == []
