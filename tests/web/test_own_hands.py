"""Every player enters their own hand on their own phone, at the same time, and the hand is
recorded once; two phones tapping the same hand never double a card; a bad entry is started
again on every phone at once.

Ann is Alice (the club's owner), Ben is Bob (a scorekeeper), Cleo is Victor (a viewer).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from itertools import zip_longest

from playwright.sync_api import Page, Route, expect
from rest_framework.test import APIClient

from matches.models import Hand, HandDraftPart, Match
from tests import harness
from tests.factories import client_for, create_match, record_hand, went_out
from tests.web.entry import (
    ANN_MELDS,
    BEN_HELD,
    CLEO_HELD,
    choose_ending,
    declare_two,
    enter_the_hand,
    open_entry,
    record_reviewed,
    tap,
)

SHARED = "Shared with the other phones at this table."
BEN_MELDS = [["5D", "6D", "7D"]]
CLEO_MELDS = [["5C", "6C", "7C"]]

Step = Callable[[], None]


def phone(page_as, user) -> Page:
    """A phone signed in as ``user``; patient, since several phones share one test server."""
    page = page_as(user)
    page.set_default_timeout(30_000)
    return page


def link(roster, *users) -> None:
    """Seat the first players of the roster as these users' own players."""
    for player, user in zip(roster, users, strict=False):
        player.user = user
        player.save()


def two_phones(page_as, alice, bob, players) -> tuple[Match, Page, Page]:
    """A new match of ``players`` open on Alice's and Bob's phones, both sharing its entry."""
    match = create_match(players[0].club, players, user=alice)
    a, b = phone(page_as, alice), phone(page_as, bob)
    for page in (a, b):
        open_entry(page, match.pk)
        expect(page.get_by_text(SHARED, exact=True)).to_be_visible()
    return match, a, b


def taps(page: Page, melds: list[list[str]], held: list[str]) -> list[Step]:
    """One player's taps on their own part, one step each: each meld, then the held cards."""
    steps: list[Step] = []
    for meld in melds:
        steps.append(lambda: page.locator('[data-key="bar-new-meld"]').click())
        steps += [lambda card=card: tap(page, card) for card in meld]
    if held:
        steps.append(lambda: page.locator('[data-key="bar-hand"]').click())
        steps += [lambda card=card: tap(page, card) for card in held]
    return steps


def at_once(*phones: list[Step]) -> None:
    """The phones' taps interleaved, one tap on each in turn, as at a table."""
    for round_ in zip_longest(*phones):
        for step in round_:
            if step is not None:
                step()


def chips(page: Page) -> list[str]:
    return page.locator(".player-panel .chip").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )


