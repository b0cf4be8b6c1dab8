"""Sentence-level cue relations between entities: USED_FOR, EVALUATED_ON, COMPARED_WITH, IS_A."""
from __future__ import annotations

from collections.abc import Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span

from paperkg.core.schema import NodeLabel, RelType, Relation

from .cues import Cues
from .entities import SPANS_KEY as ENTITIES_KEY
from .extensions import register_extensions
from .resources import DataComponent, DataFiles
from .sentence_spans import group_by_sentence


class RelationFinder(DataComponent):
    """Writes doc._.paperkg_relations: Relation records whose head and tail index the entity span group
    (doc.spans[entities_key])."""

    def __init__(self, name: str, cues: str, max_gap: int, confidence: dict[str, float], entities_key: str) -> None:
        super().__init__(name, (cues,))
        register_extensions()
        self.cues_file = cues
        self.max_gap = max_gap  # tokens between the two entities of a cue relation
        self.confidence = dict(confidence)
        self.entities_key = entities_key

    def build(self, data: DataFiles) -> None:
        self.cues = Cues.from_data(data, self.cues_file)

    def process(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get(self.entities_key, []))
        index = {(e.start, e.end): i for i, e in enumerate(entities)}
        proposed = [i for i, e in enumerate(entities) if e._.paperkg_proposed and e.label_ == NodeLabel.METHOD.value]
        proposed_names = {entities[i]._.paperkg_canonical for i in proposed}
        relations: dict[tuple[RelType, int, int], Relation] = {}
        sentences = list(doc.sents)
        for sent_index, (sent, in_sent) in enumerate(zip(sentences, group_by_sentence(sentences, entities))):
            idx = [index[(e.start, e.end)] for e in in_sent]
            for a, b in self._near_pairs(entities, idx):
                self._pair(doc, entities, a, b, sent_index, relations)
            if len(proposed_names) == 1 and {t.lower_ for t in sent} & self.cues.eval_words:
                self._evaluated_on_proposed(entities, idx, proposed[0], sent_index, relations)
        doc._.paperkg_relations = sorted(relations.values(), key=lambda r: (r.sentence, r.head, r.tail, r.type.value))
        return doc

    def _near_pairs(self, ents: list[Span], idx: list[int]) -> Iterator[tuple[int, int]]:
        """(a, b) with a starting before b and at most max_gap tokens between them: by start, each entity only
        meets the few after it (all pairs of a sentence are quadratic in its entities, thousands in nesting)."""
        by_start = sorted(idx, key=lambda i: ents[i].start)
        for position, a in enumerate(by_start):
            for later in range(position + 1, len(by_start)):
                b = by_start[later]
                if ents[b].start - ents[a].end > self.max_gap:
                    break
                if ents[a].start < ents[b].start:
                    yield a, b

    def _pair(self, doc: Doc, ents: list[Span], a: int, b: int, sent: int, out: dict) -> None:
        first, second = ents[a], ents[b]
        between = doc[first.end:second.start]
        if len(between) > self.max_gap:
            return
        words = {t.lower_ for t in between}
        if any(t.lower_ in self.cues.clause_breaks for t in between):
            return
        kinds = (first.label_, second.label_)
        if kinds == (NodeLabel.METHOD.value, NodeLabel.TASK.value) and words & self.cues.use_for_words:
            self._add(out, RelType.USED_FOR, a, b, sent, self.confidence["USED_FOR"])
        elif kinds == (NodeLabel.METHOD.value, NodeLabel.DATASET.value) and words & (self.cues.eval_words | {"on"}):
            self._add(out, RelType.EVALUATED_ON, a, b, sent, self.confidence["EVALUATED_ON"])
        elif kinds == (NodeLabel.METHOD.value, NodeLabel.METHOD.value) and words & self.cues.compare_words:
            self._add(out, RelType.COMPARED_WITH, a, b, sent, self.confidence["COMPARED_WITH"])
        elif first.label_ == second.label_ and _is_apposition(between):
            self._add(out, RelType.IS_A, a, b, sent, self.confidence["IS_A"])

    def _evaluated_on_proposed(self, ents: list[Span], idx: list[int], method: int, sent: int, out: dict) -> None:
        """'Experiments on CIFAR-10 ...': the paper's single proposed method is evaluated on the data sets."""
        for i in idx:
            if ents[i].label_ == NodeLabel.DATASET.value and ents[i]._.paperkg_role == "evaluates_on":
                self._add(out, RelType.EVALUATED_ON, method, i, sent, self.confidence["EVALUATED_ON_PROPOSED"])

    @staticmethod
    def _add(out: dict, kind: RelType, head: int, tail: int, sent: int, confidence: float) -> None:
        out.setdefault((kind, head, tail), Relation(kind, head, tail, sent, "cue", confidence))


def _is_apposition(between: Span) -> bool:
    """'X, a Y' / 'X is a Y' with at most a few modifiers in between."""
    words = [t.lower_ for t in between]
    return len(words) <= 5 and (words[:2] in ([",", "a"], [",", "an"], ["is", "a"], ["is", "an"]))


@Language.factory(
    "paperkg_relations",
    assigns=["doc._.paperkg_relations"],
    requires=["doc.spans", "span._.paperkg_role", "span._.paperkg_proposed"],
    default_config={"cues": "cues.json", "max_gap": 12,
                    "confidence": {"USED_FOR": 0.7, "EVALUATED_ON": 0.7, "COMPARED_WITH": 0.6, "IS_A": 0.5,
                                   "EVALUATED_ON_PROPOSED": 0.5},
                    "entities_key": ENTITIES_KEY},
)
def make_relation_finder(nlp: Language, name: str, cues: str, max_gap: int,
                         confidence: dict[str, float], entities_key: str) -> RelationFinder:
    """Factory: the window, the confidences and the entity span group are settings; the cue words are a data file."""
    return RelationFinder(name, cues, max_gap, confidence, entities_key)
