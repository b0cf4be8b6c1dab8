"""From one input record's raw fields (any reader, any layout) to a PaperRecord.

Field names are matched through ingest/data/field_aliases.tsv, so the arXiv metadata
snapshot, Semantic Scholar, CSL-JSON, BibTeX and plain id/title/abstract inputs all work.

Paper ids are stable: the record's own id where it has one, normalised so that one paper
keeps one id (arXiv ids lose an "arXiv:" prefix, URL form and version suffix:
"arXiv:2101.00001v2" -> "2101.00001"; DOIs lose their resolver prefix and are lower-cased,
DOIs being case-insensitive); otherwise "h" + the first 16 hex digits of the SHA-256 of the
normalised abstract (case-folded, whitespace collapsed), so the same abstract read from two
files, or read again later, is the same paper.

A record is refused (RecordError, which the readers report as `file:line`) when a field it
uses is not valid Unicode (bytes that are not UTF-8, a lone surrogate from a JSON escape) or
its abstract is longer than `max_abstract_chars` (MAX_ABSTRACT_CHARS by default: the longest
of the 126,678 real abstracts in the shared corpus has 12,694 characters; spaCy refuses a text over
1,000,000). Control characters are taken out of every field, the id included.
"""
from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from paperkg.core.characters import SURROGATE_ESCAPES, first_surrogate, replace_invalid_characters
from paperkg.core.schema import PaperRecord
from paperkg.ingest.normalize import normalize_inline, normalize_text
from paperkg.ingest.tables import read_table

MAX_ABSTRACT_CHARS = 100_000  # a longer abstract is skipped with a warning (read_records' max_abstract_chars)


class RecordError(ValueError):
    """A raw record that cannot become a paper (the message says why)."""


_ARXIV_ID = re.compile(
    r"(?:arxiv:\s*|https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)?"
    r"(\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?",
    re.IGNORECASE,
)
_DOI = re.compile(r"(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?(10\.\d{4,9}/\S+)", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|2[01]\d\d)(?!\d)")
_SPACED_INITIAL_HYPHEN = re.compile(r"(?<=\.)\s+-(?=\w)")  # arXiv's "C. -P." for "C.-P."
_AUTHOR_AND = re.compile(r"\s*,?\s+and\s+|\s*&\s*", re.IGNORECASE)


def record_from_fields(raw: Mapping[str, Any], source: str, *,
                       max_abstract_chars: int = MAX_ABSTRACT_CHARS) -> PaperRecord:
    """Build the PaperRecord for one raw input record; RecordError when it has no abstract,
    too long an abstract, or a field that is not valid Unicode."""
    fields = _canonical_fields(raw)
    for name, value in fields.items():
        if problem := next(filter(None, map(undecodable, _strings(value))), None):
            raise RecordError(f"the {name} is {problem}")
    abstract = _abstract_text(fields.get("abstract"))
    if not abstract or _placeholder(abstract):
        raise RecordError("record has no abstract" + (f" ({abstract[:60]!r} stands in for one)" if abstract else ""))
    if len(abstract) > max_abstract_chars:
        raise RecordError(f"abstract of {len(abstract):,} characters is over the limit of {max_abstract_chars:,} "
                          "(max_abstract_chars)")
    normalized = normalize_text(abstract)
    if not normalized.text:
        raise RecordError("abstract is empty once markup and links are removed")
    if not any(char.isalpha() for char in normalized.text):
        raise RecordError(f"the abstract {normalized.text[:40]!r} holds no word")
    own_id = normalize_paper_id(_id_text(fields.get("id")))
    paper_id = own_id or text_paper_id(normalized.text)
    return PaperRecord(
        id=paper_id,
        abstract=normalized.text,
        title=normalize_inline(_as_text(fields.get("title"))) or None,
        year=find_year(fields.get("year")),
        venue=normalize_inline(_as_text(fields.get("venue"))) or None,
        authors=parse_authors(fields.get("authors")),
        url=_clean(_as_text(fields.get("url"))) or _url_for_id(own_id),
        code_url=_clean(_as_text(fields.get("code_url"))) or normalized.code_url,
        source=source,
    )


