"""Benchmark: how long the API's documentation page takes to show its operations, in Chromium.

Serves a checkout (``manage.py runserver`` on 127.0.0.1 with a throwaway SQLite database, as
``make run`` does; bench/taps.py's helpers) and opens each page ``--rounds`` times in a fresh
browser context: the seconds from navigation until the operations' list is drawn, and every
request the page makes to another origin. The first round pays the schema's one build in the
process; the later ones are what a reader meets. The baseline, measured in the same run and
the same browser, is the API root's browsable page (a small server-rendered page): each line
ends with the page's median over that baseline's.

Run: ``.venv/bin/python bench/docs_pages.py [--root PATH] [--port 18720] [--rounds 5]
[--page /api/redoc/]``. ``--root`` serves another checkout, for a before/after; ``--page``
adds a page to measure (with ``--selector``, what shows that it is drawn). Needs
/usr/bin/chromium (``make browser``). Exit status 1 when a page asks another origin.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.taps import environment, serving  # noqa: E402

PAGES = {
    "/api/docs/": ".opblock-tag",  # Swagger UI: a tag's heading, operations below it
    "/api/v1/": "#content",  # the baseline: the browsable API root
}
REDOC = "[data-section-id^='tag/']"


def timed(browser, base: str, page_path: str, selector: str) -> tuple[float, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    elsewhere: list[str] = []
    page.on(
        "request",
        lambda r: None if r.url.startswith((base, "data:", "blob:")) else elsewhere.append(r.url),
    )
    start = time.monotonic()
    page.goto(base + page_path)
    page.wait_for_selector(selector, timeout=120_000)
    seconds = time.monotonic() - start
    context.close()
    return seconds, elsewhere


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent)
    parser.add_argument("--port", type=int, default=18720)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--page", action="append", default=[])
    parser.add_argument("--selector", default=REDOC)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    pages = dict(PAGES) | {extra: args.selector for extra in args.page}
    root = args.root.resolve()
    with tempfile.TemporaryDirectory() as folder:
        env = environment(root, Path(folder) / "docs.sqlite3")
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=root, env=env, check=True
        )
        with serving(root, env, args.port) as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            found: dict[str, list[float]] = {path: [] for path in pages}
            strangers: set[str] = set()
            for _ in range(args.rounds):
                for path, selector in pages.items():
                    seconds, elsewhere = timed(browser, base, path, selector)
                    found[path].append(seconds)
                    strangers.update(elsewhere)
            browser.close()
    baseline = statistics.median(found["/api/v1/"])
    for path, times in found.items():
        later = statistics.median(times[1:]) if len(times) > 1 else times[0]
        print(
            f"{path}: first {times[0]:.2f} s, then median {later:.2f} s "
            f"({min(times[1:] or times):.2f}-{max(times[1:] or times):.2f}); "
            f"ratio to the API root page {later / baseline:.1f}"
        )
    for url in sorted(strangers):
        print(f"another origin asked: {url}")
    return 1 if strangers else 0


if __name__ == "__main__":
    raise SystemExit(main())
