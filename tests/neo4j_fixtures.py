"""Fixtures for the tests that need the real Neo4j server (marked `neo4j`).

The tests use only a server they started: scripts/neo4j.sh runs it from a home of their own
(`TEST_HOME`: .neo4j/tests beside the jars, or PAPERKG_TEST_NEO4J_HOME) on Bolt and HTTP ports of their own
(free ports picked at the start, or NEO4J_BOLT_PORT and NEO4J_HTTP_PORT), never 7687 unless named. A server
that answers on those ports and is not the test home's fails the run in one sentence, untouched; the test
home's server left running by an earlier run (PAPERKG_NEO4J_KEEP=1) is used again. `neo4j_server` starts it
once for the run's pytest-xdist workers, and the last worker stops what the run started; `neo4j_turn`
(autouse, conftest.py) gives each `neo4j` module the database to itself. `clean_neo4j` empties the database
before a test.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import socket
import subprocess
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import pytest

if TYPE_CHECKING:  # conftest imports this module: the driver and NetworkX load when a Neo4j test runs
    import networkx as nx

    from paperkg.core.schema import Extraction
    from paperkg.cypher.writer import Neo4jTarget

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "neo4j.sh"
JARS_HOME = Path(os.environ.get("PAPERKG_NEO4J_HOME") or ROOT / ".neo4j")  # where scripts/test.sh installs the jars
TEST_HOME = Path(os.environ.get("PAPERKG_TEST_NEO4J_HOME") or JARS_HOME / "tests")
PASSWORD = os.environ.get("NEO4J_PASSWORD", "paperkg-neo4j")
OTHER_LABEL = "PaperkgTestOther"  # a label that is not paperkg's, for the --replace test


@dataclass(frozen=True)
class TestServer:
    """The tests' server: its home, its ports, and whether this run started it (and so stops it)."""

    __test__ = False  # not a test class, whatever its name
    home: str
    bolt: int
    http: int
    started: bool = False

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt}"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:port."""
    with socket.socket() as sock:
        sock.settimeout(2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def neo4j_script(command: str, home: Path, bolt: int, http: int, **env: str) -> subprocess.CompletedProcess:
    """Run `scripts/neo4j.sh COMMAND` for the server of `home` on these ports (its jars shared with JARS_HOME's)."""
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "lib").exists() and (JARS_HOME / "lib").is_dir() and home != JARS_HOME:
        (home / "lib").symlink_to((JARS_HOME / "lib").resolve(), target_is_directory=True)
    variables = {**os.environ, "PAPERKG_NEO4J_HOME": str(home), "NEO4J_BOLT_PORT": str(bolt),
                 "NEO4J_HTTP_PORT": str(http), "NEO4J_PASSWORD": PASSWORD, **env}
    return subprocess.run(["bash", str(SCRIPT), command], env=variables, capture_output=True, text=True,
                          timeout=900)


def _running_ports(home: Path) -> tuple[int, int] | None:
    """The Bolt and HTTP ports of the server running from `home` (its pid file names a live process), else None."""
    try:
        os.kill(int((home / "run" / "neo4j.pid").read_text().split()[0]), 0)
        conf = (home / "conf" / "neo4j.conf").read_text(encoding="utf8")
    except (OSError, ValueError):
        return None
    ports = [re.search(rf"^server\.{kind}\.listen_address=.*:(\d+)$", conf, re.M) for kind in ("bolt", "http")]
    return (int(ports[0].group(1)), int(ports[1].group(1))) if ports[0] and ports[1] else None


def _start_test_server() -> TestServer:
    """Start the tests' server (or find the test home's, still running); fail, touching nothing, when another
    server answers on the ports the tests would use."""
    running = _running_ports(TEST_HOME)
    named = os.environ.get("NEO4J_BOLT_PORT"), os.environ.get("NEO4J_HTTP_PORT")
    bolt = int(named[0]) if named[0] else running[0] if running else free_port()
    http = int(named[1]) if named[1] else running[1] if running else free_port()
    if running == (bolt, http):
        return TestServer(str(TEST_HOME), bolt, http, started=False)
    if running:
        pytest.fail(f"the tests' Neo4j server in {TEST_HOME} runs on ports {running[0]}/{running[1]}, not "
                    f"{bolt}/{http}; stop it (PAPERKG_NEO4J_HOME={TEST_HOME} bash scripts/neo4j.sh stop) or name "
                    "its ports in NEO4J_BOLT_PORT and NEO4J_HTTP_PORT.")
    for port in (bolt, http):
        if answers(port):
            pytest.fail(f"a server the tests did not start answers on 127.0.0.1:{port}, and the tests write only to "
                        "their own: unset NEO4J_BOLT_PORT and NEO4J_HTTP_PORT (free ports are picked) or name free "
                        "ones.")
    result = neo4j_script("start", TEST_HOME, bolt, http)
    if result.returncode != 0:
        pytest.fail(f"scripts/neo4j.sh start failed:\n{result.stdout}\n{result.stderr}")
    return TestServer(str(TEST_HOME), bolt, http, started=True)


