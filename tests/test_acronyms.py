"""The acronym component on every definition form the build and eval issues list."""
from __future__ import annotations

import re

import pytest
import spacy
from spacy.tokens import Doc, DocBin

from paperkg.extract.acronym_finder import AcronymFinder
from paperkg.extract.acronym_rules import ACRONYM_FILES, TokenCache, load_lexicon, word_info
from paperkg.extract.acronyms import SPAN_KEY, bio_labels
from paperkg.extract.extensions import AcronymRecord, acronym_record, acronym_records
from paperkg.extract.resources import DATA_DIR, DataFiles

LEXICON = load_lexicon(DataFiles.read(DATA_DIR, ACRONYM_FILES))

# Tokens the way the project's tokenizer gives them: names such as MAGEP-NFN, CIFAR-10,
# Self-REF and Multi-view stay whole; brackets and punctuation are split off.
TOKEN = re.compile(r"\w+(?:[-/.']\w+)*%?|[^\w\s]")


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("paperkg_acronyms")
    nlp.initialize()
    return nlp


def make_doc(nlp, text: str) -> Doc:
    """A Doc with project-style tokens and a sentence break after each full stop."""
    words = TOKEN.findall(text)
    sent_starts = [i == 0 or words[i - 1] == "." for i in range(len(words))]
    return nlp(Doc(nlp.vocab, words=words, sent_starts=sent_starts))


def definitions(doc: Doc) -> dict[str, str]:
    return {short.text: long.text for short, long in doc._.paperkg_acronym_definitions}


def mentions(doc: Doc, kind: str) -> list[str]:
    return [span.text for span in doc.spans[SPAN_KEY] if span._.paperkg_acronym_kind == kind]


# ------------------------------------------------------------------ definitions


def test_short_then_long_in_brackets_mixed_case(nlp):
    doc = make_doc(nlp, "We introduce FLeRM (Function-space Learning Rate Matching), a novel approach. "
                        "FLeRM records function-space learning rates.")
    assert definitions(doc) == {"FLeRM": "Function-space Learning Rate Matching"}
    later = [s for s in doc.spans[SPAN_KEY] if s._.paperkg_acronym_kind == "resolved"]
    assert [s.text for s in later] == ["FLeRM"]
    assert later[0]._.paperkg_long_form.text == "Function-space Learning Rate Matching"


def test_lower_case_long_form_of_mixed_case_short_form(nlp):
    doc = make_doc(nlp, "Recently, federated multi-view clustering (FedMVC) has gained attention.")
    assert definitions(doc) == {"FedMVC": "federated multi-view clustering"}


def test_hyphenated_short_form_whose_last_word_is_a_whole_token(nlp):
    doc = make_doc(nlp, "We propose MAGEP-NFN (Monomial mAtrix Group Equivariant Polynomial NFN).")
    assert definitions(doc) == {"MAGEP-NFN": "Monomial mAtrix Group Equivariant Polynomial NFN"}


def test_hyphenated_short_form_with_an_unlettered_word_inside(nlp):
    doc = make_doc(nlp, "We introduce Temporal Shift module for Spiking Neural Networks (TS-SNN), which "
                        "incorporates a novel Temporal Shift (TS) module.")
    assert definitions(doc) == {
        "TS-SNN": "Temporal Shift module for Spiking Neural Networks",
        "TS": "Temporal Shift",
    }


def test_plural_short_forms_and_their_singular_later(nlp):
    doc = make_doc(nlp, "Large language models (LLMs) are strong. An LLM can still fail, and LLMs forget.")
    assert definitions(doc) == {"LLMs": "Large language models"}
    assert mentions(doc, "resolved") == ["LLM", "LLMs"]


def test_long_form_at_the_start_of_a_sentence_and_later_mentions(nlp):
    doc = make_doc(nlp, "Graph Transformers (GTs) have emerged as a powerful alternative. "
                        "The quadratic complexity of GTs limits scalability.")
    assert definitions(doc) == {"GTs": "Graph Transformers"}
    resolved = [s for s in doc.spans[SPAN_KEY] if s._.paperkg_acronym_kind == "resolved"]
    assert resolved[0]._.paperkg_long_form.start == 0


def test_bracket_followed_by_a_hyphen_suffix(nlp):
    words = ["an", "efficient", "Residual", "Vector", "Quantization", "(", "RVQ", ")", "-", "based",
             "generative", "model"]
    doc = nlp(Doc(nlp.vocab, words=words))
    assert definitions(doc) == {"RVQ": "Residual Vector Quantization"}


