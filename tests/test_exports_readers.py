"""The exports opened by the programs people open them in: the Gephi toolkit 0.10.1 (the importer
Gephi Desktop uses, run as a small Java program, tests/java/GephiImport.java), python-igraph and
networkx. Every node must be labelled by its name, every edge carry its relation type (Gephi's
edge kind and the `interaction` column), with no SEVERE import issue and no warning."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

import networkx as nx
import pytest
from cli_helpers import ROOT, run_cli

from paperkg.core.schema import NodeLabel, RelType
from paperkg.graph.exports import read_graph

GEPHI_JAR = Path(os.environ.get("PAPERKG_GEPHI_JAR", ROOT / ".gephi" / "gephi-toolkit-0.10.1-all.jar"))
CHECKER = ROOT / "tests" / "java" / "GephiImport.java"
# A short run: the client compiler only and the serial collector take about half the CPU of the JVM's defaults
# (C2 compiling and parallel GC threads do not pay off in a few seconds); what the toolkit reads is the same.
SHORT_RUN_FLAGS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
JVM_FLAGS = ["-Djava.awt.headless=true", *SHORT_RUN_FLAGS]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def exported(built, tmp_path_factory) -> dict[str, Path]:
    """The example build's GraphML (as the build writes it), its GEXF and its entity map in both."""
    out = tmp_path_factory.mktemp("exports")
    graph = built / "graph.json"
    run_cli("export", str(graph), "-o", str(out / "graph.gexf"))
    run_cli("export", str(graph), "--map", "-o", str(out / "map.graphml"))
    run_cli("export", str(graph), "--map", "-o", str(out / "map.gexf"))
    run_cli("export", str(graph), "--format", "csv", "-o", str(out / "csv"))
    return {"graphml": built / "graph.graphml", "gexf": out / "graph.gexf",
            "map.graphml": out / "map.graphml", "map.gexf": out / "map.gexf", "edges.csv": out / "csv" / "edges.csv"}


@pytest.fixture(scope="module")
def gephi(exported) -> dict[str, dict]:
    """What the Gephi toolkit made of each exported file, by the `exported` key: one JVM imports them all
    (tests/java/GephiImport.java, run from source), as starting the toolkit is most of an import's time."""
    if not GEPHI_JAR.is_file():
        pytest.fail(f"{GEPHI_JAR} is missing: scripts/test.sh fetches it (or set PAPERKG_GEPHI_JAR)")
    if shutil.which("java") is None:
        pytest.fail("java is missing: the Gephi check needs a JDK 17 (scripts/neo4j.sh needs one too)")
    classes = _compiled_checker()
    result = subprocess.run(["java", *JVM_FLAGS, "-cp", f"{GEPHI_JAR}{os.pathsep}{classes}", CHECKER.stem,
                             *map(str, exported.values())], capture_output=True, text=True, check=True, timeout=600)
    return dict(zip(exported, map(json.loads, result.stdout.splitlines()), strict=True))


def _compiled_checker() -> Path:
    """The folder holding GephiImport.class, compiled once per version of its source beside the toolkit jar (.gephi/,
    which git ignores): run from source, the JVM compiles it on every run, about 1.7 s of CPU of the 3 s a run took."""
    digest = hashlib.sha256(CHECKER.read_bytes() + GEPHI_JAR.name.encode()).hexdigest()[:16]
    classes = ROOT / ".gephi" / f"classes-{digest}"
    if not (classes / f"{CHECKER.stem}.class").is_file():
        classes.parent.mkdir(exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix="classes-", dir=classes.parent))
        subprocess.run(["javac", *(f"-J{flag}" for flag in SHORT_RUN_FLAGS), "-cp", str(GEPHI_JAR), "-d", str(partial),
                        str(CHECKER)], capture_output=True, text=True, check=True, timeout=600)
        try:
            partial.rename(classes)  # whole, or not at all: another run may have put it there meanwhile
        except OSError:
            shutil.rmtree(partial)
    return classes


@pytest.fixture(scope="module")
def names(built) -> dict[str, str]:
    graph = read_graph(built / "graph.json")
    return {key: data["name"] for key, data in graph.nodes(data=True)}


@pytest.mark.gephi
@pytest.mark.parametrize("which", ["graphml", "gexf"])
def test_gephi_labels_every_node_by_its_name_and_every_edge_by_its_relation(gephi, names, which):
    found = gephi[which]
    assert found["severe"] == 0, [issue for issue in found["issues"] if issue["level"] == "SEVERE"]
    assert {node["id"]: node["label"] for node in found["nodes"]} == names
    types = {label.value for label in NodeLabel}
    assert {node["attributes"]["node_type"] for node in found["nodes"]} <= types
    relations = {rel.value for rel in RelType}
    assert found["edges"] and all(edge["kind"] in relations for edge in found["edges"])
    assert all(edge["attributes"]["interaction"] == edge["kind"] for edge in found["edges"])
    assert "label" not in {column.lower() for column in found["node_columns"]} - {"label"}
    assert "type" not in found["edge_columns"]


