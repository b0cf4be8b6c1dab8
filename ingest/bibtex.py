"""BibTeX entries through bibtexparser v2, as fields for the record builder.

bibtexparser splits the file, resolves @string macros and removes the enclosing braces or
quotes; its co-author and name-part parsing read author lists the BibTeX way ("{Johnson and
Johnson}" is one author, "von Last, Jr, First" reads "First von Last Jr"). Two things it does
not do are done here: `#` concatenation (bibtexparser issue #396) and names it cannot split
("Doe, J., Jr., extra" is kept as written rather than losing the entry). Values keep their
inner braces and LaTeX: the normaliser reads those for every format alike.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.middlewares import BlockMiddleware, SeparateCoAuthors, default_parse_stack
from bibtexparser.middlewares.names import parse_single_name_into_parts
from bibtexparser.model import DuplicateBlockKeyBlock, Entry, ParsingFailedBlock, String

# bibtexparser logs each malformed block; the reader reports it as file:line instead.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

_PART = r'\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}|"[^"]*"|[^\s#"{}]+'
_CONCATENATION = re.compile(rf"\s*(?:{_PART})(?:\s*#\s*(?:{_PART}))+\s*")
_PARTS = re.compile(_PART)


@dataclass(frozen=True)
class BibtexEntry:
    """One entry's fields (lower-case names, authors as "First Last"), its first line, or
    what is wrong with it."""

    line: int
    fields: dict[str, object] = field(default_factory=dict)
    problem: str | None = None


class BibtexReader:
    """Reads a BibTeX file a chunk of whole entries at a time: the @string macros and citation keys of the
    chunks read so far hold for the next ones."""

    def __init__(self) -> None:
        self.macros: list[str] = []
        self.keys: set[str] = set()

    def entries(self, text: str, first_line: int = 1) -> Iterator[BibtexEntry]:
        """The entries of one chunk (starting at line `first_line` of its file) in file order; a malformed
        entry or a repeated citation key is a problem entry (BibTeX itself refuses a repeated key) and reading
        goes on."""
        macros = "".join(f"{macro}\n" for macro in self.macros)
        shift = macros.count("\n")
        stack = [_Concatenation(), *default_parse_stack(), SeparateCoAuthors()]
        library = bibtexparser.parse_string(macros + text, parse_stack=stack)
        for block in library.blocks:
            start = block.start_line or 0  # bibtexparser's blocks parsed from text always have one
            if start < shift:
                continue  # the earlier chunks' macros, read again
            line = start - shift + first_line
            if isinstance(block, String):
                self.macros.append(block.raw or "")
            elif isinstance(block, Entry) and block.key in self.keys:
                yield BibtexEntry(line, problem=f"citation key {block.key!r} is used by an earlier entry")
            elif isinstance(block, Entry):
                self.keys.add(block.key)
                yield BibtexEntry(line, _record_fields(block))
            elif isinstance(block, DuplicateBlockKeyBlock):
                yield BibtexEntry(line, problem=f"citation key {block.key!r} is used by an earlier entry")
            elif isinstance(block, ParsingFailedBlock):
                yield BibtexEntry(line, problem=getattr(block.error, "abort_reason", None) or str(block.error))


def _record_fields(entry: Entry) -> dict[str, object]:
    fields: dict[str, object] = {item.key.lower(): item.value for item in entry.fields}
    authors = fields.get("author")
    if isinstance(authors, list):
        fields["author"] = [parse_single_name_into_parts(name, strict=False).merge_first_name_first
                            for name in authors]
    return fields


class _Concatenation(BlockMiddleware):
    """`booktitle = icml # " 2024"`: the parts joined, macros resolved, enclosed in braces
    for the enclosing-removal middleware that runs next."""

    def transform_entry(self, entry: Entry, library: Library) -> Entry:
        for item in entry.fields:
            if isinstance(item.value, str) and _CONCATENATION.fullmatch(item.value):
                parts = (_part_value(part, library) for part in _PARTS.findall(item.value))
                item.value = "{" + "".join(parts) + "}"
        return entry


def _part_value(part: str, library: Library) -> str:
    """A quoted or braced part as its text, a macro name as the macro's text."""
    macros = {key.lower(): string.value for key, string in library.strings_dict.items()}
    value = macros.get(part.lower(), part) if not part.startswith(("{", '"')) else part
    return value[1:-1] if value.startswith(("{", '"')) else value
