"""The extraction pipeline: one spaCy Language built from registered components and their data."""
from __future__ import annotations

from pathlib import Path

import spacy
from spacy.language import Language

# Importing the modules registers their factories and the tokenizer with spaCy.
from . import acronyms, candidates, entities, lexicon, relations, sentences, terms, tokenizer  # noqa: F401
from .resources import DATA_DIR

DEFAULT_MODEL = DATA_DIR.parent / "model" / "scierc_ner"
TOKENIZER_CONFIG = {"nlp": {"tokenizer": {"@tokenizers": "paperkg.scientific_tokenizer.v1"}}}
RULE_COMPONENTS_AFTER_MODEL = ["paperkg_lexicon", "paperkg_candidates", "paperkg_terms", "paperkg_entities",
                               "paperkg_relations"]


def build_pipeline(model: Path | str | None = DEFAULT_MODEL) -> Language:
    """Tokenizer, sentences, acronyms, the statistical NER (if `model` exists), then the rule layers.

    `model` is a spaCy pipeline directory whose tok2vec/ner components are sourced; None (or a
    missing directory) gives the rules-only pipeline.
    """
    nlp = spacy.blank("en", config=TOKENIZER_CONFIG)
    nlp.add_pipe("paperkg_sentences")
    nlp.add_pipe("paperkg_acronyms")
    if model is not None and Path(model).is_dir():
        add_model_components(nlp, Path(model))
    for name in RULE_COMPONENTS_AFTER_MODEL:
        nlp.add_pipe(name)
    return nlp


def add_model_components(nlp: Language, model_dir: Path) -> None:
    """Source the trained components (tok2vec, ner) of a spaCy pipeline into `nlp`."""
    trained = spacy.load(model_dir, exclude=["senter", "parser", "tagger"])
    for name in trained.pipe_names:
        nlp.add_pipe(name, source=trained)
