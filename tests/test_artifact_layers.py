"""The build's derived layers (orchestrate/artifact.py): trends.json, views.json and admission.json are
committed with the graph under the manifest, equal what would be computed from the graph, and `paperkg trends`,
`view`, `export --map` and `push` read them: on a committed build they run no trends, metrics, communities or
layout (the calls are counted)."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from cli_helpers import run_cli
from trends_fixtures import write_dated_corpus

from paperkg.core.manifest import read_manifest
from paperkg.graph.exports import read_graph
from paperkg.graph.trends import trends
from paperkg.orchestrate.artifact import LAYERS, trends_layer, views_layer
from paperkg.viz.entity_map import index_entities
from paperkg.viz.map_page import plan_map
from paperkg.viz.options import DEFAULT_VIEW
from paperkg.viz.views import map_selection

pytestmark = pytest.mark.slow
# What a command must not run on a committed build: trends, graph metrics and communities, the views' communities
# (Louvain where the map and the paper view call it), layouts.
COUNTED = (("paperkg.graph.trends", "compute_trends"), ("paperkg.graph.metrics", "add_metrics"),
           ("paperkg.graph.metrics", "louvain_communities"), ("paperkg.viz.map_page", "louvain"),
           ("paperkg.viz.papers_page", "louvain"), ("paperkg.viz.layout", "force_layout"))


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("layers")
    run_cli("build", str(write_dated_corpus(folder / "dated.jsonl")), "-o", str(folder / "out"), "--no-model")
    return folder / "out"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often each function of COUNTED runs (every call still does its work)."""
    import importlib

    counted: Counter[str] = Counter()
    for module_name, name in COUNTED:
        module = importlib.import_module(module_name)
        original = getattr(module, name)

        def counting(*args, _original=original, _name=name, **kwargs):
            counted[_name] += 1
            return _original(*args, **kwargs)
        monkeypatch.setattr(module, name, counting)
    return counted


def test_the_layers_are_committed_and_equal_what_the_graph_gives(dated: Path) -> None:
    manifest = read_manifest(dated)
    assert manifest is not None and set(LAYERS) <= set(manifest.files)
    graph = read_graph(dated)
    assert trends_layer(dated / "graph.json") == trends(graph)
    layer = views_layer(dated / "graph.json")
    assert layer is not None and layer.serves(DEFAULT_VIEW)
    index = index_entities(graph)
    plan = plan_map(index, map_selection(index, DEFAULT_VIEW), DEFAULT_VIEW.size_by)
    assert layer.map_plan.clusters == plan.clusters and layer.map_plan.related == plan.related
    assert sorted(layer.map_plan.links.edges(data=True)) == sorted(plan.links.edges(data=True))
    assert layer.map_positions == plan.layout().run()


def test_trends_view_and_export_on_a_committed_build_recompute_nothing(dated: Path, tmp_path: Path,
                                                                       calls: Counter[str]) -> None:
    run_cli("trends", str(dated))
    report = json.loads(run_cli("trends", str(dated / "graph.json"), "--json", "-o", str(tmp_path / "t.html")).stdout)
    run_cli("view", str(dated), "-o", str(tmp_path / "views"))
    run_cli("export", str(dated), "--map", "-o", str(tmp_path / "map.graphml"))
    run_cli("why", "BERT", str(dated))
    assert calls == Counter(), f"a command recomputed: {dict(calls)}"
    assert "method:bert" in report["bursts"]
    assert _data(tmp_path / "views" / "graph.html")["nodes"] == _data(dated / "graph.html")["nodes"]


def test_other_options_or_a_graph_without_its_build_compute(dated: Path, tmp_path: Path, calls: Counter[str]) -> None:
    run_cli("trends", str(dated), "--since", "2015")
    assert calls["compute_trends"] == 1
    run_cli("view", str(dated), "--size-by", "degree", "-o", str(tmp_path / "degree"))
    assert calls["louvain"] == 2 and calls["force_layout"] == 2  # the map and the papers view
    shutil.copy(dated / "graph.json", tmp_path / "graph.json")  # no manifest beside it: no layers
    run_cli("view", str(tmp_path / "graph.json"), "-o", str(tmp_path / "copy"))
    assert calls["louvain"] == 4 and calls["add_metrics"] == 0


@pytest.mark.neo4j
def test_push_on_a_committed_build_recomputes_no_trends(dated: Path, clean_neo4j, calls: Counter[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", clean_neo4j.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", clean_neo4j.password)
    run_cli("push", str(dated))
    assert calls == Counter(), f"the push recomputed: {dict(calls)}"
    [bert] = json.loads(run_cli("query", "entered_in", "--param", "year=2019", "--json").stdout)
    assert (bert["key"], bert["burst_start"], bert["burst_end"]) == ("method:bert", 2019, 2020)


def _data(page: Path) -> dict:
    text = page.read_text(encoding="utf8")
    return json.loads(text.split('<script id="graph-data" type="application/json">')[1].split("</script>")[0])
