// The map's names: placed by importance where they overlap no name placed before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { emphasisIds, labelBox, labelGrid, labelOrder, offScreen } from "../../viz/templates/page/labels.mjs";
import { visibleMembers } from "../../viz/templates/page/colour.mjs";

test("names are tried by label size, ties in page order", () => {
  assert.deepEqual(labelOrder([{ labelSize: 2 }, { labelSize: 9 }, { labelSize: 2 }, { labelSize: 5 }]), [1, 3, 0, 2]);
});

test("a box fits where it overlaps no placed box, across grid cells, touching edges allowed", () => {
  var grid = labelGrid();
  var first = labelBox(100, 100, 50, 10);  // 48..152 x 98..114
  assert.deepEqual(first, { left: 48, right: 152, top: 98, bottom: 114 });
  assert.equal(grid.fits(first), true);
  grid.add(first);
  assert.equal(grid.fits(labelBox(150, 105, 20, 10)), false);  // overlaps its right end
  assert.equal(grid.fits(labelBox(100, 200, 200, 10)), true);   // below it, wider than a cell
  assert.equal(grid.fits({ left: 152, right: 300, top: 98, bottom: 114 }), true);  // touches its edge
  assert.equal(grid.fits({ left: -500, right: 500, top: 0, bottom: 99 }), false);  // spans many cells
});

test("a box outside the canvas is off screen, one crossing its edge is not", () => {
  assert.equal(offScreen({ left: -30, right: -1, top: 0, bottom: 10 }, 800, 600), true);
  assert.equal(offScreen({ left: 790, right: 830, top: 590, bottom: 610 }, 800, 600), false);
  assert.equal(offScreen({ left: 10, right: 30, top: 601, bottom: 620 }, 800, 600), true);
});

test("a cluster row fits only its visible members", () => {
  var nodes = [{ id: "a" }, { id: "b" }, { id: "c" }];
  assert.deepEqual(visibleMembers({ members: [0, 2] }, nodes, new Set(["c", "b"])), ["c"]);
});

test("the chosen node is named first, then the strongest links its panel lists", () => {
  var data = { nodes: [{ id: "a" }, { id: "b" }, { id: "c" }],
               panels: [{ related: [{ node: 2, papers: 4, kinds: ["USED_FOR"] }, { node: 1, papers: 1, kinds: [] }] }, {}, {}] };
  var indexOf = new Map([["a", 0], ["b", 1], ["c", 2]]);
  assert.deepEqual(emphasisIds(["a"], data, indexOf), ["a", "c", "b"]);
  assert.deepEqual(emphasisIds(["b"], data, indexOf), ["b"]);  // a panel without strongest links
});
