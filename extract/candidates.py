"""Rule candidates: name-shaped tokens (QMamba, Score-Fusion, CIFAR-10) and data sets named by cues."""
from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from paperkg.core.schema import NodeLabel
from paperkg.core.words import is_version, singular

from .cues import Cues
from .lexicon import SPANS_KEY as LEXICON_KEY
from .resources import DataComponent, DataFiles
from .words import version_after

# A name: inner capitals (QMamba, FLeRM), capitals around a hyphen (Score-Fusion, TS-SNN),
# or letters with a digit part (CIFAR-10, GPT-4, FlashAttention-3).
_NAME = re.compile(
    r"^(?:[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*"
    r"|[A-Z][A-Za-z0-9]*-[A-Z0-9][A-Za-z0-9-]*"
    r"|[A-Z][A-Za-z]+-?\d+[A-Za-z0-9.-]*"
    r"|[A-Z]{2,}[a-z][A-Za-z0-9]*"
    r"|[A-Z]{2,}[a-z]?[A-Z]*s?)$"
)
_ALL_CAPS = re.compile(r"^[A-Z]{2,}s?$")
_TITLE_HYPHEN = re.compile(r"^[A-Z][a-z]+(?:-[A-Z][a-z]+)+$")


def name_kind(text: str) -> str | None:
    """'caps' for all-capital tokens (acronym-like), 'weak' for Title-Case-Hyphenated words
    (a name only when proposed: Score-Fusion, not Zero-Cost), 'name' for other name shapes."""
    if not _NAME.match(text):
        return None
    if _ALL_CAPS.match(text):
        return "caps"
    return "weak" if _TITLE_HYPHEN.match(text) else "name"


_NAME_FILLERS = frozenset({"of", "for", "and", "in", "on", "with", "the", "a", "an", "to", "via"})


def reads_as_name(span: Span) -> bool:
    """A name rather than a common noun phrase: one name-shaped or capitalised token that does not
    merely start its sentence (QMamba, GPT-4, BERT, Primphormer), or a phrase whose every content
    word is capitalised and not just the first word of a sentence (Neural Tangent Kernel)."""
    words = [t for t in span if t.is_alpha or name_kind(t.text)]
    content = [t for t in words if t.lower_ not in _NAME_FILLERS]
    if not content or not all(t.text[:1].isupper() for t in content):
        return len(span) == 1 and name_kind(span.text) is not None
    if len(content) == 1:
        return name_kind(content[0].text) is not None or not content[0].is_sent_start
    return True


# The span groups written, by default (the names_key, datasets_key and methods_key settings).
NAMES_KEY, DATASETS_KEY, METHODS_KEY = "names", "cue_datasets", "cue_methods"


