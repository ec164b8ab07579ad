"""One hand entered by several phones at once, through the API's draft of the hand.

Alice's phone (A) taps the ending and the melds; Bob's phone (B) taps the cards left in the
players' hands. Each sees the other's taps within seconds, one of them records, and the hand
recorded is the one both entered together, once.
"""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import expect

from matches.models import Hand
from tests.factories import create_match, record_hand, went_out
from tests.web.entry import choose_ending, choose_player, open_entry, record_reviewed, tap

ANN_MELDS = [["AS", "AH", "AD", "AC"], ["AS", "AH", "AD"], ["KS", "KH", "KD"], ["QS", "QH", "QD"]]
BEN_MELDS = [["5D", "6D", "7D"]]
CLEO_MELDS = [["5C", "6C", "7C"]]
BEN_HELD = ["3C", "4C", "8H", "9H", "10H", "JH", "3D", "4D", "8C", "9C"]
CLEO_HELD = ["3H", "4H", "8S", "9S", "10S", "JS", "3S", "4S", "8D", "9D"]
SHARED = "Shared with the other phones at this table."


def phone(page_as, user):
    page = page_as(user)
    page.set_default_timeout(30_000)
    return page


def melds(page, index: int, melds: list[list[str]]) -> None:
    choose_player(page, index)
    for meld in melds:
        page.locator('[data-key="bar-new-meld"]').click()
        for code in meld:
            tap(page, code)


def held(page, index: int, cards: list[str]) -> None:
    choose_player(page, index)
    page.locator('[data-key="bar-hand"]').click()
    for card in cards:
        tap(page, card)


def chips(page, group: str) -> list[str]:
    """The cards shown in the active player's group ("hand", or a meld's index)."""
    return page.locator(f'.player-panel li.group[data-group="{group}"] .chip').evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )


def test_two_phones_share_one_entry_and_record_it_once(
    page_as, alice, bob, roster, screenshot, assert_accessible
):

    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice, table="Table 2")
    a, b = phone(page_as, alice), phone(page_as, bob)
    open_entry(a, match.pk)
    open_entry(b, match.pk)
    expect(a.get_by_text(SHARED, exact=True)).to_be_visible()
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()

    # Bob taps the cards Ben and Cleo hold, while Alice taps the ending and every meld: Ben's
    # melds and Ben's held cards are one player's, entered on two phones at the same time.
    held(b, 1, BEN_HELD)
    choose_ending(a, str(ann.pk))
    melds(a, 0, ANN_MELDS)
    melds(a, 1, BEN_MELDS)
    held(b, 2, CLEO_HELD)
    melds(a, 2, CLEO_MELDS)

    # Each phone shows the other's taps, and says where they came from.
    choose_player(a, 2)
    expect(a.locator(".player-panel .shared-from")).to_have_text(
        "Also entered on another phone by bob."
    )
    expect(a.locator(".player-panel li.group.hand .chip")).to_have_count(len(CLEO_HELD))
    choose_player(b, 1)
    expect(b.locator('.player-panel li.group[data-group="0"] .chip')).to_have_count(3)
    expect(b.locator(f'input[name="ending"][value="{ann.pk}"]')).to_be_checked()
    assert Counter(chips(b, "hand")) == Counter(BEN_HELD)
    screenshot(a, "shared-entry")
    assert_accessible(a)

    record_reviewed(a)
    expect(a.locator("#messages")).to_contain_text("Hand 1 recorded.")
    hand = Hand.objects.get(match=match)
    results = {r.player_id: r for r in hand.results.all()}
    assert Counter(h["card"] for h in results[ben.pk].held) == Counter(BEN_HELD)
    assert Counter(h["card"] for h in results[cleo.pk].held) == Counter(CLEO_HELD)
    assert [m["cards"] for m in results[cleo.pk].melds] == CLEO_MELDS
    assert hand.went_out_id == ann.pk

    # Bob's phone learns that the hand it helped enter is recorded: nothing is left to enter.
    expect(b.locator("#share-status")).to_contain_text("Hand 1 was recorded on another phone.")
    expect(b.locator("#entry .picker")).to_have_count(0)
    expect(b.get_by_role("link", name="Back to the match")).to_have_count(2)
    assert Hand.objects.filter(match=match).count() == 1
    # and its next entry is of the next hand, not hand 1 again
    open_entry(b, match.pk)
    expect(b.locator("#entry h1")).to_have_text("Hand 2")
    expect(b.locator(".player-panel .chip")).to_have_count(0)


MERGE = """async ([ann, ben, answer, mine]) => {
  const d = await import("/static/web/entry/draft.js");
  const limits = {ruleset: "arlington", copies: 2, maxMeld: 4, wild: "2",
                  endings: ["went_out", "stock_exhausted"], flags: []};
  const seats = [{player: ann, name: "Ann"}, {player: ben, name: "Ben"}];
  const draft = d.freshDraft(seats, limits);
  mine(draft);
  const result = d.adoptShared(draft, answer);
  return {result, ben: d.partData(draft, String(ben)), ann: d.partData(draft, String(ann)),
          ending: d.partData(draft, "ending"), pending: d.pendingParts(draft)};
}"""


def merged(page, ann, ben, answer, mine: str) -> dict:
    """Run the merge in the page: ``mine`` is a script body changing ``draft`` as this phone's
    taps did since the last share; ``answer`` the other phone's draft as the API answers it."""
    script = MERGE.replace("mine(draft);", mine)
    return page.evaluate(script, [ann, ben, answer, None])


