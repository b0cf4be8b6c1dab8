// Rising entities: whose share of the year's papers rose most from one year to another.
// The share is the entity's papers in a year over all papers of that year, so a growing field
// does not read as growing entities. Only entities whose share rose are listed.
// :param since => 2020   -- the earlier year
// :param until => 2024   -- the later year
// :param type => null   -- only entities of this type (Method, Task, Dataset, Metric), null for all
// :param limit => 25   -- how many entities
MATCH (p:Paper) WHERE p.year IN [$since, $until]
WITH count(CASE WHEN p.year = $since THEN 1 END) AS before_total,
     count(CASE WHEN p.year = $until THEN 1 END) AS after_total
MATCH (p:Paper)-[:PROPOSES|EVALUATES_ON|ADDRESSES|MENTIONS]->(e:%ENTITY_LABELS%)
WHERE p.year IN [$since, $until] AND ($type IS NULL OR $type IN labels(e))
WITH e, before_total, after_total,
     count(DISTINCT CASE WHEN p.year = $since THEN p END) AS before,
     count(DISTINCT CASE WHEN p.year = $until THEN p END) AS after
WITH e, before, after,
     CASE WHEN before_total = 0 THEN 0.0 ELSE toFloat(before) / before_total END AS share_before,
     CASE WHEN after_total = 0 THEN 0.0 ELSE toFloat(after) / after_total END AS share_after
WHERE share_after > share_before
RETURN e.key AS key, e.name AS name, labels(e)[0] AS type, before, after, share_before, share_after,
       share_after - share_before AS change, e.first_year AS first_year
ORDER BY change DESC, key
LIMIT $limit
