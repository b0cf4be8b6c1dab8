// Elements for the trends page: HTML filled with text (never markup) and SVG with attributes.

var SVG = "http://www.w3.org/2000/svg";

export function el(tag, text, cls) {
  var node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}
export function svg(tag, attrs, parent) {
  var node = document.createElementNS(SVG, tag);
  Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, String(attrs[name])); });
  if (parent) parent.appendChild(node);
  return node;
}
export function tip(node, text) { svg("title", {}, node).textContent = text; return node; }
