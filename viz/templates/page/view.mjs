// A paperkg view: the data, the vis-network map and the sections wired to it. Corpus text only ever
// enters the page through textContent and createTextNode, never as markup.
import { setupColour } from "./colour.mjs";
import { edgePasses, setupFilters } from "./filters.mjs";
import { setupHover } from "./hover.mjs";
import { setupLabels } from "./labels.mjs";
import { setupPanel } from "./panel.mjs";
import { setupSearch } from "./search.mjs";

// The page's entry point (called once, after every section is defined).
export function startView() {
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var body = document.body;
  var view = { data: data, indexOf: new Map() };
  data.nodes.forEach(function (node, i) { view.indexOf.set(node.id, i); });

  setupFilters(view);
  view.nodes = new vis.DataSet(data.nodes);
  view.edges = new vis.DataSet(data.edges);
  view.nodeView = new vis.DataView(view.nodes, { filter: function (node) { return view.visible.has(node.id); } });
  view.edgeView = new vis.DataView(view.edges, { filter: function (edge) { return edgePasses(edge, view.visible, view.filters); } });
  view.container = document.getElementById("network");
  var network = view.network = new vis.Network(view.container, { nodes: view.nodeView, edges: view.edgeView }, data.options);
  var opensOnFocus = data.focus !== null && view.indexOf.has(data.focus);
  network.once("afterDrawing", function () {
    body.dataset.drawn = "true";
    if (!opensOnFocus) body.dataset.state = "ready";
  });
  setupLabels(view);
  view.showCounts();
  setupColour(view);
  setupPanel(view);
  setupHover(view);
  setupSearch(view);
  document.getElementById("fit").addEventListener("click", function () { network.fit({ animation: { duration: 300 } }); });

  if (opensOnFocus) {  // centred on the focus, selected, its panel open; then ready
    network.once("afterDrawing", function () {
      var at = network.getPositions([data.focus])[data.focus];
      network.moveTo({ position: at, scale: network.getScale() });
      network.selectNodes([data.focus]);
      view.emphasise([data.focus]);
      view.nodePanel(view.indexOf.get(data.focus));
      network.once("afterDrawing", function () { body.dataset.state = "ready"; });
      network.redraw();
    });
  }
  window.paperkgView = { network: network, nodes: view.nodes, edges: view.edges, nodeView: view.nodeView, edgeView: view.edgeView,
    matches: view.matches,
    open: function (id) { view.focusNode(id); },
    openEdge: function (id) { network.selectEdges([id]); view.edgePanel(id); },
    labels: function () { return view.placedLabels.map(function (label) { return Object.assign({}, label); }); } };
}
