// A method's neighbourhood: every node one relationship away, with the relationship.
// The method matches by name, acronym or alias, in any case.
// :param method => "ResGen"   -- the method
// :param limit => 100   -- at most this many rows
MATCH (m:Method)
WHERE toLower($method) IN [x IN [m.name, m.acronym, m.long_form] + coalesce(m.aliases, []) | toLower(x)]
MATCH (m)-[r]-(n)
RETURN m.name AS method, type(r) AS relationship,
       CASE WHEN startNode(r) = m THEN 'out' ELSE 'in' END AS direction,
       labels(n)[0] AS label, n.name AS neighbour, r.count AS evidence
ORDER BY relationship, direction, neighbour
LIMIT $limit
