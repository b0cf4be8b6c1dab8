"""Write docs/reference/, the references made from the code, so that they cannot drift from it: the CLI (each
command's own `--help`), the graph model (core/schema.py), the extraction record, the settings (the run settings,
extract/pipeline.cfg with the factories' default_config, the constants behind the defaults), the Python API and the
Cypher library. tests/test_references.py fails when a file is not what this script writes.

    python scripts/references.py          # rewrite docs/reference/*.md
    python scripts/references.py --check  # exit 1 naming the files that are not current
"""
from __future__ import annotations

import ast
import dataclasses
import inspect
import io
import json
import sys
import tokenize
import typing
from collections.abc import Callable
from functools import cache
from importlib import import_module
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any

import typer
from typer.testing import CliRunner

from paperkg.cli import app

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"
RENDERED_WITH = f"Rendered with typer {version('typer')} and rich {version('rich')} at 100 columns."
HELP_ENV = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb", "_TYPER_FORCE_DISABLE_TERMINAL": "1"}
MADE_BY = "Made by `python scripts/references.py` from {source}; a test fails when it is not current."


# --- the CLI -------------------------------------------------------------------------------------------------

def command_paths(typer_app: typer.Typer, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and group under `typer_app`, as argument paths, sorted."""
    paths: list[tuple[str, ...]] = []
    for command in typer_app.registered_commands:
        name = command.name or (command.callback.__name__.replace("_", "-") if command.callback else "")
        if name and not command.hidden:
            paths.append((*prefix, name))
    for group in typer_app.registered_groups:
        if group.name and group.typer_instance is not None:
            paths.append((*prefix, group.name))
            paths += command_paths(group.typer_instance, (*prefix, group.name))
    return sorted(paths)


@cache
def click_command() -> typer.core.TyperGroup:
    """The click command Typer makes from `app`, made once: `CliRunner.invoke(app)` makes it again for
    every command's help (reading every command's signature)."""
    return typer.main.get_command(app)  # type: ignore[return-value]  # a TyperGroup: app has commands


def help_text(path: tuple[str, ...]) -> str:
    """What `paperkg PATH --help` prints, trailing spaces removed."""
    with CliRunner().isolation(env=HELP_ENV) as (stdout, _, _):
        try:
            click_command().main(args=[*path, "--help"], prog_name="paperkg")
        except SystemExit as exit_:
            if exit_.code not in (0, None):
                raise SystemExit(f"paperkg {' '.join(path)} --help exited {exit_.code}") from None
        sys.stdout.flush()
        text = stdout.getvalue().decode()
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def cli() -> str:
    """Every command's `--help`."""
    parts = ["# Command reference", "", MADE_BY.format(source="each command's `--help`"), "", RENDERED_WITH, ""]
    for path in [(), *command_paths(app)]:
        parts += [f"## `{' '.join(('paperkg', *path))}`", "", "```text", help_text(path), "```", ""]
    return _page(parts)


# --- comments and types read from the source -------------------------------------------------------------------

@cache
def _comments(module: ModuleType) -> dict[tuple[str, str], str]:
    """(class or "", name) -> the comment on the line that assigns or declares it at module or class level, else
    the comment lines just above it."""
    source = inspect.getsource(module)
    by_line: dict[int, str] = {}
    alone: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            by_line[token.start[0]] = token.string.lstrip("#").strip()
            if not token.line[:token.start[1]].strip():
                alone.add(token.start[0])
    found: dict[tuple[str, str], str] = {}

    def note(owner: str, statements: list[ast.stmt]) -> None:
        for statement in statements:
            targets = (statement.targets if isinstance(statement, ast.Assign) else
                       [statement.target] if isinstance(statement, ast.AnnAssign) else [])
            for target in targets:
                if isinstance(target, ast.Name):
                    above, line = [], statement.lineno - 1
                    while line in alone:
                        above.insert(0, by_line[line])
                        line -= 1
                    trailing = by_line.get(statement.end_lineno or statement.lineno, "")
                    found[owner, target.id] = (trailing if statement.end_lineno not in alone else "") or " ".join(above)
            if isinstance(statement, ast.ClassDef):
                note(statement.name, statement.body)

    note("", ast.parse(source).body)
    return found


