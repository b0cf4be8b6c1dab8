"""Graphs for the view tests: the sample graph with years and hostile text, and synthetic fields.

`synthetic_field` builds a paperkg-shaped graph (papers with years, venues and evidence
sentences; entities with acronyms and aliases; typed relations) of a given number of entities
whose entity map has about the given number of links; the view benchmark uses it at 5,000 and
50,000 entities.
"""
from __future__ import annotations

import random

import networkx as nx
from graph_fixtures import sample_records
from records import Link, Term, build, paper

from paperkg.core.schema import Extraction

HOSTILE_NAME = "<script>alert(1)</script> net"
HOSTILE_ALIAS = "<svg onload=alert(2)> net"  # sorts after HOSTILE_NAME, which the entity is named by; the
# shared word lets the SYNONYM_OF pair pass the corpus check (graph/resolve.py may_be_synonyms)
HOSTILE_SENTENCE = "We beat </script><script>alert(3)</script> & \"friends\" with XSSNet on 'it'."
HOSTILE_URL = "javascript:alert(4)"
YEARS = {"022ade70781f4129": 2023, "4a2f2e6da9f81cf7": 2025, "6d6887ad5122c59b": 2024}


def dated_records() -> list[Extraction]:
    """The sample papers with a year, venue and (one) arXiv link each."""
    metadata: dict[str, dict[str, object]] = {paper_id: {"year": year, "venue": "ICML"}
                                              for paper_id, year in YEARS.items()}
    metadata["022ade70781f4129"]["url"] = "https://arxiv.org/abs/2501.00001"
    return sample_records(metadata)


def dated_graph() -> nx.MultiDiGraph:
    """The sample graph with a year, venue and arXiv link on every paper."""
    return build(dated_records())


HOSTILE_ABSTRACT = f"{HOSTILE_SENTENCE} XSSNet stands for {HOSTILE_ALIAS} here."


def hostile_record() -> Extraction:
    """A paper whose title, venue, links and text try to run script, proposing XSSNet: its long form an HTML
    tag, and a name (a script element) it is given as a synonym in two places."""
    return paper("feedfacefeedface", HOSTILE_ABSTRACT, [
        Term("XSSNet", "Method", "proposes", name=HOSTILE_NAME, source="cue", confidence=0.9),
        Term("We", "Dataset", "evaluates_on", name="ImageNet", source="cue", confidence=0.9),
        Term("XSSNet", "Method", "proposes", nth=1, name=HOSTILE_ALIAS, acronym="XSSNet", source="cue",
             confidence=0.9),
        Term(HOSTILE_ALIAS, "Method", "proposes", acronym="XSSNet", source="cue", confidence=0.9),
        Term("XSSNet", "Method", "proposes", nth=1, name=HOSTILE_NAME, source="cue", confidence=0.9),
    ], [Link("EVALUATED_ON", 0, 1, "cue", 0.9), Link("SYNONYM_OF", 0, 3, "model", 0.9)],
        title=HOSTILE_NAME, year=2024, venue=HOSTILE_ALIAS, url=HOSTILE_URL, code_url="javascript:alert(5)",
        source="hostile.txt:1")


def hostile_graph() -> nx.MultiDiGraph:
    """The dated sample graph plus a paper and an entity whose text tries to run script (key HOSTILE_KEY)."""
    return build([*dated_records(), hostile_record()])


HOSTILE_KEY = f"method:{HOSTILE_NAME}"


LABELS = ("Method", "Method", "Task", "Dataset", "Method", "Metric")


def synthetic_field(entities: int, links: int, seed: int = 0) -> nx.MultiDiGraph:
    """A field of `entities` entities whose entity map has about `links` links (heavy-tailed, dated)."""
    rng = random.Random(seed)
    names = [f"{LABELS[number % len(LABELS)].lower()} {number}" for number in range(entities)]
    weights = [(rank + 1) ** -0.7 for rank in range(entities)]
    pairs = [(number, (number + 1) % entities) for number in range(0, entities, 2)]  # nobody without a paper
    seen = set(pairs)
    while len(seen) < links:
        first, second = sorted(rng.choices(range(entities), weights, k=2))
        if first != second:
            pairs.append((first, second))
            seen.add((first, second))
    return build(_field_paper(number, [(names[first], first), (names[second], second)], rng)
                 for number, (first, second) in enumerate(pairs))


def _field_paper(number: int, entities: list[tuple[str, int]], rng: random.Random) -> Extraction:
    """A paper applying one entity of the field to another (every fifth says the first is used for the second);
    an entity whose number is a multiple of 7 is named with its acronym, M<number>X."""
    (first, one), (second, two) = entities
    lead = f"We apply {first}"
    terms = [Term(first, LABELS[one % len(LABELS)], acronym=f"M{one}X" if one % 7 == 0 else None, confidence=0.7),
             Term(second, LABELS[two % len(LABELS)], nth=lead.count(second),
                  acronym=f"M{two}X" if two % 7 == 0 else None, confidence=0.7)]
    links = [Link("USED_FOR", 0, 1, confidence=0.7)] if number % 5 == 0 else []
    return paper(f"{number:016x}", f"{lead} to {second} and report gains.", terms, links,
                 title=f"Paper {number} on {first}", year=2016 + rng.randrange(9), venue="ACL",
                 source=f"field.jsonl:{number + 1}")


def mention_field(mentions: dict[str, list[str]], labels: dict[str, str] | None = None) -> nx.MultiDiGraph:
    """The builder's graph of {paper id: names of the entities it mentions} (one sentence names them all),
    each a Method unless `labels` gives its type."""
    records = []
    labels = labels or {}
    for paper_id, names in mentions.items():
        sentence = "We study " + " and ".join(names) + "."
        terms = [Term(name, labels.get(name, "Method"),
                      nth=sentence[:sentence.index(" and ".join(names[number:]))].count(name))
                 for number, name in enumerate(names)]
        records.append(paper(paper_id, sentence, terms, title=f"On {names[0]}", year=2023))
    return build(records)
def hub_graph(leaves: int = 60) -> nx.MultiDiGraph:
    """focus - near - hub - many leaves: the hub has more neighbours than the default --hub-degree."""
    mentions = {"p0": ["focus", "near"], "p1": ["near", "hub"]}
    mentions.update({f"q{i}": ["hub", f"leaf{i}"] for i in range(leaves)})
    return mention_field(mentions)
