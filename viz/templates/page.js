// A paperkg view: filters, search, colour modes and the side panel. Corpus text only ever
// enters the page through textContent and createTextNode, never as markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var PAPER = data.paper_label;  // the papers' node label, from paperkg.core.schema.NodeLabel
  var body = document.body;
  var MAX_RESULTS = 12;
  var indexOf = new Map();
  data.nodes.forEach(function (node, i) { indexOf.set(node.id, i); });

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function number(value) { return Number(value).toLocaleString("en-US"); }
  function plural(count, word, words) { return number(count) + " " + (count === 1 ? word : words || word + "s"); }

  // ---- filters -------------------------------------------------------------------------
  var typeBoxes = Array.prototype.slice.call(document.querySelectorAll("input[data-type]"));
  var relationBoxes = Array.prototype.slice.call(document.querySelectorAll("input[data-relation]"));
  var minPapers = document.getElementById("min-papers");
  var yearFrom = document.getElementById("year-from");
  var yearTo = document.getElementById("year-to");
  var filters = {};
  var visible = new Set();

  function readFilters() {
    filters.types = new Set(typeBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.type; }));
    filters.relations = new Set(relationBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.relation; }));
    filters.minPapers = Math.max(1, parseInt(minPapers.value, 10) || 1);
    filters.allYears = true;
    if (data.years && yearFrom && yearTo) {
      filters.from = parseInt(yearFrom.value, 10) || data.years.first;
      filters.to = parseInt(yearTo.value, 10) || data.years.last;
      filters.allYears = filters.from <= data.years.first && filters.to >= data.years.last;
    }
  }
  function papersInYears(node) {
    if (filters.allYears) return node.papers;
    var total = 0;
    node.years.forEach(function (row) { if (row.year >= filters.from && row.year <= filters.to) total += row.papers; });
    return total;
  }
  function nodePasses(node) {
    if (!filters.types.has(node.kind)) return false;
    var papers = papersInYears(node);
    return node.kind === PAPER ? papers >= 1 : papers >= filters.minPapers && papers >= 1;
  }
  function edgePasses(edge) {
    return visible.has(edge.from) && visible.has(edge.to) &&
      edge.kinds.some(function (kind) { return filters.relations.has(kind); });
  }

  var nodes = new vis.DataSet(data.nodes);
  var edges = new vis.DataSet(data.edges);
  readFilters();
  data.nodes.forEach(function (node) { if (nodePasses(node)) visible.add(node.id); });
  var nodeView = new vis.DataView(nodes, { filter: function (node) { return visible.has(node.id); } });
  var edgeView = new vis.DataView(edges, { filter: edgePasses });
  var container = document.getElementById("network");
  var network = new vis.Network(container, { nodes: nodeView, edges: edgeView }, data.options);
  var opensOnFocus = data.focus !== null && indexOf.has(data.focus);
  network.once("afterDrawing", function () {
    body.dataset.drawn = "true";
    if (!opensOnFocus) body.dataset.state = "ready";
  });

  // ---- labels ------------------------------------------------------------------------------
  // Names are placed again on every frame (after each filter, zoom and pan step), greedily, like
  // VOSviewer: the chosen node and the names its panel lists (bold) first, then the cluster names
  // (when colouring by cluster), then every visible node by importance (labelSize, from labels.py);
  // a name is drawn only where its box overlaps no name already placed. Its size grows with its
  // importance and the zoom, between the threshold and the maximum.
  var labelOrder = data.nodes.map(function (node, i) { return i; })
    .sort(function (a, b) { return data.nodes[b].labelSize - data.nodes[a].labelSize || a - b; });
  var emphasised = new Set();
  var emphasisOrder = [];
  var placedLabels = [];
  var widths = new Map();
  var LABEL_PAD = 2, CELL = 64, CLUSTER_PX = 15;
  var colourBy = document.getElementById("colour-by");

  function textWidth(ctx, text, bold) {
    var key = (bold ? "b" : "n") + text;
    if (!widths.has(key)) {
      ctx.font = (bold ? "bold " : "") + "100px " + data.labels.face;
      widths.set(key, ctx.measureText(text).width / 100);
    }
    return widths.get(key);
  }
  function labelCandidates() {
    var list = [];
    emphasisOrder.forEach(function (id) {
      if (visible.has(id)) list.push({ index: indexOf.get(id), bold: true });
    });
    if (colourBy.value === "community") {
      (data.clusters || []).forEach(function (cluster) {
        if (cluster.x === null || !cluster.members.some(function (i) { return visible.has(data.nodes[i].id); })) return;
        list.push({ cluster: cluster });
      });
    }
    labelOrder.forEach(function (i) {
      var id = data.nodes[i].id;
      if (visible.has(id) && !emphasised.has(id)) list.push({ index: i, bold: false });
    });
    return list;
  }
  function placeLabels(ctx) {
    var scale = network.getScale();
    var corner = network.DOMtoCanvas({ x: 0, y: 0 });
    var width = container.clientWidth, height = container.clientHeight;
    var grid = new Map();
    var placed = [];
    function cells(box, add) {
      for (var cx = Math.floor(box.left / CELL); cx <= Math.floor(box.right / CELL); cx++) {
        for (var cy = Math.floor(box.top / CELL); cy <= Math.floor(box.bottom / CELL); cy++) {
          var key = cx + "," + cy;
          if (add) { if (!grid.has(key)) grid.set(key, []); grid.get(key).push(box); }
          else if ((grid.get(key) || []).some(function (other) {
            return box.left < other.right && other.left < box.right && box.top < other.bottom && other.top < box.bottom;
          })) return false;
        }
      }
      return true;
    }
    labelCandidates().forEach(function (candidate) {
      var text, px, cx, top, bold = !!candidate.bold;
      if (candidate.cluster) {
        text = candidate.cluster.short; px = CLUSTER_PX; bold = true;
        cx = (candidate.cluster.x - corner.x) * scale;
        top = (candidate.cluster.y - corner.y) * scale - px * 0.65;
      } else {
        var node = data.nodes[candidate.index];
        var drawn = network.body.nodes[node.id];
        if (!drawn) return;
        text = node.text;
        px = Math.min(Math.max(node.labelSize * scale, data.labels.threshold + 1, bold ? 12 : 0), data.labels.max);
        cx = (drawn.x - corner.x) * scale;
        top = (drawn.y + node.size - corner.y) * scale + data.labels.gap;
      }
      var half = textWidth(ctx, text, bold) * px / 2;
      var box = { left: cx - half - LABEL_PAD, right: cx + half + LABEL_PAD, top: top - LABEL_PAD,
                  bottom: top + px * 1.2 + LABEL_PAD };
      if (box.right < 0 || box.left > width || box.bottom < 0 || box.top > height) return;
      if (!cells(box, false)) return;
      cells(box, true);
      placed.push({ id: candidate.cluster ? null : data.nodes[candidate.index].id, cluster: !!candidate.cluster,
                    colour: candidate.cluster ? candidate.cluster.colour : null, text: text, bold: bold, px: px,
                    x: cx, top: top, left: box.left, right: box.right, boxTop: box.top, bottom: box.bottom });
    });
    return placed;
  }
  network.on("afterDrawing", function (ctx) {
    var scale = network.getScale();
    var corner = network.DOMtoCanvas({ x: 0, y: 0 });
    placedLabels = placeLabels(ctx);
    ctx.save();
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "rgba(255, 255, 255, 0.92)";
    placedLabels.forEach(function (label) {
      ctx.font = (label.bold ? "bold " : "") + (label.px / scale) + "px " + data.labels.face;
      ctx.lineWidth = (label.cluster ? 5 : 3) / scale;
      ctx.fillStyle = label.cluster ? label.colour : label.bold ? "#000000" : "#1a1a1a";
      var x = corner.x + label.x / scale, y = corner.y + label.top / scale;
      ctx.strokeText(label.text, x, y);
      ctx.fillText(label.text, x, y);
    });
    ctx.restore();
  });
  // The chosen node and the strongest links its panel lists are named in bold (not all neighbours
  // of a hub: hundreds of names would cover the map).
  function emphasise(ids) {
    emphasisOrder = ids.slice();
    ids.forEach(function (id) {
      (data.panels[indexOf.get(id)].related || []).forEach(function (link) { emphasisOrder.push(data.nodes[link.node].id); });
    });
    emphasised = new Set(emphasisOrder);
  }
  network.on("select", function (params) { emphasise(params.nodes); });

  function applyFilters() {
    readFilters();
    visible = new Set();
    data.nodes.forEach(function (node) { if (nodePasses(node)) visible.add(node.id); });
    nodeView.refresh();
    edgeView.refresh();
    showCounts();
  }
  function showCounts() {
    var typeCounts = {}, relationCounts = {}, entities = 0, papers = 0;
    nodeView.forEach(function (node) {
      typeCounts[node.kind] = (typeCounts[node.kind] || 0) + 1;
      if (node.kind === PAPER) papers += 1; else entities += 1;
    });
    edgeView.forEach(function (edge) {
      edge.kinds.forEach(function (kind) {
        if (filters.relations.has(kind)) relationCounts[kind] = (relationCounts[kind] || 0) + 1;
      });
    });
    var drawnPapers = data.nodes.filter(function (n) { return n.kind === PAPER; }).length;
    var parts = [];
    if (data.view === "papers") parts.push(number(papers) + " of " + plural(Math.max(data.paper_total, drawnPapers), "paper"));
    parts.push(number(entities) + " of " + plural(Math.max(data.entity_total, data.nodes.length - drawnPapers), "entity", "entities"));
    parts.push(number(edgeView.length) + " of " + plural(data.edges.length, "link"));
    document.getElementById("summary").textContent = "Showing " + parts.join(" · ");
    document.querySelectorAll("[data-type-count]").forEach(function (cell) {
      cell.textContent = number(typeCounts[cell.dataset.typeCount] || 0);
    });
    document.querySelectorAll("[data-relation-count]").forEach(function (cell) {
      cell.textContent = number(relationCounts[cell.dataset.relationCount] || 0);
    });
  }
  typeBoxes.concat(relationBoxes).forEach(function (box) { box.addEventListener("change", applyFilters); });
  [minPapers, yearFrom, yearTo].forEach(function (input) { if (input) input.addEventListener("input", applyFilters); });
  document.getElementById("reset").addEventListener("click", function () {
    typeBoxes.concat(relationBoxes).forEach(function (box) { box.checked = true; });
    minPapers.value = 1;
    if (yearFrom) { yearFrom.value = data.years.first; yearTo.value = data.years.last; }
    applyFilters();
  });
  showCounts();

  // ---- colour modes ----------------------------------------------------------------------
  colourBy.addEventListener("change", function () {
    var colours = data.colours[colourBy.value];
    nodes.update(data.nodes.map(function (node, i) { return { id: node.id, color: colours[i] }; }));
    document.getElementById("year-scale").hidden = colourBy.value !== "year";
    document.getElementById("cluster-legend").hidden = colourBy.value !== "community";
  });

  // A cluster's legend row shows the cluster: the view fits its visible members.
  document.querySelectorAll("li[data-cluster]").forEach(function (row) {
    function show() {
      var members = data.clusters[Number(row.dataset.cluster)].members
        .map(function (i) { return data.nodes[i].id; }).filter(function (id) { return visible.has(id); });
      if (members.length) network.fit({ nodes: members, animation: { duration: 300 } });
    }
    row.addEventListener("click", show);
    row.addEventListener("keydown", function (event) { if (event.key === "Enter") show(); });
  });

  // ---- side panel ------------------------------------------------------------------------
  var panel = document.getElementById("panel");
  var panelBody = document.getElementById("panel-body");
  var typeColour = {};
  data.node_types.forEach(function (row) { typeColour[row.label] = row.colour; });

  function heading(name, type) {
    var box = element("div");
    box.appendChild(element("h2", "", name));
    var badge = element("span", "type", type);
    badge.style.background = typeColour[type] || "#888";
    box.appendChild(badge);
    return box;
  }
  // Text with its marks ({start, end}, and a role in an abstract) marked (sorted, not overlapping), as text nodes.
  function marked(tag, text, marks) {
    var box = element(tag);
    var at = 0;
    marks.forEach(function (span) {
      if (span.start < at || span.end <= span.start) return;
      box.appendChild(document.createTextNode(text.slice(at, span.start)));
      var mark = element("mark", span.role !== undefined ? "role-" + span.role : "", text.slice(span.start, span.end));
      box.appendChild(mark);
      at = span.end;
    });
    box.appendChild(document.createTextNode(text.slice(at)));
    return box;
  }
  function paperLine(row) {
    var paper = data.papers[row];
    var item = element("li");
    item.appendChild(element("span", "paper-title", paper.title));
    var meta = [paper.year, paper.venue].filter(Boolean).join(" · ");
    if (meta) item.appendChild(element("span", "paper-meta", " (" + meta + ")"));
    var links = element("span", "links");
    (paper.links || []).forEach(function (link) {
      if (!/^https?:\/\//i.test(link.url)) return;
      var anchor = element("a", "", link.name);
      anchor.href = link.url;
      anchor.target = "_blank";
      anchor.rel = "noopener noreferrer";
      links.appendChild(anchor);
    });
    item.appendChild(links);
    return item;
  }
  function evidenceBlock(items) {
    var box = element("div");
    items.forEach(function (item) {
      var quote = marked("blockquote", item.sentence, item.marks);
      var paper = data.papers[item.paper];
      quote.appendChild(element("span", "source", "— " + paper.title + (paper.year ? " (" + paper.year + ")" : "")));
      box.appendChild(quote);
    });
    return box;
  }
  function openPanel(parts) {
    panelBody.replaceChildren.apply(panelBody, parts);
    panel.hidden = false;
    panel.scrollTop = 0;
  }
  // An entity's papers per year from the page's first to last year, and the year it was first seen.
  function yearSparkline(node) {
    if (!data.years || !node.years || !node.years.length) return [];
    var ns = "http://www.w3.org/2000/svg", span = data.years.last - data.years.first + 1, width = 240, height = 36;
    var counts = {}, top = 1, first = Infinity;
    node.years.forEach(function (row) { counts[row.year] = row.papers; top = Math.max(top, row.papers); first = Math.min(first, row.year); });
    var chart = document.createElementNS(ns, "svg");
    chart.setAttribute("class", "sparkline");
    chart.setAttribute("width", width);
    chart.setAttribute("height", height);
    chart.setAttribute("role", "img");
    for (var year = data.years.first; year <= data.years.last; year++) {
      var bar = document.createElementNS(ns, "rect"), h = counts[year] ? Math.max(2, (height - 2) * counts[year] / top) : 0;
      var w = width / span;
      bar.setAttribute("x", (year - data.years.first) * w);
      bar.setAttribute("y", height - h);
      bar.setAttribute("width", Math.max(1, w - 1));
      bar.setAttribute("height", h);
      bar.setAttribute("fill", "#4E79A7");
      bar.appendChild(document.createElementNS(ns, "title")).textContent = year + ": " + plural(counts[year] || 0, "paper");
      chart.appendChild(bar);
    }
    var caption = element("p", "facts", "Papers per year " + data.years.first + "–" + data.years.last + " · first seen " + first);
    return [caption, chart];
  }
  function nodePanel(i) {
    var info = data.panels[i];
    var node = data.nodes[i];
    var parts = [heading(info.name, info.type)];
    if (!visible.has(node.id)) parts.push(element("p", "warning", "Hidden by the current filters."));
    if (info.acronym) parts.push(element("p", "expansion", info.acronym + " = " + info.long_form));
    if (info.type !== PAPER) {
      var facts = [plural(info.papers, "paper"), plural(info.mentions, "mention")];
      if (info.mean_year) facts.push("mean year " + info.mean_year.toFixed(1));
      parts.push(element("p", "facts", facts.join(" · ")));
      parts.push.apply(parts, yearSparkline(node));
    }
    if (info.leaderboard) {  // a task or data set with results: its board in leaderboard.html beside this page
      var board = element("a", "leaderboard", "Leaderboard: " + plural(info.leaderboard.results, "result") + " →");
      var line = element("p", "facts");
      board.href = info.leaderboard.href;
      line.appendChild(board);
      parts.push(line);
    }
    if (info.aliases) parts.push(element("p", "aliases", "Also written: " + info.aliases.join(" · ")));
    if (info.roles) parts.push(roleBlock(info.roles));
    if (info.abstract) {
      parts.push(element("h3", "", "Abstract"));
      var abstract = marked("p", info.abstract, info.marks || []);
      abstract.className = "abstract";
      parts.push(abstract);
    }
    if (info.related && info.related.length) {
      parts.push(element("h3", "", "Strongest links"));
      var list = element("ul");
      info.related.forEach(function (link) {
        var item = element("li");
        var button = element("button", "entity", data.panels[link.node].name);
        button.type = "button";
        button.addEventListener("click", function () { focusNode(data.nodes[link.node].id); });
        item.appendChild(button);
        item.appendChild(element("span", "paper-meta", " " + plural(link.papers, "paper") + relationNames(link.kinds)));
        list.appendChild(item);
      });
      parts.push(list);
    }
    if (info.evidence) { parts.push(element("h3", "", "Evidence")); parts.push(evidenceBlock(info.evidence)); }
    if (info.paper_rows && info.type !== PAPER) {
      parts.push(element("h3", "", info.papers > info.paper_rows.length
        ? "Newest " + info.paper_rows.length + " of " + plural(info.papers, "paper") : "Papers"));
    }
    if (info.paper_rows) {
      var papers = element("ul");
      info.paper_rows.forEach(function (row) { papers.appendChild(paperLine(row)); });
      parts.push(papers);
    }
    openPanel(parts);
  }
  // A paper's entities by role, each role in the colour its mentions are marked with in the abstract.
  var ROLE_ORDER = ["proposes", "addresses", "evaluates on", "mentions"];
  function roleBlock(roles) {
    var box = element("div", "roles");
    roles.forEach(function (role) {
      var head = element("h3", "", "");
      head.appendChild(element("span", "role-chip role-" + ROLE_ORDER.indexOf(role.role), role.role));
      box.appendChild(head);
      var list = element("ul", "role-list");
      role.entities.forEach(function (entity) {
        var item = element("li");
        if (entity.node >= 0) {
          var button = element("button", "entity", entity.name);
          button.type = "button";
          button.addEventListener("click", function () { focusNode(data.nodes[entity.node].id); });
          item.appendChild(button);
        } else {
          item.appendChild(element("span", "", entity.name));
          item.appendChild(element("span", "paper-meta", " (not drawn here)"));
        }
        list.appendChild(item);
      });
      box.appendChild(list);
    });
    return box;
  }
  function relationNames(kinds) {
    var named = kinds.filter(function (k) { return k !== "SHARED_PAPERS"; }).map(function (k) {
      var row = data.relations.find(function (r) { return r.type === k; });
      return row ? row.name : k;
    });
    return named.length ? " · " + named.join(", ") : "";
  }
  function edgePanel(id) {
    var edge = edges.get(id);
    var info = data.edge_panels[id];
    var parts = [element("h2", "", data.panels[indexOf.get(edge.from)].name + " — " + data.panels[indexOf.get(edge.to)].name)];
    parts.push(element("p", "facts", plural(edge.papers, "paper") + relationNames(edge.kinds)));
    if (info && info.evidence.length) {
      parts.push(element("h3", "", "Sentences"));
      parts.push(evidenceBlock(info.evidence));
    }
    if (info && info.paper_rows && info.paper_rows.length) {
      parts.push(element("h3", "", info.papers > info.paper_rows.length
        ? "Newest " + info.paper_rows.length + " of " + plural(info.papers, "paper") : "Papers"));
      var list = element("ul");
      info.paper_rows.forEach(function (row) { list.appendChild(paperLine(row)); });
      parts.push(list);
    }
    openPanel(parts);
  }
  function foldedPanel(row) {
    openPanel([heading(row.name, row.type),
      element("p", "facts", plural(row.papers, "paper") + (row.acronym ? " · acronym " + row.acronym : "")),
      element("p", "warning", "Folded away: not drawn in this view. Draw it with its neighbours with"),
      element("pre", "", "paperkg view graph.json --focus " + JSON.stringify(row.name))]);
  }
  document.getElementById("close-panel").addEventListener("click", function () { panel.hidden = true; });
  document.addEventListener("keydown", function (event) {  // Escape closes the panel (an open result list first)
    if (event.key === "Escape" && !panel.hidden) panel.hidden = true;
  });
  network.on("click", function (params) {
    if (params.nodes.length) nodePanel(indexOf.get(params.nodes[0]));
    else if (params.edges.length) edgePanel(params.edges[0]);
  });

  function focusNode(id) {
    var i = indexOf.get(id);
    nodePanel(i);
    if (!visible.has(id)) return;
    network.selectNodes([id]);
    emphasise([id]);
    network.focus(id, { scale: Math.max(network.getScale(), 2.5), animation: { duration: 300 } });
  }

  // ---- hover name --------------------------------------------------------------------------
  var tooltip = document.getElementById("tooltip");
  network.on("hoverNode", function (params) {
    var info = data.panels[indexOf.get(params.node)];
    tooltip.textContent = info.name + " · " + info.type + (info.type === PAPER ? "" : " · " + plural(info.papers, "paper"));
    tooltip.style.left = (params.pointer.DOM.x + 14) + "px";
    tooltip.style.top = (params.pointer.DOM.y + 14) + "px";
    tooltip.hidden = false;
  });
  network.on("blurNode", function () { tooltip.hidden = true; });

  // ---- search ------------------------------------------------------------------------------
  var forms = [];
  data.panels.forEach(function (info, i) {
    [info.name, info.acronym, info.long_form].concat(info.aliases || []).forEach(function (form) {
      if (form) forms.push({ form: form.toLowerCase(), index: i, folded: false });
    });
  });
  data.folded.forEach(function (row, j) {
    forms.push({ form: row.name.toLowerCase(), index: j, folded: true });
    if (row.acronym) forms.push({ form: row.acronym.toLowerCase(), index: j, folded: true });
  });
  function score(form, query) {
    if (form === query) return 0;
    if (form.startsWith(query)) return 1;
    var at = form.indexOf(query);
    return at > 0 && /[\s\-(\/]/.test(form.charAt(at - 1)) ? 2 : -1;
  }
  function matches(query) {
    var best = new Map();
    forms.forEach(function (entry) {
      var s = score(entry.form, query);
      if (s < 0) return;
      var key = (entry.folded ? "f" : "n") + entry.index;
      if (!best.has(key) || best.get(key).score > s) best.set(key, { score: s, index: entry.index, folded: entry.folded });
    });
    function papers(hit) { return hit.folded ? data.folded[hit.index].papers : data.panels[hit.index].papers || 0; }
    function name(hit) { return hit.folded ? data.folded[hit.index].name : data.panels[hit.index].name; }
    return Array.from(best.values()).sort(function (a, b) {
      return a.score - b.score || a.folded - b.folded || papers(b) - papers(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
    }).slice(0, MAX_RESULTS);
  }
  var search = document.getElementById("search");
  var results = document.getElementById("results");
  var hits = [];
  function choose(hit) {
    results.hidden = true;
    if (hit.folded) foldedPanel(data.folded[hit.index]);
    else focusNode(data.nodes[hit.index].id);
  }
  function showResults() {
    var query = search.value.trim().toLowerCase();
    results.replaceChildren();
    if (!query) { results.hidden = true; hits = []; return; }
    hits = matches(query);
    if (!hits.length) {
      results.appendChild(element("li", "none", "No match for “" + search.value.trim() + "”"));
    }
    hits.forEach(function (hit, k) {
      var item = element("li");
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", k === 0 ? "true" : "false");
      var folded = hit.folded ? data.folded[hit.index] : null;  // a folded entity's acronym is not shown here
      var info = folded ? { name: folded.name, type: folded.type, papers: folded.papers } : data.panels[hit.index];
      item.appendChild(element("span", "name", info.name + (info.acronym && info.acronym !== info.name ? " (" + info.acronym + ")" : "")));
      item.appendChild(element("span", "meta", info.type + (info.type === PAPER ? "" : " · " + plural(info.papers, "paper")) + (hit.folded ? " · folded" : "")));
      item.addEventListener("mousedown", function (event) { event.preventDefault(); choose(hit); });
      results.appendChild(item);
    });
    results.hidden = false;
  }
  search.addEventListener("input", showResults);
  search.addEventListener("focus", showResults);
  search.addEventListener("blur", function () { results.hidden = true; });
  search.addEventListener("keydown", function (event) {
    var items = Array.prototype.slice.call(results.querySelectorAll("li[role=option]"));
    var at = items.findIndex(function (item) { return item.getAttribute("aria-selected") === "true"; });
    if (event.key === "Enter" && hits.length) { choose(hits[Math.max(at, 0)]); event.preventDefault(); }
    else if (event.key === "Escape" && !results.hidden) { results.hidden = true; event.stopPropagation(); }
    else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && items.length) {
      var next = (at + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      items.forEach(function (item, k) { item.setAttribute("aria-selected", k === next ? "true" : "false"); });
      event.preventDefault();
    }
  });
  document.getElementById("fit").addEventListener("click", function () { network.fit({ animation: { duration: 300 } }); });

  if (opensOnFocus) {  // centred on the focus, selected, its panel open; then ready
    network.once("afterDrawing", function () {
      var at = network.getPositions([data.focus])[data.focus];
      network.moveTo({ position: at, scale: network.getScale() });
      network.selectNodes([data.focus]);
      emphasise([data.focus]);
      nodePanel(indexOf.get(data.focus));
      network.once("afterDrawing", function () { body.dataset.state = "ready"; });
      network.redraw();
    });
  }
  window.paperkgView = { network: network, nodes: nodes, edges: edges, nodeView: nodeView, edgeView: edgeView,
    matches: function (query) { return matches(query.trim().toLowerCase()); },
    open: function (id) { focusNode(id); },
    openEdge: function (id) { network.selectEdges([id]); edgePanel(id); },
    labels: function () { return placedLabels.map(function (label) { return Object.assign({}, label); }); } };
})();
