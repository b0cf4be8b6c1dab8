// Methods that share datasets: pairs of methods evaluated on the same datasets.
// A method is evaluated on a dataset when it is EVALUATED_ON it, or its proposing paper
// EVALUATES_ON it.
// :param limit => 25   -- how many pairs
// :param min_confidence => 0.8   -- typed relations at least this sure (paperkg query: the min_confidence setting)
CALL () {
  MATCH (m:Method)-[r:EVALUATED_ON]->(d:Dataset)
  WHERE r.confidence >= $min_confidence
  RETURN m, d
  UNION
  MATCH (m:Method)<-[:PROPOSES]-(:Paper)-[:EVALUATES_ON]->(d:Dataset)
  RETURN m, d
}
WITH d, collect(DISTINCT m) AS methods
UNWIND methods AS a
UNWIND methods AS b
WITH a, b, d WHERE a.key < b.key
WITH a, b, d ORDER BY d.name
RETURN a.name AS method, b.name AS other_method, count(d) AS shared, collect(d.name) AS datasets
ORDER BY shared DESC, method, other_method
LIMIT $limit
