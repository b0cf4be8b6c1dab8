"""Graphs for the view tests: the sample graph with years and hostile text, and synthetic fields.

`synthetic_field` builds a paperkg-shaped graph (papers with years, venues and evidence
sentences; entities with acronyms and aliases; typed relations) of a given number of entities
whose entity map has about the given number of links; the view benchmark uses it at 5,000 and
50,000 entities.
"""
from __future__ import annotations

import random

import networkx as nx
from graph_fixtures import sample_graph

from paperkg.core.schema import SCHEMA_KEY, SCHEMA_VERSION

HOSTILE_NAME = "<script>alert(1)</script>"
HOSTILE_ALIAS = "<img src=x onerror=alert(2)>"
HOSTILE_SENTENCE = "We beat </script><script>alert(3)</script> & \"friends\" with XSSNet on 'it'."
HOSTILE_URL = "javascript:alert(4)"
YEARS = {"022ade70781f4129": 2023, "4a2f2e6da9f81cf7": 2025, "6d6887ad5122c59b": 2024}


def dated_graph() -> nx.MultiDiGraph:
    """The sample graph with a year, venue and arXiv link on every paper."""
    graph = sample_graph()
    for paper_id, year in YEARS.items():
        graph.nodes[f"paper:{paper_id}"].update(year=year, venue="ICML")
    graph.nodes["paper:022ade70781f4129"]["url"] = "https://arxiv.org/abs/2501.00001"
    return graph


def hostile_graph() -> nx.MultiDiGraph:
    """The dated sample graph plus an entity and a paper whose text tries to run script."""
    graph = dated_graph()
    paper = "paper:feedfacefeedface"
    graph.add_node(paper, label="Paper", key=paper, paper_id="feedfacefeedface", name=HOSTILE_NAME,
                   title=HOSTILE_NAME, year=2024, venue=HOSTILE_ALIAS, url=HOSTILE_URL,
                   code_url="javascript:alert(5)", abstract=HOSTILE_SENTENCE, aliases=[], authors=[],
                   source="hostile.txt:1", mentions=1, papers=1, degree=2, pagerank=0.01, community=0)
    key = "method:xssnet"
    graph.add_node(key, label="Method", key=key, name=HOSTILE_NAME, aliases=[HOSTILE_NAME, HOSTILE_ALIAS, "XSSNet"],
                   acronym="XSSNet", long_form=HOSTILE_ALIAS, mentions=1, papers=1, degree=2, pagerank=0.2,
                   community=0)
    start = HOSTILE_SENTENCE.index("XSSNet")
    evidence = {"paper": "feedfacefeedface", "sentence": HOSTILE_SENTENCE, "start": start,
                "end": start + len("XSSNet"), "extractor": "cue", "confidence": 0.9}
    graph.add_edge(paper, key, key="PROPOSES", type="PROPOSES", count=1, confidence=0.9, evidence=[evidence])
    graph.add_edge(paper, "dataset:imagenet", key="EVALUATES_ON", type="EVALUATES_ON", count=1,
                   confidence=0.9, evidence=[{**evidence, "start": 0, "end": 2}])
    graph.add_edge(key, "dataset:imagenet", key="EVALUATED_ON", type="EVALUATED_ON", count=1,
                   confidence=0.9, evidence=[evidence])
    return graph


LABELS = ("Method", "Method", "Task", "Dataset", "Method", "Metric")


