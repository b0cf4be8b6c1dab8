"""The shipped model is the one docs/quality.md describes: its weights' checksum, version and provenance."""
from __future__ import annotations

import json
import re

from cli_helpers import ROOT

from paperkg.extract.pipeline import DEFAULT_MODEL
from paperkg.extract.training.provenance import weights_checksum

META = json.loads((DEFAULT_MODEL / "meta.json").read_text(encoding="utf8"))


def test_weights_match_the_checksum_the_docs_state():
    stated = re.search(r"weights SHA-256\s+`([0-9a-f]{64})`", (ROOT / "docs" / "quality.md").read_text(encoding="utf8"))
    assert stated, "docs/quality.md states no model checksum"
    assert weights_checksum(DEFAULT_MODEL) == stated.group(1) == META["paperkg_weights_sha256"]


def test_meta_names_version_seed_sources_and_dev_figures():
    assert META["name"] == "paperkg_entities" and META["version"] != "0.0.0"
    assert isinstance(META["seed"], int)
    assert {source["name"].split()[0] for source in META["sources"]} >= {"SciERC", "TDMSci", "SciER"}
    assert all(source.get("license") for source in META["sources"])
    assert META["performance"]["types_tdmsci_f_dev"] > 0.5 and META["performance"]["types_scier_f_dev"] > 0.6
    assert META["performance"]["rel_scier_e2e_f_dev"] > 0.3 and META["performance"]["rel_scier_gold_f_dev"] > 0.5


def test_model_is_under_25_mb_and_holds_the_types_term_and_relation_heads():
    size = sum(path.stat().st_size for path in DEFAULT_MODEL.rglob("*") if path.is_file())
    assert size < 25_000_000
    assert set(META["pipeline"]) == {"tok2vec", "types_ner", "ner", "relation_model"}
