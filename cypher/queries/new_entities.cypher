// New entities since the last push: what the latest `paperkg push` added.
// Every node keeps `first_push`, the number of the (:PaperkgPush) that created it. By default
// the query lists nodes newer than the completed push before the latest completed one.
// :param since => null   -- a push number to compare against instead (null: the push before the latest)
MATCH (push:PaperkgPush) WHERE push.completed_at IS NOT NULL
WITH push ORDER BY push.seq DESC
WITH collect(push.seq) AS completed
WITH coalesce($since, CASE WHEN size(completed) > 1 THEN completed[1] ELSE 0 END) AS since
MATCH (n:%NODE_LABELS%)
WHERE n.first_push > since
RETURN labels(n)[0] AS label, n.name AS name, n.key AS key, n.first_push AS first_push, since
ORDER BY label, name
