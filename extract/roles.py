"""A paper's relation to each entity it mentions: proposes, addresses (tasks), evaluates_on (data sets), mentions."""
from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Span

from .cues import Cues
from .proposals import propose_cue_positions


def assign_roles(sentences: Sequence[Span], by_sentence: Sequence[list[Span]], cues: Cues) -> None:
    """Set span._.paperkg_role from the entity's type and the cue words of its sentence.

    `by_sentence[i]` holds the entities starting in `sentences[i]`. A data set is evaluated on
    when its sentence has an evaluation word, or reports a metric or the paper's proposal
    'on'/'across' data ('X reduces MSE on ETTh1').
    """
    for sent_index, (sent, in_sent) in enumerate(zip(sentences, by_sentence)):
        words = {t.lower_ for t in sent}
        proposes_here = bool(propose_cue_positions(sent, cues))
        measured = any(s.label_ == "Metric" or s._.paperkg_proposed for s in in_sent)
        for span in in_sent:
            if span._.paperkg_proposed:
                span._.paperkg_role = "proposes"
            elif span.label_ == "Task" and (sent_index == 0 or proposes_here or words & cues.address_words):
                span._.paperkg_role = "addresses"
            elif span.label_ == "Dataset" and (words & cues.eval_words or measured and words & cues.list_openers):
                span._.paperkg_role = "evaluates_on"
            else:
                span._.paperkg_role = "mentions"
