"""`paperkg eval acronyms --format defs|scier`: acronym definitions scored as (short form, long
form) pairs, on running text rather than on SDU's per-token labels.

defs: JSON lines {id, text, definitions: [{short_start, short_end, long_start, long_end}, ...]}
with character offsets into `text` (tests/data/acronyms_noncs_dev.jsonl is one). A predicted
definition is correct when both its short form and its long form have the gold offsets.

scier: SciER's JSON lines; every Synonym-Of pair whose two names both occur in the sentence is
a gold pair, and it is found when the pipeline defines one name by the other (either way
round). Synonym-Of also links names that are no acronyms, so only recall is reported: over all
such pairs, and over the pairs written as "name ( other name )" in the sentence.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc

from paperkg.core.errors import ExitCode, PaperkgError

from .acronym_baselines import schwartz_hearst_text

Pair = tuple[int, int, int, int]  # short_start, short_end, long_start, long_end (characters)
OFFSET_KEYS = ("short_start", "short_end", "long_start", "long_end")


@dataclass(frozen=True)
class DefinedText:
    """One text of a defs file and the definitions it holds."""

    id: str
    text: str
    definitions: frozenset[Pair]


def _json_lines(path: Path, what: str) -> list[tuple[int, dict]]:
    """(line number, object) of every non-blank line; one sentence naming the line that is not JSON."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise PaperkgError(f"{path}: cannot read the {what} file ({exc.strerror}).", ExitCode.USAGE) from exc
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PaperkgError(f"{path}:{number}: not valid JSON ({exc.msg}).", ExitCode.USAGE) from exc
        if not isinstance(row, dict):
            raise PaperkgError(f"{path}:{number}: expected a JSON object per line.", ExitCode.USAGE)
        rows.append((number, row))
    return rows


def read_definitions(path: str | Path) -> list[DefinedText]:
    """Read a defs file; name the line whose text or offsets are malformed."""
    path = Path(path)
    items = []
    for number, row in _json_lines(path, "definitions"):
        text, defs = row.get("text"), row.get("definitions")
        if not (isinstance(text, str) and isinstance(defs, list) and all(
                isinstance(d, dict) and all(isinstance(d.get(k), int) and 0 <= d[k] <= len(text) for k in OFFSET_KEYS)
                for d in defs)):
            raise PaperkgError(f"{path}:{number}: needs 'text' and 'definitions' with character offsets "
                               f"{', '.join(OFFSET_KEYS)} inside the text.", ExitCode.USAGE)
        pairs = frozenset(tuple(d[k] for k in OFFSET_KEYS) for d in defs)
        items.append(DefinedText(str(row.get("id", number)), text, pairs))
    return items


def predicted_pairs(doc: Doc) -> set[Pair]:
    """Character offsets of every definition the acronym component made in `doc`."""
    return {(short.start_char, short.end_char, long.start_char, long.end_char)
            for short, long in doc._.paperkg_acronym_definitions}


def _prf(correct: int, predicted: int, gold: int) -> dict[str, float]:
    precision = correct / predicted if predicted else 0.0
    recall = correct / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "gold": gold, "predicted": predicted,
            "correct": correct}


def _acronym_pipe(nlp: Language) -> list[str]:
    """Components to switch off: everything after the acronym component."""
    names = nlp.pipe_names
    return names[names.index("paperkg_acronyms") + 1:]


def run_definitions(path: str | Path, nlp: Language | None, predictions_out: str | Path | None = None) -> dict:
    """Score the pipeline's definitions on a defs file (`nlp` None: the Schwartz-Hearst baseline's on the
    same texts): pairs (both offsets right) and short forms alone (the short form right, whatever long form)."""
    items = read_definitions(path)
    started = time.perf_counter()
    if nlp is None:
        predicted = [set(schwartz_hearst_text(item.text)) for item in items]
    else:
        with nlp.select_pipes(disable=_acronym_pipe(nlp)):
            predicted = [predicted_pairs(doc) for doc in nlp.pipe(item.text for item in items)]
    seconds = time.perf_counter() - started
    gold = [item.definitions for item in items]
    pairs = _prf(sum(len(g & p) for g, p in zip(gold, predicted, strict=True)),
                 sum(map(len, predicted)), sum(map(len, gold)))
    shorts = [({d[:2] for d in g}, {d[:2] for d in p}) for g, p in zip(gold, predicted, strict=True)]
    short = _prf(sum(len(g & p) for g, p in shorts), sum(len(p) for _, p in shorts), sum(len(g) for g, _ in shorts))
    if predictions_out is not None:
        _write_errors(Path(predictions_out), items, predicted)
    return {"format": "defs", "file": str(path), "texts": len(items), "seconds": round(seconds, 3),
            "pairs": pairs, "short_forms": short}


