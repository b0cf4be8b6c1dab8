// A glossary of the corpus: every acronym, what it stands for, and in how many papers.
// :param limit => 200   -- at most this many acronyms
MATCH (e:%ENTITY_LABELS%) WHERE e.acronym IS NOT NULL
OPTIONAL MATCH (p:Paper)-->(e)
RETURN e.acronym AS acronym, coalesce(e.long_form, e.name) AS stands_for, labels(e)[0] AS label,
       count(DISTINCT p) AS papers
ORDER BY toLower(acronym), stands_for
LIMIT $limit