def test_three_players_enter_their_own_hands_at_once_recorded_once(
    page_as, alice, bob, victor, roster, screenshot, assert_accessible
):
    ann, ben, cleo = roster[:3]
    link(roster, alice, bob, victor)
    match = create_match(ann.club, [ann, ben, cleo], user=alice, table="Table 5")
    a, b, v = phone(page_as, alice), phone(page_as, bob), phone(page_as, victor)
    for page in (a, b, v):
        open_entry(page, match.pk)
        expect(page.get_by_text(SHARED, exact=True)).to_be_visible()
    expect(b.locator("#tab-1")).to_have_attribute("aria-selected", "true")
    expect(v.locator("#tab-2")).to_have_attribute("aria-selected", "true")

    choose_ending(a, str(ann.pk))
    at_once(
        taps(a, ANN_MELDS, []),
        taps(b, BEN_MELDS, BEN_HELD),
        taps(v, CLEO_MELDS, CLEO_HELD),
    )
    # the scorekeeper's phone shows who has entered their part, and taps nothing of theirs
    progress = a.locator("#share-progress")
    expect(progress.locator(f'li[data-player="{ben.pk}"]')).to_have_text("Ben ✓ 1 meld, 10 cards")
    expect(progress.locator(f'li[data-player="{cleo.pk}"]')).to_have_text("Cleo ✓ 1 meld, 10 cards")
    screenshot(a, "own-hands-scorekeeper")
    screenshot(v, "own-hands-player")
    assert_accessible(a)
    assert_accessible(v)
    # Alice's second phone, opened now: the parts she entered herself are no news to her
    tablet = phone(page_as, alice)
    open_entry(tablet, match.pk)
    expect(tablet.locator(f'#share-progress li[data-player="{ben.pk}"]')).to_be_visible()
    expect(tablet.locator(f'#share-progress li[data-player="{cleo.pk}"]')).to_be_visible()
    expect(tablet.locator(f'#share-progress li[data-player="{ann.pk}"]')).to_have_count(0)
    # and Ann's part, which she entered on her first phone, says so, not "by alice"
    tablet.locator("#tab-0").click()
    expect(tablet.locator("#player-panel .shared-from")).to_have_text(
        "Also entered on another of your phones."
    )
    tablet.locator("#tab-1").click()
    expect(tablet.locator("#player-panel .shared-from")).to_have_text(
        "Also entered on another phone by bob."
    )
    tablet.context.close()

    record_reviewed(a)
    expect(a.locator("#messages")).to_contain_text("Hand 1 recorded.")
    (hand,) = Hand.objects.filter(match=match)
    results = {r.player_id: r for r in hand.results.all()}
    assert Counter(c["card"] for c in results[ben.pk].held) == Counter(BEN_HELD)
    assert Counter(c["card"] for c in results[cleo.pk].held) == Counter(CLEO_HELD)
    assert [m["cards"] for m in results[ann.pk].melds] == ANN_MELDS
    # the scores are the engine's for exactly this hand, entered once
    client = APIClient()
    ruling = client.post(
        "/api/v1/rulings/hand/",
        {
            "ending": "went_out",
            "went_out": "Ann",
            "results": [
                {"player": "Ann", "melds": ANN_MELDS, "hand": []},
                {"player": "Ben", "melds": BEN_MELDS, "hand": BEN_HELD},
                {"player": "Cleo", "melds": CLEO_MELDS, "hand": CLEO_HELD},
            ],
        },
        format="json",
    ).json()
    assert ruling["valid"]
    nets = {r["player"]: r["net"] for r in ruling["results"]}
    assert {p.name: results[p.pk].net for p in (ann, ben, cleo)} == nets
    # the players' phones learn it was recorded
    for page in (b, v):
        expect(page.locator("#share-status")).to_contain_text(
            "Hand 1 was recorded on another phone."
        )


def test_two_phones_tapping_the_same_whole_hand_never_double_a_card(
    page_as, alice, bob, roster, screenshot
):
    """Alice and Bob both tap Ann's whole hand, both online, tap for tap: each card counts once."""
    ann, ben, cleo = roster[:3]
    match, a, b = two_phones(page_as, alice, bob, [ann, ben, cleo])
    for page in (a, b):
        expect(page.locator("#tab-0")).to_have_attribute("aria-selected", "true")
    melds = [["6H", "7H", "8H", "9H"], ["KS", "KH", "KD"]]
    held = ["3C", "QD"]
    at_once(taps(a, melds, held), taps(b, melds, held))

    whole = Counter([*melds[0], *melds[1], *held])
    for page in (a, b):
        expect(page.locator(".player-panel .chip")).to_have_count(whole.total())
    # a third phone, opened now, reads the draft as the server keeps it
    c = phone(page_as, alice)
    open_entry(c, match.pk)
    expect(c.locator(".player-panel .chip")).to_have_count(whole.total())
    assert Counter(chips(c)) == whole
    (part,) = HandDraftPart.objects.filter(match=match, player=ann)
    assert Counter([*sum(part.data["melds"], []), *part.data["hand"]]) == whole
    assert part.data["hand"] == held
    for page in (a, b):
        assert Counter(chips(page)) == whole
        expect(page.locator("#two-versions")).to_have_count(0)
    screenshot(b, "same-hand-two-phones")


