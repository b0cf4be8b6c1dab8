"""The CSV files of `push --bulk-import` (no server): typed headers, one type per column, values CSV cannot
carry exactly left to Cypher with every relationship touching them, an empty list no property (as in a push),
paper digests in the files unless Cypher writes some of the paper's rows; the same files from one writer or
several."""
from __future__ import annotations

import csv

import pytest
from graph_fixtures import sample_records
from neo4j_fixtures import replicate

from paperkg.cypher.bulk_import import ARRAY_DELIMITER, write_import_files
from paperkg.cypher.rows import graph_rows, paper_digests


@pytest.mark.parametrize("writers", [1, 3])
def test_import_files_type_every_column_and_leave_what_csv_cannot_carry_to_cypher(tmp_path, writers):
    graph = replicate(sample_records(), 2)
    papers = [node for node, data in graph.nodes(data=True) if data["label"] == "Paper"]
    graph.nodes[papers[0]].update(title="two\nlines")
    graph.nodes[papers[1]].update(authors=[], open_access=True, venue='say "hi"; bye')
    graph.nodes[papers[2]].update(authors=["A. Author"])
    files = write_import_files(graph, tmp_path, push=7, writers=writers)

    assert [row["key"] for row in files.leftover.nodes["Paper"]] == [papers[0]]
    assert {row["source"] for group in files.leftover.rels.values() for row in group} == {papers[0]}
    assert sum(map(len, files.leftover.rels.values())) == graph.out_degree(papers[0])
    assert sum(files.nodes.values()) == graph.number_of_nodes() and sum(files.rels.values()) == graph.number_of_edges()
    digests = dict(paper_digests(graph).values())
    assert files.digests == {papers[0]: digests[papers[0]]}
    hashes = {row["key"]: row["hash"] for row in graph_rows(graph).nodes["Paper"]}

    written = {}
    for argument in files.arguments:
        kind, name_path = argument[2:].split("=", 1)
        _, path = name_path.split("=", 1)
        with open(path, encoding="utf8", newline="") as handle:
            header, *lines = list(csv.reader(handle))
        assert all(":" in column for column in header), header
        assert all(len(line) == len(header) for line in lines)
        for line in lines:
            written[line[header.index("key:ID(Paper)")] if "key:ID(Paper)" in header else (kind, path, line[0])] = \
                dict(zip(header, line))
    second = written[papers[1]]
    assert second["open_access:boolean"] == "true" and second["venue:string"] == 'say "hi"; bye'
    assert second["paperkg_hash:string"] == hashes[papers[1]] and "authors:string[]" not in second
    assert second["paperkg_digest:string"] == digests[papers[1]]
    assert second["first_push:long"] == second["last_push:long"] == "7"
    assert "authors" not in second["paperkg_keys:string[]"].split(ARRAY_DELIMITER)
    assert papers[0] not in written
    third = written[papers[2]]
    assert third["paperkg_digest:string"] == digests[papers[2]] and third["paperkg_hash:string"] == hashes[papers[2]]
    assert third["authors:string[]"] == "A. Author"
