"""How fast a big entity map opens in headless Chromium: first frame drawn, and search answering.

    python bench/bench_views.py --entities 5000 --links 20000 --max-nodes 5000
    python bench/bench_views.py --entities 50000 --links 200000          # the default fold

Builds a synthetic field (tests/view_fixtures.py: heavy-tailed, dated, with evidence), renders
graph.html and papers.html as `paperkg view` does, then opens graph.html --repeat times in a
fresh page and reports, per run, the seconds from navigation to the first frame drawn (the
page's `ready` flag), and to the first answer of a search typed after that. Prints JSON.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from browser import chromium, open_page
from view_fixtures import synthetic_field

from paperkg.viz.options import ViewOptions
from paperkg.viz.views import render_views


def main() -> None:
    """Build, render, open and time; print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=5000)
    parser.add_argument("--links", type=int, default=20000)
    parser.add_argument("--max-nodes", type=int, default=None, help="as paperkg view --max-nodes")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--search", default="method 12")
    parser.add_argument("--keep", type=Path, default=None, help="write the pages here instead of a temp folder")
    args = parser.parse_args()
    started = time.perf_counter()
    graph = synthetic_field(args.entities, args.links)
    built = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as temp:
        out = args.keep or Path(temp)
        started = time.perf_counter()
        render_views(graph, out, ViewOptions(title="paperkg benchmark", max_nodes=args.max_nodes))
        rendered = time.perf_counter() - started
        page_file = out / "graph.html"
        runs = [_open(page_file, args.search) for _ in range(args.repeat)]
        result = {"entities": args.entities, "links_asked": args.links, "graph_nodes": graph.number_of_nodes(),
                  "synthetic_graph_s": round(built, 1), "render_both_views_s": round(rendered, 1),
                  "graph_html_mb": round(page_file.stat().st_size / 1e6, 1),
                  "papers_html_mb": round((out / "papers.html").stat().st_size / 1e6, 1), "runs": runs}
    print(json.dumps(result, indent=1))


def _open(page_file: Path, query: str) -> dict:
    """One cold open in a fresh browser: first frame, search answer, what the page drew and said."""
    with chromium() as context:
        started = time.perf_counter()
        page, log = open_page(context, page_file, timeout=120)
        drawn = time.perf_counter() - started
        page.fill("#search", query)
        page.wait_for_selector("#results li")
        answered = time.perf_counter() - started
        return {"first_frame_s": round(drawn, 2), "search_answered_s": round(answered, 2),
                "first_result": page.locator("#results li").first.inner_text(),
                "drawn_nodes": page.evaluate("window.paperkgView.nodeView.length"),
                "drawn_links": page.evaluate("window.paperkgView.edgeView.length"),
                "summary": page.inner_text("#summary"),
                "notes": page.locator("#legend .note.folded").all_inner_texts(),
                "console_errors": log.errors, "requests": log.requests_besides(page.url)}


if __name__ == "__main__":
    main()
