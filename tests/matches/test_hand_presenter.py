"""Hands are answered as plain dicts, byte for byte what their documenting serializers give.

The hand endpoints build their answers without the output serializers, for speed
(``RecordedHand.body``, matches/hands.py); the serializers describe them in the OpenAPI schema.
"""

from __future__ import annotations

import json

from rest_framework.renderers import JSONRenderer

from matches import hands, selectors
from matches.api.serializers import HandSerializer, HandWithMatchSerializer
from matches.models import Hand, Season
from tests.factories import full_packs, record, start_match, went_out, whole_pack_out


def as_json(data: object) -> object:
    """What a client reads: the answer rendered to JSON and read back, key order kept."""
    return json.loads(JSONRenderer().render(data))


def serialized(match_id: int, number: int) -> object:
    hand = selectors.hands_of(match_id).get(number=number)
    return as_json(HandWithMatchSerializer(hand).data)


def presented(match_id: int, number: int) -> object:
    hand = selectors.hands_of(match_id).get(number=number)
    return as_json(hands.from_hand(hand).body())


def same_in_order(a: object, b: object) -> bool:
    """Equal, and every object's keys in the same order."""
    return json.dumps(a) == json.dumps(b)


def test_every_kind_of_hand_is_presented_as_its_serializer_documents(as_carol, club, roster):
    ann, ben, cleo, dev, eve = (p.pk for p in roster[:5])
    season = Season.objects.create(club=club, name="Autumn")
    kinds = set()

    def check(match: dict, body: dict) -> None:
        answer = record(as_carol, match["id"], body)
        assert answer.status_code == 201, answer.json()
        number = answer.json()["number"]
        documented = serialized(match["id"], number)
        # The answer to the recording (from memory), a later read and the serializer agree.
        assert same_in_order(answer.json(), documented)
        assert same_in_order(presented(match["id"], number), documented)
        match_part = documented["match"]  # type: ignore[index]
        kinds.add((body["ending"], match_part["status"], match_part["shared_victory"]))

    trio = start_match(as_carol, club, roster[:3], season=season.pk, table="T2", first_dealer=cleo)
    for winner in (ann, ben):
        check(trio, went_out(winner, [ann, ben, cleo]))
    check(start_match(as_carol, club, roster[:2]), full_packs(ann, ben, second_holds="QS"))
    tie = start_match(as_carol, club, roster[3:5])
    check(tie, full_packs(dev, eve))
    check(tie, full_packs(eve, dev))  # 1060 each: a shared victory
    out = start_match(as_carol, club, [roster[0], roster[4]])
    check(out, whole_pack_out(ann, eve))
    check(out, whole_pack_out(ann, eve))  # 1280: finished
    assert kinds == {
        ("went_out", "in_progress", False),
        ("stock_exhausted", "in_progress", False),
        ("stock_exhausted", "finished", True),
        ("went_out", "finished", False),
    }


def test_a_corrected_hand_is_presented_as_its_serializer_documents(as_carol, club, roster):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2])
    record(as_carol, match["id"], went_out(ann, [ann, ben]))
    record(as_carol, match["id"], went_out(ann, [ann, ben]))
    corrected = as_carol.put(
        f"/api/v1/matches/{match['id']}/hands/1/",
        {**went_out(ben, [ann, ben]), "reason": "wrong winner"},
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert corrected.status_code == 200, corrected.json()
    body = corrected.json()
    assert body.pop("impact")["totals"]
    assert same_in_order(body, serialized(match["id"], 1))
    assert Hand.objects.get(match_id=match["id"], number=1).version == 2
    read = as_carol.get(f"/api/v1/matches/{match['id']}/hands/2/")
    assert same_in_order(read.json(), serialized(match["id"], 2))


def test_the_hands_list_is_presented_as_its_serializer_documents(as_carol, club, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    match = start_match(as_carol, club, roster[:3])
    for winner in (ann, ben, cleo):
        assert record(as_carol, match["id"], went_out(winner, [ann, ben, cleo])).status_code == 201
    listed = as_carol.get(f"/api/v1/matches/{match['id']}/hands/").json()["results"]
    documented = as_json(HandSerializer(selectors.hands_of(match["id"]), many=True).data)
    assert same_in_order(listed, documented)
    assert [hand["number"] for hand in listed] == [1, 2, 3]
