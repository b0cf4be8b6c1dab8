// The HTML view's behaviour: hover cards built as DOM text, legend toggles, search, readiness flag.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var body = document.body;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Hover text is never parsed as HTML: every string goes in through textContent.
  function card(info) {
    var root = element("div", "card");
    var head = element("div", "card-name", info.name);
    head.appendChild(element("span", "card-type", info.type));
    root.appendChild(head);
    var table = element("table");
    info.rows.forEach(function (row) {
      var tr = table.insertRow();
      tr.appendChild(element("th", "", row[0]));
      tr.insertCell().textContent = row[1];
    });
    root.appendChild(table);
    if (info.evidence) {
      root.appendChild(element("blockquote", "", info.evidence.sentence));
      root.appendChild(element("div", "card-source", info.evidence.source));
    }
    return root;
  }

  function withCard(item) {
    var copy = Object.assign({}, item, { title: card(item.card) });
    delete copy.card;
    return copy;
  }

  var nodes = new vis.DataSet(data.nodes.map(withCard));
  var edges = new vis.DataSet(data.edges.map(withCard));
  var network = new vis.Network(document.getElementById("network"), { nodes: nodes, edges: edges }, data.options);
  var progress = document.getElementById("progress");

  network.on("stabilizationProgress", function (params) {
    progress.textContent = "Laying out the graph… " + Math.round(100 * params.iterations / params.total) + "%";
  });
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({ physics: { enabled: false } });
    body.dataset.state = "ready";
  });
  network.once("afterDrawing", function () { body.dataset.drawn = "true"; });

  document.querySelectorAll("#legend input[data-kind]").forEach(function (box) {
    box.addEventListener("change", function () {
      var ids = nodes.getIds({ filter: function (n) { return n.kind === box.dataset.kind; } });
      nodes.update(ids.map(function (id) { return { id: id, hidden: !box.checked }; }));
    });
  });

  var search = document.getElementById("search");
  var byName = new Map();
  var names = document.getElementById("node-names");
  data.nodes.forEach(function (n) {
    if (byName.has(n.card.name)) return;
    byName.set(n.card.name, n.id);
    var option = element("option");
    option.value = n.card.name;
    names.appendChild(option);
  });
  search.addEventListener("change", function () {
    var id = byName.get(search.value);
    if (id === undefined) return;
    network.selectNodes([id]);
    network.focus(id, { scale: 1.4, animation: { duration: 400 } });
  });

  window.paperkgView = { network: network, nodes: nodes, edges: edges };
})();
