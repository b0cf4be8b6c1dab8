"""Plain-text normalisation of abstracts as they really come: markdown emphasis, LaTeX,
HTML tags and entities, URLs (the code link becomes the paper's code_url), odd Unicode.

Math is kept readable rather than dropped (`$\\epsilon$` -> "ε", see paperkg.ingest.latex).
HTML entities are decoded before tags are stripped, so `&lt;img onerror=...&gt;` never becomes
markup. The result holds only characters XML 1.0 allows, and normalising it again changes
nothing. Link hosts are in ingest/data/url_hosts.tsv.
"""
from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

from paperkg.core.characters import replace_invalid_characters
from paperkg.ingest.latex import latex_to_text, prose_to_text
from paperkg.ingest.tables import read_table


@dataclass(frozen=True)
class NormalizedText:
    """Cleaned text, the URLs taken out of it, and the one chosen as the code link."""

    text: str
    urls: tuple[str, ...] = ()
    code_url: str | None = None


def normalize_text(text: str) -> NormalizedText:
    """Turn raw abstract text into plain Unicode prose, taking its URLs out."""
    urls: list[str] = []

    def once(current: str) -> str:
        current, found = _extract_urls(_clean_unicode(_decode_html(current)))
        urls.extend(found)
        return _tidy(_convert_markup(current), urls_removed=bool(found))

    text = _break_long_runs(_fixed_point(once, text))
    unique = tuple(dict.fromkeys(urls))
    return NormalizedText(text=text, urls=unique, code_url=choose_code_url(unique))


def _break_long_runs(text: str) -> str:
    """A space after every MAX_RUN characters without one: no word of prose is that long, and spaCy's
    tokenizer strips a token's suffixes one by one with a search over the whole token, quadratic in
    its length (20,000 nested parentheses would take minutes)."""
    return _LONG_RUN.sub(r"\g<0> ", text) if len(text) > MAX_RUN else text


def normalize_inline(text: str) -> str:
    """Normalise a short field (title, author name): markup and whitespace, URLs kept."""
    return _fixed_point(lambda current: _tidy(_convert_markup(_clean_unicode(_decode_html(current))),
                                              urls_removed=False), text)


MAX_RUN = 200
_LONG_RUN = re.compile(r"\S{%d}(?=\S)" % MAX_RUN)


def _fixed_point(step: Callable[[str], str], text: str) -> str:
    """`step` applied until the text no longer changes (at most MAX_ROUNDS times): markup can
    hide markup (`&amp;lt;b&amp;gt;`, `\\$x\\$`), and normalising a normalised text must
    give it back."""
    for _ in range(MAX_ROUNDS):
        changed = step(text)
        if changed == text:
            break
        text = changed
    return text


def choose_code_url(urls: list[str] | tuple[str, ...]) -> str | None:
    """The paper's code link: the first code-host URL, else the first non-reference URL."""
    kinds = [(_host_kind(url), url) for url in urls]
    for wanted in ("code", None):
        for kind, url in kinds:
            if kind == wanted:
                return url
    return None


# --- Unicode and HTML -------------------------------------------------------------------

MAX_ROUNDS = 4  # normalisation rounds; real abstracts are stable after the first (docs/guides/inputs.md)
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff\ue000\ue001\ue002"))
_LIGATURES = re.compile("[\ufb00-\ufb06]")
_HTML_TAG = re.compile(
    r"</?((?:[A-Za-z][\w-]*:)?[A-Za-z][\w-]*)"
    r"(?:[\s/]+[\w:-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))*\s*/?>"
)
_BLOCK_TAGS = frozenset({"p", "br", "div", "li", "ul", "ol", "title", "sec", "section", "h1", "h2", "h3"})


def _clean_unicode(text: str) -> str:
    """NFC, ligatures spelled out, invisible characters removed, characters that no output
    can hold (controls, lone surrogates) replaced by spaces. The private-use characters
    U+E000-U+E002 go too: the markup conversion uses them as placeholders."""
    text = unicodedata.normalize("NFC", replace_invalid_characters(text)).translate(_INVISIBLE)
    return _LIGATURES.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)


def _decode_html(text: str) -> str:
    """Entities decoded, then HTML/JATS tags removed (block tags leave a space), until neither
    changes anything: decoding first means an escaped tag never survives as markup.
    `a<b and c>d` is not a tag."""
    def replace(match: re.Match[str]) -> str:
        name = match.group(1).lower().rsplit(":", 1)[-1]
        return " " if name in _BLOCK_TAGS else ""

    while "&" in text or "<" in text:
        decoded = _HTML_TAG.sub(replace, html.unescape(text))
        if decoded == text:
            break
        text = decoded
    return text


# --- URLs -------------------------------------------------------------------------------

