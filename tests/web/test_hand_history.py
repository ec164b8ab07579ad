"""A corrected hand on the match page: marked with its reason, its earlier version one tap away
(GET hands/{n}/revisions/)."""

from __future__ import annotations

from playwright.sync_api import expect
from rest_framework.test import APIClient

from tests.factories import correct, create_match, record_hand, went_out


def test_a_corrected_hand_shows_its_reason_and_its_earlier_version(
    page_as, bob, victor, roster, assert_accessible
):
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    record_hand(match, went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), user=bob)
    record_hand(match, went_out(ben.pk, [ann.pk, ben.pk, cleo.pk]), user=bob)
    client = APIClient()
    client.force_authenticate(bob)
    body = {**went_out(cleo.pk, [ann.pk, ben.pk, cleo.pk]), "reason": "Cleo went out, not Ann"}
    answer = correct(client, match.pk, 1, body)
    assert answer.status_code == 200, answer.json()

    page = page_as(victor)  # a viewer sees the history too
    page.goto(f"/matches/{match.pk}/")
    first = page.locator('#hands > li[data-hand="1"]')
    expect(first.locator(".badge.corrected")).to_have_text("Corrected: Cleo went out, not Ann")
    expect(page.locator('#hands > li[data-hand="2"] .badge.corrected')).to_have_count(0)

    first.locator("summary").first.click()
    earlier = first.get_by_text("Earlier versions (1)")
    earlier.click()  # one tap
    version = first.locator('.revision-list li[data-revision="1"]')
    expect(version).to_be_visible()
    expect(version).to_contain_text("Version 1, recorded by bob")
    expect(version).to_contain_text("Ann went out")
    assert_accessible(page)


def test_a_hand_voided_and_recorded_again_is_a_new_hand_not_a_corrected_one(page_as, bob, roster):
    """Recorded, voided, recorded again: version 3 (docs/api.md), yet nobody corrected it. Its
    voided first version is not one of its own, and a correction after it is."""
    from matches.services.corrections import hand_void

    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    record_hand(match, went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), user=bob)
    hand_void(match_id=match.pk, number=1, user=bob, reason="misdealt")
    record_hand(match, went_out(ben.pk, [ann.pk, ben.pk, cleo.pk]), user=bob)
    assert match.hands.get(number=1).version == 3

    page = page_as(bob)
    page.goto(f"/matches/{match.pk}/")
    first = page.locator('#hands > li[data-hand="1"]')
    expect(first).to_contain_text("Ben went out")
    expect(first.locator(".badge.corrected")).to_have_count(0)
    first.locator("summary").first.click()
    expect(first.locator(".revisions")).to_have_count(0)

    client = APIClient()
    client.force_authenticate(bob)
    body = {**went_out(cleo.pk, [ann.pk, ben.pk, cleo.pk]), "reason": "Cleo went out"}
    assert correct(client, match.pk, 1, body).status_code == 200
    page.reload()
    expect(first.locator(".badge.corrected")).to_have_text("Corrected: Cleo went out")
    first.locator("summary").first.click()
    expect(first.get_by_text("Earlier versions (1)")).to_be_visible()
