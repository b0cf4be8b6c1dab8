"""Which entities a paper proposes: names after 'we propose/introduce ...', appositions
('X, a novel framework'; 'a ... method, X'), 'our proposed X' and 'dubbed X'."""
from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Doc, Span

from paperkg.core.schema import NodeLabel

from .candidates import reads_as_name
from .cues import Cues
from .termhood import Termhood
from .typing import HeadNouns


def is_name_like(span: Span) -> bool:
    """A name rather than a common noun phrase: an acronym, a name shape or a capitalised term."""
    return span._.paperkg_source in {"acronym", "name"} or reads_as_name(span)


def propose_cue_positions(sent: Span, cues: Cues) -> list[int]:
    """Token indices of propose verbs with a first-person or 'this paper' subject nearby, or gerunds."""
    positions = []
    for token in sent:
        if token.lower_ not in cues.propose_verbs:
            continue
        before = {t.lower_ for t in sent.doc[max(sent.start, token.i - 4):token.i]}
        if before & cues.propose_subjects or token.lower_.endswith("ing"):
            positions.append(token.i)
    return positions


class ProposalRules:
    """The proposal cues of one pipeline: cue words, head nouns, the two window sizes, and the corpus
    frequency from which a term is the field's (not a paper's own) name."""

    def __init__(self, cues: Cues, head_nouns: HeadNouns, termhood: Termhood, window: int, apposition_span: int,
                 established_df: int) -> None:
        self.cues = cues
        self.head_nouns = head_nouns
        self.termhood = termhood
        self.window = window                    # tokens after a propose cue in which the name is looked for
        self.apposition_span = apposition_span  # tokens of ", a novel ... framework" after a name
        self.established_df = established_df    # abstracts of the corpus naming a term that no paper "proposes"

    def established(self, span: Span) -> bool:
        """A term of the field (the lexicon knows it, or many abstracts of the corpus use it): a
        generic parent such as 'graph transformer' is not what one paper proposes. The corpus counts
        lower-cased phrases, so it does not judge a name ('MATS' is not the word 'mats')."""
        if span._.paperkg_source == "lexicon":
            return True
        return not is_name_like(span) and self.termhood.document_frequency(span.text) >= self.established_df

    def mark(self, doc: Doc, spans: list[Span], sentences: Sequence[Span],
             by_sentence: Sequence[list[Span]]) -> None:
        """Set span._.paperkg_proposed on the entities the paper proposes, and on every mention of them.

        `by_sentence[i]` holds the spans starting in `sentences[i]`. A name in apposition to a
        data noun ('OpenBench, a benchmark of ...') is a proposed Dataset.
        """
        cues = self.cues
        proposed: dict[str, str | None] = {}
        for sent, in_sent in zip(sentences, by_sentence):
            cue_positions = propose_cue_positions(sent, cues)
            first_person = any(t.lower_ in {"we", "our"} for t in sent)
            named = {s.start: self._naming_kind(doc, sent, s) for s in in_sent if self._after_naming_word(doc, s)}
            for pos in [] if named else cue_positions:
                target = self._first_name_after(in_sent, pos, doc)
                if target is not None:
                    proposed.setdefault(target._.paperkg_canonical, None)
            for span in in_sent:
                if self.established(span):
                    continue
                new_name = first_person and self.termhood.document_frequency(span.text) == 0
                kind = self._apposition_kind(doc, span, bool(cue_positions) or new_name)
                if kind is not None or span.start in named:
                    label = self._label_of_kind(kind or named[span.start])
                    proposed[span._.paperkg_canonical] = label or proposed.get(span._.paperkg_canonical)
        for span in spans:
            if span._.paperkg_canonical not in proposed:
                continue
            label = proposed[span._.paperkg_canonical]
            if label is not None:
                span.label_ = label
            elif span.label_ in {NodeLabel.DATASET.value, NodeLabel.METRIC.value}:
                continue
            elif span.label_ == NodeLabel.TASK.value:
                span.label_ = NodeLabel.METHOD.value  # a paper proposes a way of doing the task, named by it
            span._.paperkg_proposed = True

    def _label_of_kind(self, kind: str | None) -> str | None:
        """The type a kind noun gives the name it describes: a data noun a Dataset, another kind a Method."""
        if kind is None or kind == "proposed":
            return None
        return NodeLabel.DATASET.value if kind in self.cues.dataset_nouns else NodeLabel.METHOD.value

    def _naming_kind(self, doc: Doc, sent: Span, span: Span) -> str | None:
        """The kind noun nearest before '..., named X' in its sentence ('a foundation model ..., named X')."""
        for token in reversed(doc[max(sent.start, span.start - self.apposition_span - 2):span.start]):
            if self._is_kind_noun(token.lower_):
                return token.lower_
        return None

    def _first_name_after(self, spans: list[Span], pos: int, doc: Doc) -> Span | None:
        for span in spans:
            if span.start <= pos or span.start - pos > self.window:
                continue
            if any(t.lower_ in self.cues.clause_breaks for t in doc[pos + 1:span.start]):
                return None
            if (is_name_like(span) and span.label_ not in {NodeLabel.DATASET.value, NodeLabel.METRIC.value}
                    and not self.established(span)):
                return span
        return None

    def _apposition_kind(self, doc: Doc, span: Span, sentence_proposes: bool) -> str | None:
        """The kind noun naming a proposal by apposition, or None.

        'X, a novel framework ...' (a novelty word or a proposing sentence needed), 'X is a novel
        ... method' (a novelty word needed), 'a ... method, X' in a proposing sentence, 'our
        approach, X', 'our proposed X'.
        """
        if not is_name_like(span):
            return None
        cues = self.cues
        end, start = span.end, span.start
        after = [t.lower_ for t in doc[end:min(len(doc), end + 3)]]
        if after[:2] in ([",", "a"], [",", "an"], [",", "the"], ["is", "a"], ["is", "an"]):
            window = [t.lower_ for t in doc[end + 2:min(len(doc), end + 2 + self.apposition_span)]]
            kind = next((w for w in window if self._is_kind_noun(w)), None)
            copula = after[0] == "is"
            if kind and ((sentence_proposes and not copula) or any(w in cues.novelty_words for w in window[:4])):
                return kind
        if start >= 2 and doc[start - 1].text == "," and doc[start - 2].lower_ in cues.kind_nouns:
            if sentence_proposes or (start >= 3 and doc[start - 3].lower_ == "our"):
                return doc[start - 2].lower_
        if start >= 2 and doc[start - 2].lower_ == "our" and doc[start - 1].lower_ == "proposed":
            return "proposed"
        return None

    def _is_kind_noun(self, word: str) -> bool:
        """A noun naming what was proposed: a cue kind noun, a data noun, or a Method/Dataset head word."""
        return (word in self.cues.kind_nouns or word in self.cues.dataset_nouns
                or self.head_nouns.label_of_word(word) in {NodeLabel.METHOD.value, NodeLabel.DATASET.value})

    def _after_naming_word(self, doc: Doc, span: Span) -> bool:
        """'... dubbed X', 'named X', 'called X', 'which we refer to as X'."""
        before = [t.lower_ for t in doc[max(0, span.start - 4):span.start]]
        return is_name_like(span) and (any(w in self.cues.naming_words for w in before[-2:])
                                       or any(" ".join(before).endswith(p) for p in self.cues.naming_phrases))
