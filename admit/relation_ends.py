"""Which nodes and mentions may end a typed edge: a property is a term but not a thing a method is used
for or evaluated on, a language, organisation or toolkit is no data set, a generic word names nothing, and
a mention that is a piece of a longer noun phrase in its sentence is no name.

A quality ("computational efficiency", "spatial resolution", "3D geometric consistency") stays a node
with its papers, but the graph writes no USED_FOR, EVALUATED_ON, ... edge to it; a name in a Dataset
slot that is a language ("English", "Slavic languages"), an organisation ("Ministry of ...") or a
toolkit ("PyTorch") makes no edge either, nor does a generic word ("misuse"). A mention is judged where
it is written: a name that runs on in Title Case ("EDA" of "EDA Elite Challenge") or, in a Method or
Dataset slot, the modifier of the noun after it ("UV" of "UV maintenance") ends no typed edge from that
sentence. A Task whose head is no task noun ("3D scenes", "medical entities") names a thing and ends no typed
edge, and a USED_FOR relation needs a sentence that states a purpose for its task (the task mention's role). The
rules are data (admit/data/relation_ends.txt).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from paperkg.core.schema import Mention, NodeLabel, RelType, Role, relation_allowed

RULES_FILE = "relation_ends.txt"
KINDS = ("quality", "quality-after-adj", "not-dataset", "organisation", "generic", "name-head", "verb", "opener",
         "function", "determiner", "grade", "task-noun")
# Word shapes that read as an adjective before a head noun: 'spatial', 'geometric', 'modular', 'generative'.
_ADJECTIVE = re.compile(r"(?:al|ic|ar|ive|ous|ful)$")
_GRADES = frozenset({"high", "low", "fine", "coarse", "full", "poor", "strong", "weak", "better", "higher", "lower"})
# Where a mention is written: a short form in brackets after it ('(LLM)'), the next word after one space (no
# punctuation between), a word in Title Case, and the marks after which a name may open a clause.
_SHORT_FORM = re.compile(r"\s*\([A-Z][A-Za-z0-9-]{0,15}\)")
_NEXT_WORD = re.compile(r" ([A-Za-z][A-Za-z0-9-]*)")
_TITLE_CASE = re.compile(r"[A-Z][a-z][a-z-]+$")
_CLAUSE_MARKS = tuple(".,;:()\"“”")
_NAME_SLOTS = frozenset({NodeLabel.METHOD.value, NodeLabel.DATASET.value})
# A head word written as a plain word ('scenes', 'Detection', 'fine-tuning'), not as a name or an acronym ('NLU').
_PLAIN_WORD = re.compile(r"[A-Za-z][a-z]*(?:-[A-Za-z][a-z]*)*$")


class EndRules(NamedTuple):
    """The word lists of the rules file, one per kind."""

    quality: frozenset[str]
    quality_after_adjective: frozenset[str]
    not_dataset: frozenset[str]
    organisation: frozenset[str]
    generic: frozenset[str]
    name_head: frozenset[str]
    verb: frozenset[str]
    opener: frozenset[str]
    function: frozenset[str]
    determiner: frozenset[str]
    grade: frozenset[str]
    task_noun: frozenset[str]

    @classmethod
    def parse(cls, text: str, source: str = RULES_FILE) -> EndRules:
        """The rules of a 'kind<TAB>word' file ('#' comments); an unknown kind is a ValueError naming its line."""
        words: dict[str, set[str]] = {kind: set() for kind in KINDS}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            kind, _, word = line.partition("\t")
            if kind not in words or not word.strip():
                raise ValueError(f"{source}, line {number}: expected 'kind<TAB>word' with kind one of {KINDS}.")
            words[kind].add(word.strip() if kind == "generic" else word.strip().lower())
        return cls(*(frozenset(words[kind]) for kind in KINDS))


@lru_cache(maxsize=1)
def shipped_rules() -> EndRules:
    """The rules shipped in paperkg/admit/data/."""
    return EndRules.parse((resources.files("paperkg.admit") / "data" / RULES_FILE).read_text(encoding="utf8"))


def end_refusal(name: str, label: str, rules: EndRules | None = None) -> str | None:
    """Why a node of this name and label may not end a typed edge ('quality', 'not-dataset'), or None."""
    rules = rules or shipped_rules()
    words = name.lower().split()
    if not words:
        return None
    head = words[-1]
    if name in rules.generic or name[:1].lower() + name[1:] in rules.generic:  # 'misuse', 'Misuse', 'GUI'; not 'CASE'
        return "generic"
    if head in rules.quality:
        return "quality"
    if head in rules.quality_after_adjective and len(words) > 1 and _reads_as_adjective(words[-2]):
        return "quality"
    if label == NodeLabel.TASK.value and _names_no_task(name.split()[-1], rules):
        return "no-task"
    if label == NodeLabel.DATASET.value and (head in rules.not_dataset or head in rules.organisation
                                             or words[0] in rules.organisation):
        return "not-dataset"
    return None


def edge_refusal(kind: RelType, head: tuple[str, str], tail: tuple[str, str],
                 refused: Callable[[str, str], str | None] = end_refusal) -> str | None:
    """Why a typed edge between two nodes, given as (name, label) with their final labels, is dropped, or None:
    its type does not take these labels ('ends-not-allowed'), or an end is no thing to relate (`refused`,
    end_refusal: a quality, a language in a Dataset slot, ...). A pure function of the two nodes, so the graph
    applies it to its table of edges once the corpus has decided every node's type."""
    if not relation_allowed(kind, head[1], tail[1]):
        return "ends-not-allowed"
    return refused(*head) or refused(*tail)


