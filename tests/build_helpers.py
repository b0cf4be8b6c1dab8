"""Small inputs and output checks for the build-safety tests: a few real abstracts, the bytes of an
output folder, and a build killed with SIGKILL at a chosen point."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

from cli_helpers import CORPUS, ROOT, run_cli

from paperkg.orchestrate.build import OUTPUTS
from paperkg.core.manifest import MANIFEST

OUTPUT_NAMES = (*OUTPUTS, MANIFEST)


@cache
def example_papers() -> tuple[dict, ...]:
    """The ICML 2025 example abstracts as plain records (id, title, abstract)."""
    import paperkg

    return tuple({"id": r.id, "title": r.title, "abstract": r.abstract} for r in paperkg.read_records(CORPUS))


def write_papers(path: Path, papers: list[dict] | tuple[dict, ...]) -> Path:
    """A JSONL input file of these records."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf8")
    return path


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under the folder (hidden ones too) by relative name, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def killed_build(args: list[str], patch: str, signal_name: str = "SIGKILL") -> subprocess.CompletedProcess:
    """Run `paperkg ARGS` in a subprocess after `patch` (Python source) has wrapped some function so
    that it sends itself `signal_name` (SIGKILL by default) at a chosen point; returns the finished process."""
    program = "\n".join([
        "import os, signal, sys",
        "def die(*args, **kwargs):",
        f"    os.kill(os.getpid(), signal.{signal_name})",
        patch,
        "from paperkg.cli import main",
        f"sys.argv = ['paperkg', *{args!r}]",
        "main()",
    ])
    # Output to files, not pipes: a process the build left behind would hold a pipe open and hang the test.
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        finished = subprocess.run([sys.executable, "-c", program], stdout=out, stderr=err, cwd=ROOT, timeout=600)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(finished.args, finished.returncode, out.read(), err.read())


TAG_OPENER = re.compile(r"<[A-Za-z/!?]")  # what an HTML parser reads as a tag, comment or declaration
HOSTILE = ["&lt;img src=x onerror=alert(1) x&gt;", "&lt;script&gt;alert(1)&lt;/script x&gt;",
           "&lt;!-- x --&gt;", "&lt;?php x ?&gt;", "<a href=x onclick=y z>", "&amp;lt;svg onload=alert(1) x&amp;gt;",
           "<post, reply>", "k<n and n>m"]


def hostile_build_in(folder: Path) -> Path:
    """A rules-only build (in folder/out) of real abstracts with markup that is not a well-formed tag in their
    text and title; returns the output folder."""
    papers = [{**paper, "title": f"{paper['title']} {raw}", "abstract": f"{paper['abstract']} We use {raw} here."}
              for paper, raw in zip(example_papers(), HOSTILE)]
    run_cli("build", str(write_papers(folder / "in.jsonl", papers)), "-o", str(folder / "out"), "--no-model")
    return folder / "out"


def strings(value: object) -> list[str]:
    """Every string in a JSON value (keys too)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (key, *strings(item))]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return []
