"""Trends of a real build of a dated corpus whose history is known: series and shares, first years and
their papers, bursts, risers and fallers; the build's trends.json against the graph in memory;
the `paperkg trends` command, its JSON, its page, and its wrong inputs."""
from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from cli_helpers import run_cli
from trends_fixtures import PER_YEAR, write_dated_corpus
from records import QUOTED_NAME, QUOTED_SENTENCE, build, quoted
from view_fixtures import HOSTILE_ALIAS, dated_records, hostile_graph, hostile_record

import paperkg
from paperkg.graph.exports import read_graph, write_json
from paperkg.orchestrate.artifact import read_trends, trends_layer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("trends")
    out = folder / "out"
    run_cli("build", str(write_dated_corpus(folder / "dated.jsonl")), "-o", str(out), "--no-model")
    return out / "graph.json"


def test_series_are_papers_and_shares_of_each_year(graph_file: Path) -> None:
    trends = read_trends(graph_file)
    assert trends.years == tuple(range(2012, 2024))
    assert trends.year_papers == (PER_YEAR,) * 12
    nmt = trends.entities["task:neural machine translation"]
    assert [(p.year, p.papers) for p in nmt.years] == [(y, min(PER_YEAR, y - 2013)) for y in range(2014, 2024)]
    assert all(p.share == p.papers / PER_YEAR for p in nmt.years)
    assert nmt.first_year == 2014 and nmt.papers == sum(p.papers for p in nmt.years)


def test_first_papers_come_with_the_sentence_naming_the_entity(graph_file: Path) -> None:
    bert = read_trends(graph_file).entities["method:bert"]
    assert bert.first_year == 2019
    assert [p.year for p in bert.first_papers] == [2019, 2019, 2019]
    assert all("BERT" in p.sentence and p.title.startswith("Study") for p in bert.first_papers)


def test_bursts_risers_and_fallers_follow_the_known_history(graph_file: Path) -> None:
    trends = read_trends(graph_file)
    bert = trends.entities["method:bert"]
    assert [(b.start, b.end) for b in bert.bursts] == [(2019, 2020)]
    assert bert.bursts[0].strength > 0 and all(p.year == 2019 for p in bert.bursts[0].papers)
    assert "method:bert" in [e.key for e in trends.bursts(5)]
    assert trends.window == (2019, 2023)
    assert [e.key for e in trends.rising(3)][0] == "task:neural machine translation"
    assert "method:bert" in [e.key for e in trends.fading(3)]
    assert trends.rising(3, ["Method"]) == [] and trends.rising(3, ["task"])  # types any case
    assert "method:bert" in [e.key for e in trends.entered_in(2019)]
    assert trends.share_change(trends.entities["task:neural machine translation"], 2015, 2021) == pytest.approx(6 / 8)


def test_the_builds_trends_agree_with_the_graph_in_memory(graph_file: Path) -> None:
    in_memory = paperkg.trends(read_graph(graph_file))
    stored = trends_layer(graph_file)
    assert stored is not None and in_memory == stored
    assert read_trends(graph_file) == stored and read_trends(graph_file, min_papers=1) != stored


def test_since_restricts_the_years_but_not_the_first_year(graph_file: Path) -> None:
    trends = read_trends(graph_file, since=2016, window=3)
    assert trends.years[0] == 2016 and trends.window == (2021, 2023)
    assert trends.entities["task:neural machine translation"].first_year == 2014


def test_a_data_frame_when_pandas_is_installed(graph_file: Path) -> None:
    pytest.importorskip("pandas")
    frame = paperkg.trends(read_graph(graph_file)).to_frame()
    row = frame[(frame.key == "method:bert") & (frame.year == 2019)].iloc[0]
    assert (row.papers, row.year_papers) == (7, PER_YEAR)


def test_cli_table_json_and_page(graph_file: Path, tmp_path: Path) -> None:
    table = run_cli("trends", str(graph_file), "--top", "5")
    assert "Strongest bursts" in table.stdout and "BERT" in table.stdout and "2019-2020" in table.stdout
    report = json.loads(run_cli("trends", str(graph_file), "--json", "--type", "Method").stdout)
    assert report["bursts"] == ["method:bert"] and set(report["entities"]) >= {"method:bert"}
    assert report["years"][0] == {"year": 2012, "papers": PER_YEAR}
    assert report["entities"]["method:bert"]["bursts"][0]["start"] == 2019
    page = tmp_path / "trends.html"
    run_cli("trends", str(graph_file), "--json", "-o", str(page))
    assert "method:bert" in page.read_text() and "Content-Security-Policy" in page.read_text()
    run_cli("trends", str(graph_file), "-o", str(tmp_path))
    assert (tmp_path / "trends.html").read_bytes() == page.read_bytes()


