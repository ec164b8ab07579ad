"""Club nights: POST tournaments/, POST tournaments/{id}/rounds/, the leaderboard and the board."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubnight import draw
from matches.models import Match, Player
from scoring.rulesets import RULESETS
from tests.clubnight.games import outright
from tests.factories import correct, record, start_match, went_out


def create(client, club, players, **extra):
    body = {"club": club.pk, "name": "Tuesday night", "players": [p.pk for p in players], **extra}
    return client.post("/api/v1/tournaments/", body, format="json")


def draw_round(client, tournament_id, **body):
    return client.post(f"/api/v1/tournaments/{tournament_id}/rounds/", body, format="json")


@pytest.mark.parametrize("ruleset", ["arlington", "rummy"])
@pytest.mark.parametrize("count", [9, 11, 13])
def test_a_round_seats_every_entrant_exactly_once_at_legal_tables(
    as_carol, club, crowd, count, ruleset
):
    entrants = crowd[:count]
    created = create(as_carol, club, entrants, ruleset=ruleset)
    assert created.status_code == 201, created.json()
    response = draw_round(as_carol, created.json()["id"])
    assert response.status_code == 201, response.json()
    body = response.json()
    rules = RULESETS[ruleset]
    seated = Counter(seat["player"] for table in body["tables"] for seat in table["seats"])
    assert seated == Counter(p.pk for p in entrants)
    sizes = [len(table["seats"]) for table in body["tables"]]
    assert all(rules.min_players <= size <= rules.max_players for size in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert len(sizes) == -(-count // rules.max_players)  # the fewest tables that hold everyone
    assert body["matches"] == [table["match"] for table in body["tables"]]
    matches = Match.objects.filter(pk__in=body["matches"])
    assert {m.table for m in matches} == {f"Table {i}" for i in range(1, len(sizes) + 1)}
    assert {m.ruleset for m in matches} == {ruleset}
    assert body["seating"] == "random" and isinstance(body["seed"], int)


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=80),
    seed=st.integers(min_value=0, max_value=2**53),
    name=st.sampled_from(sorted(RULESETS)),
    balanced=st.booleans(),
)
def test_every_draw_seats_everyone_once_at_tables_within_the_limits(count, seed, name, balanced):
    rules = RULESETS[name]
    sizes = draw.table_sizes(count, rules.min_players, rules.max_players)
    players = list(range(count))
    deal = draw.balanced_tables if balanced else draw.random_tables
    tables = deal(players, sizes, seed=seed)
    assert sorted(p for table in tables for p in table) == players
    assert [len(table) for table in tables] == sizes
    assert all(rules.min_players <= len(table) <= rules.max_players for table in tables)
    assert max(sizes) - min(sizes) <= 1
    assert tables == deal(players, sizes, seed=seed)


def test_one_player_cannot_be_seated():
    with pytest.raises(ValueError):
        draw.table_sizes(1, 2, 5)


def test_the_same_seed_draws_the_same_tables(as_carol, club, crowd):
    first = create(as_carol, club, crowd[:11]).json()["id"]
    second = create(as_carol, club, crowd[:11]).json()["id"]
    a = draw_round(as_carol, first, seed=424242).json()
    b = draw_round(as_carol, second, seed=424242).json()
    seats = lambda body: [[s["player"] for s in t["seats"]] for t in body["tables"]]  # noqa: E731
    assert seats(a) == seats(b)
    assert a["seed"] == b["seed"] == 424242


def test_seating_by_rating_spreads_the_best_players(as_carol, club, crowd):
    best, second, *rest = crowd[:6]
    outright(as_carol, club, best, rest[0])
    outright(as_carol, club, second, rest[1])
    tournament = create(as_carol, club, crowd[:6]).json()["id"]
    body = draw_round(as_carol, tournament, seating="rating").json()
    assert body["seating"] == "rating"
    tables = [{s["player"] for s in t["seats"]} for t in body["tables"]]
    assert [len(t) for t in tables] == [3, 3]
    assert not any({best.pk, second.pk} <= table for table in tables)


def test_a_director_sets_the_tables(as_carol, club, crowd):
    players = crowd[:5]
    tournament = create(as_carol, club, players).json()["id"]
    tables = [[players[0].pk, players[1].pk], [players[2].pk, players[3].pk, players[4].pk]]
    response = draw_round(as_carol, tournament, tables=tables, names=["Window", "Bar"])
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["seating"] == "director" and body["seed"] is None
    assert [[s["player"] for s in t["seats"]] for t in body["tables"]] == tables
    assert [t["name"] for t in body["tables"]] == ["Window", "Bar"]


def test_a_night_is_read_once_for_its_answer(as_carol, club, crowd):
    """The night's page read the night twice, to check who may see it and for its answer:
    with replicas the two could come from two replicas, and a night not yet on the second one
    answered 500. One read now does both."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    draw_round(as_carol, tournament)
    with CaptureQueriesContext(connection) as queries:
        response = as_carol.get(f"/api/v1/tournaments/{tournament}/")
    assert response.status_code == 200
    assert len(response.json()["rounds"]) == 1 and len(response.json()["entrants"]) == 4
    reads = [q["sql"] for q in queries if 'FROM "clubnight_tournament"' in q["sql"]]
    assert len(reads) == 1, reads


