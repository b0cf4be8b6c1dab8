// scripts/jslint.mjs: what it finds in a module, and that the pages' modules are clean.
import { test } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { lintModule, lintPage, tokens } from "../../scripts/jslint.mjs";

var TEMPLATES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "viz", "templates");

function findings(source) { return lintModule("// A module.\n" + source).findings; }

test("a clean module has no finding", () => {
  assert.deepEqual(findings('import { b } from "./b.mjs";\nexport function a(x) { var y = b(x); return y === 1 ? { key: x } : /[a-z]/.test(x) / 2; }\n'), []);
});

test("markup sinks, loose equality, let and undeclared names are found with their lines", () => {
  var found = findings("export function a(node, text) {\n  node.innerHTML = text;\n  return text == nothing;\n}\n");
  assert.ok(found.includes("line 3: innerHTML (corpus text enters the page as textContent only)"));
  assert.ok(found.includes("line 4: == (use ===)"));
  assert.ok(found.includes("line 4: nothing is not declared"));
  assert.ok(findings("export function a() { document.write(1); }\n").some((f) => f.includes("write")));
  assert.ok(findings("export function a() { let x = 1; return x; }\n").some((f) => f.includes("let (")));
});

test("unused imports and module-level names, and module syntax the bundle does not understand", () => {
  assert.deepEqual(findings('import { b } from "./b.mjs";\nexport function a() { return 1; }\n'), ["line 2: b is imported and not used"]);
  assert.deepEqual(findings("var LEFT = 1;\nexport function a() { return 2; }\n"), ["line 2: LEFT is declared and not used"]);
  assert.ok(findings('import b from "./b.mjs";\nexport function a() { return b; }\n')[0].includes("only `import { a, b }"));
  assert.ok(findings("export default function a() { return 1; }\n").some((f) => f.includes("only `export function`")));
  assert.deepEqual(lintModule("export function a() { return 1; }\n").findings, ["line 1: a module starts with a comment saying what it holds"]);
});

test("strings, comments and regular expressions are not read as code", () => {
  assert.deepEqual(tokens('a / b; /* x == y */ "c == d"; /=[/]/g.test(e) // f\n').map((t) => t.type),
                   ["name", "punct", "name", "punct", "string", "punct", "regex", "punct", "name", "punct", "name", "punct"]);
});

test("the pages' modules are clean", async () => {
  assert.deepEqual(await lintPage(join(TEMPLATES, "page")), []);
  assert.deepEqual(await lintPage(join(TEMPLATES, "trends")), []);
});
