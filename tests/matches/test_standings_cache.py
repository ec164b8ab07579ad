"""Cached league tables: an identical request is answered from the cache, and every change to
what a table shows is in the very next answer, in every kind of table of the club.

The expectations come from the builders, as in test_standings.py: three went_out hands finish a
two-player match at 1,020 to -195.
"""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import standings
from matches.api.views import clubs as club_views
from matches.models import Club, Match, Player, Season
from matches.services import matches as match_services
from tests.factories import correct, empty_caches, full_packs, record, went_out
from tests.matches.test_standings import outright, play, table

DATES = {"from": "2000-01-01", "to": "2999-12-31"}  # every match of the tests finishes between


@pytest.fixture
def spring(club) -> Season:
    return Season.objects.create(club=club, name="Spring")


@pytest.fixture
def computed(monkeypatch) -> list[standings.Scope]:
    """The scope of every table computed rather than taken from the cache."""
    calls: list[standings.Scope] = []
    compute = standings.standings

    def counted(**kwargs):
        calls.append(kwargs["scope"])
        return compute(**kwargs)

    monkeypatch.setattr(standings, "standings", counted)
    return calls


def every_table(client, club: Club, season: Season) -> dict[str, list[dict]]:
    """Each kind of table of the club, each asked for once."""
    club_url = f"/api/v1/clubs/{club.pk}/standings/"
    season_url = f"/api/v1/seasons/{season.pk}/standings/"
    return {
        "all-time": table(client, club_url),
        "all-time by name": table(client, club_url, ordering="name"),
        "the season, from the club": table(client, club_url, season=season.pk),
        "the season": table(client, season_url),
        "between dates": table(client, club_url, **DATES),
        "the season between dates": table(client, season_url, **DATES),
    }


def served_fresh(client, club: Club, season: Season) -> dict[str, list[dict]]:
    """Every table as served now, checked against what an empty cache gives."""
    served = every_table(client, club, season)
    empty_caches()
    assert served == every_table(client, club, season)
    return served


def lines(rows: list[dict]) -> list[tuple]:
    return [(row["name"], row["wins"], row["points"]) for row in rows]


def lines_of_each(tables: dict[str, list[dict]]) -> dict[str, list[tuple]]:
    return {kind: lines(rows) for kind, rows in tables.items()}


def first_two_hands(client, club, winner: Player, loser: Player, season: Season) -> int:
    """A match of the season that one more went_out hand of ``winner`` finishes."""
    ids = [winner.pk, loser.pk]
    return play(client, club, [winner, loser], [went_out(winner.pk, ids)] * 2, season=season.pk)


# --- served from the cache -------------------------------------------------------------------


def queries(client, url: str, **params) -> tuple[int, bytes]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params)
    assert response.status_code == 200
    return len(captured.captured_queries), response.content


@pytest.mark.parametrize("kind", ["club", "season"])
def test_a_second_identical_request_is_answered_from_the_cache(
    as_carol, as_victor, club, roster, spring, computed, kind
):
    outright(as_carol, club, roster[0], roster[1], season=spring.pk)
    url = f"/api/v1/{kind}s/{(club if kind == 'club' else spring).pk}/standings/"

    first, answer = queries(as_victor, url)
    again, same = queries(as_victor, url)

    assert len(computed) == 1
    assert again == first - 2  # the seats' figures and the players' names and ratings
    assert same == answer


@pytest.mark.parametrize("params", [{}, {"format": "csv"}, {"ordering": "name", **DATES}])
def test_a_cached_answer_is_the_same_bytes_as_a_computed_one(
    as_carol, as_victor, club, roster, computed, params
):
    outright(as_carol, club, roster[0], roster[1])
    tied = full_packs(roster[2].pk, roster[3].pk)
    play(as_carol, club, roster[2:4], [tied, full_packs(roster[3].pk, roster[2].pk)])
    url = f"/api/v1/clubs/{club.pk}/standings/"

    answers = [as_victor.get(url, params) for _ in range(2)]

    assert len(computed) == 1
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].content == answers[1].content
    assert answers[0]["Content-Type"] == answers[1]["Content-Type"]


def test_each_query_of_a_club_has_its_own_entry(as_carol, as_victor, club, roster, spring):
    ann, ben, cleo = roster[:3]
    outright(as_carol, club, ann, ben, season=spring.pk)
    outright(as_carol, club, cleo, ann)
    url = f"/api/v1/clubs/{club.pk}/standings/"

    assert [r["name"] for r in table(as_victor, url)] == ["Cleo", "Ann", "Ben"]
    assert [r["name"] for r in table(as_victor, url, ordering="name")] == ["Ann", "Ben", "Cleo"]
    assert [r["name"] for r in table(as_victor, url, season=spring.pk)] == ["Ann", "Ben"]
    assert table(as_victor, url, **{"from": "2999-01-01"}) == []
    assert table(as_victor, url, to="2000-01-01") == []
    assert len(table(as_victor, url, **DATES)) == 3


