// The leaderboards page: one task or data set at a time (its node key in the address), its boards as tables,
// every value opening the sentence that reports it. Corpus text enters the page through textContent only.
import { boardNote, boardTitle, keeps, methodText, plural, sentenceParts, summaryText } from "./boards.mjs";

function element(tag, text, className) {
  var node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

// The panel of one value: its paper, its sentence with the value marked, what it is of.
function showRow(panel, row, board) {
  var sentence = element("p", null, "sentence"), parts = sentenceParts(row);
  sentence.appendChild(document.createTextNode(parts[0]));
  sentence.appendChild(element("mark", parts[1]));
  sentence.appendChild(document.createTextNode(parts[2]));
  var facts = element("dl");
  [["Value", row.value + (row.relative ? " (relative)" : "") + (row.direction ? " (" + row.direction + ")" : "")],
   ["Method", row.method || (row.proposed ? "the paper's own method (unnamed)" : "not named")],
   ["Compared with", row.comparison], ["Board", boardTitle(board)], ["Paper", row.paper + (row.year ? ", " + row.year : "")],
   ["Result model's confidence", row.confidence]].forEach(function (fact) {
    if (fact[1] === "" || fact[1] === null || fact[1] === undefined) return;
    facts.appendChild(element("dt", fact[0]));
    facts.appendChild(element("dd", fact[1]));
  });
  panel.replaceChildren(element("h3", row.title), sentence, facts);
}

function boardTable(panel, board) {
  var table = element("table"), head = element("tr"), body = element("tbody");
  ["#", "Method", "Value", "Year", "Paper"].forEach(function (name) { head.appendChild(element("th", name)); });
  table.appendChild(element("thead")).appendChild(head);
  table.appendChild(body);
  board.rows.forEach(function (row) {
    var line = element("tr"), button = element("button", row.value), paper = element("td", row.title, "paper");
    line.appendChild(element("td", row.rank || ""));
    line.appendChild(element("td", methodText(row), row.method ? "method" : "method own"));
    button.type = "button";
    button.title = "Open the sentence";
    button.addEventListener("click", function () {
      Array.prototype.forEach.call(document.querySelectorAll("tr.selected"), function (other) { other.classList.remove("selected"); });
      line.classList.add("selected");
      showRow(panel, row, board);
    });
    line.appendChild(element("td", null, "value")).appendChild(button);
    line.appendChild(element("td", row.year || ""));
    paper.title = row.paper;
    line.appendChild(paper);
    body.appendChild(line);
  });
  return table;
}

// The page's entry point: the subject list, the filter, and the subject the address names (else the first).
export function startLeaderboard() {
  var data = JSON.parse(document.getElementById("leaderboard-data").textContent);
  var list = document.querySelector("#subjects ul"), filter = document.getElementById("filter");
  var panel = document.getElementById("panel"), byKey = new Map(), items = [];
  function select(key) {
    var subject = byKey.get(key) || data.subjects[0], boards = document.getElementById("boards");
    if (!subject) return;
    items.forEach(function (item) { item.classList.toggle("selected", item.dataset.key === subject.key); });
    document.getElementById("subject").textContent = subject.name + " (" + subject.label + ")";
    document.getElementById("subject-note").textContent = plural(subject.results, "result") + " in " +
      plural(subject.boards.length, "board") + ": values are compared only within a board (one data set, metric, " +
      "split, kind and scale).";
    boards.replaceChildren();
    subject.boards.forEach(function (board) {
      boards.appendChild(element("h3", boardTitle(board)));
      boards.appendChild(element("p", boardNote(board), "board-note"));
      boards.appendChild(boardTable(panel, board));
    });
    panel.replaceChildren(element("p", "Click a value to read the sentence that reports it.", "hint"));
  }
  data.subjects.forEach(function (subject) {
    var item = element("li"), dot = element("span", null, "kind");
    byKey.set(subject.key, subject);
    item.dataset.key = subject.key;
    dot.style.background = data.colours[subject.label] || "#999";
    item.appendChild(dot);
    item.appendChild(document.createTextNode(subject.name));
    item.appendChild(element("span", subject.results, "count"));
    item.title = subject.label + ": " + plural(subject.results, "result");
    item.addEventListener("click", function () { window.location.hash = window.encodeURIComponent(subject.key); });
    list.appendChild(item);
    items.push(item);
  });
  filter.addEventListener("input", function () {
    items.forEach(function (item) { item.hidden = !keeps(byKey.get(item.dataset.key), filter.value); });
  });
  window.addEventListener("hashchange", function () { select(window.decodeURIComponent(window.location.hash.slice(1))); });
  document.getElementById("summary").textContent = summaryText(data);
  select(window.decodeURIComponent(window.location.hash.slice(1)));
  document.body.dataset.state = "ready";
}
