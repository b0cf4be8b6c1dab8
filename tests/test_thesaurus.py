"""Thesaurus files users write by hand: a file in another encoding is one sentence naming it."""
from __future__ import annotations

from pathlib import Path

import pytest

from paperkg.core.errors import PaperkgError
from paperkg.graph.thesaurus import read_thesaurus


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_thesaurus_in_another_encoding_names_the_file(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "thésaurus.tsv"
    path.write_bytes("label\treplace by\nréseaux de neurones\tneural network\n".encode(encoding))
    message = rf"^{path}: the thesaurus is not UTF-8 text \(byte \d+\); save it as UTF-8\.$"
    with pytest.raises(PaperkgError, match=message):
        read_thesaurus(path)


def test_utf8_thesaurus_with_accents_reads(tmp_path: Path) -> None:
    path = tmp_path / "thesaurus.tsv"
    path.write_text("label\treplace by\nréseau de neurones\tneural network\n", encoding="utf8")
    assert list(read_thesaurus(path).values()) == ["neural network"]