def comment(owner: type | ModuleType, name: str) -> str:
    """The source comment of a class field or a module constant."""
    module = sys.modules[owner.__module__] if isinstance(owner, type) else owner
    return _comments(module).get((owner.__name__ if isinstance(owner, type) else "", name), "")


def _type_text(annotation: Any) -> str:
    """An annotation as the source writes it."""
    return annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))


def _doc(item: Any) -> str:
    return " ".join(inspect.getdoc(item).split()) if inspect.getdoc(item) else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fields_table(record: type) -> list[str]:
    """A dataclass's fields (name, type, default, what: the source's comment) or a TypedDict's (no default)."""
    if dataclasses.is_dataclass(record):
        rows = ["| field | type | default | what |", "|---|---|---|---|"]
        for field in dataclasses.fields(record):
            default = ("" if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
                       else f"`{getattr(field.default, 'value', field.default)!r}`"
                       if field.default is not dataclasses.MISSING else
                       f"`{field.default_factory()!r}`")  # type: ignore[misc]
            rows.append(f"| `{field.name}` | `{_cell(_type_text(field.type))}` | {_cell(default)} | "
                        f"{_cell(comment(record, field.name))} |")
    else:
        rows = ["| field | type | what |", "|---|---|---|"]
        for name, annotation in record.__annotations__.items():
            type_text = _type_text(annotation.__forward_arg__ if isinstance(annotation, typing.ForwardRef)
                                   else annotation)
            rows.append(f"| `{name}` | `{_cell(type_text)}` | {_cell(comment(record, name))} |")
    return rows


def _record_section(record: type, level: str = "##") -> list[str]:
    return [f"{level} `{record.__name__}`", "", _doc(record), "", *_fields_table(record), ""]


def _constants(rows: list[tuple[ModuleType, str]]) -> list[str]:
    """Module constants: name, value, where, what (the source's comment)."""
    table = ["| constant | value | module | what |", "|---|---|---|---|"]
    for module, name in rows:
        value = getattr(module, name)
        shown = value.value if hasattr(value, "value") else value
        table.append(f"| `{name}` | `{_cell(repr(shown))}` | `{module.__name__}` | {_cell(comment(module, name))} |")
    return table


def _page(parts: list[str]) -> str:
    return "\n".join(parts).rstrip() + "\n"


# --- the graph model -------------------------------------------------------------------------------------------

def graph_model_records() -> tuple:
    """The records of the graph model (core/graph_model.py) as it describes them."""
    from paperkg.core.graph_model import describe

    return describe().records


