"""At the table without a signal: the app opens from the service worker, a hand recorded
offline waits in the outbox (IndexedDB) across a reload, and is sent once when the connection
returns, with the Idempotency-Key it was made with."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from rest_framework.test import APIClient

from tests import harness
from tests.factories import create_match
from tests.web.browsing import sign_in_cookie
from tests.web.entry import (
    ANN_MELDS,
    BEN_HELD,
    CLEO_HELD,
    choose_ending,
    enter_player,
    enter_the_hand,
    open_entry,
    record_reviewed,
    tap,
)


def hands_through_the_api(match, user) -> list[dict]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.get(f"/api/v1/matches/{match.pk}/hands/")
    assert response.status_code == 200
    return response.json()["results"]


def wait_for_service_worker(page) -> None:
    """Until the service worker controls the page (polled: the page's CSP forbids eval)."""
    for _ in range(100):
        if page.evaluate("() => navigator.serviceWorker.controller !== null"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never took the page")


# Counts, on the page's root element, each "outbox-change" the page fires: the outbox fires one
# whenever an entry is added, updated or removed, and once at the end of every replay, the first
# of which starts as the page opens.
COUNT_OUTBOX_CHANGES = """
window.addEventListener("outbox-change", () => {
  const marks = document.documentElement.dataset;
  marks.outboxChanges = String(Number(marks.outboxChanges ?? 0) + 1);
});
"""


def wait_for_outbox_replay(page) -> None:
    """Until the outbox of the page just opened has been replayed (or changed) at least once.

    The page must have been given ``COUNT_OUTBOX_CHANGES`` (``add_init_script``) before it opened.
    A page that finds nothing of its user's to send fires its first change at the end of the
    replay it starts as it opens, so anything that replay would send has been sent by then."""
    expect(page.locator("html")).to_have_attribute("data-outbox-changes", re.compile(r"^[1-9]"))


def test_a_hand_recorded_offline_waits_across_a_reload_and_is_sent_once_online(
    page_as, bob, roster, screenshot, assert_accessible
):
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob, table="Table 4")
    page = page_as(bob)
    context = page.context

    # Online once: the service worker installs, takes the page, and keeps what it reads.
    page.goto(f"/matches/{match.pk}/")
    wait_for_service_worker(page)
    page.reload()
    expect(page.locator("#hands-section")).to_be_visible()  # all its reads kept
    open_entry(page, match.pk)

    context.set_offline(True)
    enter_the_hand(page, ann)
    expect(page.locator("#preview-status.offline")).to_be_visible()
    page.locator("#record").click()

    # The match page opens from the cache and shows the hand as waiting.
    expect(page).to_have_url(f"{page.url.split('/matches/')[0]}/matches/{match.pk}/")
    waiting = page.locator('#outbox li[data-state="waiting"]')
    expect(waiting).to_have_count(1)
    page.reload()
    expect(waiting).to_have_count(1)
    assert hands_through_the_api(match, bob) == []  # nothing reached the server
    # The tab closed, a new one opened, still without a connection. Chromium applies its offline
    # emulation to a new tab a moment after the tab starts, and the outbox replays at once, so
    # now and then that first replay does reach the server: the hand's key makes it count once
    # (checked below), so from here on only what the page shows is asserted.
    page.close()
    page = context.new_page()
    page.goto(f"/matches/{match.pk}/")
    waiting = page.locator('#outbox li[data-state="waiting"]')
    expect(waiting).to_have_count(1)
    expect(page.locator("#seats li")).to_have_count(3)  # the match itself, from the cache
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()  # the waiting hand counts
    screenshot(page, "match-offline-outbox")
    assert_accessible(page)

    context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0, timeout=20_000)
    hands = hands_through_the_api(match, bob)
    assert [hand["number"] for hand in hands] == [1]
    assert {r["player"]: r["net"] for r in hands[0]["results"]} == {
        ann.pk: 340,
        ben.pk: -65,
        cleo.pk: -65,
    }

    # Sending again (another tab, a second replay) never records a second hand.
    page.add_init_script(COUNT_OUTBOX_CHANGES)
    page.reload()
    wait_for_outbox_replay(page)
    assert len(hands_through_the_api(match, bob)) == 1


