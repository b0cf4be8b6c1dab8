// The side panel's text: marked pieces, relation names, papers per year; the hover line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { markedPieces, relationNames, yearCounts } from "../../viz/templates/page/panel.mjs";
import { hoverText } from "../../viz/templates/page/hover.mjs";
import { number, plural } from "../../viz/templates/page/text.mjs";

test("marks cut the text into plain and marked pieces, a mark with a role in its role's class", () => {
  assert.deepEqual(markedPieces("We use BERT on SQuAD.", [{ start: 7, end: 11, role: 0 }, { start: 15, end: 20 }]),
                   [["We use ", null], ["BERT", "role-0"], [" on ", null], ["SQuAD", ""], [".", null]]);
});

test("an overlapping or empty mark is skipped and the text kept whole", () => {
  var pieces = markedPieces("abcdef", [{ start: 1, end: 4 }, { start: 2, end: 5 }, { start: 5, end: 5 }]);
  assert.deepEqual(pieces, [["a", null], ["bcd", ""], ["ef", null]]);
  assert.equal(pieces.map((p) => p[0]).join(""), "abcdef");
  assert.deepEqual(markedPieces("", []), [["", null]]);
});

test("a link's typed relations are named from the legend rows, shared papers never", () => {
  var relations = [{ type: "USED_FOR", name: "method used for task" }];
  assert.equal(relationNames(["SHARED_PAPERS", "USED_FOR", "NEW_TYPE"], relations), " · method used for task, NEW_TYPE");
  assert.equal(relationNames(["SHARED_PAPERS"], relations), "");
});

test("papers per year: counts, the highest count (at least 1) and the first year", () => {
  assert.deepEqual(yearCounts([{ year: 2021, papers: 2 }, { year: 2019, papers: 5 }]), { counts: { 2019: 5, 2021: 2 }, top: 5, first: 2019 });
  assert.deepEqual(yearCounts([]), { counts: {}, top: 1, first: Infinity });
});

test("numbers in English digits and plurals by count", () => {
  assert.equal(number(12345), "12,345");
  assert.equal(plural(1, "paper"), "1 paper");
  assert.equal(plural(2, "entity", "entities"), "2 entities");
});

test("the hover line names a paper without a paper count, an entity with one", () => {
  assert.equal(hoverText({ name: "BERT", type: "Method", papers: 3 }, "Paper"), "BERT · Method · 3 papers");
  assert.equal(hoverText({ name: "A title", type: "Paper", papers: 1 }, "Paper"), "A title · Paper");
});
