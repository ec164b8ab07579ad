"""A whole match scored on a phone: sign in, start a 3-player match, tap hands until 1,000."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from matches.models import Match, MatchStatus
from tests.factories import RANKS, SUITS, record_hand, went_out
from tests.web.browsing import sign_in
from tests.web.entry import (
    ANN_MELDS,
    BEN_HELD,
    CLEO_HELD,
    choose_ending,
    declare_two,
    enter_player,
    record_reviewed,
    wait_for_preview,
)

ENTER_HAND = re.compile(r"^Enter hand \d+$")  # the next hand, by its number


def sets_of(ranks: list[str], *, leaving: str = "") -> list[list[str]]:
    """One set a rank, of every suit but the card ``leaving``."""
    return [[rank + suit for suit in SUITS if rank + suit != leaving] for rank in ranks]


def record_by_taps(page, ending: str, players: list[tuple[list[list[str]], list[str]]]) -> None:
    page.get_by_role("link", name=ENTER_HAND).click()
    expect(page.locator("#entry .picker")).to_be_visible()
    choose_ending(page, ending)
    for index, (melds, hand) in enumerate(players):
        enter_player(page, index, melds, hand)


def record(page, match_id: int, number: int) -> None:
    wait_for_preview(page, "valid")
    record_reviewed(page)
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    expect(page.locator(f'#hands > li[data-hand="{number}"]')).to_be_visible()


def test_a_scorekeeper_scores_a_match_to_1000_by_tapping_cards(
    page, bob, club, roster, screenshot, assert_accessible
):
    sign_in(page, "bob")
    page.goto(f"/clubs/{club.pk}/matches/new/")
    for name in ("Ann", "Ben", "Cleo"):
        page.locator("#player-choices").get_by_text(name, exact=True).click()
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#next-dealer")).to_have_text("Hand 1: Ann deals")
    match = Match.objects.get()
    ann, ben, cleo = (seat.player for seat in match.seats.order_by("position"))

    # Hand 1 through the API: Ann goes out, 340 (Ben and Cleo -65).
    record_hand(match, went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), user=bob)
    page.reload()

    # Hand 2, tapped: Ann goes out with J♠ 2♦ K♠, the two declared as Q♠ from the picker's
    # suggestion: 70 + 60 + 30 + 30 + 30 + 100 = 320.
    record_by_taps(
        page,
        str(ann.pk),
        [
            (
                [
                    ["JS", "2D", "KS"],
                    ["AH", "AD", "AC"],
                    ["KH", "KD", "KC"],
                    ["10H", "10D", "10C"],
                    ["9H", "9D", "9C"],
                ],
                [],
            ),
            ([["5D", "6D", "7D"]], BEN_HELD),
            ([["5C", "6C", "7C"]], CLEO_HELD),
        ],
    )
    page.locator("#tab-0").click()
    declare_two(page, "2D", "QS")
    wait_for_preview(page, "valid")
    expect(page.locator("#tab-0 .tab-net")).to_have_text("+320")
    screenshot(page, "hand-entry-wild-two")
    assert_accessible(page)
    record(page, match.pk, 2)

    # Hand 3, tapped: the stock runs out with all 104 cards accounted for. Ben melds a whole
    # pack but the 3♣ he holds (530); Ann 235; Cleo 265.
    record_by_taps(
        page,
        "stock_exhausted",
        [
            (sets_of(["A", "K", "Q", "J"]), ["3C"]),
            (sets_of(RANKS, leaving="3C"), ["3C"]),
            (sets_of(["2", "4", "5", "6", "7", "8", "9", "10"]), ["3S", "3H", "3D"]),
        ],
    )
    for card in ("AS", "3C", "10D"):  # every copy of the deal is used: nothing left to pick
        expect(page.locator(f'.picker button[data-card="{card}"]')).to_be_disabled()
    wait_for_preview(page, "valid")
    expect(page.locator("#tab-1 .tab-net")).to_have_text("+530")
    screenshot(page, "hand-entry-stock-exhausted")
    record(page, match.pk, 3)
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS

    # Hand 4, tapped: Ann goes out again (340) and passes 1,000 with 1,235.
    record_by_taps(
        page,
        str(ann.pk),
        [
            (ANN_MELDS, []),
            ([["5D", "6D", "7D"]], BEN_HELD),
            ([["5C", "6C", "7C"]], CLEO_HELD),
        ],
    )
    record(page, match.pk, 4)

    expect(page.locator("#finish-banner")).to_contain_text("Ann wins with 1,235")
    screenshot(page, "match-finished-by-taps")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    totals = {seat.player_id: seat.total for seat in match.seats.all()}
    assert totals == {
        ann.pk: 340 + 320 + 235 + 340,
        ben.pk: -65 - 65 + 530 - 65,
        cleo.pk: -65 - 65 + 265 - 65,
    }
    assert [seat.player_id for seat in match.seats.all() if seat.winner] == [ann.pk]
    wild = match.hands.get(number=2).results.get(player=ann)
    assert ["JS", "2D=QS", "KS"] in [meld["cards"] for meld in wild.melds]
