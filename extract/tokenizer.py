"""A tokenizer for scientific prose: hyphenated names (MAGEP-NFN, Self-REF, Med-LVLMs) stay whole."""
from __future__ import annotations

import re
from typing import Callable

from spacy.lang.en import English
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex, registry

from .resources import read_lines

# English splits a hyphen between two letters ("multi-view" -> multi - view); names need it whole.
_LETTER_HYPHEN_GROUP = "(?:-|–|—|--|---|——|~)"


def compile_token_match(patterns: tuple[str, ...]) -> Callable[[str], object]:
    """One matcher for the whole-token patterns: a string matching one of them is never split."""
    return re.compile("|".join(f"(?:{p})" for p in patterns)).fullmatch


@registry.tokenizers("paperkg.scientific_tokenizer.v1")
def create_scientific_tokenizer() -> Callable[[Language], Tokenizer]:
    """English rules minus the letter-hyphen-letter split, plus data/infixes.txt, suffixes.txt, tokenizer_specials.txt."""

    def make(nlp: Language) -> Tokenizer:
        infixes = [p for p in English.Defaults.infixes if _LETTER_HYPHEN_GROUP not in p]
        infixes += list(read_lines("infixes.txt"))
        defaults = English.Defaults
        tokenizer = Tokenizer(
            nlp.vocab,
            rules=dict(defaults.tokenizer_exceptions),
            prefix_search=compile_prefix_regex(defaults.prefixes).search,
            suffix_search=compile_suffix_regex(list(defaults.suffixes) + list(read_lines("suffixes.txt"))).search,
            infix_finditer=compile_infix_regex(infixes).finditer,
            token_match=compile_token_match(read_lines("token_match.txt")),
            url_match=defaults.url_match,
        )
        for special in read_lines("tokenizer_specials.txt"):
            tokenizer.add_special_case(special, [{"ORTH": special}])
        return tokenizer

    return make
