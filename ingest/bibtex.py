"""A small BibTeX reader: entries with their fields, enough for abstracts in .bib files.

Values keep their inner braces and LaTeX (the normaliser deals with those); `#`
concatenation and @string macros are honoured; @comment and @preamble are skipped.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

_ENTRY_START = re.compile(r"@\s*([A-Za-z]+)\s*([{(])")
_KEY = re.compile(r"\s*([^\s,{}()]*)\s*,")
_FIELD_NAME = re.compile(r"\s*([A-Za-z][\w:.+-]*)\s*=\s*")
_BARE_VALUE = re.compile(r"[\w:.+/-]+")
_SKIPPED_TYPES = frozenset({"comment", "preamble"})


class BibtexSyntaxError(ValueError):
    """A malformed entry; `line` is where the entry starts."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class BibtexEntry:
    """One entry: its type, citation key, fields (lower-case names) and starting line."""

    entry_type: str
    key: str
    line: int
    fields: dict[str, str] = field(default_factory=dict)

    def as_record_fields(self) -> dict[str, object]:
        """Fields for the record builder, with `author` split into "First Last" names."""
        fields: dict[str, object] = dict(self.fields)
        if "author" in fields:
            fields["author"] = [_first_last(name) for name in re.split(r"\s+and\s+", self.fields["author"])]
        return fields


def iter_bibtex(text: str) -> Iterator[BibtexEntry | BibtexSyntaxError]:
    """Entries in file order; a malformed entry yields a BibtexSyntaxError and reading goes on."""
    macros: dict[str, str] = {}
    pos = 0
    while match := _ENTRY_START.search(text, pos):
        line = text.count("\n", 0, match.start()) + 1
        entry_type = match.group(1).lower()
        closing = "}" if match.group(2) == "{" else ")"
        parser = _EntryParser(text, match.end(), closing, macros)
        try:
            if entry_type in _SKIPPED_TYPES:
                pos = parser.skip_balanced()
                continue
            if entry_type == "string":
                name, value = parser.read_field()
                macros[name] = value
                pos = parser.pos
                continue
            key = parser.read_key()
            entry = BibtexEntry(entry_type, key, line, parser.read_fields())
            pos = parser.pos
            yield entry
        except BibtexSyntaxError as error:
            error.line = line
            pos = match.end()
            yield error


def _first_last(name: str) -> str:
    """BibTeX "Last, First" (or "von Last, Jr, First") as "First Last"."""
    parts = [part.strip() for part in name.split(",")]
    if len(parts) == 1:
        return parts[0]
    return " ".join([parts[-1], parts[0], *parts[1:-1]])


class _EntryParser:
    """Reads the inside of one entry, from just after its opening delimiter."""

    def __init__(self, text: str, pos: int, closing: str, macros: dict[str, str]) -> None:
        self.text, self.pos, self.closing, self.macros = text, pos, closing, macros

    def skip_balanced(self) -> int:
        """Skip the rest of an entry whose content is not read (@comment, @preamble)."""
        self._read_balanced("{" if self.closing == "}" else "(", self.closing)
        return self.pos

    def read_key(self) -> str:
        match = _KEY.match(self.text, self.pos)
        if not match:
            raise BibtexSyntaxError("entry has no citation key", 0)
        self.pos = match.end()
        return match.group(1)

    def read_fields(self) -> dict[str, str]:
        fields: dict[str, str] = {}
        while True:
            self._skip_space()
            if self.text.startswith(self.closing, self.pos):
                self.pos += 1
                return fields
            name, value = self.read_field()
            fields[name] = value
            self._skip_space()
            if self.text.startswith(",", self.pos):
                self.pos += 1
            elif not self.text.startswith(self.closing, self.pos):
                raise BibtexSyntaxError(f"expected ',' or '{self.closing}' after field {name!r}", 0)

    def read_field(self) -> tuple[str, str]:
        """`name = part # part ...`, the parts joined."""
        match = _FIELD_NAME.match(self.text, self.pos)
        if not match:
            raise BibtexSyntaxError("expected a field name followed by '='", 0)
        self.pos = match.end()
        parts = [self._read_value_part()]
        self._skip_space()
        while self.text.startswith("#", self.pos):
            self.pos += 1
            self._skip_space()
            parts.append(self._read_value_part())
            self._skip_space()
        return match.group(1).lower(), "".join(parts)

    def _read_value_part(self) -> str:
        char = self.text[self.pos:self.pos + 1]
        if char == "{":
            self.pos += 1
            return self._read_balanced("{", "}")
        if char == '"':
            self.pos += 1
            return self._read_balanced("{", "}", stop='"')
        match = _BARE_VALUE.match(self.text, self.pos)
        if not match:
            raise BibtexSyntaxError("expected a value in braces, quotes, a number or a macro name", 0)
        self.pos = match.end()
        return self.macros.get(match.group().lower(), match.group())

    def _read_balanced(self, opening: str, closing: str, stop: str | None = None) -> str:
        """Text up to the matching `closing` (or `stop` outside braces), which is consumed."""
        start, depth = self.pos, 0
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if char == "\\":
                self.pos += 1
            elif char == opening:
                depth += 1
            elif depth == 0 and char == (stop or closing):
                return self.text[start:self.pos - 1]
            elif char == closing:
                depth -= 1
        raise BibtexSyntaxError("unbalanced braces: the entry never closes", 0)

    def _skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