def _names_no_task(head: str, rules: EndRules) -> bool:
    """Whether a Task name's head, written as a plain word, is no task noun ('3D scenes', 'in-context learning'),
    read whole or by its last hyphenated part ('super-resolution')."""
    if not _PLAIN_WORD.match(head):
        return False
    head = head.lower()
    return not (_reads_as(head, rules.task_noun) or _reads_as(head.rsplit("-", 1)[-1], rules.task_noun))


def purpose_refusal(kind: RelType, tail: Mention) -> str | None:
    """Why a relation's sentence states no use of its head for its tail task, or None: a USED_FOR relation to a
    task its sentence only mentions (the task's role: no purpose word such as 'for', 'to solve', 'improves', no
    proposal, not the abstract's first sentence), as in a list of tasks or a sentence about something else."""
    if kind is RelType.USED_FOR and tail.label is NodeLabel.TASK and tail.role is Role.MENTIONS:
        return "no-purpose"
    return None


def _reads_as_adjective(word: str) -> bool:
    return word in _GRADES or bool(_ADJECTIVE.search(word))


def mention_refusal(abstract: str, mention: Mention, rules: EndRules | None = None) -> str | None:
    """Why a mention, as the abstract writes it, names no thing to relate, or None. 'verb-phrase': a gerund
    with its object ('embedding agents directly into ...'). 'fragment': a piece of a longer noun phrase
    wherever the abstract writes it: its name runs on in Title Case ('EDA' of 'EDA Elite Challenge', the long
    form 'One-shot NMF-based Gradient' of 'ONG (One-shot NMF-based Gradient Masking)'), or, in a Method or
    Dataset slot, it modifies the noun after it ('UV' of 'real-time UV maintenance', 'Human-Large Language
    Model' of '... (LLM) co-annotation', 'large-scale MCP' of 'the first large-scale MCP dataset'). 'BERT
    model', 'COCO images', 'experiments on X show', 'that X leads' keep X a name, and so does X written
    alone anywhere in the abstract; lexicon entries are trusted."""
    rules = rules or shipped_rules()
    if mention.source == "lexicon":
        return None
    words, after = mention.text.split(), _words_after(abstract, mention.end)
    if (len(words) > 1 and words[0].endswith("ing") and after and after[0].endswith("ly")
            and not (len(after) > 1 and after[1].endswith("ed"))):  # not 'points heavily required by'
        return "verb-phrase"
    if mention.name != mention.text and _long_form_cut(abstract, mention, rules):
        return "fragment"
    written = _written_alone(abstract, mention.text)
    if all(_cut_at(abstract, start, end, mention, rules) for start, end in written or [(mention.start, mention.end)]):
        return "fragment"
    return None


def _written_alone(abstract: str, text: str) -> list[tuple[int, int]]:
    """Where `text` is written as a whole word in the abstract (no letter, digit, '_' or '-' either side): the
    spans `re.finditer(r"(?<![\\w-])TEXT(?![\\w-])")` finds, without compiling a pattern per mention."""
    spans, position, size, length = [], 0, len(text), len(abstract)
    while (start := abstract.find(text, position)) >= 0:
        end = start + size
        if (start == 0 or not _word_char(abstract[start - 1])) and (end == length or not _word_char(abstract[end])):
            spans.append((start, end))
            position = max(end, start + 1)  # past the match (an empty one: the next place)
        else:
            position = start + 1
    return spans


