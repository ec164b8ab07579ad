"""The public results pages in a real browser: every figure readable on a phone (390 px wide)
and at 200 % zoom (the same phone, half as many CSS pixels), the rating explained, and a club
night's page that keeps itself up to date while a round is played."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clubnight import public
from clubnight.models import PublicLink
from tests.factories import record_hand, went_out
from tests.web.worlds import drawn_night, finished_and_live

WIDTHS = {"phone": 390, "phone at 200 %": 195}

# Every cell of the page's tables: inside the screen, and not cut (its content fits its box).
CUT_CELLS = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("main tbody th, main tbody td")]
    .filter(cell => {
      const box = cell.getBoundingClientRect();
      return box.width === 0 || box.left < -0.5 || box.right > width + 0.5
        || cell.scrollWidth > cell.clientWidth + 1;
    })
    .map(cell => `${cell.dataset.label || cell.tagName}: ${cell.textContent}`);
}"""


@pytest.fixture
def long_names(club, roster):
    """Big numbers and a long name, the cells most likely to be cut."""
    roster[0].name = "Annabelle-Marguerite Vasconcelos"
    roster[0].save()
    return roster


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_every_figure_of_the_standings_is_readable(
    new_context, club, long_names, season, alice, width, screenshot, assert_accessible
):
    finished_and_live(club, long_names, season, alice)
    link = PublicLink.objects.create(club=club, scope="standings", created_by=alice)
    page = new_context(viewport={"width": width, "height": 844}).new_page()
    page.goto(f"/r/{link.token}/")
    expect(page.locator("tbody tr")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(CUT_CELLS) == []
    for label in ("VP", "Wins", "Matches", "Points", "Rating"):
        expect(page.locator(f'tbody tr >> nth=0 >> td[data-label="{label}"]')).to_be_visible()
    points = page.locator('tbody tr >> nth=0 >> td[data-label="Points"]')
    expect(points).to_have_text("1,020")  # grouped by thousands, as the app shows points
    label = points.evaluate("e => getComputedStyle(e, '::before').content")
    assert label == '"Points: "' or width > 640  # each figure says what it is
    screenshot(page, f"public-standings-{width}")
    assert_accessible(page)


def test_the_rating_is_explained_in_a_sentence_and_a_page(new_context, club, roster, alice):
    link = PublicLink.objects.create(club=club, scope="standings", created_by=alice)
    page = new_context().new_page()
    page.goto(f"/r/{link.token}/")
    expect(page.locator(".rating-note")).to_contain_text("starts at 1000")
    page.get_by_role("link", name="How the rating works").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("How the rating works")
    expect(page.locator("main")).to_contain_text("less three times its uncertainty")


@pytest.fixture
def night(club, roster, alice):
    return drawn_night(club, roster, alice)


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_a_club_nights_page_is_readable_at_phone_width(
    new_context, night, alice, width, screenshot, assert_accessible
):
    link = PublicLink.objects.create(
        club=night.club, scope="tournament", tournament=night, created_by=alice
    )
    page = new_context(viewport={"width": width, "height": 844}).new_page()
    page.goto(f"/r/{link.token}/")
    expect(page.locator("tbody tr")).to_have_count(9)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(CUT_CELLS) == []
    screenshot(page, f"public-tournament-{width}")
    assert_accessible(page)


def test_a_club_nights_page_keeps_itself_up_to_date(new_context, night, alice, monkeypatch):
    monkeypatch.setattr(public, "REFRESH_IN_PLAY", 1)
    link = PublicLink.objects.create(
        club=night.club, scope="tournament", tournament=night, created_by=alice
    )
    page = new_context().new_page()
    page.goto(f"/r/{link.token}/")
    expect(page.locator(".hint").first).to_contain_text("keeps itself up to date")
    with page.expect_response(lambda r: r.status == 200 and "/r/" in r.url):
        pass  # the first poll, which learns the page's ETag
    with page.expect_response(lambda r: r.status == 304 and "/r/" in r.url):
        pass  # nothing changed: asked again, answered without a body
    table = night.rounds.get().tables.order_by("number").first().match
    seated = list(table.seats.order_by("position").values_list("player_id", flat=True))
    record_hand(table, went_out(seated[0], seated), user=alice)
    expect(page.locator("tbody tr").first).to_contain_text("340")
    expect(page.locator("main")).to_contain_text("1 hand played")