def _write_errors(path: Path, items: list[DefinedText], predicted: list[set[Pair]]) -> None:
    """Missed and spurious definitions, as text, one JSON object per text that has either."""
    def show(text: str, pair: Pair) -> str:
        return f"{text[pair[0]:pair[1]]} = {text[pair[2]:pair[3]]}"

    rows = [{"id": item.id, "missed": [show(item.text, d) for d in sorted(item.definitions - p)],
             "spurious": [show(item.text, d) for d in sorted(p - item.definitions)]}
            for item, p in zip(items, predicted, strict=True) if item.definitions != p]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    tmp.replace(path)


def _bracketed(sentence: str, a: str, b: str) -> bool:
    return f"{a} ( {b} )" in sentence or f"{b} ( {a} )" in sentence


def run_scier_synonyms(path: str | Path, nlp: Language) -> dict:
    """Recall of SciER's Synonym-Of pairs among the pipeline's definitions (SciER sentences
    are tokenised already: the component reads their tokens as given)."""
    from spacy.vocab import Vocab

    component = nlp.get_pipe("paperkg_acronyms")
    vocab = Vocab()
    found = total = bracketed = found_bracketed = 0
    for number, row in _json_lines(Path(path), "SciER"):
        sentence, relations = row.get("sentence"), row.get("rel")
        if not isinstance(sentence, str) or not isinstance(relations, list):
            raise PaperkgError(f"{path}:{number}: needs 'sentence' and 'rel' (SciER's layout).", ExitCode.USAGE)
        pairs = [(r[0], r[2]) for r in relations if len(r) == 3 and r[1] == "Synonym-Of"
                 and f" {r[0]} " in f" {sentence} " and f" {r[2]} " in f" {sentence} "]
        if not pairs:
            continue
        doc = component(Doc(vocab, words=sentence.split()))
        defined = {frozenset((s.text, lf.text)) for s, lf in doc._.paperkg_acronym_definitions}
        for a, b in pairs:
            hit = frozenset((a, b)) in defined
            total += 1
            found += hit
            if _bracketed(sentence, a, b):
                bracketed += 1
                found_bracketed += hit
    return {"format": "scier", "file": str(path),
            "synonym_pairs": {"gold": total, "found": found, "recall": found / total if total else 0.0},
            "bracketed_pairs": {"gold": bracketed, "found": found_bracketed,
                                "recall": found_bracketed / bracketed if bracketed else 0.0}}


def format_report(result: dict) -> str:
    """Human-readable report of run_definitions() or run_scier_synonyms()."""
    if result["format"] == "scier":
        lines = [f"SciER Synonym-Of pairs on {result['file']}"]
        for name in ("synonym_pairs", "bracketed_pairs"):
            s = result[name]
            lines.append(f"  {name.replace('_', ' '):<16} found {s['found']} of {s['gold']}  R {s['recall']:.4f}")
        return "\n".join(lines)
    lines = [f"acronym definitions on {result['file']}: {result['texts']} texts, {result['seconds']} s"]
    for name in ("pairs", "short_forms"):
        s = result[name]
        lines.append(f"  {name.replace('_', ' '):<12} P {s['precision']:.4f}  R {s['recall']:.4f}  F1 {s['f1']:.4f}"
                     f"  ({s['correct']} correct, {s['predicted']} predicted, {s['gold']} gold)")
    return "\n".join(lines)
