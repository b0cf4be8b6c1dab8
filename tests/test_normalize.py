"""Text normalisation on what abstracts really contain (cases taken from the ICML 2025 corpus)."""
from __future__ import annotations

import pytest

from paperkg.ingest.normalize import choose_code_url, normalize_inline, normalize_text


def text_of(raw: str) -> str:
    return normalize_text(raw).text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("MAGEP-NFN (**M**onomial m**A**trix **G**roup **E**quivariant **P**olynomial **NFN**).",
         "MAGEP-NFN (Monomial mAtrix Group Equivariant Polynomial NFN)."),
        ("we propose **MATS**, an audio-language LLM designed to handle **M**ultiple **A**udio task",
         "we propose MATS, an audio-language LLM designed to handle Multiple Audio task"),
        ("the **S**trongly-rel**a**ted **n**oisy **t**ext with **a**udio (**Santa**) mechanism",
         "the Strongly-related noisy text with audio (Santa) mechanism"),
        ("we propose **Auto**mated **G**raph **F**oundation **M**odel", "we propose Automated Graph Foundation Model"),
        ("an *italic* word, an _underscored_ one and `code`", "an italic word, an underscored one and code"),
        ("snake_case_name and a_b stay", "snake_case_name and a_b stay"),
        ("a ***bold italic*** word", "a bold italic word"),
    ],
)
def test_markdown_emphasis_is_removed(raw: str, expected: str) -> None:
    assert text_of(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("asymptotically $O(\\epsilon^{-2})$ where $\\epsilon$ is a distance",
         "asymptotically O(ε^(-2)) where ε is a distance"),
        ("a rate of $O(\\epsilon_n^2)$", "a rate of O(ε_n^2)"),
        ("decay at a rate of $\\lambda_j \\asymp j^{-\\frac{d}{d-1}}$ for $j \\ge 1$",
         "decay at a rate of λ_j ≍ j^(-d/(d-1)) for j ≥ 1"),
        ("optimal regret $\\tilde{\\mathcal{O}}(\\sqrt{K})$", "optimal regret Õ(√K)"),
        ("of order $\\widetilde{\\mathcal{O}}(H\\sqrt{SAT})$", "of order Õ(H√(SAT))"),
        ("bound of order $\\Omega(\\sqrt{T 2^{A/2}})$", "bound of order Ω(√(T 2^(A/2)))"),
        ("a small $L^{\\infty}$-norm", "a small L^∞-norm"),
        ("quivers of type $\\tilde{D}$.", "quivers of type D̃."),
        ("we introduce $\\mu$**Transfer-FNO**, a technique", "we introduce μTransfer-FNO, a technique"),
        ("an $\\epsilon$-optimal policy", "an ε-optimal policy"),
        ("where $n\\gg d^\\gamma$", "where n ≫ d^γ"),
        ("$without$ suffering", "without suffering"),
        ("$x \\in \\mathbb{R}^d$", "x ∈ ℝ^d"),
        ("a cost of $\\tilde{O}(d^{1/2})$ and $L^*$", "a cost of Õ(d^(1/2)) and L^*"),
        ("values in $\\{0,1,2\\}$ and $\\{x_i\\}_{i=1}^N$", "values in {0,1,2} and {x_i}_(i=1)^N"),
        ("$q \\not\\in S$, $\\|x\\|_2$, $g^\\text{car}$", "q ∉ S, ‖x‖_2, g^(car)"),
        ("$\\hatγ \\approx γ$", "γ̂ ≈ γ"),  # a macro name ends at the first non-ASCII letter
        ("$\\Bigl(\\frac{1}{2}\\Bigr)$", "(1/2)"),
    ],
)
def test_latex_math_reads_as_unicode(raw: str, expected: str) -> None:
    assert text_of(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("CIFAR-10 (96.72\\%), CIFAR-100 (80.28\\%)", "CIFAR-10 (96.72%), CIFAR-100 (80.28%)"),
        ("learns a classifier with \\emph{exact} invariances", "learns a classifier with exact invariances"),
        ("\\textit{Few-shot Neural Architecture Search} and \\textbf{bold}",
         "Few-shot Neural Architecture Search and bold"),
        ("as shown before \\cite{smith2020,doe2021}. Next", "as shown before. Next"),
        ("see Fig.~1 and about ~10\\% fewer", "see Fig. 1 and about ~10% fewer"),
        ("a {BERT} model}", "a BERT model"),
        ("only \\$0.88 per million tokens", "only $0.88 per million tokens"),
        ("MFU -- 7.17× faster, 1--10 and --- a dash", "MFU – 7.17× faster, 1–10 and — a dash"),
        ("M{\\\"u}ller and Bal\\'azs", "Müller and Balázs"),
        ("``quoted'' text", "“quoted” text"),
        ("the \\texttt{GPT-4} model and 9{,}674 items", "the GPT-4 model and 9,674 items"),
        ("we propose \\ours{}, and \\method outperforms \\name{Foo}", "we propose ours, and method outperforms Foo"),
        ("costs \\$48-\\$74, 5% of runs", "costs $48-$74, 5% of runs"),
        ("an \\emph{A & B} test", "an A & B test"),
        ("\\textcolor{red}{Warning}: harmful text", "Warning: harmful text"),
        ("a \\not\\textcolor b and \\sqrt\\frac", "a b and √"),  # a macro as another's argument (a real abstract)
    ],
)
def test_latex_text_commands(raw: str, expected: str) -> None:
    assert text_of(raw) == expected


