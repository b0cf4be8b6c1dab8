// Search names, aliases and long forms with the full-text index (Lucene syntax: words, "phrases", prefix*).
// :param text => "learning rate"   -- what to look for
// :param limit => 20   -- how many hits
CALL db.index.fulltext.queryNodes('paperkg_names', $text) YIELD node, score
RETURN labels(node)[0] AS label, node.name AS name, node.acronym AS acronym, node.key AS key, score
ORDER BY score DESC, key
LIMIT $limit
