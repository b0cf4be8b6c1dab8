"""Screenshots of trends.html for docs/guides/trends.md, taken in headless Chromium.

    python scripts/trends_screenshots.py out/trends.html [--prefix acl] [--entity BERT] [--docs docs/]

Writes PREFIX-trends.png (the page as it opens: papers per year and the strongest bursts) and
PREFIX-trends-panel.png (the small multiples with the --entity panel open, after a click on it).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from browser import chromium, open_page


def main() -> None:
    """Open the page, save it as it opens, then click the entity and save the panel."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("page", type=Path)
    parser.add_argument("--prefix", default="acl")
    parser.add_argument("--entity", default="BERT", help="the name of the entity whose panel is shown")
    parser.add_argument("--docs", type=Path, default=Path(__file__).resolve().parents[1] / "docs")
    parser.add_argument("--size", default="1400x1000")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    with chromium(width, height) as context:
        page, log = open_page(context, args.page)
        page.screenshot(path=str(args.docs / f"{args.prefix}-trends.png"))
        target = page.locator("[data-key]").filter(has_text=args.entity).first
        target.click()
        page.locator("#rising").scroll_into_view_if_needed()
        page.screenshot(path=str(args.docs / f"{args.prefix}-trends-panel.png"))
        if log.errors or log.requests_besides(page.url):
            raise SystemExit(f"the page logged errors or requests: {log.errors} {log.requests}")
    print(f"wrote {args.docs}/{args.prefix}-trends.png and {args.prefix}-trends-panel.png")


if __name__ == "__main__":
    main()
