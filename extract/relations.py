"""Sentence-level cue relations between entities: USED_FOR, EVALUATED_ON, COMPARED_WITH, IS_A."""
from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from .cues import Cues, load_cues
from .extensions import ensure_extensions

_MAX_GAP = 12  # tokens between the two entities of a cue relation


class RelationFinder:
    """Writes doc._.relations: dicts with type, head and tail (indices into doc.spans['entities'])."""

    def __init__(self, cues: Cues) -> None:
        ensure_extensions()
        self.cues = cues

    def __call__(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get("entities", []))
        proposed = [i for i, e in enumerate(entities) if e._.proposed and e.label_ == "Method"]
        proposed_names = {entities[i]._.canonical for i in proposed}
        relations: dict[tuple[str, int, int], dict] = {}
        for sent_index, sent in enumerate(doc.sents):
            idx = [i for i, e in enumerate(entities) if sent.start <= e.start < sent.end]
            words = {t.lower_ for t in sent}
            for a in idx:
                for b in idx:
                    if a != b and entities[a].start < entities[b].start:
                        self._pair(doc, entities, a, b, sent_index, relations)
            if words & self.cues.eval_words and len(proposed_names) == 1:
                self._evaluated_on_proposed(entities, idx, proposed[0], sent_index, relations)
        doc._.relations = sorted(relations.values(), key=lambda r: (r["sentence"], r["head"], r["tail"], r["type"]))
        return doc

    def _pair(self, doc: Doc, ents: list[Span], a: int, b: int, sent: int, out: dict) -> None:
        first, second = ents[a], ents[b]
        between = doc[first.end:second.start]
        if len(between) > _MAX_GAP:
            return
        words = {t.lower_ for t in between}
        if any(t.lower_ in self.cues.clause_breaks for t in between):
            return
        kinds = (first.label_, second.label_)
        if kinds == ("Method", "Task") and words & self.cues.use_for_words:
            _add(out, "USED_FOR", a, b, sent, 0.7)
        elif kinds == ("Method", "Dataset") and words & (self.cues.eval_words | {"on"}):
            _add(out, "EVALUATED_ON", a, b, sent, 0.7)
        elif kinds == ("Method", "Method") and words & self.cues.compare_words:
            _add(out, "COMPARED_WITH", a, b, sent, 0.6)
        elif first.label_ == second.label_ and _is_apposition(between):
            _add(out, "IS_A", a, b, sent, 0.5)

    def _evaluated_on_proposed(self, ents: list[Span], idx: list[int], method: int, sent: int, out: dict) -> None:
        """'Experiments on CIFAR-10 ...': the paper's single proposed method is evaluated on the data sets."""
        for i in idx:
            if ents[i].label_ == "Dataset" and ents[i]._.role == "evaluates_on":
                _add(out, "EVALUATED_ON", method, i, sent, 0.5)


def _is_apposition(between: Span) -> bool:
    """'X, a Y' / 'X is a Y' with at most a few modifiers in between."""
    words = [t.lower_ for t in between]
    return len(words) <= 5 and (words[:2] in ([",", "a"], [",", "an"], ["is", "a"], ["is", "an"]))


def _add(out: dict, kind: str, head: int, tail: int, sent: int, confidence: float) -> None:
    key = (kind, head, tail)
    if key not in out:
        out[key] = {"type": kind, "head": head, "tail": tail, "sentence": sent, "source": "cue",
                    "confidence": confidence}


@Language.factory("paperkg_relations", default_config={"cues": "cues.json"})
def make_relation_finder(nlp: Language, name: str, cues: str) -> RelationFinder:
    """Factory: cue words are a data file under extract/data/."""
    return RelationFinder(load_cues(cues))
