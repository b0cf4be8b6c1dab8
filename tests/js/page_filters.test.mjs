// The map's filters: which nodes and links pass, and the header line for what passes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { edgePasses, filtersFrom, nodePasses, papersInYears, passingIds, summaryLine } from "../../viz/templates/page/filters.mjs";

var YEARS = { first: 2019, last: 2023 };
var METHOD = { id: "method:bert", kind: "Method", papers: 5, years: [{ year: 2019, papers: 1 }, { year: 2020, papers: 3 }, { year: 2023, papers: 1 }] };
var PAPER = { id: "paper:1", kind: "Paper", papers: 1, years: [{ year: 2020, papers: 1 }] };

function filters(values) {
  return filtersFrom(Object.assign({ types: ["Method", "Paper"], relations: ["USED_FOR"], minPapers: "1" }, values), YEARS);
}

test("the inputs' values become the filters, a blank or nonsense count meaning at least one paper", () => {
  var f = filters({ minPapers: "" });
  assert.deepEqual([...f.types], ["Method", "Paper"]);
  assert.equal(f.minPapers, 1);
  assert.equal(filters({ minPapers: "-4" }).minPapers, 1);
  assert.equal(filters({ minPapers: "3" }).minPapers, 3);
  assert.equal(f.allYears, true);
});

test("a year window narrower than the page's counts only the papers inside it", () => {
  var f = filters({ from: "2020", to: "2022" });
  assert.equal(f.allYears, false);
  assert.equal(papersInYears(METHOD, f), 3);
  assert.equal(papersInYears(METHOD, filters({ from: "2019", to: "2023" })), 5);
  assert.equal(papersInYears(METHOD, filters({ from: "", to: "" })), 5);  // blank ends: the page's years
});

test("a node passes by type and by papers in the window; a paper needs only one", () => {
  assert.equal(nodePasses(METHOD, filters({ minPapers: "5" }), "Paper"), true);
  assert.equal(nodePasses(METHOD, filters({ minPapers: "6" }), "Paper"), false);
  assert.equal(nodePasses(METHOD, filters({ types: ["Task"] }), "Paper"), false);
  assert.equal(nodePasses(PAPER, filters({ minPapers: "6" }), "Paper"), true);
  assert.equal(nodePasses(PAPER, filters({ minPapers: "1", from: "2021", to: "2023" }), "Paper"), false);
});

test("a link passes when both ends are visible and one of its kinds is ticked", () => {
  var f = filters({});
  var visible = passingIds([METHOD, PAPER, { id: "task:qa", kind: "Task", papers: 9, years: [] }], f, "Paper");
  assert.deepEqual([...visible], ["method:bert", "paper:1"]);
  assert.equal(edgePasses({ from: "method:bert", to: "paper:1", kinds: ["SHARED_PAPERS", "USED_FOR"] }, visible, f), true);
  assert.equal(edgePasses({ from: "method:bert", to: "paper:1", kinds: ["SHARED_PAPERS"] }, visible, f), false);
  assert.equal(edgePasses({ from: "method:bert", to: "task:qa", kinds: ["USED_FOR"] }, visible, f), false);
});

test("the header counts papers only in the paper view, of the totals the view chose from", () => {
  var data = { paper_label: "Paper", view: "papers", paper_total: 40, entity_total: 1200,
               nodes: [METHOD, PAPER], edges: [{}, {}, {}] };
  assert.equal(summaryLine(data, { papers: 1, entities: 1, links: 2 }),
               "Showing 1 of 40 papers · 1 of 1,200 entities · 2 of 3 links");
  data.view = "entities";
  assert.equal(summaryLine(data, { papers: 0, entities: 1, links: 1 }), "Showing 1 of 1,200 entities · 1 of 3 links");
});
