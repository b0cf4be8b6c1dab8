// The shortest path between two entities (or papers), at most 8 relationships, any direction.
// Both ends match by name, acronym or alias, in any case (papers also by paper id).
// :param from => "ResGen"   -- one end
// :param to => "CIFAR-10"   -- the other end
MATCH (a:%NODE_LABELS%)
WHERE toLower($from) IN [x IN [a.name, a.acronym, a.long_form, a.paper_id] + coalesce(a.aliases, []) | toLower(x)]
MATCH (b:%NODE_LABELS%)
WHERE toLower($to) IN [x IN [b.name, b.acronym, b.long_form, b.paper_id] + coalesce(b.aliases, []) | toLower(x)]
  AND a <> b
MATCH path = shortestPath((a)-[*..8]-(b))
RETURN length(path) AS hops,
       [n IN nodes(path) | labels(n)[0] + ': ' + n.name] AS nodes,
       [r IN relationships(path) | type(r)] AS relationships
ORDER BY hops
LIMIT 1
