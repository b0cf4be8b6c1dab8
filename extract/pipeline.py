"""The extraction pipeline: assembled from extract/pipeline.cfg (component order and span-group wiring),
the trained components in extract/model/ and the rule components' data files in extract/data/,
or loaded from a pipeline directory saved with `nlp.to_disk`.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import spacy
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.util import load_config
from thinc.api import Config

# Importing the modules registers the factories and the tokenizer (installed packages also
# register them through the spacy_factories / spacy_tokenizers entry points).
from . import (acronyms, candidates, entities, lexicon, relation_model, relations, results, sentences,  # noqa: F401
               span_ner, terms, tokenizer)
from .blas import use_numpy_blas
from .limits import DEFAULT_MODEL, MAX_TEXT_CHARS
from .resources import DATA_DIR

PACKAGE_DIR = Path(__file__).parent
PIPELINE_CONFIG = PACKAGE_DIR / "pipeline.cfg"
MODEL_COMPONENTS = ("tok2vec", "ner", "types_ner", "relation_model")
TERM_LAYER = ("ner", "paperkg_terms")  # SciERC's six labels in doc.ents: shipped, disabled by default


def assemble(model: Path | None = DEFAULT_MODEL, data_dir: Path = DATA_DIR) -> Language:
    """Build the pipeline from its config: trained components from `model` (None: the rules-only
    pipeline), rule components initialised from the files in `data_dir`."""
    config = load_config(PIPELINE_CONFIG, overrides={"paths.model": str(model) if model else None,
                                                     "paths.data": str(data_dir)}, interpolate=False)
    trained = trained_blocks(model)
    for name, block in trained.items():
        config["components"][name] = block.merge({k: v for k, v in config["components"][name].items() if k != "source"})
    exclude = [name for name in MODEL_COMPONENTS if name not in trained]
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, exclude=exclude)
    if model is not None:
        load_weights(nlp, Path(model), list(trained))
    disabled = list(nlp.disabled)
    for name in disabled:  # the config's disabled components are initialised too, to save and enable later
        nlp.enable_pipe(name)
    with nlp.select_pipes(disable=[name for name in MODEL_COMPONENTS if name in nlp.pipe_names]):
        nlp.initialize()
    for name in disabled:
        nlp.disable_pipe(name)
    return nlp


def trained_blocks(model: Path | None) -> dict[str, Config]:
    """The config blocks (factory, architecture, settings) of the pipeline's trained components in `model`."""
    if model is None:
        return {}
    components = load_config(Path(model) / "config.cfg")["components"]
    return {name: Config(components[name]) for name in MODEL_COMPONENTS if name in components}


def load_weights(nlp: Language, model: Path, names: list[str]) -> None:
    """Load the trained components' weights and the model's strings, as spacy.load does for its own
    pipeline; the listeners are linked already (add_pipe links them as components are added)."""
    nlp.vocab.strings.from_disk(model / "vocab" / "strings.json")
    for name in names:
        cast(TrainablePipe, nlp.get_pipe(name)).from_disk(model / name, exclude=["vocab"])  # get_pipe: any callable


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
    use_numpy_blas(nlp)
    return nlp
