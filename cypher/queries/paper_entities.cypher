// What a paper is about: the methods, tasks, datasets and metrics it proposes, mentions, addresses, evaluates on.
// :param paper => "ResGen"   -- a paper id, or text in its title (the first that match, up to 3 papers)
MATCH (p:Paper)
WHERE p.paper_id = $paper OR toLower(p.name) CONTAINS toLower($paper)
WITH p ORDER BY p.paper_id LIMIT 3
MATCH (p)-[r]->(e)
RETURN p.paper_id AS paper, p.name AS title, type(r) AS relationship, labels(e)[0] AS label,
       e.name AS entity
ORDER BY paper, relationship, entity