class CandidateFinder(DataComponent):
    """Writes doc.spans['names'] (label = guessed type, kb_id = shape), doc.spans['cue_datasets'] and
    doc.spans['cue_methods'] (names a cue phrase lists as data sets or as compared methods), under the
    keys its settings name; reads the lexicon's span group."""

    def __init__(self, name: str, cues: str, not_names: str, *, lexicon_key: str, names_key: str,
                 datasets_key: str, methods_key: str) -> None:
        super().__init__(name, (cues, not_names))
        self.cues_file = cues
        self.not_names_file = not_names
        self.lexicon_key = lexicon_key
        self.names_key = names_key
        self.datasets_key = datasets_key
        self.methods_key = methods_key

    def build(self, data: DataFiles) -> None:
        self.cues = Cues.from_data(data, self.cues_file)
        self.not_names = frozenset(line.strip() for line in data.lines(self.not_names_file))

    def process(self, doc: Doc) -> Doc:
        sentence_of = _SentenceBounds(doc)
        doc.spans[self.names_key] = list(self._names(doc))
        doc.spans[self.datasets_key] = list(self._listed_datasets(doc, sentence_of)) + list(
            self._evaluation_lists(doc, sentence_of))
        doc.spans[self.methods_key] = list(self._compared_lists(doc, sentence_of)) + list(
            self._listed_methods(doc, sentence_of))
        return doc

    def _names(self, doc: Doc):
        for token in doc:
            kind = name_kind(token.text)
            if kind is None or token.text in self.not_names or singular(token.text) in self.not_names:
                continue
            end = token.i + 1 + version_after(doc, token.i + 1)
            label = NodeLabel.DATASET.value if self._before_dataset_noun(doc, end) else NodeLabel.METHOD.value
            yield Span(doc, token.i, end, label=label, kb_id=kind)

    def _before_dataset_noun(self, doc: Doc, i: int) -> bool:
        return i < len(doc) and doc[i].lower_ in self.cues.dataset_nouns

    def _listed_datasets(self, doc: Doc, sentence_of: _SentenceBounds):
        """Items of 'benchmarks like A, B and C' / 'datasets such as A and B', and 'the D dataset'."""
        for token in doc:
            if token.lower_ in self.cues.dataset_nouns:
                yield from self._list_after(doc, token.i + 1, sentence_of)
                yield from self._name_before(doc, token.i)

    def _list_after(self, doc: Doc, i: int, sentence_of: _SentenceBounds):
        """Items after 'like', 'such as', ', namely', ':' ... or inside a bracket: 'datasets (A, B, and C)'."""
        if i < len(doc) - 1 and doc[i].text == "," and doc[i + 1].lower_ in self.cues.list_introducers:
            i += 1
        if i < len(doc) - 1 and f"{doc[i].lower_} {doc[i + 1].lower_}" in self.cues.list_introducers:
            yield from self._list_items(doc, i + 2, None, sentence_of)
        elif i < len(doc) and doc[i].lower_ in self.cues.list_introducers:
            yield from self._list_items(doc, i + 1, None, sentence_of)
        elif i < len(doc) and doc[i].text == "(":
            yield from self._list_items(doc, i + 1, ")", sentence_of)

    def _evaluation_lists(self, doc: Doc, sentence_of: _SentenceBounds):
        """'evaluated on A and B' / 'experiments across A, B and C': the listed names are data sets.

        Also 'on A, B and C' in a sentence that evaluates, when one item is a known data set.
        Known methods and metrics in such a list keep their type (the lexicon outranks cues).
        """
        known = {(s.start, s.end) for s in doc.spans.get(self.lexicon_key, []) if s.label_ == NodeLabel.DATASET.value}
        for token in doc:
            if token.lower_ not in self.cues.list_openers:
                continue
            items = list(self._list_items(doc, token.i + 1, None, sentence_of))
            sent_start, sent_end = sentence_of.bounds(token.i)
            before = {t.lower_ for t in doc[max(sent_start, token.i - 3):token.i]}
            if before & self.cues.data_verbs:
                yield from items
            elif (len(items) > 1 and sentence_of.words(token.i) & self.cues.eval_words
                  and any((s.start, s.end) in known for s in items)):
                yield from items

    def _compared_lists(self, doc: Doc, sentence_of: _SentenceBounds):
        """'outperforms A and B', 'higher win rates than A and B', 'improves ... over A and B': the
        listed names are the methods compared with ('over' only after a word of gain)."""
        for token in doc:
            if token.lower_ not in self.cues.baseline_openers:
                continue
            if token.lower_ == "over":
                sent_start = sentence_of.bounds(token.i)[0]
                if not any(t.lower_ in self.cues.gain_words for t in doc[sent_start:token.i]):
                    continue
            for item in self._list_items(doc, token.i + 1, None, sentence_of):
                yield Span(doc, item.start, item.end, label=NodeLabel.METHOD.value, kb_id="cue")

    def _listed_methods(self, doc: Doc, sentence_of: _SentenceBounds):
        """Items of 'algorithms such as A and B' / 'baselines (A, B and C)'."""
        for token in doc:
            if token.lower_ in self.cues.method_nouns:
                for item in self._list_after(doc, token.i + 1, sentence_of):
                    yield Span(doc, item.start, item.end, label=NodeLabel.METHOD.value, kb_id="cue")

    def _list_items(self, doc: Doc, i: int, closer: str | None, sentence_of: _SentenceBounds):
        """Name-like items separated by ',', 'and', 'or' from token i to the end of the list."""
        if i >= len(doc):
            return
        sent_end = sentence_of.bounds(i)[1]
        start = None
        depth = 0
        last_item = False  # after 'and'/'or' the next item is the last one
        while i <= sent_end:
            text = doc[i].text if i < sent_end else "."
            if depth == 0 and (text == closer or (text == "," and last_item and start is not None)):
                text = "."
            if text in {"(", "["}:
                depth += 1
            elif text in {")", "]"}:
                depth = max(0, depth - 1)
            elif depth == 0 and text in {",", "and", "or", ".", ";", ":"}:
                if start is not None and _looks_like_name(doc[start:i]):
                    yield Span(doc, start, i, label=NodeLabel.DATASET.value, kb_id="cue")
                start = None
                last_item = last_item or text in {"and", "or"}
                if text not in {",", "and", "or"}:
                    return
            elif depth == 0 and start is None and doc[i].lower_ in {"the", "a", "an"}:
                pass
            elif depth == 0 and _ends_name_list(doc[i]):
                item = doc[start:i] if start is not None else None
                if item is not None and _looks_like_name(item) and not _modifies(item, doc[i], self.cues):
                    yield Span(doc, start, i, label=NodeLabel.DATASET.value, kb_id="cue")
                return
            elif depth == 0 and start is None:
                start = i
            i += 1

    def _name_before(self, doc: Doc, i: int):
        """'the D dataset', 'the A, B and C benchmarks': capitalised items right before a data noun
        (a capitalised data noun is part of the name: 'the Song Describer Dataset')."""
        end = i + 1 if doc[i].text[:1].isupper() and not doc[i].is_sent_start else i
        while end > 0:
            start = end
            while start > 0 and end - start < 4 and (
                    self._capitalised(doc[start - 1]) or (start == end and is_version(doc[start - 1].text))):
                start -= 1
            if start == end or is_version(doc[start].text) or (
                    doc[start].is_sent_start and not name_kind(doc[start].text)):
                return
            yield Span(doc, start, end, label=NodeLabel.DATASET.value, kb_id="cue")
            if start >= 2 and doc[start - 1].lower_ in {"and", "or", ","}:
                end = start - 2 if doc[start - 2].text == "," else start - 1
            else:
                return

    def _capitalised(self, token) -> bool:
        return (token.text[:1].isupper() or name_kind(token.text) is not None) and token.text not in self.not_names


