"""A small hand-made graph that follows the graph contract, for tests of the graph's consumers.

Built from three real-looking abstracts so that evidence offsets point at real sentences;
the views, exports and Neo4j tests can use it before (and beside) the real build.
"""
from __future__ import annotations

import random

import networkx as nx

from paperkg.core.schema import SCHEMA_KEY, SCHEMA_VERSION

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

ENTITIES = {
    # key: (label, name, aliases, acronym, long_form)
    "method:magep-nfn": ("Method", "MAGEP-NFN",
                         ["MAGEP-NFN", "Monomial mAtrix Group Equivariant Polynomial NFN"],
                         "MAGEP-NFN", "Monomial mAtrix Group Equivariant Polynomial NFN"),
    "method:nfn": ("Method", "neural functional network", ["NFN", "neural functional network"],
                   "NFN", "neural functional network"),
    "method:flerm": ("Method", "FLeRM", ["FLeRM", "Function-space Learning Rate Matching"],
                     "FLeRM", "Function-space Learning Rate Matching"),
    "method:llms": ("Method", "large language models",
                    ["LLM", "LLMs", "large language model", "large language models"],
                    "LLMs", "large language models"),
    "method:gts": ("Method", "Graph Transformers", ["GTs", "Graph Transformers"],
                   "GTs", "Graph Transformers"),
    "method:sira": ("Method", "SIRA", ["SIRA", "Self-Information Rewrite Attack"],
                    "SIRA", "Self-Information Rewrite Attack"),
    "method:paraphrasing attacks": ("Method", "paraphrasing attacks", ["paraphrasing attacks"],
                                    None, None),
    "task:watermark removal": ("Task", "watermark removal", ["watermark removal"], None, None),
    "dataset:cifar-10": ("Dataset", "CIFAR-10", ["CIFAR-10"], None, None),
    "dataset:cifar-100": ("Dataset", "CIFAR-100", ["CIFAR-100"], None, None),
    "dataset:imagenet": ("Dataset", "ImageNet", ["ImageNet"], None, None),
    "metric:accuracy": ("Metric", "accuracy", ["accuracy"], None, None),
    "metric:success rate": ("Metric", "success rate", ["success rate"], None, None),
}

RELATIONS = [
    # (source, type, target, paper id, surface text inside the evidence sentence, extractor)
    ("paper:022ade70781f4129", "PROPOSES", "method:magep-nfn", "022ade70781f4129", "MAGEP-NFN", "cue"),
    ("paper:022ade70781f4129", "MENTIONS", "method:nfn", "022ade70781f4129", "NFN", "acronym"),
    ("paper:022ade70781f4129", "EVALUATES_ON", "dataset:cifar-10", "022ade70781f4129", "CIFAR-10", "ruler"),
    ("method:magep-nfn", "EVALUATED_ON", "dataset:cifar-10", "022ade70781f4129", "CIFAR-10", "cue"),
    ("paper:4a2f2e6da9f81cf7", "PROPOSES", "method:flerm", "4a2f2e6da9f81cf7", "FLeRM", "cue"),
    ("paper:4a2f2e6da9f81cf7", "MENTIONS", "method:llms", "4a2f2e6da9f81cf7", "LLMs", "acronym"),
    ("paper:4a2f2e6da9f81cf7", "MENTIONS", "method:gts", "4a2f2e6da9f81cf7", "GTs", "acronym"),
    ("paper:4a2f2e6da9f81cf7", "EVALUATES_ON", "dataset:cifar-10", "4a2f2e6da9f81cf7", "CIFAR-10", "ruler"),
    ("paper:4a2f2e6da9f81cf7", "EVALUATES_ON", "dataset:cifar-100", "4a2f2e6da9f81cf7", "CIFAR-100", "ruler"),
    ("paper:4a2f2e6da9f81cf7", "MENTIONS", "metric:accuracy", "4a2f2e6da9f81cf7", "accuracy", "ruler"),
    ("method:flerm", "USED_FOR", "method:gts", "4a2f2e6da9f81cf7", "Graph Transformers", "cue"),
    ("paper:6d6887ad5122c59b", "PROPOSES", "method:sira", "6d6887ad5122c59b", "Self-Information Rewrite Attack", "cue"),
    ("paper:6d6887ad5122c59b", "MENTIONS", "method:llms", "6d6887ad5122c59b", "LLMs", "acronym"),
    ("paper:6d6887ad5122c59b", "ADDRESSES", "task:watermark removal", "6d6887ad5122c59b", "watermark removal", "ruler"),
    ("paper:6d6887ad5122c59b", "EVALUATES_ON", "dataset:imagenet", "6d6887ad5122c59b", "ImageNet", "ruler"),
    ("paper:6d6887ad5122c59b", "MENTIONS", "metric:success rate", "6d6887ad5122c59b", "success rate", "ruler"),
    ("method:sira", "COMPARED_WITH", "method:paraphrasing attacks", "6d6887ad5122c59b", "paraphrasing attacks", "cue"),
]


def _sentence_of(abstract: str, start: int) -> str:
    """The sentence of `abstract` around character `start` (split on '. ', good enough here)."""
    begin = abstract.rfind(". ", 0, start)
    begin = 0 if begin < 0 else begin + 2
    end = abstract.find(". ", start)
    return abstract[begin:] if end < 0 else abstract[begin:end + 1]


