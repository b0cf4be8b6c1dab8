// The trends page's charts, drawn as SVG: papers per year, an entity's year bar and its share line.
import { BURST, countOf, inBurst, linePoints, number, yearColour } from "./records.mjs";
import { svg, tip } from "./svg.mjs";

// Papers per year: each year's count, the denominator of every share on the page.
export function volume(data) {
  var years = data.years;
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
export function yearBar(years, record, cell) {
  var w = 12, chart = svg("svg", {width: w * years.length, height: 12, role: "img"});
  years.forEach(function (year, i) {
    tip(svg("rect", {x: i * w, y: inBurst(record, year) ? 1 : 4, width: w - 1, height: inBurst(record, year) ? 10 : 4,
                     fill: yearColour(record, year), "data-year": year, "class": inBurst(record, year) ? "burst" : ""}, chart),
        year + ": " + countOf(record, year) + " papers");
  });
  cell.appendChild(chart);
}

// A small line of an entity's share per year; the window shaded, burst years marked.
export function sparkline(data, record, width, height, colour) {
  var years = data.years, first = years[0];
  var chart = svg("svg", {width: width, height: height, role: "img", "class": "sparkline"});
  var step = years.length > 1 ? (width - 4) / (years.length - 1) : 0;
  var wx = 2 + (data.window[0] - first) * step;
  svg("rect", {x: wx, y: 0, width: (data.window[1] - data.window[0]) * step, height: height, fill: "#F3F3F3"}, chart);
  svg("polyline", {points: linePoints(record, years, width, height).join(" "), fill: "none", stroke: colour, "stroke-width": 1.5}, chart);
  years.forEach(function (year, i) {
    if (inBurst(record, year)) svg("rect", {x: 2 + i * step - 1.5, y: height - 3, width: 3, height: 3, fill: BURST}, chart);
  });
  return chart;
}
