"""Screenshots of the views for docs/guides/views.md, taken in headless Chromium (rerun after a new model).

    python scripts/screenshots.py OUT_DIR [--prefix icml] [--search LLM] [--focus NAME] [--graph FILE] [--docs docs/]
    python scripts/screenshots.py OUT_DIR --map-only --prefix map-acl     # docs/map-acl.png only
    python scripts/screenshots.py OUT_DIR --leaderboard "task:named entity recognition" --prefix leaderboard-acl

OUT_DIR holds a build (graph.json, graph.html, papers.html). Writes, into --docs:
PREFIX-map.png (the entity map as it opens: coloured by cluster, with the cluster names),
PREFIX-types.png (coloured by type), PREFIX-filter.png (after a filter: Methods and Tasks in at least 2 papers),
PREFIX-year.png (the year overlay, when the input has more than one year), PREFIX-panel.png (the
side panel of the --search entity), PREFIX-link.png (the panel of that entity's strongest link),
PREFIX-focus.png (`paperkg view --focus NAME --depth 2`, written to OUT_DIR/focus.html) and
PREFIX-papers.png (papers.html with the panel of a paper open: the one with the most entities
among those drawn clear of the legend and panel). With --map-only: PREFIX.png, the entity map as it
opens, and nothing else. With --leaderboard KEY: PREFIX.png, leaderboard.html at that task or data set (its key,
as leaderboards.json writes it) with the sentence of its first value open, and nothing else.
"""
from __future__ import annotations

import argparse
import html
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from browser import chromium, open_page

