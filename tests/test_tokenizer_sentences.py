"""Unit tests: the scientific tokenizer and the abstract sentencizer."""
from __future__ import annotations

import pytest

from paperkg.api import load_pipeline


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline(rules_only=True)


@pytest.mark.parametrize("name", ["MAGEP-NFN", "Self-REF", "CIFAR-10", "FlashAttention-3", "Med-LVLMs", "TS-SNN",
                                  "Score-Fusion", "Meta-World", "multi-view", "state-of-the-art", "ResNet-50",
                                  "OpenGrasp-1M", "Gemma-2-2B", "Pythia-410M", "RealEstate10K"])
def test_names_stay_whole(nlp, name):
    doc = nlp(f"We evaluate {name} today.")
    assert name in [t.text for t in doc]


@pytest.mark.parametrize("text, tokens", [
    ("an efficient (RVQ)-based model", ["an", "efficient", "(", "RVQ", ")", "-", "based", "model"]),
    ("weak features; WFs", ["weak", "features", ";", "WFs"]),
    ("SE(3) equivariant", ["SE", "(", "3", ")", "equivariant"]),
    ("CIFAR-10 (96.72%), CIFAR-100", ["CIFAR-10", "(", "96.72", "%", ")", ",", "CIFAR-100"]),
])
def test_brackets_and_punctuation_split(nlp, text, tokens):
    assert [t.text for t in nlp(text)] == tokens


def test_sentences_survive_abbreviations(nlp):
    doc = nlp("Tricks, e.g. dropout, help (Smith et al. 2020). They work, i.e., mostly. See Fig. 3 for more. "
              "Data etc. Next sentence here. 3 runs suffice.")
    assert [s.text for s in doc.sents] == [
        "Tricks, e.g. dropout, help (Smith et al. 2020).",
        "They work, i.e., mostly.",
        "See Fig. 3 for more.",
        "Data etc.",
        "Next sentence here.",
        "3 runs suffice.",
    ]


def test_full_stop_after_a_name_ending_in_a_capital_ends_the_sentence(nlp):
    doc = nlp("We scale Pythia-410M. It beats SOTA. The U.S. team agrees.")
    assert [s.text for s in doc.sents] == ["We scale Pythia-410M.", "It beats SOTA.", "The U.S. team agrees."]


def test_decimal_and_lowercase_continuation_do_not_split(nlp):
    doc = nlp("Accuracy rose to 96.7 percent. on average it holds.")
    assert len(list(doc.sents)) == 1
