// The side panel: an entity's or a paper's facts, papers and evidence, a link's sentences, a folded
// entity's note; and focusing a node (its panel open, the map centred on it).
import { shownKinds } from "./filters.mjs";
import { element, plural } from "./text.mjs";

// A paper's entities by role, each role in the colour its mentions are marked with in the abstract.
var ROLE_ORDER = ["proposes", "addresses", "evaluates on", "mentions"];

// Text cut at its marks {start, end, role?} (sorted; an overlapping or empty mark is skipped):
// [piece, null] for plain text, [piece, class] for a marked piece (class "" when the mark has no role).
export function markedPieces(text, marks) {
  var pieces = [], at = 0;
  marks.forEach(function (mark) {
    if (mark.start < at || mark.end <= mark.start) return;
    pieces.push([text.slice(at, mark.start), null]);
    pieces.push([text.slice(mark.start, mark.end), mark.role !== undefined ? "role-" + mark.role : ""]);
    at = mark.end;
  });
  pieces.push([text.slice(at), null]);
  return pieces;
}
// " · " and the names of a link's typed relations (shared papers are not named), or "".
export function relationNames(kinds, relations) {
  var named = kinds.filter(function (k) { return k !== "SHARED_PAPERS"; }).map(function (k) {
    var row = relations.find(function (r) { return r.type === k; });
    return row ? row.name : k;
  });
  return named.length ? " · " + named.join(", ") : "";
}
// An entity's {year, papers} rows as {counts: year -> papers, top, first}.
export function yearCounts(rows) {
  var counts = {}, top = 1, first = Infinity;
  rows.forEach(function (row) { counts[row.year] = row.papers; top = Math.max(top, row.papers); first = Math.min(first, row.year); });
  return { counts: counts, top: top, first: first };
}

// Text with its marks, as text nodes and <mark> elements.
function marked(tag, text, marks) {
  var box = element(tag);
  markedPieces(text, marks).forEach(function (piece) {
    box.appendChild(piece[1] === null ? document.createTextNode(piece[0]) : element("mark", piece[1], piece[0]));
  });
  return box;
}

export function setupPanel(view) {
  var data = view.data, network = view.network, indexOf = view.indexOf;
  var PAPER = data.paper_label;
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
    var seen = yearCounts(node.years), counts = seen.counts, top = seen.top, first = seen.first;
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
    if (!view.visible.has(node.id)) parts.push(element("p", "warning", "Hidden by the current filters."));
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
        item.appendChild(element("span", "paper-meta", " " + plural(link.papers, "paper") + relationNames(link.kinds, data.relations)));
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
  function edgePanel(id) {
    var edge = view.edges.get(id);
    var info = data.edge_panels[id];
    var parts = [element("h2", "", data.panels[indexOf.get(edge.from)].name + " — " + data.panels[indexOf.get(edge.to)].name)];
    parts.push(element("p", "facts", plural(edge.papers, "paper") + relationNames(shownKinds(edge, view.filters), data.relations)));
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
  function focusNode(id) {
    var i = indexOf.get(id);
    nodePanel(i);
    if (!view.visible.has(id)) return;
    network.selectNodes([id]);
    view.emphasise([id]);
    network.focus(id, { scale: Math.max(network.getScale(), 2.5), animation: { duration: 300 } });
  }
  document.getElementById("close-panel").addEventListener("click", function () { panel.hidden = true; });
  document.addEventListener("keydown", function (event) {  // Escape closes the panel (an open result list first)
    if (event.key === "Escape" && !panel.hidden) panel.hidden = true;
  });
  network.on("click", function (params) {
    if (params.nodes.length) nodePanel(indexOf.get(params.nodes[0]));
    else if (params.edges.length) edgePanel(params.edges[0]);
  });
  view.nodePanel = nodePanel;
  view.edgePanel = edgePanel;
  view.foldedPanel = foldedPanel;
  view.focusNode = focusNode;
}
