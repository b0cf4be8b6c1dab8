// Methods used for a task, as the papers state it (USED_FOR), by the number of papers that say so.
// `papers` counts the papers whose sentences state the relation; `sentence` is one of them, from
// `paper`. The task matches by name, acronym or alias, in any case.
// :param task => "image quality assessment"   -- the task
// :param min_confidence => 0.8   -- typed relations at least this sure (paperkg query: the min_confidence setting)
MATCH (t:Task)
WHERE toLower($task) IN [x IN [t.name, t.acronym, t.long_form] + coalesce(t.aliases, []) | toLower(x)]
MATCH (m:Method)-[r:USED_FOR]->(t)
WHERE r.confidence >= $min_confidence
RETURN t.name AS task, m.name AS method, m.acronym AS acronym, r.papers AS papers,
       r.confidence AS confidence, r.evidence_papers[0] AS paper, r.evidence_sentences[0] AS sentence
ORDER BY papers DESC, method