def main() -> None:
    """Open each view, set it up as a reader would, and save the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--prefix", default="icml")
    parser.add_argument("--search", default="LLM", help="what to type into search for the panel shot")
    parser.add_argument("--focus", default=None, help="the entity of the focus view (default: --search)")
    parser.add_argument("--graph", type=Path, default=None, help="graph.json for the focus view (default: OUT_DIR's)")
    parser.add_argument("--docs", type=Path, default=Path(__file__).resolve().parents[1] / "docs")
    parser.add_argument("--size", default="1400x860")
    parser.add_argument("--map-only", action="store_true", help="only the map as it opens, as DOCS/PREFIX.png")
    parser.add_argument("--leaderboard", metavar="KEY",
                        help="only leaderboard.html at KEY, a value open, as DOCS/PREFIX.png")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    args.docs.mkdir(parents=True, exist_ok=True)
    if args.leaderboard:
        with chromium(width, height) as context:
            page, log = open_page(context, args.out_dir / "leaderboard.html")
            keys = page.evaluate("JSON.parse(document.getElementById('leaderboard-data').textContent)"
                                 ".subjects.map(s => s.key)")
            if args.leaderboard not in keys:
                sys.exit(f"error: --leaderboard {args.leaderboard!r}: {args.out_dir / 'leaderboard.html'} has no such "
                         f"task or data set (keys look like {keys[0]!r})." if keys else
                         f"error: {args.out_dir / 'leaderboard.html'} has no results to show.")
            page.evaluate("(key) => { window.location.hash = encodeURIComponent(key); }", args.leaderboard)
            page.wait_for_selector("#boards td.value button")
            page.locator("#boards td.value button").first.click()
            page.wait_for_timeout(300)
            shot = _shot(page, args.docs / f"{args.prefix}.png")
        print(json.dumps({"screenshots": [str(shot)], "console_errors": log.errors}, indent=1))
        return
    if args.map_only:
        with chromium(width, height) as context:
            page, log = open_page(context, args.out_dir / "graph.html")
            page.wait_for_timeout(500)
            shot = _shot(page, args.docs / f"{args.prefix}.png")
        print(json.dumps({"screenshots": [str(shot)], "console_errors": log.errors}, indent=1))
        return
    focus_file = args.out_dir / "focus.html"
    title = re.search(r"<title>(.*?)</title>", (args.out_dir / "graph.html").read_text(encoding="utf-8")).group(1)
    subprocess.run([sys.executable, "-m", "paperkg", "view", str(args.graph or args.out_dir / "graph.json"), "--focus",
                    args.focus or args.search, "--depth", "2", "-o", str(focus_file),
                    "--title", html.unescape(title)], check=True)
    shots, errors = [], []
    docs, prefix = args.docs, args.prefix
    with chromium(width, height) as context:
        page, log = open_page(context, args.out_dir / "graph.html")
        page.wait_for_timeout(500)
        shots.append(_shot(page, docs / f"{prefix}-map.png"))
        page.select_option("#colour-by", "type")
        page.wait_for_timeout(500)
        shots.append(_shot(page, docs / f"{prefix}-types.png"))
        years = page.evaluate("JSON.parse(document.getElementById('graph-data').textContent).years")
        if years and years["first"] != years["last"]:
            page.select_option("#colour-by", "year")
            page.wait_for_timeout(500)
            shots.append(_shot(page, docs / f"{prefix}-year.png"))
        page.select_option("#colour-by", "community")
        page.fill("#search", args.search)
        page.wait_for_selector("#results li")
        page.keyboard.press("Enter")
        page.wait_for_timeout(800)
        shots.append(_shot(page, docs / f"{prefix}-panel.png"))
        strongest = page.evaluate("""(() => {
            const view = window.paperkgView, id = view.network.getSelectedNodes()[0];
            const edges = view.edgeView.get().filter(e => e.from === id || e.to === id);
            edges.sort((a, b) => b.papers - a.papers || (a.id < b.id ? -1 : 1));
            return edges.length ? edges[0].id : null;
        })()""")
        if strongest:
            page.evaluate("(id) => window.paperkgView.openEdge(id)", strongest)
            page.wait_for_timeout(500)
            shots.append(_shot(page, docs / f"{prefix}-link.png"))
        page.click("#close-panel")
        page.click("#reset")
        for box in page.locator("input[data-type]").all():  # the types the map draws but Methods and Tasks
            if box.get_attribute("data-type") not in ("Method", "Task"):
                box.uncheck()
        page.fill("#min-papers", "2")
        page.click("#fit")
        page.wait_for_timeout(800)
        shots.append(_shot(page, docs / f"{prefix}-filter.png"))
        errors += log.errors
        focus, focus_log = open_page(context, focus_file)
        focus.wait_for_timeout(500)
        shots.append(_shot(focus, docs / f"{prefix}-focus.png"))
        errors += focus_log.errors
        papers, papers_log = open_page(context, args.out_dir / "papers.html")
        x, y = papers.evaluate("""(() => {
            // the paper with the most entities among those drawn clear of the legend and the panel; click it
            const data = JSON.parse(document.getElementById('graph-data').textContent);
            const view = window.paperkgView.network, box = document.getElementById('network').getBoundingClientRect();
            const count = (panel) => (panel.roles || []).reduce((n, role) => n + role.entities.length, 0);
            const order = data.panels.map((panel, i) => i).filter(i => data.nodes[i].kind === 'Paper')
                .sort((a, b) => count(data.panels[b]) - count(data.panels[a]) || a - b);
            for (const i of order) {
                const at = view.canvasToDOM(view.getPositions([data.nodes[i].id])[data.nodes[i].id]);
                if (at.x > 300 && at.x < box.width - 440 && at.y > 40 && at.y < box.height - 40
                        && view.getNodeAt(at) === data.nodes[i].id) return [box.left + at.x, box.top + at.y];
            }
            return [box.left + box.width / 2, box.top + box.height / 2];
        })()""")
        papers.mouse.click(x, y)
        papers.mouse.move(width - 5, height - 5)  # no hover tooltip in the picture
        papers.wait_for_timeout(800)
        shots.append(_shot(papers, docs / f"{prefix}-papers.png"))
        errors += papers_log.errors
    print(json.dumps({"screenshots": [str(shot) for shot in shots], "console_errors": errors}, indent=1))


def _shot(page, path: Path) -> Path:
    page.screenshot(path=str(path))
    return path


if __name__ == "__main__":
    main()
