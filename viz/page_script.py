"""A page's script from its ES modules (viz/templates/page/*.mjs, viz/templates/trends/*.mjs), in one scope.

The modules are tested as they are by Node (tests/js/) and linted by scripts/jslint.mjs; the page gets them
concatenated, each after the modules it imports, with their `import` lines dropped and their `export`
keywords removed, inside one function that ends by calling the entry module's start function. Only the two
forms the lint allows are understood: `import { a, b } from "./module.mjs";` and `export function|var ...`.
"""
from __future__ import annotations

import re
from importlib.abc import Traversable

IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w-]+\.mjs)";$', re.MULTILINE)
EXPORT = re.compile(r"^export (?=function |var )", re.MULTILINE)
_OTHER_MODULE_SYNTAX = re.compile(r"^(import|export)\b", re.MULTILINE)


def page_script(folder: Traversable, entry: str, start: str) -> str:
    """The modules `entry` reaches in `folder`, in import order, as one script calling `start()` at its end."""
    modules = _ordered(folder, entry)
    parts = [f"// Bundled by paperkg.viz.page_script from {', '.join(modules)}: one scope, no module syntax.",
             "(function () {", '"use strict";']
    for name in modules:
        text = EXPORT.sub("", IMPORT.sub("", _source(folder, name)))
        if match := _OTHER_MODULE_SYNTAX.search(text):
            raise RuntimeError(f"{name}: unsupported module syntax {match.group(0)!r} "
                               "(scripts/jslint.mjs says which forms the bundle takes).")
        parts.append(f"// ---- {name}\n" + text.strip("\n"))
    parts += [f"{start}();", "})();", ""]
    return "\n".join(parts)


def _ordered(folder: Traversable, entry: str) -> list[str]:
    """`entry` and the modules it imports, directly or not, each after its own imports."""
    order: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in order:
            return
        if name in path:
            raise RuntimeError(f"{name}: import cycle {' -> '.join((*path, name))}.")
        for imported in IMPORT.findall(_source(folder, name)):
            visit(imported[1], (*path, name))
        order.append(name)

    visit(entry, ())
    return order


def _source(folder: Traversable, name: str) -> str:
    return (folder / name).read_text(encoding="utf-8")
