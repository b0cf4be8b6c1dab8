// Top methods by the number of papers that propose or mention them.
// Counts distinct papers per method, and how many of them propose it.
// :param limit => 10   -- how many methods
MATCH (m:Method)<-[r:PROPOSES|MENTIONS]-(p:Paper)
WITH m, count(DISTINCT p) AS papers,
     count(DISTINCT CASE WHEN type(r) = 'PROPOSES' THEN p END) AS proposed_by
RETURN m.name AS method, m.acronym AS acronym, papers, proposed_by, m.key AS key
ORDER BY papers DESC, proposed_by DESC, method
LIMIT $limit
