"""Label sizes that reveal names by importance as the reader zooms in, without labels piling up.

The page draws a node's name only when its font, in canvas units times the zoom, reaches
DRAW_THRESHOLD pixels on screen, and never larger than MAX_VISIBLE (page.js; vis-network's own
`maxVisible` does not cap the drawn size in 9.1). So a node's font size decides the zoom at
which its name appears: font = threshold / reveal zoom. The most important nodes get a reveal zoom below the
opening one (their names are drawn at once, largest first); each further node is revealed at
the first zoom level, not earlier than its rank allows, where its label box overlaps no label
already shown (VOSviewer's rule). Positions are in canvas units, which at the opening zoom are
about screen pixels (layout.py fits the map to the page).
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

DRAW_THRESHOLD = 9.0    # px: a label below this on screen is not drawn (vis fades it from 8 to 9)
MAX_VISIBLE = 20.0      # px: labels never get bigger than this on screen
OPENING_FONT = 24.0     # px at zoom 1 of the most important label
RANK_DECAY = 12.0       # the rank at which the opening font has fallen by a factor of 2**0.8
ZOOM_STEP = 1.25        # candidate reveal zooms grow by this factor
MAX_ZOOM = 64.0         # every label is drawn from this zoom on, overlapping or not
CHAR_WIDTH = 0.56       # average glyph width / font size of the page's sans-serif font
LINE_HEIGHT = 1.25
LABEL_GAP = 3.0         # px between a dot and the label under it
PADDING = 2.0           # px of free space required around a label
CELL = 40.0             # canvas units per cell of the collision grid


def rank_font(rank: int) -> float:
    """The on-screen font (px at zoom 1) that rank alone allows: large for the top, fading for the tail."""
    return OPENING_FONT / (1.0 + rank / RANK_DECAY) ** 0.8


def label_fonts(ranked: Sequence[str], positions: dict[str, tuple[float, float]],
                sizes: dict[str, float], texts: dict[str, str]) -> dict[str, float]:
    """The font size (canvas units) of every node's label; `ranked` lists the most important first."""
    grid: dict[tuple[int, int], list[str]] = defaultdict(list)
    fonts: dict[str, float] = {}
    for rank, node in enumerate(ranked):
        zoom = DRAW_THRESHOLD / rank_font(rank)
        while zoom < MAX_ZOOM and _collides(node, zoom, DRAW_THRESHOLD / zoom, grid, fonts,
                                            positions, sizes, texts):
            zoom *= ZOOM_STEP
        fonts[node] = round(DRAW_THRESHOLD / min(zoom, MAX_ZOOM), 3)
        widest = _box(node, DRAW_THRESHOLD / fonts[node], fonts[node], positions, sizes, texts)
        for cell in _cells(widest):  # a label's box in canvas units is widest when it appears
            grid[cell].append(node)
    return fonts


def _box(node: str, zoom: float, font: float, positions: dict[str, tuple[float, float]],
         sizes: dict[str, float], texts: dict[str, str]) -> tuple[float, float, float, float]:
    """The label's box (left, top, right, bottom) in canvas units at `zoom`."""
    screen_font = min(font * zoom, MAX_VISIBLE)
    half_width = (CHAR_WIDTH * screen_font * len(texts[node]) / 2 + PADDING) / zoom
    x, y = positions[node]
    top = y + sizes[node] + (LABEL_GAP - PADDING) / zoom
    return (x - half_width, top, x + half_width, top + (LINE_HEIGHT * screen_font + 2 * PADDING) / zoom)


def _cells(box: tuple[float, float, float, float]) -> list[tuple[int, int]]:
    left, top, right, bottom = (math.floor(value / CELL) for value in box)
    return [(column, row) for column in range(left, right + 1) for row in range(top, bottom + 1)]


def _collides(node: str, zoom: float, font: float, grid: dict[tuple[int, int], list[str]],
              fonts: dict[str, float], positions: dict[str, tuple[float, float]],
              sizes: dict[str, float], texts: dict[str, str]) -> bool:
    """Whether the node's label, revealed at `zoom`, would overlap a label already drawn there."""
    left, top, right, bottom = _box(node, zoom, font, positions, sizes, texts)
    seen: set[str] = set()
    for cell in _cells((left, top, right, bottom)):
        for other in grid.get(cell, ()):
            if other in seen or fonts[other] * zoom < DRAW_THRESHOLD - 1:
                continue
            seen.add(other)
            o_left, o_top, o_right, o_bottom = _box(other, zoom, fonts[other], positions, sizes, texts)
            if left < o_right and o_left < right and top < o_bottom and o_top < bottom:
                return True
    return False
