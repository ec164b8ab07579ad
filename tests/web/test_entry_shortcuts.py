"""The entry screen's shortcuts: whole melds from their first cards, "the rest" of the cards
when the stock ran out, the review before Record; and the screen on small screens."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from playwright.sync_api import Page, expect

from tests.factories import RANKS, create_match
from tests.web.entry import (
    choose_ending,
    choose_player,
    open_entry,
    record_reviewed,
    tap,
    wait_for_preview,
)

OFFERS = ".picker .offer-strip button.offer"
WHOLE = f"{OFFERS}:not(.gap)"  # whole melds, not the gaps a two could fill


def offered(page: Page) -> list[list[str]]:
    """The whole melds the picker offers now, as card codes."""
    return [text.split(" ") for text in page.locator(WHOLE).evaluate_all(
        "(buttons) => buttons.map((b) => b.dataset.offer)"
    )]  # fmt: skip


def chips(page: Page, group: str) -> list[str]:
    return page.locator(f'.player-panel .group[data-group="{group}"] .chip').evaluate_all(
        "(chips) => chips.map((c) => c.dataset.card)"
    )


def type_cards(page: Page, text: str) -> None:
    page.locator("#typed").fill(text)
    page.locator("#typed").press("Enter")
    expect(page.locator("#typed")).to_have_value("")  # read by the API and added


def test_a_run_from_its_two_end_cards_and_a_set_from_its_first_card(
    page_as, bob, roster, assert_accessible
):
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)

    # 5♥ then 8♥: the run between them is filled in, and the next taps go to a new meld
    tap(page, "5H")
    expect(page.locator('.player-panel .group[data-group="0"] .chip')).to_have_count(1)
    tap(page, "8H")
    expect(page.locator('.player-panel .group[data-group="0"] .chip')).to_have_count(4)
    assert chips(page, "0") == ["5H", "6H", "7H", "8H"]
    expect(page.locator("#picker-target")).to_contain_text("Meld 2")
    assert offered(page) == []  # only the same run with a two in either gap
    expect(page.locator(f"{OFFERS}.gap")).to_have_count(2)
    assert_accessible(page)

    # a set from its first card: all four suits, or three of them
    tap(page, "KH")
    assert sorted(map(sorted, offered(page))) == sorted(
        map(sorted, [["KH", "KS", "KD", "KC"], ["KH", "KS", "KD"], ["KH", "KS", "KC"],
                     ["KH", "KD", "KC"]])
    )  # fmt: skip
    page.locator(OFFERS).filter(has_text="K♣").filter(has_not_text="K♠").click()
    assert sorted(chips(page, "1")) == ["KC", "KD", "KH"]
    # the two in the run's gap was offered only while the meld after the run was empty: the
    # next meld, empty again, is offered nothing of an earlier meld
    expect(page.locator("#picker-target")).to_contain_text("Meld 3")
    expect(page.locator(f"{OFFERS}.gap")).to_have_count(0)

    # Ben holds both 6♥ and both K♠: no run through 6♥, no set with K♠ (never a third copy)
    choose_player(page, 1)
    page.locator('[data-key="bar-hand"]').click()
    for card in ("6H", "KS", "KS"):
        tap(page, card)
    choose_player(page, 2)
    tap(page, "4H")
    tap(page, "7H")
    assert offered(page) == []  # 4♥ 5♥ 6♥ 7♥ would take a third 6♥...
    expect(page.locator(f"{OFFERS}.gap")).to_have_text(["4♥5♥2=6♥7♥"])  # ...a two can stand in
    page.locator('[data-key="bar-new-meld"]').click()
    tap(page, "KD")
    assert offered(page) == [["KD", "KH", "KC"]]  # K♥ and K♣ have a copy left, K♠ none
    # and an offer is only a shortcut: the API still rules on the meld taken
    page.locator(WHOLE).click()
    wait_for_preview(page, "invalid")


def test_the_last_player_holds_the_rest_once_the_top_discard_is_named(
    page_as, bob, roster, assert_accessible
):
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)
    choose_ending(page, "stock_exhausted")
    # Ann and Ben: the first pack and half of the second, typed
    type_cards(page, " ".join(rank + "S" for rank in RANKS[:4]))
    expect(page.locator(".player-panel .chip")).to_have_count(4)
    page.locator('[data-key="bar-hand"]').click()
    type_cards(page, " ".join(r + s for s in "HDC" for r in RANKS))
    expect(page.locator(".player-panel .group.hand .chip")).to_have_count(39)
    expect(page.locator('[data-key="the-rest"]')).to_have_count(0)  # not before the others
    choose_player(page, 1)
    page.locator('[data-key="bar-hand"]').click()
    type_cards(page, " ".join(r + "S" for r in RANKS[4:]) + " " + " ".join(r + "H" for r in RANKS))
    expect(page.locator(".player-panel .group.hand .chip")).to_have_count(22)

    choose_player(page, 2)
    page.locator('[data-key="bar-hand"]').click()
    page.get_by_role("button", name="The rest of the cards").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("button", name="the ace of hearts", exact=True)).to_be_disabled()
    assert_accessible(page)
    dialog.get_by_role("button", name="the queen of clubs", exact=True).click()

    held = Counter(chips(page, "hand"))
    assert sum(held.values()) == 104 - 4 - 39 - 22 - 1
    assert held["QC"] == 0 and held["QD"] == 1 and held["AS"] == 1 and "AH" not in held
    wait_for_preview(page, "valid")


def test_the_review_shows_every_player_and_records_in_one_tap(
    page_as, bob, roster, screenshot, assert_accessible
):
    ann, ben = roster[:2]
    match = create_match(roster[0].club, [ann, ben], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)
    choose_ending(page, str(ann.pk))
    type_cards(page, "AS AH AD AC")
    for meld in ("KS KH KD", "QH QD QC", "7H 7D 2C=7S"):
        page.locator('[data-key="bar-new-meld"]').click()
        type_cards(page, meld)
    choose_player(page, 1)
    type_cards(page, "5D 6D 7D")
    page.locator('[data-key="bar-hand"]').click()
    type_cards(page, "QS 3C 4C 8H 9H 10H JH 3D 4D 8C")
    wait_for_preview(page, "valid")

    page.get_by_role("button", name="Record hand").click()
    review = page.get_by_role("region", name="Check the hand before recording it")
    expect(review).to_be_visible()
    for name in ("Ann", "Ben"):
        expect(review.get_by_role("heading", name=name)).to_be_visible()
    expect(review.locator(".review-player").nth(1)).to_contain_text("Q♠")
    expect(review.locator(".review-net")).to_have_text(["+255", "-105"])
    # the cards left in hand are taken off with the same minus sign as the net
    expect(review.locator(".review-player").nth(1)).to_contain_text("(-120)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = review.get_by_role("button", name="Record hand").bounding_box()
    assert box and box["y"] + box["height"] <= 844  # the whole review on one screen
    screenshot(page, "hand-entry-review")
    assert_accessible(page)

    # one tap back to Ben, then Record hand again: nothing recorded meanwhile
    review.get_by_role("button", name="Fix Ben").click()
    expect(page.locator("#tab-1")).to_have_attribute("aria-selected", "true")
    assert match.hands.count() == 0
    page.get_by_role("button", name="Record hand").click()
    review.get_by_role("button", name="Record hand").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    assert match.hands.count() == 1


@pytest.mark.parametrize(
    ("language", "size", "scale"),
    [("en-GB", (320, 700), 3), ("fr-FR", (320, 700), 3), ("fr-FR", (320, 350), 2)],
    ids=["320px", "320px-fr", "200%-zoom-fr"],
)
def test_the_entry_screen_fits_a_small_screen_without_scrolling_sideways(
    new_context, live_server, bob, roster, language, size, scale, assert_accessible
):
    """200 % zoom of a 640×700 window is what the browser lays out at 320×350 CSS pixels,
    two device pixels each (media queries see 320 px, as they do when zoomed)."""
    from tests.web.browsing import sign_in_cookie

    match = create_match(roster[0].club, roster, user=bob)
    width, height = size
    context = new_context(
        language, viewport={"width": width, "height": height}, device_scale_factor=scale
    )
    sign_in_cookie(context, bob, live_server)
    page = context.new_page()
    open_entry(page, match.pk)
    tap(page, "KH")  # a meld with its offers, the longest picker
    expect(page.locator(OFFERS).first).to_be_visible()

    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
             .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
             .map((e) => e.tagName + '.' + e.className)"""
    )  # fmt: skip
    assert wide == []
    # the meld's label is whole ("Combinaison 1", never "Combi…"), and the ending and the
    # tabs can be reached with the picker on screen: the picker does not cover them
    label = page.locator('.player-panel [data-key="group-0"] .group-name')
    assert label.evaluate("(e) => e.scrollWidth <= e.clientWidth")
    page.get_by_role("tab").last.click()
    expect(page.get_by_role("tab").last).to_have_attribute("aria-selected", "true")
    page.locator("fieldset.ending label").last.click()
    expect(page.locator('input[name="ending"][value="stock_exhausted"]')).to_be_checked()
    assert_accessible(page)


