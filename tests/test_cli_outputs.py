"""-o, --format, graph arguments and choices read the same way by every command; each mistake is
one sentence saying what to do, with exit code 2 (3: finished, but with nothing to draw)."""
from __future__ import annotations

import json

import pytest
from cli_helpers import CORPUS, run_cli

pytestmark = pytest.mark.slow


def _mistake(*args: str, code: int = 2) -> str:
    result = run_cli(*args, check=False)
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    return " ".join(result.stderr.split())


@pytest.mark.parametrize(("args", "message"), [
    (["--format", "graphml", "-o", "{tmp}/x.gexf"],
     "error: -o {tmp}/x.gexf names a gexf file but --format is graphml: drop --format, or name the file x.graphml."),
    (["--format", "csv", "-o", "{tmp}/x.csv"],
     "error: -o {tmp}/x.csv: a CSV export is two files (nodes.csv and edges.csv), so -o names a folder: "
     "use -o {tmp}/x/."),
    (["-o", "{tmp}/x.txt"],
     "error: -o {tmp}/x.txt: paperkg exports .graphml, .gexf or .json files (or a folder of CSV): name the file "
     "with one of these extensions."),
    (["--map", "--format", "json"],
     "error: --map writes GraphML, GEXF, CSV or VOSviewer files, not node-link JSON: use --format graphml, gexf, "
     "csv or vosviewer."),
    (["--format", "vosviewer"],
     "error: --format vosviewer writes the entity map (VOSviewer's map and network files): add --map."),
])
def test_export_mistakes_are_one_sentence(built, tmp_path, args, message):
    args = [arg.format(tmp=tmp_path) for arg in args]
    assert _mistake("export", str(built), *args) == message.format(tmp=tmp_path)
    assert not list(tmp_path.iterdir())


def test_export_format_comes_from_the_extension_and_a_folder_takes_the_default_name(built, tmp_path):
    run_cli("export", str(built / "graph.json"), "-o", str(tmp_path / "x.gexf"))
    assert (tmp_path / "x.gexf").read_text(encoding="utf8").splitlines()[1].startswith("<gexf ")
    run_cli("export", str(built), "--format", "GEXF", "-o", f"{tmp_path}/out/")
    run_cli("export", str(built), "--map", "-o", str(tmp_path / "out"))
    run_cli("export", str(built), "--format", "Csv", "-o", str(tmp_path / "csv"))
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["graph.gexf", "map.graphml"]
    assert sorted(path.name for path in (tmp_path / "csv").iterdir()) == ["edges.csv", "nodes.csv"]


def test_an_output_folder_stands_for_its_graph(built, tmp_path):
    assert '"Paper": 57' in run_cli("stats", str(built), "--json").stdout
    assert _mistake("stats", str(tmp_path)) == (f"error: {tmp_path} is a folder without graph.json: name a paperkg "
                                                "build's output folder or its graph.json.")
    assert _mistake("stats", str(tmp_path / "nope.json")) == (
        f"error: {tmp_path}/nope.json: no such file; name a graph.json, a graph.graphml or a build's output folder.")


def test_view_with_nothing_left_to_draw_warns_and_exits_3(built, tmp_path):
    said = _mistake("view", str(built), "--type", "method", "--min-papers", "500", "-o", str(tmp_path), code=3)
    assert said.endswith("warning: nothing left to draw: no entity of type Method is in at least 500 papers; "
                         "lower --min-papers or drop --type (paperkg stats lists the top entities and their papers).")


def test_view_choices_take_any_case_and_o_follows_the_file_rule(built, tmp_path):
    run_cli("view", str(built), "--type", "METHOD", "--size-by", "PageRank", "--colour-by", "Community",
            "-o", str(tmp_path / "views"))
    assert (tmp_path / "views" / "graph.html").is_file()
    assert _mistake("view", str(built), "--focus", "FLeRM", "-o", str(tmp_path / "f.png")) == (
        f"error: -o {tmp_path}/f.png: a focus view is an HTML page: name the file .html, or name a folder "
        "(focus.html is written there).")
    run_cli("view", str(built), "--focus", "flerm", "-o", str(tmp_path / "focus"))
    assert (tmp_path / "focus" / "focus.html").is_file()
    assert _mistake("view", str(built), "--type", "Concept") == (
        "error: --type must be among Method, Task, Dataset, Metric, not Concept.")


@pytest.mark.parametrize(("args", "message"), [
    (["acronym"], 'error: query acronym needs --param acronym=... (the acronym), e.g. paperkg query acronym '
                  '--param acronym="FLeRM".'),
    (["shortest_path", "-p", "from=FLeRM"], 'error: query shortest_path needs --param to=... (the other end), '
                                            'e.g. paperkg query shortest_path --param to="CIFAR-10".'),
    (["acronyms"], "error: no query named 'acronyms'; did you mean acronym or acronym_glossary? the library has: "),
])
def test_query_mistakes_are_answered_before_any_connection(args, message, monkeypatch):
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")  # nothing listens: the answer comes first
    assert _mistake("query", *args).startswith(message)


def test_build_o_with_a_file_extension_is_refused(tmp_path):
    assert _mistake("build", str(CORPUS), "-o", str(tmp_path / "out.json")) == (
        f"error: -o {tmp_path}/out.json: a build writes a folder (graph.json, graph.graphml, graph.html, ...), so -o "
        f"names a folder: use -o {tmp_path}/out/ (or {tmp_path}/out.json/ to keep the name).")


def test_build_o_any_other_name_is_the_folder_and_the_summary_lists_what_it_wrote_on_one_line(tmp_path):
    said = run_cli("build", str(min(CORPUS.glob("*.txt"))), "--no-model", "-o", str(tmp_path / "out.d")).stdout
    manifest = json.loads((tmp_path / "out.d" / "manifest.json").read_text(encoding="utf8"))
    assert said.splitlines()[-1] == (f"wrote build {manifest['build_id']} in {tmp_path}/out.d: extractions.jsonl, "
                                     "graph.graphml, graph.json, graph.html, papers.html, leaderboard.html, "
                                     "trends.json, views.json, admission.json, leaderboards.json, manifest.json")


def test_views_and_csv_exports_take_any_folder_name_but_a_file_types(built, tmp_path):
    run_cli("view", str(built), "-o", str(tmp_path / "views.d"))
    run_cli("export", str(built), "--format", "csv", "-o", str(tmp_path / "csv.d"))
    assert (tmp_path / "views.d" / "graph.html").is_file() and (tmp_path / "csv.d" / "nodes.csv").is_file()
    assert _mistake("view", str(built), "-o", str(tmp_path / "views.json")) == (
        f"error: -o {tmp_path}/views.json: without --focus, -o names a folder (graph.html and papers.html are "
        "written there).")


def test_extract_o_a_folder_writes_extractions_jsonl_in_it(tmp_path):
    run_cli("extract", str(min(CORPUS.glob("*.txt"))), "--no-model", "-o", f"{tmp_path}/ext/")  # one file of three
    assert (tmp_path / "ext" / "extractions.jsonl").is_file()
