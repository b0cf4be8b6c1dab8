// The trends page's sections: the strongest bursts' table, the small multiples of risers and fallers,
// and the panel of the entity clicked in either.
import { sparkline, yearBar } from "./charts.mjs";
import { number, pct, shareOf, strongestBurst } from "./records.mjs";
import { el } from "./svg.mjs";

export function burstTable(data) {
  var years = data.years, first = years[0], last = years[years.length - 1];
  var body = document.querySelector("#bursts tbody");
  var p = data.parameters;
  document.querySelector("#bursts .note").textContent = data.bursts.length
    ? "Top " + data.bursts.length + " entities with the strongest bursts (Kleinberg's two-state automaton over yearly papers against each year's papers; s = " + p.s + ", γ = " + p.gamma + ", CiteSpace's defaults), in the order their bursts begin. Red: burst years; blue: years after the entity was first seen."
    : "No burst in these years.";
  var head = document.querySelector("#bursts th.years");
  head.textContent = first + " – " + last;
  data.bursts.forEach(function (key) {
    var record = data.entities[key], strongest = strongestBurst(record);
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
    yearBar(years, record, cell);
    row.appendChild(cell);
    row.addEventListener("click", function () { show(data, key); });
    body.appendChild(row);
  });
}

export function multiples(data, section, groups, sign) {
  var years = data.years, first = years[0], last = years[years.length - 1];
  var box = document.querySelector("#" + section + " .multiples");
  document.querySelector("#" + section + " .note").textContent = "Steepest " + (sign > 0 ? "rise" : "fall") +
    " of the share of each year's papers over " + data.window[0] + "–" + data.window[1] + " (least-squares slope, percentage points a year; entities in at least " +
    data.parameters.min_papers + " papers then). Each line: the share from " + first + " to " + last + ", the window shaded.";
  Object.keys(groups).forEach(function (kind) {
    var group = el("div", null, "group");
    group.appendChild(el("h3", kind));
    var row = el("div", null, "multiples");
    groups[kind].forEach(function (key) {
      var record = data.entities[key], tile = el("div", null, "tile");
      tile.dataset.key = key;
      tile.appendChild(el("div", record.name, "name"));
      tile.lastChild.title = record.name;
      tile.appendChild(sparkline(data, record, 156, 38, data.colours[record.type] || "#666"));
      tile.appendChild(el("div", (record.slope > 0 ? "+" : "") + record.slope.toFixed(2) + " pp/yr · " +
        pct(shareOf(record, data.window[0])) + " → " + pct(shareOf(record, data.window[1])), "meta"));
      tile.addEventListener("click", function () { show(data, key); });
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

function show(data, key) {
  var years = data.years, first = years[0], last = years[years.length - 1];
  var record = data.entities[key], panel = document.getElementById("panel");
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
  panel.appendChild(sparkline(data, record, 360, 70, data.colours[record.type] || "#666"));
  panel.appendChild(el("h3", "First seen in " + record.first_year));
  panel.appendChild(paperList(record.first_papers));
  record.bursts.forEach(function (burst) {
    panel.appendChild(el("h3", "Burst " + burst.start + "–" + burst.end + " (strength " + burst.strength.toFixed(2) + "): papers of " + burst.start));
    panel.appendChild(paperList(burst.papers));
  });
}
