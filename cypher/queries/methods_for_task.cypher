// Papers proposing methods for a task.
// A method is for the task when it is USED_FOR it, or its proposing paper ADDRESSES it.
// The task matches by name, acronym or alias, in any case.
// :param task => "image quality assessment"   -- the task
MATCH (t:Task)
WHERE toLower($task) IN [x IN [t.name, t.acronym, t.long_form] + coalesce(t.aliases, []) | toLower(x)]
MATCH (p:Paper)-[:PROPOSES]->(m:Method)
WHERE (m)-[:USED_FOR]->(t) OR (p)-[:ADDRESSES]->(t)
RETURN t.name AS task, m.name AS method, m.acronym AS acronym, p.paper_id AS paper,
       p.name AS title, p.code_url AS code_url
ORDER BY method, paper
