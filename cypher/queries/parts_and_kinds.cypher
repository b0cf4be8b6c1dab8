// What an entity is made of and what kind of thing it is: PART_OF, IS_A and SUBTASK_OF, both ways.
// `direction` is "out" when the entity is the part, the kind or the subtask ("FooNet PART_OF X"),
// "in" when the other one is. The entity matches by name, acronym or alias, in any case.
// :param name => "Transformer"   -- the entity
// :param min_confidence => 0.8   -- typed relations at least this sure (paperkg query: the min_confidence setting)
MATCH (e:%ENTITY_LABELS%)
WHERE toLower($name) IN [x IN [e.name, e.acronym, e.long_form] + coalesce(e.aliases, []) | toLower(x)]
MATCH (e)-[r:PART_OF|IS_A|SUBTASK_OF]-(other)
WHERE r.confidence >= $min_confidence
RETURN e.name AS entity, type(r) AS relation, CASE WHEN startNode(r) = e THEN 'out' ELSE 'in' END AS direction,
       other.name AS other, labels(other)[0] AS other_label, r.papers AS papers, r.confidence AS confidence,
       r.evidence_papers[0] AS paper, r.evidence_sentences[0] AS sentence
ORDER BY relation, direction, papers DESC, other
