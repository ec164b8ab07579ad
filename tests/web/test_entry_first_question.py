"""The hand's first question on a phone: how it ended, in sight when the entry opens, the card
picker below it until it is answered, and sticking to the bottom of the screen after."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.worlds import finished_and_live


@pytest.mark.parametrize("language", ["en-GB", "fr-FR"])
def test_the_picker_leaves_the_ending_in_sight_until_it_is_answered(
    page_as, bob, club, roster, season, alice, language, screenshot
):
    live = finished_and_live(club, roster, season, alice).live
    page = page_as(bob, language)  # 390 × 844
    page.goto(f"/matches/{live.pk}/hands/new/")
    picker = page.locator("#entry .picker")
    expect(picker).to_be_visible()
    endings = page.locator(".ending-choices .choice")
    expect(endings).to_have_count(3)  # Dev, Eve, the stock ran out
    height = page.viewport_size["height"]

    def on_top(locator) -> bool:
        """Whether the middle of the element is what a finger there would touch."""
        return locator.evaluate(
            """(element) => {
                const box = element.getBoundingClientRect();
                const x = box.x + box.width / 2, y = box.y + box.height / 2;
                const found = document.elementFromPoint(x, y);
                return box.bottom <= innerHeight && element.contains(found);
            }"""
        )

    for index in range(3):
        assert on_top(endings.nth(index)), f"ending {index} is covered"
    assert on_top(page.locator(".player-tab").first)
    screenshot(page, f"entry-first-question-{language}")

    endings.last.locator("input").check()  # the stock ran out: the picker now sticks
    expect(page.locator("#entry.ending-first")).to_have_count(0)
    page.wait_for_function(
        "() => Math.abs(document.querySelector('#entry .picker').getBoundingClientRect().bottom"
        f" - {height}) < 2"
    )
    assert on_top(page.locator(".group.active"))  # the meld being filled, above the picker
