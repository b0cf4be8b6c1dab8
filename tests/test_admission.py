"""Admission (admit/): which mentions become node names and which relations may become edges, each refusal
with its reason; the corpus-level refusals the builder adds; the refusal table a build saves; `paperkg why`."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from cli_helpers import run_cli
from records import Link, Term, paper

from paperkg.admit.admission import admit
from paperkg.admit.records import NAME_REASONS, RELATION_REASONS
from paperkg.admit.refusals import MAX_PAPERS, RefusalTable
from paperkg.core.schema import SchemaError
from paperkg.graph.builder import GraphBuilder

TEXT = "ZentaNet is used for quorb parsing. We report 34k gains of ZentaNet over BlorbNet."


def _reasons(admitted) -> dict[str, str]:
    return {refusal.name: refusal.reason for refusal in admitted.refused_names}


def _relation_reasons(admitted) -> list[tuple[str, str, str, str]]:
    return [(r.type, r.head, r.tail, r.reason) for r in admitted.refused_relations]


def test_a_mention_is_a_node_name_or_refused_with_its_reason() -> None:
    record = paper("p1", TEXT, [Term("ZentaNet", "Method"), Term("quorb parsing", "Task", role="addresses"),
                                Term("34k", "Method"), Term("BlorbNet", "Method")])
    untyped = replace(record.entities[3], label=None)
    unsure = replace(record.entities[1], node=False, termhood="rare")
    admitted = admit(replace(record, entities=[record.entities[0], unsure, record.entities[2], untyped]))
    assert [name is not None for name in admitted.names] == [True, False, False, False]
    assert _reasons(admitted) == {"quorb parsing": "rare", "34k": "no-name", "BlorbNet": "no-type"}
    assert admitted.names[0].name == "ZentaNet" and admitted.names[0].form == "zentanet"
    assert set(_reasons(admitted).values()) <= set(NAME_REASONS)


def test_the_thesaurus_drops_are_refusals() -> None:
    record = paper("p1", TEXT, [Term("ZentaNet", "Method"), Term("BlorbNet", "Method")])
    admitted = admit(record, {"blorbnet": ""})
    assert _reasons(admitted) == {"BlorbNet": "thesaurus"} and len(admitted.names) == 1


def test_a_relation_is_an_edge_candidate_or_refused_with_its_reason() -> None:
    terms = [Term("ZentaNet", "Method"), Term("quorb parsing", "Task", role="mentions"), Term("34k", "Method"),
             Term("BlorbNet", "Method"), Term("ZentaNet", "Method", nth=1)]
    links = [Link("COMPARED_WITH", 0, 3, confidence=0.9), Link("COMPARED_WITH", 0, 3, confidence=0.01),
             Link("USED_FOR", 0, 1, confidence=0.9), Link("PART_OF", 2, 3, confidence=0.9),
             Link("SYNONYM_OF", 0, 3, confidence=0.7), Link("SYNONYM_OF", 0, 4, confidence=0.9)]
    admitted = admit(paper("p1", TEXT, terms, links))
    assert [(rel.type.value, rel.head, rel.tail) for rel in admitted.relations] == [("COMPARED_WITH", 0, 3)]
    assert sorted(_relation_reasons(admitted)) == [
        ("COMPARED_WITH", "ZentaNet", "BlorbNet", "below-floor"),
        ("PART_OF", "34k", "BlorbNet", "end-not-a-node"),
        ("SYNONYM_OF", "ZentaNet", "BlorbNet", "synonym-unsure"),  # ZentaNet twice is one name: no refusal
        ("USED_FOR", "ZentaNet", "quorb parsing", "no-purpose")]  # the task is only mentioned
    assert admitted.synonyms == [] and {r[3] for r in _relation_reasons(admitted)} <= set(RELATION_REASONS)
    assert admit(paper("p1", TEXT, terms, links), min_confidence=0.0).relations[1].confidence == 0.01


def test_an_end_that_is_a_piece_of_a_longer_name_is_refused() -> None:
    text = "ZentaNet improves the 2025 Zorb Elite Challenge winner."
    admitted = admit(paper("p1", text, [Term("ZentaNet", "Method"), Term("Zorb", "Method")],
                           [Link("COMPARED_WITH", 0, 1, confidence=0.9)]))
    assert _relation_reasons(admitted) == [("COMPARED_WITH", "ZentaNet", "Zorb", "fragment")]


def test_synonyms_of_one_type_merge_and_the_builder_notes_corpus_level_refusals() -> None:
    text = "FooNet (Foo Network) is evaluated with accuracy. FooNet is compared with FooNet v2 here."
    terms = [Term("FooNet", "Method"), Term("Foo Network", "Method"), Term("accuracy", "Metric"),
             Term("FooNet", "Method", nth=1), Term("FooNet v2", "Method")]
    links = [Link("SYNONYM_OF", 1, 4, confidence=0.95), Link("EVALUATED_ON", 0, 2, confidence=0.9),
             Link("COMPARED_WITH", 3, 0, confidence=0.9)]
    admitted = admit(paper("p1", text, terms, links))
    assert admitted.synonyms == [("Foo Network", "FooNet v2")]
    builder = GraphBuilder()
    builder.add(admitted)
    builder.finalize()
    reasons = {(entry.head, entry.type, entry.tail): sorted(entry.reasons)
               for entry in builder.refusals.relations.values()}
    assert reasons[("foonet", "EVALUATED_ON", "accuracy")] == ["ends-not-allowed"]  # a Metric is no Dataset
    assert reasons[("foonet", "COMPARED_WITH", "foonet")] == ["one-node"]
    assert reasons[("foo network", "SYNONYM_OF", "foonet v2")] == ["not-synonyms"]  # one is the other and more


def test_the_refusal_table_keeps_counts_first_papers_and_reads_back() -> None:
    table = RefusalTable()
    record = paper("p0", TEXT, [Term("quorb parsing", "Task")])
    for number in range(MAX_PAPERS + 2):
        refused = replace(record.entities[0], node=False, termhood="rare",
                          name="quorb parsing" if number % 2 else "Quorb parsings")
        table.add_names(admit(replace(record, paper=replace(record.paper, id=f"p{9 - number}"),
                                      entities=[refused])).refused_names)
    entry, relations = RefusalTable.from_json(table.to_json(), "t").about("QUORB PARSING")
    assert entry is not None and relations == []
    assert (entry.reasons["rare"].count, sorted(entry.reasons["rare"].papers)) == (7, ["p3", "p4", "p5", "p6", "p7"])
    assert dict(entry.forms) == {"Quorb parsings": 4, "quorb parsing": 3}
    with pytest.raises(SchemaError, match="t is not a paperkg admission table"):
        RefusalTable.from_json('{"paperkg_admission": 0}', "t")


def test_why_answers_from_the_builds_refusal_table(built: Path) -> None:
    table = json.loads((built / "admission.json").read_text(encoding="utf8"))
    refused = next(item for item in table["names"] if "rare" in item["reasons"])
    name = next(iter(refused["forms"]))
    text = run_cli("why", name, str(built)).stdout
    assert f"{name!r} was refused as a node" in text and "rare (" in text and NAME_REASONS["rare"] in text
    answer = json.loads(run_cli("why", "LLMs", str(built), "--json").stdout)
    assert answer["nodes"][0]["key"] == "method:large language model"
    assert "no node has that name" in run_cli("why", "zzyzx", str(built / "graph.json")).stdout


@pytest.mark.parametrize(("args", "message"), [
    (["", "BUILD"], "why: name a term"),
    (["LLM", "GRAPH_ELSEWHERE"], "has no admission.json beside it in a build's manifest"),
    (["LLM", "missing"], "no such file; name a graph.json"),
])
def test_why_wrong_input_is_one_sentence(built: Path, tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "graph.json").write_bytes((built / "graph.json").read_bytes())
    where = {"BUILD": str(built), "GRAPH_ELSEWHERE": str(tmp_path / "graph.json"), "missing": str(tmp_path / "no")}
    result = run_cli("why", *[where.get(arg, arg) for arg in args], check=False)
    assert result.returncode == 2 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1