def test_different_cards_on_two_phones_are_shown_side_by_side_to_choose(
    page_as, alice, bob, roster, screenshot, assert_accessible
):
    # Bob's phone loses the draft for a moment while both enter Ann's hand differently
    a, b, versions = differing_phones(page_as, alice, bob, roster)
    expect(versions.locator("h2")).to_have_text("Two versions of the cards of Ann")
    expect(versions.locator(".stale-column.yours li")).to_have_count(1)
    expect(versions.locator(".stale-column.theirs li")).to_have_count(1)
    screenshot(b, "two-versions")
    assert_accessible(b)
    b.locator("#keep-mine").click()
    expect(versions).to_have_count(0)
    # the choice reaches the other phone, whole: no card of the dropped version is left
    expect(a.locator('.player-panel .chip[data-card="6S"]')).to_be_visible()
    expect(a.locator(".player-panel .chip")).to_have_count(3)
    assert sorted(chips(a)) == ["6S", "7S", "8S"]


def differing_phones(page_as, alice, bob, roster) -> tuple[Page, Page, Page]:
    """Alice's phone enters Ann's meld as 6♥ 7♥ 8♥ and shares it; Bob's, cut off meanwhile,
    as 6♠ 7♠ 8♠. Back online, Bob's phone shows the two versions and offers its own beside
    Ann's part. Returns Alice's phone, Bob's, and the box on Bob's."""
    ann, ben, cleo = roster[:3]
    _, a, b = two_phones(page_as, alice, bob, [ann, ben, cleo])
    b.route("**/draft/**", lambda route: route.abort())
    at_once(taps(a, [["6H", "7H", "8H"]], []), taps(b, [["6S", "7S", "8S"]], []))
    expect(a.locator(".player-panel .chip")).to_have_count(3)
    # Alice's version is the part before Bob's phone reads again (else Bob's would be, and
    # Alice's phone the one to offer its own)
    harness.wait_until(
        lambda: HandDraftPart.objects.filter(player=ann, data__melds=[["6H", "7H", "8H"]]).exists(),
        what="Alice's version of Ann's cards written",
    )
    with b.expect_response(lambda r: r.url.endswith("/contest/") and r.ok, timeout=30_000):
        b.unroute("**/draft/**")  # at its next read (every 2.5 s): it offers its version
    versions = b.locator("#two-versions")
    expect(versions).to_be_visible()
    return a, b, versions


def test_the_phone_whose_version_was_shared_first_is_offered_the_choice_too(
    page_as, alice, bob, roster, screenshot
):
    """Both versions show on both phones, and the choice made on either settles it on both:
    here Alice's phone, whose version was the one shared first, keeps Bob's."""
    a, b, versions = differing_phones(page_as, alice, bob, roster)
    offered = a.locator("#two-versions")
    expect(offered).to_be_visible(timeout=30_000)  # at Alice's phone's next read
    expect(offered.locator("h2")).to_have_text("Two versions of the cards of Ann")
    expect(offered.locator(".stale-column.yours")).to_contain_text("6♥")
    expect(offered.locator(".stale-column.theirs h3")).to_have_text("On the phone of bob")
    expect(offered.locator(".stale-column.theirs")).to_contain_text("6♠")
    screenshot(a, "two-versions-offered")
    a.locator("#keep-theirs").click()
    expect(offered).to_have_count(0)
    expect(versions).to_have_count(0, timeout=30_000)  # Bob's phone: the choice was made
    for page in (a, b):
        expect(page.locator(".player-panel .chip")).to_have_count(3)
        assert sorted(chips(page)) == ["6S", "7S", "8S"]
    (part,) = HandDraftPart.objects.filter(player=roster[0])
    assert part.data["melds"] == [["6S", "7S", "8S"]] and part.contest is None


