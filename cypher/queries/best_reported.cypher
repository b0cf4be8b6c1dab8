// The best value reported each year on each ranked board of a task or a data set (levels reached on one data
// set, metric, split and scale, as in `leaderboard`, the metric's direction known): who reported it, where, and the sentence; the same
// rows as `paperkg leaderboard NAME --by-year`. The name matches as in `leaderboard`.
// :param name => "machine translation"   -- the task or data set
// :param type => null   -- "Task" or "Dataset" to take only that type
MATCH (s:%ENTITY_LABELS%)
WHERE (s:Task OR s:Dataset) AND ($type IS NULL OR $type IN labels(s))
  AND toLower($name) IN [x IN [s.name, s.acronym, s.long_form] + coalesce(s.aliases, []) | toLower(x)]
CALL (s) { MATCH (r:Result)-[:ON_TASK|ON_DATASET]->(s) RETURN count(r) AS results }
WITH s, results WHERE results > 0
ORDER BY results DESC, s.key LIMIT 1
MATCH (p:Paper)-[:REPORTS]->(r:Result)-[:ON_TASK|ON_DATASET]->(s)
WHERE r.kind = 'absolute' AND r.better IS NOT NULL AND r.dataset_key IS NOT NULL AND r.metric_key IS NOT NULL
  AND p.year IS NOT NULL
OPTIONAL MATCH (r)-[:ON_DATASET]->(d:Dataset)
OPTIONAL MATCH (r)-[:FOR_METHOD]->(m:Method)
WITH s, p, r, d, m ORDER BY CASE r.better WHEN 'higher' THEN -r.number ELSE r.number END, p.paper_id, r.start
WITH s, r.dataset_key AS dataset_key, r.metric_key AS metric_key, coalesce(r.split, '') AS split,
     CASE WHEN coalesce(r.unit, '') = '' AND r.number > 1 THEN '%' ELSE coalesce(r.unit, '') END AS scale,
     max(coalesce(r.unit, '')) AS unit,
     collect({dataset: coalesce(d.name, r.dataset), method: coalesce(m.name, r.method, ''), value: r.value,
              number: r.number, paper: p.paper_id, year: p.year, title: p.name, metric: r.metric,
              better: r.better, sentence: r.sentence, result: r.key}) AS rows
UNWIND rows AS row
WITH s, dataset_key, metric_key, split, scale, unit, row.year AS year, head(collect(row)) AS best
RETURN s.name AS subject, best.dataset AS dataset, metric_key, split, unit, year, best.metric AS metric,
       best.better AS better, best.value AS value, best.number AS number, best.method AS method,
       best.paper AS paper, best.title AS title, best.sentence AS sentence, best.result AS result
ORDER BY dataset_key, metric_key, split, unit, year
