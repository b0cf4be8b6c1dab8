"""Plain-text normalisation of abstracts as they really come: markdown emphasis, LaTeX,
HTML tags and entities, URLs (the code link becomes the paper's code_url), odd Unicode.

Math is kept readable rather than dropped: LaTeX symbols become Unicode (`$\\epsilon$` ->
"ε", `$O(\\epsilon_n^2)$` -> "O(ε_n^2)", `\\frac{d}{d-1}` -> "d/(d-1)", `\\sqrt{K}` -> "√K").
The command table is paperkg/data/latex_symbols.tsv; link hosts are paperkg/data/url_hosts.tsv.
"""
from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

from paperkg.ingest.tables import read_table


@dataclass(frozen=True)
class NormalizedText:
    """Cleaned text, the URLs taken out of it, and the one chosen as the code link."""

    text: str
    urls: tuple[str, ...] = ()
    code_url: str | None = None


def normalize_text(text: str) -> NormalizedText:
    """Turn raw abstract text into plain Unicode prose, taking its URLs out."""
    text = _strip_html(_clean_unicode(text))
    text = html.unescape(text)
    text, urls = _extract_urls(text)
    text = _tidy(_convert_markup(text), urls_removed=bool(urls))
    return NormalizedText(text=text, urls=tuple(urls), code_url=choose_code_url(urls))


def normalize_inline(text: str) -> str:
    """Normalise a short field (title, author name): markup and whitespace, URLs kept."""
    text = html.unescape(_strip_html(_clean_unicode(text)))
    return _tidy(_convert_markup(text), urls_removed=False)


def choose_code_url(urls: list[str] | tuple[str, ...]) -> str | None:
    """The paper's code link: the first code-host URL, else the first non-reference URL."""
    kinds = [(_host_kind(url), url) for url in urls]
    for wanted in ("code", None):
        for kind, url in kinds:
            if kind == wanted:
                return url
    return None


# --- Unicode and HTML -------------------------------------------------------------------

_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LIGATURES = re.compile("[\ufb00-\ufb06]")
_HTML_TAG = re.compile(
    r"</?((?:[A-Za-z][\w-]*:)?[A-Za-z][\w-]*)"
    r"(?:\s+[\w:-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*\s*/?>"
)
_BLOCK_TAGS = frozenset({"p", "br", "div", "li", "ul", "ol", "title", "sec", "section", "h1", "h2", "h3"})


def _clean_unicode(text: str) -> str:
    """NFC, ligatures spelled out, invisible and control characters removed."""
    text = unicodedata.normalize("NFC", text).translate(_INVISIBLE)
    text = _LIGATURES.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
    return _CONTROL.sub(" ", text)


def _strip_html(text: str) -> str:
    """Remove HTML/JATS tags (block tags leave a space); `a<b and c>d` is not a tag."""
    def replace(match: re.Match[str]) -> str:
        name = match.group(1).lower().rsplit(":", 1)[-1]
        return " " if name in _BLOCK_TAGS else ""
    return _HTML_TAG.sub(replace, text)


# --- URLs -------------------------------------------------------------------------------

