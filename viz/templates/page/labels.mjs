// Names on the map, placed again on every frame (after each filter, zoom and pan step), greedily, like
// VOSviewer: the chosen node and the names its panel lists (bold) first, then the cluster names
// (when colouring by cluster), then every visible node by importance (labelSize, from labels.py);
// a name is drawn only where its box overlaps no name already placed. Its size grows with its
// importance and the zoom, between the threshold and the maximum.

var LABEL_PAD = 2, CELL = 64, CLUSTER_PX = 15;

// Node indices by importance: labelSize, then page order.
export function labelOrder(nodes) {
  return nodes.map(function (node, i) { return i; })
    .sort(function (a, b) { return nodes[b].labelSize - nodes[a].labelSize || a - b; });
}
// Placed boxes on a grid of CELL-pixel cells: `fits` says whether a box overlaps none placed, `add` places it.
export function labelGrid() {
  var grid = new Map();
  function cells(box, add) {
    for (var cx = Math.floor(box.left / CELL); cx <= Math.floor(box.right / CELL); cx++) {
      for (var cy = Math.floor(box.top / CELL); cy <= Math.floor(box.bottom / CELL); cy++) {
        var key = cx + "," + cy;
        if (add) { if (!grid.has(key)) grid.set(key, []); grid.get(key).push(box); }
        else if ((grid.get(key) || []).some(function (other) {
          return box.left < other.right && other.left < box.right && box.top < other.bottom && other.top < box.bottom;
        })) return false;
      }
    }
    return true;
  }
  return { fits: function (box) { return cells(box, false); }, add: function (box) { cells(box, true); } };
}
// The box of a name `half` pixels wide each side of `cx`, `px` pixels high from `top`, with its padding.
export function labelBox(cx, top, half, px) {
  return { left: cx - half - LABEL_PAD, right: cx + half + LABEL_PAD, top: top - LABEL_PAD,
           bottom: top + px * 1.2 + LABEL_PAD };
}
// Whether a box lies outside a canvas of `width` x `height` pixels.
export function offScreen(box, width, height) {
  return box.right < 0 || box.left > width || box.bottom < 0 || box.top > height;
}

// The ids named in bold, in order: the chosen nodes', then those of the strongest links their panels
// list ({node, papers, kinds}), not all neighbours of a hub (hundreds of names would cover the map).
export function emphasisIds(ids, data, indexOf) {
  var order = ids.slice();
  ids.forEach(function (id) {
    (data.panels[indexOf.get(id)].related || []).forEach(function (link) { order.push(data.nodes[link.node].id); });
  });
  return order;
}

// The names drawn after every frame; view.emphasise(ids) names the chosen nodes and their strongest links first.
export function setupLabels(view) {
  var data = view.data, network = view.network, container = view.container;
  var order = labelOrder(data.nodes);
  var emphasised = new Set();
  var emphasisOrder = [];
  var widths = new Map();
  var colourBy = document.getElementById("colour-by");
  view.placedLabels = [];

  function textWidth(ctx, text, bold) {
    var key = (bold ? "b" : "n") + text;
    if (!widths.has(key)) {
      ctx.font = (bold ? "bold " : "") + "100px " + data.labels.face;
      widths.set(key, ctx.measureText(text).width / 100);
    }
    return widths.get(key);
  }
  function labelCandidates() {
    var list = [];
    emphasisOrder.forEach(function (id) {
      if (view.visible.has(id)) list.push({ index: view.indexOf.get(id), bold: true });
    });
    if (colourBy.value === "community") {
      (data.clusters || []).forEach(function (cluster) {
        if (cluster.x === null || !cluster.members.some(function (i) { return view.visible.has(data.nodes[i].id); })) return;
        list.push({ cluster: cluster });
      });
    }
    order.forEach(function (i) {
      var id = data.nodes[i].id;
      if (view.visible.has(id) && !emphasised.has(id)) list.push({ index: i, bold: false });
    });
    return list;
  }
  function placeLabels(ctx) {
    var scale = network.getScale();
    var corner = network.DOMtoCanvas({ x: 0, y: 0 });
    var width = container.clientWidth, height = container.clientHeight;
    var grid = labelGrid();
    var placed = [];
    labelCandidates().forEach(function (candidate) {
      var text, px, cx, top, bold = !!candidate.bold;
      if (candidate.cluster) {
        text = candidate.cluster.short; px = CLUSTER_PX; bold = true;
        cx = (candidate.cluster.x - corner.x) * scale;
        top = (candidate.cluster.y - corner.y) * scale - px * 0.65;
      } else {
        var node = data.nodes[candidate.index];
        var drawn = network.body.nodes[node.id];
        if (!drawn) return;
        text = node.text;
        px = Math.min(Math.max(node.labelSize * scale, data.labels.threshold + 1, bold ? 12 : 0), data.labels.max);
        cx = (drawn.x - corner.x) * scale;
        top = (drawn.y + node.size - corner.y) * scale + data.labels.gap;
      }
      var box = labelBox(cx, top, textWidth(ctx, text, bold) * px / 2, px);
      if (offScreen(box, width, height) || !grid.fits(box)) return;
      grid.add(box);
      placed.push({ id: candidate.cluster ? null : data.nodes[candidate.index].id, cluster: !!candidate.cluster,
                    colour: candidate.cluster ? candidate.cluster.colour : null, text: text, bold: bold, px: px,
                    x: cx, top: top, left: box.left, right: box.right, boxTop: box.top, bottom: box.bottom });
    });
    return placed;
  }
  network.on("afterDrawing", function (ctx) {
    var scale = network.getScale();
    var corner = network.DOMtoCanvas({ x: 0, y: 0 });
    view.placedLabels = placeLabels(ctx);
    ctx.save();
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "rgba(255, 255, 255, 0.92)";
    view.placedLabels.forEach(function (label) {
      ctx.font = (label.bold ? "bold " : "") + (label.px / scale) + "px " + data.labels.face;
      ctx.lineWidth = (label.cluster ? 5 : 3) / scale;
      ctx.fillStyle = label.cluster ? label.colour : label.bold ? "#000000" : "#1a1a1a";
      var x = corner.x + label.x / scale, y = corner.y + label.top / scale;
      ctx.strokeText(label.text, x, y);
      ctx.fillText(label.text, x, y);
    });
    ctx.restore();
  });
  view.emphasise = function (ids) {
    emphasisOrder = emphasisIds(ids, data, view.indexOf);
    emphasised = new Set(emphasisOrder);
  };
  network.on("select", function (params) { view.emphasise(params.nodes); });
}