class _SentenceBounds:
    """Per-token sentence bounds and per-sentence word sets of one Doc, computed once (token.sent
    walks the sentence on every call, which costs quadratic time on a long text)."""

    def __init__(self, doc: Doc) -> None:
        self.sentences = list(doc.sents)
        self.index = [0] * len(doc)
        for number, sent in enumerate(self.sentences):
            self.index[sent.start:sent.end] = [number] * len(sent)
        self._words: dict[int, set[str]] = {}

    def bounds(self, i: int) -> tuple[int, int]:
        """(start, end) token offsets of the sentence holding token i."""
        sent = self.sentences[self.index[i]]
        return sent.start, sent.end

    def words(self, i: int) -> set[str]:
        """The lower-case words of the sentence holding token i."""
        number = self.index[i]
        if number not in self._words:
            self._words[number] = {t.lower_ for t in self.sentences[number]}
        return self._words[number]


def _modifies(item: Span, following, cues: Cues) -> bool:
    """A plain capitalised word right before a lower-case word modifies it ('African languages'),
    unless that word is a data noun; a name shape (KittiSeg) is a name even there."""
    return (len(item) == 1 and name_kind(item.text) is None and following.lower_ not in cues.dataset_nouns)


def _ends_name_list(token) -> bool:
    """A lower-case word ('show', 'demonstrate') closes a list of names ('A, B and C show ...')."""
    return token.is_alpha and token.is_lower and token.lower_ not in {"of", "the", "and", "or"}


def _looks_like_name(span: Span) -> bool:
    """A list item that can name a data set: up to five tokens, starting with a capital or a
    name shape (3DMatch), not with a quantity ('40k hours')."""
    first = span[0].text if len(span) else ""
    return 0 < len(span) <= 5 and (first[:1].isupper() or name_kind(first) == "name")


@Language.factory("paperkg_candidates", assigns=["doc.spans"], requires=["token.is_sent_start"],
                  default_config={"cues": "cues.json", "not_names": "not_names.txt", "lexicon_key": LEXICON_KEY,
                                  "names_key": NAMES_KEY, "datasets_key": DATASETS_KEY, "methods_key": METHODS_KEY})
def make_candidate_finder(nlp: Language, name: str, cues: str, not_names: str, lexicon_key: str, names_key: str,
                          datasets_key: str, methods_key: str) -> CandidateFinder:
    """Factory: the cue words and the not-a-name list are data files of the component; the span groups
    read and written are settings."""
    return CandidateFinder(name, cues, not_names, lexicon_key=lexicon_key, names_key=names_key,
                           datasets_key=datasets_key, methods_key=methods_key)
