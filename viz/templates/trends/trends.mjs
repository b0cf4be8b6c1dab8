// The trends page: charts drawn as SVG from the inlined JSON. Every string from the corpus enters
// the page through textContent, never as markup.
import { volume } from "./charts.mjs";
import { summaryText } from "./records.mjs";
import { burstTable, multiples } from "./sections.mjs";

// The page's entry point (called once, after every section is defined).
export function startTrends() {
  var data = JSON.parse(document.getElementById("trends-data").textContent);
  document.getElementById("summary").textContent = summaryText(data);
  volume(data);
  burstTable(data);
  multiples(data, "rising", data.rising, 1);
  multiples(data, "fading", data.fading, -1);
  document.body.dataset.state = "ready";
}
