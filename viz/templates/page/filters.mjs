// Filters: which nodes and links pass the type, relation, paper-count and year filters, and the
// counts the header and the legend show for what passes.
import { number, plural } from "./text.mjs";

// The filter settings from the inputs' values and the page's {first, last} years (null without years):
// {types, relations, minPapers, minConfidence, allYears, from, to}.
export function filtersFrom(values, years) {
  var filters = {};
  filters.types = new Set(values.types);
  filters.relations = new Set(values.relations);
  filters.minPapers = Math.max(1, parseInt(values.minPapers, 10) || 1);
  filters.minConfidence = parseFloat(values.minConfidence) || 0;  // the typed relations' threshold (the map's slider)
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
// A link's kinds drawn: those ticked, a typed relation only when at least as sure as the threshold.
export function shownKinds(edge, filters) {
  return edge.kinds.filter(function (kind) {
    return filters.relations.has(kind) && !(edge.confidence && kind in edge.confidence &&
      edge.confidence[kind] < filters.minConfidence);
  });
}
export function edgePasses(edge, visible, filters) {
  return visible.has(edge.from) && visible.has(edge.to) && shownKinds(edge, filters).length > 0;
}
// How a link is drawn at the filters: in the style of its first typed relation still shown, else of shared
// papers (`styles`: the legend's rows by type, {colour, dashed}).
export function linkStyle(edge, filters, styles) {
  var main = shownKinds(edge, filters).filter(function (kind) { return kind !== "SHARED_PAPERS"; })[0] || "SHARED_PAPERS";
  var style = styles[main] || { colour: edge.color.color, dashed: edge.dashes };
  return { id: edge.id, dashes: style.dashed, color: { color: style.colour, highlight: style.colour,
    hover: style.colour, opacity: main === "SHARED_PAPERS" ? 0.3 : 0.8 } };
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
  var minConfidence = document.getElementById("min-confidence");  // the map's only
  var yearFrom = document.getElementById("year-from");
  var yearTo = document.getElementById("year-to");

  function readFilters() {
    view.filters = filtersFrom({
      types: typeBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.type; }),
      relations: relationBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.relation; }),
      minPapers: minPapers.value,
      minConfidence: minConfidence ? minConfidence.value : 0,
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
      shownKinds(edge, view.filters).forEach(function (kind) { relationCounts[kind] = (relationCounts[kind] || 0) + 1; });
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
  // Moving the threshold restyles each typed link as its first relation still drawn.
  function restyleLinks() {
    var styles = {};
    data.relations.forEach(function (row) { styles[row.type] = row; });
    view.edges.update(data.edges.filter(function (edge) { return edge.confidence; })
      .map(function (edge) { return linkStyle(edge, view.filters, styles); }));
  }
  function showThreshold() {
    document.getElementById("min-confidence-value").textContent = Number(minConfidence.value).toFixed(2);
  }
  if (minConfidence) minConfidence.addEventListener("input", function () { showThreshold(); applyFilters(); restyleLinks(); });
  typeBoxes.concat(relationBoxes).forEach(function (box) { box.addEventListener("change", applyFilters); });
  [minPapers, yearFrom, yearTo].forEach(function (input) { if (input) input.addEventListener("input", applyFilters); });
  document.getElementById("reset").addEventListener("click", function () {
    typeBoxes.concat(relationBoxes).forEach(function (box) { box.checked = true; });
    minPapers.value = 1;
    if (minConfidence) { minConfidence.value = data.min_confidence; showThreshold(); }
    if (yearFrom) { yearFrom.value = data.years.first; yearTo.value = data.years.last; }
    applyFilters();
    if (minConfidence) restyleLinks();
  });
}
