"""Any sequence of record / correct / void keeps the books straight (hypothesis, stateful).

After every step: each total is the sum of the nets of the recorded hands, the finish is the one
rule 19 gives, the cached club table is the one computed afresh, and every version of every hand
is still among the revisions.
"""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import scoring
from matches import errors, standings
from matches.api.serializers.hands import HandInputSerializer
from matches.models import Club, HandResult, HandRevision, Match, MatchStatus, Player, Seat
from matches.services import clubs as club_services
from matches.services import corrections as correction_services
from matches.services import hands as hand_services
from matches.services import matches as match_services
from tests.factories import full_packs, went_out, whole_pack_out

HOLDS = ["3C", "KC", "QS"]
MACHINES = itertools.count()


def same_hand(one: dict, other: dict) -> bool:
    """Whether two bodies hold the same hand, whatever order their players' parts come in."""

    def parts(body: dict) -> dict:
        return {part["player"]: part for part in body["results"]}

    return {**one, "results": parts(one)} == {**other, "results": parts(other)}


def entry_for(body: dict) -> hand_services.HandEntry:
    serializer = HandInputSerializer(data=body)
    assert serializer.is_valid(), serializer.errors
    return serializer.to_entry()


class MatchBooks(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        number = next(MACHINES)  # not id(self): a machine replayed after a failure may reuse it
        self.user = get_user_model().objects.create_user(f"keeper{number}")
        club = club_services.club_create(name=f"Club {number}", user=self.user)
        self.players = [Player.objects.create(club=club, name=n).pk for n in ("Ann", "Ben")]
        self.match = match_services.match_create(
            club=club,
            players=sorted(self.players),
            user=self.user,
        )
        self.nets: list[dict[int, int]] = []  # the model: each recorded hand's nets
        self.bodies: list[dict] = []  # and what was entered for it
        self.versions: dict[int, int] = {}  # revisions expected per hand number

    def hand_body(self, data: st.DataObject) -> dict:
        ann, ben = self.players
        kind = data.draw(st.sampled_from(["went_out", "full_packs", "whole_pack"]))
        first, second = data.draw(st.permutations([ann, ben]))
        if kind == "went_out":
            return went_out(first, [ann, ben])
        if kind == "whole_pack":
            return whole_pack_out(first, second)
        return full_packs(
            first,
            second,
            first_holds=data.draw(st.sampled_from(HOLDS)),
            second_holds=data.draw(st.sampled_from(HOLDS)),
        )

    def nets_of(self, body: dict) -> dict[int, int]:
        seats = self.match.seats.select_related("player").order_by("position")
        names = {seat.player_id: seat.player.name for seat in seats}
        rules = hand_services._rules(self.match.ruleset, self.match.options)
        ruling = hand_services._rule(rules, entry_for(body), names)
        return {r.player.id: r.net for r in ruling.results}  # type: ignore[attr-defined]

    def finished(self) -> bool:
        return scoring.replay(self.players, self.nets).finished_after is not None

    @rule(data=st.data())
    def record(self, data: st.DataObject) -> None:
        body = self.hand_body(data)
        try:
            hand_services.hand_record(match_id=self.match.pk, entry=entry_for(body), user=self.user)
        except errors.MatchFinished:
            assert self.finished()
            return
        assert not self.finished()
        self.nets.append(self.nets_of(body))
        self.bodies.append(body)
        number = len(self.nets)
        self.versions[number] = self.versions.get(number, 0) + 1

    @precondition(lambda self: bool(self.nets))
    @rule(data=st.data())
    def correct(self, data: st.DataObject) -> None:
        number = data.draw(st.integers(1, len(self.nets)))
        body = self.hand_body(data)
        proposed = [*self.nets]
        proposed[number - 1] = self.nets_of(body)
        early = scoring.replay(self.players, proposed).finished_after
        try:
            correction_services.hand_correct(
                match_id=self.match.pk, number=number, entry=entry_for(body), user=self.user
            )
        except errors.CorrectionEndsMatchEarly:
            assert early is not None and early < len(self.nets)
            return
        assert early is None or early == len(self.nets)
        self.nets = proposed
        if not same_hand(body, self.bodies[number - 1]):  # the very hand makes no version
            self.versions[number] += 1
        self.bodies[number - 1] = body

    @precondition(lambda self: bool(self.nets))
    @rule()
    def void_last(self) -> None:
        number = len(self.nets)
        correction_services.hand_void(match_id=self.match.pk, number=number, user=self.user)
        self.nets.pop()
        self.bodies.pop()
        self.versions[number] += 1

    @invariant()
    def totals_are_the_sum_of_the_nets(self) -> None:
        expected = {p: sum(hand[p] for hand in self.nets) for p in self.players}
        seats = dict(Seat.objects.filter(match=self.match).values_list("player_id", "total"))
        assert seats == expected
        running = dict.fromkeys(self.players, 0)
        for number, hand in enumerate(self.nets, start=1):
            for player in self.players:
                running[player] += hand[player]
            rows = HandResult.objects.filter(hand__match=self.match, hand__number=number)
            assert {r.player_id: (r.net, r.total) for r in rows} == {
                p: (hand[p], running[p]) for p in self.players
            }

    @invariant()
    def the_finish_is_rule_19s(self) -> None:
        match = Match.objects.get(pk=self.match.pk)
        outcome = scoring.decide_finish(
            {p: sum(hand[p] for hand in self.nets) for p in self.players}
        )
        assert (match.status == MatchStatus.FINISHED) == outcome.finished
        winners = set(
            Seat.objects.filter(match=match, winner=True).values_list("player_id", flat=True)
        )
        assert winners == set(outcome.winners)
        assert match.hands_played == len(self.nets)

    @invariant()
    def the_cached_table_is_never_stale(self) -> None:
        club = Club.objects.get(pk=self.match.club_id)
        served = standings.standings_for_club(club=club).rows()  # cached after every step
        assert served == standings.standings(scope=standings.Scope(club.pk))

    @invariant()
    def every_version_is_kept(self) -> None:
        for number, count in self.versions.items():
            kept = HandRevision.objects.filter(match=self.match, number=number).count()
            assert kept == count


@pytest.mark.django_db
def test_any_sequence_of_record_correct_void_keeps_the_books_straight():
    run = MatchBooks.TestCase
    run.settings = settings(
        max_examples=25,
        stateful_step_count=12,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    run().runTest()