def test_a_waiting_hand_refused_on_replay_is_kept_with_its_sentences_for_editing(
    page_as, bob, roster, screenshot, assert_accessible
):
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    page = page_as(bob)
    context = page.context
    page.goto(f"/matches/{match.pk}/")
    wait_for_service_worker(page)
    page.reload()
    expect(page.locator("#hands-section")).to_be_visible()  # all its reads kept
    open_entry(page, match.pk)

    # Offline, nothing can check it: Ben's cards left in hand are forgotten.
    context.set_offline(True)
    choose_ending(page, str(ann.pk))
    enter_player(page, 0, ANN_MELDS, [])
    enter_player(page, 1, [["5D", "6D", "7D"]], [])
    enter_player(page, 2, [["5C", "6C", "7C"]], CLEO_HELD)
    page.locator("#record").click()
    expect(page.locator('#outbox li[data-state="waiting"]')).to_have_count(1)
    expect(page.locator("#messages")).to_contain_text("No connection: the hand is waiting")

    context.set_offline(False)
    refused = page.locator('#outbox li[data-state="refused"]')
    expect(refused).to_have_count(1, timeout=20_000)
    expect(refused.locator('[data-code="player_without_cards"]')).to_be_visible()
    # nothing waits any more: the banner saying it would be sent goes
    expect(page.locator("#messages")).not_to_contain_text("No connection")
    page.reload()
    expect(refused).to_have_count(1)  # kept, never dropped
    expect(page.locator("#hands-section")).to_be_visible()
    screenshot(page, "match-outbox-refused")
    assert_accessible(page)
    assert hands_through_the_api(match, bob) == []

    refused.get_by_role("button", name="Edit and send again").click()
    expect(page.locator("#entry .picker")).to_be_visible()
    enter_player(page, 1, [], BEN_HELD)
    page.locator("#tab-1").click()
    expect(page.locator(".player-panel .group.hand .chip")).to_have_count(len(BEN_HELD))
    expect(page.locator("#preview-status.valid")).to_be_visible()
    record_reviewed(page)

    expect(page).to_have_url(f"{page.url.split('/matches/')[0]}/matches/{match.pk}/")
    expect(page.locator("#outbox")).to_have_count(0)
    hands = hands_through_the_api(match, bob)
    assert [hand["number"] for hand in hands] == [1]
    assert {r["player"]: r["net"] for r in hands[0]["results"]} == {
        ann.pk: 340,
        ben.pk: -65,
        cleo.pk: -65,
    }


def test_an_answer_lost_on_the_way_back_is_replayed_with_its_key_into_one_hand(
    new_context, live_server, bob, roster
):
    """The server records the hand but the phone never hears back: the hand waits in the outbox
    and its replay, with the same Idempotency-Key, is answered with the first answer."""
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob)
    context = new_context(service_workers="block")  # so that the page's own requests are routed
    sign_in_cookie(context, bob, live_server)
    page = context.new_page()
    sent = []

    def lose_the_answer(route):
        if route.request.method != "POST" or sent:  # the first POST alone
            return route.continue_()
        sent.append(route.request.headers["idempotency-key"])
        route.fetch()  # the server records the hand...
        route.abort("internetdisconnected")  # ...and the answer never arrives

    answers = []
    page.on(
        "response",
        lambda r: (
            r.request.method == "POST"
            and r.url.endswith(f"/matches/{match.pk}/hands/")
            and answers.append(
                (
                    r.status,
                    r.request.headers.get("idempotency-key"),
                    r.headers.get("idempotent-replayed"),
                )
            )
        ),
    )
    page.route(f"**/api/v1/matches/{match.pk}/hands/", lose_the_answer)
    open_entry(page, match.pk)
    enter_the_hand(page, ann)
    record_reviewed(page)

    expect(page).to_have_url(f"{page.url.split('/matches/')[0]}/matches/{match.pk}/")
    expect(page.locator("#messages .notice")).to_contain_text("recorded as hand 1")
    expect(page.locator("#outbox")).to_have_count(0)
    assert answers == [(201, sent[0], "true")]  # the replay: the first answer, replayed
    assert [hand["number"] for hand in hands_through_the_api(match, bob)] == [1]


