// Text helpers of the page: DOM elements filled with text (never markup), numbers and plurals.

export function element(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
export function number(value) { return Number(value).toLocaleString("en-US"); }
export function plural(count, word, words) { return number(count) + " " + (count === 1 ? word : words || word + "s"); }