@pytest.mark.parametrize(
    ("language", "words"),
    [("en-GB", "consecutive"), ("pt-PT", "consecutivas"), ("fr-FR", "consécutives")],
)
def test_a_broken_meld_is_explained_with_the_cards_symbols_in_every_language(
    page_as, bob, roster, language, words
):
    ann, ben = roster[:2]
    match = create_match(roster[0].club, [ann, ben], user=bob)
    page = page_as(bob, language)
    open_entry(page, match.pk)
    for card in ("5H", "6H", "8H"):
        tap(page, card)
    problem = page.locator('.player-panel .group[data-group="0"] .problems li').first
    expect(problem).to_contain_text("5♥ 6♥ 8♥")
    expect(problem).to_contain_text(words)
    assert not re.search(r"\b[0-9JQKA]{1,2}[SHDC]\b", problem.inner_text())


def test_a_wild_two_by_tapping_the_gap_it_fills(page_as, bob, roster, assert_accessible):
    ann, ben = roster[:2]
    match = create_match(roster[0].club, [ann, ben], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)
    # both queens of spades are Ben's: J♠ Q♠ K♠ cannot be offered, a two for Q♠ can
    choose_player(page, 1)
    page.locator('[data-key="bar-hand"]').click()
    tap(page, "QS")
    tap(page, "QS")
    choose_player(page, 0)
    tap(page, "JS")
    tap(page, "KS")
    expect(page.locator(OFFERS)).to_have_count(1)
    gap = page.get_by_role("button", name=re.compile(r"^A two for the queen of spades"))
    gap.click()
    dialog = page.get_by_role("dialog")
    assert_accessible(page)
    dialog.get_by_role("button", name="the two of diamonds", exact=True).click()
    # what the two stands for is the API's suggestion: 2♦=Q♠, beside natural cards only (the
    # meld may be drawn once with the bare two, while the suggestion is on its way)
    expect(
        page.locator('.player-panel .group[data-group="0"] .chip[data-card="2D=QS"]')
    ).to_be_visible()
    assert chips(page, "0") == ["JS", "2D=QS", "KS"]
    expect(page.locator("#picker-target")).to_contain_text("Meld 2")