_URL_CHAR = r"(?:[^\s<>\"'{}\[\]()|\\^`*]|\\[_%#&~])"
_URL_END = r"(?:[^\s<>\"'{}\[\]()|\\^`*.,;:!?]|\\[_%#&~])"
_URL = rf"(?:https?://|ftp://|www\.){_URL_CHAR}*{_URL_END}"
_MAYBE_URL = re.compile(r"https?://|ftp://|www\.|\\href|\\url|\]\(", re.IGNORECASE)
_LEAD_WORDS = r"(?:at|in|on|from|via|here|under|see|and)"  # words left dangling by a removed link
_URL_ONLY = re.compile(rf"\s*{_URL}\s*", re.IGNORECASE)
_LATEX_HREF = re.compile(r"\\href\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_LATEX_URL = re.compile(r"\\url\s*\{([^{}]*)\}")
_AUTOLINK = re.compile(rf"<({_URL})>", re.IGNORECASE)
_MARKDOWN_LINK = re.compile(r"!?\[([^\[\]]*)\]\(\s*<?([^()\s<>]+)>?\s*\)")
# A URL with what would dangle once it is gone: "available at : URL", "dataset: URL".
_URL_WITH_LEAD = re.compile(
    rf"(?:(?:\s+|(?<=[(\[])){_LEAD_WORDS}\b)?\s*:?\s*({_URL})", re.IGNORECASE
)
# A sentence that is only a label for a link: "Code: URL.", "Video, code, and dataset: URL".
_LABELLED_URL = re.compile(
    rf"(?:^|(?<=[.!?]\s))((?:[^\s.!?:]+\s+){{0,5}}[^\s.!?:]+)\s*:\s*({_URL})\s*[.!?]?", re.IGNORECASE
)
_PREPOSITION_END = re.compile(rf"\b{_LEAD_WORDS}$", re.IGNORECASE)
_URL_ESCAPE = re.compile(r"\\([_%#&~])")


def _extract_urls(text: str) -> tuple[str, list[str]]:
    """Take every URL out of the text; linked words stay, bare links go with their lead-in."""
    if not _MAYBE_URL.search(text):
        return text, []
    urls: list[str] = []

    def keep_label(label: str, target: str) -> str:
        if _URL_ONLY.fullmatch(label) or not label.strip():
            return f" {target} "
        if _URL_ONLY.fullmatch(target):
            urls.append(_clean_url(target))
        return label

    text = _LATEX_HREF.sub(lambda m: keep_label(m.group(2), m.group(1)), text)
    text = _LATEX_URL.sub(lambda m: f" {m.group(1)} ", text)
    text = _AUTOLINK.sub(lambda m: f" {m.group(1)} ", text)
    text = _MARKDOWN_LINK.sub(lambda m: keep_label(m.group(1), m.group(2)), text)

    def drop_labelled(match: re.Match[str]) -> str:
        if _PREPOSITION_END.search(match.group(1)):
            return match.group()
        urls.append(_clean_url(match.group(2)))
        return ""

    def drop(match: re.Match[str]) -> str:
        urls.append(_clean_url(match.group(1)))
        return ""

    text = _LABELLED_URL.sub(drop_labelled, text)
    text = _URL_WITH_LEAD.sub(drop, text)
    return text, list(dict.fromkeys(urls))


def _clean_url(url: str) -> str:
    """Unescape LaTeX-escaped characters; give scheme-less www. links a scheme."""
    url = _URL_ESCAPE.sub(r"\1", url.strip())
    return url if "://" in url else f"https://{url}"


@cache
def _url_hosts() -> tuple[tuple[str, str], ...]:
    return tuple((host.lower(), kind) for host, kind in read_table("url_hosts.tsv"))


def _host_kind(url: str) -> str | None:
    """'code' or 'reference' for a known host, None for any other (e.g. a project page)."""
    host = (urlsplit(url).hostname or "").lower()
    for known, kind in _url_hosts():
        if host == known or host.endswith("." + known):
            return kind
    return None


# --- Markdown and LaTeX -----------------------------------------------------------------

_ESCAPED_DOLLAR = "\ue002"
_MATH = re.compile(
    r"\$\$(.+?)\$\$|\$(?!\s)([^$]+?)(?<!\s)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL
)
_MATH_SLOT = re.compile("\ue000(\\d+)\ue001")
# (trigger, pattern, replacement): a rule runs only when its trigger occurs in the text
# (the text is scanned once per rule, so rare rules are skipped cheaply).
_MARKDOWN_RULES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("``", re.compile(r"``(?=\S)(.+?)(?<=\S)''"), "“\\1”"),                      # LaTeX quotes
    ("`", re.compile(r"(?<!`)`(?=[^\s`'])([^`']+?)'(?!\w)"), "‘\\1’"),
    ("`", re.compile(r"(`+)\s*(.+?)\s*\1", re.DOTALL), "\\2"),                  # code spans
    ("**", re.compile(r"\*\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*\*"), "\\1"),          # **strong**
    ("__", re.compile(r"(?<![\w\\])__(?=[^\s_])(.+?)(?<=[^\s_\\])__(?!\w)"), "\\1"),
    ("*", re.compile(r"(?<![*\\])\*(?=[^\s*])([^*]{1,300}?)(?<=[^\s*\\])\*(?!\*)"), "\\1"),
    ("_", re.compile(r"(?<![\w\\])_(?=[^\s_])([^_]{1,300}?)(?<=[^\s_\\])_(?!\w)"), "\\1"),
    ("**", re.compile(r"\*{2,}"), ""),                                              # emphasis left empty
)


