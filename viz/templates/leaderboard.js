// The leaderboards page: one subject (a task or a data set) at a time, its boards as tables, every value opening
// the sentence that reports it. Every string from the corpus enters the page through textContent, never as markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("leaderboard-data").textContent);
  var subjects = data.subjects, byKey = {};
  subjects.forEach(function (subject) { byKey[subject.key] = subject; });
  var list = document.querySelector("#subjects ul"), filter = document.getElementById("filter");
  var panel = document.getElementById("panel"), selectedRow = null;

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function boardTitle(board) {
    var parts = [board.dataset || "no data set named", board.metric || "no metric named"];
    if (board.split) parts.push(board.split + " split");
    parts.push(board.kind === "change" ? "changes" : "levels reached");
    if (board.unit) parts.push(board.unit);
    return parts.join(" · ");
  }
  function boardNote(board) {
    if (board.ranked) return "Ranked, best first: " + board.better + " is better.";
    if (board.kind === "change") return "Changes against each paper's own baseline: listed by year, never ranked.";
    if (!board.dataset) return "No data set named: listed by year, not compared.";
    if (!board.metric) return "No metric named: listed by year, not compared.";
    return "Which way this metric is better is not known: listed by year.";
  }

  function showRow(row, board, tr) {
    if (selectedRow) selectedRow.classList.remove("selected");
    selectedRow = tr;
    tr.classList.add("selected");
    panel.textContent = "";
    panel.appendChild(el("h3", row.title));
    var sentence = el("p", null, "sentence"), from = row.start - row.sentence_start, to = row.end - row.sentence_start;
    sentence.appendChild(document.createTextNode(row.sentence.slice(0, from)));
    sentence.appendChild(el("mark", row.sentence.slice(from, to)));
    sentence.appendChild(document.createTextNode(row.sentence.slice(to)));
    panel.appendChild(sentence);
    var facts = el("dl");
    [["Value", row.value + (row.relative ? " (relative)" : "") + (row.direction ? " (" + row.direction + ")" : "")],
     ["Method", row.method || (row.proposed ? "the paper's own method (unnamed)" : "not named")],
     ["Compared with", row.comparison], ["Board", boardTitle(board)], ["Paper", row.paper + (row.year ? ", " + row.year : "")],
     ["Result model's confidence", row.confidence]].forEach(function (fact) {
      if (fact[1] === "" || fact[1] === null || fact[1] === undefined) return;
      facts.appendChild(el("dt", fact[0]));
      facts.appendChild(el("dd", fact[1]));
    });
    panel.appendChild(facts);
  }

  function boardTable(board) {
    var table = el("table"), head = el("tr");
    ["#", "Method", "Value", "Year", "Paper"].forEach(function (name) { head.appendChild(el("th", name)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    board.rows.forEach(function (row) {
      var tr = el("tr");
      tr.appendChild(el("td", row.rank || ""));
      tr.appendChild(el("td", row.method || (row.proposed ? "(the paper's method)" : "(not named)"),
                        row.method ? "method" : "method own"));
      var button = el("button", row.value);
      button.type = "button";
      button.title = "Open the sentence";
      button.addEventListener("click", function () { showRow(row, board, tr); });
      tr.appendChild(el("td", null, "value")).appendChild(button);
      tr.appendChild(el("td", row.year || ""));
      var paper = el("td", row.title, "paper");
      paper.title = row.paper;
      tr.appendChild(paper);
      body.appendChild(tr);
    });
    return table;
  }

  function select(key) {
    var subject = byKey[key] || subjects[0];
    if (!subject) return;
    Array.prototype.forEach.call(list.children, function (item) {
      item.classList.toggle("selected", item.dataset.key === subject.key);
    });
    document.getElementById("subject").textContent = subject.name + " (" + subject.label + ")";
    document.getElementById("subject-note").textContent = plural(subject.results, "result") + " in " +
      plural(subject.boards.length, "board") + ": values are compared only within a board (one data set, metric, " +
      "split, kind and unit).";
    var boards = document.getElementById("boards");
    boards.textContent = "";
    subject.boards.forEach(function (board) {
      boards.appendChild(el("h3", boardTitle(board)));
      boards.appendChild(el("p", boardNote(board), "board-note"));
      boards.appendChild(boardTable(board));
    });
    panel.textContent = "";
    panel.appendChild(el("p", "Click a value to read the sentence that reports it.", "hint"));
    selectedRow = null;
  }

  subjects.forEach(function (subject) {
    var item = el("li");
    item.dataset.key = subject.key;
    var dot = item.appendChild(el("span", null, "kind"));
    dot.style.background = data.colours[subject.label] || "#999";
    item.appendChild(document.createTextNode(subject.name));
    item.appendChild(el("span", subject.results, "count"));
    item.title = subject.label + ": " + plural(subject.results, "result");
    item.addEventListener("click", function () { location.hash = encodeURIComponent(subject.key); });
    list.appendChild(item);
  });
  filter.addEventListener("input", function () {
    var wanted = filter.value.toLowerCase();
    Array.prototype.forEach.call(list.children, function (item) {
      item.hidden = wanted !== "" && byKey[item.dataset.key].name.toLowerCase().indexOf(wanted) < 0;
    });
  });
  window.addEventListener("hashchange", function () { select(decodeURIComponent(location.hash.slice(1))); });
  document.getElementById("summary").textContent = plural(subjects.length, "task and data set") + ", " +
    plural(data.results, "result");
  select(decodeURIComponent(location.hash.slice(1)));
  document.body.dataset.state = "ready";
})();
