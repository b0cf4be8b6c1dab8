"""The graph model (core/graph_model.py) is what the builder writes and the one set of names the sinks read:
the example build's nodes and edges carry exactly the model's attributes, describe() covers them for the
reference page, and no sink, view or command reads a node's or edge's attributes except through the model's
typed accessors (whose keys mypy checks against the model)."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from cli_helpers import ROOT

from paperkg.core import graph_model as model
from paperkg.core.schema import ENTITY_REL_TYPES, PAPER_REL_TYPES, NodeLabel

# Modules that write the graph (they set attributes) or read an exchange format back into the model.
WRITERS = {"graph/builder.py", "graph/metrics.py"}
SINK_FOLDERS = ("graph", "viz", "cypher", "orchestrate", "shell")
RAW_VIEWS = {"nodes", "edges", "adj", "succ", "pred"}
RAW_CALLS = {"nodes", "edges", "out_edges", "in_edges"}
VIEW_METHODS = {"data", "items", "values"}
ATTRIBUTE_FUNCTIONS = {"get_node_attributes", "get_edge_attributes"}


@pytest.fixture(scope="module")
def saved(built: Path) -> dict:
    return json.loads((built / "graph.json").read_text(encoding="utf8"))


def test_the_build_writes_exactly_the_models_attributes(saved: dict) -> None:
    records = {NodeLabel.PAPER.value: model.PaperNode, NodeLabel.RESULT.value: model.ResultNode}
    for node in saved["nodes"]:
        record = records.get(node["label"], model.EntityNode)
        assert set(node) - {"id"} <= model.field_names(record), node["id"]
        assert record.__required_keys__ <= set(node), node["id"]
    assert any(node["label"] == NodeLabel.RESULT.value for node in saved["nodes"])
    edge_fields, evidence_fields = model.field_names(model.EdgeAttrs), model.field_names(model.Evidence)
    for edge in saved["edges"]:
        assert set(edge) - {"source", "target", "key"} <= edge_fields and model.EdgeAttrs.__required_keys__ <= set(edge)
        assert all(set(item) == evidence_fields for item in edge["evidence"])
    assert set(saved["graph"]) == model.field_names(model.GraphAttrs)


def test_describe_gives_every_record_field_label_and_relationship_type() -> None:
    found = model.describe()
    assert found.labels == tuple(label.value for label in NodeLabel)
    records = {record.name: record for record in found.records}
    assert set(records) == {"PaperNode", "EntityNode", "ResultNode", "EdgeAttrs", "Evidence", "GraphAttrs"}
    for record in model.RECORDS:
        described = records[record.__name__]
        assert described.description and {field.name for field in described.fields} == model.field_names(record)
        assert all(field.description and field.type for field in described.fields)
        assert {field.name for field in described.fields if field.required} == record.__required_keys__
    assert {"name": "evidence", "type": "list[Evidence]"}.items() <= vars(
        next(field for field in records["EdgeAttrs"].fields if field.name == "evidence")).items()
    assert [relation.type for relation in found.relations] == [
        "PROPOSES", "EVALUATES_ON", "ADDRESSES", "MENTIONS", *(kind.value for kind in ENTITY_REL_TYPES),
        "REPORTS", "FOR_METHOD", "ON_DATASET", "WITH_METRIC", "ON_TASK"]
    reports = next(relation for relation in found.relations if relation.type == "REPORTS")
    assert reports.ends == (("Paper", "Result"),)
    assert {relation.type for relation in found.relations[:4]} == {kind.value for kind in PAPER_REL_TYPES}
    used_for = next(relation for relation in found.relations if relation.type == "USED_FOR")
    assert used_for.ends == (("Method", "Method"), ("Method", "Task")) and not used_for.symmetric


def _raw_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, code) of each read of a knowledge graph's node or edge attributes that bypasses the model's
    accessors: `G.nodes[...]`, `G.edges[...]`, `G.succ[...]`, `G.nodes(data=...)`, `G.edges(..., data=...)`,
    `G.get_edge_data(...)`, `G.nodes.data()` / `.items()` / `.values()` (of any view), `nx.get_node_attributes(G, ...)`,
    `nx.get_edge_attributes(G, ...)`, where G is a parameter typed nx.MultiDiGraph, a name assigned from `X.graph`, or
    `X.graph` itself."""
    found = []
    for function in (node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
        names = {arg.arg for arg in [*function.args.args, *function.args.kwonlyargs]
                 if arg.annotation is not None and "MultiDiGraph" in ast.unparse(arg.annotation)}
        names |= {target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
                  and isinstance(node.value, ast.Attribute) and node.value.attr == "graph"
                  for target in node.targets if isinstance(target, ast.Name)}
        found += [(node.lineno, ast.unparse(node)) for node in ast.walk(function) if _raw(node, names)]
    return sorted(found)


def _raw(node: ast.AST, graphs: set[str]) -> bool:
    """Whether `node` reads attributes of one of the knowledge graphs `graphs` (or of an `X.graph`) raw."""
    if isinstance(node, ast.Call) and _view_method(node.func, graphs):  # G.nodes.data(), G.edges.items(), ...
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and node.args \
            and ast.unparse(node.func).split(".")[-1] in ATTRIBUTE_FUNCTIONS:  # nx.get_node_attributes(G, ...)
        return _is_graph(node.args[0], graphs)
    view = node.value if isinstance(node, ast.Subscript) else node.func if isinstance(node, ast.Call) else None
    if not isinstance(view, ast.Attribute) or not _is_graph(view.value, graphs):
        return False
    if isinstance(node, ast.Subscript):
        return view.attr in RAW_VIEWS
    return isinstance(node, ast.Call) and (view.attr == "get_edge_data" or view.attr in RAW_CALLS
                                           and any(keyword.arg == "data" for keyword in node.keywords))


def _is_graph(node: ast.AST, graphs: set[str]) -> bool:
    """Whether `node` is one of the names `graphs` or an `X.graph`."""
    return isinstance(node, ast.Name) and node.id in graphs or isinstance(node, ast.Attribute) and node.attr == "graph"


def _view_method(func: ast.AST, graphs: set[str]) -> bool:
    """Whether `func` is a reading method of a graph's node or edge view: `G.nodes.data`, `G.edges.items`, ..."""
    return isinstance(func, ast.Attribute) and func.attr in VIEW_METHODS and isinstance(func.value, ast.Attribute) \
        and func.value.attr in RAW_VIEWS and _is_graph(func.value.value, graphs)


def test_no_sink_reads_a_graph_attribute_but_through_the_model() -> None:
    offending = []
    for folder in SINK_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if name not in WRITERS:
                offending += [f"{name}:{line}: {code}" for line, code in _raw_reads(ast.parse(path.read_text()))]
    assert offending == [], "read node and edge attributes through paperkg.core.graph_model:\n" + "\n".join(offending)


def test_the_walker_finds_raw_reads() -> None:
    code = ("def f(graph: nx.MultiDiGraph, index):\n    g = index.graph\n    a = graph.nodes[1]['name']\n"
            "    b = g.edges(data=True)\n    c = index.graph.get_edge_data(1, 2)\n    d = graph.edges(keys=True)\n"
            "    e = graph.nodes.data('name')\n    f = dict(index.graph.edges.items())\n"
            "    h = nx.get_node_attributes(graph, 'label')\n    i = rows.nodes.items()\n    j = list(graph.nodes)\n")
    assert [line for line, _ in _raw_reads(ast.parse(code))] == [3, 4, 5, 7, 8, 9]
