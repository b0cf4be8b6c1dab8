"""Inputs a stranger hands you, answered with the right result or one sentence: escaped markup that is
not a well-formed tag stays text in every output, a binary file under a text name is one warning (not
papers), a thesaurus cycle names its line, a JSON file that is no graph is one sentence, an export never
breaks the build folder it writes into, and a killed `extract -o F` leaves a temporary file the next run
removes (only when its owner is dead)."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from build_helpers import (HOSTILE, TAG_OPENER, example_papers, folder_bytes, hostile_build_in, killed_build, strings,
                           write_papers)
from cli_helpers import run_cli

from paperkg.core.atomic import _host_tag, atomic_write_text, remove_stale_temporaries
from paperkg.core.schema import SCHEMA_KEY, SCHEMA_VERSION
from paperkg.ingest.normalize import normalize_inline, normalize_text



@pytest.mark.parametrize("raw", HOSTILE)
def test_markup_that_is_not_removed_as_a_tag_comes_out_as_text(raw):
    for text in (normalize_text(f"We use {raw} here.").text, normalize_inline(f"A {raw} title")):
        assert not TAG_OPENER.search(text), text
        assert normalize_text(text).text == text


@settings(deadline=None)
@given(st.text(alphabet="<>/!?&;lt gimsrc=x\"'-", max_size=80))
def test_no_normalised_text_holds_a_tag_opener(text):
    assert not TAG_OPENER.search(normalize_text(text).text)
    assert not TAG_OPENER.search(normalize_inline(text))


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory) -> Path:
    """A rules-only build of real abstracts with the hostile markup in their text and title."""
    return hostile_build_in(tmp_path_factory.mktemp("hostile"))


def test_escaped_markup_is_text_in_graph_json_and_the_extractions(hostile_build):
    graph = json.loads((hostile_build / "graph.json").read_text())
    assert "onerror=alert(1) x>" in json.dumps(graph)  # kept as text, not dropped
    lines = (hostile_build / "extractions.jsonl").read_text().splitlines()
    for value in (graph, *map(json.loads, lines)):
        assert [text for text in strings(value) if TAG_OPENER.search(text)] == []


def test_escaped_markup_is_text_in_graphml(hostile_build):
    root = ET.parse(hostile_build / "graph.graphml").getroot()
    assert {element.tag.rsplit("}", 1)[-1] for element in root.iter()} <= {"graphml", "key", "graph", "node", "edge",
                                                                           "data", "default"}
    values = [text for element in root.iter() for text in (element.text or "", *element.attrib.values())]
    assert any("onerror=alert(1) x>" in value for value in values)
    assert [value for value in values if TAG_OPENER.search(value)] == []


def test_a_binary_file_under_a_text_name_is_one_warning_not_papers(tmp_path):
    binary = tmp_path / "ls.txt"
    shutil.copyfile(sys.executable, binary)
    utf16 = tmp_path / "notes.txt"
    utf16.write_text("We propose a method for parsing.\n", encoding="utf-16")
    good = write_papers(tmp_path / "good.jsonl", example_papers()[:2])
    result = run_cli("build", str(binary), str(utf16), str(good), "-o", str(tmp_path / "out"), "--no-model",
                     check=False)
    assert result.returncode == 3, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [f"warning: {binary}: a binary file, not text (a NUL byte in its first 8,000 bytes); file "
                        "skipped, none of it read",
                        f"warning: {utf16}: UTF-16 text, and paperkg reads UTF-8: save it as UTF-8; file skipped, "
                        "none of it read"]
    lines = (tmp_path / "out" / "extractions.jsonl").read_text().splitlines()
    assert len(lines) == 2


def _thesaurus_build(tmp_path: Path, thesaurus: str):
    extractions = tmp_path / "first" / "extractions.jsonl"
    if not extractions.is_file():
        run_cli("build", str(write_papers(tmp_path / "in.jsonl", example_papers()[:8])), "-o", str(extractions.parent),
                "--no-model")
    (tmp_path / "thesaurus.tsv").write_text(thesaurus, encoding="utf8")
    return run_cli("build", "--from-extractions", str(extractions), "-o", str(tmp_path / "out"),
                   "--thesaurus", str(tmp_path / "thesaurus.tsv"), check=False)


@pytest.mark.parametrize("lines, closing", [(["accuracy\tsample complexity", "sample complexity\taccuracy"], 3),
                                             (["a\tb", "b\tc", "c\tA"], 4)])
def test_a_thesaurus_cycle_is_an_error_naming_its_file_and_line(tmp_path, lines, closing):
    result = _thesaurus_build(tmp_path, "label\treplace by\n" + "\n".join(lines) + "\n")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert re.fullmatch(rf"error: {re.escape(str(tmp_path / 'thesaurus.tsv'))}:{closing}: replacing .* closes a cycle "
                        r"\(.*\) whose names would only trade places; remove one of its lines\.\n", result.stderr)
    assert not (tmp_path / "out").exists()


def test_a_thesaurus_chain_ends_where_it_ends(tmp_path):
    first = _thesaurus_build(tmp_path, "")
    assert first.returncode == 0, first.stderr
    names = {node["name"] for node in json.loads((tmp_path / "out" / "graph.json").read_text())["nodes"]}
    known = sorted(name for name in names if name.islower() and " " in name)[:2]
    chained = _thesaurus_build(tmp_path, f"{known[0]}\t{known[1]}\n{known[1]}\tthe end of the chain\n")
    assert chained.returncode == 0, chained.stderr
    names = {node["name"] for node in json.loads((tmp_path / "out" / "graph.json").read_text())["nodes"]}
    assert "the end of the chain" in names and not set(known) & names


_SCHEMA = f'"graph": {{"{SCHEMA_KEY}": {SCHEMA_VERSION}}}'  # today's schema, so the shape check is what refuses
NOT_GRAPHS = ["[1, 2]", "3", '"graph"', "null", '{"nodes": 5}', '{"nodes": [1], "edges": []}',
              f'{{{_SCHEMA}, "nodes": [{{"id": "a"}}], "edges": []}}',
              f'{{{_SCHEMA}, "nodes": [{{"id": "a", "label": "Method", "name": "a"}}], '
              '"edges": [{"source": "a", "target": "a"}]}', "[" * 100_000]


@pytest.mark.parametrize("text", NOT_GRAPHS, ids=lambda text: text[:40])
def test_a_json_file_that_is_no_graph_is_one_sentence_in_every_reader(tmp_path, text):
    path = tmp_path / "graph.json"
    path.write_text(text)
    for command in (["stats"], ["export", "-o", str(tmp_path / "g.graphml")], ["trends"],
                    ["thesaurus", "-o", str(tmp_path / "t.tsv")], ["view", "-o", str(tmp_path / "view")]):
        result = run_cli(command[0], str(path), *command[1:], check=False)
        assert result.returncode == 2, (command, result.stderr)
        assert result.stderr.startswith(f"error: {path}") and result.stderr.count("\n") == 1, result.stderr


_SCALAR = st.none() | st.booleans() | st.integers() | st.text(max_size=4) | st.sampled_from(["Paper", "Method"])
_KEY = st.sampled_from(["id", "label", "name", "type", "year", "papers", "evidence"])
_ANY = st.recursive(_SCALAR, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEY, inner, max_size=4),
                    max_leaves=8)
_IDS = st.sampled_from(["paper:a", "method:b"])
_NODE = st.fixed_dictionaries({"id": _IDS},
                              optional={key: _ANY for key in ("label", "name", "year", "papers", "aliases")})
_EDGE = st.fixed_dictionaries({"source": _IDS, "target": _IDS}, optional={key: _ANY for key in ("type", "evidence")})


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.fixed_dictionaries({"graph": st.just({SCHEMA_KEY: SCHEMA_VERSION}),
                              "nodes": st.lists(_NODE, max_size=3),
                              "edges": st.lists(_EDGE, max_size=3)}))
def test_a_hand_made_graph_is_read_or_refused_in_one_sentence(graph):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "graph.json"
        path.write_text(json.dumps(graph))
        for command in (["stats"], ["export", "-o", f"{folder}/g.graphml"], ["trends", "--json"]):
            result = run_cli(command[0], str(path), *command[1:], check=False)
            assert result.returncode in (0, 2, 3) and "unexpected" not in result.stderr, (command, result.stderr)
            assert "graph schema" not in result.stderr, result.stderr  # the shape check is what is tried


@pytest.fixture(scope="module")
def small_build(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("small")
    run_cli("build", str(write_papers(folder / "in.jsonl", example_papers()[:6])), "-o", str(folder / "out"),
            "--no-model")
    return folder / "out"


@pytest.mark.parametrize("command", [["export", "{out}/graph.graphml", "-o", "{out}/graph.json"],
                                     ["export", "{out}", "--map", "-o", "{out}/graph.graphml"]])
def test_an_export_onto_the_builds_own_file_that_differs_is_refused(small_build, tmp_path, command):
    out = tmp_path / "out"
    shutil.copytree(small_build, out)
    before = folder_bytes(out)
    result = run_cli(*(part.format(out=out) for part in command), check=False)
    target = Path(command[-1].format(out=out))
    assert result.returncode == 2 and result.stderr == (
        f"error: {target} is the build's own {target.name} (listed in {out / 'manifest.json'}) and this output "
        "differs from it, so writing it there would break the build's folder; name another file.\n")
    assert folder_bytes(out) == before
    run_cli("stats", str(out))


def test_an_export_that_gives_the_builds_own_bytes_may_be_written_there(small_build, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(small_build, out)
    before = folder_bytes(out)
    run_cli("export", str(out))  # the default: graph.graphml beside the graph
    run_cli("export", str(out), "-o", str(out / "graph.json"))
    assert folder_bytes(out) == before
    run_cli("stats", str(out / "graph.graphml"))


def test_map_to_a_json_file_is_one_sentence(small_build, tmp_path):
    result = run_cli("export", str(small_build), "--map", "-o", str(tmp_path / "map.json"), check=False)
    assert result.returncode == 2 and result.stderr.startswith("error: --map writes GraphML, GEXF, CSV or VOSviewer")


_KILL_IN_EXTRACT = '''
import paperkg.orchestrate.parallel as parallel
real_extract_lines = parallel.extract_lines
def extract_lines(*args, **kwargs):
    for number, item in enumerate(real_extract_lines(*args, **kwargs)):
        yield item
        if number == 1:
            die()
parallel.extract_lines = extract_lines
'''


@pytest.mark.slow
def test_a_killed_extract_leaves_a_temporary_file_the_next_run_removes(tmp_path):
    source = write_papers(tmp_path / "in.jsonl", example_papers()[:4])
    target = tmp_path / "out" / "F.jsonl"
    killed = killed_build(["extract", str(source), "-o", str(target), "--no-model"], _KILL_IN_EXTRACT)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = list(target.parent.iterdir())
    assert len(left) == 1 and re.fullmatch(r"\.F\.jsonl\.paperkg-\d+-[0-9a-f]{8}\.[a-z0-9_]{8}\.tmp", left[0].name)
    with subprocess.Popen(["sleep", "60"]) as alive:  # a live owner's file and a look-alike stay
        try:
            live = target.parent / left[0].name.replace(left[0].name.split("-")[1], str(alive.pid), 1)
            live.write_text("being written")
            look_alike = target.parent / ".F.jsonl.paperkg-notes.tmp"
            look_alike.write_text("the user's")
            run_cli("extract", str(source), "-o", str(target), "--no-model")
            assert sorted(p.name for p in target.parent.iterdir()) == sorted([look_alike.name, live.name, "F.jsonl"])
        finally:
            alive.kill()
    assert len((target).read_text().splitlines()) == 4


def test_only_this_hosts_temporary_files_of_dead_owners_are_removed(tmp_path):
    target = tmp_path / "F.jsonl"
    dead = 2 ** 22 + 1  # above Linux's largest pid_max: never a live process
    with pytest.raises(ProcessLookupError):
        os.kill(dead, 0)
    other_host = tmp_path / f".F.jsonl.paperkg-{dead}-00000000.abcdefgh.tmp"
    other_host.write_text("x")
    ours = tmp_path / f".F.jsonl.paperkg-{dead}-{_host_tag()}.abcdefgh.tmp"
    ours.write_text("x")
    assert remove_stale_temporaries(target) == [ours]
    atomic_write_text(target, "done\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([other_host.name, "F.jsonl"])