def test_runs_by_their_two_ends_and_a_two_in_a_gap_are_recorded_card_by_card(
    page_as, bob, roster, assert_accessible
):
    ann, ben = roster[:2]
    match = create_match(roster[0].club, [ann, ben], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)
    choose_ending(page, str(ann.pk))

    # two taps a run: its two ends, the cards between filled in and shown
    tap(page, "8H")
    tap(page, "5H")
    assert chips(page, "0") == ["5H", "6H", "7H", "8H"]
    # J♠ K♠ fills J♠ Q♠ K♠; the two standing in its gap is offered while the next meld is
    # empty, and what the two stands for is the rules service's suggestion
    tap(page, "JS")
    tap(page, "KS")
    assert chips(page, "1") == ["JS", "QS", "KS"]
    expect(page.locator("#picker-target")).to_contain_text("Meld 3")
    page.get_by_role("button", name=re.compile(r"^A two for the queen of spades")).click()
    page.get_by_role("dialog").get_by_role("button", name="the two of diamonds", exact=True).click()
    expect(page.locator('.group[data-group="1"] .chip[data-card="2D=QS"]')).to_be_visible()
    assert chips(page, "1") == ["JS", "2D=QS", "KS"]
    expect(page.locator("#picker-target")).to_contain_text("Meld 3")
    # a two at the end of a run is tapped; its suggestion, once taken, starts the next meld
    for card in ("QH", "KH", "2C"):
        tap(page, card)
    page.get_by_role(
        "button", name="Did you mean the two of clubs standing for the ace of hearts?"
    ).click()
    expect(page.locator("#picker-target")).to_contain_text("Meld 4")
    assert chips(page, "2") == ["QH", "KH", "2C=AH"]
    tap(page, "9C")
    page.locator(f'{WHOLE}[data-offer="9C 9S 9H 9D"]').click()
    assert_accessible(page)

    # held cards are never filled in: 3♣ then 6♣ in hand stay two cards
    choose_player(page, 1)
    tap(page, "6D")
    tap(page, "3D")
    page.locator('[data-key="bar-hand"]').click()
    for card in ("3C", "6C", "8S", "JH", "QD", "AC", "2H", "10S", "4H"):
        tap(page, card)
    assert chips(page, "hand") == ["3C", "6C", "8S", "JH", "QD", "AC", "2H", "10S", "4H"]
    record_reviewed(page)
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))

    hand = match.hands.get()
    results = {r.player_id: r for r in hand.results.all()}
    melds = {pk: sorted(sorted(m["cards"]) for m in results[pk].melds) for pk in results}
    assert melds[ann.pk] == sorted(
        map(sorted, [["5H", "6H", "7H", "8H"], ["JS", "2D=QS", "KS"], ["QH", "KH", "2C=AH"],
                     ["9C", "9S", "9H", "9D"]])
    )  # fmt: skip
    assert melds[ben.pk] == [["3D", "4D", "5D", "6D"]]
    assert Counter(c["card"] for c in results[ben.pk].held) == Counter(
        ["3C", "6C", "8S", "JH", "QD", "AC", "2H", "10S", "4H"]
    )
    # 25 + 70 + 40 + 40 melded and the 100 for going out; 20 melded less 95 held
    assert (results[ann.pk].net, results[ben.pk].net) == (275, -75)