def test_semicolon_inside_the_bracket(nlp):
    doc = make_doc(nlp, "It handles low-quality input features (weak features; WFs) that arise from noise.")
    assert definitions(doc) == {"WFs": "weak features"}
    assert doc.spans[SPAN_KEY][0]._.paperkg_acronym_rule == "bracket_long_short"


def test_apposition_defines_and_a_letterless_apposition_resolves(nlp):
    doc = make_doc(nlp, "We propose an Effective and Secure Federated Multi-view Clustering method, ESFMC, "
                        "to alleviate the dilemma.")
    assert definitions(doc) == {"ESFMC": "Effective and Secure Federated Multi-view Clustering"}
    doc = make_doc(nlp, "We introduce the Self-Information Rewrite Attack (SIRA), a paraphrasing attack. "
                        "We present a novel framework, SIRA, which works.")
    assert definitions(doc) == {"SIRA": "Self-Information Rewrite Attack"}
    assert mentions(doc, "resolved") == ["SIRA"]


def test_colon_and_equals_definitions(nlp):
    assert definitions(make_doc(nlp, "HU: Hounsfield Unit.")) == {"HU": "Hounsfield Unit"}
    doc = make_doc(nlp, "Here, DA = direct assessment, RR = relative ranking.")
    assert definitions(doc) == {"DA": "direct assessment", "RR": "relative ranking"}


def test_for_short_and_named_inside_the_bracket(nlp):
    doc = make_doc(nlp, "We use Latin hypercube sampling (LHS, for short) to pick points.")
    assert definitions(doc) == {"LHS": "Latin hypercube sampling"}
    doc = make_doc(nlp, "Messages pass through trusted nodes (named relay parties, RP) before delivery.")
    assert definitions(doc) == {"RP": "relay parties"}


def test_short_form_then_long_form_inside_one_bracket(nlp):
    doc = make_doc(nlp, "We propose a distillation objective (MTRD; Multi-Teacher Ranking Distillation) "
                        "that ranks teachers.")
    assert definitions(doc) == {"MTRD": "Multi-Teacher Ranking Distillation"}
    assert doc.spans[SPAN_KEY][0]._.paperkg_acronym_rule == "bracket_short_long"
    doc = make_doc(nlp, "Soft targets help (KD; Hinton et al., 2015) in practice.")
    assert definitions(doc) == {}


def test_a_digit_stands_for_a_hyphenated_number_word(nlp):
    doc = make_doc(nlp, "The classical two-stage least squares (2SLS) estimator is biased.")
    assert definitions(doc) == {"2SLS": "two-stage least squares"}
    words = ["a", "three", "-", "dimensional", "convolutional", "network", "(", "3DCN", ")"]
    assert definitions(nlp(Doc(nlp.vocab, words=words))) == {"3DCN": "three - dimensional convolutional network"}


def test_which_stands_for_after_the_short_form(nlp):
    doc = make_doc(nlp, "We propose CoLA, which stands for Compositional Low-rank Adaptation.")
    assert definitions(doc) == {"CoLA": "Compositional Low-rank Adaptation"}


def test_camel_case_name_in_a_bracket_after_the_words_it_abbreviates(nlp):
    doc = make_doc(nlp, "Standard algorithms such as Federated Averaging (FedAvg) degrade under heterogeneity. "
                        "FedAvg drifts.")
    assert definitions(doc) == {"FedAvg": "Federated Averaging"}
    assert mentions(doc, "resolved") == ["FedAvg"]
    doc = make_doc(nlp, "Deep nets such as the popular network (ResNet) and ResNet alone are names.")
    assert definitions(doc) == {}
    assert mentions(doc, "undefined") == []


def test_title_cased_long_form_keeps_its_unlettered_last_word(nlp):
    doc = make_doc(nlp, "We propose Spectral Instrumental Variable Regression (SpecIV) for it.")
    assert definitions(doc) == {"SpecIV": "Spectral Instrumental Variable Regression"}
    doc = make_doc(nlp, "We use Markov Chain Monte Carlo Methods (MCMC) to sample.")
    assert definitions(doc) == {"MCMC": "Markov Chain Monte Carlo"}


