"""A recorded hand has one output type: its JSON is the answer, and the schema is made from it.

``RecordedHand.to_json`` (matches/hands.py) writes the answer of every hand endpoint, the
idempotency record keeps it and ``from_json`` reads it back; the OpenAPI schema's components
are made from the same names and types (matches/api/serializers.py).
"""

from __future__ import annotations

import itertools
import json

from rest_framework.renderers import JSONRenderer

from matches import hands, selectors, state
from matches.api.serializers.hands import HandSerializer, HandWithMatchSerializer
from matches.models import Event, Hand, IdempotencyRecord, Season
from matches.services.keys import key_digest
from tests.factories import full_packs, record, start_match, went_out, whole_pack_out


def as_json(data: object) -> object:
    """What a client reads: the answer rendered to JSON and read back, key order kept."""
    return json.loads(JSONRenderer().render(data))


def presented(match_id: int, number: int) -> object:
    hand = selectors.hands_of(match_id).get(number=number)
    return as_json(hands.from_hand(hand).to_json())


def same_in_order(a: object, b: object) -> bool:
    """Equal, and every object's keys in the same order."""
    return json.dumps(a) == json.dumps(b)


def documented_keys(serializer: object, body: object) -> None:
    """Every object of ``body`` has exactly the fields, in order, its schema component lists."""
    fields = serializer.fields  # type: ignore[attr-defined]
    assert list(body) == list(fields), (type(serializer).__name__, list(body))  # type: ignore[arg-type]
    for name, field in fields.items():
        child = getattr(field, "child", field)
        value = body[name]  # type: ignore[index]
        if hasattr(child, "fields") and value is not None:
            for item in value if isinstance(value, list) else [value]:
                documented_keys(child, item)


def test_every_kind_of_hand_is_answered_as_its_value_writes_it(as_carol, club, roster):
    ann, ben, cleo, dev, eve = (p.pk for p in roster[:5])
    season = Season.objects.create(club=club, name="Autumn")
    kinds = set()
    keys = (f"key-{i}" for i in itertools.count())

    def check(match: dict, body: dict) -> None:
        key = next(keys)
        answer = record(as_carol, match["id"], body, HTTP_IDEMPOTENCY_KEY=key)
        assert answer.status_code == 201, answer.json()
        number = answer.json()["number"]
        # The answer to the recording (from memory), a later read and the kept answer agree.
        assert same_in_order(answer.json(), presented(match["id"], number))
        kept = IdempotencyRecord.objects.get(match_id=match["id"], key=key_digest(key))
        assert kept.response == answer.json()  # jsonb keeps its own order of keys
        value = hands.RecordedHand.from_json(kept.response)
        assert same_in_order(as_json(value.to_json()), answer.json())  # as a retry is answered
        documented_keys(HandWithMatchSerializer(), answer.json())
        match_part = answer.json()["match"]
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


def test_a_corrected_hand_is_answered_as_its_value_writes_it(as_carol, club, roster):
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
    assert same_in_order(body, presented(match["id"], 1))
    documented_keys(HandWithMatchSerializer(), body)
    assert Hand.objects.get(match_id=match["id"], number=1).version == 2
    read = as_carol.get(f"/api/v1/matches/{match['id']}/hands/2/")
    assert same_in_order(read.json(), presented(match["id"], 2))


def test_the_hands_list_is_answered_as_the_values_write_them(as_carol, club, roster):
    ann, ben, cleo = (p.pk for p in roster[:3])
    match = start_match(as_carol, club, roster[:3])
    for winner in (ann, ben, cleo):
        assert record(as_carol, match["id"], went_out(winner, [ann, ben, cleo])).status_code == 201
    listed = as_carol.get(f"/api/v1/matches/{match['id']}/hands/").json()["results"]
    for hand in listed:
        documented_keys(HandSerializer(), hand)
    assert [hand["number"] for hand in listed] == [1, 2, 3]
    assert "match" not in listed[0]


def test_the_schema_of_a_hand_is_made_from_its_type():
    assert list(HandWithMatchSerializer().fields) == list(hands.RecordedHand.JSON)
    assert list(HandSerializer().fields) == [n for n in hands.RecordedHand.JSON if n != "match"]
    match = HandWithMatchSerializer().fields["match"]
    assert list(match.fields) == list(state.MatchState.JSON)
    assert type(match).__name__ == "HandMatchSerializer"


def test_an_answer_kept_before_the_answer_was_the_json_of_its_value_is_replayed(
    as_carol, club, roster
):
    ann, ben = (p.pk for p in roster[:2])
    match = start_match(as_carol, club, roster[:2])
    body = went_out(ann, [ann, ben])
    first = record(as_carol, match["id"], body, HTTP_IDEMPOTENCY_KEY="kept-before").json()
    kept = IdempotencyRecord.objects.get(match_id=match["id"], key=key_digest("kept-before"))
    # the form kept before: the status inside, the last hand's dealer and winner, no reckonings
    old_match = {k: v for k, v in first["match"].items() if k not in COMPUTED}
    kept.response = {
        **{k: v for k, v in first.items() if k != "rummy"},
        "agreed": True,
        "match": {**old_match, "previous": [first["dealer"], first["went_out"]]},
    }
    kept.save(update_fields=["response"])

    again = record(as_carol, match["id"], body, HTTP_IDEMPOTENCY_KEY="kept-before")
    assert again.status_code == 200  # agreed, as the old record said
    assert again["Idempotent-Replayed"] == "true"
    assert same_in_order(again.json(), first)


COMPUTED = ("next_hand", "next_dealer", "dealer_after_next", "winners", "shared_victory")


def test_a_recorded_hand_is_written_as_json_once_for_its_event_answer_and_key(
    as_carol, club, roster, monkeypatch
):
    """The event, the answer and the answer kept under the key share one walk over the hand;
    each caller still gets a top level of its own."""
    walked = []
    walk = hands._to_json

    def counting(value: object) -> dict:
        if isinstance(value, hands.RecordedHand):
            walked.append(value.number)
        return walk(value)

    monkeypatch.setattr(hands, "_to_json", counting)
    seated = [p.pk for p in roster[:3]]
    match = start_match(as_carol, club, roster[:3])
    answer = record(as_carol, match["id"], went_out(seated[0], seated), HTTP_IDEMPOTENCY_KEY="k1")
    assert answer.status_code == 201
    assert walked == [1]
    event = Event.objects.get(club=club, type="hand.recorded")
    kept = IdempotencyRecord.objects.get(match_id=match["id"], key=key_digest("k1"))
    assert event.data["hand"] == answer.json() == kept.response

    value = hands.RecordedHand.from_json(answer.json())
    without = value.to_json(with_match=False)
    assert "match" not in without and "match" in value.to_json()  # the kept one is untouched
