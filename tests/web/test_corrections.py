"""Correcting a recorded hand (PUT with If-Match) and voiding the last one, from the match page."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.factories import create_match, record_hand, went_out
from tests.web.entry import tap


def hand_row(match, number):
    hand = match.hands.get(number=number)
    return hand, {r.player_id: r for r in hand.results.all()}


def open_correction(page, match, number):
    """From the match page, as a scorekeeper does: the hand's Correct button."""
    page.goto(f"/matches/{match.pk}/")
    page.locator(f'li[data-hand="{number}"] .hand-actions a').click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/hands/{number}/edit/$"))
    expect(page.locator("#entry .picker")).to_be_visible()


def swap_held(page, player_index, old, new):
    """Take ``old`` out of a player's hand and put ``new`` in."""
    page.locator(f"#tab-{player_index}").click()
    page.locator(f'.group.hand .chip[data-card="{old}"]').click()
    page.locator('[data-key="group-hand"]').click()
    tap(page, new)


def test_a_correction_is_saved_and_a_concurrent_one_gets_the_newer_version_beside_it(
    page_as, alice, bob, roster, screenshot, assert_accessible
):
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    record_hand(match, went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), user=alice)
    first = page_as(bob)
    second = page_as(alice)
    open_correction(first, match, 1)
    open_correction(second, match, 1)

    # Bob: Cleo held the queen of clubs, not the four of spades (-65 → -70)
    swap_held(first, 2, "4S", "QC")
    first.locator("#reason").fill("Cleo held QC")
    first.locator("#record").click()
    expect(first).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    expect(first.locator("#messages .notice")).to_contain_text("Hand 1 corrected")
    hand, rows = hand_row(match, 1)
    assert hand.version == 2
    assert rows[cleo.pk].net == -70

    # Alice corrected from version 1: Ben held the two of clubs, not the three (-65 → -80)
    swap_held(second, 1, "3C", "2C")
    second.locator("#record").click()
    stale = second.locator("#stale")
    expect(stale).to_be_visible()
    expect(stale.locator(".stale-column.yours")).to_contain_text("2♣")
    expect(stale.locator(".stale-column.theirs")).to_contain_text("Q♣")
    # named by who made version 2, Bob, not by who recorded the hand, Alice herself
    expect(stale.locator(".stale-column.theirs h3")).to_contain_text("version 2, by bob")
    screenshot(second, "hand-correction-conflict")
    assert_accessible(second)
    assert match.hands.get(number=1).version == 2  # nothing written by the stale edit

    # She redoes her edit on Bob's version, and both corrections stand.
    stale.locator("#stale-restart").click()
    expect(second.locator('.group.hand .chip[data-card="QC"]')).to_have_count(0)  # on Ben's tab
    swap_held(second, 1, "3C", "2C")
    second.locator("#record").click()
    expect(second).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    hand, rows = hand_row(match, 1)
    assert hand.version == 3
    assert (rows[ben.pk].net, rows[cleo.pk].net) == (-80, -70)


def test_a_correction_saved_unchanged_says_so(page_as, bob, roster):
    """Opened and saved without a change: the match page says the hand is unchanged, not
    corrected, and the hand keeps its version."""
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    record_hand(match, went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), user=bob)
    page = page_as(bob)
    open_correction(page, match, 1)
    page.locator("#record").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    expect(page.locator("#messages .notice")).to_have_text(
        "Hand 1 is unchanged: it already held these cards."
    )
    assert hand_row(match, 1)[0].version == 1


def test_the_last_hand_is_voided_after_confirmation(
    page_as, bob, roster, screenshot, assert_accessible
):
    ann, ben = roster[:2]
    match = create_match(roster[0].club, [ann, ben], user=bob)
    for _ in range(2):
        record_hand(match, went_out(ann.pk, [ann.pk, ben.pk]), user=bob)
    page = page_as(bob)
    page.goto(f"/matches/{match.pk}/")

    expect(page.locator('li[data-hand="1"] [data-void]')).to_have_count(0)  # only the last
    expect(page.locator('li[data-hand="1"] .hand-actions')).to_have_text("Correct")
    page.locator('li[data-hand="2"] [data-void]').click()
    dialog = page.locator("dialog.void-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("#void-reason").fill("scored from the wrong sheet")
    screenshot(page, "hand-void-confirm")
    assert_accessible(page)
    dialog.get_by_role("button", name="Cancel").click()
    assert match.hands.count() == 2

    page.locator('li[data-hand="2"] [data-void]').click()
    page.locator("#void-reason").fill("scored from the wrong sheet")
    page.locator("#void-yes").click()
    expect(page.locator("#messages .notice")).to_contain_text("Hand 2 voided")
    expect(page.locator("#hands > li[data-hand]")).to_have_count(1)
    assert list(match.hands.values_list("number", flat=True)) == [1]
