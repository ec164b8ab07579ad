"""Driving the hand entry screen as a scorekeeper does: tabs, groups, taps on the card picker."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# The sample hand the web tests tap: Ann goes out with these melds (+340); Ben and Cleo each
# meld a 15-point run and hold these 80 points (-65).
ANN_MELDS = [["AS", "AH", "AD", "AC"], ["AS", "AH", "AD"], ["KS", "KH", "KD"], ["QS", "QH", "QD"]]
BEN_HELD = ["3C", "4C", "8H", "9H", "10H", "JH", "3D", "4D", "8C", "9C"]
CLEO_HELD = ["3H", "4H", "8S", "9S", "10S", "JS", "3S", "4S", "8D", "9D"]


def open_entry(page: Page, match_id: int) -> None:
    """The entry screen for the next hand, loaded and ready for taps."""
    page.goto(f"/matches/{match_id}/hands/new/")
    expect(page.locator("#entry .picker")).to_be_visible()


def tap(page: Page, card: str) -> None:
    """Tap one card on the picker."""
    page.locator(f'.picker button[data-card="{card}"]').click()


def choose_player(page: Page, index: int) -> None:
    page.locator(f"#tab-{index}").click()
    expect(page.locator(f"#tab-{index}")).to_have_attribute("aria-selected", "true")


def enter_player(page: Page, index: int, melds: list[list[str]], hand: list[str]) -> None:
    """Tap one player's melds (each into a new meld) and then the cards left in hand.

    A declared two (``2D=QS``) is tapped as its card (``2D``); declare it afterwards with
    :func:`declare_two`.
    """
    choose_player(page, index)
    for meld in melds:
        page.locator('[data-key="bar-new-meld"]').click()
        for code in meld:
            tap(page, code.split("=")[0])
    if hand:
        page.locator('[data-key="bar-hand"]').click()
        for card in hand:
            tap(page, card)


def declare_two(page: Page, two: str, represents: str) -> None:
    """Open the two's chip in the shown player's melds and pick a suggested declaration."""
    page.locator(f'.player-panel .chip.two[data-card="{two}"]').click()
    sheet = page.locator("dialog.sheet")
    expect(sheet).to_be_visible()
    sheet.locator(f'button.suggestion[data-represents="{represents}"]').click()
    expect(page.locator(f'.player-panel .chip[data-card="{two}={represents}"]')).to_be_visible()


def choose_ending(page: Page, value: str) -> None:
    """``value``: a player's id (that player went out) or "stock_exhausted"."""
    page.locator(f'input[name="ending"][value="{value}"]').check()


def wait_for_preview(page: Page, state: str) -> None:
    """Wait until the live preview has answered ("valid" or "invalid")."""
    expect(page.locator(f"#preview-status.{state}")).to_be_visible()


def record_reviewed(page: Page) -> None:
    """Tap Record hand on a hand the preview finds valid: the review shows every player, and
    its own Record hand records."""
    # Record skips the review while the preview has not answered yet, as for an offline hand.
    expect(page.locator("#preview-status.valid")).to_be_visible(timeout=15_000)
    page.locator("#record").click()
    review = page.locator("#review")
    expect(review).to_be_visible()
    review.locator("#review-record").click()


def enter_the_hand(page, ann) -> None:
    """Ann goes out; Ben and Cleo each meld a run and hold the rest: 340, -65 and -65."""
    choose_ending(page, str(ann.pk))
    enter_player(page, 0, ANN_MELDS, [])
    enter_player(page, 1, [["5D", "6D", "7D"]], BEN_HELD)
    enter_player(page, 2, [["5C", "6C", "7C"]], CLEO_HELD)