@pytest.mark.parametrize(
    ("language", "refusal"),
    [
        ("en-GB", "None left of K♥: two packs hold two of each."),
        ("fr-FR", "Il ne reste plus de K♥\u00a0: deux jeux n'en ont que deux de chaque."),
    ],
)
def test_a_third_copy_typed_is_refused_naming_the_card(page_as, bob, roster, language, refusal):
    """One sentence in the page's language, not a card's name glued to it in English order."""
    ann, ben = roster[:2]
    match = create_match(roster[0].club, [ann, ben], user=bob)
    page = page_as(bob, language=language)
    open_entry(page, match.pk)
    type_cards(page, "KH KH")
    page.locator("#typed").fill("KH")
    page.locator("#typed").press("Enter")
    expect(page.locator("#typed-error")).to_have_text(refusal)


def test_every_suggestion_for_a_two_is_offered_under_its_meld(page_as, bob, roster):
    """Q♥ Q♦ 2♣ is a set whatever queen the two stands for: the four are all offered, the
    50-point queen of spades among them."""
    ann, ben = roster[:2]
    match = create_match(roster[0].club, [ann, ben], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)
    choose_ending(page, str(ann.pk))
    for card in ("QH", "QD", "2C"):
        tap(page, card)
    offered = page.locator('.group[data-group="0"] button.suggestion')
    expect(offered).to_have_count(4)
    page.get_by_role(
        "button", name="Did you mean the two of clubs standing for the queen of spades?"
    ).click()
    expect(page.locator('.group[data-group="0"] .chip[data-card="2C=QS"]')).to_be_visible()
    assert chips(page, "0") == ["QH", "QD", "2C=QS"]
