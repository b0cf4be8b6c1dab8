// The trends page: charts drawn as SVG from the inlined JSON. Every string from the corpus enters
// the page through textContent, never as markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("trends-data").textContent);
  var SVG = "http://www.w3.org/2000/svg";
  var years = data.years, first = years[0], last = years[years.length - 1];
  var BURST = "#D62728", SEEN = "#9DB4CE", BEFORE = "#E6E6E6";

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function svg(tag, attrs, parent) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, String(attrs[name])); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function tip(node, text) { svg("title", {}, node).textContent = text; return node; }
  function pct(share) { return (100 * share).toFixed(2) + "%"; }
  function number(n) { return Number(n).toLocaleString("en-US"); }
  function entity(key) { return data.entities[key]; }
  function inBurst(record, year) {
    return record.bursts.some(function (b) { return year >= b.start && year <= b.end; });
  }
  function shareOf(record, year) {
    var point = record.years.find(function (p) { return p.year === year; });
    return point ? point.share : 0;
  }
  function countOf(record, year) {
    var point = record.years.find(function (p) { return p.year === year; });
    return point ? point.papers : 0;
  }

  // Papers per year: each year's count, the denominator of every share on the page.
  function volume() {
    var width = 760, height = 64, bar = width / years.length, top = Math.max.apply(null, data.year_papers) || 1;
    var chart = svg("svg", {width: width, height: height + 14, role: "img", "aria-label": "papers per year"});
    years.forEach(function (year, i) {
      var h = Math.max(data.year_papers[i] ? 1 : 0, height * data.year_papers[i] / top);
      tip(svg("rect", {x: i * bar + 1, y: height - h, width: Math.max(bar - 2, 1), height: h, fill: "#4E79A7"}, chart),
          year + ": " + number(data.year_papers[i]) + " papers");
      if (i === 0 || i === years.length - 1 || year % 5 === 0) {
        svg("text", {x: i * bar + bar / 2, y: height + 12, "text-anchor": "middle"}, chart).textContent = year;
      }
    });
    document.querySelector("#volume .chart").appendChild(chart);
  }

  // CiteSpace's chart: one bar per entity across the years, grey before it was seen, red in its bursts.
  function yearBar(record, cell) {
    var w = 12, chart = svg("svg", {width: w * years.length, height: 12, role: "img"});
    years.forEach(function (year, i) {
      var colour = inBurst(record, year) ? BURST : (year >= record.first_year ? SEEN : BEFORE);
      tip(svg("rect", {x: i * w, y: inBurst(record, year) ? 1 : 4, width: w - 1, height: inBurst(record, year) ? 10 : 4,
                       fill: colour, "data-year": year, "class": inBurst(record, year) ? "burst" : ""}, chart),
          year + ": " + countOf(record, year) + " papers");
    });
    cell.appendChild(chart);
  }

  function burstTable() {
    var body = document.querySelector("#bursts tbody");
    var p = data.parameters;
    document.querySelector("#bursts .note").textContent = data.bursts.length
      ? "Top " + data.bursts.length + " entities with the strongest bursts (Kleinberg's two-state automaton over yearly papers against each year's papers; s = " + p.s + ", γ = " + p.gamma + ", CiteSpace's defaults), in the order their bursts begin. Red: burst years; blue: years after the entity was first seen."
      : "No burst in these years.";
    var head = document.querySelector("#bursts th.years");
    head.textContent = first + " – " + last;
    data.bursts.forEach(function (key) {
      var record = entity(key), strongest = record.bursts.slice().sort(function (a, b) { return b.strength - a.strength; })[0];
      var row = el("tr");
      row.dataset.key = key;
      row.appendChild(el("td", record.name, "name"));
      row.lastChild.title = record.name;
      row.appendChild(el("td", record.type));
      row.appendChild(el("td", record.first_year));
      row.appendChild(el("td", strongest.strength.toFixed(2)));
      row.appendChild(el("td", strongest.start));
      row.appendChild(el("td", strongest.end));
      var cell = el("td");
      yearBar(record, cell);
      row.appendChild(cell);
      row.addEventListener("click", function () { show(key); });
      body.appendChild(row);
    });
  }

  // A small line of an entity's share per year; the window shaded, burst years marked.
  function sparkline(record, width, height, colour) {
    var chart = svg("svg", {width: width, height: height, role: "img", "class": "sparkline"});
    var top = Math.max.apply(null, record.years.map(function (p) { return p.share; })) || 1;
    var step = years.length > 1 ? (width - 4) / (years.length - 1) : 0;
    var wx = 2 + (data.window[0] - first) * step;
    svg("rect", {x: wx, y: 0, width: (data.window[1] - data.window[0]) * step, height: height, fill: "#F3F3F3"}, chart);
    var points = years.map(function (year, i) {
      return (2 + i * step).toFixed(1) + "," + (height - 2 - (height - 6) * shareOf(record, year) / top).toFixed(1);
    });
    svg("polyline", {points: points.join(" "), fill: "none", stroke: colour, "stroke-width": 1.5}, chart);
    years.forEach(function (year, i) {
      if (inBurst(record, year)) svg("rect", {x: 2 + i * step - 1.5, y: height - 3, width: 3, height: 3, fill: BURST}, chart);
    });
    return chart;
  }

  function multiples(section, groups, sign) {
    var box = document.querySelector("#" + section + " .multiples");
    document.querySelector("#" + section + " .note").textContent = "Steepest " + (sign > 0 ? "rise" : "fall") +
      " of the share of each year's papers over " + data.window[0] + "–" + data.window[1] + " (least-squares slope, percentage points a year; entities in at least " +
      data.parameters.min_papers + " papers then). Each line: the share from " + first + " to " + last + ", the window shaded.";
    Object.keys(groups).forEach(function (kind) {
      var group = el("div", null, "group");
      group.appendChild(el("h3", kind));
      var row = el("div", null, "multiples");
      groups[kind].forEach(function (key) {
        var record = entity(key), tile = el("div", null, "tile");
        tile.dataset.key = key;
        tile.appendChild(el("div", record.name, "name"));
        tile.lastChild.title = record.name;
        tile.appendChild(sparkline(record, 156, 38, data.colours[record.type] || "#666"));
        tile.appendChild(el("div", (record.slope > 0 ? "+" : "") + record.slope.toFixed(2) + " pp/yr · " +
          pct(shareOf(record, data.window[0])) + " → " + pct(shareOf(record, data.window[1])), "meta"));
        tile.addEventListener("click", function () { show(key); });
        row.appendChild(tile);
      });
      group.appendChild(row);
      box.appendChild(group);
    });
    if (!Object.keys(groups).length) box.appendChild(el("p", "None in this window.", "note"));
  }

  function paperList(papers) {
    var list = el("ul");
    papers.forEach(function (paper) {
      var item = el("li");
      item.appendChild(el("div", paper.title, "title"));
      item.appendChild(el("div", paper.year + " · " + paper.paper_id, "meta"));
      if (paper.sentence) item.appendChild(el("div", paper.sentence, "sentence"));
      list.appendChild(item);
    });
    return list;
  }

  function show(key) {
    var record = entity(key), panel = document.getElementById("panel");
    panel.replaceChildren();
    panel.dataset.key = key;
    document.querySelectorAll(".selected").forEach(function (node) { node.classList.remove("selected"); });
    document.querySelectorAll("[data-key]").forEach(function (node) {
      if (node.dataset.key === key && node !== panel) node.classList.add("selected");
    });
    panel.appendChild(el("h2", record.name));
    panel.appendChild(el("p", record.type + " · first seen " + record.first_year + " · " + number(record.papers) +
      " papers " + first + "–" + last + (record.slope !== null ? " · " + (record.slope > 0 ? "+" : "") + record.slope.toFixed(2) + " pp/yr" : ""), "meta"));
    panel.appendChild(el("h3", "Share of each year's papers"));
    panel.appendChild(sparkline(record, 360, 70, data.colours[record.type] || "#666"));
    panel.appendChild(el("h3", "First seen in " + record.first_year));
    panel.appendChild(paperList(record.first_papers));
    record.bursts.forEach(function (burst) {
      panel.appendChild(el("h3", "Burst " + burst.start + "–" + burst.end + " (strength " + burst.strength.toFixed(2) + "): papers of " + burst.start));
      panel.appendChild(paperList(burst.papers));
    });
  }

  var total = data.year_papers.reduce(function (a, b) { return a + b; }, 0);
  document.getElementById("summary").textContent = number(total) + " papers " + first + "–" + last +
    (data.undated ? " (" + number(data.undated) + " without a year left out)" : "");
  volume();
  burstTable();
  multiples("rising", data.rising, 1);
  multiples("fading", data.fading, -1);
  document.body.dataset.state = "ready";
})();
