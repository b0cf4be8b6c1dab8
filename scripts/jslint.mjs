// The static check of the pages' ES modules (viz/templates/*/*.mjs), with Node alone (no npm package):
//
//     node scripts/jslint.mjs            # every page module; exit 1 and one line per finding
//
// Node loads every module (syntax, and each imported name exported by its module: the modules only
// declare, so loading runs nothing), then each module's tokens are checked for what the pages promise
// and what a linter would catch: no markup sinks (corpus text enters only as textContent), strict
// equality, no name used that is not declared in the module nor a known global, no import or module-level
// name left unused, no export that no other module imports or that its own module does not use (tests
// do not count: no test-only code in a page), each name declared once across a page's modules (the page
// bundles them into one scope, viz/page_script.py), each module reached from the page's one entry, and
// only the module syntax the bundler understands. Scopes are not modelled: a name declared anywhere in a
// module counts as declared in all of it (what it misses, the browser tests run).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

var ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
var PAGES = [join(ROOT, "viz", "templates", "page"), join(ROOT, "viz", "templates", "trends"),
  join(ROOT, "viz", "templates", "leaderboard")];
var GLOBALS = new Set(["document", "window", "vis", "Array", "Boolean", "Infinity", "JSON", "Map", "Math", "NaN",
  "Number", "Object", "Set", "String", "parseInt", "parseFloat", "isNaN", "undefined"]);
var KEYWORDS = new Set(["var", "let", "const", "function", "return", "if", "else", "for", "while", "do", "break",
  "continue", "new", "typeof", "instanceof", "in", "of", "this", "null", "true", "false", "switch", "case",
  "default", "throw", "try", "catch", "finally", "delete", "void", "import", "export", "from", "as"]);
var SINKS = /^(innerHTML|outerHTML|insertAdjacentHTML|write|writeln|eval|Function|createContextualFragment|DOMParser|setTimeout|setInterval)$/;
var IMPORT_LINE = /^import \{([^}]*)\} from "\.\/([\w-]+\.mjs)";$/;
var EXPORT_LINE = /^export (function|var) /;
var REGEX_AFTER = new Set(["(", ",", "=", ":", "[", "!", "&&", "||", "?", "{", "}", ";", "return", "typeof", "+", "-",
  "*", "%", "<", ">", "===", "!==", "<=", ">="]);
var PUNCTUATORS = ["===", "!==", "=>", "&&", "||", "==", "!=", "<=", ">=", "++", "--", "+=", "-=", "*=", "/="];

// The module's tokens: {type: "name" | "punct" | "string" | "number" | "regex", value, line}, comments dropped.
export function tokens(source) {
  var list = [], at = 0, line = 1;
  function last() { return list.length ? list[list.length - 1] : null; }
  while (at < source.length) {
    var c = source[at], rest = source.slice(at), match;
    if (c === "\n") { line++; at++; continue; }
    if (/\s/.test(c)) { at++; continue; }
    if (rest.startsWith("//")) { at = source.indexOf("\n", at); if (at < 0) break; continue; }
    if (rest.startsWith("/*")) {
      var end = source.indexOf("*/", at + 2);
      if (end < 0) throw new Error("line " + line + ": unclosed comment");
      line += source.slice(at, end).split("\n").length - 1;
      at = end + 2;
      continue;
    }
    if (c === "`") throw new Error("line " + line + ": template literals are not used in the pages");
    if (c === '"' || c === "'") {
      match = new RegExp("^" + c + "(?:[^" + c + "\\\\\\n]|\\\\.)*" + c).exec(rest);
      if (!match) throw new Error("line " + line + ": unclosed string");
      list.push({ type: "string", value: match[0], line: line });
    } else if (c === "/" && (!last() || (last().type === "punct" || last().type === "name") && REGEX_AFTER.has(last().value))) {
      match = /^\/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+\/[a-z]*/.exec(rest);
      if (!match) throw new Error("line " + line + ": unclosed regular expression");
      list.push({ type: "regex", value: match[0], line: line });
    } else if ((match = /^[A-Za-z_$][\w$]*/.exec(rest))) {
      list.push({ type: "name", value: match[0], line: line });
    } else if ((match = /^(?:\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?|\.\d+)/i.exec(rest))) {
      list.push({ type: "number", value: match[0], line: line });
    } else {
      var punct = PUNCTUATORS.find(function (p) { return rest.startsWith(p); }) || c;
      list.push({ type: "punct", value: punct, line: line });
    }
    at += list[list.length - 1].value.length;
  }
  return list;
}

