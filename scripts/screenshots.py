"""Screenshots of the views for the README, taken in headless Chromium (rerun after a new model).

    python scripts/screenshots.py OUT_DIR [--prefix icml] [--search LLM] [--docs docs/]

OUT_DIR holds a build (graph.html, papers.html). Writes, into --docs:
PREFIX-map.png (the entity map as it opens), PREFIX-year.png (the year overlay, when the input has years),
PREFIX-panel.png (the side panel of the --search entity) and PREFIX-papers.png (papers.html).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from browser import chromium, open_page  # noqa: E402


def main() -> None:
    """Open each view, set it up as a reader would, and save the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--prefix", default="icml")
    parser.add_argument("--search", default="LLM", help="what to type into search for the panel shot")
    parser.add_argument("--docs", type=Path, default=Path(__file__).resolve().parents[1] / "docs")
    parser.add_argument("--size", default="1400x860")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    args.docs.mkdir(parents=True, exist_ok=True)
    shots = []
    with chromium(width, height) as context:
        page, log = open_page(context, args.out_dir / "graph.html")
        page.wait_for_timeout(500)
        shots.append(_shot(page, args.docs / f"{args.prefix}-map.png"))
        if page.locator("#colour-by option[value=year]").count():
            page.select_option("#colour-by", "year")
            page.wait_for_timeout(500)
            shots.append(_shot(page, args.docs / f"{args.prefix}-year.png"))
            page.select_option("#colour-by", "type")
        page.fill("#search", args.search)
        page.wait_for_selector("#results li")
        page.keyboard.press("Enter")
        page.wait_for_timeout(800)
        shots.append(_shot(page, args.docs / f"{args.prefix}-panel.png"))
        errors = list(log.errors)
        papers, papers_log = open_page(context, args.out_dir / "papers.html")
        papers.wait_for_timeout(500)
        shots.append(_shot(papers, args.docs / f"{args.prefix}-papers.png"))
        errors += papers_log.errors
    print(json.dumps({"screenshots": [str(shot) for shot in shots], "console_errors": errors}, indent=1))


def _shot(page, path: Path) -> Path:
    page.screenshot(path=str(path))
    return path


if __name__ == "__main__":
    main()