def test_taps_on_two_phones_in_one_players_cards_are_all_kept(page_as, alice, roster):
    """The merge, run in the page: the cards two phones tapped into the same hand at the same
    time are all kept, a card tapped on both counts once, and a card one phone took away while
    the other added another goes and the other stays."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    answer = {
        "number": 1,
        "ending": None,
        "players": [
            {"player": ann.pk, "melds": [], "hand": ["4C", "5C"], "version": 1, "by": "bob"},
            {"player": ben.pk, "melds": [], "hand": ["9H"], "version": 1, "by": "bob"},
        ],
    }
    # this phone: Ben's melds, and Ann's 3C and 4C (4C tapped on both phones)
    outcome = merged(
        a,
        ann.pk,
        ben.pk,
        answer,
        'draft.players[1].melds = [["5D", "6D", "7D"], []]; draft.players[0].hand = ["3C", "4C"];',
    )
    assert outcome["ben"] == {"melds": [["5D", "6D", "7D"]], "hand": ["9H"]}
    assert Counter(outcome["ann"]["hand"]) == Counter(["4C", "5C", "3C"])
    assert outcome["result"] == {"changed": True, "clashes": []}
    assert sorted(outcome["pending"]) == sorted([str(ann.pk), str(ben.pk)])  # ours, still to send

    # a card taken away here while the other phone adds one: both changes hold
    taken = merged(
        a,
        ann.pk,
        ben.pk,
        {
            "number": 1,
            "ending": None,
            "players": [{"player": ann.pk, "melds": [], "hand": ["3C", "4C", "KC"], "version": 2}],
        },
        """const s = d.sharedOf(draft);
           s.base[String(ann)] = {melds: [], hand: ["3C", "4C"]}; s.versions[String(ann)] = 1;
           draft.players[0].hand = ["4C"];""",
    )
    assert Counter(taken["ann"]["hand"]) == Counter(["4C", "KC"])


def test_an_ending_changed_on_two_phones_keeps_the_other_phones_and_says_so(page_as, alice, roster):
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    outcome = merged(
        a,
        ann.pk,
        ben.pk,
        {
            "number": 1,
            "ending": {"ending": "went_out", "went_out": ben.pk, "flags": {}, "version": 1},
            "players": [],
        },
        f"draft.ending = 'went_out'; draft.wentOut = {ann.pk};",
    )
    assert outcome["ending"]["went_out"] == ben.pk
    assert outcome["result"] == {"changed": True, "clashes": ["ending"]}


def test_a_correction_is_not_shared(page_as, alice, roster):

    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    record_hand(match, {**went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), "number": 1}, user=alice)
    a = phone(page_as, alice)
    asked = []
    a.on("request", lambda request: asked.append(request.url) if "/draft/" in request.url else None)
    a.goto(f"/matches/{match.pk}/hands/1/edit/")
    expect(a.locator("#entry .picker")).to_be_visible()
    tap(a, "KC")
    expect(a.locator("#share-status")).to_have_count(0)
    a.wait_for_timeout(500)
    assert asked == []


def test_a_player_joining_an_entry_begun_elsewhere_opens_on_their_own_cards(
    page_as, alice, bob, roster
):
    ann, ben, cleo = roster[:3]
    ann.user, ben.user = alice, bob
    ann.save()
    ben.save()
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    expect(a.get_by_text(SHARED, exact=True)).to_be_visible()
    # the first phone of an entry starts where a scorekeeper starts, even when its owner plays
    expect(a.locator("#tab-0")).to_have_attribute("aria-selected", "true")
    expect(a.locator('[data-key="bar-hand"]')).to_have_attribute("aria-pressed", "false")
    choose_ending(a, str(ann.pk))

    b = phone(page_as, bob)
    open_entry(b, match.pk)
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()
    expect(b.locator("#tab-1")).to_have_attribute("aria-selected", "true")
    expect(b.locator('[data-key="bar-hand"]')).to_have_attribute("aria-pressed", "true")
    tap(b, "3C")
    choose_player(a, 1)
    expect(a.locator('.player-panel li.group.hand .chip[data-card="3C"]')).to_be_visible()


def test_taps_that_missed_the_recorded_hand_are_kept_to_compare(page_as, alice, bob, roster):
    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    b = phone(page_as, bob)
    open_entry(b, match.pk)
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()
    # Bob's signal drops; he taps Ben's cards anyway, while Alice records the hand
    b.route("**/draft/**", lambda route: route.abort())
    choose_ending(b, str(ann.pk))
    held(b, 1, ["KC"])
    expect(
        b.get_by_text("No connection: this entry stays on this phone until it returns.")
    ).to_be_visible()
    record_hand(match, {**went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), "number": 1}, user=alice)
    b.unroute("**/draft/**")
    status = b.locator("#share-status")
    expect(status).to_contain_text(
        "Hand 1 was recorded on another phone before your last changes reached it."
    )
    expect(b.locator('.player-panel li.group.hand .chip[data-card="KC"]')).to_be_visible()
    b.locator("#share-compare").click()
    taken = b.locator("#taken")
    expect(taken).to_be_visible()
    expect(taken.locator("h2")).to_have_text("Hand 1 is already recorded, differently")
    assert Hand.objects.filter(match=match).count() == 1
