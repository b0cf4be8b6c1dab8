// The results reported for a method: each value with its data set, metric, kind, year, paper and sentence, by
// data set and metric, then year. The method matches by name, acronym or alias, in any case.
// :param method => "BERT"   -- the method
MATCH (m:Method)
WHERE toLower($method) IN [x IN [m.name, m.acronym, m.long_form] + coalesce(m.aliases, []) | toLower(x)]
MATCH (p:Paper)-[:REPORTS]->(r:Result)-[:FOR_METHOD]->(m)
OPTIONAL MATCH (r)-[:ON_DATASET]->(d:Dataset)
RETURN m.name AS method, coalesce(d.name, r.dataset) AS dataset, r.metric AS metric, r.metric_key AS metric_key,
       r.kind AS kind, r.value AS value, r.unit AS unit, r.split AS split, r.comparison AS comparison,
       p.year AS year, p.paper_id AS paper, p.name AS title, r.sentence AS sentence, r.key AS result
ORDER BY method, coalesce(dataset, ''), coalesce(metric_key, ''), coalesce(year, 0), paper, r.start
