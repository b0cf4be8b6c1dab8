// The name under the pointer, with its type and papers, in a tooltip beside it.
import { plural } from "./text.mjs";

export function hoverText(info, paperLabel) {
  return info.name + " · " + info.type + (info.type === paperLabel ? "" : " · " + plural(info.papers, "paper"));
}

export function setupHover(view) {
  var data = view.data;
  var tooltip = document.getElementById("tooltip");
  view.network.on("hoverNode", function (params) {
    tooltip.textContent = hoverText(data.panels[view.indexOf.get(params.node)], data.paper_label);
    tooltip.style.left = (params.pointer.DOM.x + 14) + "px";
    tooltip.style.top = (params.pointer.DOM.y + 14) + "px";
    tooltip.hidden = false;
  });
  view.network.on("blurNode", function () { tooltip.hidden = true; });
}
