"""Made for a thumb: every control at least 44 px in both directions, and the screen kept on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.worlds import finished_and_live

TARGET = 44  # CSS pixels
CONTROLS = (
    "main a, main button, main select, main input:not([type=checkbox]):not([type=radio]), "
    "main summary, main .choices label, header a, header button, footer button"
)


@pytest.fixture
def table(club, roster, season, alice):
    return finished_and_live(club, roster, season, alice)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/clubs/{club}/",
        "/clubs/{club}/matches/new/",
        "/clubs/{club}/standings/",
        "/players/{player}/",
        "/matches/{match}/",
        "/matches/{match}/scoreboard/",
    ],
)
def test_every_control_is_a_44_pixel_target(page_as, alice, club, roster, table, path):
    page = page_as(alice)
    page.goto(path.format(club=club.pk, player=roster[0].pk, match=table.live.pk))
    expect(page.locator("[aria-busy]")).to_have_count(0)
    if path == "/clubs/{club}/matches/new/":
        page.locator("#player-choices label").first.click()  # shows the seat and dealer rows

    small = []
    for control in page.locator(CONTROLS).all():
        box = control.bounding_box()
        if control.is_visible() and box and (box["height"] < TARGET or box["width"] < TARGET):
            small.append(f"{control.evaluate('e => e.outerHTML.slice(0, 80)')}: {box}")
    assert not small, "\n".join(small)


def test_keep_the_screen_on_takes_and_releases_a_wake_lock(page_as, bob, table):
    page = page_as(bob)
    page.goto(f"/matches/{table.live.pk}/")
    toggle = page.get_by_role("button", name="Keep the screen on")

    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.reload()  # remembered on the device, taken again
    expect(page.get_by_role("button", name="Keep the screen on")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.get_by_role("button", name="Keep the screen on").click()
    expect(page.get_by_role("button", name="Keep the screen on")).to_have_attribute(
        "aria-pressed", "false"
    )