def graph_model() -> str:
    """Labels, relationship types with their ends, properties, the benchmark mapping, the Neo4j schema."""
    from paperkg.core import schema
    from paperkg.cypher.library import CYPHER_DIR, read_cypher
    from paperkg.extract.evaluate.relation_benchmarks import SCIER_RELATIONS, SCIERC_RELATIONS

    scier = {kind: label for label, kind in SCIER_RELATIONS.items()}
    scierc = {kind: label + (" (turned round)" if swapped else "")
              for label, (kind, swapped) in SCIERC_RELATIONS.items()}
    parts = ["# The graph model", "", MADE_BY.format(source="`core/schema.py` and `core/graph_model.py`"), "",
             _doc(schema), "", f"Schema version {schema.SCHEMA_VERSION} (`{schema.SCHEMA_KEY}` in every extraction "
             "line and in graph.json; a file of another version is refused with one sentence).", "",
             "## Node labels", "", "| label | what |", "|---|---|"]
    what = {schema.NodeLabel.PAPER: "a paper of the input", schema.NodeLabel.RESULT: "a result a paper reports"}
    parts += [f"| `{label.value}` | {what.get(label, 'an entity')} |" for label in schema.NodeLabel]
    parts += ["", "## A paper's relationships to its entities", "",
              "A paper keeps one relationship to an entity, of its strongest role (strongest first):", ""]
    parts += [f"- `(:Paper)-[:{kind.value}]->(entity)`" for kind in reversed(schema.ROLE_STRENGTH)]
    parts += ["", "## Relationships between entities", "",
              "An entity-entity edge is decided from all the mentions that state it across papers (its direction, "
              "support and calibrated confidence: docs/explain/edges.md) and kept only between the labels its type "
              f"allows, from confidence {schema.RELATION_FLOOR} (`RELATION_FLOOR`); the views, layout weights and "
              f"queries read those at {schema.DEFAULT_MIN_CONFIDENCE} and up (`DEFAULT_MIN_CONFIDENCE`, the "
              "`min_confidence` setting, `--min-confidence`). Symmetric types: "
              + ", ".join(f"`{kind.value}`" for kind in sorted(schema.SYMMETRIC_REL_TYPES, key=lambda k: k.value))
              + " (one edge, ends in key order). `SYNONYM_OF` is no edge: it merges the two names into one node.",
              "", "| type | ends (head → tail) | SciER label | SciERC label |", "|---|---|---|---|"]
    for kind, ends in schema.REL_ENDS.items():
        shown = ("same label" if ends == frozenset((label, label) for label in schema.TERM_LABELS) else
                 ", ".join(f"{head.value} → {tail.value}" for head, tail in sorted(ends)))
        parts.append(f"| `{kind.value}` | {shown} | {scier.get(kind, '–')} | {scierc.get(kind, '–')} |")
    parts += ["", "SciERC's CONJUNCTION and FEATURE-OF have no paperkg type "
                  "(`extract/evaluate/relation_benchmarks.py` holds the mapping).", ""]
    parts += ["## Reported results", "",
              "Each result an abstract reports (`ResultStatement` of the extraction record: '28.4 BLEU on WMT14', "
              "'improves accuracy by 2.1 points') is a `Result` node (`ResultNode` below) with its value, its kind "
              "(a level reached or a change), the metric, data set, method, task and comparison as written with "
              "their character offsets, and the sentence. Its edges, each with the evidence of the mention it goes "
              "through:", ""]
    parts += [f"- `(:Paper)-[:{kind.value}]->(:Result)`" if kind is schema.RelType.REPORTS else
              f"- `(:Result)-[:{kind.value}]->(:{end.value})`" for kind, end in schema.RESULT_REL_TYPES.items()]
    parts += ["", "A part becomes an edge only when it is an entity mention whose node has that label; the text stays "
                  "on the node either way. Results are compared by `dataset_key`, `metric_key` (the metric's name "
                  "folded, aliases to one: `graph/data/metrics.tsv`), `split`, `kind` and `unit`; `better` says which "
                  "way the metric is better where it is known. Result nodes stay out of the metrics (degree, "
                  "PageRank, community) and the views' maps; `leaderboards.json` and `leaderboard.html` are built "
                  "from them, and the Cypher queries `leaderboard`, `results_for_method` and `best_reported` read "
                  "them ([leaderboards guide](../guides/leaderboards.md)).", ""]
    for record in graph_model_records():
        parts += [f"## `{record.name}`", "", record.description, "", "| field | type | always | what |",
                  "|---|---|---|---|"]
        parts += [f"| `{f.name}` | `{_cell(f.type)}` | {'yes' if f.required else ''} | {_cell(f.description)} |"
                  for f in record.fields]
        parts.append("")
    schema_text = read_cypher(CYPHER_DIR / "schema.cypher")
    parts += ["## In Neo4j", "", "`paperkg push` writes these labels, relationship types and properties; lists stay "
              "lists (an empty list is no property) and an edge's evidence becomes parallel list properties "
              "(`evidence_papers`, `evidence_sentences`, ...). The schema it applies first "
              "(`cypher/schema.cypher`):", "", "```cypher", schema_text.strip(), "```"]
    return _page(parts)


# --- the extraction record -----------------------------------------------------------------------------------