def test_one_year_of_papers_is_one_sentence_instead_of_empty_tables(graph_file: Path) -> None:
    said = run_cli("trends", str(graph_file), "--since", "2019", "--until", "2019").stdout
    assert " ".join(said.split()) == (f"{graph_file}: {PER_YEAR} papers of 2019, 8 entities. Every paper followed "
                                      "is of 2019, and bursts, risers and fallers compare years: trends need papers "
                                      "of two years or more.")


def test_hostile_text_reaches_the_page_only_as_json(tmp_path: Path) -> None:
    write_json(hostile_graph(), tmp_path / "graph.json")
    run_cli("trends", str(tmp_path / "graph.json"), "-o", str(tmp_path / "trends.html"))
    html = (tmp_path / "trends.html").read_text()
    assert "<script>alert" not in html and HOSTILE_ALIAS not in html and "</script><script>" not in html


@pytest.mark.parametrize(("args", "message"), [
    (["missing.json"], "missing.json: no such file;"),
    (["GRAPH", "--type", "Author"], "--type must be among"),
    (["GRAPH", "--top", "0"], "--top must be 1 or more, not 0."),
    (["GRAPH", "--since", "2020", "--until", "2010"], "--since 2020 is after --until 2010."),
    (["GRAPH", "--since", "2030"], "no paper has a year in 2030-...;"),
    (["NOT_A_GRAPH"], "is not a paperkg graph"),
    (["UNDATED"], "no paper has a year; trends need the papers' years"),
])
def test_wrong_input_is_one_sentence(graph_file: Path, tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "notes.json").write_text('{"directed": true,\n"edges": [\n{"source": 1}\n]}\n')
    undated = nx.MultiDiGraph(hostile_graph())
    for _, data in undated.nodes(data=True):
        data.pop("year", None)
    write_json(undated, tmp_path / "undated.json")
    where = {"GRAPH": str(graph_file), "NOT_A_GRAPH": str(tmp_path / "notes.json"),
             "UNDATED": str(tmp_path / "undated.json"), "missing.json": str(tmp_path / "missing.json")}
    result = run_cli("trends", *[where.get(arg, arg) for arg in args], check=False)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_pushed_entities_carry_first_year_and_strongest_burst(graph_file: Path) -> None:
    from paperkg.cypher.rows import graph_rows

    rows = graph_rows(read_graph(graph_file))
    props = {row["key"]: row["props"] for row in rows.nodes["Method"]}
    bert = props["method:bert"]
    assert (bert["first_year"], bert["burst_start"], bert["burst_end"]) == (2019, 2019, 2020)
    assert bert["burst_strength"] > 0
    nmt = {row["key"]: row["props"] for row in rows.nodes["Task"]}["task:neural machine translation"]
    assert nmt["first_year"] == 2014
    assert all("first_year" not in row["props"] for row in rows.nodes["Paper"])


def test_graphml_and_escaped_keys_read_the_same(graph_file: Path, tmp_path: Path) -> None:
    graphml = paperkg.trends(read_graph(graph_file.with_suffix(".graphml")))
    assert graphml.to_dict() == read_trends(graph_file).to_dict()
    graph = build([*dated_records(), hostile_record(), quoted("0dd0dd0dd0dd0dd0", year=2023),
                   quoted("0dd0dd0dd0dd0dd1", year=2024)])
    key = 'method:a "quoted" \\ name'
    write_json(graph, tmp_path / "graph.json")
    streamed = read_trends(tmp_path / "graph.json", min_papers=1)
    assert streamed.to_dict() == paperkg.trends(graph, min_papers=1).to_dict()
    assert streamed.entities[key].name == QUOTED_NAME
    assert [paper.sentence for paper in streamed.entities[key].first_papers] == [QUOTED_SENTENCE]


def test_trends_takes_a_build_output_folder_as_the_graph(tmp_path) -> None:
    from cli_helpers import run_cli

    result = run_cli("trends", str(tmp_path), check=False)
    assert result.returncode == 2
    assert "is a folder without graph.json: name a paperkg build's output folder or its graph.json." in result.stderr
