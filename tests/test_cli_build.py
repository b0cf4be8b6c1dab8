"""End-to-end: `paperkg build` on the ICML 2025 corpus and the facts the graph must hold."""
from __future__ import annotations

import json
import re
import shutil
from xml.etree import ElementTree
from collections import Counter

import networkx as nx
import pytest

from paperkg import read_records
from paperkg.graph.exports import read_graphml, read_json

from cli_helpers import run_cli

STOP_PHRASES = {"this paper", "our method", "existing approaches", "experiments", "results", "our approach",
                "the proposed method", "this work", "baselines"}


@pytest.fixture(scope="module")
def graph(built):
    return read_json(built / "graph.json")


def _entity_with_acronym(graph, acronym):
    return [d for _, d in graph.nodes(data=True) if d.get("acronym") == acronym]


@pytest.mark.slow
def test_outputs_exist(built):
    for name in ("graph.graphml", "graph.json", "graph.html", "extractions.jsonl"):
        assert (built / name).stat().st_size > 0
    lines = (built / "extractions.jsonl").read_text().splitlines()
    assert len(lines) == 57
    first = json.loads(lines[0])
    assert {"paper", "entities", "acronyms", "relations", "sentences"} <= set(first)
    evidence = first["entities"][0]
    assert {"sentence", "start", "end", "source", "confidence"} <= set(evidence)
    title = re.search(r"<title>(.*?)</title>", (built / "graph.html").read_text(encoding="utf-8")).group(1)
    assert title == "paperkg · icml2025/"  # the folder of its files, not their names


def test_57_papers_no_duplicates(graph):
    papers = [d for _, d in graph.nodes(data=True) if d["label"] == "Paper"]
    assert len(papers) == 57
    assert len({p["paper_id"] for p in papers}) == 57


@pytest.mark.parametrize("acronym, long_form", [
    ("FLeRM", "function-space learning rate matching"),
    ("MAGEP-NFN", "monomial matrix group equivariant polynomial nfn"),
    ("SIRA", "self-information rewrite attack"),
    ("FedMVC", "federated multi-view clustering"),
    ("ICRL", "inverse constrained reinforcement learning"),
    ("LLM", "large language model"),
    ("GT", "graph transformer"),
    ("ARS", "adaptive reward scaling"),
    ("NAS", "neural architecture search"),
])
def test_acronym_expansions(graph, acronym, long_form):
    nodes = _entity_with_acronym(graph, acronym)
    assert [n["long_form"].lower() for n in nodes] == [long_form]


def test_esfmc_defined_by_apposition(graph):
    (node,) = _entity_with_acronym(graph, "ESFMC")
    assert node["long_form"] == "Effective and Secure Federated Multi-view Clustering"


def test_shared_acronym_nodes_link_every_paper(graph):
    (llm,) = _entity_with_acronym(graph, "LLM")
    papers_citing = {d["paper_id"] for _, d in graph.nodes(data=True)
                     if d["label"] == "Paper"
                     and re.search(r"(?<![\w-])(LLMs?|[Ll]arge [Ll]anguage [Mm]odels?)(?![\w-])", d["abstract"])}
    linked = {graph.nodes[p]["paper_id"] for p in graph.predecessors(llm["key"]) if p.startswith("paper:")}
    assert linked == papers_citing
    (gt,) = _entity_with_acronym(graph, "GT")
    assert gt["papers"] == 2


@pytest.mark.parametrize("name", ["MAGEP-NFN", "FLeRM", "ESFMC", "QMamba", "WyFormer", "TS-SNN", "NAIAD", "ResGen",
                                  "Score-Fusion", "SDP", "STA", "ARS", "Self-REF", "FairICP", "MMedPO", "SIRA"])
def test_proposed_methods(graph, name):
    targets = [v for u, v, k in graph.edges(keys=True) if k == "PROPOSES"]
    names = {graph.nodes[v].get("acronym") for v in targets} | {graph.nodes[v]["name"] for v in targets}
    assert name in names


def test_spherical_diffusion_policy_and_sliding_tile_attention(graph):
    assert [n["long_form"] for n in _entity_with_acronym(graph, "SDP")] == ["Spherical Diffusion Policy"]
    assert [n["long_form"].lower() for n in _entity_with_acronym(graph, "STA")] == ["sliding tile attention"]


@pytest.mark.parametrize("name", ["CIFAR-10", "CIFAR-100", "ImageNet", "Meta-World"])
def test_datasets_linked_to_papers(graph, name):
    key = f"dataset:{name.lower()}"
    assert graph.nodes[key]["label"] == "Dataset"
    assert any(p.startswith("paper:") for p in graph.predecessors(key))


def test_no_stop_phrase_entities(graph):
    names = {d["name"].lower() for _, d in graph.nodes(data=True) if d["label"] != "Paper"}
    assert len(names) > 200
    assert not names & STOP_PHRASES


