// Datasets used for a task.
// Through methods (USED_FOR the task and EVALUATED_ON a dataset) and through papers
// (that ADDRESS the task and EVALUATE_ON a dataset); `via` names the methods and papers.
// :param task => "multi-modal clustering"   -- the task, by name, acronym or alias
// :param min_confidence => 0.8   -- typed relations at least this sure (paperkg query: the min_confidence setting)
MATCH (t:Task)
WHERE toLower($task) IN [x IN [t.name, t.acronym, t.long_form] + coalesce(t.aliases, []) | toLower(x)]
CALL (t) {
  MATCH (m:Method)-[u:USED_FOR]->(t), (m)-[r:EVALUATED_ON]->(d:Dataset)
  WHERE u.confidence >= $min_confidence AND r.confidence >= $min_confidence
  RETURN d, 'method: ' + m.name AS via
  UNION
  MATCH (p:Paper)-[:ADDRESSES]->(t), (p)-[:EVALUATES_ON]->(d:Dataset)
  RETURN d, 'paper: ' + p.paper_id AS via
}
RETURN t.name AS task, d.name AS dataset, count(DISTINCT via) AS support, collect(DISTINCT via) AS via
ORDER BY support DESC, dataset
