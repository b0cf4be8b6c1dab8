"""The extraction pipeline: assembled from extract/pipeline.cfg (component order and every threshold),
the trained components in extract/model/ and the rule components' data files in extract/data/,
or loaded from a pipeline directory saved with `nlp.to_disk`.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.util import load_config

# Importing the modules registers the factories and the tokenizer (installed packages also
# register them through the spacy_factories / spacy_tokenizers entry points).
from . import (acronyms, candidates, entities, lexicon, relation_model, relations, sentences, span_ner,  # noqa: F401
               terms, tokenizer)
from .limits import DEFAULT_MODEL, MAX_TEXT_CHARS
from .resources import DATA_DIR

PACKAGE_DIR = Path(__file__).parent
PIPELINE_CONFIG = PACKAGE_DIR / "pipeline.cfg"
MODEL_COMPONENTS = ("tok2vec", "ner", "types_ner", "relation_model")
TERM_LAYER = ("ner", "paperkg_terms")  # SciERC's six labels in doc.ents: shipped, disabled by default


def assemble(model: Path | None = DEFAULT_MODEL, data_dir: Path = DATA_DIR) -> Language:
    """Build the pipeline from its config: trained components sourced from `model` (None: the
    rules-only pipeline), rule components initialised from the files in `data_dir`."""
    config = load_config(PIPELINE_CONFIG, overrides={"paths.model": str(model) if model else None,
                                                     "paths.data": str(data_dir)}, interpolate=False)
    trained = set() if model is None else set(load_config(Path(model) / "config.cfg")["nlp"]["pipeline"])
    exclude = [name for name in MODEL_COMPONENTS if name not in trained]
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, exclude=exclude)
    nlp._link_components()
    disabled = list(nlp.disabled)
    for name in disabled:  # the config's disabled components are initialised too, to save and enable later
        nlp.enable_pipe(name)
    with nlp.select_pipes(disable=[name for name in MODEL_COMPONENTS if name in nlp.pipe_names]):
        nlp.initialize()
    for name in disabled:
        nlp.disable_pipe(name)
    return nlp


@contextmanager
def term_layer(nlp: Language) -> Iterator[Language]:
    """The pipeline with the SciERC term layer (doc.ents) enabled where it has it, disabled again
    afterwards: the pipeline may be the cached one every other caller shares."""
    enabled = [name for name in TERM_LAYER if name in nlp.disabled]
    for name in enabled:
        nlp.enable_pipe(name)
    try:
        yield nlp
    finally:
        for name in enabled:
            nlp.disable_pipe(name)


def is_saved_pipeline(path: Path) -> bool:
    """A directory written by `nlp.to_disk` of a paperkg pipeline (not just a trained model)."""
    config = path / "config.cfg"
    return config.is_file() and "paperkg_entities" in load_config(config, interpolate=False)["nlp"]["pipeline"]


def load_pipeline(path: Path | None = None, *, rules_only: bool = False) -> Language:
    """The extraction pipeline: assembled from the package (path None), from a trained model
    directory, or loaded from a saved paperkg pipeline; `rules_only` leaves the model out."""
    if path is not None and is_saved_pipeline(path):
        nlp = spacy.load(path, exclude=list(MODEL_COMPONENTS) if rules_only else [])
    else:
        nlp = assemble(None if rules_only else (path or DEFAULT_MODEL))
    nlp.max_length = MAX_TEXT_CHARS
    return nlp
