"""The live preview of a hand being entered: scores and violations from rulings/hand/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.factories import create_match
from tests.web.entry import (
    ANN_MELDS,
    BEN_HELD,
    CLEO_HELD,
    choose_ending,
    enter_player,
    open_entry,
    record_reviewed,
    tap,
    wait_for_preview,
)


def test_a_broken_meld_is_shown_on_that_meld_and_the_hand_is_refused_until_fixed(
    page_as, bob, roster, screenshot, assert_accessible
):
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)

    choose_ending(page, str(ann.pk))
    enter_player(page, 0, ANN_MELDS, [])
    # Ben's second meld skips a rank: 5D 6D 8D
    enter_player(page, 1, [["KC", "KC", "KH"], ["5D", "6D", "8D"]], BEN_HELD[:7])
    # Cleo's run is typed: the API reads the notation and names what it cannot read
    enter_player(page, 2, [], CLEO_HELD)
    page.locator('[data-key="new-meld"]').click()
    page.locator("#typed").fill("5c 6c 7x")
    page.locator("#typed").press("Enter")
    expect(page.locator("#typed")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#typed-error")).to_contain_text("7x")
    page.locator("#typed").fill("5c 6c 7c")
    page.locator("#typed").press("Enter")
    expect(page.locator('.player-panel .group[data-group="0"] .chip')).to_have_count(3)
    wait_for_preview(page, "invalid")

    # the violation sits on Ben's second meld, and only there
    expect(page.locator("#tab-1.has-problem")).to_be_visible()
    expect(page.locator("#tab-0.has-problem")).to_have_count(0)
    page.locator("#tab-1").click()
    broken = page.locator('.player-panel .group[data-group="1"]')
    expect(broken).to_have_class(re.compile(r"\binvalid\b"))
    expect(broken.locator('.problems li[data-code="run_not_consecutive"]')).to_be_visible()
    expect(page.locator('.player-panel .group[data-group="0"].invalid')).to_have_count(0)
    # until Record is pressed, the count of problems reads in the amber of things to check
    status, problems = page.locator("#preview-status"), broken.locator(".problems")
    colour = "(e) => getComputedStyle(e).color"
    # each read waits for the colour: a preview answering again re-draws the meld's problems,
    # and a node read as it is replaced has no colour at all
    expect(status).to_have_css("color", "rgb(74, 48, 0)")
    expect(problems).to_have_css("color", "rgb(74, 48, 0)")
    # the preview scores every player: Ann went out with 240 melded and the bonus
    expect(page.locator("#tab-0 .tab-net")).to_have_text("+340")
    screenshot(page, "hand-entry-violation")
    assert_accessible(page)

    page.locator("#record").click()
    refused = page.locator('#messages .error-summary[data-codes~="run_not_consecutive"]')
    expect(refused).to_be_visible()
    assert match.hands.count() == 0
    # refused: the same count reads as the errors do
    expect(status).not_to_have_css("color", "rgb(74, 48, 0)")
    expect(problems).to_have_css("color", status.evaluate(colour))

    # fixed: 8D out, 7D in
    broken.locator('.chip[data-card="8D"]').click()
    page.locator('.player-panel [data-key="group-1"]').click()
    tap(page, "7D")
    wait_for_preview(page, "valid")
    expect(page.locator(".player-panel .invalid")).to_have_count(0)
    record_reviewed(page)

    expect(page).to_have_url(f"{page.url.split('/matches/')[0]}/matches/{match.pk}/")
    assert match.hands.count() == 1
    hand = match.hands.get()
    assert {r.player_id: r.net for r in hand.results.all()} == {
        ann.pk: 340,
        ben.pk: 30 + 15 - 55,  # KC KC KH, 5D 6D 7D melded; 3C 4C 8H 9H 10H JH 3D held (55)
        cleo.pk: -65,
    }


def test_a_viewer_opening_the_entry_screen_is_told_they_cannot_record(page_as, bob, victor, roster):
    match = create_match(roster[0].club, roster[:2], user=bob)
    page = page_as(victor)
    page.goto(f"/matches/{match.pk}/hands/new/")

    expect(page.locator("#entry-closed")).to_be_visible()
    expect(page.locator("#entry .picker")).to_have_count(0)
    expect(page.locator("#record")).to_have_count(0)


TARGET = 44  # CSS pixels


def small_controls(page, scope: str) -> list[str]:
    """Visible controls in ``scope`` smaller than a thumb in either direction."""
    small = []
    for control in page.locator(f"{scope} :is(a, button, input, summary, .choices label)").all():
        box = control.bounding_box()
        if control.is_visible() and box and (box["height"] < TARGET or box["width"] < TARGET):
            if control.evaluate("e => e.matches('input[type=radio]')"):
                continue  # drawn by its label, which is the target
            small.append(f"{control.evaluate('e => e.outerHTML.slice(0, 80)')}: {box}")
    return small


def test_every_control_of_the_entry_screen_and_its_sheet_is_a_44_pixel_target(
    page_as, bob, roster, screenshot, assert_accessible
):
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)
    enter_player(page, 0, [["JS", "2D", "KS"], ["7H", "7D", "7C", "7S"]], ["3C", "10H"])
    wait_for_preview(page, "invalid")
    expect(page.locator("#entry-announce")).to_have_text(
        "Added to Left in hand · Ann: the ten of hearts"
    )

    assert not small_controls(page, "main"), "\n".join(small_controls(page, "main"))

    page.locator('.player-panel .chip.two[data-card="2D"]').click()
    expect(page.locator("dialog.sheet button.suggestion")).to_be_visible()
    assert not small_controls(page, "dialog.sheet"), "\n".join(small_controls(page, "dialog.sheet"))
    screenshot(page, "hand-entry-two-sheet")
    assert_accessible(page)


def test_the_player_tabs_follow_the_arrow_keys(page_as, bob, roster):
    match = create_match(roster[0].club, roster[:3], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)

    page.locator("#tab-0").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tab-1")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#tab-1")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#tab-2")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#tab-0")).to_have_attribute("tabindex", "-1")


@pytest.mark.parametrize(
    ("language", "question", "queen", "meld", "broken_run"),
    [
        (
            "pt-PT",
            "Como acabou a mão?",
            "a dama de espadas",
            "Combinação 1",
            "Uma sequência tem de ser de cartas consecutivas",
        ),
        (
            "fr-FR",
            "Comment la donne s'est-elle terminée ?",
            "la dame de pique",
            "Combinaison 1",
            "Une suite doit être faite de cartes consécutives",
        ),
    ],
)
def test_the_entry_screen_speaks_the_players_language(
    page_as,
    bob,
    roster,
    screenshot,
    assert_accessible,
    language,
    question,
    queen,
    meld,
    broken_run,
):
    match = create_match(roster[0].club, roster[:2], user=bob)
    page = page_as(bob, language=language)
    open_entry(page, match.pk)

    expect(page.locator(".ending legend")).to_have_text(question)
    expect(page.locator('.picker button[data-card="QS"]')).to_have_attribute("aria-label", queen)
    for card in ("5D", "6D", "8D"):
        tap(page, card)
    wait_for_preview(page, "invalid")
    expect(page.locator('.player-panel .group[data-group="0"] .group-name')).to_have_text(meld)
    expect(page.locator('.player-panel .group[data-group="0"] .problems')).to_contain_text(
        broken_run
    )
    screenshot(page, f"hand-entry-{language[:2]}")
    assert_accessible(page)