def test_long_form_does_not_run_too_far_or_stop_too_early(nlp):
    doc = make_doc(nlp, "We use Markov Chain Monte Carlo methods (MCMC) to sample.")
    assert definitions(doc) == {"MCMC": "Markov Chain Monte Carlo"}
    doc = make_doc(nlp, "The scheme uses Shamir secret sharing (SS) for keys.")
    assert definitions(doc) == {"SS": "secret sharing"}
    words = ["the", "generalized", "cell", "-", "to", "-", "cell", "mapping", "(", "GCM", ")", "is", "applied"]
    doc = nlp(Doc(nlp.vocab, words=words))
    assert definitions(doc) == {"GCM": "generalized cell - to - cell mapping"}


def test_reporting_verbs_do_not_open_a_long_form(nlp):
    doc = make_doc(nlp, "We propose a method (PM) for it.")
    assert definitions(doc) == {}
    assert mentions(doc, "undefined") == ["PM"]


def test_bracketed_asides_are_not_definitions(nlp):
    doc = make_doc(nlp, "Accuracy improves (see Table 2) on CIFAR-10 (96.2%) and the results (ICML 2020) hold.")
    assert definitions(doc) == {}
    assert mentions(doc, "undefined") == ["CIFAR-10", "ICML"]


def test_window_does_not_cross_into_another_bracket(nlp):
    doc = make_doc(nlp, "It stacks convolutional layers (CL) and neural nets (CNN).")
    assert definitions(doc) == {"CL": "convolutional layers"}
    assert mentions(doc, "undefined") == ["CNN"]


def test_long_form_written_out_elsewhere_in_the_sentence(nlp):
    words = ["We", "created", "datasets", "for", "each", "kind", "of", "Question", "Answering", "task",
             "and", "study", "the", "QA", "system", "."]
    doc = nlp(Doc(nlp.vocab, words=words))
    assert definitions(doc) == {"QA": "Question Answering"}
    assert doc.spans[SPAN_KEY][0]._.paperkg_acronym_rule == "initials"


def test_short_form_followed_by_a_defining_verb(nlp):
    doc = make_doc(nlp, "Here PV denotes paragraph vector.")
    assert definitions(doc) == {"PV": "paragraph vector"}


# ------------------------------------------------------------ undefined acronyms


def test_undefined_acronyms_with_lower_case_and_digits(nlp):
    doc = make_doc(nlp, "We study fMRI scans and report F1 scores defined by 3GPP, not II or OK.")
    assert mentions(doc, "undefined") == ["fMRI", "F1", "3GPP"]
    assert all(s._.paperkg_long_form is None for s in doc.spans[SPAN_KEY])


def test_camel_case_names_only_when_configured():
    nlp = spacy.blank("en")
    nlp.add_pipe("paperkg_acronyms", config={"camel_case_names": True})
    nlp.initialize()
    doc = nlp(Doc(nlp.vocab, words=["ResNet", "beats", "VGG", "."]))
    assert [s.text for s in doc.spans[SPAN_KEY]] == ["ResNet", "VGG"]
    default = spacy.blank("en")
    default.add_pipe("paperkg_acronyms")
    default.initialize()
    doc = default(Doc(default.vocab, words=["ResNet", "beats", "VGG", "."]))
    assert [s.text for s in doc.spans[SPAN_KEY]] == ["VGG"]


def test_short_forms_split_into_several_tokens(nlp):
    words = ["The", "RASTA", "-", "PLP", "features", "and", "LTE", "-", "U", "bands", "and", "E", "-", "UTRA"]
    doc = nlp(Doc(nlp.vocab, words=words))
    assert [[t.text for t in s] for s in doc.spans[SPAN_KEY]] == [["RASTA", "-", "PLP"], ["LTE", "-", "U"],
                                                                   ["E", "-", "UTRA"]]
    assert bio_labels(doc)[1:4] == ["B-short", "I-short", "I-short"]


def test_compound_tokens_kept_whole_by_the_tokenizer(nlp):
    doc = make_doc(nlp, "Self-REF and Med-LVLMs beat TS-SNN, but T1-weighted images do not.")
    assert mentions(doc, "undefined") == ["Self-REF", "Med-LVLMs", "TS-SNN"]


# ------------------------------------------------------------------ the contract


def test_span_group_extensions_and_bio_labels(nlp):
    doc = make_doc(nlp, "Graph Transformers (GTs) scale badly with CNN features.")
    group = doc.spans[SPAN_KEY]
    assert [(s.text, s.label_, s._.paperkg_acronym_kind) for s in group] == [
        ("GTs", "ACRONYM", "definition"), ("CNN", "ACRONYM", "undefined")]
    assert 0.5 < group[0]._.paperkg_acronym_confidence <= 1.0
    assert group[0]._.paperkg_acronym_rule == "long_bracket_short"
    assert bio_labels(doc) == ["B-long", "I-long", "O", "B-short", "O", "O", "O", "O", "B-short", "O", "O"]


