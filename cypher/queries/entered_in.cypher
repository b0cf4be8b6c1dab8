// Entities first seen in a year: what entered the field then, in the most papers first.
// `first_year` is set on every entity by `paperkg push` (the earliest year of its papers).
// :param year => 2020   -- the year
// :param type => null   -- only entities of this type (Method, Task, Dataset, Metric), null for all
// :param limit => 25   -- how many entities
MATCH (e:%ENTITY_LABELS%)
WHERE e.first_year = $year AND ($type IS NULL OR $type IN labels(e))
MATCH (p:Paper)-[:PROPOSES|EVALUATES_ON|ADDRESSES|MENTIONS]->(e)
WHERE p.year IS NOT NULL
WITH e, count(DISTINCT p) AS papers
RETURN e.key AS key, e.name AS name, labels(e)[0] AS type, papers, e.burst_start AS burst_start,
       e.burst_end AS burst_end, e.burst_strength AS burst_strength
ORDER BY papers DESC, key
LIMIT $limit