def _convert_markup(text: str) -> str:
    """Markdown and LaTeX to plain text; math is converted apart from the prose around it."""
    text = text.replace("\\$", _ESCAPED_DOLLAR)
    formulas: list[str] = []

    def hold(match: re.Match[str]) -> str:
        body = next(group for group in match.groups() if group is not None)
        formulas.append(_LatexReader(body, math=True).read())
        return f"\ue000{len(formulas) - 1}\ue001"

    text = _MATH.sub(hold, text)
    for trigger, pattern, replacement in _MARKDOWN_RULES:
        if trigger in text:
            text = pattern.sub(replacement, text)
    text = _LatexReader(text, math=False).read()
    text = _MATH_SLOT.sub(lambda m: formulas[int(m.group(1))], text)
    return text.replace(_ESCAPED_DOLLAR, "$")


@dataclass(frozen=True)
class _Command:
    kind: str
    replacement: str


_COMMAND_NAME = re.compile(r"\\([A-Za-z]+|.?)", re.DOTALL)
_CODE_POINT = re.compile(r"U\+([0-9A-Fa-f]{4,5})")


@cache
def _commands() -> dict[str, _Command]:
    table = {}
    for name, kind, replacement in read_table("latex_symbols.tsv"):
        replacement = _CODE_POINT.sub(lambda m: chr(int(m.group(1), 16)), replacement)
        table[name] = _Command(kind, replacement)
    return table


def _grouped(text: str, words_bare: bool = False) -> str:
    """A sub-expression as it reads inline: bare when one symbol or a number (or, for a
    subscript, a word), else in parentheses: ε^(-2), d/(d-1), √(SAT), x_max."""
    bare = len(text) == 1 or re.fullmatch(r"\d+(?:\.\d+)?", text) or (
        words_bare and re.fullmatch(r"\w+", text)
    )
    wrapped = text.startswith("(") and text.endswith(")") and text.count("(") == 1
    return text if bare or wrapped else f"({text})"