def _word_char(char: str) -> bool:
    """The characters of the regex class [\\w-]."""
    return char.isalnum() or char in "_-"


def _long_form_cut(abstract: str, mention: Mention, rules: EndRules) -> bool:
    """Whether a short form's long form runs on where the short form defines it ('ONG (One-shot NMF-based
    Gradient Masking)' for the long form 'One-shot NMF-based Gradient')."""
    defined = re.escape(f"{mention.text} (") + re.escape(mention.name)
    return any((after := _words_after(abstract, found.end())) and _runs_on(after, rules)
               for found in re.finditer(defined, abstract, re.IGNORECASE))


def _cut_at(abstract: str, start: int, end: int, mention: Mention, rules: EndRules) -> bool:
    """Whether the mention's text written at abstract[start:end] is a piece of a longer noun phrase."""
    after = _words_after(abstract, end)
    if not after:
        return False
    if _runs_on(after, rules) and not abstract[start:end].endswith("."):
        return True
    return (mention.label is not None and mention.label.value in _NAME_SLOTS
            and _modifies(abstract[start:end], abstract[:start], after, rules))


def _words_after(abstract: str, end: int) -> list[str]:
    """The (up to) two words that follow a mention in its noun phrase, past a bracketed short form."""
    short = _SHORT_FORM.match(abstract, end)
    position = short.end() if short else end
    words: list[str] = []
    while len(words) < 2 and (word := _NEXT_WORD.match(abstract, position)):
        words.append(word.group(1))
        position = word.end()
    return words


def _runs_on(after: list[str], rules: EndRules) -> bool:
    """Whether the word right after a name continues it: Title Case, not the name's kind ('RGB-MAE Encoder'), no
    language ('Senseval-3 Chinese') and no cited author ('GloVe Pennington et al.')."""
    word = after[0].lower()
    return (bool(_TITLE_CASE.match(after[0])) and not _reads_as(word, rules.name_head)
            and word not in rules.not_dataset and after[1:2] != ["et"])


def _modifies(text: str, before: str, after: list[str], rules: EndRules) -> bool:
    """Whether a Method or Dataset mention modifies the lower-case noun after it, judged from its own form,
    the word before it and the (up to two) words after it."""
    words = text.lower().split()
    following = after[0]
    if not words or not following.islower():
        return False
    if words[0] in rules.grade:
        return _reads_as(following, rules.name_head)
    plural = text.endswith("s") and not text.endswith(("ss", "us", "is"))
    if plural or words[-1].endswith("ing") or _opens_clause(before, rules):
        return False
    if (following in rules.function or following.endswith(("ed", "ing", "ly", "able", "ible"))
            or following.endswith(("er", "ers", "or", "ors"))  # an agent noun: 'PoS tagger', 'Zorb encoders'
            or _ADJECTIVE.search(following)  # a predicate adjective: 'makes the X adaptive'
            or any(_reads_as(following, kind) for kind in (rules.name_head, rules.quality,
                                                             rules.quality_after_adjective, rules.verb))):
        return False
    if following.endswith("s") and (_reads_as(words[-1], rules.name_head)  # 'a diffusion model operates in'
                                    or len(after) > 1 and after[1].lower() in rules.determiner):  # 'X resembles the'
        return False
    return len(after) < 2 or not _reads_as(after[1].lower(), rules.name_head)  # 'CLIP image encoder'


def _opens_clause(before: str, rules: EndRules) -> bool:
    """Whether a name written after this text may be the subject of a clause ('..., X leads', 'that X')."""
    before = before.rstrip()
    if not before or before.endswith(_CLAUSE_MARKS):
        return True
    return before.rsplit(None, 1)[-1].lower() in rules.opener


def _reads_as(word: str, words: frozenset[str]) -> bool:
    """Whether a word or its singular (its base form for a verb: 'relies', 'shows') is in the list."""
    forms = {word}
    if word.endswith("ies"):
        forms.add(word[:-3] + "y")
    if word.endswith("es"):
        forms.add(word[:-2])
    if word.endswith("s"):
        forms.add(word[:-1])
    return not forms.isdisjoint(words)
