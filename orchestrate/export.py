"""`paperkg export` (which format and file an export writes, and writing it) and `paperkg thesaurus`.

-o follows the rule of every command (core/output_folder.py names_folder). The format comes from --format or
else from the file's extension; when both are given they must agree.
"""
from __future__ import annotations

from enum import Enum
from pathlib import Path

from paperkg.core.errors import ExitCode, PaperkgError
from paperkg.core.output_folder import check_output_folder, names_file_only, names_folder
from paperkg.core.output_guard import check_output

class ExportFormat(str, Enum):
    """Formats of `paperkg export`."""

    GRAPHML = "graphml"
    GEXF = "gexf"
    JSON = "json"
    CSV = "csv"
    VOSVIEWER = "vosviewer"


EXTENSIONS = {"graphml": ".graphml", "gexf": ".gexf", "json": ".json"}  # csv, vosviewer: a folder of two files
FOLDER_FORMATS = {"csv": "a CSV export is two files (nodes.csv and edges.csv)",
                  "vosviewer": "a VOSviewer export is two files (map.txt and network.txt)"}
DEFAULT_FORMAT = "graphml"


def export_target(graph_file: Path, format: str | None, output: Path | None, entity_map: bool) -> tuple[str, Path]:
    """The format to write and where: a file, or for csv a folder; one sentence when -o and --format disagree."""
    chosen, target = _chosen_target(graph_file, format, output, entity_map)
    if entity_map and chosen == "json":
        raise PaperkgError("--map writes GraphML, GEXF, CSV or VOSviewer files, not node-link JSON: use --format "
                           "graphml, gexf, csv or vosviewer.", ExitCode.USAGE)
    return chosen, target


def _chosen_target(graph_file: Path, format: str | None, output: Path | None, entity_map: bool) -> tuple[str, Path]:
    if format == "vosviewer" and not entity_map:
        raise PaperkgError("--format vosviewer writes the entity map (VOSviewer's map and network files): add "
                           "--map.", ExitCode.USAGE)
    stem = "map" if entity_map else "graph"
    if format in FOLDER_FORMATS and output is not None and not names_file_only(output):
        return format, output
    if output is None or names_folder(output):
        chosen = format or DEFAULT_FORMAT
        folder = output or (graph_file if graph_file.is_dir() else graph_file.parent)
        return chosen, folder if chosen in FOLDER_FORMATS else folder / f"{stem}{EXTENSIONS[chosen]}"
    suffix = output.suffix.lower()
    inferred = next((name for name, extension in EXTENSIONS.items() if extension == suffix), None)
    folder_format = "csv" if suffix == ".csv" else format if format in FOLDER_FORMATS else None
    if folder_format:
        raise PaperkgError(f"-o {output}: {FOLDER_FORMATS[folder_format]}, so -o names a folder: "
                           f"use -o {output.with_suffix('')}/.", ExitCode.USAGE)
    if inferred is None:
        raise PaperkgError(f"-o {output}: paperkg exports .graphml, .gexf or .json files (or a folder of CSV): "
                           "name the file with one of these extensions.", ExitCode.USAGE)
    if format is not None and format != inferred:
        raise PaperkgError(f"-o {output} names a {inferred} file but --format is {format}: drop --format, or "
                           f"name the file {output.with_suffix(EXTENSIONS[format]).name}.", ExitCode.USAGE)
    return inferred, output


def write_export(graph_file: Path, format: str, target: Path, entity_map: bool) -> list[Path]:
    """Read the graph, write it (or its entity map) in `format` at `target`; returns the files written."""
    from paperkg.graph import exports

    graph = exports.read_graph(graph_file)
    if entity_map:
        from paperkg.orchestrate.artifact import views_layer
        from paperkg.viz.map_export import entity_map_table

        graph = entity_map_table(graph, layer=views_layer(exports.graph_path(graph_file)))
    if format in FOLDER_FORMATS:
        check_output_folder(target)
        return (exports.write_csv if format == "csv" else exports.write_vosviewer)(graph, target)
    check_output_folder(target.parent)
    check_output(target, f"a {format} export", may_match=True)
    {"graphml": exports.write_graphml, "gexf": exports.write_gexf, "json": exports.write_json}[format](graph, target)
    return [target]


def write_thesaurus(graph_file: Path, output: Path) -> int:
    """Write the merges the graph made and the candidates it did not as a --thesaurus file to review;
    returns how many merge rows are active."""
    from paperkg.core.atomic import atomic_write_text
    from paperkg.graph.exports import read_graph
    from paperkg.graph.thesaurus_review import thesaurus_text

    if output.is_dir():
        raise PaperkgError(f"-o {output} is a folder; name the thesaurus file to write (e.g. thesaurus.tsv).",
                           ExitCode.USAGE)
    check_output(output, "the thesaurus")
    text = thesaurus_text(read_graph(graph_file))
    atomic_write_text(output, text)
    return sum(1 for line in text.splitlines()[2:] if line and not line.startswith("#"))
