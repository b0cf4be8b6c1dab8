"""A small graph of three real-looking abstracts, made by GraphBuilder from hand-written extraction
records (tests/records.py), for tests of the graph's consumers: views, exports and Neo4j.
"""
from __future__ import annotations

import networkx as nx
from records import Link, Term, build, paper

from paperkg.core.schema import Extraction

PAPERS = {
    "022ade70781f4129": (
        "A neural functional network (NFN) is a specialized type of neural network designed to "
        "process entire neural networks as input data. In this paper, we propose a novel "
        "solution with the development of MAGEP-NFN (Monomial mAtrix Group Equivariant "
        "Polynomial NFN). We provide empirical evidence on CIFAR-10 demonstrating that MAGEP-NFN "
        "achieves competitive performance compared to existing baselines."
    ),
    "4a2f2e6da9f81cf7": (
        "We consider layerwise function-space learning rates. We develop Function-space Learning "
        "Rate Matching (FLeRM), which transfers learning rates from a small model to large "
        "language models (LLMs). FLeRM improves training of Graph Transformers (GTs) on "
        "CIFAR-10 & CIFAR-100, measured by accuracy."
    ),
    "6d6887ad5122c59b": (
        "Large language models (LLMs) are vulnerable to watermark removal. We introduce the "
        "Self-Information Rewrite Attack (SIRA), and compare it with paraphrasing attacks on "
        "ImageNet. SIRA reaches a 99% success rate; a \"<b>bold</b>\" claim in </script> tags."
    ),
}

M, T, D, X = "Method", "Task", "Dataset", "Metric"
# the keys the builder gives the methods (type and canonical name: the long form where there is one)
MAGEP_KEY = "method:monomial matrix group equivariant polynomial nfn"
NFN_KEY = "method:neural functional network"
FLERM_KEY = "method:function-space learning rate matching"
LLM_KEY = "method:large language model"
GT_KEY = "method:graph transformer"
SIRA_KEY = "method:self-information rewrite attack"
PARAPHRASING_KEY = "method:paraphrasing attack"
MAGEP = "Monomial mAtrix Group Equivariant Polynomial NFN"
FLERM = "Function-space Learning Rate Matching"
SIRA = "Self-Information Rewrite Attack"

TERMS: dict[str, tuple[list[Term], list[Link]]] = {
    "022ade70781f4129": ([
        Term("neural functional network", M, acronym="NFN", source="acronym", confidence=0.9),
        Term("NFN", M, name="neural functional network", acronym="NFN", source="acronym", confidence=0.9),
        Term("MAGEP-NFN", M, "proposes", name=MAGEP, acronym="MAGEP-NFN", source="cue", confidence=0.9),
        Term(MAGEP, M, "proposes", acronym="MAGEP-NFN", source="cue", confidence=0.9),
        Term("CIFAR-10", D, "evaluates_on", source="ruler", confidence=0.7),
        Term("MAGEP-NFN", M, "proposes", nth=1, name=MAGEP, acronym="MAGEP-NFN", source="cue", confidence=0.9),
    ], [Link("EVALUATED_ON", 5, 4, "cue", 0.9)]),
    "4a2f2e6da9f81cf7": ([
        Term(FLERM, M, "proposes", acronym="FLeRM", source="cue", confidence=0.9),
        Term("FLeRM", M, "proposes", name=FLERM, acronym="FLeRM", source="cue", confidence=0.9),
        Term("large language models", M, acronym="LLMs", source="acronym", confidence=0.9),
        Term("LLMs", M, name="large language models", acronym="LLMs", source="acronym", confidence=0.9),
        Term("FLeRM", M, "proposes", nth=1, name=FLERM, acronym="FLeRM", source="cue", confidence=0.9),
        Term("Graph Transformers", M, acronym="GTs", source="acronym", confidence=0.9),
        Term("GTs", M, name="Graph Transformers", acronym="GTs", source="acronym", confidence=0.9),
        Term("CIFAR-10", D, "evaluates_on", source="ruler", confidence=0.7),
        Term("CIFAR-100", D, "evaluates_on", source="ruler", confidence=0.7),
        Term("accuracy", X, source="ruler", confidence=0.7),
    ], [Link("USED_FOR", 4, 5, "cue", 0.9)]),
    "6d6887ad5122c59b": ([
        Term("Large language models", M, name="large language models", acronym="LLMs", source="acronym",
             confidence=0.9),
        Term("LLMs", M, name="large language models", acronym="LLMs", source="acronym", confidence=0.9),
        Term("watermark removal", T, "addresses", source="ruler", confidence=0.7),
        Term(SIRA, M, "proposes", acronym="SIRA", source="cue", confidence=0.9),
        Term("SIRA", M, "proposes", name=SIRA, acronym="SIRA", source="cue", confidence=0.9),
        Term("paraphrasing attacks", M, source="cue", confidence=0.9),
        Term("ImageNet", D, "evaluates_on", source="ruler", confidence=0.7),
        Term("success rate", X, source="ruler", confidence=0.7),
    ], [Link("COMPARED_WITH", 4, 5, "cue", 0.9)]),
}
METADATA: dict[str, dict[str, object]] = {
    "4a2f2e6da9f81cf7": {"title": "Function-space Learning Rates", "year": 2025, "venue": "ICML",
                         "authors": ["Edward Milsom", "Ben Anson", "Laurence Aitchison"],
                         "code_url": "https://github.com/example/flerm"},
}


def sample_records(metadata: dict[str, dict[str, object]] | None = None) -> list[Extraction]:
    """The three papers' extraction records; `metadata` adds to (or replaces) METADATA per paper id."""
    extra = metadata or {}
    return [paper(paper_id, abstract, *TERMS[paper_id], source=f"examples/{paper_id}.txt:3",
                  **{**METADATA.get(paper_id, {}), **extra.get(paper_id, {})})
            for paper_id, abstract in PAPERS.items()]


def sample_graph() -> nx.MultiDiGraph:
    """The builder's graph of the three papers: their methods, tasks, datasets, metrics and relations."""
    return build(sample_records())
