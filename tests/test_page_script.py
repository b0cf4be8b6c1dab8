"""viz/page_script.py: a page's ES modules bundled into one script, each after its imports, without module syntax."""
from __future__ import annotations

from importlib import resources

import pytest

from paperkg.viz.page_script import page_script


def _modules(folder, **sources: str):
    for name, text in sources.items():
        (folder / f"{name}.mjs").write_text(text, encoding="utf-8")
    return folder


def test_modules_come_after_their_imports_without_module_syntax(tmp_path):
    folder = _modules(tmp_path, main='// Entry.\nimport { b } from "./b.mjs";\nimport { a } from "./a.mjs";\n'
                                     "export function start() { return a() + b(); }\n",
                      b='// B.\nimport { a } from "./a.mjs";\nexport function b() { return a(); }\n',
                      a="// A.\nexport var ONE = 1;\nexport function a() { return ONE; }\n")
    script = page_script(folder, "main.mjs", "start")
    assert [line for line in script.splitlines() if line.startswith("// ----")] == \
        ["// ---- a.mjs", "// ---- b.mjs", "// ---- main.mjs"]
    assert "import " not in script and "export " not in script
    assert script.rstrip().endswith("start();\n})();")


def test_a_cycle_or_another_module_form_is_refused_naming_the_module(tmp_path):
    folder = _modules(tmp_path, x='import { y } from "./y.mjs";\n', y='import { x } from "./x.mjs";\n')
    with pytest.raises(RuntimeError, match=r"x.mjs: import cycle x.mjs -> y.mjs -> x.mjs"):
        page_script(folder, "x.mjs", "start")
    folder = _modules(tmp_path, z="export default function z() {}\n")
    with pytest.raises(RuntimeError, match=r"z.mjs: unsupported module syntax 'export'"):
        page_script(folder, "z.mjs", "start")


def test_the_shipped_pages_bundle_every_module_of_their_folder():
    templates = resources.files("paperkg.viz") / "templates"
    for folder, entry, start in (("page", "view.mjs", "startView"), ("trends", "trends.mjs", "startTrends")):
        script = page_script(templates / folder, entry, start)
        shipped = sorted(item.name for item in (templates / folder).iterdir() if item.name.endswith(".mjs"))
        assert sorted(line[8:] for line in script.splitlines() if line.startswith("// ---- ")) == shipped
