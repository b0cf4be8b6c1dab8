// What an acronym stands for, and every paper that uses it.
// Matches entities whose acronym (or one of whose aliases) is the acronym, in any case;
// two long forms give two rows, one per entity.
// :param acronym => "FLeRM"   -- the acronym
MATCH (e:%ENTITY_LABELS%)
WHERE toLower(e.acronym) = toLower($acronym) OR toLower($acronym) IN [a IN coalesce(e.aliases, []) | toLower(a)]
OPTIONAL MATCH (p:Paper)-->(e)
WITH e, p ORDER BY p.paper_id
RETURN coalesce(e.acronym, $acronym) AS acronym, coalesce(e.long_form, e.name) AS stands_for,
       labels(e)[0] AS label, e.key AS key, count(p) AS papers,
       collect(p.paper_id) AS paper_ids, collect(p.name) AS titles
ORDER BY papers DESC, key
