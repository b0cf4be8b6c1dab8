// The evidence behind an entity: every sentence that supports one of its relationships.
// The entity matches by name, acronym or alias, in any case.
// :param name => "FLeRM"   -- the entity
// :param limit => 50   -- at most this many sentences
MATCH (e:%ENTITY_LABELS%)
WHERE toLower($name) IN [x IN [e.name, e.acronym, e.long_form] + coalesce(e.aliases, []) | toLower(x)]
MATCH (e)-[r]-(other)
UNWIND range(0, size(r.evidence_papers) - 1) AS i
RETURN e.name AS entity, type(r) AS relationship, other.name AS other,
       r.evidence_papers[i] AS paper, r.evidence_starts[i] AS start_char, r.evidence_ends[i] AS end_char,
       r.evidence_sentences[i] AS sentence,
       r.evidence_extractors[i] AS extractor, r.evidence_confidences[i] AS confidence
ORDER BY relationship, paper, start_char
LIMIT $limit
