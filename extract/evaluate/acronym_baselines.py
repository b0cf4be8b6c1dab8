"""Reference baselines for `paperkg eval acronyms`: Schwartz & Hearst (2003) definitions,
and the same plus a "mostly capitals" rule for undefined acronyms.

Kept deliberately plain, as published, so their known failure modes stay visible in tests.
"""
from __future__ import annotations

import re

_BRACKET = re.compile(r"\(([^()]*)\)")
_WORD = re.compile(r"\S+")


def _is_short_candidate(token: str) -> bool:
    """Schwartz-Hearst short-form test: 2-10 characters, a letter, alphanumeric first."""
    return 2 <= len(token) <= 10 and token[0].isalnum() and any(c.isalpha() for c in token)


def _match_backwards(short: str, words: list[str]) -> int | None:
    """Index of the first word of the long form inside `words`, or None (S&H's algorithm:
    match the short form's characters right to left; the first must begin a word)."""
    text = " ".join(words).lower()
    chars = [c for c in short.lower() if c.isalnum()]
    pos = len(text) - 1
    for k in range(len(chars) - 1, -1, -1):
        c = chars[k]
        while pos >= 0 and (text[pos] != c or (k == 0 and pos > 0 and text[pos - 1].isalnum())):
            pos -= 1
        if pos < 0:
            return None
        pos -= 1
    start_char = pos + 1
    return text[:start_char].count(" ")


def schwartz_hearst_definitions(tokens: list[str]) -> list[tuple[int, int, int, int]]:
    """(short_start, short_end, long_start, long_end) for "long form (SF)" and "SF (long form)"."""
    found = []
    for i, token in enumerate(tokens):
        if token != "(" or i + 2 >= len(tokens) or tokens[i + 2] != ")" or i == 0:
            continue
        inside = tokens[i + 1]
        if _is_short_candidate(inside):
            n = len([c for c in inside if c.isalnum()])
            lo = max(0, i - min(n + 5, 2 * n))
            start = _match_backwards(inside, tokens[lo:i])
            if start is not None:
                found.append((i + 1, i + 2, lo + start, i))
    return found


def schwartz_hearst_text(text: str) -> list[tuple[int, int, int, int]]:
    """S&H on running text, as (short_start, short_end, long_start, long_end) character offsets: "long form
    (SF)" when the bracket holds at most two words (cut at its first ';' or ','), else "SF (long form)" with
    the word before the bracket as the short form; the long form is looked for in the min(|SF| + 5, 2 |SF|)
    words before the short form's bracket (or in the bracket), not across a sentence's full stop."""
    found = []
    for bracket in _BRACKET.finditer(text):
        inside = re.split(r"[;,] ", bracket.group(1))[0].strip()
        inside_start = bracket.start(1) + bracket.group(1).find(inside) if inside else bracket.start(1)
        before = list(_WORD.finditer(text, 0, bracket.start()))
        if inside and len(inside.split()) <= 2 and _is_short_candidate(inside):
            n = sum(c.isalnum() for c in inside)
            words = before[-min(n + 5, 2 * n):]
            while words and any(w.group().endswith(".") for w in words[:-1]):  # stay in the sentence
                words = words[next(i for i, w in enumerate(words[:-1]) if w.group().endswith(".")) + 1:]
            start = _match_backwards(inside, [w.group() for w in words]) if words else None
            if start is not None:
                found.append((inside_start, inside_start + len(inside), words[start].start(), words[-1].end()))
        elif inside and before and _is_short_candidate(before[-1].group()):
            short = before[-1]
            words = list(_WORD.finditer(inside))
            start = _match_backwards(short.group(), [w.group() for w in words])
            if start == 0:
                found.append((short.start(), short.end(), inside_start, inside_start + len(inside)))
    return found


def schwartz_hearst_labels(tokens: list[str]) -> list[str]:
    """Per-token labels: S&H definitions, and the defined short forms wherever they recur."""
    labels = ["O"] * len(tokens)
    definitions = schwartz_hearst_definitions(tokens)
    shorts = {tokens[s] for s, _, _, _ in definitions}
    for i, token in enumerate(tokens):
        if token in shorts:
            labels[i] = "B-short"
    for _, _, lo, hi in definitions:
        for k in range(lo, hi):
            labels[k] = "B-long" if k == lo else "I-long"
    return labels


def mostly_capitals(token: str) -> bool:
    """The classic capitals rule: at least two characters, more than half of them capitals."""
    return len(token) >= 2 and sum(c.isupper() for c in token) * 2 > len(token)


def schwartz_hearst_capitals_labels(tokens: list[str]) -> list[str]:
    """S&H definitions plus every mostly-capitals token as an (undefined) short form."""
    labels = schwartz_hearst_labels(tokens)
    for i, token in enumerate(tokens):
        if labels[i] == "O" and mostly_capitals(token):
            labels[i] = "B-short"
    return labels
