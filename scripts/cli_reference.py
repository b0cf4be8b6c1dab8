"""Write docs/CLI.md, the reference of every `paperkg` command: each command's own `--help`, rendered
at a fixed width, so the documented usage cannot drift from the code.

    python scripts/cli_reference.py          # rewrite docs/CLI.md
    python scripts/cli_reference.py --check  # exit 1 when docs/CLI.md is not current (CI runs this)
"""
from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from importlib.metadata import version

import typer
from typer.testing import CliRunner

from paperkg.cli import app

DOC = Path(__file__).resolve().parent.parent / "docs" / "CLI.md"
RENDERED_WITH = f"Rendered with typer {version('typer')} and rich {version('rich')} at 100 columns."
HELP_ENV = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb", "_TYPER_FORCE_DISABLE_TERMINAL": "1"}


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


def reference() -> str:
    """The whole reference as markdown."""
    parts = ["# paperkg command reference", "",
             "Each command's `--help`, made by `python scripts/cli_reference.py`; a test checks it is current.",
             "", RENDERED_WITH, ""]
    for path in [(), *command_paths(app)]:
        parts += [f"## `{' '.join(('paperkg', *path))}`", "", "```text", help_text(path), "```", ""]
    return "\n".join(parts).rstrip() + "\n"


def main() -> int:
    text = reference()
    if "--check" in sys.argv[1:]:
        if not DOC.is_file() or DOC.read_text(encoding="utf8") != text:
            print(f"{DOC} is not current: run python scripts/cli_reference.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
