// Search: forms of drawn and folded entities, matched whole, at the start, at a word's start.
import { test } from "node:test";
import assert from "node:assert/strict";
import { matches, score, searchForms } from "../../viz/templates/page/search.mjs";

var DATA = {
  panels: [{ name: "BERT", acronym: "BERT", long_form: "Bidirectional Encoder Representations from Transformers", papers: 9 },
           { name: "question answering", aliases: ["QA"], papers: 4 },
           { name: "open-domain question answering", papers: 2 }],
  folded: [{ name: "Question Generation", type: "Task", papers: 7, acronym: "" },
           { name: "retrieval-augmented generation", type: "Method", papers: 1, acronym: "RAG" }],
};

test("every name, acronym, long form and alias is a form, lower-cased, folded entities marked", () => {
  var forms = searchForms(DATA.panels, DATA.folded);
  assert.deepEqual(forms.filter((f) => f.index === 0 && !f.folded).map((f) => f.form),
                   ["bert", "bert", "bidirectional encoder representations from transformers"]);
  assert.deepEqual(forms.filter((f) => f.folded).map((f) => f.form),
                   ["question generation", "retrieval-augmented generation", "rag"]);
});

test("a form matches whole, at its start, or at a word's start after a space, hyphen, bracket or slash", () => {
  assert.equal(score("bert", "bert"), 0);
  assert.equal(score("bert-large", "bert"), 1);
  assert.equal(score("open-domain qa", "domain"), 2);
  assert.equal(score("roberta", "bert"), -1);
});

test("hits rank by match, drawn before folded, then papers; each entity once at its best", () => {
  var forms = searchForms(DATA.panels, DATA.folded);
  var hits = matches("question", forms, DATA);
  assert.deepEqual(hits.map((h) => [h.folded, h.index, h.score]), [[false, 1, 1], [true, 0, 1], [false, 2, 2]]);
  assert.deepEqual(matches("rag", forms, DATA).map((h) => [h.folded, h.index, h.score]), [[true, 1, 0]]);
  assert.deepEqual(matches("nothing like it", forms, DATA), []);
});

test("at most twelve hits", () => {
  var panels = Array.from({ length: 30 }, (_, i) => ({ name: "model " + i, papers: i }));
  var hits = matches("model", searchForms(panels, []), { panels: panels, folded: [] });
  assert.equal(hits.length, 12);
  assert.equal(hits[0].index, 29);  // most papers first among equal matches
});