def test_the_night_of_a_match_is_found_by_the_match(as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:9]).json()["id"]
    drawn = draw_round(as_carol, tournament).json()
    table = drawn["tables"][1]["match"]
    found = as_carol.get(f"/api/v1/tournaments/?match={table}").json()
    assert [night["id"] for night in found["results"]] == [tournament]
    alone = start_match(as_carol, club, crowd[9:11])["id"]  # a match of no night
    assert as_carol.get(f"/api/v1/tournaments/?match={alone}").json()["results"] == []
    refused = as_carol.get("/api/v1/tournaments/?match=0")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["attr"] == "match"


def test_players_tied_on_the_leaderboard_are_listed_as_names_are_read(as_carol, club):
    """Nobody has played yet, so all are tied: "adam" is not after "Zoé", nor "Éloïse" after
    every other name, as a sort by character codes would put them."""
    from matches.models import Player

    names = ["Zoé", "adam", "Éloïse", "Bruno"]
    players = [Player.objects.create(club=club, name=name) for name in names]
    tournament = create(as_carol, club, players).json()["id"]
    board = as_carol.get(f"/api/v1/tournaments/{tournament}/leaderboard/").json()
    assert [row["name"] for row in board] == ["adam", "Bruno", "Éloïse", "Zoé"]


