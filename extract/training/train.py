"""`spacy train` runs of the recipe and the assembly of the shipped model from them.

Dev data picks the best step only.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import spacy
from thinc.api import Config

CONFIGS = Path(__file__).parent / "configs"


def spacy_train(config: Path, corpus: Path, run: Path, overrides: dict[str, Any] | None = None,
                max_steps: int = 0) -> Path:
    """Train `config` on corpus/train (best step by corpus/dev) into `run`; returns run/model-best.
    max_steps > 0 caps the run (and evaluates at least at its end) for a quick smoke run."""
    from spacy.cli.train import train

    settings: dict[str, Any] = {"paths.train": str(corpus / "train"), "paths.dev": str(corpus / "dev"),
                                **(overrides or {})}
    if max_steps:
        every = Config().from_disk(config, interpolate=False)["training"]["eval_frequency"]
        settings.update({"training.max_steps": max_steps, "training.eval_frequency": min(every, max_steps)})
    train(config, run, overrides=settings)
    return run / "model-best"


def assemble(types_model: Path, terms_model: Path, relations_model: Path, out: Path) -> None:
    """The shipped model: the types pipeline (tok2vec, types_ner) plus the SciERC model's `ner` as the
    term layer, given its own copy of the SciERC tok2vec so it does not listen to the types tok2vec, and
    the relation model (it reads the types tok2vec's doc.tensor). Paths in the saved config are nulled:
    no training-machine paths ship."""
    nlp = spacy.load(types_model)
    terms = spacy.load(terms_model)
    terms.replace_listeners("tok2vec", "ner", ["model.tok2vec"])
    nlp.add_pipe("ner", source=terms)
    nlp.add_pipe("relation_model", source=spacy.load(relations_model))
    nlp.to_disk(out)
    config = Config().from_disk(out / "config.cfg", interpolate=False)
    config["paths"].update({key: None for key in config["paths"]})
    config.to_disk(out / "config.cfg")
