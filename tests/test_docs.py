"""What the README and docs/ quote is what the code and the shipped model give, where that is cheap to check:
every `paperkg` command line parses, the example build's counts and termhood table, the settings the prose quotes,
links and pictures, the README's length and figures, and no figure or release-to-release prose where it does not
belong (docs/contributing.md, "Docs")."""
from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.core import TyperGroup
from cli_helpers import ROOT, click_command

from paperkg.core.schema import DEFAULT_MIN_CONFIDENCE, RELATION_FLOOR
from paperkg.admit import admission
from paperkg.graph import bursts, builder, resolve, trends
from paperkg.ingest.fields import MAX_ABSTRACT_CHARS
from paperkg.cypher.writer import CREATE_BATCH_SIZE
from paperkg.extract import limits
from paperkg.orchestrate import parallel
from paperkg.viz import clusters, map_page, options

README = ROOT / "README.md"
DOCS = ROOT / "docs"
GUIDES = sorted((DOCS / "guides").glob("*.md"))
FIGURES = (DOCS / "quality.md", DOCS / "performance.md")
WRITTEN = [README, DOCS / "README.md", DOCS / "contributing.md", *FIGURES, *GUIDES,
           *sorted((DOCS / "explain").glob("*.md"))]
ALL_PAGES = [*WRITTEN, ROOT / "CHANGELOG.md", *sorted((DOCS / "reference").glob("*.md"))]


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _prose(text: str) -> str:
    """The text without its code blocks and inline code."""
    return re.sub(r"`[^`\n]*`", " ", re.sub(r"```.*?```", " ", text, flags=re.DOTALL))


def _number(text: str) -> float:
    return float(text.replace(",", ""))


# --- commands ------------------------------------------------------------------------------------------------------