def extraction_record() -> str:
    """The records of extractions.jsonl."""
    from paperkg.core import schema
    from paperkg.extract.entities import TERM_RULES

    parts = ["# The extraction record", "", MADE_BY.format(source="`core/schema.py`"), "",
             "Every line of `extractions.jsonl` is one `Extraction` as JSON (`Extraction.to_json`: keys sorted, "
             f"`{schema.SCHEMA_KEY}` {schema.SCHEMA_VERSION}); `Extraction.from_json` reads it back and refuses a line "
             "of another schema with one sentence naming the file and line. Offsets are character offsets into the "
             "paper's normalised abstract; `sentence` fields are indices into `sentences`.", "",
             "A mention becomes a graph node (`node` true) by one of the rules " +
             ", ".join(f"`{rule}`" for rule in sorted(TERM_RULES)) + "; otherwise `termhood` holds the reason "
             "it is not one ([how extraction works](../explain/extraction.md)).", ""]
    for record in (schema.Extraction, schema.PaperRecord, schema.Mention, schema.AcronymDefinition,
                   schema.UndefinedAcronym, schema.Relation, schema.ResultStatement, schema.ResultPart):
        parts += _record_section(record)
    parts += ["## `Role`", "", _doc(schema.Role), "", ", ".join(f"`{role.value}`" for role in schema.Role)]
    parts += ["", "## `ResultKind`", "", _doc(schema.ResultKind), "",
              ", ".join(f"`{kind.value}`" for kind in schema.ResultKind)]
    return _page(parts)


# --- the settings --------------------------------------------------------------------------------------------------

def settings() -> str:
    """The run settings, the pipeline's settings and the constants behind the defaults."""
    import spacy
    from thinc.api import Config

    from paperkg import settings as run_settings
    from paperkg.extract import pipeline

    parts = ["# Settings", "", MADE_BY.format(source="`shell/settings.py`, `extract/pipeline.cfg`, the components' "
                                                      "`default_config` and the modules' constants"), "",
             "## Run settings", "", _doc(run_settings), "",
             "| setting | environment | config file | default | what |", "|---|---|---|---|---|"]
    for field in dataclasses.fields(run_settings.Settings):
        variable = run_settings._ENVIRONMENT.get(field.name)
        if variable is None:
            continue
        key = (f"`[neo4j] {field.name.removeprefix('neo4j_')}`" if field.name.startswith("neo4j_")
               else f"`{field.name}`")
        parts.append(f"| `{field.name}` | `{variable}` | {key} | `{field.default!r}` | "
                     f"{_cell(comment(run_settings.Settings, field.name))} |")
    config = Config().from_disk(pipeline.PIPELINE_CONFIG, interpolate=False)
    trained = Config().from_disk(pipeline.DEFAULT_MODEL / "config.cfg", interpolate=False)["components"]
    parts += ["", "## The extraction pipeline", "",
              f"`extract/pipeline.cfg` (spaCy's config system; `nlp.config` of a loaded pipeline holds every value). "
              f"Components in order: {', '.join(f'`{name}`' for name in config['nlp']['pipeline'])}; disabled: "
              f"{', '.join(f'`{name}`' for name in config['nlp']['disabled'])} (SciERC's term layer). spaCy's batch "
              f"size in the config: {config['nlp']['batch_size']} (the CLI and the API pass their own, see below).", "",
              "Span groups (`[spans]`, each read and written under the key given here):", "",
              "| group | key |", "|---|---|"]
    parts += [f"| `{name}` | `{key!r}` |" for name, key in config["spans"].items()]
    for name in config["nlp"]["pipeline"]:
        block = config["components"][name]
        if "source" in block:
            settings_ = {key: value for key, value in trained[name].items() if key != "factory"}
            shown = {key: value for key, value in settings_.items() if not isinstance(value, dict)}
            parts += ["", f"### `{name}` (trained, from `extract/model/`)", "",
                      f"Factory `{trained[name]['factory']}`; its architecture is `[components.{name}.model]` in "
                      "`extract/model/config.cfg`" + (", its other settings in the shipped model:" if shown else "."),
                      ""]
            if shown:
                parts += ["| setting | value |", "|---|---|"]
                parts += [f"| `{key}` | `{_cell(json.dumps(value))}` |" for key, value in shown.items()]
            continue
        meta = spacy.Language.get_factory_meta(block["factory"])
        parts += ["", f"### `{name}`", "", _doc(spacy.registry.factories.get(block["factory"])), "",
                  "| setting | default | in pipeline.cfg |", "|---|---|---|"]
        for key, value in meta.default_config.items():
            given = block.get(key)
            parts.append(f"| `{key}` | `{_cell(json.dumps(value, sort_keys=True))}` | "
                         f"{'`' + _cell(str(given)) + '`' if given is not None else ''} |")
    parts += ["", "## Defaults kept as constants", "",
              "The values behind command defaults and the graph's decisions, each set once:", ""]
    parts += _constants(_constant_names())
    return _page(parts)


