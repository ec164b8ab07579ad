"""Two versions of a player's cards, chosen on two phones: one choice counts, on both.

Alice's phone wrote Ann's meld as 6♥ 7♥ 8♥ and Bob's, cut off meanwhile, entered 6♠ 7♠ 8♠:
both show the two versions (tests/web/test_own_hands.py, ``differing_phones``). Here both
choose at once, or one taps on before choosing.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Request, Route, expect

from matches.models import HandDraftPart
from tests.web.entry import tap
from tests.web.test_own_hands import chips, differing_phones

HEARTS, SPADES = ["6H", "7H", "8H"], ["6S", "7S", "8S"]
KEPT_THEIRS = "The other phone kept its version of the cards of Ann: it is shown here now."
KEPT_YOURS = (
    "The other phone chose this phone's version of the cards of Ann: it is shown here again."
)


def is_choice(request: Request) -> bool:
    """A phone's choice between the two versions: the part written, or the offer withdrawn."""
    return "/draft/players/" in request.url and request.method in ("PUT", "DELETE")


def held_back(page: Page) -> list[Route]:
    """Hold this phone's next write of a player's part (a choice) until released; reads, and
    the writes after it, go on."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        if is_choice(route.request) and not held:
            held.append(route)
        else:
            route.continue_()

    page.route(lambda url: "/draft/players/" in url, hold)
    return held


def answered(page: Page):
    return page.expect_response(lambda r: is_choice(r.request))


@pytest.mark.parametrize(
    ("which", "first", "kept", "news"),
    [
        ("mine", "alice", HEARTS, KEPT_THEIRS),
        ("mine", "bob", SPADES, KEPT_THEIRS),
        ("theirs", "alice", SPADES, KEPT_YOURS),
    ],
    ids=["keep-mine-alice-first", "keep-mine-bob-first", "keep-theirs-alice-first"],
)
def test_two_phones_choosing_at_once_end_on_one_version_and_the_other_is_told(
    page_as, alice, bob, roster, which, first, kept, news
):
    """Both phones press the same button a moment apart: the choice answered first counts, the
    other phone takes it and says so. Before, keeping the part as written left its version as
    it was, so the other phone's write from that version went through either way, and the
    phone whose choice was undone said nothing."""
    a, b, versions = differing_phones(page_as, alice, bob, roster)
    expect(a.locator("#two-versions")).to_be_visible(timeout=30_000)
    winner, loser = (a, b) if first == "alice" else (b, a)
    held = held_back(loser)
    with loser.expect_request(is_choice):
        loser.locator(f"#keep-{which}").click()
    with answered(winner) as first_answer:
        winner.locator(f"#keep-{which}").click()
    assert first_answer.value.ok
    assert len(held) == 1  # the loser's choice reaches the server only now
    with answered(loser) as late:
        held[0].continue_()
    assert late.value.status == 409

    news_line = loser.locator(".share-kept")
    expect(news_line).to_have_text(news)
    expect(loser.locator("#entry-announce")).to_have_text(news)
    expect(winner.locator(".share-kept")).to_have_count(0)
    for page in (a, b):
        expect(page.locator("#two-versions")).to_have_count(0)
        expect(page.locator(f'.player-panel .chip[data-card="{kept[0]}"]')).to_be_visible()
        assert sorted(chips(page)) == sorted(kept)
    (part,) = HandDraftPart.objects.filter(player=roster[0])
    assert part.data["melds"] == [kept] and part.contest is None
    # the news stays on screen, read after read, until the loser taps again
    with loser.expect_response(lambda r: r.url.endswith("/draft/") and r.request.method == "GET"):
        loser.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(news_line).to_be_visible()


def test_keeping_this_phones_version_after_tapping_on_settles_it_with_one_press(
    page_as, alice, bob, roster
):
    """Alice's version is the part, Bob's is offered beside it; Alice taps 9♥ into her meld
    while the choice is on screen, then keeps her version. Both boxes go at once, and Bob's
    phone takes her meld with the 9♥ and says why. Before, the held-back tap moved the part's
    version, Bob's phone took that for a new version that still differed and offered its own
    again: a second press was needed."""
    a, b, versions = differing_phones(page_as, alice, bob, roster)
    box = a.locator("#two-versions")
    expect(box).to_be_visible(timeout=30_000)
    tap(a, "9H")
    expect(box.locator(".stale-column.yours")).to_contain_text("9♥")
    a.locator("#keep-mine").click()
    expect(box).to_have_count(0)
    expect(b.locator(".share-kept")).to_have_text(KEPT_THEIRS, timeout=30_000)
    expect(versions).to_have_count(0)
    whole = [*HEARTS, "9H"]
    for page in (a, b):
        expect(page.locator('.player-panel .chip[data-card="9H"]')).to_be_visible()
        assert sorted(chips(page)) == sorted(whole)
    # a read later on both phones, nobody offers anything again
    for page in (b, a):
        with page.expect_response(
            lambda r: r.url.endswith("/draft/") and r.request.method == "GET"
        ):
            page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        expect(page.locator("#two-versions")).to_have_count(0)
    (part,) = HandDraftPart.objects.filter(player=roster[0])
    assert part.data["melds"] == [whole] and part.contest is None


def test_two_versions_from_one_login_name_the_other_as_your_own_phone(page_as, alice, roster):
    """Two phones of Alice's enter Ann's meld differently: each box names the other version
    as on another of her phones. Before, it said "On the phone of alice", her own username."""
    a, tablet, box = differing_phones(page_as, alice, alice, roster)
    expect(box.locator(".stale-column.theirs h3")).to_have_text("On another of your phones")
    offered = a.locator("#two-versions")
    expect(offered).to_be_visible(timeout=30_000)
    expect(offered.locator(".stale-column.theirs h3")).to_have_text("On another of your phones")


def test_taps_held_back_by_a_withdrawal_whose_answer_was_lost_are_sent(page_as, alice, bob, roster):
    """Alice keeps her version, the part as written, and taps 9♥ while the withdrawal is on
    its way; the server keeps her choice but its answer never reaches her phone (the
    connection dropped). Her phone learns of its own choice at its next read or retry, and
    sends the 9♥ then. Before, it took the part as written over her cards: the 9♥ went
    without a word."""
    a, b, versions = differing_phones(page_as, alice, bob, roster)
    expect(a.locator("#two-versions")).to_be_visible(timeout=30_000)
    held = held_back(a)
    with a.expect_request(is_choice):
        a.locator("#keep-mine").click()
    tap(a, "9H")
    expect(a.locator('.player-panel .chip[data-card="9H"]')).to_be_visible()
    (withdrawal,) = held
    assert withdrawal.request.method == "DELETE"
    assert withdrawal.fetch().ok  # the choice counts on the server...
    withdrawal.abort()  # ...and its answer is lost on the way back
    whole = [*HEARTS, "9H"]
    # Bob's phone shows the 9♥ once it is shared: Alice's phone sent it
    expect(b.locator('.player-panel .chip[data-card="9H"]')).to_be_visible(timeout=30_000)
    expect(b.locator(".share-kept")).to_have_text(KEPT_THEIRS)
    for page in (a, b):
        expect(page.locator('.player-panel .chip[data-card="9H"]')).to_be_visible()
        assert sorted(chips(page)) == sorted(whole)
    expect(a.locator(".share-kept")).to_have_count(0)  # her own choice: no news
    (part,) = HandDraftPart.objects.filter(player=roster[0])
    assert part.data["melds"] == [whole] and part.contest is None


@pytest.mark.parametrize(
    ("tapping", "first", "whole"),
    [("alice", "bob", [[*HEARTS, "9H"]]), ("bob", "alice", [HEARTS, ["9H"]])],
    ids=["alice-taps-bob-first", "bob-taps-alice-first"],
)
def test_taps_made_while_both_phones_keep_the_same_version_are_sent(
    page_as, alice, bob, roster, tapping, first, whole
):
    """Both phones keep the part as written (Alice "this phone's", Bob "the other phone's")
    at the same moment, and the phone whose choice reaches the server second had tapped 9♥
    meanwhile. Both chose the same, so nothing is taken over its cards: the 9♥ is shared,
    and nobody is told of another's choice. Before, the second phone took the part as it
    stood over its cards, and the 9♥ went without a word."""
    a, b, versions = differing_phones(page_as, alice, bob, roster)
    expect(a.locator("#two-versions")).to_be_visible(timeout=30_000)
    pages = {"alice": (a, "mine"), "bob": (b, "theirs")}
    loser, loser_keeps = pages[tapping]
    winner, winner_keeps = pages[first]
    held = held_back(loser)
    with loser.expect_request(is_choice):
        loser.locator(f"#keep-{loser_keeps}").click()
    tap(loser, "9H")
    expect(loser.locator('.player-panel .chip[data-card="9H"]')).to_be_visible()
    with answered(winner) as first_answer:
        winner.locator(f"#keep-{winner_keeps}").click()
    assert first_answer.value.ok
    with answered(loser) as late:
        held[0].continue_()
    assert late.value.status == 409
    # the winner's phone shows the 9♥ once it is shared: the loser's phone sent it
    expect(winner.locator('.player-panel .chip[data-card="9H"]')).to_be_visible(timeout=30_000)
    for page in (a, b):
        expect(page.locator('.player-panel .chip[data-card="9H"]')).to_be_visible()
        expect(page.locator("#two-versions")).to_have_count(0)
        assert sorted(chips(page)) == sorted(card for meld in whole for card in meld)
    expect(loser.locator(".share-kept")).to_have_count(0)
    expect(winner.locator(".share-kept")).to_have_count(0)
    (part,) = HandDraftPart.objects.filter(player=roster[0])
    assert part.data["melds"] == whole and part.contest is None


def test_a_withdrawal_saved_by_the_release_before_is_settled_when_refused(
    page_as, alice, bob, roster
):
    """Alice's phone pressed "Keep this phone's" under the release before, which saved the
    withdrawal as `true` with no choice remembered, and was closed before sending it. Bob
    then kept his own version. When the entry opens again, her phone finds the part moved on
    from the version her choice was made on, as the server's refusal of it would say: it
    takes Bob's version and says so, and what she taps for Ann is shared again. Before, the
    withdrawal stayed waiting for good: every send repeated it, refused each time, and nothing
    she tapped for Ann left her phone."""
    a, b, versions = differing_phones(page_as, alice, bob, roster)
    expect(a.locator("#two-versions")).to_be_visible(timeout=30_000)
    entry = a.url
    a.goto(entry.replace("hands/new/", ""))  # the entry left: nothing of it is sent
    ann = str(roster[0].pk)
    a.evaluate(
        """ann => {
          const key = Object.keys(localStorage).find((k) => k.startsWith("arlington.entry."));
          const draft = JSON.parse(localStorage.getItem(key));
          draft.shared.drops[ann] = true;  // as the release before saved a withdrawal
          delete draft.shared.conflicts[ann];
          delete draft.shared.chosen;
          localStorage.setItem(key, JSON.stringify(draft));
        }""",
        ann,
    )
    with answered(b) as kept:
        b.locator("#keep-mine").click()
    assert kept.value.ok
    a.goto(entry)
    expect(a.locator(".share-kept")).to_have_text(KEPT_THEIRS)
    expect(a.locator('.player-panel .chip[data-card="6S"]')).to_be_visible()
    assert sorted(chips(a)) == sorted(SPADES)
    tap(a, "9S")
    # Bob's phone shows the 9♠ once it is shared: Alice's phone sent it
    expect(b.locator('.player-panel .chip[data-card="9S"]')).to_be_visible(timeout=30_000)
    (part,) = HandDraftPart.objects.filter(player=roster[0])
    assert sorted(card for meld in part.data["melds"] for card in meld) == sorted([*SPADES, "9S"])
