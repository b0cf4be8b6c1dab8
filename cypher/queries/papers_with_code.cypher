// Papers with code: each paper whose text links its code, with the methods it proposes.
// :param text => ""   -- keep papers whose title or proposed methods contain this text ("" = all)
MATCH (p:Paper) WHERE p.code_url IS NOT NULL
OPTIONAL MATCH (p)-[:PROPOSES]->(m:Method)
WITH p, collect(m.name) AS proposes
WHERE toLower(p.name) CONTAINS toLower($text)
   OR any(method IN proposes WHERE toLower(method) CONTAINS toLower($text))
RETURN p.paper_id AS paper, p.name AS title, p.code_url AS code_url, proposes
ORDER BY paper
