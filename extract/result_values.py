"""The numbers a sentence states, as value expressions: a number with its sign and unit, a range or a
"from X to Y" pair, found in the characters (the tokenizer keeps '9%-19' or '48.7%/51.1%' in one token).

A number inside a name ('GPT-4', 'ROUGE-2', 'R@1', 'CIFAR-10', 'Llama-3-8B'), an ordinal ('2nd') or a number
with a letter after it other than a multiplier's x ('7B', '3D', '5-gram') is no value.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+"
_UNIT = r"(?:\s?\\?%|\s?(?:\$\\times\$|×|x(?![A-Za-z])))"
_EXPONENT = r"(?:\$\\text\{e\}\^\{?-?\d+\}?\$)"
# One number with its attached sign and unit; not inside a name ('GPT-4', 'R@1', 'CIFAR-10', 'mAP@0.5'), an
# ordinal or a size ('2nd', '7B', '5-gram'): a letter, '@' or '_' may not touch it.
ATOM = re.compile(rf"(?<![\w@.^_])(?P<sign>[+\-−±~≈])?(?:{_NUMBER}){_EXPONENT}?(?:{_UNIT})?(?![\w@]|\.\d|-[A-Za-z])")
_LATEX_SCRIPT = re.compile(r"[\^_][{(]?[-−+]?$")  # an exponent or index: '$O(\epsilon^{-2})$', 'ε^(-2)', 'x_{10}'
_DASH = re.compile(r"^(?:--|-|–|—)$")
_WORDED = re.compile(r"^\s(?:to|and|~)\s$")
# A hyphen or dash after a word glued to a number ('BERT-2', 'case9') is part of a name.
_NAMED = re.compile(r"[A-Za-z][\-–]$|\bF\s$")  # 'F 1' is F1
_NUMBERS = re.compile(r"\d+(?:\.\d+)?")
_SCALES = ("5", "10", "100")  # '4.80/5': a score out of five, one value

@dataclass(frozen=True)
class Value:
    """One value expression: its text as written and its place in the text, the unit written with it
    ('%', 'x' or ''), and its numbers (a range has two)."""

    text: str
    start: int
    end: int
    unit: str
    numbers: tuple[float, ...]
    ranged: bool
    start_of_move: bool = False  # the X of a move from X to Y ('rises from 37% to 95%'): where the move started

    @property
    def value(self) -> str:
        """The value without its unit marks ('9%-19%' -> '9-19'), as the record keeps it."""
        return re.sub(r"\s?(?:\\?%|×|\$\\times\$|(?<=\d)x)(?=$|[\s\-–—~]|--)", "", self.text)


def find_values(text: str, offset: int = 0) -> list[Value]:
    """The value expressions of `text` (a sentence starting at `offset` in the abstract), in order: a hyphen
    range ('7-14%', '9%-19%') is one value, 'X to Y' one unless it follows a change from X ('rises from 37% to
    95%': two), 'X and Y' one only after 'between'; a slash list ('48.7%/51.1%/52.3%') is one value a number."""
    atoms = [match for match in ATOM.finditer(text) if not _NAMED.search(text[:match.start()])
             and not _LATEX_SCRIPT.search(text[max(0, match.start() - 3):match.start()])
             and not (match["sign"] in ("-", "−") and _NAMED.search(text[:match.start() + 1]))]
    found: list[Value] = []
    index = 0
    while index < len(atoms):
        atom = atoms[index]
        following = atoms[index + 1] if index + 1 < len(atoms) else None
        between = text[atom.end():following.start()] if following else ""
        glued = between == "" and following is not None and following["sign"] in ("-", "−", "~")
        if following and (glued or _DASH.match(between) or (_WORDED.match(between) and _one_range(
                text[:atom.start()], between))):
            found.append(_value(text, atom.start(), following.end(), offset, True))
            index += 2
            continue
        if following and between == "/" and text[following.start():following.end()] in _SCALES:
            found.append(_value(text, atom.start(), atom.end(), offset, False))
            index += 2
            continue
        moves = following is not None and bool(_WORDED.match(between)) and "to" in between
        found.append(_value(text, atom.start(), atom.end(), offset, False, moves))
        index += 1
    return found


def _one_range(before: str, joiner: str) -> bool:
    """Whether 'X to Y' or 'X and Y' after `before` is one range: 'between X and Y', 'ranging from X to Y',
    'X to Y' (not after 'from' following a verb of change: 'improves accuracy from X to Y' is two values)."""
    before = before.rstrip()
    if "and" in joiner:
        return before.lower().endswith("between")
    if re.search(r"(?:^|\s)[A-Z][\w@\-]*$", before):  # 'AUC 0.739 to 0.944', 'Effort 0.740 to 0.533': a move
        return False
    if not before.lower().endswith("from"):
        return True
    return not re.search(r"\b(?:improv|increas|rais|ris|boost|jump|climb|reduc|decreas|drop|fall|fell|cut|lower|"
                         r"go|went|grow|grew|bring|brings|brought|lift|push)\w*(?:\s+\S+){0,12}\s+from$",
                         before.lower())


def _value(text: str, start: int, end: int, offset: int, ranged: bool, start_of_move: bool = False) -> Value:
    """The Value of text[start:end], its unit and numbers read off the text."""
    written = text[start:end]
    unit = ""
    if re.search(r"%\s*$", written) or (ranged and "%" in written):
        unit = "%"
    elif re.search(r"(?:×|x|\$\\times\$)$", written):
        unit = "x"
    numbers = tuple(float(n) for n in _NUMBERS.findall(re.sub(r"(?<=\d),(?=\d{3})", "", _strip_exponent(written))))
    return Value(written, offset + start, offset + end, unit, numbers, ranged, start_of_move)


def _strip_exponent(text: str) -> str:
    return re.sub(r"\$\\text\{e\}\^\{?-?\d+\}?\$", "", text)
