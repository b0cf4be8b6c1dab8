// The leaderboards page's reading of a board and a row: titles, why a board is ranked or not, methods, sentences.
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardNote, boardTitle, keeps, methodText, plural, sentenceParts, summaryText }
  from "../../viz/templates/leaderboard/boards.mjs";

var RANKED = { dataset: "WMT14", metric: "BLEU", split: "test", kind: "absolute", unit: "", better: "higher", ranked: true };

test("a board's title names what its values share", () => {
  assert.equal(boardTitle(RANKED), "WMT14 · BLEU · test split · levels reached");
  assert.equal(boardTitle({ dataset: "", metric: "", split: "", kind: "change", unit: "%" }),
               "no data set named · no metric named · changes · %");
});

test("only a board of levels with a known direction is ranked; the note says why another is not", () => {
  assert.equal(boardNote(RANKED), "Ranked, best first: higher is better.");
  assert.match(boardNote({ ...RANKED, ranked: false, kind: "change" }), /never ranked/);
  assert.match(boardNote({ ...RANKED, ranked: false, dataset: "" }), /No data set named/);
  assert.match(boardNote({ ...RANKED, ranked: false, metric: "" }), /No metric named/);
  assert.match(boardNote({ ...RANKED, ranked: false, better: "" }), /not known/);
});

test("a row without a method's name is the paper's own or not named", () => {
  assert.equal(methodText({ method: "Transformer", proposed: false }), "Transformer");
  assert.equal(methodText({ method: "", proposed: true }), "(the paper's method)");
  assert.equal(methodText({ method: "", proposed: false }), "(not named)");
});

test("the value is cut out of its sentence by its offsets", () => {
  var row = { sentence: "It reaches 28.4 BLEU.", sentence_start: 100, start: 111, end: 115 };
  assert.deepEqual(sentenceParts(row), ["It reaches ", "28.4", " BLEU."]);
});

test("the filter keeps names holding its text, any case; the header counts", () => {
  assert.equal(keeps({ name: "Machine Translation" }, "transl"), true);
  assert.equal(keeps({ name: "Machine Translation" }, "parsing"), false);
  assert.equal(keeps({ name: "x" }, ""), true);
  assert.equal(plural(1, "result"), "1 result");
  assert.equal(summaryText({ subjects: [{}, {}], results: 5 }), "2 tasks and data sets, 5 results");
  assert.equal(summaryText({ subjects: [{}], results: 1 }), "1 task or data set, 1 result");
  assert.equal(summaryText({ subjects: [{}], results: 3, left_out: 7 }),
    "1 task or data set, 3 results (those with the most results; 7 more in leaderboards.json and paperkg leaderboard NAME)");
});