def _abstract_text(value: Any) -> str:
    """The abstract as text: a string, or an OpenAlex abstract_inverted_index ({word: [positions]}) put back in
    order; RecordError for anything else (a number, a list, another object is not an abstract)."""
    if value is None or isinstance(value, str):
        text = (value or "").strip()
        if written_out(text):
            raise RecordError(f"the abstract {text[:40]!r} is a list or object written out as text, not an abstract")
        return text
    if isinstance(value, Mapping) and value and all(
            isinstance(word, str) and isinstance(places, list) and all(type(place) is int for place in places)
            for word, places in value.items()):
        words = sorted((place, word) for word, places in value.items() for place in places)
        return " ".join(word for _, word in words).strip()
    raise RecordError(f"the abstract is {_kind(value)}, not text")


def written_out(text: str) -> bool:
    """Whether a text is a whole JSON or Python list or object ("[false]", "{'x': 1}"), as a spreadsheet cell
    holding one is."""
    if not (text[:1] in "[{" and text[-1:] in "]}" and len(text) <= MAX_WRITTEN_OUT):
        return False
    for parse in (json.loads, ast.literal_eval):
        try:
            return isinstance(parse(text), (list, dict, set, tuple))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return False


MAX_WRITTEN_OUT = 10_000  # longer texts are not looked at (a real abstract is never a whole JSON value anyway)


def _id_text(value: Any) -> str:
    """A record's own id as text: a string or a whole number; RecordError for anything else."""
    if value is None or isinstance(value, str):
        return value or ""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    raise RecordError(f"the id is {_kind(value)}, not text or a whole number")


def _kind(value: Any) -> str:
    """What a JSON value is, for a warning (never its text: it may be long)."""
    names = {bool: "true or false", int: "a number", float: "a number", list: "a list", tuple: "a list",
             dict: "an object"}
    return next((name for kind, name in names.items() if isinstance(value, kind)), type(value).__name__)


def _placeholder(abstract: str) -> bool:
    """Whether the abstract is what an export writes when there is none ("[No abstract available]")."""
    return len(abstract) < 60 and _PLACEHOLDER_NOISE.sub(" ", abstract.casefold()).strip() in abstract_placeholders()


_PLACEHOLDER_NOISE = re.compile(r"[\W_]+")


@cache
def abstract_placeholders() -> frozenset[str]:
    """The placeholders of ingest/data/abstract_placeholders.tsv."""
    return frozenset(row[0] for row in read_table("abstract_placeholders.tsv"))


def undecodable(text: str) -> str | None:
    """Why a text read from a file is not valid Unicode, or None when it is: bytes that are not
    UTF-8 (kept by the readers as surrogate escapes) or a lone surrogate (a JSON escape)."""
    index = first_surrogate(text)
    if index < 0:
        return None
    code = ord(text[index])
    if code in SURROGATE_ESCAPES:
        return f"not valid UTF-8 (byte 0x{code - 0xDC00:02X} at character {index + 1})"
    return f"not valid Unicode (a lone surrogate U+{code:04X} at character {index + 1})"


def text_paper_id(abstract: str) -> str:
    """The id of a paper that has none of its own: a hash of its normalised abstract."""
    key = " ".join(abstract.casefold().split())
    return "h" + hashlib.sha256(key.encode("utf8")).hexdigest()[:16]


def normalize_paper_id(raw_id: str) -> str:
    """A record's own id in canonical form ('' when there is none); see the module docstring."""
    raw_id = _clean(raw_id)
    if match := _ARXIV_ID.fullmatch(raw_id):
        return match.group(1)
    if match := _DOI.fullmatch(raw_id):
        return match.group(1).lower()
    return raw_id