class _LatexReader:
    """A small reader over LaTeX: commands from the table, groups, and (in math) ^ and _."""

    def __init__(self, source: str, math: bool) -> None:
        self.source = source
        self.math = math
        self.pos = 0
        self.special = re.compile(r"[\\{}~^_]" if math else r"[\\{}~]")

    def read(self) -> str:
        """The whole source converted; an unmatched '}' is dropped, an unclosed '{' ignored."""
        return self._read_sequence(nested=False)

    def _read_sequence(self, nested: bool) -> str:
        parts: list[str] = []
        source = self.source
        while self.pos < len(source):
            match = self.special.search(source, self.pos)
            if match is None:
                parts.append(source[self.pos:])
                self.pos = len(source)
                break
            parts.append(source[self.pos:match.start()])
            self.pos = match.start()
            char = source[self.pos]
            if char == "}":
                self.pos += 1
                if nested:
                    break
            elif char == "{":
                self.pos += 1
                parts.append(self._read_sequence(nested=True))
            elif char == "\\":
                parts.append(self._read_command())
            elif char == "~":
                parts.append(self._tie(parts))
            else:  # ^ or _ in math
                self.pos += 1
                parts.append(char + _grouped(self._read_argument(), words_bare=char == "_"))
        return "".join(parts)

    def _tie(self, parts: list[str]) -> str:
        """`~` is a LaTeX non-breaking space between words; '~10%' keeps its tilde."""
        self.pos += 1
        before = next((part[-1] for part in reversed(parts) if part), "")
        after = self.source[self.pos:self.pos + 1]
        if self.math or (before and not before.isspace() and after and not after.isspace()):
            return " "
        return "~"

    def _read_argument(self) -> str:
        """One argument: a {group}, a command, or a single character (spaces skipped)."""
        source = self.source
        while self.pos < len(source) and source[self.pos] == " ":
            self.pos += 1
        if self.pos >= len(source):
            return ""
        char = source[self.pos]
        if char == "{":
            self.pos += 1
            return self._read_sequence(nested=True)
        if char == "\\":
            return self._read_command()
        self.pos += 1
        return char

    def _skip_optional(self) -> None:
        if self.source.startswith("[", self.pos):
            end = self.source.find("]", self.pos)
            if end != -1:
                self.pos = end + 1

    def _read_command(self) -> str:
        match = _COMMAND_NAME.match(self.source, self.pos)
        assert match is not None  # a backslash always starts a command name
        self.pos = match.end()
        name = match.group(1)
        command = _commands().get(name)
        if command is None:
            if self.source.startswith("{", self.pos):
                return self._read_argument()
            return name
        kind, replacement = command.kind, command.replacement
        if kind == "symbol":
            return replacement
        if kind == "relation":
            return f" {replacement} "
        if kind == "unwrap":
            return self._read_argument()
        if kind == "drop":
            self._skip_optional()
            self._read_argument()
            return ""
        if kind == "accent":
            base = self._read_argument()
            return unicodedata.normalize("NFC", base + replacement) if len(base) == 1 else base
        if kind == "frac":
            numerator = self._read_argument()
            return f"{_grouped(numerator)}/{_grouped(self._read_argument())}"
        if kind == "sqrt":
            self._skip_optional()
            return replacement + _grouped(self._read_argument())
        if kind == "letters":
            letter = self._read_argument()
            return dict(pair.split("=", 1) for pair in replacement.split()).get(letter, letter)
        raise ValueError(f"latex_symbols.tsv: unknown kind {kind!r} for \\{name}")


# --- Final tidying ----------------------------------------------------------------------

# (trigger, pattern, replacement) as for _MARKDOWN_RULES; "" runs always.
_TIDY_RULES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("---", re.compile(r"---"), "—"),
    ("--", re.compile(r"(?<=[\s\d])--(?=[\s\d])"), "–"),
    ("", re.compile(r"\(\s*[,;:]?\s*\)|\[\s*\]|<\s*>"), ""),       # brackets emptied by removals
    ("", re.compile(r"\s+"), " "),
    ("", re.compile(r"\s+([,;:!?)\]]|\.(?!\d))"), "\\1"),
    ("", re.compile(r"([(\[])\s+"), "\\1"),
    ("", re.compile(r"[,;:]+\s*([.!?])"), "\\1"),
    ("", re.compile(r"([,;:])(?:\s*\1)+"), "\\1"),
)


def _tidy(text: str, urls_removed: bool) -> str:
    """Dashes, whitespace and punctuation left over by the removals; NFC at the end."""
    for trigger, pattern, replacement in _TIDY_RULES:
        if trigger in text:
            text = pattern.sub(replacement, text)
    text = text.strip()
    if urls_removed:  # a link that ended the text must not leave it open: "... code is here:"
        text = text.rstrip(",;: ")
        text += "." if text and text[-1].isalnum() else ""
    return unicodedata.normalize("NFC", text)