@pytest.fixture
def shared_reads(monkeypatch) -> list[str]:
    """The keys read from the shared cache (the process's own copies are not counted)."""
    keys: list[str] = []
    shared = caches["default"]
    read = shared.get

    def counted(key, *args, **kwargs):
        keys.append(key)
        return read(key, *args, **kwargs)

    monkeypatch.setattr(shared, "get", counted)
    return keys


def test_a_table_this_process_served_is_not_read_from_the_shared_cache_again(
    as_carol, as_victor, club, roster, computed, shared_reads
):
    outright(as_carol, club, roster[0], roster[1])
    url = f"/api/v1/clubs/{club.pk}/standings/"
    first = as_victor.get(url)
    shared_reads.clear()  # the throttles' counts and the first answer's misses

    again = [as_victor.get(url) for _ in range(3)]

    assert [key for key in shared_reads if key.startswith("standings:")] == []
    assert len(computed) == 1
    assert {answer.content for answer in again} == {first.content}


def test_a_table_another_process_kept_is_read_from_the_shared_cache_once(
    as_carol, as_victor, club, roster, computed, shared_reads
):
    outright(as_carol, club, roster[0], roster[1])
    url = f"/api/v1/clubs/{club.pk}/standings/"
    first = as_victor.get(url)
    caches[standings.NEAR].clear()  # as a worker that has not served it yet finds it
    shared_reads.clear()

    again = [as_victor.get(url) for _ in range(3)]

    assert len([key for key in shared_reads if key.startswith("standings:")]) == 1
    assert len(computed) == 1
    assert {answer.content for answer in again} == {first.content}


def test_a_change_is_in_the_next_answer_although_this_process_kept_the_old_table(
    as_carol, as_victor, club, roster
):
    ann, ben = roster[:2]
    outright(as_carol, club, ann, ben)
    url = f"/api/v1/clubs/{club.pk}/standings/"
    assert lines(table(as_victor, url)) == [("Ann", 1, 1020), ("Ben", 0, -195)]
    old = standings.standings_for_club(club=Club.objects.get(pk=club.pk)).key("json")

    outright(as_carol, club, ben, ann)

    assert caches[standings.NEAR].get(old) is not None  # still held by this process
    assert lines(table(as_victor, url)) == [("Ann", 1, 825), ("Ben", 1, 825)]


# --- every change is in the next answer ------------------------------------------------------


def test_the_hand_that_finishes_a_match_is_in_the_next_answer(
    as_carol, as_victor, club, roster, spring
):
    ann, ben = roster[:2]
    match_id = first_two_hands(as_carol, club, ann, ben, spring)
    before = every_table(as_victor, club, spring)
    assert all(rows == [] for rows in before.values())

    finishing = record(as_carol, match_id, went_out(ann.pk, [ann.pk, ben.pk]))
    assert finishing.status_code == 201

    served = served_fresh(as_victor, club, spring)
    assert lines_of_each(served) == dict.fromkeys(served, [("Ann", 1, 1020), ("Ben", 0, -195)])


def test_a_correction_of_a_finished_match_is_in_the_next_answer(
    as_carol, as_victor, club, roster, spring
):
    ann, ben = roster[:2]
    hands = [full_packs(ann.pk, ben.pk, second_holds="KC")] * 2
    match_id = play(as_carol, club, [ann, ben], hands, season=spring.pk)
    before = every_table(as_victor, club, spring)
    assert lines(before["the season"]) == [("Ann", 1, 1060), ("Ben", 0, 1040)]

    # In hand 2 Ann was caught holding Q♠ (440) and Ben nothing but a 3 (530): 970 to 1,050.
    response = correct(as_carol, match_id, 2, full_packs(ann.pk, ben.pk, first_holds="QS"))
    assert response.status_code == 200

    served = served_fresh(as_victor, club, spring)
    assert lines(served["all-time"]) == [("Ben", 1, 1050), ("Ann", 0, 970)]
    assert lines(served["the season between dates"]) == [("Ben", 1, 1050), ("Ann", 0, 970)]
    assert lines(served["all-time by name"]) == [("Ann", 0, 970), ("Ben", 1, 1050)]


def test_voiding_the_last_hand_of_a_finished_match_is_in_the_next_answer(
    as_carol, as_victor, club, roster, spring
):
    ann, ben = roster[:2]
    match_id = outright(as_carol, club, ann, ben, season=spring.pk)
    before = every_table(as_victor, club, spring)
    assert lines(before["the season"]) == [("Ann", 1, 1020), ("Ben", 0, -195)]

    assert as_carol.delete(f"/api/v1/matches/{match_id}/hands/3/").status_code == 204

    served = served_fresh(as_victor, club, spring)
    assert all(rows == [] for rows in served.values())