// Names a module declares (anywhere in it) and the names it uses, each with the line of its first use.
function names(list) {
  var declared = new Map(), used = new Map();
  function declare(token) { if (token && token.type === "name" && !declared.has(token.value)) declared.set(token.value, token.line); }
  function closing(i) {  // the index of the bracket closing the one at i
    var depth = 0;
    for (var j = i; j < list.length; j++) {
      if ("([{".includes(list[j].value) && list[j].type === "punct") depth++;
      if (")]}".includes(list[j].value) && list[j].type === "punct" && --depth === 0) return j;
    }
    return list.length - 1;
  }
  function declareList(from, to) {  // the bound names of `var a = 1, b` or of a parameter list
    var depth = 0, expectName = true;
    for (var j = from; j < to; j++) {
      var t = list[j];
      if (t.type === "punct" && "([{".includes(t.value)) depth++;
      else if (t.type === "punct" && ")]}".includes(t.value)) { if (--depth < 0) return; }
      else if (depth === 0 && t.value === ";") return;
      else if (depth === 0 && t.value === ",") expectName = true;
      else if (expectName && t.type === "name") { declare(t); expectName = false; }
      else if (depth === 0 && (t.value === "=" || t.value === "of" || t.value === "in")) expectName = false;
    }
  }
  list.forEach(function (t, i) {
    var prev = list[i - 1], next = list[i + 1];
    if (t.type !== "name") return;
    if (t.value === "var" || t.value === "let" || t.value === "const") declareList(i + 1, list.length);
    else if (t.value === "function") {
      var open = next && next.type === "name" ? i + 2 : i + 1;
      if (open === i + 2) declare(next);
      declareList(open + 1, closing(open));
    } else if (t.value === "catch" && next && next.value === "(") declareList(i + 2, closing(i + 1));
    else if (t.value === "import") {
      for (var j = i + 1; j < list.length && list[j].value !== "}"; j++) {
        if (list[j].type === "name" && list[j].value !== "as" && !(list[j + 1] && list[j + 1].value === "as")) declare(list[j]);
      }
    }
    if (KEYWORDS.has(t.value) || (prev && prev.value === ".")) return;
    if (next && next.value === ":" && prev && (prev.value === "{" || prev.value === ",")) return;  // an object key
    if (prev && prev.value === "function") return;
    if (!used.has(t.value)) used.set(t.value, t.line);
  });
  return { declared: declared, used: used };
}

// Findings ("line N: ...") in one module's source, and its imports and exports for the page-wide checks.
export function lintModule(source) {
  var findings = [], imports = [], exports = [];
  var lines = source.split("\n");
  if (!/^\/\/ \S/.test(lines[0])) findings.push("line 1: a module starts with a comment saying what it holds");
  lines.forEach(function (text, k) {
    var match;
    if ((match = IMPORT_LINE.exec(text))) {
      match[1].split(",").forEach(function (name) { imports.push({ name: name.trim(), from: match[2], line: k + 1 }); });
    } else if (/^\s*import\b/.test(text)) findings.push("line " + (k + 1) + ': only `import { a, b } from "./module.mjs";`');
    if ((match = /^export (?:function|var) ([\w$]+)/.exec(text))) exports.push({ name: match[1], line: k + 1 });
    if (/^\s*export\b/.test(text) && !EXPORT_LINE.test(text)) findings.push("line " + (k + 1) + ": only `export function` and `export var`");
  });
  var list;
  try { list = tokens(source); } catch (error) { return { findings: findings.concat([error.message]), imports: imports, exports: exports }; }
  list.forEach(function (t, i) {
    if (t.type === "punct" && (t.value === "==" || t.value === "!=")) findings.push("line " + t.line + ": " + t.value + " (use " + t.value + "=)");
    if (t.type === "name" && SINKS.test(t.value) && (t.value !== "write" && t.value !== "writeln" || (list[i - 2] || {}).value === "document")) {
      findings.push("line " + t.line + ": " + t.value + " (corpus text enters the page as textContent only)");
    }
    if (t.type === "name" && (t.value === "let" || t.value === "const" || t.value === "class")) {
      findings.push("line " + t.line + ": " + t.value + " (the pages' modules use var and function, as the bundle's one scope expects)");
    }
  });
  var found = names(list);
  found.used.forEach(function (line, name) {
    if (!found.declared.has(name) && !GLOBALS.has(name)) findings.push("line " + line + ": " + name + " is not declared");
  });
  var counts = new Map();
  list.forEach(function (t) { if (t.type === "name") counts.set(t.value, (counts.get(t.value) || 0) + 1); });
  imports.forEach(function (entry) {
    if (counts.get(entry.name) < 2) findings.push("line " + entry.line + ": " + entry.name + " is imported and not used");
  });
  topLevelNames(list).forEach(function (entry) {
    var exported = exports.some(function (e) { return e.name === entry.name; });
    if (!exported && counts.get(entry.name) < 2) findings.push("line " + entry.line + ": " + entry.name + " is declared and not used");
  });
  return { findings: findings, imports: imports, exports: exports, topLevel: topLevelNames(list) };
}