def test_keeping_the_part_as_written_on_the_other_phone_is_taken_here(page_as, alice, bob, roster):
    """Alice's phone keeps its own version, the one already written: Bob's phone, which had
    offered another, takes the part as written and says why."""
    a, b, versions = differing_phones(page_as, alice, bob, roster)
    expect(a.locator("#two-versions")).to_be_visible(timeout=30_000)
    a.locator("#keep-mine").click()
    expect(a.locator("#two-versions")).to_have_count(0)
    expect(versions).to_have_count(0, timeout=30_000)
    kept = "The other phone kept its version of the cards of Ann: it is shown here now."
    expect(b.locator("#entry-announce")).to_have_text(kept)
    # said on screen too, not only to a screen reader: the cards changed under Bob's eyes
    news = b.locator(".share-kept")
    expect(news).to_have_text(kept)
    expect(news).to_be_visible()
    for page in (a, b):
        expect(page.locator(".player-panel .chip")).to_have_count(3)
        assert sorted(chips(page)) == ["6H", "7H", "8H"]
    (part,) = HandDraftPart.objects.filter(player=roster[0])
    assert part.data["melds"] == [["6H", "7H", "8H"]] and part.contest is None
    with put_part(b):  # the news stays until Bob taps again
        tap(b, "9H")
    expect(news).to_have_count(0)


def put_part(page: Page):
    """Wait for this phone's next write of a player's part to be answered."""
    return page.expect_response(
        lambda r: "/draft/players/" in r.url and r.request.method == "PUT" and r.ok
    )


def unchanged_draft(route: Route) -> None:
    """A read of the draft answered "nothing new" (304); anything else goes through."""
    if route.request.method == "GET":
        route.fulfill(status=304)
    else:
        route.continue_()


def test_taps_made_while_two_versions_wait_stay_this_phones_own(page_as, alice, bob, roster):
    """Alice and Bob start Ann's meld with different cards and both tap on while the choice is
    on Bob's screen: Bob's version is his taps alone, and keeping it sends exactly those."""
    ann, ben, cleo = roster[:3]
    match, a, b = two_phones(page_as, alice, bob, [ann, ben, cleo])
    b.route("**/draft/**", lambda route: route.abort())
    with put_part(a):
        a.locator('[data-key="bar-new-meld"]').click()
        tap(a, "3H")
    # From here Alice's phone reads nothing new until its next tap is out: had it read Bob's
    # version first, it would show the choice too and keep its taps until one is chosen
    a.route("**/draft/", unchanged_draft)
    b.locator('[data-key="bar-new-meld"]').click()
    tap(b, "3D")
    b.unroute("**/draft/**")
    versions = b.locator("#two-versions")
    # at Bob's phone's next read of the draft (every 2.5 s, later on a loaded machine)
    expect(versions).to_be_visible(timeout=30_000)
    with put_part(a):
        tap(a, "4H")
    a.unroute("**/draft/")
    tap(b, "4D")  # with the choice on screen
    expect(versions.locator(".stale-column.theirs")).to_contain_text("4♥")
    yours = versions.locator(".stale-column.yours .pc")
    expect(yours).to_have_text(["3♦", "4♦"])
    expect(b.locator(".player-panel .chip")).to_have_count(2)
    assert sorted(chips(b)) == ["3D", "4D"]
    with put_part(b):
        b.locator("#keep-mine").click()
    expect(versions).to_have_count(0)
    expect(a.locator('.player-panel .chip[data-card="4D"]')).to_be_visible()
    assert sorted(chips(a)) == ["3D", "4D"]
    (part,) = HandDraftPart.objects.filter(match=match, player=ann)
    assert part.data["melds"] == [["3D", "4D"]]


