"""Ratings: GET clubs/{id}/ratings/, players/{id}/ratings/ and the rating column of standings.

Every expectation is computed with openskill itself (``ratings.rate``) from the places the
matches give, so a test proves the replay, not a number copied from an earlier run.
"""

from __future__ import annotations

import csv
import io

import pytest

from clubnight import ratings
from clubnight.ratings import NEWCOMER, display, rate
from tests.clubnight.games import outright, play, tied
from tests.factories import correct, full_packs, record, went_out


def rows(client, club, **params) -> dict[str, dict]:
    response = client.get(f"/api/v1/clubs/{club.pk}/ratings/", params)
    assert response.status_code == 200, response.json()
    return {row["name"]: row for row in response.json()}


def test_the_winner_rises_and_the_loser_falls(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    outright(as_carol, club, ann, ben)
    table = rows(as_victor, club)
    assert table["Ann"]["mu"] > NEWCOMER.mu > table["Ben"]["mu"]
    assert table["Ann"]["rating"] > table["Ben"]["rating"]
    assert (table["Ann"]["rank"], table["Ben"]["rank"]) == (1, 2)
    assert table["Ann"]["matches"] == table["Ben"]["matches"] == 1
    winner, loser = rate([NEWCOMER, NEWCOMER], [1, 2])
    assert table["Ann"]["mu"] == pytest.approx(winner.mu, abs=1e-4)
    assert table["Ann"]["rating"] == display(winner.mu, winner.sigma)
    assert set(table["Ann"]) == {"player", "name", "rating", "mu", "sigma", "matches", "rank"}


def test_a_player_without_a_finished_match_has_no_rating(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    play(as_carol, club, [ann, ben], [went_out(ann.pk, [ann.pk, ben.pk])])
    assert rows(as_victor, club) == {}


def test_shared_places_move_tied_players_alike(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    tied(as_carol, club, ann, ben)
    table = rows(as_victor, club)
    assert table["Ann"]["mu"] == pytest.approx(table["Ben"]["mu"], abs=1e-4)
    assert table["Ann"]["sigma"] < NEWCOMER.sigma
    assert table["Ann"]["rank"] == table["Ben"]["rank"] == 1
    history = as_victor.get(f"/api/v1/players/{ann.pk}/ratings/").json()
    assert [step["place"] for step in history] == [1]


def test_places_are_winners_then_totals_with_ties_sharing():
    assert ratings.places([(1, 1020, True), (2, -195, False), (3, 40, False), (4, 40, False)]) == {
        1: 1,
        2: 4,
        3: 2,
        4: 2,
    }


def test_a_correction_that_changes_the_winner_reverses_the_ratings(
    as_carol, as_victor, club, roster
):
    ann, ben = roster[:2]
    first = play(as_carol, club, [ann, ben], [full_packs(ann.pk, ben.pk, second_holds="KC")] * 2)
    outright(as_carol, club, ann, ben)  # a later match, replayed after the correction
    before = rows(as_victor, club)
    assert before["Ann"]["rating"] > before["Ben"]["rating"]
    # Hand 2 corrected: Ann was holding Q♠, so Ben wins the first match 1,050 to 970.
    response = correct(as_carol, first, 2, full_packs(ann.pk, ben.pk, first_holds="QS"))
    assert response.status_code == 200, response.json()
    ann_1, ben_1 = rate([NEWCOMER, NEWCOMER], [2, 1])
    ann_2, ben_2 = rate([ann_1, ben_1], [1, 2])
    after = rows(as_victor, club)
    assert after["Ann"]["mu"] == pytest.approx(ann_2.mu, abs=1e-4)
    assert after["Ben"]["mu"] == pytest.approx(ben_2.mu, abs=1e-4)
    assert after["Ann"]["sigma"] == pytest.approx(ann_2.sigma, abs=1e-4)
    history = as_victor.get(f"/api/v1/players/{ben.pk}/ratings/").json()
    assert [step["place"] for step in history] == [1, 2]
    assert history[0]["rating"] == display(ben_1.mu, ben_1.sigma)
    assert history[1]["rating_before"] == history[0]["rating"]


def test_a_void_that_unfinishes_a_match_removes_its_effect(as_carol, as_victor, club, roster):
    ann, ben, cleo = roster[:3]
    outright(as_carol, club, cleo, ben)
    last = outright(as_carol, club, ann, ben)
    assert set(rows(as_victor, club)) == {"Ann", "Ben", "Cleo"}
    assert as_carol.delete(f"/api/v1/matches/{last}/hands/3/").status_code == 204
    table = rows(as_victor, club)
    assert set(table) == {"Ben", "Cleo"}  # Ann's only match is unfinished again
    cleo_1, ben_1 = rate([NEWCOMER, NEWCOMER], [1, 2])
    assert table["Ben"]["mu"] == pytest.approx(ben_1.mu, abs=1e-4)
    assert table["Ben"]["matches"] == 1
    assert as_victor.get(f"/api/v1/players/{ann.pk}/ratings/").json() == []
    # Finished again by a new last hand: rated again, after the other match.
    body = went_out(ann.pk, [ann.pk, ben.pk])
    assert record(as_carol, last, body).status_code == 201
    ann_2, ben_2 = rate([NEWCOMER, ben_1], [1, 2])
    assert rows(as_victor, club)["Ben"]["mu"] == pytest.approx(ben_2.mu, abs=1e-4)


def test_a_correction_of_an_earlier_match_replays_the_later_ones_in_order(
    as_carol, as_victor, club, roster
):
    ann, ben, cleo = roster[:3]
    first = play(as_carol, club, [ann, ben], [full_packs(ann.pk, ben.pk, second_holds="KC")] * 2)
    outright(as_carol, club, ben, cleo)
    outright(as_carol, club, cleo, ann)
    correct(as_carol, first, 2, full_packs(ann.pk, ben.pk, first_holds="QS"))
    ann_1, ben_1 = rate([NEWCOMER, NEWCOMER], [2, 1])
    ben_2, cleo_2 = rate([ben_1, NEWCOMER], [1, 2])
    cleo_3, ann_3 = rate([cleo_2, ann_1], [1, 2])
    table = rows(as_victor, club)
    assert table["Ann"]["mu"] == pytest.approx(ann_3.mu, abs=1e-4)
    assert table["Ben"]["mu"] == pytest.approx(ben_2.mu, abs=1e-4)
    assert table["Cleo"]["mu"] == pytest.approx(cleo_3.mu, abs=1e-4)


def test_ratings_are_kept_per_ruleset(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    outright(as_carol, club, ann, ben)
    assert rows(as_victor, club, ruleset="rummy") == {}
    response = as_victor.get(f"/api/v1/clubs/{club.pk}/ratings/", {"ruleset": "chess"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == "ruleset"


def test_standings_show_the_rating_in_json_and_csv(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    outright(as_carol, club, ann, ben)
    rated = rows(as_victor, club)
    table = as_victor.get(f"/api/v1/clubs/{club.pk}/standings/").json()
    assert {row["name"]: row["rating"] for row in table} == {
        name: row["rating"] for name, row in rated.items()
    }
    text = as_victor.get(f"/api/v1/clubs/{club.pk}/standings/csv/").content.decode("utf-8-sig")
    lines = list(csv.DictReader(io.StringIO(text)))
    assert {line["name"]: int(line["rating"]) for line in lines} == {
        name: row["rating"] for name, row in rated.items()
    }
    by_rating = as_victor.get(f"/api/v1/clubs/{club.pk}/standings/", {"ordering": "rating"})
    assert [row["name"] for row in by_rating.json()] == ["Ben", "Ann"]


def test_rerate_rebuilds_the_same_ratings(as_carol, as_victor, club, roster):
    from django.core.management import call_command

    from clubnight.models import Rating, RatingEntry

    ann, ben, cleo = roster[:3]
    outright(as_carol, club, ann, ben)
    tied(as_carol, club, ben, cleo)
    before = rows(as_victor, club)
    RatingEntry.objects.all().delete()
    Rating.objects.all().delete()
    call_command("rerate", stdout=io.StringIO())
    assert rows(as_victor, club) == before


def test_outsiders_and_strangers_cannot_read_ratings(as_bob, client, club, roster, as_carol):
    ann, ben = roster[:2]
    outright(as_carol, club, ann, ben)
    assert as_bob.get(f"/api/v1/clubs/{club.pk}/ratings/").status_code == 404
    assert as_bob.get(f"/api/v1/players/{ann.pk}/ratings/").status_code == 404
    assert client.get(f"/api/v1/clubs/{club.pk}/ratings/").status_code in (401, 403)
    assert client.get(f"/api/v1/players/{ann.pk}/ratings/").status_code in (401, 403)


def _stored_ratings() -> tuple[list[tuple], list[tuple]]:
    """Every rating entry and rating, as plain rows in a fixed order (no primary keys)."""
    from clubnight.models import Rating, RatingEntry

    entries = RatingEntry.objects.order_by("finished_at", "match_id", "player_id").values_list(
        "club_id",
        "ruleset",
        "match_id",
        "player_id",
        "finished_at",
        "place",
        "mu_before",
        "sigma_before",
        "mu",
        "sigma",
    )
    kept = Rating.objects.order_by("player_id", "ruleset").values_list(
        "club_id", "ruleset", "player_id", "mu", "sigma", "matches"
    )
    return list(entries), list(kept)


def test_replays_after_corrections_and_voids_equal_rating_from_scratch_row_for_row(
    as_carol, club, roster
):
    from django.core.management import call_command

    from clubnight.models import Rating, RatingEntry

    ann, ben, cleo, dev, eve = roster
    trio = [ann.pk, cleo.pk, dev.pk]
    first = play(as_carol, club, [ann, ben], [full_packs(ann.pk, ben.pk, second_holds="KC")] * 2)
    play(as_carol, club, [ann, cleo, dev], [went_out(dev.pk, trio)] * 3)
    outright(as_carol, club, ben, cleo)
    voided = tied(as_carol, club, cleo, eve)
    outright(as_carol, club, eve, ann)
    play(as_carol, club, [ann, cleo, dev], [went_out(cleo.pk, trio)] * 3)
    # The first match corrected (Ben now wins it), a middle one un-finished: both replay.
    response = correct(as_carol, first, 2, full_packs(ann.pk, ben.pk, first_holds="QS"))
    assert response.status_code == 200, response.json()
    assert as_carol.delete(f"/api/v1/matches/{voided}/hands/2/").status_code == 204
    replayed = _stored_ratings()
    assert len(replayed[0]) == 12 and len(replayed[1]) == 5
    assert RatingEntry.objects.get(match_id=first, player=ben).place == 1
    RatingEntry.objects.all().delete()
    Rating.objects.all().delete()
    call_command("rerate", stdout=io.StringIO())
    assert _stored_ratings() == replayed  # exactly equal: the same floats, not approximately