def test_a_hand_the_server_could_not_record_waits_and_is_sent_again(
    new_context, live_server, bob, roster
):
    ann, ben = roster[:2]
    match = create_match(roster[0].club, [ann, ben], user=bob)
    context = new_context(service_workers="block")
    sign_in_cookie(context, bob, live_server)
    page = context.new_page()
    unavailable = {
        "type": "server_error",
        "errors": [
            {
                "code": "database_unavailable",
                "detail": "The database cannot be reached.",
                "attr": None,
            }
        ],
    }
    refused = []

    def unavailable_once(route):
        if route.request.method != "POST" or refused:  # the first POST alone
            return route.continue_()
        refused.append(route.request.headers["idempotency-key"])
        return route.fulfill(status=503, json=unavailable)

    page.route(f"**/api/v1/matches/{match.pk}/hands/", unavailable_once)
    open_entry(page, match.pk)
    choose_ending(page, str(ann.pk))
    enter_player(page, 0, ANN_MELDS, [])
    enter_player(page, 1, [["5D", "6D", "7D"]], BEN_HELD)
    record_reviewed(page)

    expect(page).to_have_url(f"{page.url.split('/matches/')[0]}/matches/{match.pk}/")
    expect(page.locator("#messages .notice")).to_contain_text("recorded as hand 1")
    assert [hand["number"] for hand in hands_through_the_api(match, bob)] == [1]


def test_a_match_only_seen_in_its_clubs_list_is_entered_offline(
    page_as, bob, roster, screenshot, assert_accessible
):
    """Offline from the first visit: neither the match's page nor its entry screen was ever
    opened, only the club page that lists it."""
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob, table="Table 7")
    page = page_as(bob)
    context = page.context
    page.goto(f"/clubs/{ann.club.pk}/")
    wait_for_service_worker(page)
    page.reload()
    expect(page.locator("#live-matches")).to_have_attribute("data-kept", "true")

    context.set_offline(True)
    page.goto(f"/matches/{match.pk}/hands/new/")
    expect(page.locator("#entry .picker")).to_be_visible()
    expect(page.locator("#entry h1")).to_have_text("Hand 1")
    enter_the_hand(page, ann)
    expect(page.locator("#preview-status.offline")).to_be_visible()
    screenshot(page, "entry-offline-first-visit")
    assert_accessible(page)
    page.locator("#record").click()
    expect(page).to_have_url(f"{page.url.split('/matches/')[0]}/matches/{match.pk}/")
    expect(page.locator('#outbox li[data-state="waiting"]')).to_have_count(1)
    assert hands_through_the_api(match, bob) == []

    context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0, timeout=20_000)
    hands = hands_through_the_api(match, bob)
    assert {r["player"]: r["net"] for r in hands[0]["results"]} == {
        ann.pk: 340,
        ben.pk: -65,
        cleo.pk: -65,
    }


def test_an_answer_kept_for_want_of_a_connection_says_so(page_as, bob, roster):
    """The match page asks for the match every few seconds whatever the browser says of its
    connection; offline, the service worker answers from its cache, and marks that answer, so
    that the page does not take it for the server answering again ("No connection" stays)."""
    match = create_match(roster[0].club, roster[:3], user=bob)
    page = page_as(bob)
    page.goto(f"/matches/{match.pk}/")
    wait_for_service_worker(page)
    page.reload()
    expect(page.locator("#hands-section")).to_be_visible()  # its reads kept
    read = """(url) => fetch(url, {headers: {Accept: "application/json",
        "Accept-Language": document.documentElement.lang || "en"}})
        .then((r) => [r.status, r.headers.get("X-Arlington-Kept")])"""
    url = f"/api/v1/matches/{match.pk}/"

    assert page.evaluate(read, url) == [200, None]  # from the server
    page.context.set_offline(True)
    assert page.evaluate(read, url) == [200, "1"]  # the kept copy, marked