def test_a_long_form_containing_an_acronym_is_labelled_long(nlp):
    doc = make_doc(nlp, "We propose MAGEP-NFN (Monomial mAtrix Group Equivariant Polynomial NFN).")
    nfn = [t.i for t in doc if t.text == "NFN"][0]
    assert [s.text for s in doc.spans[SPAN_KEY]] == ["MAGEP-NFN", "NFN"]
    assert bio_labels(doc)[nfn] == "I-long"


def test_extensions_survive_serialisation(nlp):
    doc = make_doc(nlp, "Large language models (LLMs) are strong. An LLM can fail.")
    restored = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    bin_ = DocBin(store_user_data=True, docs=[doc])
    from_bin = next(DocBin().from_bytes(bin_.to_bytes()).get_docs(nlp.vocab))
    for copy in (restored, from_bin):
        assert [(s.text, s._.paperkg_acronym_kind) for s in copy.spans[SPAN_KEY]] == [
            ("LLMs", "definition"), ("LLM", "resolved")]
        assert copy.spans[SPAN_KEY][1]._.paperkg_long_form.text == "Large language models"
        assert definitions(copy) == {"LLMs": "Large language models"}
        assert acronym_records(copy) == acronym_records(doc)


def test_records_are_typed_and_found_through_the_doc_index(nlp):
    doc = make_doc(nlp, "Large language models (LLMs) are strong. An LLM can fail, and so can GPU code.")
    records = acronym_records(doc)
    assert all(isinstance(r, AcronymRecord) for r in records)
    assert [(r.kind, r.rule) for r in records] == [
        ("definition", "long_bracket_short"), ("resolved", "later_mention"), ("undefined", "shape")]
    assert records[1].long_start == records[0].long_start and records[2].long_start == -1
    for record in records:
        assert acronym_record(doc[record.start:record.end]) == record
    assert acronym_record(doc[0:1]) is None
    doc._.paperkg_acronym_index = None  # a Doc stored before the index existed
    assert acronym_record(doc[records[1].start:records[1].end]) == records[1]


def test_a_doc_without_sentence_boundaries_is_one_sentence(nlp):
    doc = nlp(Doc(nlp.vocab, words=["Neural", "Architecture", "Search", "(", "NAS", ")", "works", "."]))
    assert definitions(doc) == {"NAS": "Neural Architecture Search"}


def test_other_spans_have_no_acronym_fields(nlp):
    doc = make_doc(nlp, "Neural Architecture Search (NAS) works.")
    assert doc[0:2]._.paperkg_long_form is None and doc[0:2]._.paperkg_acronym_kind is None


def test_a_spelled_out_long_form_does_not_redefine_a_defined_short_form(nlp):
    doc = make_doc(nlp, "Partial differential equations (PDEs) are hard. "
                        "We solve PDEs where partial differential equations are stiff.")
    assert [(s.text, s._.paperkg_acronym_kind) for s in doc.spans[SPAN_KEY]] == [("PDEs", "definition"),
                                                                                  ("PDEs", "resolved")]


# ------------------------------------------------------------- the plain-text rules


def test_a_sentence_without_a_short_form_or_bracket_is_skipped_empty():
    found = AcronymFinder(LEXICON).find("The model , trained on text , generalises well .".split())
    assert found.mentions == [] and found.definitions == []


def test_a_sentence_whose_only_candidate_is_a_bracket_is_not_skipped():
    found = AcronymFinder(LEXICON).find("we use Gradient Boosting ( Gb ) here".split())
    assert [(d.short_start, d.long_start, d.long_end) for d in found.definitions] == [(5, 2, 4)]


@pytest.mark.parametrize("text, initials, letters", [
    ("model", (0,), "m"),
    ("mAtrix", (0, 1), "ma"),
    ("Function-space", (0, 9), "fs"),
    ("3GPP", (0, 1, 2, 3), "3gpp"),
    ("--", (), ""),
])
def test_word_info_lists_word_starts_and_their_letters(text, initials, letters):
    info = word_info(text, LEXICON)
    assert (info.initials, info.initial_letters) == (initials, letters)


def test_token_cache_analyses_each_text_once():
    cache = TokenCache(LEXICON)
    first = cache.features(["LLMs", "help", "LLMs"])
    assert first[0] is first[2] and first[0].shaped and not first[1].shaped
    assert cache.features(["LLMs"])[0] is first[0]
