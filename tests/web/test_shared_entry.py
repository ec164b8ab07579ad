"""One hand entered by several phones at once, through the API's draft of the hand.

Alice's phone (A) taps the ending and the melds; Bob's phone (B) taps the cards left in the
players' hands. Each sees the other's taps within seconds, one of them records, and the hand
recorded is the one both entered together, once.
"""

from __future__ import annotations

import json
from collections import Counter

from playwright.sync_api import expect

from matches.drafts import draft_part_save
from matches.models import Hand, HandDraftPart
from tests import harness
from tests.factories import create_match, record_hand, went_out
from tests.web.entry import (
    ANN_MELDS,
    BEN_HELD,
    CLEO_HELD,
    choose_ending,
    choose_player,
    open_entry,
    record_reviewed,
    tap,
)

BEN_MELDS = [["5D", "6D", "7D"]]
CLEO_MELDS = [["5C", "6C", "7C"]]
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
    expect(b.locator(f'#share-progress li[data-player="{ann.pk}"]')).to_be_visible()
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
    expect(b.locator("#share-progress")).to_have_count(0)  # who had entered what: no news now
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
  const once = [];  // the taps after the merge that another phone had entered already
  /* after */
  return {result, once, active: draft.active, ben: d.partData(draft, String(ben)),
          ann: d.partData(draft, String(ann)), ending: d.partData(draft, "ending"),
          pending: d.pendingParts(draft)};
}"""


def merged(page, ann, ben, answer, mine: str, after: str = "") -> dict:
    """Run the merge in the page: ``mine`` is a script body changing ``draft`` as this phone's
    taps did since the last share; ``answer`` the other phone's draft as the API answers it;
    ``after`` a script body run once merged (the taps that follow, pushing onto ``once`` the
    cards counted once)."""
    script = MERGE.replace("mine(draft);", mine).replace("/* after */", after)
    return page.evaluate(script, [ann, ben, answer, None])


def tapping(cards: list[str]) -> str:
    """``after`` for ``merged``: these cards tapped, one at a time, where taps go now."""
    return f"for (const card of {cards!r}) once.push(...d.addCards(draft, [card]));"


def test_two_phones_changing_different_fields_of_one_player_keep_both(page_as, alice, roster):
    """The merge, run in the page: one phone's melds and the other's held cards of the same
    player are both kept."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    answer = {
        "number": 1,
        "ending": None,
        "players": [{"player": ben.pk, "melds": [], "hand": ["9H"], "version": 1, "by": "bob"}],
    }
    outcome = merged(
        a, ann.pk, ben.pk, answer, 'draft.players[1].melds = [["5D", "6D", "7D"], []];'
    )
    assert outcome["ben"] == {"melds": [["5D", "6D", "7D"]], "hand": ["9H"]}
    assert outcome["result"] == {"changed": True, "clashes": [], "restarted": False, "kept": []}
    assert outcome["pending"] == [str(ben.pk)]  # ours, still to send


