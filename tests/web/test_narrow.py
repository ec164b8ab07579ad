"""Every page fits a small screen and 200 % zoom: no sideways scroll, no cut text.

200 % zoom of the 390×844 phone is what the browser lays out at 195×422 CSS pixels, four
device pixels each; 320 px is the narrowest phone in use.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import create_match
from tests.web.browsing import sign_in_cookie
from tests.web.entry import open_entry, tap
from tests.web.worlds import finished_and_live

SIZES = {"200%-zoom": ((195, 422), 4), "320px": ((320, 700), 3)}

# what sticks out of the screen, and text cut short (an ellipsis or a clipped line)
OVERFLOW = """(width) => {
  // a data table may scroll inside its own box (WCAG 1.4.10 lets it); text for screen readers
  // only is not shown
  const inBox = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  const shown = [...document.querySelectorAll('body *')].filter(
    (e) => e.getClientRects().length && !e.closest('.visually-hidden') && !inBox(e));
  const out = shown.filter((e) => e.getBoundingClientRect().right > width + 0.5)
    .map((e) => `wide: ${e.tagName}#${e.id}.${e.className}`);
  const cut = shown.filter((e) => e.children.length === 0 && e.textContent.trim())
    .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
    .map((e) => `cut: ${e.tagName}#${e.id}.${e.className} "${e.textContent.trim()}"`);
  return [...out, ...cut];
}"""


def fits(page) -> list[str]:
    width = page.viewport_size["width"]
    problems = page.evaluate(OVERFLOW, width)
    if page.evaluate("document.documentElement.scrollWidth") > width:
        problems.append(
            f"scrolls sideways: {page.evaluate('document.documentElement.scrollWidth')}"
        )
    return problems


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def narrow(request, new_context, live_server, alice):
    (width, height), scale = SIZES[request.param]
    context = new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
    sign_in_cookie(context, alice, live_server)
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def test_every_page_fits_without_sideways_scroll(narrow, club, roster, season, alice):
    table = finished_and_live(club, roster, season, alice)
    pages = {
        "clubs": ("/", "#club-list li"),
        "club": (f"/clubs/{club.pk}/", "#live-matches li"),
        "finished match": (f"/matches/{table.finished.pk}/", "#hands li[data-hand]"),
        "match": (f"/matches/{table.live.pk}/", "#hands li[data-hand]"),
        "standings": (f"/clubs/{club.pk}/standings/", "#standings-rows tr"),
        "new match": (f"/clubs/{club.pk}/matches/new/", "#match-form"),
    }
    found = {}
    for name, (url, ready) in pages.items():
        narrow.goto(url)
        expect(narrow.locator(ready).first).to_be_visible()
        found[name] = fits(narrow)
    assert found == {name: [] for name in pages}


def test_the_entry_of_five_players_fits(narrow, roster, alice):
    match = create_match(roster[0].club, roster, user=alice)
    open_entry(narrow, match.pk)
    tap(narrow, "KH")
    assert fits(narrow) == []
    # every player's tab names them whole
    names = narrow.locator(".player-tab .name")
    expect(names).to_have_count(5)
    assert names.evaluate_all("(nodes) => nodes.every((e) => e.scrollWidth <= e.clientWidth)")
