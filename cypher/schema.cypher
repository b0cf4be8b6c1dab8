// paperkg's schema, applied before every push (each statement is IF NOT EXISTS).
// One uniqueness constraint per label on `key` (MERGE looks nodes up through it),
// lookup indexes on name and acronym, and one full-text index over names, aliases and long
// forms for the `search` query. Runs unchanged in Neo4j Browser (multi-statement mode).

CREATE CONSTRAINT paper_key IF NOT EXISTS FOR (n:Paper) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT method_key IF NOT EXISTS FOR (n:Method) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT task_key IF NOT EXISTS FOR (n:Task) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT dataset_key IF NOT EXISTS FOR (n:Dataset) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT metric_key IF NOT EXISTS FOR (n:Metric) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT result_key IF NOT EXISTS FOR (n:Result) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT paperkg_push_seq IF NOT EXISTS FOR (n:PaperkgPush) REQUIRE n.seq IS UNIQUE;

CREATE INDEX paper_paper_id IF NOT EXISTS FOR (n:Paper) ON (n.paper_id);
CREATE INDEX method_name IF NOT EXISTS FOR (n:Method) ON (n.name);
CREATE INDEX task_name IF NOT EXISTS FOR (n:Task) ON (n.name);
CREATE INDEX dataset_name IF NOT EXISTS FOR (n:Dataset) ON (n.name);
CREATE INDEX metric_name IF NOT EXISTS FOR (n:Metric) ON (n.name);
CREATE INDEX method_acronym IF NOT EXISTS FOR (n:Method) ON (n.acronym);
CREATE INDEX task_acronym IF NOT EXISTS FOR (n:Task) ON (n.acronym);
CREATE INDEX dataset_acronym IF NOT EXISTS FOR (n:Dataset) ON (n.acronym);
CREATE INDEX metric_acronym IF NOT EXISTS FOR (n:Metric) ON (n.acronym);
CREATE INDEX result_metric_key IF NOT EXISTS FOR (n:Result) ON (n.metric_key);

CREATE FULLTEXT INDEX paperkg_names IF NOT EXISTS
FOR (n:%NODE_LABELS%) ON EACH [n.name, n.aliases, n.long_form];

// Trend properties set on push (first year seen; the strongest burst), for `entered_in` and browsing.
CREATE INDEX method_first_year IF NOT EXISTS FOR (n:Method) ON (n.first_year);
CREATE INDEX task_first_year IF NOT EXISTS FOR (n:Task) ON (n.first_year);
CREATE INDEX dataset_first_year IF NOT EXISTS FOR (n:Dataset) ON (n.first_year);
CREATE INDEX metric_first_year IF NOT EXISTS FOR (n:Metric) ON (n.first_year);