@pytest.mark.gephi
@pytest.mark.parametrize("which", ["map.graphml", "map.gexf"])
def test_gephi_reads_the_entity_map_with_links_positions_and_communities(gephi, names, which):
    found = gephi[which]
    assert found["severe"] == 0, [issue for issue in found["issues"] if issue["level"] == "SEVERE"]
    assert found["nodes"] and all(node["label"] == names[node["id"]] for node in found["nodes"])
    assert all(edge["kind"] for edge in found["edges"]) and not any(edge["directed"] for edge in found["edges"])
    assert all(edge["weight"] == edge["attributes"]["papers"] >= 1 for edge in found["edges"])
    assert {"community", "papers", "node_type"} <= set(found["node_columns"])
    assert len({(node["x"], node["y"]) for node in found["nodes"]}) == len(found["nodes"])  # laid out, not piled


@pytest.mark.gephi
def test_gephi_spreadsheet_import_takes_the_csv_kind_column_as_the_edge_kind(gephi, built):
    found = gephi["edges.csv"]
    assert found["severe"] == 0
    relations = {rel.value for rel in RelType}
    assert len(found["edges"]) == read_graph(built).number_of_edges()
    assert all(edge["kind"] in relations and edge["directed"] for edge in found["edges"])


@pytest.mark.parametrize("which", ["graphml", "map.graphml"])
def test_igraph_and_networkx_read_graphml_without_a_warning(exported, which):
    igraph = pytest.importorskip("igraph")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = igraph.Graph.Read_GraphML(str(exported[which]))
        plain = nx.read_graphml(exported[which])
    assert loaded.vcount() == plain.number_of_nodes() > 0
    assert loaded.ecount() == plain.number_of_edges() > 0
    assert set(loaded.vs["label"]) == {data["label"] for _, data in plain.nodes(data=True)}
    assert all(kind for kind in loaded.es["interaction"])


@pytest.mark.skipif(tuple(int(x) for x in nx.__version__.split(".")[:2]) < (3, 6),
                    reason="networkx reads GEXF 1.3 from 3.6 on (the lowest-versions job has an older one)")
@pytest.mark.parametrize("which", ["gexf", "map.gexf"])
def test_networkx_reads_gexf_1_3_without_a_warning(exported, names, which):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        graph = nx.read_gexf(exported[which], version="1.3")
    assert graph.number_of_edges() > 0
    assert all(data["label"] == names[node] for node, data in graph.nodes(data=True))
    assert all(data["interaction"] for *_, data in graph.edges(data=True))


def test_gexf_has_no_date_and_the_same_graph_gives_the_same_bytes(built, exported, tmp_path):
    text = exported["gexf"].read_text(encoding="utf8")
    assert "lastmodifieddate" not in text and 'version="1.3"' in text
    run_cli("export", str(built / "graph.json"), "-o", str(tmp_path / "again.gexf"))
    assert (tmp_path / "again.gexf").read_bytes() == exported["gexf"].read_bytes()


def test_vosviewer_map_and_network_files_hold_the_map_gephi_reads(built, exported, tmp_path):
    """No VOSviewer here to open them: the files follow its documented layout (a tab-separated map
    file with a header, integer ids, clusters 1-1000; a network file of id, id, strength) and hold
    the same entities and links as the map's GraphML."""
    run_cli("export", str(built), "--map", "--format", "vosviewer", "-o", str(tmp_path))
    header, *rows = [line.split("\t") for line in (tmp_path / "map.txt").read_text(encoding="utf8").splitlines()]
    assert header[:6] == ["id", "label", "description", "x", "y", "cluster"]
    assert [int(row[0]) for row in rows] == list(range(1, len(rows) + 1))
    assert all(1 <= int(row[5]) <= 1000 for row in rows)
    links = [tuple(map(float, line.split("\t"))) for line in (tmp_path / "network.txt").read_text().splitlines()]
    plain = nx.read_graphml(exported["map.graphml"])
    assert sorted(row[1].strip('"') for row in rows) == sorted(data["label"] for _, data in plain.nodes(data=True))
    assert len(links) == plain.number_of_edges()
    assert sum(strength for *_, strength in links) == sum(data["weight"] for *_, data in plain.edges(data=True))
