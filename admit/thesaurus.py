"""A user thesaurus (VOSviewer's idea): 'label<TAB>replace by' merges entities; an empty replacement drops one."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from paperkg.core.errors import PaperkgError
from paperkg.core.schema import Extraction, Mention

from paperkg.core.canonical import canonical_name


def read_thesaurus(path: Path) -> dict[str, str]:
    """Canonical term -> replacement ('' = drop), chains followed to their end (A->B, B->C: A->C); a header row
    'label<TAB>replace by' is allowed (after a BOM too); a cycle (A->B, B->A), and a label given again with
    another replacement, is an error naming the line."""
    rows: dict[str, tuple[str, int]] = {}
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except OSError as error:
        raise PaperkgError(f"{path}: cannot read the thesaurus ({error.strerror}).") from None
    except UnicodeDecodeError as error:
        raise PaperkgError(f"{path}: the thesaurus is not UTF-8 text (byte {error.start}); save it as UTF-8.") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2:
            raise PaperkgError(f"{path}:{number}: a thesaurus line needs exactly one tab: 'label<TAB>replace by'.")
        label, replacement = parts[0].strip(), parts[1].strip()
        if number == 1 and label.lower() == "label" and replacement.lower() == "replace by":
            continue
        earlier = rows.get(canonical_name(label))
        if earlier is not None and earlier[0] != replacement:
            raise PaperkgError(f"{path}:{number}: {label!r} is replaced by {earlier[0]!r} at line {earlier[1]} "
                               f"already, and by {replacement!r} here; keep one of the two lines.")
        rows[canonical_name(label)] = (replacement, number)
    return _follow_chains(rows, path)


def _follow_chains(rows: dict[str, tuple[str, int]], path: Path) -> dict[str, str]:
    """Each term's replacement looked up again until it is no term of the thesaurus (each chain walked once);
    a term met twice on one walk is a cycle, an error naming the line that closes it."""
    final: dict[str, str] = {}
    for term in rows:
        walked: dict[str, None] = {}  # the chain from `term`, in order
        current = term
        while current not in final:
            walked[current] = None
            replacement, number = rows[current]
            following = canonical_name(replacement) if replacement else ""
            if following == current or following not in rows:
                end = replacement
                break
            if following in walked:
                names = list(walked)
                cycle = " -> ".join([*names[names.index(following):], following])
                raise PaperkgError(f"{path}:{number}: replacing {current!r} by {replacement!r} closes a cycle "
                                   f"({cycle}) whose names would only trade places; remove one of its lines.")
            current = following
        else:
            end = final[current]
        final.update(dict.fromkeys(walked, end))
    return final


def apply_thesaurus(record: Extraction, thesaurus: dict[str, str]) -> tuple[Extraction, list[Mention]]:
    """The record with entities renamed or dropped (relations of dropped entities go too), and the dropped."""
    if not thesaurus:
        return record, []
    kept: list[Mention] = []
    dropped: list[Mention] = []
    new_index: dict[int, int] = {}
    for index, entity in enumerate(record.entities):
        replacement = _lookup(entity, thesaurus)
        if replacement == "":
            dropped.append(entity)
            continue
        if replacement is not None:
            entity = replace(entity, name=replacement, acronym=None)
        new_index[index] = len(kept)
        kept.append(entity)
    relations = [replace(rel, head=new_index[rel.head], tail=new_index[rel.tail])
                 for rel in record.relations if rel.head in new_index and rel.tail in new_index]
    return replace(record, entities=kept, relations=relations), dropped


def _lookup(entity: Mention, thesaurus: dict[str, str]) -> str | None:
    for term in (entity.name, entity.text, entity.acronym or ""):
        replacement = thesaurus.get(canonical_name(term)) if term else None
        if replacement is not None:
            return replacement
    return None
