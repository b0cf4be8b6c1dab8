// Search: every name, acronym, long form and alias of the drawn entities and the folded ones,
// matched whole, at the start, or at the start of a word; drawn before folded, then by papers.
import { element, plural } from "./text.mjs";

var MAX_RESULTS = 12;

// {form (lower-cased), index, folded} for every form a drawn (panels) or folded entity is found by.
export function searchForms(panels, folded) {
  var forms = [];
  panels.forEach(function (info, i) {
    [info.name, info.acronym, info.long_form].concat(info.aliases || []).forEach(function (form) {
      if (form) forms.push({ form: form.toLowerCase(), index: i, folded: false });
    });
  });
  folded.forEach(function (row, j) {
    forms.push({ form: row.name.toLowerCase(), index: j, folded: true });
    if (row.acronym) forms.push({ form: row.acronym.toLowerCase(), index: j, folded: true });
  });
  return forms;
}
// 0: the whole form, 1: its start, 2: the start of a word in it, -1: no match.
export function score(form, query) {
  if (form === query) return 0;
  if (form.startsWith(query)) return 1;
  var at = form.indexOf(query);
  return at > 0 && /[\s\-(\/]/.test(form.charAt(at - 1)) ? 2 : -1;
}
// The best MAX_RESULTS hits {score, index, folded} for a lower-cased query.
export function matches(query, forms, data) {
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

// The search box and its result list: Enter or a click opens the first (or the chosen) hit.
export function setupSearch(view) {
  var data = view.data;
  var PAPER = data.paper_label;
  var forms = searchForms(data.panels, data.folded);
  var search = document.getElementById("search");
  var results = document.getElementById("results");
  var hits = [];
  function choose(hit) {
    results.hidden = true;
    if (hit.folded) view.foldedPanel(data.folded[hit.index]);
    else view.focusNode(data.nodes[hit.index].id);
  }
  function showResults() {
    var query = search.value.trim().toLowerCase();
    results.replaceChildren();
    if (!query) { results.hidden = true; hits = []; return; }
    hits = matches(query, forms, data);
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
  view.matches = function (query) { return matches(query.trim().toLowerCase(), forms, data); };
}