def test_a_scorekeeper_starts_the_hand_again_on_every_phone(
    page_as, alice, bob, roster, screenshot
):
    ann, ben, cleo = roster[:3]
    match, a, b = two_phones(page_as, alice, bob, [ann, ben, cleo])
    choose_ending(a, str(ben.pk))
    at_once(taps(a, [["6H", "7H", "8H"]], ["KC"]))
    expect(b.locator(".player-panel .chip")).to_have_count(4)

    b.locator("#start-again").click()
    dialog = b.locator("#start-again-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Start hand 1 again?")
    screenshot(b, "start-again")
    dialog.get_by_role("button", name="Cancel").click()
    expect(b.locator(".player-panel .chip")).to_have_count(4)  # nothing changed

    expect(b.locator("#preview-status")).not_to_have_text("")  # the old entry's check
    b.locator("#start-again").click()
    b.locator("#start-again-yes").click()
    expect(b.locator(".player-panel .chip")).to_have_count(0)
    expect(b.locator("#preview-status")).to_have_text("")  # nothing entered, nothing to check
    expect(a.locator(".player-panel .chip")).to_have_count(0)
    expect(a.locator('input[name="ending"]:checked')).to_have_count(0)
    # the other phone is told why its cards went, the phone that cleared them is not
    expect(a.locator("#share-restarted")).to_have_text(
        "Hand 1 was started again on another phone: what was entered for it is cleared."
    )
    expect(b.locator("#share-restarted")).to_have_count(0)
    assert not any(p.data.get("melds") or p.data.get("hand") for p in HandDraftPart.objects.all())
    # the entry goes on from nothing on both phones, the news gone once it does; Alice's
    # phone, last on Ann's cards in hand, starts again at Ann's first meld as Bob's does
    expect(a.locator("#picker-target")).to_contain_text("Meld 1")
    tap(a, "9D")
    expect(b.locator('.player-panel .chip[data-card="9D"]')).to_be_visible()
    expect(a.locator("#share-restarted")).to_have_count(0)


def test_a_review_open_on_one_phone_closes_when_another_starts_the_hand_again(
    page_as, alice, bob, roster
):
    """Alice's phone shows the review of a whole hand; Bob starts the hand again. The review
    was of cards that are gone: her phone goes back to the entry and says why, rather than
    offer to record an empty hand."""
    ann, ben, cleo = roster[:3]
    match, a, b = two_phones(page_as, alice, bob, [ann, ben, cleo])
    enter_the_hand(a, ann)
    harness.wait_until(  # every tap shared: none is left to send again after the restart
        lambda: any(
            len(part.data.get("hand", [])) == len(CLEO_HELD)
            for part in HandDraftPart.objects.filter(match=match, player=cleo)
        ),
        what="Cleo's cards in hand shared",
    )
    expect(a.locator("#preview-status.valid")).to_be_visible()
    a.locator("#record").click()
    review = a.get_by_role("region", name="Check the hand before recording it")
    expect(review).to_be_visible()

    b.locator("#start-again").click()
    b.locator("#start-again-yes").click()
    expect(b.locator(".player-panel .chip")).to_have_count(0)
    expect(review).to_have_count(0)  # at Alice's phone's next read of the draft
    expect(a.locator("#share-restarted")).to_have_text(
        "Hand 1 was started again on another phone: what was entered for it is cleared."
    )
    expect(a.locator(".player-panel .chip")).to_have_count(0)
    assert not Hand.objects.filter(match=match).exists()


