// Entities by community: each community (from paperkg build) with its size and central members.
// :param community => null   -- one community number (null = every community)
// :param members => 8   -- members listed per community, by PageRank
// :param limit => 20   -- how many communities
MATCH (n:%ENTITY_LABELS%)
WHERE n.community IS NOT NULL AND ($community IS NULL OR n.community = $community)
WITH n ORDER BY n.pagerank DESC, n.name
WITH n.community AS community, count(n) AS size,
     collect(labels(n)[0] + ': ' + n.name) AS ranked
RETURN community, size, ranked[..$members] AS members
ORDER BY size DESC, community
LIMIT $limit
