"""A paper's relation to each entity it mentions: proposes, addresses (tasks), evaluates_on (data sets), mentions."""
from __future__ import annotations

from spacy.tokens import Doc, Span

from .cues import Cues
from .proposals import propose_cue_positions


def assign_roles(doc: Doc, spans: list[Span], cues: Cues) -> None:
    """Set span._.role from the entity's type and the cue words of its sentence.

    A data set is evaluated on when its sentence has an evaluation word, or reports a metric
    or the paper's proposal 'on'/'across' data ('X reduces MSE on ETTh1').
    """
    for sent_index, sent in enumerate(doc.sents):
        words = {t.lower_ for t in sent}
        proposes_here = bool(propose_cue_positions(sent, cues))
        in_sent = [s for s in spans if sent.start <= s.start < sent.end]
        measured = any(s.label_ == "Metric" or s._.proposed for s in in_sent)
        for span in in_sent:
            if span._.proposed:
                span._.role = "proposes"
            elif span.label_ == "Task" and (sent_index == 0 or proposes_here or words & cues.address_words):
                span._.role = "addresses"
            elif span.label_ == "Dataset" and (words & cues.eval_words or measured and words & cues.list_openers):
                span._.role = "evaluates_on"
            else:
                span._.role = "mentions"