def find_year(value: Any) -> int | None:
    """The publication year in a number, a date string, an arXiv `versions` list (first
    version) or a CSL date object; None when there is none."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value if 1800 <= value <= 2199 else None
    if isinstance(value, float):
        return find_year(int(value)) if value.is_integer() else None
    if isinstance(value, str):
        match = _YEAR.search(value)
        return int(match.group(1)) if match else None
    if isinstance(value, Mapping):
        candidates = [value[key] for key in ("created", "date", "date-parts", "year") if key in value]
        return next((y for y in map(find_year, candidates or value.values()) if y), None)
    if isinstance(value, (list, tuple)) and value:
        return find_year(value[0])
    return None


def parse_authors(value: Any) -> list[str]:
    """Author names from a list (strings, arXiv [last, first, suffix] triples, or objects with
    name / given+family / first+last) or one string ("A and B", "A, B and C", "A; B",
    BibTeX "Last, First and Last, First")."""
    if value is None:
        return []
    if isinstance(value, str):
        names = _split_author_string(value)
    elif isinstance(value, Mapping):
        names = [_author_from_object(value)]
    elif isinstance(value, (list, tuple)):
        names = [_author_from_item(item) for item in value]
    else:
        names = [_as_text(value)]
    return [name for name in (normalize_inline(n) for n in names) if name]


def _split_author_string(text: str) -> list[str]:
    text = " ".join(text.split())
    parts = text.split(";") if ";" in text else _AUTHOR_AND.split(text)
    if len(parts) > 1 and all(part.count(",") == 1 for part in parts):
        return [" ".join(reversed(part.split(","))) for part in parts]  # BibTeX's, Web of Science's "Last, First"
    return parts if ";" in text else [name for part in parts for name in part.split(",")]


def _author_from_item(item: Any) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, Mapping):
        return _author_from_object(item)
    if isinstance(item, (list, tuple)):  # arXiv authors_parsed: [last, first, suffix]
        last, first, *rest = [*map(_as_text, item), "", ""]
        return _SPACED_INITIAL_HYPHEN.sub("-", " ".join([first, last, *rest]))
    return _as_text(item)


def _author_from_object(item: Mapping[str, Any]) -> str:
    lowered = {str(key).lower(): value for key, value in item.items()}
    if lowered.get("name"):
        return _as_text(lowered["name"])
    given = lowered.get("given") or lowered.get("first") or lowered.get("forenames") or ""
    family = lowered.get("family") or lowered.get("last") or lowered.get("keyname") or ""
    return f"{_as_text(given)} {_as_text(family)}"


def _url_for_id(paper_id: str) -> str | None:
    if _ARXIV_ID.fullmatch(paper_id):
        return f"https://arxiv.org/abs/{paper_id}"
    if _DOI.fullmatch(paper_id):
        return f"https://doi.org/{paper_id}"
    return None


def _clean(text: str) -> str:
    """A one-line field: characters no output can hold replaced, whitespace collapsed."""
    return " ".join(replace_invalid_characters(text).split())


def _strings(value: Any) -> Iterator[str]:
    """Every string in a field value, however nested (authors are lists of objects)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def _as_text(value: Any) -> str:
    """A field value as text: lists of strings are joined, None and an object are ''."""
    if value is None or isinstance(value, Mapping):
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(_as_text(item) for item in value)
    return str(value)


@cache
def field_aliases() -> dict[str, str]:
    """Input field name (as `field_key` spells it) -> record field, in priority order."""
    return {alias: field for alias, field in read_table("field_aliases.tsv")}


def field_key(name: str) -> str:
    """An input field name as the alias table spells it: lower case, '-' and ' ' as '_'."""
    return re.sub(r"[-\s]+", "_", name.strip().lower())


def _canonical_fields(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Record fields from input fields: the first alias present and non-empty wins."""
    by_key = {field_key(str(name)): value for name, value in raw.items() if name is not None}
    fields: dict[str, Any] = {}
    for alias, field in field_aliases().items():
        value = by_key.get(alias)
        if field not in fields and value not in (None, "", [], {}):
            fields[field] = value
    return fields