@pytest.mark.parametrize(("language", "first"), [("en", "Table 1"), ("pt", "Mesa 1")])
def test_tables_left_unnamed_are_named_in_the_directors_language(
    as_carol, club, crowd, language, first
):
    tournament = create(as_carol, club, crowd[:9]).json()["id"]
    response = as_carol.post(
        f"/api/v1/tournaments/{tournament}/rounds/",
        {"names": ["Window"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 201, response.json()
    assert [t["name"] for t in response.json()["tables"]] == ["Window", first.replace("1", "2")]


@pytest.mark.parametrize(
    ("tables", "code"),
    [
        (lambda p: [[p[0], p[1]], [p[2], p[3]]], "entrant_not_seated"),
        (lambda p: [[p[0], p[1], p[2]], [p[2], p[3], p[4]]], "entrant_seated_twice"),
        (lambda p: [[p[0]], [p[1], p[2], p[3], p[4]]], "table_size"),
        (lambda p: [[p[0], p[1], p[2]], [p[3], p[4], 999999]], "player_not_entered"),
    ],
)
def test_a_directors_tables_must_seat_every_entrant_once_at_legal_tables(
    as_carol, club, crowd, tables, code
):
    players = crowd[:5]
    tournament = create(as_carol, club, players).json()["id"]
    response = draw_round(as_carol, tournament, tables=tables([p.pk for p in players]))
    assert response.status_code == 400, response.json()
    assert [e["code"] for e in response.json()["errors"]] == [code]
    assert Match.objects.count() == 0


def test_one_table_of_every_entrant_is_too_large_a_table_not_too_long_a_list(as_carol, club, crowd):
    """Thirteen at one table: the draw's own check answers it, whose sentence says how many a
    table of the game seats."""
    tournament = create(as_carol, club, crowd).json()["id"]
    response = draw_round(as_carol, tournament, tables=[[p.pk for p in crowd]])
    assert response.status_code == 400, response.json()
    (error,) = response.json()["errors"]
    assert (error["code"], error["attr"]) == ("table_size", "tables.0")
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    ("names", "error"),
    [
        (["Window", "Door", "Hall"], ("too_many_table_names", "names")),
        (["Window", "window "], ("table_named_twice", "names.1")),
        (["Table 2"], ("table_named_twice", "names")),  # as the second table would be named
        # the same name typed on two phones: the accent composed on one, apart on the other
        (["Z\u00e9", "Ze\u0301"], ("table_named_twice", "names.1")),
        (["By the  window", "by the window\u200b"], ("table_named_twice", "names.1")),
        (["Window", "\u200b"], ("blank", "names.1")),
    ],
)
def test_a_draws_table_names_are_one_a_table_and_never_alike(as_carol, club, crowd, names, error):
    tournament = create(as_carol, club, crowd[:9]).json()["id"]  # two tables
    response = draw_round(as_carol, tournament, names=names)
    assert response.status_code == 400, response.json()
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [error]
    assert Match.objects.count() == 0


def test_table_and_tournament_names_are_kept_as_written(as_carol, club, crowd):
    """Composed, without invisible characters, one space where several were typed."""
    created = create(as_carol, club, crowd[:9], name="  Ze\u0301 \u200bnight  ")
    assert created.status_code == 201, created.json()
    assert created.json()["name"] == "Z\u00e9 night"
    names = ["Ze\u0301\u2060  Bar", "Window"]
    drawn = draw_round(as_carol, created.json()["id"], names=names)
    assert drawn.status_code == 201, drawn.json()
    assert [t["name"] for t in drawn.json()["tables"]] == ["Z\u00e9 Bar", "Window"]
    assert sorted(Match.objects.values_list("table", flat=True)) == ["Window", "Z\u00e9 Bar"]
    blank = create(as_carol, club, crowd[:9], name="\u200b\u200b")
    assert blank.status_code == 400
    assert [(e["code"], e["attr"]) for e in blank.json()["errors"]] == [("blank", "name")]
    assert "visible letter" in blank.json()["errors"][0]["detail"]


def test_a_matchs_table_is_kept_as_written(as_carol, club, crowd):
    body = {"club": club.pk, "players": [p.pk for p in crowd[:2]], "table": "Ze\u0301  1\u200b"}
    started = as_carol.post("/api/v1/matches/", body, format="json")
    assert started.status_code == 201, started.json()
    assert started.json()["table"] == "Z\u00e9 1"


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        ({"players": []}, "A tournament of Arlington needs at least 2 players; 0 given."),
        ({"tables": [[]]}, "A table of Arlington seats 2 to 5 players; table 1 has 0."),
        ({"tables": []}, "is entered but seated at no table."),
    ],
)
def test_an_empty_list_is_refused_in_the_nights_own_words(as_carol, club, crowd, body, sentence):
    """No "Ensure this field has at least 1 elements.", and the game by its name, not its code."""
    if "players" in body:
        response = as_carol.post(
            "/api/v1/tournaments/", {"club": club.pk, "name": "Tuesday", **body}, format="json"
        )
    else:
        tournament = create(as_carol, club, crowd[:5]).json()["id"]
        response = draw_round(as_carol, tournament, **body)
    assert response.status_code == 400, response.json()
    (error,) = response.json()["errors"]
    assert sentence in error["detail"]


