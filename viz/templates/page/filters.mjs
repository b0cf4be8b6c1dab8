// Filters: which nodes and links pass the type, relation, paper-count and year filters, and the
// counts the header and the legend show for what passes.
import { number, plural } from "./text.mjs";

// The filter settings from the inputs' values and the page's {first, last} years (null without years):
// {types, relations, minPapers, allYears, from, to}.
export function filtersFrom(values, years) {
  var filters = {};
  filters.types = new Set(values.types);
  filters.relations = new Set(values.relations);
  filters.minPapers = Math.max(1, parseInt(values.minPapers, 10) || 1);
  filters.allYears = true;
  if (years && values.from !== undefined && values.to !== undefined) {
    filters.from = parseInt(values.from, 10) || years.first;
    filters.to = parseInt(values.to, 10) || years.last;
    filters.allYears = filters.from <= years.first && filters.to >= years.last;
  }
  return filters;
}
// A node's papers in the filters' years, from its {year, papers} rows.
export function papersInYears(node, filters) {
  if (filters.allYears) return node.papers;
  var total = 0;
  node.years.forEach(function (row) { if (row.year >= filters.from && row.year <= filters.to) total += row.papers; });
  return total;
}
export function nodePasses(node, filters, paperLabel) {
  if (!filters.types.has(node.kind)) return false;
  var papers = papersInYears(node, filters);
  return node.kind === paperLabel ? papers >= 1 : papers >= filters.minPapers && papers >= 1;
}
export function edgePasses(edge, visible, filters) {
  return visible.has(edge.from) && visible.has(edge.to) &&
    edge.kinds.some(function (kind) { return filters.relations.has(kind); });
}
// The ids of the nodes that pass.
export function passingIds(nodes, filters, paperLabel) {
  var visible = new Set();
  nodes.forEach(function (node) { if (nodePasses(node, filters, paperLabel)) visible.add(node.id); });
  return visible;
}
// The header line: papers (in the paper view), entities and links shown of those the view holds.
export function summaryLine(data, shown) {
  var PAPER = data.paper_label;
  var drawnPapers = data.nodes.filter(function (n) { return n.kind === PAPER; }).length;
  var parts = [];
  if (data.view === "papers") parts.push(number(shown.papers) + " of " + plural(Math.max(data.paper_total, drawnPapers), "paper"));
  parts.push(number(shown.entities) + " of " + plural(Math.max(data.entity_total, data.nodes.length - drawnPapers), "entity", "entities"));
  parts.push(number(shown.links) + " of " + plural(data.edges.length, "link"));
  return "Showing " + parts.join(" · ");
}

// The filter inputs wired to the view: a change refilters the nodes and links and updates the counts.
export function setupFilters(view) {
  var data = view.data;
  var PAPER = data.paper_label;
  var typeBoxes = Array.prototype.slice.call(document.querySelectorAll("input[data-type]"));
  var relationBoxes = Array.prototype.slice.call(document.querySelectorAll("input[data-relation]"));
  var minPapers = document.getElementById("min-papers");
  var yearFrom = document.getElementById("year-from");
  var yearTo = document.getElementById("year-to");

  function readFilters() {
    view.filters = filtersFrom({
      types: typeBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.type; }),
      relations: relationBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.relation; }),
      minPapers: minPapers.value,
      from: yearFrom && yearTo ? yearFrom.value : undefined,
      to: yearFrom && yearTo ? yearTo.value : undefined }, data.years);
  }
  function applyFilters() {
    readFilters();
    view.visible = passingIds(data.nodes, view.filters, PAPER);
    view.nodeView.refresh();
    view.edgeView.refresh();
    showCounts();
  }
  function showCounts() {
    var typeCounts = {}, relationCounts = {}, entities = 0, papers = 0;
    view.nodeView.forEach(function (node) {
      typeCounts[node.kind] = (typeCounts[node.kind] || 0) + 1;
      if (node.kind === PAPER) papers += 1; else entities += 1;
    });
    view.edgeView.forEach(function (edge) {
      edge.kinds.forEach(function (kind) {
        if (view.filters.relations.has(kind)) relationCounts[kind] = (relationCounts[kind] || 0) + 1;
      });
    });
    document.getElementById("summary").textContent = summaryLine(data, { papers: papers, entities: entities, links: view.edgeView.length });
    document.querySelectorAll("[data-type-count]").forEach(function (cell) {
      cell.textContent = number(typeCounts[cell.dataset.typeCount] || 0);
    });
    document.querySelectorAll("[data-relation-count]").forEach(function (cell) {
      cell.textContent = number(relationCounts[cell.dataset.relationCount] || 0);
    });
  }
  readFilters();
  view.visible = passingIds(data.nodes, view.filters, PAPER);
  view.showCounts = showCounts;
  typeBoxes.concat(relationBoxes).forEach(function (box) { box.addEventListener("change", applyFilters); });
  [minPapers, yearFrom, yearTo].forEach(function (input) { if (input) input.addEventListener("input", applyFilters); });
  document.getElementById("reset").addEventListener("click", function () {
    typeBoxes.concat(relationBoxes).forEach(function (box) { box.checked = true; });
    minPapers.value = 1;
    if (yearFrom) { yearFrom.value = data.years.first; yearTo.value = data.years.last; }
    applyFilters();
  });
}