def test_a_hand_voided_while_the_next_is_entered_makes_the_entry_the_next_hand(
    page_as, alice, bob, roster
):
    """Hand 1 is recorded; Alice's and Bob's phones enter hand 2, each tapping a player's
    cards, when hand 1 is voided. The hand being entered is the next hand now: hand 1. Bob's
    phone, open, learns it at its next read of the draft; Alice's, which missed it, as she
    opens the entry again. Each keeps every card tapped on it, says why, and shares them
    whole as hand 1 (the void emptied hand 2's draft): nothing is lost or left out."""
    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    record_hand(match, went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), user=alice)
    a, b = phone(page_as, alice), phone(page_as, bob)
    for page in (a, b):
        open_entry(page, match.pk)
        expect(page.get_by_text(SHARED, exact=True)).to_be_visible()
        expect(page.locator("h1")).to_contain_text("Hand 2")
    with put_part(b):
        at_once(taps(b, [["6H", "7H", "8H"]], []))
    a.locator("#tab-1").click()
    with put_part(a):
        at_once(taps(a, [], ["KC", "QD"]))
    expect(b.locator('.player-panel .chip[data-card="KC"]')).to_have_count(0)  # Ann's tab
    a.route("**/draft/**", lambda route: route.abort())  # Alice's phone hears nothing more

    voided = client_for(alice).delete(f"/api/v1/matches/{match.pk}/hands/1/")
    assert voided.status_code in (200, 204)
    news = "The hand before it was voided: this is hand 1 now, and what was entered for it"
    expect(b.locator("#share-renumbered")).to_contain_text(news, timeout=30_000)
    expect(b.locator("h1")).to_contain_text("Hand 1")

    a.unroute("**/draft/**")
    a.reload()
    expect(a.locator("#share-renumbered")).to_contain_text(news)
    expect(a.locator("h1")).to_contain_text("Hand 1")

    def parts() -> dict[int, dict]:
        return {
            part.player_id: part.data
            for part in HandDraftPart.objects.filter(match=match, number=1)
            if part.player_id is not None
        }

    harness.wait_until(
        lambda: (
            parts().get(ann.pk, {}).get("melds") == [["6H", "7H", "8H"]]
            and parts().get(ben.pk, {}).get("hand") == ["KC", "QD"]
        ),
        what="both phones' cards shared as hand 1",
    )
    for page in (a, b):
        page.locator("#tab-1").click()
        expect(page.locator(".player-panel .chip")).to_have_count(2)
        page.locator("#tab-0").click()
        expect(page.locator(".player-panel .chip")).to_have_count(3)


def test_a_players_own_phone_renumbered_after_a_void_shares_their_part_alone(
    page_as, alice, victor, roster
):
    """Victor (a viewer, Cleo's login) enters Cleo's part of hand 2; his phone took in the
    ending Alice's phone chose. Hand 1 is voided while Alice's phone is away: Victor's phone
    takes hand 1 and shares Cleo's cards as hand 1, and nothing it may not write (the ending,
    the others' parts, which their phones share again)."""
    ann, ben, cleo = roster[:3]
    link(roster, alice, None, victor)
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    record_hand(match, went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), user=alice)
    a, v = phone(page_as, alice), phone(page_as, victor)
    for page in (a, v):
        open_entry(page, match.pk)
        expect(page.get_by_text(SHARED, exact=True)).to_be_visible()
    choose_ending(a, str(ann.pk))
    with put_part(v):
        at_once(taps(v, [["5C", "6C", "7C"]], []))
    key = f"arlington.entry.{match.pk}.next"

    def ending_on_victors_phone() -> bool:
        saved = v.evaluate(f"localStorage.getItem('{key}')")
        return bool(saved) and json.loads(saved).get("ending") == "went_out"

    harness.wait_until(ending_on_victors_phone, what="the ending taken in on Victor's phone")
    a.close()  # Alice's phone is away

    voided = client_for(alice).delete(f"/api/v1/matches/{match.pk}/hands/1/")
    assert voided.status_code in (200, 204)
    expect(v.locator("#share-renumbered")).to_be_visible(timeout=30_000)
    expect(v.locator("h1")).to_contain_text("Hand 1")
    harness.wait_until(
        lambda: any(
            part.data.get("melds") == [["5C", "6C", "7C"]]
            for part in HandDraftPart.objects.filter(match=match, number=1, player=cleo)
        ),
        what="Cleo's part shared as hand 1",
    )
    written = HandDraftPart.objects.filter(match=match, number=1).exclude(data={})
    assert [part.player_id for part in written] == [cleo.pk]
    expect(v.locator(".share-status.failed")).to_have_count(0)