def test_the_same_cards_from_two_phones_count_once(page_as, alice, roster):
    """Both phones tapping Ann's whole hand, the other one further on: its version is Ann's,
    and the cards this phone taps after it are counted once, never added again."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    further = {
        "number": 1,
        "ending": None,
        "players": [
            {
                "player": ann.pk,
                "melds": [["6H", "7H", "8H", "9H"], ["KS", "KH", "KD"]],
                "hand": ["3C", "4C"],
                "version": 1,
                "by": "bob",
            }
        ],
    }
    outcome = merged(
        a,
        ann.pk,
        ben.pk,
        further,
        'draft.players[0].melds = [["6H", "7H"]]; draft.players[0].hand = ["3C"];'
        "draft.active = {player: 0, group: 0};",
        after=tapping(["8H", "9H", "KS", "KH", "KD"])
        + 'd.target(draft, "hand");'
        + tapping(["4C"]),
    )
    assert outcome["ann"] == {"melds": further["players"][0]["melds"], "hand": ["3C", "4C"]}
    assert outcome["once"] == ["8H", "9H", "KS", "KH", "KD", "4C"]
    assert outcome["pending"] == []  # nothing of Ann's is sent back: both phones agree

    # this phone further on: its own version stays, to be sent
    behind = {
        "number": 1,
        "ending": None,
        "players": [{"player": ann.pk, "melds": [["6H", "7H"]], "hand": [], "version": 1}],
    }
    kept = merged(a, ann.pk, ben.pk, behind, 'draft.players[0].melds = [["6H", "7H", "8H"], []];')
    assert kept["ann"] == {"melds": [["6H", "7H", "8H"]], "hand": []}
    assert kept["pending"] == [str(ann.pk)]


def test_cards_seen_from_another_phone_then_tapped_here_count_once(page_as, alice, roster):
    """Two phones copying Ann's held cards: this one had tapped nothing of them when the other's
    arrived (so it took them as they were), and its person then taps the same cards: each
    counts once, however many times the other phone's part arrived before; a card the other
    phone took back meanwhile is entered when tapped here."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)

    def part(hand: list[str], version: int) -> dict:
        return {"number": 1, "ending": None, "players": [
            {"player": ann.pk, "melds": [], "hand": hand, "version": version, "by": "bob"}
        ]}  # fmt: skip

    second = json.dumps(part(["KD", "8S", "9S"], 2))
    outcome = merged(
        a,
        ann.pk,
        ben.pk,
        part(["KD", "8S"], 1),
        'draft.active = {player: 0, group: "hand"};',
        after=f"d.adoptShared(draft, {second});" + tapping(["KD", "8S", "9S", "7C"]),
    )
    assert outcome["ann"] == {"melds": [], "hand": ["KD", "8S", "9S", "7C"]}
    assert outcome["once"] == ["KD", "8S", "9S"]
    assert outcome["pending"] == [str(ann.pk)]  # the 7♣ only this phone has

    taken_back = json.dumps(part(["KD"], 2))
    outcome = merged(
        a,
        ann.pk,
        ben.pk,
        part(["KD", "8S"], 1),
        'draft.active = {player: 0, group: "hand"};',
        after=f"d.adoptShared(draft, {taken_back});" + tapping(["8S", "KD"]),
    )
    assert outcome["ann"] == {"melds": [], "hand": ["KD", "8S"]}
    assert outcome["once"] == ["KD"]


def test_going_to_the_cards_in_hand_leaves_no_empty_meld_behind(page_as, alice, roster):
    """A filled run or a taken offer opens the next meld, ready for taps; going to the cards
    in hand instead takes that empty meld away ("Meld 3 —" on screen, nothing in it), but never
    a player's only meld, nor one with cards."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    script = """async ([ann, ben]) => {
      const d = await import("/static/web/entry/draft.js");
      const limits = {ruleset: "arlington", copies: 2, maxMeld: 4, wild: "2",
                      endings: ["went_out", "stock_exhausted"], flags: []};
      const draft = d.freshDraft([{player: ann, name: "Ann"}, {player: ben, name: "Ben"}], limits);
      const seen = [];
      draft.players[0].melds = [["5H", "6H", "7H"], []];
      d.target(draft, "hand");
      seen.push(JSON.stringify(draft.players[0].melds));
      draft.players[1].melds = [[]];
      d.selectPlayer(draft, 1);
      d.target(draft, "hand");
      seen.push(JSON.stringify(draft.players[1].melds));
      return seen;
    }"""
    assert a.evaluate(script, [ann.pk, ben.pk]) == ['[["5H","6H","7H"]]', "[[]]"]


def test_a_twos_declaration_made_while_another_phone_adds_a_card_is_kept(page_as, alice, roster):
    """One phone says what Ann's two stands for while another adds her next meld: the merge
    keeps both, the declaration and the card, whichever version holds more cards."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)

    def answer(melds):
        part = {"player": ann.pk, "melds": melds, "hand": [], "version": 1, "by": "bob"}
        return {"number": 1, "ending": None, "players": [part]}

    # the other phone is further on (a new meld), this phone declared the two
    further = answer([["QD", "KD", "2H"], ["5S"]])
    declared = 'draft.players[0].melds = [["QD", "KD", "2H=AD"], []];'
    outcome = merged(a, ann.pk, ben.pk, further, declared)
    assert outcome["ann"]["melds"] == [["QD", "KD", "2H=AD"], ["5S"]]
    assert outcome["pending"] == [str(ann.pk)]  # the declaration is sent on

    # the other phone declared the two, this phone is further on
    said = answer([["QD", "KD", "2H=AD"]])
    further_here = 'draft.players[0].melds = [["QD", "KD", "2H"], ["5S"], []];'
    outcome = merged(a, ann.pk, ben.pk, said, further_here)
    assert outcome["ann"]["melds"] == [["QD", "KD", "2H=AD"], ["5S"]]