def test_cards_typed_without_a_connection_are_refused_until_it_returns(page_as, bob, roster):
    """Typed cards are read by the server: offline, the field says so and points to the picker
    (not "Showing what was loaded last"), and the sentence goes when the connection is back."""
    match = create_match(roster[0].club, roster[:3], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)
    page.context.set_offline(True)
    page.locator("#typed").fill("9D")
    page.locator("#typed").press("Enter")
    error = page.locator("#typed-error")
    expect(error).to_have_text(
        "Typed cards are read by the server, which cannot be reached: tap the cards instead."
    )
    expect(page.locator("#typed")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#typed")).to_have_value("9D")  # kept, to add once it can be read
    page.context.set_offline(False)
    expect(error).to_have_text("")
    expect(page.locator("#typed")).not_to_have_attribute("aria-invalid", "true")


def test_the_preview_asked_for_without_a_connection_is_asked_again_once_it_returns(
    page_as, bob, roster
):
    """Offline, the preview cannot be asked for (the kinds, points and nets come from the
    server); when the connection is back it is asked again without another tap."""
    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=bob)
    page = page_as(bob)
    open_entry(page, match.pk)
    choose_ending(page, str(ann.pk))
    enter_player(page, 0, ANN_MELDS, [])
    page.context.set_offline(True)
    enter_player(page, 1, [], BEN_HELD)
    expect(page.locator("#preview-status.offline")).to_be_visible()
    page.context.set_offline(False)
    expect(page.locator("#preview-status.offline")).to_have_count(0)
    expect(page.locator("#preview-status")).to_have_class(re.compile(r"\b(valid|invalid)\b"))


def test_an_entry_opened_from_a_link_records_offline_and_any_page_sends_it(page_as, bob, roster):
    """The entry screen opened straight from a link, nothing else of the match ever seen: it
    keeps the match's page for offline use, so a hand recorded without a connection shows there
    as waiting; and whatever page of the app is open when the connection returns sends it (here
    the start page)."""
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob, table="Table 9")
    page = page_as(bob)
    context = page.context
    page.goto(f"/matches/{match.pk}/hands/new/")
    wait_for_service_worker(page)
    expect(page.locator("#entry")).to_have_attribute("data-kept", "true")

    context.set_offline(True)
    enter_the_hand(page, ann)
    page.locator("#record").click()
    expect(page).to_have_url(f"{page.url.split('/matches/')[0]}/matches/{match.pk}/")
    expect(page.locator('#outbox li[data-state="waiting"]')).to_have_count(1)
    expect(page.locator("#seats li")).to_have_count(3)

    page.goto("/")  # the start page, kept by the service worker
    expect(page.locator("#club-list")).to_be_attached()
    assert hands_through_the_api(match, bob) == []
    context.set_offline(False)
    harness.wait_until(
        lambda: len(hands_through_the_api(match, bob)) == 1, what="the waiting hand sent"
    )
    hands = hands_through_the_api(match, bob)
    assert {r["player"]: r["net"] for r in hands[0]["results"]} == {
        ann.pk: 340,
        ben.pk: -65,
        cleo.pk: -65,
    }


def test_an_entry_begun_behind_a_waiting_hand_keeps_its_number_once_that_hand_is_sent(
    page_as, bob, roster
):
    """Offline, Bob records hand 1 (it waits in the outbox) and begins hand 2. Online on the
    clubs page, hand 1 is sent; offline again, he opens the entry: no hand was voided, and the
    entry is still hand 2, though the match kept for offline use still says hand 1 is next."""
    ann, ben, cleo = roster[:3]
    match = create_match(roster[0].club, [ann, ben, cleo], user=bob, table="Table 9")
    page = page_as(bob)
    context = page.context
    page.goto(f"/matches/{match.pk}/hands/new/")
    wait_for_service_worker(page)
    expect(page.locator("#entry")).to_have_attribute("data-kept", "true")

    context.set_offline(True)
    enter_the_hand(page, ann)
    page.locator("#record").click()
    expect(page.locator('#outbox li[data-state="waiting"]')).to_have_count(1)
    page.goto(f"/matches/{match.pk}/hands/new/")
    expect(page.locator("h1")).to_contain_text("Hand 2")
    page.locator('[data-key="bar-new-meld"]').click()
    tap(page, "9S")  # hand 2 begun on this phone

    page.goto("/")
    expect(page.locator("#club-list")).to_be_attached()
    context.set_offline(False)
    harness.wait_until(
        lambda: len(hands_through_the_api(match, bob)) == 1, what="the waiting hand sent"
    )
    context.set_offline(True)
    page.goto(f"/matches/{match.pk}/hands/new/")
    expect(page.locator("#entry .picker")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Hand 2")
    expect(page.locator("#share-renumbered")).to_have_count(0)