def _constant_names() -> list[tuple[ModuleType, str]]:
    """The constants the settings page lists, with their modules (imported when the page is made)."""
    modules = {name: import_module(f"paperkg.{name}") for name in (
        "core.schema", "extract.limits", "ingest.fields", "graph.resolve", "graph.trends", "graph.bursts",
        "viz.options", "viz.map_page", "viz.clusters", "orchestrate.parallel")}
    return [(modules["core.schema"], "RELATION_FLOOR"), (modules["core.schema"], "DEFAULT_MIN_CONFIDENCE"),
            (modules["core.schema"], "MENTION_FLOOR"), (modules["extract.limits"], "BATCH_SIZE"),
            (modules["extract.limits"], "MAX_TEXT_CHARS"), (modules["ingest.fields"], "MAX_ABSTRACT_CHARS"),
            (modules["graph.resolve"], "DOMINANT_SHARE"), (modules["graph.resolve"], "SENSE_PAPERS"),
            (modules["graph.resolve"], "VARIANT_SHARE"), (modules["graph.resolve"], "SOURCE_WEIGHT"),
            (modules["graph.trends"], "WINDOW"), (modules["graph.trends"], "MIN_PAPERS"),
            (modules["graph.bursts"], "STATE_RATIO"), (modules["graph.bursts"], "GAMMA"),
            (modules["viz.options"], "FOLD_ABOVE"), (modules["viz.options"], "DEFAULT_MIN_PAPERS"),
            (modules["viz.options"], "DEFAULT_TYPES"), (modules["viz.map_page"], "LINKS_PER_ENTITY"),
            (modules["viz.map_page"], "CROSS_CLUSTER_PULL"), (modules["viz.clusters"], "FIELD_SHARE"),
            (modules["viz.options"], "YEAR_MIN_PAPERS"),
            (modules["viz.options"], "HUB_DEGREE"), (modules["viz.options"], "FOCUS_MAX_NODES"),
            (modules["orchestrate.parallel"], "AUTO_POOL"), (modules["orchestrate.parallel"], "READ_AHEAD"),
            (modules["orchestrate.parallel"], "IN_FLIGHT_PER_JOB"),
            (modules["orchestrate.parallel"], "SECOND_PROCESS_NODES"),
            (modules["orchestrate.parallel"], "SPAWN_LAYOUT_NODES")]


# --- the Python API --------------------------------------------------------------------------------------------

class _Written(str):
    """An annotation as the source writes it (postponed annotations are strings): shown without quotes."""

    def __repr__(self) -> str:
        return str(self)


def _signature(item: Callable[..., Any], name: str) -> str:
    """`name(parameters) -> result`, annotations as written, defaults as their repr."""
    signature = inspect.signature(item)

    def written(annotation: Any) -> Any:
        return _Written(annotation) if isinstance(annotation, str) else annotation

    parameters = [parameter.replace(annotation=written(parameter.annotation))
                  for parameter in signature.parameters.values()]
    return f"{name}{signature.replace(parameters=parameters, return_annotation=written(signature.return_annotation))}"


def _function(item: Callable[..., Any], name: str) -> list[str]:
    return [f"### `{name}`", "", "```python", _signature(item, name), "```", "", _doc(item), ""]


