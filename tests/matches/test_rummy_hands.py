"""Recording Rummy hands: ruled, scored and finished by the match's ruleset, never Arlington's."""

from __future__ import annotations

import copy

import pytest

from tests.factories import record, start_match, went_out


def codes(response) -> list[tuple[str, str | None]]:
    return sorted((e["code"], e["attr"]) for e in response.json()["errors"])


def three_handed(winner: int, ids: list[int], *, rummy: bool | None = None) -> dict:
    """Seven cards dealt each: the winner melds out, the others pay 15 and 44 (59 in all)."""
    held = [["KC", "4H", "AS"], ["2C", "3C", "10H", "QH", "9D", "9C", "AH"]]
    melds = [[["JD", "QD", "KD"]], []]
    results, others = [], 0
    for player in ids:
        if player == winner:
            results.append(
                {
                    "player": player,
                    "hand": [],
                    "melds": [["7H", "7D", "7C"], ["5S", "6S", "7S", "8S"]],
                }
            )
        else:
            results.append({"player": player, "melds": melds[others], "hand": held[others]})
            others += 1
    body = {"ending": "went_out", "went_out": winner, "results": results}
    if rummy is not None:
        body["rummy"] = rummy
    return copy.deepcopy(body)


@pytest.fixture
def rummy_match(as_carol, club, roster) -> dict:
    return start_match(as_carol, club, roster[:3], ruleset="rummy")


def nets(answer: dict) -> list[int]:
    return [r["net"] for r in answer["results"]]


def test_the_others_pay_the_winner_their_pips(as_carol, rummy_match, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    response = record(as_carol, rummy_match["id"], three_handed(ann, [ann, ben, cleo]))
    assert response.status_code == 201, response.json()
    answer = response.json()
    assert nets(answer) == [59, -15, -44]
    assert [(r["melded_points"], r["hand_penalty"], r["bonus"]) for r in answer["results"]] == [
        (0, 0, 59),
        (0, 15, 0),
        (0, 44, 0),
    ]
    assert answer["results"][1]["held"] == [
        {"card": "KC", "points": 10},
        {"card": "4H", "points": 4},
        {"card": "AS", "points": 1},
    ]
    assert answer["rummy"] is False
    assert answer["match"]["status"] == "in_progress"


def test_a_rummy_doubles_what_the_others_pay(as_carol, rummy_match, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    answer = record(
        as_carol, rummy_match["id"], three_handed(ann, [ann, ben, cleo], rummy=True)
    ).json()
    assert nets(answer) == [118, -30, -88]
    assert answer["rummy"] is True
    read = as_carol.get(f"/api/v1/matches/{rummy_match['id']}/hands/1/").json()
    assert read["rummy"] is True and nets(read) == [118, -30, -88]


def test_a_rummy_match_ends_when_a_total_reaches_its_target(as_carol, club, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    match = start_match(as_carol, club, roster[:3], ruleset="rummy", options={"target": 150})
    first = record(as_carol, match["id"], three_handed(ann, [ann, ben, cleo], rummy=True)).json()
    assert first["match"]["status"] == "in_progress"  # 118 < 150
    second = record(as_carol, match["id"], three_handed(ben, [ann, ben, cleo])).json()
    assert second["match"]["status"] == "in_progress"
    third = record(as_carol, match["id"], three_handed(ann, [ann, ben, cleo])).json()
    totals = {s["player"]: s["total"] for s in third["match"]["seats"]}
    assert totals == {ann: 118 - 15 + 59, ben: -30 + 59 - 15, cleo: -88 - 44 - 44}
    assert third["match"]["status"] == "finished"
    assert third["match"]["winners"] == [ann]
    refused = record(as_carol, match["id"], three_handed(ann, [ann, ben, cleo]))
    assert refused.status_code == 409
    assert codes(refused) == [("match_finished", None)]

    def table(ruleset: str) -> dict[str, tuple[int, int, int]]:
        rows = as_carol.get(f"/api/v1/clubs/{club.pk}/standings/?ruleset={ruleset}").json()
        return {row["name"]: (row["matches_played"], row["wins"], row["points"]) for row in rows}

    assert table("rummy") == {"Ann": (1, 1, 162), "Ben": (1, 0, 14), "Cleo": (1, 0, -176)}
    assert table("arlington") == {}


def test_a_correction_re_decides_the_finish_by_the_target(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2], ruleset="rummy", options={"target": 30})
    hand = {
        "ending": "went_out",
        "went_out": ann,
        "results": [
            {"player": ann, "melds": [["7H", "7D", "7C"]], "hand": []},
            {"player": ben, "melds": [], "hand": ["KC", "QC", "JC"]},
        ],
    }
    assert record(as_carol, match["id"], hand).json()["match"]["status"] == "finished"
    smaller = copy.deepcopy(hand)
    smaller["results"][1]["hand"] = ["2C", "3D"]
    url = f"/api/v1/matches/{match['id']}/hands/1/"
    etag = as_carol.get(url)["ETag"]
    corrected = as_carol.put(url, smaller, format="json", HTTP_IF_MATCH=etag)
    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["match"]["status"] == "in_progress"
    assert nets(corrected.json()) == [5, -5]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda h, ids: h.update(ending="stock_exhausted", went_out=None),
            [("stock_never_exhausted", "ending")],
        ),
        (
            lambda h, ids: h["results"][0]["melds"][0].__setitem__(2, "2C=7C"),
            [
                ("card_count_exceeded", "results.2.hand"),
                ("no_wild_cards", "results.0.melds.0"),
                ("set_mixed_ranks", "results.0.melds.0"),
            ],
        ),
        (
            lambda h, ids: h["results"][1]["melds"].__setitem__(0, ["QD", "KD", "AD"]),
            [("run_ace_high", "results.1.melds.0")],
        ),
    ],
)
def test_a_hand_that_breaks_rummys_rules_is_refused_and_records_nothing(
    as_carol, rummy_match, roster, change, expected
):
    ids = [p.pk for p in roster[:3]]
    hand = three_handed(ids[0], ids)
    change(hand, ids)
    response = record(as_carol, rummy_match["id"], hand)
    assert response.status_code == 400
    assert codes(response) == sorted(expected)
    assert as_carol.get(f"/api/v1/matches/{rummy_match['id']}/").json()["hands_played"] == 0


