// Data sets that measure a task: stated as a benchmark for it (BENCHMARK_FOR), or used to evaluate
// a method that is used for it (EVALUATED_ON). `papers` counts the papers behind the strongest
// link; `via` says which links, `sentence` is one sentence behind them.
// :param task => "image quality assessment"   -- the task, by name, acronym or alias
// :param min_confidence => 0.8   -- typed relations at least this sure (paperkg query: the min_confidence setting)
MATCH (t:Task)
WHERE toLower($task) IN [x IN [t.name, t.acronym, t.long_form] + coalesce(t.aliases, []) | toLower(x)]
CALL (t) {
  MATCH (d:Dataset)-[r:BENCHMARK_FOR]->(t)
  WHERE r.confidence >= $min_confidence
  RETURN d, 'benchmark for the task' AS via, r.papers AS papers, r.evidence_sentences[0] AS sentence
  UNION
  MATCH (m:Method)-[u:USED_FOR]->(t), (m)-[r:EVALUATED_ON]->(d:Dataset)
  WHERE u.confidence >= $min_confidence AND r.confidence >= $min_confidence
  RETURN d, 'evaluates ' + m.name AS via, r.papers AS papers, r.evidence_sentences[0] AS sentence
}
WITH t, d, via, papers, sentence ORDER BY papers DESC, via
RETURN t.name AS task, d.name AS dataset, max(papers) AS papers, collect(via) AS via,
       head(collect(sentence)) AS sentence
ORDER BY papers DESC, dataset