def test_only_a_two_declared_anew_on_both_phones_is_a_clash(page_as, alice, roster):
    """A two said to stand for one card here and for another on the other phone, both since
    the version the two phones last saw, is news ("changed on another phone at the same
    time"); the other phone only adding a meld beside a two it had declared before is not, and
    the two keeps what it was said anew to stand for, whichever phone said it."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)

    def answer(melds, version=1):
        part = {"player": ann.pk, "melds": melds, "hand": [], "version": version, "by": "bob"}
        return {"number": 1, "ending": None, "players": [part]}

    both = merged(
        a, ann.pk, ben.pk, answer([["QD", "KD", "2H=JD"]]),
        'draft.players[0].melds = [["QD", "KD", "2H=AD"], []];',
    )  # fmt: skip
    assert both["result"]["clashes"] == [str(ann.pk)]
    assert both["ann"]["melds"] == [["QD", "KD", "2H=JD"]]

    seen = (
        "const shared = d.sharedOf(draft);"
        f'shared.base["{ann.pk}"] = {{melds: [["QD", "KD", "2H=JD"]], hand: []}};'
        f'shared.versions["{ann.pk}"] = 1;'
        'draft.players[0].melds = [["QD", "KD", "2H=AD"], []];'
    )
    only_a_meld = merged(a, ann.pk, ben.pk, answer([["QD", "KD", "2H=JD"], ["5S"]], 2), seen)
    assert only_a_meld["result"]["clashes"] == []
    # the two said anew here is kept beside the other phone's meld, and sent on
    assert only_a_meld["ann"]["melds"] == [["QD", "KD", "2H=AD"], ["5S"]]
    assert only_a_meld["pending"] == [str(ann.pk)]

    # the other way round: the two said anew there, a meld added here
    meld_here = (
        "const shared = d.sharedOf(draft);"
        f'shared.base["{ann.pk}"] = {{melds: [["QD", "KD", "2H=JD"]], hand: []}};'
        f'shared.versions["{ann.pk}"] = 1;'
        'draft.players[0].melds = [["QD", "KD", "2H=JD"], ["5S"], []];'
    )
    said_there = merged(a, ann.pk, ben.pk, answer([["QD", "KD", "2H=AD"]], 2), meld_here)
    assert said_there["result"]["clashes"] == []
    assert said_there["ann"]["melds"] == [["QD", "KD", "2H=AD"], ["5S"]]


def test_a_card_held_down_while_another_phones_part_arrives_is_not_lost(
    page_as, alice, bob, roster
):
    """A redraw under a finger still on a card would replace the card's button, and the tap
    would be lost: the redraw that another phone's part brings waits until the finger is
    lifted, and then both the tap and the other phone's part are on screen."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    expect(a.get_by_text(SHARED, exact=True)).to_be_visible()
    a.locator('[data-key="bar-new-meld"]').click()
    draft_part_save(
        match_id=match.pk,
        number=1,
        player_id=ben.pk,
        data={"melds": BEN_MELDS, "hand": []},
        expected_version=0,
        user=bob,
    )
    king = a.locator('.picker button[data-card="KS"]')
    king.scroll_into_view_if_needed()  # the picker sits below the melds until the ending is in
    box = king.bounding_box()
    a.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    a.mouse.down()
    # the page asks for the draft at once when it is shown again, and takes Ben's part in
    a.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    a.wait_for_function(
        "([key, ben]) => JSON.parse(localStorage.getItem(key))?.shared?.versions?.[ben] >= 1",
        arg=[f"arlington.entry.{match.pk}.next", str(ben.pk)],
    )
    a.mouse.up()
    expect(a.locator('.player-panel li.group[data-group="0"] .chip')).to_have_count(1)
    assert chips(a, "0") == ["KS"]
    choose_player(a, 1)
    assert chips(a, "0") == BEN_MELDS[0]