def test_the_ace_option_of_the_match_rules_its_hands(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    hand = {
        "ending": "went_out",
        "went_out": ann,
        "results": [
            {"player": ann, "melds": [["QH", "KH", "AH"]], "hand": []},
            {"player": ben, "melds": [], "hand": ["2C"]},
        ],
    }
    low = start_match(as_carol, club, roster[:2], ruleset="rummy")
    refused = record(as_carol, low["id"], hand)
    assert codes(refused) == [("run_ace_high", "results.0.melds.0")]
    high = start_match(as_carol, club, roster[:2], ruleset="rummy", options={"ace": "high_or_low"})
    assert record(as_carol, high["id"], hand).status_code == 201


def test_with_two_players_the_winner_deals_the_next_hand(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2], ruleset="rummy")
    assert match["next_dealer"] == ann
    hand = {
        "ending": "went_out",
        "went_out": ann,
        "results": [
            {"player": ann, "melds": [["7H", "7D", "7C"]], "hand": []},
            {"player": ben, "melds": [], "hand": ["2C"]},
        ],
    }
    answer = record(as_carol, match["id"], hand).json()
    assert answer["dealer"] == ann
    assert answer["match"]["next_dealer"] == ann  # Arlington would pass the deal to ben


def test_an_arlington_match_is_ruled_as_before_and_ignores_the_rummy_flag(as_carol, club, roster):
    ids = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    body = {**went_out(ids[0], ids), "rummy": True}
    answer = record(as_carol, match["id"], body).json()
    assert nets(answer) == [340, -65, -65]
    assert answer["rummy"] is None


def test_a_retried_rummy_hand_is_answered_as_first_recorded(as_carol, rummy_match, roster):
    ids = [p.pk for p in roster[:3]]
    body = three_handed(ids[0], ids, rummy=True)
    first = record(as_carol, rummy_match["id"], body, HTTP_IDEMPOTENCY_KEY="rummy-1")
    again = record(as_carol, rummy_match["id"], body, HTTP_IDEMPOTENCY_KEY="rummy-1")
    assert again.status_code == first.status_code == 201
    assert again.json()["rummy"] is True
    assert again.json()["match"]["ruleset"] == "rummy"
    assert nets(again.json()) == nets(first.json()) == [118, -30, -88]


def test_a_correction_may_say_the_hand_was_a_rummy(as_carol, rummy_match, roster):
    ids = [p.pk for p in roster[:3]]
    record(as_carol, rummy_match["id"], three_handed(ids[0], ids))
    url = f"/api/v1/matches/{rummy_match['id']}/hands/1/"
    etag = as_carol.get(url)["ETag"]
    corrected = as_carol.put(
        url, three_handed(ids[0], ids, rummy=True), format="json", HTTP_IF_MATCH=etag
    )
    assert corrected.status_code == 200
    assert corrected.json()["rummy"] is True
    assert nets(corrected.json()) == [118, -30, -88]
    revisions = as_carol.get(f"{url}revisions/").json()
    kept = revisions["results"] if isinstance(revisions, dict) else revisions
    assert [r["hand"].get("rummy") for r in kept] == [None, True]


@pytest.mark.parametrize(
    ("ruleset", "flags", "sentence"),
    [
        ("rummy", {"rumy": True}, "rumy is not a flag of Rummy hands; their flags are: rummy."),
        ("arlington", {"bogus": True}, "bogus is not a flag of Arlington hands, which have none."),
    ],
)
def test_a_flag_the_game_does_not_know_is_refused_and_records_nothing(
    as_carol, club, roster, ruleset, flags, sentence
):
    ids = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3], ruleset=ruleset)
    body = three_handed(ids[0], ids) if ruleset == "rummy" else went_out(ids[0], ids)
    refused = record(as_carol, match["id"], {**body, "flags": flags})
    assert refused.status_code == 400
    (name,) = flags
    assert refused.json()["errors"] == [
        {"code": "unknown_flag", "detail": sentence, "attr": f"flags.{name}"}
    ]
    assert as_carol.get(f"/api/v1/matches/{match['id']}/hands/").json()["count"] == 0
    recorded = record(as_carol, match["id"], body)
    assert recorded.status_code == 201
    url = f"/api/v1/matches/{match['id']}/hands/1/"
    etag = recorded["ETag"]
    corrected = as_carol.put(url, {**body, "flags": flags}, format="json", HTTP_IF_MATCH=etag)
    assert corrected.status_code == 400
    assert corrected.json()["errors"][0]["code"] == "unknown_flag"
    assert as_carol.get(url)["ETag"] == etag  # the hand as it was


def test_the_rummy_flag_is_still_ignored_by_an_arlington_hand(as_carol, club, roster):
    ids = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    answer = record(as_carol, match["id"], {**went_out(ids[0], ids), "flags": {"rummy": True}})
    assert answer.status_code == 201
    assert nets(answer.json()) == [340, -65, -65]