_URL_CHAR = r"(?:[^\s<>\"'{}\[\]()|\\^`*]|\\[_%#&~])"
_URL_END = r"(?:[^\s<>\"'{}\[\]()|\\^`*.,;:!?]|\\[_%#&~])"
_URL = rf"(?:https?://|ftp://|www\.){_URL_CHAR}*{_URL_END}"
_MAYBE_URL = re.compile(r"https?://|ftp://|www\.|\\href|\\url|\]\(", re.IGNORECASE)
_LEAD_WORDS = r"(?:at|in|on|from|via|here|under|see|and)"  # words left dangling by a removed link
_URL_ONLY = re.compile(rf"\s*{_URL}\s*", re.IGNORECASE)
_LATEX_HREF = re.compile(r"~?\\href\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_LATEX_URL = re.compile(r"~?\\url\s*\{([^{}]*)\}")  # with the tie before it: "at~\url{...}"
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
# $...$ math, but not "$48-$74" (money: a number, then a dollar sign before the next number)
_MATH = re.compile(
    r"\$\$(.+?)\$\$|\$(?!\s)(?!\d[^$]*\$\d)([^$]+?)(?<!\s)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL
)
_MATH_SLOT = re.compile("\ue000(\\d+)\ue001")
_LATEX_MATH = re.compile(r"[\\{}~&]")  # what makes a formula worth parsing as LaTeX
# Single * and _ emphasis stands between words, so x^*, |v|_1 and ∏_(i=1)^s 𝔽_q are not emphasis.
_EMPHASIS_OPENS = r"(?:^|(?<=[\s(\[\"'“‘/]))"
_EMPHASIS_CLOSES = r"(?=$|[\s.,;:!?)\]\"'”’/])"
# (trigger, pattern, replacement): a rule runs only when its trigger occurs in the text
# (the text is scanned once per rule, so rare rules are skipped cheaply).
_MARKDOWN_RULES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("``", re.compile(r"``(?=\S)(.+?)(?<=\S)''"), "“\\1”"),                      # LaTeX quotes
    ("`", re.compile(r"(?<!`)`(?=[^\s`'])([^`']+?)'(?!\w)"), "‘\\1’"),
    ("`", re.compile(r"(`+)\s*(.+?)\s*\1", re.DOTALL), "\\2"),                  # code spans
    ("**", re.compile(r"\*\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*\*"), "\\1"),          # **strong**
    ("__", re.compile(r"(?<![\w\\])__(?=[^\s_])(.+?)(?<=[^\s_\\])__(?!\w)"), "\\1"),
    ("*", re.compile(rf"{_EMPHASIS_OPENS}\*(?=[^\s*])([^*]{{1,300}}?)(?<=[^\s*\\])\*{_EMPHASIS_CLOSES}"), "\\1"),
    ("_", re.compile(rf"{_EMPHASIS_OPENS}_(?=[^\s_])([^_]{{1,300}}?)(?<=[^\s_\\])_{_EMPHASIS_CLOSES}"), "\\1"),
    ("**", re.compile(r"\*{2,}"), ""),                                              # emphasis left empty
)


def _convert_markup(text: str) -> str:
    """Markdown and LaTeX to plain text; math is converted apart from the prose around it."""
    text = text.replace("\\$", _ESCAPED_DOLLAR)
    formulas: list[str] = []

    def hold(match: re.Match[str]) -> str:
        body = next(group for group in match.groups() if group is not None)
        formulas.append(latex_to_text(body, math=True) if _LATEX_MATH.search(body) else body)
        return f"\ue000{len(formulas) - 1}\ue001"

    text = _MATH.sub(hold, text)
    for trigger, pattern, replacement in _MARKDOWN_RULES:
        if trigger in text:
            text = pattern.sub(replacement, text)
    text = prose_to_text(text)
    text = _MATH_SLOT.sub(lambda m: formulas[int(m.group(1))], text)
    return text.replace(_ESCAPED_DOLLAR, "$")


# --- Final tidying ----------------------------------------------------------------------

# (trigger, pattern, replacement) as for _MARKDOWN_RULES; "" runs always.
# A `<` an HTML parser would read as the start of a tag, a comment or a declaration (`<x`, `</x`, `<!`, `<?`)
# and that _decode_html did not remove as a tag (`<img src=x onerror=y x>`: a bare attribute, `k<n and n>m`)
# gets a space after it: `< img ...>` is text to every parser, so no field paperkg writes holds markup.
_TAG_OPENER = re.compile(r"<(?=[A-Za-z/!?])")
_TIDY_RULES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("---", re.compile(r"---"), "—"),
    ("--", re.compile(r"(?<=[\s\d])--(?=[\s\d])"), "–"),
    ("", re.compile(r"\(\s*[,;:]?\s*\)|\[\s*\]|<\s*>"), ""),       # brackets emptied by removals
    ("", re.compile(r"\s+"), " "),
    ("", re.compile(r"\s+([,;:!?)\]]|\.(?!\d))"), "\\1"),
    ("", re.compile(r"([(\[])\s+"), "\\1"),
    ("", re.compile(r"[,;:]+\s*([.!?])"), "\\1"),
    ("", re.compile(r"([,;:])(?:\s*\1)+"), "\\1"),
    ("<", _TAG_OPENER, "< "),
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
