"""Acronym definitions outside computer science, through the real tokenizer and rules: adjacent
and nested brackets, slash-joined definitions, Greek letters and digits inside names,
subscripted and lower-case-first short forms, ion concentrations, one-word chemical names."""
from __future__ import annotations

import pytest

from paperkg.api import load_pipeline


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline(rules_only=True)


def definitions(nlp, text: str) -> dict[str, str]:
    doc = nlp(text)
    return {short.text: long.text for short, long in doc._.paperkg_acronym_definitions}


@pytest.mark.parametrize("text, short, long", [
    ("Patients had intravenous urography (IVU)(n = 24) before surgery.", "IVU", "intravenous urography"),
    ("We measured bone mineral density (BMD)[12] in all women.", "BMD", "bone mineral density"),
    ("Serum alkaline phosphatase (ALP)(normal < 120 U/L) was raised.", "ALP", "alkaline phosphatase"),
])
def test_a_bracket_right_after_the_definition_bracket(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


@pytest.mark.parametrize("text, pairs", [
    ("The ratio of forced expiratory volume in 1 s (FEV1)/forced vital capacity (FVC) fell.",
     {"FEV1": "forced expiratory volume in 1 s", "FVC": "forced vital capacity"}),
    ("We report the systolic blood pressure (SBP)/diastolic blood pressure (DBP) ratio.",
     {"SBP": "systolic blood pressure", "DBP": "diastolic blood pressure"}),
    ("Rates of false positives (FP)/true positives (TP) were compared.",
     {"FP": "false positives", "TP": "true positives"}),
])
def test_slash_joined_definitions_do_not_cross_the_previous_short_form(nlp, text, pairs):
    found = definitions(nlp, text)
    for short, long in pairs.items():
        assert found[short] == long


@pytest.mark.parametrize("text, short, long", [
    ("Levels of interleukin-1beta (IL-1beta) rose.", "IL-1beta", "interleukin-1beta"),
    ("Levels of transforming growth factor-beta1 (TGF-beta1) rose.", "TGF-beta1", "transforming growth factor-beta1"),
    ("Levels of tumour necrosis factor-alpha (TNF-alpha) rose.", "TNF-alpha", "tumour necrosis factor-alpha"),
    ("Levels of interferon-γ (IFN-γ) rose.", "IFN-γ", "interferon-γ"),
    ("Levels of hypoxia-inducible factor-1α (HIF-1α) rose.", "HIF-1α", "hypoxia-inducible factor-1α"),
    ("Serum tumor necrosis factor alpha (TNF-α) rose.", "TNF-α", "tumor necrosis factor alpha"),
    ("Serum interleukin 1 beta (IL-1β) rose.", "IL-1β", "interleukin 1 beta"),
    ("Activation of nuclear factor-kappaB (NF-kappaB) was seen.", "NF-kappaB", "nuclear factor-kappaB"),
    ("Activation of nuclear factor kappa B (NF-κB) was seen.", "NF-κB", "nuclear factor kappa B"),
    ("The peroxisome proliferator-activated receptor gamma2 (PPAR-gamma2) was expressed.",
     "PPAR-gamma2", "peroxisome proliferator-activated receptor gamma2"),
])
def test_greek_letters_and_digits_inside_gene_and_protein_names(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


def test_a_greek_letter_name_standing_alone_stays_a_word(nlp):
    assert definitions(nlp, "We measured alpha power (AP) over the cortex.")["AP"] == "alpha power"


@pytest.mark.parametrize("text, short, long", [
    ("We measured intracellular pH (pHi) in myocytes.", "pHi", "intracellular pH"),
    ("We measured extracellular pH (pHe) in tumours.", "pHe", "extracellular pH"),
    ("We measured the intracellular calcium concentration ([Ca2+]i) in myocytes.", "[Ca2+]i",
     "intracellular calcium concentration"),
    ("Raising the extracellular potassium ([K+]o) depolarised the cells.", "[K+]o", "extracellular potassium"),
    ("The cytosolic free calcium ([Ca2+]i) rose.", "[Ca2+]i", "cytosolic free calcium"),
])
def test_subscripted_names_and_ion_concentrations(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


def test_a_subscript_letter_with_no_word_to_stand_for_is_no_definition(nlp):
    assert "[Ca2+]i" not in definitions(nlp, "The plasma calcium ([Ca2+]i) rose.")
    assert "pHi" not in definitions(nlp, "We recorded the pH (pHi) twice.")


@pytest.mark.parametrize("text, short, long", [
    ("We used small interfering RNA (siRNA) against the receptor.", "siRNA", "small interfering RNA"),
    ("The estimated glomerular filtration rate (eGFR) declined.", "eGFR", "estimated glomerular filtration rate"),
    ("Cells made cyclic adenosine monophosphate (cAMP) on stimulation.", "cAMP", "cyclic adenosine monophosphate"),
    ("We analysed messenger RNA (mRNA) levels.", "mRNA", "messenger RNA"),
])
def test_lower_case_first_short_forms(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


@pytest.mark.parametrize("text, short, long", [
    ("Reduced glutathione (GSH) levels fell.", "GSH", "Reduced glutathione"),
    ("Hepatic glutathione (GSH) levels fell.", "GSH", "glutathione"),
    ("Cells were treated with lipopolysaccharide (LPS) for 2 h.", "LPS", "lipopolysaccharide"),
    ("Brain 5-hydroxytryptamine (5-HT) was measured.", "5-HT", "5-hydroxytryptamine"),
    ("We recorded the electroencephalogram (EEG) at rest.", "EEG", "electroencephalogram"),
])
def test_one_word_and_chemical_long_forms(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


@pytest.mark.parametrize("text", [
    "We compare our baseline (BLEU) scores.",
    "The machine (MLP) was trained.",
    "We followed the procedure (PRT) twice.",
])
def test_a_one_word_long_form_needs_its_letters(nlp, text):
    assert not definitions(nlp, text)


def test_an_adjective_before_an_elliptic_short_form_is_no_chemical_name(nlp):
    found = definitions(nlp, "We test on both Multivariate (MTS) and Univariate Time Series (UTS).")
    assert "MTS" not in found and found["UTS"] == "Univariate Time Series"


@pytest.mark.parametrize("text, short, long", [
    ("Imaging (e.g., intravenous urography (IVU)) was done.", "IVU", "intravenous urography"),
    ("Heart rate variability [high frequency (HF) power] was recorded.", "HF", "high frequency"),
    ("A Markov random field (MRF)- and convolutional neural network (CNN)-based method.", "MRF",
     "Markov random field"),
    ("We introduce correlation-aware training (CAT): an end-to-end scheme.", "CAT", "correlation-aware training"),
    ("Serum interleukin (IL)-6 rose.", "IL", "interleukin"),
    (r"We study the \emph{Core Identification Problem} (CIP) in markets.", "CIP", "Core Identification Problem"),
])
def test_nested_brackets_and_punctuation_around_brackets(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


@pytest.mark.parametrize("text, short, long", [
    ("Existing explainable AI (XAI) methods fail.", "XAI", "explainable AI"),
    ("Accurate exchange-correlation (XC) functionals are needed.", "XC", "exchange-correlation"),
    ("We propose Cross-Modal Deep Clustering (XDC) here.", "XDC", "Cross-Modal Deep Clustering"),
    ("We test cross-lingual natural language inference (XNLI).", "XNLI", "cross-lingual natural language inference"),
    ("A multi-chain Sample-to-Domain Distance (S2DD) is used.", "S2DD", "Sample-to-Domain Distance"),
    ("Peer-to-peer (P2P) networks share files.", "P2P", "Peer-to-peer"),
])
def test_x_for_ex_and_number_words_inside_hyphenated_words(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


@pytest.mark.parametrize("text, short, long", [
    ("A hierarchical recurrent neural network (h-RNN) is used.", "h-RNN", "hierarchical recurrent neural network"),
    ("We plot t-distributed stochastic neighbor embedding (t-SNE) maps.", "t-SNE",
     "t-distributed stochastic neighbor embedding"),
])
def test_a_lower_case_letter_joined_to_an_acronym(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


def test_a_lower_case_letter_joined_to_a_word_is_no_acronym(nlp):
    doc = nlp("We use x-ray and e-commerce data.")
    assert not [span for span in doc.spans["acronyms"] if span.text in ("x-ray", "e-commerce")]


@pytest.mark.parametrize("text, short, long", [
    ("We train an Enhanced Deep Super-Resolution Network (EDSR) on the scans.", "EDSR",
     "Enhanced Deep Super-Resolution Network"),
    ("We propose Adaptive Federated Few-Shot Rare-Disease Diagnosis (AFFR) for hospitals.", "AFFR",
     "Adaptive Federated Few-Shot Rare-Disease Diagnosis"),
    ("We compare Quantum Qubit-based Neural Networks (QQBNs) with classical ones.", "QQBNs",
     "Quantum Qubit-based Neural Networks"),
    ("We release the Knowing-To-Doing Financial Benchmark (KTD-Fin) today.", "KTD-Fin",
     "Knowing-To-Doing Financial Benchmark"),
    ("The Spectral Instrumental Variable Regression (SpecIV) estimator is consistent.", "SpecIV",
     "Spectral Instrumental Variable Regression"),
])
def test_a_title_cased_long_form_keeps_its_last_title_word(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


@pytest.mark.parametrize("text, short, long", [
    ("Trade is measured in forty-foot equivalent units (FFE) per route.", "FFE", "forty-foot equivalent units"),
    ("We train Multitask Automated Generation of Intermodal CT perfusion maps (MAGIC) on scans.", "MAGIC",
     "Multitask Automated Generation of Intermodal CT perfusion maps"),
    ("Decoding uses reinforcement-learning-based sequential variable-node scheduling (RL-S) throughout.", "RL-S",
     "reinforcement-learning-based sequential variable-node scheduling"),
    ("Counts of colony forming units (CFUs) fell.", "CFUs", "colony forming units"),
])
def test_a_long_form_keeps_its_plural_or_gerund_head_after_the_letters(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


@pytest.mark.parametrize("text, short, long", [
    ("We use convolutional neural network models (CNN) here.", "CNN", "convolutional neural network"),
    ("The fiber orientation distribution function (FOD) is estimated.", "FOD", "fiber orientation distribution"),
])
def test_a_generic_head_or_a_noun_in_ion_stays_out_of_the_long_form(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long


@pytest.mark.parametrize("text, short, long", [
    (r"We first introduce \emph{Self-Enforcing Transfer Equilibrium} (SETE), where players commit.", "SETE",
     "Self-Enforcing Transfer Equilibrium"),
    (r"We use \textit{optical coherence tomography} (OCT) images.", "OCT", "optical coherence tomography"),
])
def test_a_latex_brace_before_the_bracket_is_no_boundary(nlp, text, short, long):
    assert definitions(nlp, text)[short] == long
