"""A graph a test trusts as what paperkg makes is made by GraphBuilder from Extraction records (tests/records.py):
a graph assembled by hand in tests/ fails here unless it is one of the deliberate cases listed below."""
from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
GRAPH_CLASSES = frozenset({"Graph", "DiGraph", "MultiGraph", "MultiDiGraph"})
ADDING = frozenset({"add_node", "add_edge", "add_nodes_from", "add_edges_from", "add_weighted_edges_from"})
MAY_BUILD = re.compile(r"\badd_\w+\(|Graph\(")  # files without it are not parsed (the suite is kept fast)
_REORDERED = "a builder graph copied with its nodes and edges in another order"
_SHARED_KEY = "a builder node copied under another id with the same key: a graph the push must refuse"

# (file, function) of each graph made by hand on purpose, and why
DELIBERATE: dict[tuple[str, str], str] = {
    ("test_graph_memory.py", "test_louvain_finds_networkx_partition"): "a weighted graph for NetworkX's Louvain",
    ("test_views.py", "test_same_graph_gives_identical_bytes"): _REORDERED,
    ("test_stream_writers.py", "test_same_graph_built_in_another_order_gives_the_same_bytes"): _REORDERED,
    ("test_neo4j_first_push.py", "test_first_push_of_rows_sharing_a_key_folds_them_as_merge_does"): _SHARED_KEY,
    ("test_neo4j_push.py", "test_counts_that_differ_from_the_graph_sent_fail_loudly"): _SHARED_KEY,
}


def hand_made(source: str, file: str) -> set[tuple[str, str]]:
    """(file, innermost function or '<module>') of each NetworkX graph made empty and each node or edge added
    by hand in the source; a copy (`nx.MultiDiGraph(graph)`, `graph.copy()`) and attribute edits are no
    hand-made graph."""
    found: set[tuple[str, str]] = set()

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call) and _builds(child):
                found.add((file, where))
            visit(child, where)

    visit(ast.parse(source), "<module>")
    return found


def _builds(call: ast.Call) -> bool:
    """Whether the call adds a node or edge, or makes a NetworkX graph from nothing."""
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    if name in ADDING:
        return True
    return name in GRAPH_CLASSES and not call.args


def test_the_check_finds_graphs_made_by_hand_and_passes_copies() -> None:
    source = '''
import networkx as nx
from networkx import MultiDiGraph
top = nx.Graph()
def made():
    graph = MultiDiGraph(paperkg_schema=4)
    def inner():
        graph.add_edge("a", "b", type="USES")
def copied(graph):
    return nx.MultiDiGraph(graph), graph.copy(), graph.subgraph(["a"])
def edited(graph):
    graph.nodes["a"]["label"] = "Task"
'''
    assert hand_made(source, "x.py") == {("x.py", "<module>"), ("x.py", "made"), ("x.py", "inner")}


def test_no_graph_is_made_by_hand_outside_the_deliberate_cases() -> None:
    sources = {path.name: path.read_text(encoding="utf8") for path in TESTS.glob("*.py")}
    found = set().union(*(hand_made(text, name) for name, text in sources.items() if MAY_BUILD.search(text)))
    assert not found - DELIBERATE.keys(), (
        f"{sorted(found - DELIBERATE.keys())} make a graph by hand: build it with records.build from Extraction "
        "records (tests/records.py), or if paperkg would never make it on purpose, list it in DELIBERATE with why")
    assert not DELIBERATE.keys() - found, f"{sorted(DELIBERATE.keys() - found)} make no graph by hand: unlist them"