def test_a_roster_player_at_a_directors_table_who_is_not_entered_is_named(as_carol, club, crowd):
    players = crowd[:4]
    tournament = create(as_carol, club, players[:3]).json()["id"]
    tables = [[players[0].pk, players[1].pk], [players[2].pk, players[3].pk]]
    response = draw_round(as_carol, tournament, tables=tables)
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "code": "player_not_entered",
            "detail": f"{players[3].name} is not entered in this tournament.",
            "attr": "tables.1.1",
        }
    ]


def test_the_next_round_waits_for_the_last_to_finish(as_carol, club, crowd):
    players = crowd[:2]
    tournament = create(as_carol, club, players).json()["id"]
    first = draw_round(as_carol, tournament).json()
    response = draw_round(as_carol, tournament)
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "round_in_progress"
    match = first["matches"][0]
    ids = [s["player"] for s in first["tables"][0]["seats"]]
    for _ in range(3):
        assert record(as_carol, match, went_out(ids[0], ids)).status_code == 201
    second = draw_round(as_carol, tournament)
    assert second.status_code == 201
    assert second.json()["number"] == 2


def test_the_leaderboard_sums_victory_points_then_points(as_carol, as_victor, club, crowd):
    players = crowd[:4]
    tournament = create(as_carol, club, players).json()["id"]
    tables = [[players[0].pk, players[1].pk], [players[2].pk, players[3].pk]]
    body = draw_round(as_carol, tournament, tables=tables).json()
    first, second = body["matches"]
    for _ in range(3):  # players[0] wins table 1 outright: 1,020 to -195
        record(as_carol, first, went_out(players[0].pk, tables[0]))
    record(as_carol, second, went_out(players[3].pk, tables[1]))  # 340 to -65, in progress
    board = as_victor.get(f"/api/v1/tournaments/{tournament}/leaderboard/").json()
    assert [(r["rank"], r["name"], r["victory_points"], r["points"]) for r in board] == [
        (1, players[0].name, 1.0, 1020),
        (2, players[3].name, 0.0, 340),
        (3, players[2].name, 0.0, -65),
        (4, players[1].name, 0.0, -195),
    ]
    live = as_victor.get(f"/api/v1/tournaments/{tournament}/board/").json()
    assert live["round"]["number"] == 1
    by_match = {t["match"]: t for t in live["round"]["tables"]}
    assert by_match[second]["hands_played"] == 1
    assert by_match[second]["went_out_last"] == players[3].pk
    assert by_match[first]["status"] == "finished"
    assert live["leaderboard"] == board


def test_entrants_come_from_the_clubs_roster(as_carol, club, crowd, bobs_club):
    stranger = Player.objects.create(club=bobs_club, name="Stranger")
    response = create(as_carol, club, [crowd[0], stranger])
    assert response.status_code == 400
    assert response.json()["errors"][0] == {
        "code": "player_not_in_club",
        "detail": response.json()["errors"][0]["detail"],
        "attr": "players.1",
    }
    twice = create(as_carol, club, [crowd[0], crowd[0]])
    assert twice.json()["errors"][0]["code"] == "duplicate_player"
    alone = create(as_carol, club, [crowd[0]])
    assert alone.json()["errors"][0]["code"] == "too_few_entrants"


def test_only_owners_and_scorekeepers_direct(as_alice, as_victor, club, crowd):
    assert create(as_victor, club, crowd[:3]).status_code == 403
    created = create(as_alice, club, crowd[:3])
    assert created.status_code == 201
    assert draw_round(as_victor, created.json()["id"]).status_code == 403
    assert as_victor.get(f"/api/v1/tournaments/{created.json()['id']}/").status_code == 200


