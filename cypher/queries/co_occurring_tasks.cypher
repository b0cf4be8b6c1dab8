// Tasks that occur together: pairs of tasks addressed or mentioned by the same papers.
// :param limit => 25   -- how many pairs
MATCH (a:Task)<-[:ADDRESSES|MENTIONS]-(p:Paper)-[:ADDRESSES|MENTIONS]->(b:Task)
WHERE a.key < b.key
WITH a, b, p ORDER BY p.paper_id
RETURN a.name AS task, b.name AS other_task, count(DISTINCT p) AS papers,
       collect(DISTINCT p.paper_id) AS paper_ids
ORDER BY papers DESC, task, other_task
LIMIT $limit
