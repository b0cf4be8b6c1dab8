// The trends page's reading of a record: shares, bursts, colours, the share line, the header.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BEFORE, BURST, SEEN, countOf, inBurst, linePoints, pct, shareOf, strongestBurst, summaryText, yearColour }
  from "../../viz/templates/trends/records.mjs";

var RECORD = { first_year: 2019, years: [{ year: 2019, share: 0.01, papers: 2 }, { year: 2021, share: 0.04, papers: 9 }],
               bursts: [{ start: 2020, end: 2021, strength: 3.5 }, { start: 2023, end: 2023, strength: 7.25 }] };

test("a year without a point has no share and no papers", () => {
  assert.equal(shareOf(RECORD, 2021), 0.04);
  assert.equal(shareOf(RECORD, 2020), 0);
  assert.equal(countOf(RECORD, 2019), 2);
  assert.equal(countOf(RECORD, 2024), 0);
  assert.equal(pct(0.04), "4.00%");
});

test("burst years, the strongest burst and each year's colour", () => {
  assert.deepEqual([2019, 2020, 2021, 2022, 2023].map((y) => inBurst(RECORD, y)), [false, true, true, false, true]);
  assert.equal(strongestBurst(RECORD).strength, 7.25);
  assert.deepEqual([2018, 2019, 2020].map((y) => yearColour(RECORD, y)), [BEFORE, SEEN, BURST]);
});

test("the share line spans the chart, its highest point at the top margin", () => {
  var points = linePoints(RECORD, [2019, 2020, 2021], 104, 40);
  assert.deepEqual(points, ["2.0,29.5", "52.0,38.0", "102.0,4.0"]);
  assert.deepEqual(linePoints(RECORD, [2021], 104, 40), ["2.0,4.0"]);  // one year: no step
});

test("the header counts the papers of every year and says what had no year", () => {
  assert.equal(summaryText({ years: [2019, 2020], year_papers: [1200, 34], undated: 0 }), "1,234 papers 2019–2020");
  assert.equal(summaryText({ years: [2020], year_papers: [5], undated: 2 }), "5 papers 2020–2020 (2 without a year left out)");
});
