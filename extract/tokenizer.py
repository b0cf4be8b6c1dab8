"""A tokenizer for scientific prose: hyphenated names (MAGEP-NFN, Self-REF, Med-LVLMs) stay whole."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from spacy.lang.en import English
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex, registry

from .resources import DATA_DIR, DataFiles

# English splits a hyphen between two letters ("multi-view" -> multi - view); names need it whole.
_LETTER_HYPHEN_GROUP = "(?:-|–|—|--|---|——|~)"


def compile_token_match(patterns: Iterable[str]) -> Callable[[str], Any]:
    """One matcher for the whole-token patterns: a string matching one of them is never split.

    The pattern is anchored at the end, so the `.match` a saved tokenizer is reloaded with
    behaves as `.fullmatch`.
    """
    return re.compile("(?:" + "|".join(f"(?:{p})" for p in patterns) + r")\Z").match


class ScientificTokenizer(Tokenizer):
    """English rules minus the letter-hyphen-letter split; `initialize` adds English's special cases
    and the infixes, suffixes, whole-token patterns and special cases of its data files. spaCy saves
    and restores all of them with the pipeline."""

    def initialize(self, get_examples: Any = None, *, nlp: Language | None = None, data_dir: str | None = None,
                   infixes: str = "infixes.txt", suffixes: str = "suffixes.txt",
                   token_match: str = "token_match.txt", special_cases: str = "tokenizer_specials.txt") -> None:
        """Read the tokenizer's data files from `data_dir` (default: the package's extract/data/)."""
        data = DataFiles.read(Path(data_dir) if data_dir else DATA_DIR, (infixes, suffixes, token_match, special_cases))
        defaults = English.Defaults
        self.rules = {}  # every setter below reloads all special cases: none while they run, then all once
        self.infix_finditer = compile_infix_regex(_english_infixes() + list(data.lines(infixes))).finditer
        self.suffix_search = compile_suffix_regex(list(defaults.suffixes or ()) + list(data.lines(suffixes))).search
        self.token_match = compile_token_match(data.lines(token_match))
        self.rules = {**_english_exceptions(),
                      **{special: [{"ORTH": special}] for special in data.lines(special_cases)}}


def _english_exceptions() -> dict[str, list[dict]]:
    """English's special cases minus the bracket emoticons: "(CAT): end-to-end" is ( CAT ) :, not a "):"."""
    return {text: tokens for text, tokens in English.Defaults.tokenizer_exceptions.items()
            if not (any(c in "()[]" for c in text) and not any(c.isalnum() for c in text))}


def _english_infixes() -> list[str]:
    return [p for p in English.Defaults.infixes if _LETTER_HYPHEN_GROUP not in p]


@registry.tokenizers("paperkg.scientific_tokenizer.v1")
def create_scientific_tokenizer() -> Callable[[Language], Tokenizer]:
    """The scientific tokenizer; its special cases and data files come with `nlp.initialize()`
    ([initialize.tokenizer]) or with the saved pipeline (`from_disk`): set here, each would be
    loaded again by every setter those run."""

    def make(nlp: Language) -> Tokenizer:
        defaults = English.Defaults
        return ScientificTokenizer(
            nlp.vocab,
            rules={},
            prefix_search=compile_prefix_regex(defaults.prefixes or ()).search,
            suffix_search=compile_suffix_regex(defaults.suffixes or ()).search,
            infix_finditer=compile_infix_regex(_english_infixes()).finditer,
            url_match=defaults.url_match,
        )

    return make
