// The leaderboard of a task or a data set: its results in boards of values that may be compared (one data set,
// metric, split, kind and scale: a level written without a unit and above 1 is on the percentage points of '%';
// `unit` is the board's as written), levels reached best first where the metric's direction is known (`rank`),
// changes and the rest by year, never ranked; the same rows in the same order as `paperkg leaderboard`.
// The name matches a Task or Dataset by name, acronym or alias, in any case; of several, the one with the most
// results.
// :param name => "machine translation"   -- the task or data set
// :param type => null   -- "Task" or "Dataset" to take only that type
MATCH (s:%ENTITY_LABELS%)
WHERE (s:Task OR s:Dataset) AND ($type IS NULL OR $type IN labels(s))
  AND toLower($name) IN [x IN [s.name, s.acronym, s.long_form] + coalesce(s.aliases, []) | toLower(x)]
CALL (s) { MATCH (r:Result)-[:ON_TASK|ON_DATASET]->(s) RETURN count(r) AS results }
WITH s, results WHERE results > 0
ORDER BY results DESC, s.key LIMIT 1
MATCH (p:Paper)-[:REPORTS]->(r:Result)-[:ON_TASK|ON_DATASET]->(s)
OPTIONAL MATCH (r)-[:ON_DATASET]->(d:Dataset)
OPTIONAL MATCH (r)-[:FOR_METHOD]->(m:Method)
WITH s, p, r, d, m,
     r.kind = 'absolute' AND r.better IS NOT NULL AND r.dataset_key IS NOT NULL AND r.metric_key IS NOT NULL
       AS ranked
ORDER BY CASE WHEN ranked THEN CASE r.better WHEN 'higher' THEN -r.number ELSE r.number END ELSE 0 END,
         coalesce(p.year, 0), p.paper_id, r.start
WITH s, coalesce(r.dataset_key, '') AS dataset_key, coalesce(r.metric_key, '') AS metric_key,
     coalesce(r.split, '') AS split, r.kind AS kind, ranked,
     CASE WHEN coalesce(r.unit, '') = '' AND r.number > 1 AND r.kind = 'absolute' THEN '%'
          ELSE coalesce(r.unit, '') END AS scale,
     max(coalesce(r.unit, '')) AS unit,
     collect({dataset: coalesce(d.name, r.dataset, ''), method: coalesce(m.name, r.method, ''), value: r.value,
              number: r.number, unit: r.unit, year: p.year, paper: p.paper_id, title: p.name, metric: r.metric,
              better: r.better, sentence: r.sentence, result: r.key}) AS rows
ORDER BY ranked DESC, size(rows) DESC, dataset_key, metric_key, split, kind, unit
UNWIND range(0, size(rows) - 1) AS i
RETURN s.name AS subject, labels(s)[0] AS type, rows[i].dataset AS dataset, metric_key, split, kind, unit,
       CASE WHEN ranked THEN i + 1 END AS rank, rows[i].method AS method, rows[i].metric AS metric,
       rows[i].value AS value, rows[i].number AS number, rows[i].year AS year, rows[i].paper AS paper,
       rows[i].title AS title, rows[i].better AS better, rows[i].sentence AS sentence, rows[i].result AS result
