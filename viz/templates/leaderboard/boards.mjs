// The leaderboards page's reading of its data: a board's title and why it is ranked or not, a row's method, the
// parts of a sentence around its value, which subjects a filter keeps, and the header.
export function plural(count, word) { return count + " " + word + (count === 1 ? "" : "s"); }

// "WMT14 · BLEU · test split · levels reached · %": what the board's values share.
export function boardTitle(board) {
  var parts = [board.dataset || "no data set named", board.metric || "no metric named"];
  if (board.split) parts.push(board.split + " split");
  parts.push(board.kind === "change" ? "changes" : "levels reached");
  if (board.unit) parts.push(board.unit);
  return parts.join(" · ");
}

// Why the board is ranked, or why it only lists its rows.
export function boardNote(board) {
  if (board.ranked) return "Ranked, best first: " + board.better + " is better.";
  if (board.kind === "change") return "Changes against each paper's own baseline: listed by year, never ranked.";
  if (!board.dataset) return "No data set named: listed by year, not compared.";
  if (!board.metric) return "No metric named: listed by year, not compared.";
  return "Which way this metric is better is not known: listed by year.";
}

// The method a row names, or what it is when it names none.
export function methodText(row) {
  return row.method || (row.proposed ? "(the paper's method)" : "(not named)");
}

// The sentence as [before, value, after], the value where its offsets put it.
export function sentenceParts(row) {
  var from = row.start - row.sentence_start, to = row.end - row.sentence_start;
  return [row.sentence.slice(0, from), row.sentence.slice(from, to), row.sentence.slice(to)];
}

// Whether a subject's name holds the filter's text (any case); an empty filter keeps every subject.
export function keeps(subject, text) {
  return text === "" || subject.name.toLowerCase().indexOf(text.toLowerCase()) >= 0;
}

// The header: how many tasks and data sets, how many results; and how many a large corpus left off the page.
export function summaryText(data) {
  var count = data.subjects.length;
  var text = count + (count === 1 ? " task or data set, " : " tasks and data sets, ") + plural(data.results, "result");
  if (data.left_out) {
    text += " (those with the most results; " + data.left_out + " more in leaderboards.json and paperkg leaderboard NAME)";
  }
  return text;
}
