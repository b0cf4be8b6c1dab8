"""paperkg.processes: the one package that uses CPython's private names, its fallbacks where they are
missing (the standard library's pool, a normal exit), and the work done while a pool is waited on."""
from __future__ import annotations

import ast
import subprocess
import sys
import threading
import time
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import pytest

from paperkg.processes import CHECKED_ON, idle, when_idle
from paperkg.processes.pool import private_fork_server

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTED = {("os", "_exit")}  # an underscore name the standard library documents as public


def package_folders() -> list[str]:
    """The folders pyproject.toml maps into the paperkg package (a new package is checked without a change here)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf8"))["tool"]["setuptools"]
    return sorted(set(setuptools["package-dir"].values()))


def private_names(source: str) -> list[str]:
    """`module._name` uses of the standard library's modules in `source` (attributes, dotted ones included,
    `from m import _name`, getattr/hasattr with the name as a string), as "line: module._name"."""
    tree = ast.parse(source)
    modules: dict[str, str] = {}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                modules[bound] = alias.name if alias.asname else bound
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                if _private(alias.name):
                    found.append((node.lineno, f"{node.module}.{alias.name}"))
    stdlib = {name: full for name, full in modules.items() if full.split(".")[0] in sys.stdlib_module_names}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) \
                and (reached := _stdlib_path(node.value, stdlib)) is not None:
            found.append((node.lineno, f"{reached}.{node.attr}"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                and len(node.args) >= 2 and (reached := _stdlib_path(node.args[0], stdlib)) is not None \
                and isinstance(node.args[1], ast.Constant) and _private(str(node.args[1].value)):
            found.append((node.lineno, f"{reached}.{node.args[1].value}"))
    return [f"{line}: {name}" for line, name in sorted(found)
            if tuple(name.rsplit(".", 1)) not in DOCUMENTED]


def _stdlib_path(node: ast.expr, stdlib: dict[str, str]) -> str | None:
    """The dotted path `node` names when it is a standard library module or a public attribute of one
    (`multiprocessing.forkserver`), else None (so a chain is reported once, at its first private name)."""
    if isinstance(node, ast.Name):
        return stdlib.get(node.id)
    if isinstance(node, ast.Attribute) and not _private(node.attr):
        base = _stdlib_path(node.value, stdlib)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_the_check_finds_each_way_of_reaching_a_private_name():
    source = ("import atexit\nfrom multiprocessing import forkserver\nfrom threading import _shutdown\nimport os\n"
              "atexit._run_exitfuncs()\nforkserver._forkserver._stop()\ngetattr(atexit, '_ncallbacks')\nos._exit(0)\n"
              "mine._private()\nimport multiprocessing.util\nimport concurrent.futures.process as cfp\n"
              "multiprocessing.util._exit_function()\ncfp._python_exit()\n"
              "hasattr(multiprocessing.util, '_afterfork_registry')\n")
    assert private_names(source) == ["3: threading._shutdown", "5: atexit._run_exitfuncs",
                                     "6: multiprocessing.forkserver._forkserver", "7: atexit._ncallbacks",
                                     "12: multiprocessing.util._exit_function",
                                     "13: concurrent.futures.process._python_exit",
                                     "14: multiprocessing.util._afterfork_registry"]


def test_no_package_module_outside_processes_uses_a_private_name_of_the_standard_library():
    assert {"core", "processes", "shell"} <= set(package_folders())
    found = {str(path.relative_to(ROOT)): names for package in package_folders() if package != "processes"
             for path in sorted((ROOT / package).rglob("*.py"))
             if (names := private_names(path.read_text(encoding="utf-8")))}
    assert found == {}
    inside = {path.name for path in (ROOT / "processes").glob("*.py")
              if private_names(path.read_text(encoding="utf-8"))}
    assert inside == {"pool.py", "exit.py"}  # the check does see the ones it allows


def test_on_the_versions_checked_the_private_names_are_there():
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert version not in CHECKED_ON or private_fork_server() is not None
    assert version not in CHECKED_ON or hasattr(__import__("atexit"), "_run_exitfuncs")


# Run in a fresh interpreter: the private name is removed for the whole process.
FALLBACK = """
import multiprocessing.forkserver as forkserver
from paperkg.core.schema import PaperRecord
from paperkg.orchestrate import parallel
from paperkg.processes.pool import private_fork_server

del forkserver._forkserver
records = [PaperRecord(id=f"p{i}", title=f"Paper {i}", abstract=f"We propose BERT-{i} for question answering on SQuAD.")
           for i in range(6)]
if __name__ == "__main__":
    pooled = list(parallel.extract_lines(records, jobs=2, model=None, rules_only=True, batch_size=2))
    serial = list(parallel.extract_lines(records, jobs=1, model=None, rules_only=True, batch_size=2))
    print(private_fork_server() is None, pooled == serial, len(pooled))
"""


@pytest.mark.slow
def test_without_the_private_fork_server_the_pool_is_the_standard_librarys_with_the_same_lines(tmp_path):
    script = tmp_path / "fallback.py"
    script.write_text(FALLBACK, encoding="utf8")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[0] == "True True 6"


ONE_PROCESS = """
import signal, sys, time
from pathlib import Path
from paperkg.processes import preloaded_process

def write(path):
    Path(path).write_text("ran")

if __name__ == "__main__":
    with preloaded_process(write, (sys.argv[1],), ["json"], name="paperkg-test") as process:
        process.join(60)
    with preloaded_process(time.sleep, (60,), ["json"]) as sleeper:
        pass
    print(process.exitcode, Path(sys.argv[1]).read_text(), sleeper.exitcode == -signal.SIGKILL)
"""


@pytest.mark.slow
def test_one_process_from_the_preloaded_server_runs_its_target_and_is_killed_if_it_outlives_the_block(tmp_path):
    script = tmp_path / "one.py"
    script.write_text(ONE_PROCESS, encoding="utf8")
    result = subprocess.run([sys.executable, str(script), str(tmp_path / "out.txt")], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[0] == "0 ran True"


def test_without_the_private_exit_handler_runner_the_process_exits_as_usual(tmp_path):
    marker = tmp_path / "atexit-ran"
    program = "\n".join([
        "import atexit, sys",
        "from pathlib import Path",
        "from paperkg.processes import run_and_exit",
        "del atexit._run_exitfuncs",
        f"atexit.register(lambda: Path({str(marker)!r}).write_text('yes'))",
        "def command():",
        "    sys.stdout.write('unflushed output')",
        "    sys.exit(3)",
        "run_and_exit(command)",
    ])
    finished = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert (finished.returncode, finished.stdout) == (3, "unflushed output")
    assert marker.read_text() == "yes"


def _idle_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "paperkg-idle"]


def test_idle_work_runs_beside_the_block_and_is_joined_when_it_ends():
    seen: list[str] = []

    def work() -> None:
        time.sleep(0.2)
        seen.append(threading.current_thread().name)

    with when_idle(work), idle():
        assert seen == [] and len(_idle_threads()) == 1  # the block does not wait for it
    assert seen == ["paperkg-idle"] and _idle_threads() == []  # joined: nothing forks beside it


def test_idle_work_is_declared_for_its_block_only_and_a_failure_is_left_to_the_real_import():
    def broken() -> None:
        raise ImportError("no such module")

    with when_idle(broken), idle():  # left to the real import to report
        pass
    with idle():  # nothing declared: no thread
        assert _idle_threads() == []