@pytest.mark.parametrize(
    "raw",
    ["a &lt;img src=x onerror=alert(1)&gt; b", "a &lt;img src=\"x\" onerror=\"alert(1)\"&gt; b",
     "a &amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt; b", "a <<b>img src=x onerror=y> b",
     "a &lt;svg/onload=alert(1)&gt; b"],
)
def test_escaped_markup_is_decoded_then_stripped(raw: str) -> None:
    text = text_of(raw)
    assert "<" not in text and ">" not in text, text
    assert text.startswith("a ") and text.endswith(" b")


def test_characters_no_output_can_hold_are_replaced() -> None:
    raw = "A\x00 control\x1b, a lone \udc00 surrogate, \ufffe and \x85 gone"
    assert text_of(raw) == "A control, a lone surrogate, and gone"
    assert normalize_inline("Ti\x01tle \ud800") == "Ti tle"


def test_html_entities_tags_whitespace_and_unicode() -> None:
    raw = "<jats:p>We &amp; they   use <i>x</i>&lt;y,\u200b e\u0301t\u00e9\n\ta \ufb01ne model.</jats:p>"
    assert text_of(raw) == "We & they use x< y, été a fine model."  # `<y` would open a tag in a browser


@pytest.mark.parametrize(
    ("raw", "expected_text", "expected_url"),
    [
        ("Our code is publicly available at : \\url{https://github.com/emlaufer/ExpProof}.",
         "Our code is publicly available.", "https://github.com/emlaufer/ExpProof"),
        ("Our code are available in https://github.com/aiming-lab/MMedPO}{https://github.com/aiming-lab/MMedPO.",
         "Our code are available.", "https://github.com/aiming-lab/MMedPO"),
        ("Our code is publicly available at: https://github.com/NeptuneBio/NAIAD",
         "Our code is publicly available.", "https://github.com/NeptuneBio/NAIAD"),
        ("The code is publicly available in [https://github.com/wangwen-banban/MATS](https://github.com/wangwen-banban/MATS)",
         "The code is publicly available.", "https://github.com/wangwen-banban/MATS"),
        ("It works. Video, code, checkpoints, and dataset: https://ottervla.github.io/.",
         "It works.", "https://ottervla.github.io/"),
        ("The source code is available on https://github.com/ShizheHu.",
         "The source code is available.", "https://github.com/ShizheHu"),
        ("Code is available at https://github.com/amazon-science/Spherical_Diffusion_Policy.",
         "Code is available.", "https://github.com/amazon-science/Spherical_Diffusion_Policy"),
        ("See the \\href{https://gitlab.com/a/b}{project page} (see www.example.org/x).",
         "See the project page.", "https://gitlab.com/a/b"),
        ("Data at <https://zenodo.org/record/1>.", "Data.", "https://zenodo.org/record/1"),
    ],
)
def test_urls_are_taken_out_and_become_the_code_url(raw: str, expected_text: str, expected_url: str) -> None:
    result = normalize_text(raw)
    assert result.text == expected_text
    assert result.code_url == expected_url
    assert "http" not in result.text and "www." not in result.text


def test_code_url_prefers_a_code_host_and_never_a_reference() -> None:
    urls = ["https://arxiv.org/abs/2101.00001", "https://proj.github.io/", "https://github.com/o/r"]
    assert choose_code_url(urls) == "https://github.com/o/r"
    assert choose_code_url(urls[:2]) == "https://proj.github.io/"
    assert choose_code_url(urls[:1]) is None
    assert normalize_text("Paper: https://arxiv.org/abs/2101.00001. Done.").code_url is None


def test_text_without_markup_is_unchanged() -> None:
    plain = "We propose FLeRM, i.e. Function-space Learning Rate Matching, for LLMs (e.g. GPT-2)."
    assert normalize_text(plain) == normalize_text(plain)
    assert text_of(plain) == plain
    assert normalize_text(plain).urls == ()


def test_normalize_inline_keeps_urls_and_cleans_markup() -> None:
    assert normalize_inline("  Sparse $\\epsilon$-Nets for\n \\emph{Robust} {T}ransformers ") == \
        "Sparse ε-Nets for Robust Transformers"


def test_corpus_abstracts_have_no_markup_left(corpus_paragraphs: list[str]) -> None:
    for paragraph in corpus_paragraphs:
        text = text_of(paragraph)
        for leftover in ("**", "\\", "$\\", "{", "}", "http", "`"):
            assert leftover not in text, (leftover, text)


@pytest.fixture
def corpus_paragraphs() -> list[str]:
    from pathlib import Path

    corpus = Path(__file__).resolve().parent.parent / "examples" / "icml2025"
    return [
        paragraph
        for file in sorted(corpus.glob("*.txt"))
        for paragraph in file.read_text(encoding="utf8").split("\n\n")[1:]
        if paragraph.strip()
    ]