@contextmanager
def _held(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Path]:
    """An exclusive lock that the pytest-xdist workers of one run share (a file in their common temp
    folder); yields that folder."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield shared
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestServer]:
    """The tests' own Neo4j 5, shared by the run's workers: the first starts it, the last to finish stops it
    when the run started it (unless PAPERKG_NEO4J_KEEP=1)."""
    with _held(tmp_path_factory, "neo4j-server") as shared:
        users, record = shared / "neo4j-users", shared / "neo4j-server.json"
        if record.exists():
            server = TestServer(**json.loads(record.read_text()))
        else:
            server = _start_test_server()
            record.write_text(json.dumps(asdict(server)))
        users.write_text(str(int(users.read_text() if users.exists() else 0) + 1))
    yield server
    with _held(tmp_path_factory, "neo4j-server"):
        users.write_text(str(int(users.read_text()) - 1))
        if users.read_text() == "0" and server.started and not os.environ.get("PAPERKG_NEO4J_KEEP"):
            neo4j_script("stop", Path(server.home), server.bolt, server.http)


@pytest.fixture(scope="session")
def neo4j_target(neo4j_server: TestServer) -> Neo4jTarget:
    """The settings that reach the tests' server."""
    from paperkg.cypher.writer import Neo4jTarget

    return Neo4jTarget(uri=neo4j_server.uri, user="neo4j", password=PASSWORD)


@pytest.fixture(scope="module", autouse=True)
def neo4j_turn(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A module marked `neo4j`, or holding a test so marked, has the database to itself while it runs: the modules
    share one database, and pytest-xdist (--dist loadfile) may hand two of them to two workers at once."""
    if not any(item.get_closest_marker("neo4j") for item in request.session.items
               if getattr(item, "module", None) is request.module):
        yield
        return
    with _held(tmp_path_factory, "neo4j-database"):
        yield


def run_cypher(target: Neo4jTarget, text: str, **params) -> list[dict]:
    """Rows of one auto-commit query, as dicts (for test setup and assertions)."""
    from neo4j import GraphDatabase

    with GraphDatabase.driver(target.uri, auth=(target.user, target.password),
                              notifications_min_severity="OFF") as driver:
        with driver.session(database=target.database) as session:
            return [record.data() for record in session.run(text, params)]


def run_query(target: Neo4jTarget, query_name: str, /, **overrides: Any) -> list[dict[str, Any]]:
    """Rows of the library's named query with its defaults, overridden by `overrides` (given as text)."""
    from paperkg.cypher.library import load_query
    from paperkg.cypher.runner import run_named_query

    query = load_query(query_name)
    return run_named_query(query, target, query.parameters({k: str(v) for k, v in overrides.items()}))


def server_graph(target: Neo4jTarget, unordered: tuple[str, ...] = ()) -> tuple[list, list]:
    """Every paperkg node and relationship with its properties, sorted (the push stamps first_push and last_push
    aside; the list properties named in `unordered` compared as sets)."""
    from paperkg.cypher.rows import NODE_LABELS

    labels = "|".join(NODE_LABELS)
    nodes = run_cypher(target, f"MATCH (n:{labels}) RETURN labels(n) AS labels, properties(n) AS props")
    rels = run_cypher(target, f"MATCH (s:{labels})-[r]->(t) "
                              "RETURN type(r) AS type, s.key AS source, t.key AS target, properties(r) AS props")

    def plain(props: dict) -> list:
        return sorted((name, sorted(value) if name in unordered else value)
                      for name, value in props.items() if name not in ("first_push", "last_push"))

    return (sorted((row["labels"], plain(row["props"])) for row in nodes),
            sorted((row["type"], row["source"], row["target"], plain(row["props"])) for row in rels))


def empty_database(target: Neo4jTarget) -> None:
    """Delete every node of the tests' database (a second guard beside the server's own: not when it holds
    labels other than paperkg's and the tests')."""
    from paperkg.cypher.rows import NODE_LABELS
    from paperkg.cypher.writer import PUSH_LABEL

    labels = {row["label"] for row in run_cypher(target, "CALL db.labels() YIELD label RETURN label")}
    foreign = labels - set(NODE_LABELS) - {PUSH_LABEL, OTHER_LABEL}
    if foreign:
        pytest.fail(f"the Neo4j database at {target.uri} holds nodes labelled {sorted(foreign)}, "
                    "which the tests would delete.")
    run_cypher(target, "MATCH ()-[r]->() CALL (r) { DELETE r } IN TRANSACTIONS OF 5000 ROWS")
    run_cypher(target, "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS")


@pytest.fixture
def clean_neo4j(neo4j_target: Neo4jTarget) -> Neo4jTarget:
    """The server with an empty database (paperkg's schema may stay)."""
    empty_database(neo4j_target)
    return neo4j_target


def linked(graph: nx.MultiDiGraph, source: str, *types: str) -> set[str]:
    """Targets of `source`'s edges of the given types."""
    return {target for _, target, key in graph.out_edges(source, keys=True) if key in types}


def without_paper(graph: nx.MultiDiGraph, paper: str) -> nx.MultiDiGraph:
    """The graph as built before `paper` arrived: the paper gone, and every entity no other paper links to."""
    smaller = graph.copy()
    smaller.remove_node(paper)
    smaller.remove_nodes_from([node for node, data in graph.nodes(data=True) if node != paper
                               and data["label"] != "Paper"
                               and not any(smaller.nodes[p]["label"] == "Paper" for p in smaller.predecessors(node))])
    return smaller


def replicate(records: Sequence[Extraction], copies: int) -> nx.MultiDiGraph:
    """The builder's graph of `copies` copies of the records, copy n's papers under the ids '<id>-<n>'.

    Entities are shared: paper -> entity relationships multiply with the copies, entity -> entity ones
    gain count and evidence, as in a larger corpus that keeps finding the same methods and tasks.
    """
    from dataclasses import replace

    from records import build

    return build(replace(record, paper=replace(record.paper, id=f"{record.paper.id}-{copy}"))
                 for copy in range(copies) for record in records)
