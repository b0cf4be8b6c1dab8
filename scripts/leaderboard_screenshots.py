"""Screenshots of leaderboard.html for docs/guides/leaderboards.md, taken in headless Chromium.

    python scripts/leaderboard_screenshots.py OUT_DIR NAME [NAME ...] [--prefix acl] [--docs docs/]

OUT_DIR holds a build (graph.html, leaderboard.html, leaderboards.json). For each NAME (a task or data set the
build has a leaderboard for): PREFIX-leaderboard-SLUG.png, its leaderboard with the sentence of its first ranked
board's best value open (else of its first value); and for the first NAME, PREFIX-leaderboard-link.png, the entity
map's panel of that task or data set with the link to its leaderboard (when the map draws it). Prints each file
and the page errors, if any (none is expected).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from browser import chromium, open_page

from paperkg.orchestrate.artifact import leaderboards_layer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("names", nargs="+")
    parser.add_argument("--prefix", default="acl")
    parser.add_argument("--docs", type=Path, default=Path(__file__).resolve().parents[1] / "docs")
    parser.add_argument("--size", default="1400x860")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    boards = leaderboards_layer(args.out_dir / "graph.json")
    if boards is None:
        sys.exit(f"error: {args.out_dir} is no build's output folder (no leaderboards.json in its manifest).")
    errors = []
    with chromium(width, height) as context:
        for position, name in enumerate(args.names):
            found = boards.named(name)
            if not found:
                sys.exit(f"error: no task or data set named {name!r} has results in {args.out_dir}.")
            key = found[0].key
            slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
            page, log = open_page(context, args.out_dir / "leaderboard.html")
            page.goto(page.url.split("#")[0] + "#" + quote(key, safe=""))
            page.wait_for_timeout(300)
            page.locator("td.value button").first.click()
            page.wait_for_timeout(300)
            target = args.docs / f"{args.prefix}-leaderboard-{slug}.png"
            page.screenshot(path=str(target))
            print(target)
            errors += log.errors
            if position == 0:
                link = args.docs / f"{args.prefix}-leaderboard-link.png"
                errors += _map_panel(context, args.out_dir, found[0].name, link)
    for error in errors:
        print(f"page error: {error}")


def _map_panel(context, out_dir: Path, name: str, target: Path) -> list[str]:
    """The map with the panel of `name` open (found through the page's search), showing its leaderboard link."""
    page, log = open_page(context, out_dir / "graph.html")
    page.fill("#search", name)
    page.wait_for_selector("#results li")
    page.keyboard.press("Enter")
    page.wait_for_timeout(800)
    if page.locator("#panel a.leaderboard").count():
        page.screenshot(path=str(target))
        print(target)
    else:
        print(f"the map's panel of {name!r} has no leaderboard link (is it drawn on the map?)")
    return log.errors


if __name__ == "__main__":
    main()