def _add_evidence(graph: nx.MultiDiGraph, relation: tuple[str, str, str, str, str, str]) -> None:
    """Add one relation with its evidence, accumulating on an existing edge of the same type."""
    source, rel_type, target, paper, surface, extractor = relation
    abstract = PAPERS[paper]
    start = abstract.index(surface)
    confidence = 0.9 if extractor in ("cue", "acronym") else 0.7
    evidence = {"paper": paper, "sentence": _sentence_of(abstract, start), "start": start,
                "end": start + len(surface), "extractor": extractor, "confidence": confidence}
    if graph.has_edge(source, target, key=rel_type):
        data = graph.edges[source, target, rel_type]
        data["count"] += 1
        data["confidence"] = max(data["confidence"], confidence)
        data["evidence"].append(evidence)
    else:
        graph.add_edge(source, target, key=rel_type, type=rel_type, count=1,
                       confidence=confidence, evidence=[evidence])


def _add_metrics(graph: nx.MultiDiGraph) -> None:
    """Degree, a degree-proportional stand-in for PageRank, and Louvain communities."""
    total = sum(degree for _, degree in graph.degree()) or 1
    for node, degree in graph.degree():
        graph.nodes[node]["degree"] = degree
        graph.nodes[node]["pagerank"] = round(degree / total, 6)
    communities = nx.community.louvain_communities(graph.to_undirected(), seed=7)
    for community_id, members in enumerate(sorted(communities, key=lambda c: sorted(c))):
        for node in members:
            graph.nodes[node]["community"] = community_id


def sample_graph() -> nx.MultiDiGraph:
    """A 16-node graph of three papers, their methods, tasks, datasets and metrics."""
    graph = nx.MultiDiGraph(**{SCHEMA_KEY: SCHEMA_VERSION})
    for paper_id, abstract in PAPERS.items():
        graph.add_node(f"paper:{paper_id}", label="Paper", key=f"paper:{paper_id}",
                       paper_id=paper_id, name=" ".join(abstract.split()[:8]) + " ...",
                       aliases=[], abstract=abstract, authors=[], source=f"examples/{paper_id}.txt:3",
                       mentions=1, papers=1)
    graph.nodes["paper:4a2f2e6da9f81cf7"].update(
        title="Function-space Learning Rates", name="Function-space Learning Rates", year=2025, venue="ICML",
        authors=["Edward Milsom", "Ben Anson", "Laurence Aitchison"],
        code_url="https://github.com/example/flerm")
    for key, (label, name, aliases, acronym, long_form) in ENTITIES.items():
        attrs = {"label": label, "key": key, "name": name, "aliases": aliases}
        if acronym:
            attrs.update(acronym=acronym, long_form=long_form)
        graph.add_node(key, **attrs)
    for relation in RELATIONS:
        _add_evidence(graph, relation)
    for key in ENTITIES:
        evidence = [e for *_, data in graph.in_edges(key, data=True) for e in data["evidence"]]
        graph.nodes[key]["mentions"] = len(evidence)
        graph.nodes[key]["papers"] = len({e["paper"] for e in evidence})
    _add_metrics(graph)
    return graph


def synthetic_graph(papers: int = 60, entities: int = 600, seed: int = 0) -> nx.MultiDiGraph:
    """A corpus-sized graph with a heavy-tailed entity popularity, for layout and scale tests."""
    rng = random.Random(seed)
    graph = nx.MultiDiGraph(**{SCHEMA_KEY: SCHEMA_VERSION})
    labels = ("Method", "Method", "Method", "Task", "Dataset", "Metric")
    keys = []
    for index in range(entities):
        label = labels[index % len(labels)]
        name = f"{label.lower()} {index}"
        keys.append(f"{label.lower()}:{name}")
        graph.add_node(keys[-1], label=label, key=keys[-1], name=name, aliases=[name])
    weights = [(rank + 1) ** -0.5 for rank in range(entities)]
    paper_types = {"Method": "MENTIONS", "Task": "ADDRESSES", "Dataset": "EVALUATES_ON",
                   "Metric": "MENTIONS"}
    for number in range(papers):
        paper_id = f"{number:016x}"
        paper = f"paper:{paper_id}"
        sentence = f"We study {number} things. "
        graph.add_node(paper, label="Paper", key=paper, paper_id=paper_id, name=f"Paper {number}",
                       aliases=[], authors=[], abstract=sentence, source=f"corpus.txt:{number}")
        chosen = sorted(set(rng.choices(range(entities), weights, k=16)))
        for index in chosen:
            label = graph.nodes[keys[index]]["label"]
            rel = "PROPOSES" if index == chosen[-1] and label == "Method" else paper_types[label]
            evidence = {"paper": paper_id, "sentence": sentence, "start": 0, "end": 2,
                        "extractor": "synthetic", "confidence": 0.5}
            graph.add_edge(paper, keys[index], key=rel, type=rel, count=1, confidence=0.5,
                           evidence=[evidence])
        methods = [keys[i] for i in chosen if keys[i].startswith("method:")]
        for source, target in zip(methods, methods[1:]):
            graph.add_edge(source, target, key="COMPARED_WITH", type="COMPARED_WITH", count=1,
                           confidence=0.5, evidence=[])
    for key in keys:
        graph.nodes[key]["mentions"] = graph.in_degree(key)
        graph.nodes[key]["papers"] = graph.in_degree(key)
    graph.remove_nodes_from([key for key in keys if graph.degree(key) == 0])
    _add_metrics(graph)
    return graph
