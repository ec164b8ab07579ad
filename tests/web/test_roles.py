"""What each role sees: a viewer reads everything and gets no write control; an outsider gets
nothing of another club."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.worlds import finished_and_live

ENTER_HAND = re.compile(r"^Enter hand \d+$")  # the next hand, by its number

# The only buttons a reader's pages carry: the screen lock toggle (scoreboard, match page).
READER_BUTTONS = {"Keep the screen on"}


@pytest.fixture
def table(club, roster, season, alice):
    return finished_and_live(club, roster, season, alice)


def visible_controls(page):
    """Names of the visible buttons, and the targets of visible links, in the page's main part."""
    buttons = {b.inner_text().strip() for b in page.locator("main button:visible").all()}
    links = {a.get_attribute("href") for a in page.locator("main a:visible").all()}
    return buttons, links


def test_a_scorekeeper_gets_write_controls_on_the_match_and_club_pages(page_as, bob, club, table):
    page = page_as(bob)
    page.goto(f"/matches/{table.live.pk}/")
    expect(page.get_by_role("link", name=ENTER_HAND)).to_be_visible()
    expect(
        page.locator('#hands li[data-hand="1"] .hand-actions a, #hands .hand-actions button')
    ).not_to_have_count(0)

    page.goto(f"/clubs/{club.pk}/")
    expect(page.get_by_role("link", name="Start a match")).to_be_visible()


@pytest.mark.parametrize("page_name", ["club", "live", "finished", "scoreboard", "standings"])
def test_a_viewer_sees_everything_and_no_write_control(
    page_as, victor, club, table, page_name, screenshot, assert_accessible
):
    url = {
        "club": f"/clubs/{club.pk}/",
        "live": f"/matches/{table.live.pk}/",
        "finished": f"/matches/{table.finished.pk}/",
        "scoreboard": f"/matches/{table.live.pk}/scoreboard/",
        "standings": f"/clubs/{club.pk}/standings/",
    }[page_name]
    page = page_as(victor)
    page.goto(url)
    expect(page.locator("[aria-busy]")).to_have_count(0)  # every answer is in
    expect(page.locator("#messages")).to_be_empty()

    buttons, links = visible_controls(page)
    assert buttons <= READER_BUTTONS | {"Show"}  # "Show" only picks a season to read
    assert not any("/new/" in href or "/edit/" in href for href in links), links
    assert page.locator("#hand-entry").is_hidden()
    assert page.locator(".hand-actions:not(:empty)").count() == 0
    if page_name == "live":
        expect(page.locator("#seats .seat")).to_have_count(2)
        expect(page.locator("#hands > li")).to_have_count(1)
        screenshot(page, "match-as-viewer")
        assert_accessible(page)


def test_a_viewer_opening_start_a_match_is_told_who_starts_them(page_as, victor, club, roster):
    """A link kept from elsewhere: no form the API would refuse, but the reason."""
    page = page_as(victor)
    page.goto(f"/clubs/{club.pk}/matches/new/")
    expect(page.locator("#viewer-only")).to_be_visible()
    expect(page.locator("#viewer-only")).to_have_text(
        "Your role in this club lets you follow its matches, not start them: a scorekeeper or "
        "an owner starts them."
    )
    expect(page.locator("#match-form")).to_be_hidden()
    expect(page.get_by_role("button", name="Start the match")).to_be_hidden()
    expect(page.locator("#club-link")).to_have_text(club.name)


@pytest.mark.parametrize("page_name", ["club", "match", "scoreboard", "standings", "player", "new"])
def test_an_outsider_cannot_see_another_clubs_pages(page_as, oscar, club, roster, table, page_name):
    url = {
        "club": f"/clubs/{club.pk}/",
        "match": f"/matches/{table.finished.pk}/",
        "scoreboard": f"/matches/{table.finished.pk}/scoreboard/",
        "standings": f"/clubs/{club.pk}/standings/",
        "player": f"/players/{roster[0].pk}/",
        "new": f"/clubs/{club.pk}/matches/new/",
    }[page_name]
    page = page_as(oscar)
    page.goto(url)

    expect(page.locator("#messages .error-summary")).to_have_attribute("data-status", "404")
    expect(page.locator("main")).not_to_contain_text("Arlington Card Club")
    expect(page.locator("main")).not_to_contain_text("Ann")
    # nothing left to act on what is not there: no season picker, download or screen lock
    for control in ("#season-form", "#csv-link", "#wake-lock", "#standings-table"):
        expect(page.locator(control)).to_be_hidden()


def test_an_outsiders_club_list_leaves_the_other_club_out(page_as, oscar, club):
    page = page_as(oscar)
    page.goto("/")

    expect(page.locator("#club-list .title")).to_have_text(["Oscar's Rummy Night"])
