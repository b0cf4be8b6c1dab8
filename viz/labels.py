"""Label sizes: how important each node's name is, as a font size, and so the order the page names nodes in.

templates/page/labels.mjs places the names on every frame (after each filter, zoom and pan step): the chosen node
and its panel's names first, then the cluster names, then every visible node in the order of
these sizes, each drawn only where its box overlaps no name already placed, at the size times
the zoom, between DRAW_THRESHOLD + 1 and MAX_VISIBLE pixels. The sizes come from rank (large
for the most important, fading for the tail) and from a first placement here, VOSviewer's rule:
each node, in rank order, gets the smallest zoom at which its label overlaps no label already
given one, so names that would collide at the opening zoom rank lower. Positions are in canvas
units, which at the opening zoom are about screen pixels (layout.py fits the map to the page).
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

DRAW_THRESHOLD = 9.0    # px: the page draws names at least 1 px bigger than this (labels below it are unreadable)
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
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    placed = _Placed()
    fonts: dict[str, float] = {}
    for rank, node in enumerate(ranked):
        x, y = positions[node]
        label = _Label(x, y + sizes[node], len(texts[node]))
        zoom = DRAW_THRESHOLD / rank_font(rank)
        near = sorted({other for cell in _cells(label.box(zoom, DRAW_THRESHOLD)) for other in grid.get(cell, ())})
        others = placed.arrays(near)
        while zoom < MAX_ZOOM and near and _overlaps(label, zoom, others):
            zoom *= ZOOM_STEP
        font = round(DRAW_THRESHOLD / min(zoom, MAX_ZOOM), 3)
        fonts[node] = font
        for cell in _cells(label.box(DRAW_THRESHOLD / font, DRAW_THRESHOLD)):  # widest when it appears
            grid[cell].append(len(placed.fonts))
        placed.add(label, font)
    return fonts


class _Label:
    """Where a label hangs (centre x, the bottom of its node) and how many characters it has."""

    def __init__(self, x: float, y: float, length: int) -> None:
        self.x, self.y, self.length = x, y, length

    def box(self, zoom: float, screen_font: float) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in canvas units at `zoom` for a font of `screen_font` pixels."""
        half_width = (CHAR_WIDTH * screen_font * self.length / 2 + PADDING) / zoom
        top = self.y + (LABEL_GAP - PADDING) / zoom
        return (self.x - half_width, top, self.x + half_width, top + (LINE_HEIGHT * screen_font + 2 * PADDING) / zoom)


class _Placed:
    """The labels placed so far, as columns, so that overlaps are tested with NumPy."""

    def __init__(self) -> None:
        self.xs: list[float] = []
        self.ys: list[float] = []
        self.lengths: list[int] = []
        self.fonts: list[float] = []

    def add(self, label: _Label, font: float) -> None:
        self.xs.append(label.x)
        self.ys.append(label.y)
        self.lengths.append(label.length)
        self.fonts.append(font)

    def arrays(self, rows: list[int]) -> tuple[np.ndarray, ...]:
        return tuple(np.array([column[row] for row in rows], dtype=np.float64)
                     for column in (self.xs, self.ys, self.lengths, self.fonts))


def _cells(box: tuple[float, float, float, float]) -> list[tuple[int, int]]:
    left, top, right, bottom = (math.floor(value / CELL) for value in box)
    return [(column, row) for column in range(left, right + 1) for row in range(top, bottom + 1)]


def _overlaps(label: _Label, zoom: float, others: tuple[np.ndarray, ...]) -> bool:
    """Whether the label, appearing at `zoom` (at DRAW_THRESHOLD px), overlaps one of `others` drawn there."""
    xs, ys, lengths, fonts = others
    left, top, right, bottom = label.box(zoom, DRAW_THRESHOLD)
    screen = np.minimum(fonts * zoom, MAX_VISIBLE)
    half_width = (CHAR_WIDTH * screen * lengths / 2 + PADDING) / zoom
    other_top = ys + (LABEL_GAP - PADDING) / zoom
    other_bottom = other_top + (LINE_HEIGHT * screen + 2 * PADDING) / zoom
    drawn = fonts * zoom >= DRAW_THRESHOLD - 1
    return bool(np.any(drawn & (xs - half_width < right) & (left < xs + half_width)
                       & (top < other_bottom) & (other_top < bottom)))
