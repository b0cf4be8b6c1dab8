// What a method is compared with (COMPARED_WITH, either direction), by the papers that compare them.
// The method matches by name, acronym or alias, in any case.
// :param method => "FLeRM"   -- the method
// :param min_confidence => 0.8   -- typed relations at least this sure (paperkg query: the min_confidence setting)
MATCH (m:Method)
WHERE toLower($method) IN [x IN [m.name, m.acronym, m.long_form] + coalesce(m.aliases, []) | toLower(x)]
MATCH (m)-[r:COMPARED_WITH]-(other:Method)
WHERE r.confidence >= $min_confidence
RETURN m.name AS method, other.name AS compared_with, r.papers AS papers, r.confidence AS confidence,
       r.evidence_papers[0] AS paper, r.evidence_sentences[0] AS sentence
ORDER BY papers DESC, compared_with
