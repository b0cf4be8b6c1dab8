"""Properties of the normaliser on open-ended text: it never fails, its result is a fixed point,
and the result holds only characters that XML 1.0 and UTF-8 can carry."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperkg.ingest.normalize import normalize_inline, normalize_text

# Pieces of the markup abstracts really hold, so examples mix LaTeX, Markdown, HTML and links
# far more often than random characters would.
MARKUP = ["\\", "{", "}", "$", "^", "_", "*", "`", "~", "&", "%", "#", "<", ">", ";", ":", "/", ".", "(", ")",
          "[", "]", "-", "--", "''", "``", " ", "\n", "a", "x", "B", "0", "9", "é", "\u0301", "ﬁ", "\u00ad",
          "&amp;", "&lt;", "&gt;", "&#0;", "<b>", "</p>", "<img src=x onerror=y>", "\\frac", "\\emph", "\\epsilon",
          "\\sqrt", "\\mathbb", "\\cite", "\\not", "\\textcolor", "\\in", "\\url", "\\href", "\\$", "\\%", "\\~",
          "\\\"", "$$",
          "**", "__", "](", "http://", "https://github.com/a/b", "www.", "\x00", "\x1b", "\udc80", "\ud800",
          "\ufffe", "\ue000", "\ue001", "\ue002"]
TEXT = st.lists(st.sampled_from(MARKUP), max_size=40).map("".join) | st.text(max_size=60)
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
FAST = settings(deadline=2000, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(TEXT)
def test_normalize_text_is_idempotent_and_xml_safe(raw: str) -> None:
    result = normalize_text(raw)
    again = normalize_text(result.text)
    assert (again.text, again.urls) == (result.text, ())  # nothing left to clean, no link left in the text
    assert not NOT_XML.search(result.text)
    assert all(not NOT_XML.search(url) for url in result.urls)
    result.text.encode("utf8")


@FAST
@given(TEXT)
def test_normalize_inline_is_idempotent_and_xml_safe(raw: str) -> None:
    result = normalize_inline(raw)
    assert normalize_inline(result) == result
    assert not NOT_XML.search(result)