def test_every_edge_has_evidence(graph):
    for u, v, data in graph.edges(data=True):
        assert data["evidence"], (u, v)
        for item in data["evidence"]:
            abstract = graph.nodes[f"paper:{item['paper']}"]["abstract"]
            assert item["sentence"] in abstract
            assert 0 <= item["start"] < item["end"] <= len(abstract)


def test_graphml_reads_back_identical(built, graph):
    back = read_graphml(built / "graph.graphml")
    assert sorted(back.nodes(data=True)) == sorted(graph.nodes(data=True))
    assert sorted(back.edges(keys=True, data=True)) == sorted(graph.edges(keys=True, data=True))
    plain = nx.read_graphml(built / "graph.graphml")
    assert plain.number_of_nodes() == graph.number_of_nodes()
    assert plain.number_of_edges() == graph.number_of_edges()


def test_update_with_no_new_papers_changes_nothing(built, corpus, tmp_path):
    out = shutil.copytree(built, tmp_path / "out")
    result = run_cli("build", str(corpus), "-o", str(out), "--update")
    assert "0 new papers" in result.stdout
    for name in ("graph.graphml", "graph.json", "graph.html", "extractions.jsonl"):
        assert (out / name).read_bytes() == (built / name).read_bytes(), name


@pytest.mark.slow
def test_update_adds_only_new_papers(built, corpus, tmp_path):
    """An update extracts only the new papers and then equals a full build: a name takes the type its
    mentions in all papers vote for, so a new paper may retype a node ('kernel regression'). The first
    build holds the first file's papers (from the full build's extraction lines, not extracted again)."""
    files = sorted(corpus.glob("*.txt"))
    first_ids = {r.id for r in read_records(files[0])}
    first_lines = [line for line in (built / "extractions.jsonl").read_text(encoding="utf-8").splitlines()
                   if json.loads(line)["paper"]["id"] in first_ids]
    (tmp_path / "first.jsonl").write_text("".join(line + "\n" for line in first_lines), encoding="utf-8")
    out = tmp_path / "out"
    run_cli("build", "--from-extractions", str(tmp_path / "first.jsonl"), "-o", str(out))
    first = read_json(out / "graph.json")
    result = run_cli("build", *map(str, files), "-o", str(out), "--update")
    assert f"{57 - len(first_lines)} new papers" in result.stdout
    grown = read_json(out / "graph.json")
    papers = Counter(d["label"] for _, d in grown.nodes(data=True))["Paper"]
    assert papers == 57
    assert {n for n, d in first.nodes(data=True) if d["label"] == "Paper"} <= set(grown.nodes)
    assert set(first_lines) <= set((out / "extractions.jsonl").read_text(encoding="utf-8").splitlines())
    for name in ("graph.graphml", "graph.json"):
        assert (out / name).read_bytes() == (built / name).read_bytes(), name


def test_stats_and_export(built, tmp_path):
    result = run_cli("stats", str(built / "graph.json"), "--json")
    stats = json.loads(result.stdout)
    assert stats["nodes"]["Paper"] == 57
    run_cli("export", str(built / "graph.json"), "--format", "gexf", "-o", str(tmp_path / "g.gexf"))
    nodes = [e for e in ElementTree.parse(tmp_path / "g.gexf").iter() if e.tag.endswith("}node")]
    assert len(nodes) == sum(stats["nodes"].values())  # (networkx reads GEXF 1.3 from 3.6 on: test_exports_readers)
    run_cli("export", str(built / "graph.json"), "--format", "csv", "-o", str(tmp_path))
    assert (tmp_path / "nodes.csv").read_text().startswith("id,label,node_type,name,")


def test_missing_input_is_one_clear_error(tmp_path):
    result = run_cli("build", str(tmp_path / "nope.txt"), "-o", str(tmp_path / "out"), check=False)
    assert result.returncode == 2
    assert "nope.txt" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_lines_warn_and_exit_3(tmp_path):
    bad = tmp_path / "papers.jsonl"
    bad.write_text('{"id": "a1", "abstract": "We propose FooNet, a novel framework for image classification."}\n'
                   '{not json\n')
    result = run_cli("build", str(bad), "-o", str(tmp_path / "out"), check=False)
    assert result.returncode == 3
    assert "papers.jsonl:2" in result.stderr
    assert read_json(tmp_path / "out" / "graph.json").has_node("paper:a1")


def test_thesaurus_merges_and_drops_at_build_time(built, tmp_path):
    thesaurus = tmp_path / "thesaurus.tsv"
    thesaurus.write_text("label\treplace by\nGraph Transformers\tTransformer\nneural network\t\n")
    run_cli("build", "--from-extractions", str(built / "extractions.jsonl"), "-o", str(tmp_path / "out"),
            "--thesaurus", str(thesaurus))
    graph = read_json(tmp_path / "out" / "graph.json")
    assert "method:graph transformer" not in graph
    assert "method:neural network" not in graph
    assert graph.nodes["method:transformer"]["papers"] >= 2