def test_a_two_declared_differently_on_two_phones_at_once_says_which_was_kept(
    page_as, alice, bob, roster
):
    """Ann's Q♥ K♥ 2♣ is shared. At the same moment Alice's phone says the two stands for
    A♥ and Bob's, which cannot reach the server for a moment, for J♥. Both phones end on one
    answer, the one written first, and the phone whose answer gave way says so."""
    ann, ben, cleo = roster[:3]
    match, a, b = two_phones(page_as, alice, bob, [ann, ben, cleo])
    with put_part(a):
        at_once(taps(a, [["QH", "KH", "2C"]], []))
    expect(b.locator('.player-panel .chip[data-card="2C"]')).to_be_visible()
    b.route("**/draft/**", lambda route: route.abort())
    declare_two(b, "2C", "JH")
    with put_part(a):
        declare_two(a, "2C", "AH")
    b.unroute("**/draft/**")
    expect(b.locator(".share-clash")).to_contain_text(  # at its next read of the draft
        "Changed on another phone at the same time (Ann)", timeout=30_000
    )
    for page in (a, b):
        expect(page.locator('.player-panel .chip[data-card="2C=AH"]')).to_be_visible()
    (part,) = HandDraftPart.objects.filter(match=match, player=ann)
    assert part.data["melds"] == [["QH", "KH", "2C=AH"]]


def test_the_news_of_a_restart_stays_until_a_tap_made_after_it(page_as, alice, bob, roster):
    """Alice's phone, offline, taps a card it cannot send; Bob starts the hand again meanwhile.
    Back online, her phone sends that card (tapped before it knew) and says why the rest went;
    the sentence stays until she taps again, not only until her old tap has gone out."""
    ann, ben, cleo = roster[:3]
    match, a, b = two_phones(page_as, alice, bob, [ann, ben, cleo])
    with put_part(a):
        a.locator('[data-key="bar-new-meld"]').click()
        tap(a, "9D")
    expect(b.locator('.player-panel .chip[data-card="9D"]')).to_be_visible()
    a.context.set_offline(True)
    tap(a, "10D")
    b.locator("#start-again").click()
    b.locator("#start-again-yes").click()
    expect(b.locator(".player-panel .chip")).to_have_count(0)

    with put_part(a):  # at its next read of the draft
        a.context.set_offline(False)
    expect(b.locator('.player-panel .chip[data-card="10D"]')).to_be_visible()
    (part,) = HandDraftPart.objects.filter(match=match, player=ann)
    assert part.data["melds"] == [["10D"]]
    news = a.locator("#share-restarted")
    expect(news).to_have_text(
        "Hand 1 was started again on another phone: what was entered for it is cleared."
    )
    with put_part(a):
        tap(a, "JD")
    expect(news).to_have_count(0)


def test_starting_again_clears_a_choice_still_waiting_on_another_phone(page_as, alice, bob, roster):
    """Alice and Bob tap different cards for Ann, so Bob's phone waits for a choice between
    two versions; Alice starts the hand again instead. Bob's phone drops both versions, sends
    none of its cards again (they were tapped before the hand was cleared), and says why its
    cards went until Bob taps again."""
    ann, ben, cleo = roster[:3]
    match, a, b = two_phones(page_as, alice, bob, [ann, ben, cleo])
    b.route("**/draft/**", lambda route: route.abort())
    with put_part(a):
        a.locator('[data-key="bar-hand"]').click()
        tap(a, "AH")
    b.locator('[data-key="bar-hand"]').click()
    tap(b, "AD")
    b.unroute("**/draft/**")
    versions = b.locator("#two-versions")
    # at Bob's phone's next read of the draft (every 2.5 s, later on a loaded machine)
    expect(versions).to_be_visible(timeout=30_000)

    a.locator("#start-again").click()
    a.locator("#start-again-yes").click()
    expect(a.locator(".player-panel .chip")).to_have_count(0)
    notice = b.locator("#share-restarted")
    expect(notice).to_have_text(
        "Hand 1 was started again on another phone: what was entered for it is cleared."
    )
    expect(versions).to_have_count(0)
    expect(b.locator(".player-panel .chip")).to_have_count(0)
    # a read later, still nothing came back from Bob's phone, and the notice stays
    with b.expect_response(lambda r: r.url.endswith("/draft/") and r.request.method == "GET"):
        b.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(notice).to_be_visible()
    assert not any(p.data.get("hand") for p in HandDraftPart.objects.filter(match=match))
    expect(a.locator("#share-progress")).to_have_count(0)
    tap(b, "9D")
    expect(a.locator('.player-panel .chip[data-card="9D"]')).to_be_visible()
    expect(notice).to_have_count(0)