def test_outsiders_see_no_tournament(as_bob, as_carol, club, crowd, client):
    tournament = create(as_carol, club, crowd[:3]).json()["id"]
    for url in (
        f"/api/v1/tournaments/{tournament}/",
        f"/api/v1/tournaments/{tournament}/rounds/",
        f"/api/v1/tournaments/{tournament}/leaderboard/",
        f"/api/v1/tournaments/{tournament}/board/",
    ):
        assert as_bob.get(url).status_code == 404, url
        assert client.get(url).status_code in (401, 403), url
    assert draw_round(as_bob, tournament).status_code == 404
    assert as_bob.get("/api/v1/tournaments/").json()["count"] == 0
    response = create(as_bob, club, crowd[:3])
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unknown_club"


def finish_round(client, body):
    """Every table of a drawn round won outright by its first seat, three hands each."""
    for table in body["tables"]:
        ids = [s["player"] for s in table["seats"]]
        for _ in range(3):
            assert record(client, table["match"], went_out(ids[0], ids)).status_code == 201


def test_the_second_round_seats_nobody_with_a_first_round_table_mate(as_carol, club, crowd):
    players = crowd + [Player.objects.create(club=club, name=f"Extra {i}") for i in range(3)]
    tournament = create(as_carol, club, players).json()["id"]  # 16 players: four tables of 4
    first = draw_round(as_carol, tournament, seed=1).json()
    finish_round(as_carol, first)
    second = draw_round(as_carol, tournament, seed=1).json()
    met = {
        frozenset((a["player"], b["player"]))
        for table in first["tables"]
        for a in table["seats"]
        for b in table["seats"]
        if a["player"] != b["player"]
    }
    again = [
        (a["player"], b["player"])
        for table in second["tables"]
        for a in table["seats"]
        for b in table["seats"]
        if a["player"] < b["player"] and frozenset((a["player"], b["player"])) in met
    ]
    assert again == []
    assert draw_round(as_carol, tournament, seed=1).status_code == 409  # round 2 in progress


def test_a_table_reopened_by_a_correction_holds_back_the_next_draw(as_carol, club, crowd):
    """Round 1's table finished and round 2 was drawn; then a correction of round 1's last hand
    takes its winner below 1,000 points and the match is played on. Its players are still at
    that table, so the night neither draws them at another nor changes its entrants."""
    tournament = create(as_carol, club, crowd[:2]).json()["id"]
    first = draw_round(as_carol, tournament).json()
    finish_round(as_carol, first)
    second = draw_round(as_carol, tournament).json()
    ids = [s["player"] for s in first["tables"][0]["seats"]]
    reopened = correct(as_carol, first["matches"][0], 3, went_out(ids[1], ids))
    assert reopened.status_code == 200
    assert Match.objects.get(pk=first["matches"][0]).status == "in_progress"
    finish_round(as_carol, second)

    third = draw_round(as_carol, tournament)
    assert third.status_code == 409
    assert third.json()["errors"][0]["code"] == "round_in_progress"
    assert third.json()["errors"][0]["detail"].startswith("Round 1 still has a match in progress")
    table_name = Match.objects.get(pk=first["matches"][0]).table
    assert f"in progress, at {table_name};" in third.json()["errors"][0]["detail"]
    # the board shows the table played again, beside the last round
    board = as_carol.get(f"/api/v1/tournaments/{tournament}/board/").json()
    assert board["round"]["number"] == 2
    assert [(t["round"], t["match"], t["status"]) for t in board["reopened"]] == [
        (1, first["matches"][0], "in_progress")
    ]
    late = as_carol.post(
        f"/api/v1/tournaments/{tournament}/entrants/", {"player": crowd[2].pk}, format="json"
    )
    assert late.status_code == 409
    assert Match.objects.filter(round_table__round__tournament=tournament).count() == 2