def synthetic_field(entities: int, links: int, seed: int = 0) -> nx.MultiDiGraph:
    """A field of `entities` entities whose entity map has about `links` links (heavy-tailed, dated)."""
    rng = random.Random(seed)
    graph = nx.MultiDiGraph()
    keys = []
    for number in range(entities):
        label = LABELS[number % len(LABELS)]
        acronym = f"M{number}X" if number % 7 == 0 else None
        name = f"{label.lower()} {number}"
        key = f"{label.lower()}:{name}"
        attrs = {"label": label, "key": key, "name": name, "aliases": [name, f"{name}s"], "mentions": 0,
                 "papers": 0, "pagerank": round(1.0 / (number + 10), 8), "community": number % 40, "degree": 0}
        if acronym:
            attrs.update(acronym=acronym, long_form=name, aliases=[name, acronym])
        graph.add_node(key, **attrs)
        keys.append(key)
    weights = [(rank + 1) ** -0.7 for rank in range(entities)]
    pairs = [(number, (number + 1) % entities) for number in range(0, entities, 2)]  # nobody without a paper
    seen = set(pairs)
    while len(seen) < links:
        first, second = sorted(rng.choices(range(entities), weights, k=2))
        if first != second:
            pairs.append((first, second))
            seen.add((first, second))
    for paper, (first, second) in enumerate(pairs):
        _add_paper(graph, paper, [keys[first], keys[second]], rng)
    for key in keys:
        graph.nodes[key]["papers"] = graph.nodes[key]["mentions"] = graph.in_degree(key)
    return graph


def _add_paper(graph: nx.MultiDiGraph, number: int, entities: list[str], rng: random.Random) -> None:
    paper_id = f"{number:016x}"
    names = [graph.nodes[key]["name"] for key in entities]
    sentence = f"We apply {names[0]} to {names[1]} and report gains."
    key = f"paper:{paper_id}"
    graph.add_node(key, label="Paper", key=key, paper_id=paper_id, name=f"Paper {number} on {names[0]}",
                   title=f"Paper {number} on {names[0]}", year=2016 + rng.randrange(9), venue="ACL",
                   abstract=sentence, aliases=[], authors=[], source=f"field.jsonl:{number + 1}",
                   mentions=1, papers=1, pagerank=1e-6, community=0, degree=2)
    for entity, name in zip(entities, names):
        start = sentence.index(name)
        evidence = {"paper": paper_id, "sentence": sentence, "start": start, "end": start + len(name),
                    "extractor": "synthetic", "confidence": 0.7}
        graph.add_edge(key, entity, key="MENTIONS", type="MENTIONS", count=1, confidence=0.7, evidence=[evidence])
    if number % 5 == 0:
        evidence = {"paper": paper_id, "sentence": sentence, "start": 0, "end": len(sentence),
                    "extractor": "synthetic", "confidence": 0.7}
        graph.add_edge(entities[0], entities[1], key="USED_FOR", type="USED_FOR", count=1, confidence=0.7,
                       evidence=[evidence])


def mention_field(mentions: dict[str, list[str]]) -> nx.MultiDiGraph:
    """A paperkg-shaped graph from {paper id: names of the Methods it mentions} (sentences name them all)."""
    graph = nx.MultiDiGraph(**{SCHEMA_KEY: SCHEMA_VERSION})
    for paper_id, names in mentions.items():
        sentence = "We study " + " and ".join(names) + "."
        key = f"paper:{paper_id}"
        graph.add_node(key, label="Paper", name=f"On {names[0]}", title=f"On {names[0]}", abstract=sentence,
                       year=2023, paper_id=paper_id)
        for name in names:
            entity = f"method:{name}"
            graph.add_node(entity, label="Method", name=name, aliases=[name], mentions=1, pagerank=0.01)
            start = sentence.index(name)
            evidence = {"paper": paper_id, "sentence": sentence, "start": start, "end": start + len(name),
                        "confidence": 0.8}
            graph.add_edge(key, entity, key="MENTIONS", type="MENTIONS", count=1, evidence=[evidence])
    return graph


def hub_graph(leaves: int = 60) -> nx.MultiDiGraph:
    """focus - near - hub - many leaves: the hub has more neighbours than the default --hub-degree."""
    mentions = {"p0": ["focus", "near"], "p1": ["near", "hub"]}
    mentions.update({f"q{i}": ["hub", f"leaf{i}"] for i in range(leaves)})
    return mention_field(mentions)