def _class(record: type, where: str) -> list[str]:
    """A class: its docstring, its constructor (a dataclass: its fields), its public methods and properties."""
    parts = [f"### `{where}.{record.__name__}`", "", _doc(record), ""]
    if dataclasses.is_dataclass(record):
        parts += [*_fields_table(record), ""]
    else:
        parts += ["```python", _signature(record, record.__name__), "```", "", _doc(vars(record).get("__init__")), ""]
    for name, member in vars(record).items():
        if name.startswith("_"):
            continue
        if isinstance(member, property):
            parts.append(f"- `{name}` (property): {_doc(member)}")
        elif inspect.isfunction(member):
            shown = _signature(member, name).replace("(self, ", "(").replace("(self)", "()")
            parts.append(f"- `{shown}`: {_doc(member)}")
    return [*parts, ""]


def python_api() -> str:
    """The public functions of `paperkg` and the records and readers they hand over."""
    import paperkg
    from paperkg.graph import builder, exports, trends
    from paperkg.orchestrate import artifact

    parts = ["# Python API", "", MADE_BY.format(source="the signatures and docstrings"), "",
             "`import paperkg` is light: spaCy and NetworkX load when a function that needs them is called. Graphs are "
             "`networkx.MultiDiGraph`s of the [graph model](graph-model.md); records are those of the "
             "[extraction record](extraction-record.md).", "", "## `paperkg`", ""]
    for name in sorted(set(paperkg.__all__) - {"__version__"}):
        parts += _function(getattr(paperkg, name), f"paperkg.{name}")
    parts += ["## Reading and writing graphs", ""]
    for name in ("read_graph", "read_json", "read_graphml", "write_json", "write_graphml", "write_gexf", "write_csv"):
        parts += _function(getattr(exports, name), f"paperkg.graph.exports.{name}")
    parts += _function(artifact.read_trends, "paperkg.orchestrate.artifact.read_trends")
    parts += _function(trends.compute_trends, "paperkg.graph.trends.compute_trends")
    parts += ["## Building a graph step by step", ""]
    parts += _class(builder.GraphBuilder, "paperkg.graph.builder")
    parts += ["## Trends", ""]
    for record in (trends.Trends, trends.EntityTrend, trends.YearCount, trends.PaperRef, trends.Burst):
        parts += _class(record, "paperkg.graph.trends")
    return _page(parts)


# --- the Cypher library --------------------------------------------------------------------------------------------

def cypher_queries() -> str:
    """The named queries of `paperkg query`."""
    from paperkg.cypher.library import list_queries

    parts = ["# Cypher queries", "", MADE_BY.format(source="the headers of `cypher/queries/*.cypher`"), "",
             "`paperkg query NAME --param k=v` runs one against the server of the settings; `paperkg query NAME "
             "--show` prints it, labels filled, to paste into Neo4j Browser.", ""]
    for query in list_queries():
        parts += [f"## `{query.name}`", "", " ".join(query.summary.split()), ""]
        if query.params:
            parts += ["| parameter | default | what |", "|---|---|---|"]
            parts += [f"| `{param.name}` | `{_cell(json.dumps(param.default))}` | {_cell(param.help or '')} |"
                      for param in query.params]
            parts.append("")
    return _page(parts)


PAGES: dict[str, Callable[[], str]] = {"cli.md": cli, "graph-model.md": graph_model,
                                       "extraction-record.md": extraction_record, "settings.md": settings,
                                       "python-api.md": python_api, "cypher-queries.md": cypher_queries}


def stale() -> list[Path]:
    """The reference files that are not what this script writes."""
    return [REFERENCE / name for name, make in PAGES.items()
            if not (REFERENCE / name).is_file() or (REFERENCE / name).read_text(encoding="utf8") != make()]


def main() -> int:
    if "--check" in sys.argv[1:]:
        for path in stale():
            print(f"{path} is not current: run python scripts/references.py", file=sys.stderr)
        return 1 if stale() else 0
    REFERENCE.mkdir(parents=True, exist_ok=True)
    for name, make in PAGES.items():
        (REFERENCE / name).write_text(make(), encoding="utf8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