// The names a module declares outside any function: in the bundle they share one scope with the other modules'.
function topLevelNames(list) {
  var found = [], depth = 0;
  list.forEach(function (t, i) {
    if (t.type === "punct" && "([{".includes(t.value)) depth++;
    if (t.type === "punct" && ")]}".includes(t.value)) depth--;
    if (depth !== 0 || t.type !== "name") return;
    var next = list[i + 1];
    if (t.value === "function" && next && next.type === "name") found.push({ name: next.value, line: next.line });
    if (t.value === "var") {
      for (var j = i + 1, inner = 0; j < list.length; j++) {
        var u = list[j];
        if (u.type === "punct" && "([{".includes(u.value)) inner++;
        else if (u.type === "punct" && ")]}".includes(u.value)) inner--;
        else if (inner === 0 && u.value === ";") break;
        else if (inner === 0 && u.type === "name" && (list[j - 1].value === "var" || list[j - 1].value === ",")) {
          found.push({ name: u.value, line: u.line });
        }
      }
    }
  });
  return found;
}

// Findings ("file:line: ...") for the modules of one page's folder, Node's loading of each included.
export async function lintPage(folder) {
  var files = readdirSync(folder).filter(function (name) { return name.endsWith(".mjs"); }).sort();
  var modules = new Map(), findings = [];
  function report(file, text) { findings.push(relative(ROOT, join(folder, file)) + ":" + text.replace(/^line /, "")); }
  for (var file of files) {
    try {
      await import(pathToFileURL(join(folder, file)).href);
    } catch (error) {
      report(file, "1: Node cannot load it: " + String(error.message).split("\n")[0]);
    }
    var result = lintModule(readFileSync(join(folder, file), "utf8"));
    modules.set(file, result);
    result.findings.forEach(function (text) { report(file, text); });
  }
  var importedBy = new Map(), owner = new Map();
  modules.forEach(function (result, file) {
    result.imports.forEach(function (entry) {
      if (!modules.has(entry.from)) report(file, entry.line + ": " + entry.from + " is not a module of this page");
      importedBy.set(entry.from + " " + entry.name, file);
      importedBy.set(entry.from, file);
    });
    (result.topLevel || []).forEach(function (entry) {
      if (owner.has(entry.name)) report(file, entry.line + ": " + entry.name + " is declared in " + owner.get(entry.name) + " too (one scope once bundled)");
      else owner.set(entry.name, file);
    });
  });
  modules.forEach(function (result, file) {
    var text = readFileSync(join(folder, file), "utf8");
    result.exports.forEach(function (entry) {
      var usedHere = text.split(entry.name).length - 1 > 1;
      if (!importedBy.has(file + " " + entry.name) && !usedHere && importedBy.has(file)) {
        report(file, entry.line + ": " + entry.name + " is exported and used by no module of the page");
      }
    });
  });
  var entries = files.filter(function (file) { return !importedBy.has(file); });
  if (entries.length !== 1) report(entries[0] || files[0], "1: one entry module per page (imported by none), found " + entries.join(", "));
  return findings;
}

async function main() {
  var findings = [];
  for (var folder of PAGES) findings = findings.concat(await lintPage(folder));
  findings.forEach(function (line) { console.log(line); });
  console.log(findings.length ? findings.length + " finding(s) in the pages' modules" : "jslint: the pages' modules are clean");
  process.exitCode = findings.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
