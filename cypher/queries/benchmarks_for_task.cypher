// Data sets that measure a task: stated as a benchmark for it (BENCHMARK_FOR), or used to evaluate
// a method that is used for it (EVALUATED_ON). `papers` counts the papers behind the strongest
// link; `via` says which links, `sentence` is one sentence behind them.
// :param task => "image quality assessment"   -- the task, by name, acronym or alias
MATCH (t:Task)
WHERE toLower($task) IN [x IN [t.name, t.acronym, t.long_form] + coalesce(t.aliases, []) | toLower(x)]
CALL (t) {
  MATCH (d:Dataset)-[r:BENCHMARK_FOR]->(t)
  RETURN d, 'benchmark for the task' AS via, r.papers AS papers, r.evidence_sentences[0] AS sentence
  UNION
  MATCH (m:Method)-[:USED_FOR]->(t), (m)-[r:EVALUATED_ON]->(d:Dataset)
  RETURN d, 'evaluates ' + m.name AS via, r.papers AS papers, r.evidence_sentences[0] AS sentence
}
WITH t, d, via, papers, sentence ORDER BY papers DESC, via
RETURN t.name AS task, d.name AS dataset, max(papers) AS papers, collect(via) AS via,
       head(collect(sentence)) AS sentence
ORDER BY papers DESC, dataset
