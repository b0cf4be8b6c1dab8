// An entity's trend record read for the charts: its share and papers in a year, its bursts; numbers as text.

export var BURST = "#D62728", SEEN = "#9DB4CE", BEFORE = "#E6E6E6";

export function pct(share) { return (100 * share).toFixed(2) + "%"; }
export function number(n) { return Number(n).toLocaleString("en-US"); }
export function inBurst(record, year) {
  return record.bursts.some(function (b) { return year >= b.start && year <= b.end; });
}
export function shareOf(record, year) {
  var point = record.years.find(function (p) { return p.year === year; });
  return point ? point.share : 0;
}
export function countOf(record, year) {
  var point = record.years.find(function (p) { return p.year === year; });
  return point ? point.papers : 0;
}
// The burst with the highest strength.
export function strongestBurst(record) {
  return record.bursts.slice().sort(function (a, b) { return b.strength - a.strength; })[0];
}
// The colour of an entity's bar in a year: red in a burst, blue once seen, grey before.
export function yearColour(record, year) {
  return inBurst(record, year) ? BURST : (year >= record.first_year ? SEEN : BEFORE);
}
// The polyline points ("x,y" each) of an entity's share per year in a `width` x `height` chart.
export function linePoints(record, years, width, height) {
  var top = Math.max.apply(null, record.years.map(function (p) { return p.share; })) || 1;
  var step = years.length > 1 ? (width - 4) / (years.length - 1) : 0;
  return years.map(function (year, i) {
    return (2 + i * step).toFixed(1) + "," + (height - 2 - (height - 6) * shareOf(record, year) / top).toFixed(1);
  });
}
// The header: the papers counted, their years, and those left out for want of a year.
export function summaryText(data) {
  var years = data.years, total = data.year_papers.reduce(function (a, b) { return a + b; }, 0);
  return number(total) + " papers " + years[0] + "–" + years[years.length - 1] +
    (data.undated ? " (" + number(data.undated) + " without a year left out)" : "");
}
