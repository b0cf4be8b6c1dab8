// The most central entities by PageRank (computed by paperkg build over the whole graph).
// :param label => ""   -- Method, Task, Dataset or Metric ("" = all of them)
// :param limit => 15   -- how many entities
MATCH (n:%ENTITY_LABELS%)
WHERE $label = '' OR $label IN labels(n)
RETURN labels(n)[0] AS label, n.name AS name, n.pagerank AS pagerank, n.degree AS degree,
       n.papers AS papers, n.community AS community
ORDER BY pagerank DESC, name
LIMIT $limit
