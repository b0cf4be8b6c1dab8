"""No output of any command breaks a build's folder (issue 33's first bad case): a file the build lists, its
manifest, its staging folder and its views are refused in one sentence naming the file and the way out
(exit 2), the folder stays byte for byte as it was, and what is not the build's is still written."""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from build_helpers import example_papers, folder_bytes, write_papers
from cli_helpers import run_cli

from paperkg.core.atomic import atomic_write_text
from paperkg.core.manifest import Manifest, describe_files
from paperkg.core.output_guard import OutputRefused


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A rules-only build of six example abstracts."""
    folder = tmp_path_factory.mktemp("built")
    run_cli("build", str(write_papers(folder / "in.jsonl", example_papers()[:6])), "-o", str(folder / "out"),
            "--no-model")
    return folder / "out"


@pytest.fixture
def out(built, tmp_path) -> Path:
    """A copy of the build to write into."""
    shutil.copytree(built, tmp_path / "out")
    return tmp_path / "out"


@pytest.fixture(scope="module")
def new_abstracts(tmp_path_factory) -> Path:
    return write_papers(tmp_path_factory.mktemp("new") / "new.jsonl", example_papers()[6:8])


def _refused(out: Path, *args: str) -> str:
    """Run a command that must be refused: exit 2, one line, the build folder unchanged and still readable."""
    before = folder_bytes(out)
    result = run_cli(*args, check=False)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert folder_bytes(out) == before
    run_cli("stats", str(out))
    return result.stderr


@pytest.mark.parametrize("target, named", [("extractions.jsonl", "extractions.jsonl"), ("", "extractions.jsonl"),
                                           ("graph.json", "graph.json")])
def test_extract_onto_a_file_the_build_lists_is_refused(out, new_abstracts, target, named):
    said = _refused(out, "extract", str(new_abstracts), "-o", f"{out}/{target}", "--no-model")
    way_out = (f", or add papers to that build with paperkg build NEW -o {out} --update" if named.endswith(".jsonl")
               else "")
    assert said == (f"error: -o {out / named} is the build's own {named} (listed in {out / 'manifest.json'}), and "
                    "writing the extraction lines there would break that build's folder; name another file"
                    f"{way_out}.\n")


def test_extract_onto_the_manifest_or_into_the_staging_folder_is_refused(out, new_abstracts):
    said = _refused(out, "extract", str(new_abstracts), "-o", str(out / "manifest.json"), "--no-model")
    assert said == (f"error: -o {out / 'manifest.json'} is the manifest of the build in {out}, and writing the "
                    "extraction lines there would break that build's folder; name another file.\n")
    said = _refused(out, "extract", str(new_abstracts), "-o", str(out / ".paperkg-staging" / "x.jsonl"), "--no-model")
    assert said.startswith(f"error: -o {out / '.paperkg-staging' / 'x.jsonl'} is inside .paperkg-staging, the folder "
                           "a paperkg build stages its outputs in")


def test_extract_beside_a_build_writes_a_file_it_does_not_list(out, new_abstracts):
    before = folder_bytes(out)
    run_cli("extract", str(new_abstracts), "-o", str(out / "new.jsonl"), "--no-model")
    assert len((out / "new.jsonl").read_text().splitlines()) == 2
    assert {name: data for name, data in folder_bytes(out).items() if name != "new.jsonl"} == before
    run_cli("build", "--from-extractions", str(out / "extractions.jsonl"), str(out / "new.jsonl"), "-o",
            str(out.parent / "merged"))


@pytest.mark.parametrize("command, what", [
    (["thesaurus", "{out}", "-o", "{out}/graph.json"], "the thesaurus"),
    (["thesaurus", "{out}", "-o", "{out}/extractions.jsonl"], "the thesaurus"),
    (["view", "{out}", "--focus", "flerm", "-o", "{out}/graph.html"], "a focus view"),
    (["trends", "{out}", "-o", "{out}/papers.html"], "the trends page"),
    (["trends", "{out}", "-o", "{out}/graph.html"], "the trends page"),
])
def test_every_output_onto_a_file_the_build_lists_is_refused_before_any_work(out, command, what):
    said = _refused(out, *(part.format(out=out) for part in command))
    target = Path(command[-1].format(out=out))
    assert said.startswith(f"error: -o {target} is the build's own {target.name} (listed in {out / 'manifest.json'}), "
                           f"and writing {what} there would break that build's folder; name another file")


def test_a_future_writer_cannot_replace_a_listed_file_either(out):
    """The guard is in atomic_write, which every output goes through: a command that forgets the first check
    (a future `leaderboard -o out/graph.json`) is refused as it renames its file into place."""
    before = folder_bytes(out)
    with pytest.raises(OutputRefused, match="is the build's own graph.json"):
        atomic_write_text(out / "graph.json", "a leaderboard\n")
    assert folder_bytes(out) == before
    atomic_write_text(out / "leaderboard.md", "a leaderboard\n")  # a file the build does not list
    assert (out / "leaderboard.md").read_text() == "a leaderboard\n"


def test_views_of_another_graph_are_refused_in_a_build_folder(out, tmp_path):
    other = tmp_path / "other"
    run_cli("build", str(write_papers(tmp_path / "other.jsonl", example_papers()[10:13])), "-o", str(other),
            "--no-model")
    said = _refused(out, "view", str(other / "graph.json"), "-o", str(out))
    assert said == (f"error: -o {out} holds a build (listed in {out / 'manifest.json'}) whose views are drawn from its "
                    f"own graph, and the views of {other / 'graph.json'} written there would mix two graphs in one "
                    "build's folder; name another folder.\n")


def test_a_builds_views_are_drawn_again_from_its_own_graph(out, tmp_path):
    run_cli("view", str(out), "--size-by", "degree")
    run_cli("view", str(out / "graph.json"), "-o", str(out), "--colour-by", "community")
    copy = tmp_path / "copy.json"
    shutil.copyfile(out / "graph.json", copy)
    run_cli("view", str(copy), "-o", str(out))  # the same graph, read from elsewhere
    run_cli("stats", str(out))
    run_cli("build", str(write_papers(tmp_path / "more.jsonl", example_papers()[6:7])), "-o", str(out), "--update",
            "--no-model")


def test_a_build_and_extraction_shards_never_replace_each_other(out, tmp_path, new_abstracts):
    shards = tmp_path / "shards"
    shards.mkdir()
    shutil.copyfile(out / "extractions.jsonl", shards / "part-00000.jsonl")
    (shards / "manifest.json").write_text(Manifest(files=describe_files(shards, ["part-00000.jsonl"]),
                                                   papers=6).to_json())
    before = folder_bytes(shards)
    result = run_cli("build", str(new_abstracts), "-o", str(shards), "--no-model", check=False)
    assert result.returncode == 2 and result.stderr == (
        f"error: -o {shards} holds extraction shards (part-00000.jsonl, listed in {shards / 'manifest.json'}), which "
        "a build there would delete; name another folder.\n")
    assert folder_bytes(shards) == before
    said = _refused(out, "extract", str(new_abstracts), "--dask", "local", "-o", str(out), "--no-model")
    first = min(json.loads((out / "manifest.json").read_text())["files"])
    assert said == (f"error: -o {out} holds a build's outputs ({first}, listed in {out / 'manifest.json'}), "
                    "which extraction shards there would delete; name another folder.\n")


# --- GraphML from elsewhere ---------------------------------------------------------------------------------

_XXE = ('<?xml version="1.0"?>\n<!DOCTYPE graphml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph edgedefault="directed">'
        '<node id="&xxe;"/></graph></graphml>\n')
_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE g [<!ENTITY l0 "lol">'
           + "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
           + ']><graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph edgedefault="directed">'
             '<node id="&l9;"/></graph></graphml>')
_READERS = [["stats"], ["export", "-o", "{tmp}/x.gexf"], ["view", "-o", "{tmp}/views"], ["trends"],
            ["thesaurus", "-o", "{tmp}/t.tsv"]]


@pytest.mark.parametrize("name", ["cut", "xxe", "laughs"])
def test_hostile_or_cut_graphml_is_one_sentence_in_every_reader(built, tmp_path, name):
    path = tmp_path / f"{name}.graphml"
    text = {"xxe": _XXE, "laughs": _LAUGHS, "cut": (built / "graph.graphml").read_text()[:3000]}[name]
    path.write_text(text)
    for command in _READERS:
        result = run_cli(command[0], str(path), *(part.format(tmp=tmp_path) for part in command[1:]), check=False)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, (command, result.stderr)
        assert result.stderr.startswith(f"error: {path} is not a paperkg graph (ParseError: "), result.stderr
        assert "root:" not in result.stderr  # /etc/passwd was not read into anything


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(cut=st.integers(0, 20_000), junk=st.binary(max_size=8))
def test_any_cut_or_damaged_graphml_is_read_or_one_sentence(built, cut, junk):
    data = (built / "graph.graphml").read_bytes()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.graphml"
        path.write_bytes(data[:cut] + junk + data[cut + len(junk):])
        result = run_cli("stats", str(path), "--json", check=False)
        assert result.returncode in (0, 2) and "unexpected" not in result.stderr, result.stderr