def test_an_owner_links_a_player_to_a_member_who_then_enters_their_own_hand(
    page_as, alice, bob, victor, roster, screenshot, assert_accessible
):
    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    a = phone(page_as, alice)
    a.goto(f"/clubs/{ann.club.pk}/")
    field = a.get_by_label("Login of Cleo (this is me)")
    expect(field).to_have_value("")
    field.select_option("victor")
    expect(a.locator(f"#login-{cleo.pk}-status")).to_have_text(
        "Cleo is now victor: they enter their own hand on their phone."
    )
    cleo.refresh_from_db()
    assert cleo.user == victor
    screenshot(a, "roster-this-is-me")
    assert_accessible(a)

    # a scorekeeper keeps the roster's names, the owner its logins
    b = phone(page_as, bob)
    b.goto(f"/clubs/{ann.club.pk}/")
    expect(b.locator(f'#players li[data-player="{cleo.pk}"]')).to_be_visible()
    expect(b.locator("#players select")).to_have_count(0)

    v = phone(page_as, victor)
    v.goto(f"/matches/{match.pk}/")
    v.locator("#enter-hand").click()
    expect(v.locator("#entry .picker")).to_be_visible()
    expect(v.locator('[role="tab"]')).to_have_count(1)
    expect(v.locator("#tab-2")).to_have_attribute("aria-selected", "true")

    field.select_option("")
    expect(a.locator(f"#login-{cleo.pk}-status")).to_have_text("Cleo has no login now.")
    cleo.refresh_from_db()
    assert cleo.user is None


def test_a_player_whose_taps_missed_the_recorded_hand_is_offered_no_refused_button(
    page_as, alice, victor, roster
):
    """Cleo (Victor, who keeps no score) taps while her signal is gone, and the scorekeeper
    records the hand meanwhile: her phone keeps the taps and offers to drop them, but not to
    compare with the recorded hand, which would record a hand she may not record. The screen
    tells her whose phone her taps are waiting for, and then who can still put them in."""
    ann, ben, cleo = roster[:3]
    link(roster, alice, None, victor)
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    v = phone(page_as, victor)
    open_entry(v, match.pk)
    expect(v.get_by_text(SHARED, exact=True)).to_be_visible()
    v.route("**/draft/**", lambda route: route.abort())
    tap(v, "9C")
    expect(
        v.get_by_text(
            "No connection: your taps stay on this phone and reach the scorekeeper's when it "
            "returns."
        )
    ).to_be_visible()
    record_hand(match, {**went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), "number": 1}, user=alice)
    v.unroute("**/draft/**")

    expect(v.locator("#share-status")).to_contain_text(
        "Hand 1 was recorded on another phone before your last changes reached it: show them "
        "to the scorekeeper, who can correct the hand."
    )
    expect(v.locator("#share-drop")).to_be_visible()
    expect(v.locator("#share-compare")).to_have_count(0)
    assert Hand.objects.filter(match=match).count() == 1