def _command_lines(text: str) -> list[str]:
    """Every `paperkg ...` command in the page's shell code blocks and inline code."""
    found = []
    for block in re.findall(r"```(?:bash|sh|shell)?\n(.*?)```", text, re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            found += _paperkg_commands(line)
    for span in re.findall(r"(?<!`)`(paperkg [^`\n]+)`", text):
        found.append(span)
    return found


def _paperkg_commands(line: str) -> list[str]:
    """The paperkg invocations of one shell line: each command between `&&`, `;` and `|` whose program (behind
    `nice`, `time` or a path such as `.venv/bin/`) is paperkg, up to a redirection."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return []
    segments: list[list[str]] = [[]]
    for word in words:
        if word in ("&&", ";", "|", "||"):
            segments.append([])
        else:
            segments[-1].append(word)
    found = []
    for segment in segments:
        segment = segment[:next((i for i, word in enumerate(segment) if word.startswith(">")), len(segment))]
        start = next((i for i, word in enumerate(segment[:3]) if word.split("/")[-1] == "paperkg"), None)
        if start is not None:
            found.append(shlex.join(["paperkg", *segment[start + 1:]]))
    return found


def _parse(words: list[str]) -> None:
    """Parse the arguments as `paperkg` would, without running anything: a usage error raises (typer.TyperException,
    the base of the click exceptions typer carries)."""
    command: Any = click_command()
    context = command.make_context("paperkg", list(words))
    while isinstance(command, TyperGroup):
        rest = [*getattr(context, "_protected_args", []), *context.args]
        if not rest:
            return
        name, command, args = command.resolve_command(context, rest)
        assert command is not None, f"no command {name}"
        context = command.make_context(name, args, parent=context)


def _is_command_path(words: list[str]) -> bool:
    command: Any = click_command()
    for word in words:
        if not isinstance(command, TyperGroup) or word not in command.commands:
            return False
        command = command.commands[word]
    return True


@pytest.mark.parametrize("page", WRITTEN, ids=_name)
def test_every_paperkg_command_line_parses(page: Path) -> None:
    for line in _command_lines(page.read_text(encoding="utf8")):
        words = shlex.split(line)[1:]
        if _is_command_path(words):  # `paperkg push` named in prose
            continue
        try:
            _parse(words)
        except typer.TyperException as error:
            pytest.fail(f"{_name(page)}: `{line}` does not parse: {error.format_message()}")


def test_the_command_finder_finds_commands_behind_paths_and_pipes() -> None:
    text = "```bash\nnice .venv/bin/paperkg build a -o b  # note\nx && paperkg stats b > s.txt\n```\nsee `paperkg push`"
    assert _command_lines(text) == ["paperkg build a -o b", "paperkg stats b", "paperkg push"]
    with pytest.raises(typer.TyperException, match="no-such-option"):
        _parse(["build", "a", "--no-such-option"])


# --- the example build -----------------------------------------------------------------------------------------------

def test_the_example_build_counts_are_what_the_build_gives(built: Path) -> None:
    quality = (DOCS / "quality.md").read_text(encoding="utf8")
    stated = re.search(r"The example build has ([\d,]+) nodes \(([^)]*)\)\s+and ([\d,]+) edges\s+\(([^)]*)\)", quality)
    assert stated, "docs/quality.md quotes no example build counts"
    graph = json.loads((built / "graph.json").read_text(encoding="utf8"))
    nodes = Counter(node["label"] for node in graph["nodes"])
    edges = Counter(edge["type"] for edge in graph["edges"])

    def counts(listed: str) -> dict[str, int]:
        return {name: int(count) for name, count in re.findall(r"(\w+) ([\d,]+)", listed.replace(",", ""))}

    assert (int(stated[1].replace(",", "")), counts(stated[2])) == (sum(nodes.values()), dict(nodes))
    assert (int(stated[3].replace(",", "")), counts(stated[4])) == (sum(edges.values()), dict(edges))


def test_the_termhood_table_is_what_the_example_build_extracted(built: Path) -> None:
    from paperkg.extract.entities import TERM_RULES

    mentions: Counter[str] = Counter()
    names: dict[str, set[str]] = {}
    for line in (built / "extractions.jsonl").read_text(encoding="utf8").splitlines():
        for mention in json.loads(line)["entities"]:
            mentions[mention["termhood"]] += 1
            names.setdefault(mention["termhood"], set()).add(mention["name"].lower())
    quality = (DOCS / "quality.md").read_text(encoding="utf8")
    rows = re.findall(r"^\| ([a-z-]+) \| (yes|no) \| (\d+) \| (\d+) \|", quality, re.MULTILINE)
    assert {rule: (node == "yes", int(count), int(distinct)) for rule, node, count, distinct in rows} == {
        rule: (rule in TERM_RULES, count, len(names[rule])) for rule, count in mentions.items()}


# --- settings the prose quotes -------------------------------------------------------------------------------------

def _relation_model_setting(name: str) -> float:
    from thinc.api import Config

    config = Config().from_disk(limits.DEFAULT_MODEL / "config.cfg", interpolate=False)
    return config["components"]["relation_model"][name]


def _entity_setting(name: str) -> float:
    import spacy

    import paperkg.extract.entities  # noqa: F401 - registers the factory

    return spacy.Language.get_factory_meta("paperkg_entities").default_config[name]


ONE_THING, EXTRACTION = "docs/explain/one-thing-one-node.md", "docs/explain/extraction.md"
QUOTED = [  # (page, a pattern whose one group is the value quoted (a space: any white space), the value in the code)
    ("docs/guides/views.md", r"at confidence ([\d.]+) and up by default", lambda: DEFAULT_MIN_CONFIDENCE),
    ("docs/guides/views.md", r"down to the graph's floor, ([\d.]+)", lambda: RELATION_FLOOR),
    ("docs/guides/views.md", r"only entities in at least (\d+) papers", lambda: options.YEAR_MIN_PAPERS),
    ("docs/guides/views.md", r"Above ([\d,]+) entities the map keeps", lambda: options.FOLD_ABOVE),
    ("docs/guides/views.md", r"the ([\d,]+) in the most papers\. The legend", lambda: options.FOLD_ABOVE),
    ("docs/guides/views.md", r"of those in at least (\d+) papers \(`--min-papers`", lambda: options.DEFAULT_MIN_PAPERS),
    ("docs/guides/views.md", r"an input with fewer than (\d+) of them", lambda: options.FOLD_ABOVE // 2),
    ("docs/guides/views.md", r"up to (two) per entity", lambda: map_page.LINKS_PER_ENTITY),
    ("docs/guides/views.md", r"pulls ([\d.]+) as much as one inside a cluster", lambda: map_page.CROSS_CLUSTER_PULL),
    ("docs/guides/views.md", r"more than ([\d.]+) of the other clusters' papers", lambda: clusters.FIELD_SHARE),
    ("docs/guides/views.md", r"`--hub-degree` neighbours, (\d+) by default", lambda: options.HUB_DEGREE),
    ("docs/guides/views.md", r"the (\d+) closest drawn", lambda: options.FOCUS_MAX_NODES),
    ("docs/guides/trends.md", r"state ratio s = (\d+)", lambda: bursts.STATE_RATIO),
    ("docs/guides/trends.md", r"transition cost γ = (\d+)", lambda: bursts.GAMMA),
    ("docs/guides/trends.md", r"`--window` years \((\d+) by default", lambda: trends.WINDOW),
    ("docs/guides/trends.md", r"`--min-papers` papers \((\d+)\)", lambda: trends.MIN_PAPERS),
    ("docs/guides/inputs.md", r"`max_abstract_chars` \(([\d,]+) characters", lambda: MAX_ABSTRACT_CHARS),
    ("docs/guides/large-corpora.md", r"once the input holds ([\d,]+) abstracts", lambda: parallel.AUTO_POOL),
    ("docs/guides/large-corpora.md", r"up to ([\d,]+) abstracts ahead", lambda: parallel.READ_AHEAD),
    ("docs/guides/large-corpora.md", r"Up to ([\d,]+) abstracts per worker", lambda: parallel.IN_FLIGHT_PER_JOB),
    ("docs/guides/large-corpora.md", r"for a graph of ([\d,]+) nodes", lambda: parallel.SECOND_PROCESS_NODES),
    ("docs/guides/large-corpora.md", r"spaCy batch, (\d+) by default", lambda: limits.BATCH_SIZE),
    ("docs/guides/large-corpora.md", r"the pipeline's limit \(([\d,]+) characters\)", lambda: limits.MAX_TEXT_CHARS),
    ("docs/guides/neo4j.md", r"in batches of ([\d,]+)", lambda: CREATE_BATCH_SIZE),
    (ONE_THING, r"`DOMINANT_SHARE` \(([\d.]+)\)", lambda: resolve.DOMINANT_SHARE),
    (ONE_THING, r"in at least (two) papers \(`SENSE_PAPERS`\)", lambda: resolve.SENSE_PAPERS),
    (ONE_THING, r"SYNONYM_OF relation at confidence ([\d.]+)", lambda: admission.SYNONYM_MIN_CONFIDENCE),
    (ONE_THING, r"lexicon (\d+), cue", lambda: resolve.SOURCE_WEIGHT["lexicon"]),
    (ONE_THING, r"acronym definition (\d+), model", lambda: resolve.SOURCE_WEIGHT["acronym"]),
    (ONE_THING, r"guessed type ([\d.]+)\)", lambda: resolve.SOURCE_WEIGHT["name"]),
    (ONE_THING, r"up to (ten) evidence items", lambda: builder.MAX_EVIDENCE),
    (EXTRACTION, r"at most (\d+) tokens apart", lambda: _relation_model_setting("max_gap")),
    (EXTRACTION, r"source `acronym`, confidence ([\d.]+)", lambda: _relation_model_setting("acronym_confidence")),
    (EXTRACTION, r"in at least (\d+) of the CC BY", lambda: _entity_setting("min_df")),
    (EXTRACTION, r"in under (\d+)% of them", lambda: 100 * _entity_setting("max_word_share")),
    (EXTRACTION, r"a phrase in (\d+) or more corpus abstracts", lambda: _entity_setting("established_df")),
    (EXTRACTION, r"`RELATION_FLOOR = ([\d.]+)`", lambda: RELATION_FLOOR),
    (EXTRACTION, r"`DEFAULT_MIN_CONFIDENCE = ([\d.]+)`", lambda: DEFAULT_MIN_CONFIDENCE),
]
WORDS = {"two": 2, "ten": 10}


@pytest.mark.parametrize(("page", "pattern", "value"), QUOTED,
                         ids=[f"{Path(page).stem}:{pattern[:30]}" for page, pattern, _ in QUOTED])
def test_a_setting_the_prose_quotes_is_the_code_s(page: str, pattern: str, value) -> None:
    found = re.search(pattern.replace(" ", r"\s+"), (ROOT / page).read_text(encoding="utf8"))
    assert found, f"{page} no longer says /{pattern}/: change the page or this test"
    quoted = WORDS.get(found[1]) or _number(found[1])
    assert quoted == value(), f"{page} quotes {found[1]}, the code has {value()}"


def test_the_views_guide_says_how_the_map_opens() -> None:
    text = " ".join((DOCS / "guides" / "views.md").read_text(encoding="utf8").split())
    said = re.search(r"it is coloured by named cluster and draws (\w+), (\w+) and (\w+), not (\w+)", text)
    assert said, "docs/guides/views.md no longer says how the map opens: change the page or this test"
    assert options.DEFAULT_VIEW.colour_by == options.ColourBy.COMMUNITY.value
    assert tuple(word.removesuffix("s") for word in said.groups()[:3]) == options.DEFAULT_TYPES
    assert said[4].removesuffix("s") not in options.DEFAULT_TYPES


# --- links, pictures, length ---------------------------------------------------------------------------------------

def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("page", ALL_PAGES, ids=_name)
def test_links_and_pictures_point_at_what_exists(page: Path) -> None:
    text = page.read_text(encoding="utf8")
    for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"```.*?```", "", text, flags=re.DOTALL)):
        if re.match(r"[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        assert where.exists(), f"{_name(page)} links to {target}, which does not exist"
        if anchor and where.suffix == ".md":
            headings = re.findall(r"^#+ (.*)$", where.read_text(encoding="utf8"), re.MULTILINE)
            assert anchor in {_slug(heading) for heading in headings}, f"{_name(page)}: no heading #{anchor} in {path}"


def test_the_readme_is_at_most_200_lines_with_the_two_quick_start_commands() -> None:
    text = README.read_text(encoding="utf8")
    assert len(text.splitlines()) <= 200
    assert ("python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/paperkg build examples/icml2025 -o out/"
            in text) and "\nbash scripts/test.sh\n" in text


def test_the_readme_figures_are_those_of_the_pages_they_link() -> None:
    rows = re.findall(r"^\| ([^|]+) \| ([^|]*\d[^|]*) \| \[\w+\]\(([^)#]+)", README.read_text(encoding="utf8"), re.M)
    assert len(rows) >= 6
    for what, figure, page in rows:
        numbers = set(re.findall(r"\d[\d,]*(?:\.\d+)?", (ROOT / page).read_text(encoding="utf8")))
        missing = [n for n in re.findall(r"\d[\d,]*(?:\.\d+)?", figure) if n not in numbers]
        assert not missing, f"README's {what.strip()!r}: {missing} not in {page}"


# --- figures and history where they belong ---------------------------------------------------------------------------

MEASURED = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s?(?:s|ms|min|MB|GB|x|%|words/s|abstracts/s|entries/s)(?![\w/])"
                      r"|(?<![\w.])(0\.\d+|\d+\.\d+)(?![\d.])")
NOT_FIGURES = {"3.10", "3.8", "1.3", "1.0", "2.0", "0.75", "0.5", "0.8", "0.9", "5.26", "17.0", "10%", "0.10.1"}


@pytest.mark.parametrize("page", [README, DOCS / "contributing.md", *GUIDES], ids=_name)
def test_a_figure_in_the_readme_or_a_guide_is_one_the_figures_pages_hold(page: Path) -> None:
    held = set()
    for source in (*FIGURES, DOCS / "reference" / "settings.md"):
        held |= set(re.findall(r"\d[\d,]*(?:\.\d+)?", source.read_text(encoding="utf8")))
    for match in MEASURED.finditer(_prose(page.read_text(encoding="utf8"))):
        number = match[1] or match[2]
        if number not in held and number not in NOT_FIGURES and match[0].strip() not in NOT_FIGURES:
            pytest.fail(f"{_name(page)} quotes {match[0]!r}, which docs/quality.md and docs/performance.md do not hold")


HISTORY = re.compile(r"last release|this release|the release before|quiet machine|load average|busy machine|"
                     r"the integrator|\bh\d-[a-z]+|\bbranch\b", re.IGNORECASE)


@pytest.mark.parametrize("page", WRITTEN, ids=_name)
def test_no_release_to_release_prose_outside_the_changelog(page: Path) -> None:
    found = HISTORY.search(page.read_text(encoding="utf8"))
    assert not found, f"{_name(page)} says {found[0]!r}: history goes to CHANGELOG.md"