def test_the_meld_being_tapped_stays_the_target_when_another_phone_is_further_on(
    page_as, alice, roster
):
    """Both phones tap Ann's K♠ K♥ K♦; this one has tapped K♠ when the other's K♠ K♥ arrives.
    The next taps go on into that same meld, K♥ counted once, never into a meld of their own
    (K♠ K♥ and K♦ apart, which the next merge could not tell from two melds)."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    further = {
        "number": 1,
        "ending": None,
        "players": [
            {"player": ann.pk, "melds": [["6H", "7H", "8H"], ["KS", "KH"]], "hand": [],
             "version": 1, "by": "bob"},
        ],
    }  # fmt: skip

    def tapped_on(mine: str, cards: list[str]) -> dict:
        return merged(a, ann.pk, ben.pk, further, mine, after=tapping(cards))

    # the kings were the second meld here too, being tapped
    outcome = tapped_on(
        'draft.players[0].melds = [["6H", "7H", "8H"], ["KS"]];'
        "draft.active = {player: 0, group: 1};",
        ["KH", "KD"],
    )
    assert outcome["ann"]["melds"] == [["6H", "7H", "8H"], ["KS", "KH", "KD"]]
    assert outcome["once"] == ["KH"]
    assert outcome["active"] == {"player": 0, "group": 1}
    # a phone about to start a meld of its own still starts it
    fresh = tapped_on(
        'draft.players[0].melds = [["6H", "7H", "8H"], []];draft.active = {player: 0, group: 1};',
        ["QC"],
    )
    assert fresh["ann"]["melds"] == [["6H", "7H", "8H"], ["KS", "KH"], ["QC"]]


def test_different_cards_from_two_phones_wait_for_a_choice(page_as, alice, roster):
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    other = {
        "number": 1,
        "ending": None,
        "players": [
            {"player": ann.pk, "melds": [], "hand": ["4C", "5C"], "version": 1, "by": "bob"}
        ],
    }
    script = MERGE.replace("mine(draft);", 'draft.players[0].hand = ["3C", "4C"];').replace(
        "return {result,",
        """const waiting = d.conflicts(draft);
  const shown = d.partData(draft, String(ann));
  const before = d.pendingParts(draft);
  d.choose(draft, String(ann), "mine");
  return {waiting, shown, before, chosen: d.partData(draft, String(ann)), result,""",
    )
    outcome = a.evaluate(script, [ann.pk, ben.pk, other, None])
    (waiting,) = outcome["waiting"]
    assert waiting["key"] == str(ann.pk) and waiting["by"] == "bob"
    assert waiting["mine"]["hand"] == ["3C", "4C"] and waiting["theirs"]["hand"] == ["4C", "5C"]
    # this phone's cards stay on screen, the other's only beside them: no card is doubled
    assert outcome["shown"]["hand"] == ["3C", "4C"]
    assert outcome["before"] == []  # nothing sent while the choice waits
    assert outcome["chosen"]["hand"] == ["3C", "4C"]
    assert outcome["pending"] == [str(ann.pk)]  # the choice is sent


WAITING = """async ([ann, ben, first, second, which]) => {
  const d = await import("/static/web/entry/draft.js");
  const limits = {ruleset: "arlington", copies: 2, maxMeld: 4, wild: "2",
                  endings: ["went_out", "stock_exhausted"], flags: []};
  const draft = d.freshDraft([{player: ann, name: "Ann"}, {player: ben, name: "Ben"}], limits);
  draft.players[0].hand = ["3C", "4C"];
  d.adoptShared(draft, first);
  d.target(draft, "hand");
  d.addCards(draft, ["6C"]);  // tapped here while the two versions wait
  d.adoptShared(draft, second);  // the other phone taps on too
  const [waiting] = d.conflicts(draft);
  d.choose(draft, String(ann), which);
  return {waiting, chosen: d.partData(draft, String(ann)), pending: d.pendingParts(draft),
          version: d.sharedOf(draft).versions[String(ann)]};
}"""


def test_this_phones_version_is_only_ever_what_it_tapped(page_as, alice, roster):
    """Two versions wait for a choice while both phones tap on: "this phone's" holds this
    phone's taps, those made since included, and never a card of the other phone's."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)

    def answer(hand, version):
        part = {"player": ann.pk, "melds": [], "hand": hand, "version": version, "by": "bob"}
        return {"number": 1, "ending": None, "players": [part]}

    first, second = answer(["4C", "5C"], 1), answer(["4C", "5C", "7C"], 2)
    mine = a.evaluate(WAITING, [ann.pk, ben.pk, first, second, "mine"])
    assert mine["waiting"]["mine"]["hand"] == ["3C", "4C", "6C"]
    assert mine["waiting"]["theirs"]["hand"] == ["4C", "5C", "7C"]  # the newest of theirs
    assert mine["chosen"]["hand"] == ["3C", "4C", "6C"]
    # sent over the other phone's newest version, so that the server takes it
    assert mine["pending"] == [str(ann.pk)] and mine["version"] == 2

    theirs = a.evaluate(WAITING, [ann.pk, ben.pk, first, second, "theirs"])
    assert theirs["chosen"]["hand"] == ["4C", "5C", "7C"]
    assert theirs["pending"] == []  # the server has it already

    # the other phone coming round to this phone's cards settles it without a choice
    same = answer(["3C", "4C", "6C"], 2)
    settled = a.evaluate(WAITING, [ann.pk, ben.pk, first, same, "mine"])
    assert settled.get("waiting") is None
    assert settled["chosen"]["hand"] == ["3C", "4C", "6C"] and settled["pending"] == []


TWO_VERSIONS = """async ([ann, ben, steps]) => {
  const d = await import("/static/web/entry/draft.js");
  const limits = {ruleset: "arlington", copies: 2, maxMeld: 4, wild: "2",
                  endings: ["went_out", "stock_exhausted"], flags: []};
  const draft = d.freshDraft([{player: ann, name: "Ann"}, {player: ben, name: "Ben"}], limits);
  d.target(draft, "hand");
  const once = [];
  for (const [kind, value] of steps) {
    if (kind === "tap") once.push(...d.addCards(draft, [value]));
    else if (kind === "shared") d.markShared(draft, String(ann), {melds: [], hand: value}, 1);
    else d.adoptShared(draft, value);
  }
  return {hand: d.partData(draft, String(ann)).hand, once, waiting: d.conflicts(draft).length,
          pending: d.pendingParts(draft)};
}"""


def anns(hand: list[str], version: int, offer: list[str] | None = None) -> dict:
    """The API's draft: Ann's held cards as another phone wrote them, maybe with a version
    offered beside them."""
    contest = offer and {"melds": [], "hand": offer, "version": version, "by": "ben"}
    part = {"player": "ANN", "melds": [], "hand": hand, "version": version, "by": "carol"}
    return {"number": 1, "ending": None, "players": [{**part, "contest": contest}]}


def two_versions(page, ann, ben, steps: list[tuple[str, object]]) -> dict:
    answer = json.loads(json.dumps(steps).replace('"ANN"', str(ann)))
    return page.evaluate(TWO_VERSIONS, [ann, ben, answer])


def test_cards_taken_from_another_phone_before_two_versions_still_count_once(
    page_as, alice, roster
):
    """This phone took in 3♣ 4♣ from the other phone, then tapped 9♣ offline while the other
    tapped 8♥: two versions. The person here then copies the hand on, 3♣ 4♣ 8♥: the cards
    taken in before count once. Before, the two versions dropped that credit and this phone's
    version read 3♣ 4♣ 9♣ 3♣ 4♣ 8♥, offered to the table as Ann's."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    steps = [
        ("answer", anns(["3C", "4C"], 1)),
        ("tap", "9C"),
        ("answer", anns(["3C", "4C", "8H"], 2)),
        ("tap", "3C"),
        ("tap", "4C"),
        ("tap", "8H"),
    ]
    outcome = two_versions(a, ann.pk, ben.pk, steps)
    assert Counter(outcome["hand"]) == Counter(["3C", "4C", "9C", "8H"])
    assert outcome["once"] == ["3C", "4C"]


def test_two_versions_that_come_to_hold_the_same_cards_need_no_choice(page_as, alice, roster):
    """A choice is waiting, and the two phones tap on until they hold the same cards, in
    another order: the choice goes by itself, on the phone offered the other version (its
    cards go out as the part, which withdraws the offer) and on the phone that offered it
    (the part's order taken). Before, both phones kept showing the choice."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    offered_here = [
        ("tap", "3C"),
        ("tap", "4C"),
        ("shared", ["3C", "4C"]),
        ("answer", anns(["3C", "4C"], 1, offer=["3C", "9C"])),
        ("tap", "9C"),
        ("answer", anns(["3C", "4C"], 1, offer=["3C", "9C", "4C"])),
    ]
    outcome = two_versions(a, ann.pk, ben.pk, offered_here)
    assert outcome["waiting"] == 0
    assert outcome["pending"] == [str(ann.pk)]  # this phone's cards, sent as the part
    offering = [
        ("tap", "3C"),
        ("tap", "9C"),
        ("answer", anns(["3C", "4C"], 1)),
        ("tap", "4C"),
        ("answer", anns(["3C", "4C", "9C"], 2)),
    ]
    outcome = two_versions(a, ann.pk, ben.pk, offering)
    assert outcome["waiting"] == 0
    assert outcome["hand"] == ["3C", "4C", "9C"] and outcome["pending"] == []


def test_the_news_that_another_phones_answer_was_kept_stays_on_screen(page_as, alice, bob, roster):
    """This phone answered "How did the hand end?" and another had answered otherwise a
    moment before: the other's answer is kept, and the screen says so until the next tap
    here. Before, the sentence was put on screen and taken off in the same moment."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    expect(a.get_by_text(SHARED, exact=True)).to_be_visible()

    def unchanged(route):  # this phone reads nothing new: it learns of Bob's answer by writing
        if route.request.method == "GET":
            route.fulfill(status=304)
        else:
            route.continue_()

    a.route("**/draft/", unchanged)
    draft_part_save(
        match_id=match.pk,
        number=1,
        player_id=None,
        data={"ending": "went_out", "went_out": ben.pk},
        expected_version=0,
        user=bob,
    )
    choose_ending(a, str(ann.pk))
    clash = a.locator("p.share-clash")
    expect(clash).to_contain_text("How did the hand end?")
    expect(a.locator(f'input[name="ending"][value="{ben.pk}"]')).to_be_checked()
    a.unroute("**/draft/")
    with a.expect_response(lambda r: r.url.endswith("/draft/") and r.request.method == "GET"):
        pass  # the next read of the draft
    expect(clash).to_be_visible()
    held(a, 0, ["KC"])  # a tap here: the news is old
    expect(clash).to_have_count(0)


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
    assert outcome["result"] == {
        "changed": True,
        "clashes": ["ending"],
        "restarted": False,
        "kept": [],
    }


def test_a_correction_is_not_shared(page_as, alice, roster):

    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    record_hand(match, {**went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), "number": 1}, user=alice)
    a = phone(page_as, alice)
    asked = []
    a.on("request", lambda request: asked.append(request.url) if "/draft/" in request.url else None)
    a.clock.install()  # the page's timers run when the test says, not after a fixed wait
    a.goto(f"/matches/{match.pk}/hands/1/edit/")
    expect(a.locator("#entry .picker")).to_be_visible()
    tap(a, "KC")
    expect(a.locator("#share-status")).to_have_count(0)
    # every timer a shared entry would set (its send 0.3 s after a tap, its read every 2.5 s)
    # has fired, and the page has answered since: no request for a draft was made
    a.clock.run_for(10_000)
    a.evaluate("() => 1")
    assert asked == []


def test_each_players_phone_opens_on_their_own_melds(page_as, alice, bob, victor, roster):
    ann, ben, cleo = roster[:3]
    ann.user, ben.user, cleo.user = alice, bob, victor
    for player in (ann, ben, cleo):
        player.save()
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    expect(a.get_by_text(SHARED, exact=True)).to_be_visible()
    choose_ending(a, str(ann.pk))

    b = phone(page_as, bob)
    open_entry(b, match.pk)
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()
    expect(b.locator("#tab-1")).to_have_attribute("aria-selected", "true")
    expect(b.locator('[data-key="bar-hand"]')).to_have_attribute("aria-pressed", "false")
    tap(b, "3C")
    choose_player(a, 1)
    expect(
        a.locator('.player-panel li.group[data-group="0"] .chip[data-card="3C"]')
    ).to_be_visible()

    # Victor only watches the club's matches, but Cleo is him: his phone enters her cards only
    v = phone(page_as, victor)
    open_entry(v, match.pk)
    expect(v.get_by_text(SHARED, exact=True)).to_be_visible()
    expect(v.locator('[role="tab"]')).to_have_count(1)
    expect(v.locator("#tab-2")).to_have_attribute("aria-selected", "true")
    expect(v.locator("fieldset.ending")).to_have_count(0)
    expect(v.locator("#record")).to_have_count(0)
    expect(v.locator("#start-again")).to_have_count(0)
    expect(v.locator("#own-note")).to_be_visible()
    # a part of the screen with nothing to show is left out, never written as "null"
    for page in (a, b, v):
        assert "null" not in page.locator("#entry").inner_text()
    for card in ["5C", "6C", "7C"]:
        tap(v, card)
    v.locator('[data-key="bar-hand"]').click()
    tap(v, "KD")
    # the scorekeeper's phone says who has finished their part
    expect(a.locator(f'#share-progress li[data-player="{cleo.pk}"]')).to_have_text(
        "Cleo ✓ 1 meld, 1 card"
    )
    expect(a.locator(f'#share-progress li[data-player="{ben.pk}"]')).to_have_text(
        "Ben ✓ 1 meld, 0 cards"
    )


def test_a_member_who_is_not_seated_and_keeps_no_score_enters_nothing(
    page_as, alice, victor, roster
):
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    v = phone(page_as, victor)
    v.goto(f"/matches/{match.pk}/hands/new/")
    expect(v.locator("#entry-closed")).to_contain_text("not record hands")


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
    # the side-by-side screen holds the choices now: the ones that led to it are gone
    expect(b.locator("#share-compare")).to_have_count(0)
    expect(b.locator("#share-drop")).to_have_count(0)
    assert Hand.objects.filter(match=match).count() == 1


def test_a_tap_shared_as_the_hand_is_recorded_elsewhere_is_kept_to_compare(
    page_as, alice, bob, roster
):
    """Bob's last card reached the draft, but the phone that recorded the hand had not read it
    yet: the hand was recorded without it. Bob's phone had shared every tap, said only "Hand 1
    was recorded on another phone." and cleared the card: lost without a word. It now reads
    the recorded hand, finds its last shared part not in it, and keeps the card to compare."""
    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    b = phone(page_as, bob)
    open_entry(b, match.pk)
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()
    held(b, 1, ["KC"])
    harness.wait_until(
        lambda: HandDraftPart.objects.filter(
            match=match, player=ben, data__hand__contains=["KC"]
        ).exists(),
        what="Ben's king of clubs shared",
    )
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()  # its answer taken in
    record_hand(match, {**went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), "number": 1}, user=alice)
    expect(b.locator("#share-status")).to_contain_text(
        "Hand 1 was recorded on another phone before your last changes reached it."
    )
    expect(b.locator('.player-panel li.group.hand .chip[data-card="KC"]')).to_be_visible()
    expect(b.locator("#share-compare")).to_be_visible()
    assert Hand.objects.filter(match=match).count() == 1


def test_a_phone_whose_shared_taps_are_all_in_the_recorded_hand_is_done(
    page_as, alice, bob, roster
):
    """The same, with the card in the recorded hand: nothing to keep, the entry is done."""
    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    b = phone(page_as, bob)
    open_entry(b, match.pk)
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()
    hand = went_out(ann.pk, [ann.pk, ben.pk, cleo.pk])
    bens = next(r for r in hand["results"] if r["player"] == ben.pk)
    held(b, 1, list(reversed(bens["hand"])))  # tapped in another order than recorded
    harness.wait_until(
        lambda: HandDraftPart.objects.filter(
            match=match, player=ben, data__hand__contains=bens["hand"]
        ).exists(),
        what="Ben's cards shared",
    )
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()
    record_hand(match, {**hand, "number": 1}, user=alice)
    expect(b.locator("#share-status")).to_contain_text("Hand 1 was recorded on another phone.")
    expect(b.locator("#share-status")).not_to_contain_text("before your last changes")
    expect(b.locator("#entry .picker")).to_have_count(0)


def test_a_hand_left_and_recorded_elsewhere_opens_the_next_hand(page_as, alice, bob, roster):
    """Ben taps his cards, leaves the entry, and Ann's phone records the hand: his next "Enter
    hand" opens hand 2 at once, saying hand 1 was recorded, not hand 1 closed."""
    ann, ben, cleo = roster[:3]
    ben.user = bob
    ben.save()
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    b = phone(page_as, bob)
    open_entry(b, match.pk)
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()
    b.locator('[data-key="bar-hand"]').click()
    with b.expect_response(lambda r: "/draft/players/" in r.url and r.request.method == "PUT"):
        tap(b, "KC")
    b.goto(f"/matches/{match.pk}/")
    record_hand(match, {**went_out(ann.pk, [ann.pk, ben.pk, cleo.pk]), "number": 1}, user=alice)

    open_entry(b, match.pk)
    expect(b.get_by_role("heading", level=1)).to_have_text("Hand 2")
    expect(b.locator("#entry-passed")).to_have_text("Hand 1 was recorded on another phone.")
    expect(b.locator("#tab-1")).to_have_attribute("aria-selected", "true")
    assert chips(b, "hand") == []
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()


def test_the_last_hand_recorded_elsewhere_is_news_on_the_other_phones(page_as, alice, bob, roster):
    """The hand that finishes the match, recorded on Ann's phone: Ben's phone says the hand was
    recorded, as for any other hand, not "Match N is finished: no hand can be added"."""
    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    seated = [ann.pk, ben.pk, cleo.pk]
    for number in (1, 2):  # 2 x 340 for Ann: the next hand she goes out in finishes the match
        record_hand(match, {**went_out(ann.pk, seated), "number": number}, user=alice)
    b = phone(page_as, bob)
    open_entry(b, match.pk)
    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()
    with b.expect_response(lambda r: "/draft/players/" in r.url and r.request.method == "PUT"):
        held(b, 1, ["3C"])  # a card Ben holds in the hand recorded
    record_hand(match, {**went_out(ann.pk, seated), "number": 3}, user=alice)

    status = b.locator("#share-status")
    # the phone reads the table's draft every three seconds: the next read meets the news
    expect(status).to_contain_text("Hand 3 was recorded on another phone.", timeout=15_000)
    expect(status.get_by_role("link", name="Back to the match")).to_be_visible()
    expect(b.locator("#entry .picker")).to_have_count(0)


OFFLINE = "No connection: this entry stays on this phone until it returns."


def test_taps_made_without_a_connection_are_shared_once_it_returns(page_as, alice, bob, roster):
    """Nothing changed on the server meanwhile, so the phone's next read brings no news (304):
    its taps still go as soon as the connection is back, and the screen says it is shared."""
    ann, ben, cleo = roster[:3]
    match = create_match(ann.club, [ann, ben, cleo], user=alice)
    a, b = phone(page_as, alice), phone(page_as, bob)
    for page in (a, b):
        open_entry(page, match.pk)
        expect(page.get_by_text(SHARED, exact=True)).to_be_visible()
    held(b, 1, ["KC"])
    choose_player(a, 1)
    expect(a.locator('.player-panel li.group.hand .chip[data-card="KC"]')).to_be_visible()

    b.route("**/draft/**", lambda route: route.abort())
    held(b, 1, ["QC"])
    expect(b.get_by_text(OFFLINE, exact=True)).to_be_visible()
    b.unroute("**/draft/**")

    expect(b.get_by_text(SHARED, exact=True)).to_be_visible()
    expect(a.locator('.player-panel li.group.hand .chip[data-card="QC"]')).to_be_visible()
    part = HandDraftPart.objects.get(match=match, player=ben)
    assert part.data["hand"] == ["KC", "QC"]


def test_a_hand_started_again_keeps_only_the_cards_this_phone_had_not_sent(page_as, alice, roster):
    """The merge, run in the page: Ben's part had been shared (a run), then this phone tapped a
    fourth card onto the run and one held card, unsent, when another phone started the hand
    again. Only those two taps stay, to be sent as a new part: the run is gone, as everywhere."""
    ann, ben = roster[:2]
    match = create_match(ann.club, [ann, ben], user=alice)
    a = phone(page_as, alice)
    open_entry(a, match.pk)
    emptied = {"number": 1, "ending": None, "players": []}

    def started_again(melds: str, hand: str) -> dict:
        """Ben's part as this phone last saw it shared, then as it stands here: ``melds`` and
        ``hand`` as JavaScript arrays."""
        return merged(
            a,
            ann.pk,
            ben.pk,
            emptied,
            f"""const shared = d.sharedOf(draft);
  shared.versions[String(ben)] = 2;
  shared.base[String(ben)] = {{melds: [["5D", "6D", "7D"]], hand: ["KC"]}};
  draft.players[1].melds = [...{melds}, []];
  draft.players[1].hand = {hand};""",
        )

    outcome = started_again('[["5D", "6D", "7D", "8D"]]', '["KC", "QC"]')
    assert outcome["ben"] == {"melds": [["8D"]], "hand": ["QC"]}
    assert outcome["result"]["changed"] is True
    assert outcome["pending"] == [str(ben.pk)]

    # a phone that had sent everything keeps nothing of that part
    nothing = started_again('[["5D", "6D", "7D"]]', '["KC"]')
    assert nothing["ben"] == {"melds": [], "hand": []}
    assert nothing["pending"] == []