def test_moving_a_finished_match_to_another_season_is_in_the_next_answer(
    as_carol, as_victor, club, roster, spring
):
    ann, ben = roster[:2]
    autumn = Season.objects.create(club=club, name="Autumn")
    match_id = outright(as_carol, club, ann, ben, season=spring.pk)
    assert lines(every_table(as_victor, club, spring)["the season"]) == [
        ("Ann", 1, 1020),
        ("Ben", 0, -195),
    ]
    assert every_table(as_victor, club, autumn)["the season"] == []

    match_services.match_update(match=Match.objects.get(pk=match_id), table="", season=autumn)

    left = served_fresh(as_victor, club, spring)
    assert left["the season"] == left["the season, from the club"] == []
    assert left["the season between dates"] == []
    joined = served_fresh(as_victor, club, autumn)
    assert lines(joined["the season"]) == [("Ann", 1, 1020), ("Ben", 0, -195)]
    assert lines(joined["the season, from the club"]) == lines(joined["the season"])


@pytest.fixture
def ben(as_carol, as_victor, club, roster, spring) -> Player:
    """Ben, beaten by Ann in the spring, in every table of the club, all of them cached."""
    outright(as_carol, club, roster[0], roster[1], season=spring.pk)
    before = every_table(as_victor, club, spring)
    assert lines_of_each(before) == dict.fromkeys(before, [("Ann", 1, 1020), ("Ben", 0, -195)])
    return roster[1]


def assert_every_table_says_benedict(client, club: Club, season: Season) -> None:
    served = served_fresh(client, club, season)
    assert lines_of_each(served) == dict.fromkeys(served, [("Ann", 1, 1020), ("Benedict", 0, -195)])


def test_renaming_the_club_while_a_match_finishes_keeps_the_stamp_moving_on(
    as_alice, as_carol, as_victor, club, roster, monkeypatch
):
    """A save of the club read before the change must not write back the stamp it read."""
    ann, ben = roster[:2]
    ids = [ann.pk, ben.pk]
    match_id = play(as_carol, club, [ann, ben], [went_out(ann.pk, ids)] * 2)
    url = f"/api/v1/clubs/{club.pk}/standings/"
    assert table(as_victor, url) == []  # cached under the stamp before the finishing hand
    before = Club.objects.get(pk=club.pk).standings_stamp
    renaming = club_views.ClubViewSet.perform_update

    def with_the_match_finishing_meanwhile(self, serializer):
        assert record(as_carol, match_id, went_out(ann.pk, ids)).status_code == 201
        renaming(self, serializer)

    monkeypatch.setattr(
        club_views.ClubViewSet, "perform_update", with_the_match_finishing_meanwhile
    )
    renamed = as_alice.patch(f"/api/v1/clubs/{club.pk}/", {"name": "Renamed"}, format="json")

    assert renamed.status_code == 200
    assert Club.objects.get(pk=club.pk).name == "Renamed"
    assert Club.objects.get(pk=club.pk).standings_stamp == before + 1
    assert [row["name"] for row in table(as_victor, url)] == ["Ann", "Ben"]


def test_a_rename_through_the_api_is_in_the_next_answer(as_carol, as_victor, club, spring, ben):
    response = as_carol.patch(f"/api/v1/players/{ben.pk}/", {"name": "Benedict"}, format="json")
    assert response.status_code == 200
    assert_every_table_says_benedict(as_victor, club, spring)


def test_a_rename_saved_on_the_model_is_in_the_next_answer(as_victor, club, spring, ben):
    ben.name = "Benedict"
    ben.save()
    assert_every_table_says_benedict(as_victor, club, spring)


def test_a_rename_in_the_admin_is_in_the_next_answer(admin_client, as_victor, club, spring, ben):
    response = admin_client.post(
        f"/admin/matches/player/{ben.pk}/change/", {"name": "Benedict", "user": ""}
    )
    assert response.status_code == 302
    assert_every_table_says_benedict(as_victor, club, spring)


def test_the_admin_keeps_a_player_in_their_club(admin_client, roster, bobs_club):
    response = admin_client.post(
        f"/admin/matches/player/{roster[0].pk}/change/",
        {"club": bobs_club.pk, "name": "Ann", "user": ""},
    )
    assert response.status_code == 302
    roster[0].refresh_from_db()
    assert roster[0].club_id != bobs_club.pk


def test_a_table_is_computed_on_the_database_its_club_was_read_from(club, spring, monkeypatch):
    # With read replicas, another replica may lag behind the one that gave the stamp.
    databases = []
    monkeypatch.setattr(
        standings, "standings", lambda **kwargs: databases.append(kwargs["using"]) or []
    )
    club._state.db = "replica_1"
    standings.standings_for_club(club=club).rows()
    season = Season.objects.select_related("club").get(pk=spring.pk)
    season.club._state.db = "replica_2"
    standings.standings_for_season(season=season).rows()
    assert databases == ["replica_1", "replica_2"]
