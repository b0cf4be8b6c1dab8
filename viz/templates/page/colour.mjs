// Colour modes (type, cluster, mean year) and the cluster legend, whose rows show their cluster.

// The visible members of a cluster, as node ids.
export function visibleMembers(cluster, nodes, visible) {
  return cluster.members.map(function (i) { return nodes[i].id; }).filter(function (id) { return visible.has(id); });
}

export function setupColour(view) {
  var data = view.data;
  var colourBy = document.getElementById("colour-by");
  colourBy.addEventListener("change", function () {
    var colours = data.colours[colourBy.value];
    view.nodes.update(data.nodes.map(function (node, i) { return { id: node.id, color: colours[i] }; }));
    document.getElementById("year-scale").hidden = colourBy.value !== "year";
    document.getElementById("cluster-legend").hidden = colourBy.value !== "community";
  });

  // A cluster's legend row shows the cluster: the view fits its visible members.
  document.querySelectorAll("li[data-cluster]").forEach(function (row) {
    function show() {
      var members = visibleMembers(data.clusters[Number(row.dataset.cluster)], data.nodes, view.visible);
      if (members.length) view.network.fit({ nodes: members, animation: { duration: 300 } });
    }
    row.addEventListener("click", show);
    row.addEventListener("keydown", function (event) { if (event.key === "Enter") show(); });
  });
}
