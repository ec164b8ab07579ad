"""Classic Rummy from the app: a match started with its options, a hand entered with its own
limits (one pack, runs longer than four, the "rummy" flag, no stock-run-out ending), and its
race drawn to its own target. Every limit comes from GET rulesets/."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from matches.models import Match
from tests.web.entry import record_reviewed, tap, wait_for_preview


def test_a_rummy_match_is_started_entered_and_raced_to_its_own_target(
    page_as, bob, club, roster, screenshot, assert_accessible
):
    page = page_as(bob)
    page.goto(f"/clubs/{club.pk}/matches/new/")
    page.get_by_label("Rummy", exact=True).check()
    expect(page.locator("#players-hint")).to_have_text("Choose 2 to 6 players.")
    page.get_by_label("Target score").fill("150")
    page.get_by_label("Aces").select_option("high_or_low")
    for name in ("Ann", "Ben"):
        page.locator("#player-choices").get_by_text(name, exact=True).click()
    assert_accessible(page)
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert (match.ruleset, match.options) == ("rummy", {"target": 150, "ace": "high_or_low"})

    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("#entry .picker")).to_be_visible()
    # Rummy's hand never ends with the stock run out, and has its "rummy" flag
    expect(page.get_by_label("The stock ran out")).to_have_count(0)
    page.get_by_label("Ann went out").check()
    page.get_by_label("Went out all at once (rummy)").check()
    # one pack: a card once tapped is gone; a run from its ends may be longer than four, and
    # Rummy has no twos to stand in its gaps
    tap(page, "5H")
    expect(page.locator('.picker button[data-card="5H"]')).to_be_disabled()
    tap(page, "9H")
    expect(page.locator('.player-panel .group[data-group="0"] .chip')).to_have_count(5)
    expect(page.locator('.picker button[data-card="7H"]')).to_be_disabled()
    expect(page.locator(".picker .offer-strip button.offer")).to_have_count(0)
    tap(page, "KS")
    page.locator(".picker .offer-strip button.offer").filter(has_text="K♦").filter(
        has_not_text="K♣"
    ).click()
    page.get_by_role("tab", name=re.compile("^Ben")).click()
    page.locator('[data-key="bar-hand"]').click()
    for card in ("3C", "4D", "10S"):
        tap(page, card)
    wait_for_preview(page, "valid")
    assert_accessible(page)
    record_reviewed(page)

    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    hand = match.hands.get()
    assert hand.flags == {"rummy": True}
    assert [meld["cards"] for meld in hand.results.get(player=roster[0]).melds] == [
        ["5H", "6H", "7H", "8H", "9H"],
        ["KS", "KH", "KD"],
    ]
    expect(page.locator("#chart-heading")).to_have_text("Race to 150")
    assert page.locator("#seats progress").first.get_attribute("max") == "150"
    screenshot(page, "rummy-match-race")
