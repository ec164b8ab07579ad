"""League tables: GET clubs/{id}/standings/ and seasons/{id}/standings/, in JSON and CSV.

Every expectation is worked out by hand from the builders: a went_out hand is +340 for the
player who goes out and -65 for the others, so three of them finish a match at 1,020 to -195;
two full_packs hands finish a two-player match in a 1,060-all tie.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from matches import standings
from matches.models import Club, Match, Player, Season, Seat
from matches.services import matches as match_services
from tests.factories import correct, empty_caches, full_packs, record, start_match, went_out


def play(client, club, players, hands, **extra) -> int:
    """Start a match of ``players`` and record ``hands`` (built from the players' ids)."""
    match = start_match(client, club, players, **extra)
    for body in hands:
        response = record(client, match["id"], body)
        assert response.status_code == 201, response.json()
    return match["id"]


def outright(client, club, winner, loser, **extra) -> int:
    """``winner`` goes out three times: 1,020 to -195, an outright victory."""
    ids = [winner.pk, loser.pk]
    return play(client, club, [winner, loser], [went_out(winner.pk, ids)] * 3, **extra)


def tied(client, club, a, b, **extra) -> int:
    """Two whole packs each way: 1,060 all, a shared victory."""
    return play(client, club, [a, b], [full_packs(a.pk, b.pk), full_packs(b.pk, a.pk)], **extra)


def table(client, url: str, **params):
    response = client.get(url, params)
    assert response.status_code == 200, response.json()
    return response.json()


def by_name(rows) -> dict[str, dict]:
    return {row["name"]: row for row in rows}


@pytest.fixture
def league(as_carol, club, roster):
    """Ann beats Ben, then ties with him; Cleo beats Dev; Dev and Eve's match is unfinished."""
    ann, ben, cleo, dev, eve = roster
    outright(as_carol, club, ann, ben)
    tied(as_carol, club, ann, ben)
    outright(as_carol, club, cleo, dev)
    play(as_carol, club, [dev, eve], [went_out(eve.pk, [dev.pk, eve.pk])])
    return club


def test_the_club_table_counts_outright_and_shared_wins(as_victor, league, roster):
    ann, ben, cleo, dev, _ = roster
    rows = table(as_victor, f"/api/v1/clubs/{league.pk}/standings/")
    assert all(isinstance(row.pop("rating"), int) for row in rows)  # docs/standings.md, Ratings
    assert rows == [
        {
            "rank": 1,
            "player": ann.pk,
            "name": "Ann",
            "matches_played": 2,
            "wins": 1,
            "shared_wins": 1,
            "victory_points": 1.5,
            "hands_played": 5,
            "went_out": 3,
            "points": 1020 + 1060,
            "average_net": 416.0,
            "unconfirmed_matches": None,
        },
        {
            "rank": 2,
            "player": cleo.pk,
            "name": "Cleo",
            "matches_played": 1,
            "wins": 1,
            "shared_wins": 0,
            "victory_points": 1.0,
            "hands_played": 3,
            "went_out": 3,
            "points": 1020,
            "average_net": 340.0,
            "unconfirmed_matches": None,
        },
        {
            "rank": 3,
            "player": ben.pk,
            "name": "Ben",
            "matches_played": 2,
            "wins": 0,
            "shared_wins": 1,
            "victory_points": 0.5,
            "hands_played": 5,
            "went_out": 0,
            "points": -195 + 1060,
            "average_net": 173.0,
            "unconfirmed_matches": None,
        },
        {
            "rank": 4,
            "player": dev.pk,
            "name": "Dev",
            "matches_played": 1,
            "wins": 0,
            "shared_wins": 0,
            "victory_points": 0.0,
            "hands_played": 3,
            "went_out": 0,
            "points": -195,
            "average_net": -65.0,
            "unconfirmed_matches": None,
        },
    ]


def test_an_unfinished_match_does_not_count(as_victor, league, roster):
    rows = by_name(table(as_victor, f"/api/v1/clubs/{league.pk}/standings/"))
    assert "Eve" not in rows
    assert rows["Dev"]["matches_played"] == 1
    assert rows["Dev"]["hands_played"] == 3


def test_a_three_way_tie_gives_a_third_of_a_victory_point(as_carol, as_victor, club, roster):
    # The builders cannot end a match in a three-way tie, so the finished rows are written
    # directly, as the services would: three seats at 1,050, all winners, a third each.
    match = start_match(as_carol, club, roster[:3])
    Match.objects.filter(pk=match["id"]).update(status="finished", finished_at=timezone.now())
    Seat.objects.filter(match_id=match["id"]).update(
        total=1050, winner=True, victory_points=Decimal("0.3333")
    )
    Club.standings_changed(club.pk)  # as the services do with every change to a finished match
    rows = table(as_victor, f"/api/v1/clubs/{club.pk}/standings/")
    assert [(r["rank"], r["name"], r["victory_points"], r["shared_wins"]) for r in rows] == [
        (1, "Ann", 0.3333, 1),
        (1, "Ben", 0.3333, 1),
        (1, "Cleo", 0.3333, 1),
    ]


def test_players_equal_on_every_key_share_a_rank(as_carol, as_victor, club, roster):
    ann, ben, cleo, dev, eve = roster
    outright(as_carol, club, ann, ben)
    outright(as_carol, club, ann, ben)
    outright(as_carol, club, cleo, eve)
    outright(as_carol, club, dev, eve)
    rows = table(as_victor, f"/api/v1/clubs/{club.pk}/standings/")
    assert [(r["rank"], r["name"]) for r in rows] == [
        (1, "Ann"),
        (2, "Cleo"),
        (2, "Dev"),
        (4, "Ben"),
        (4, "Eve"),
    ]


def test_ordering_chooses_the_keys_and_the_ranks_follow(as_victor, league):
    url = f"/api/v1/clubs/{league.pk}/standings/"
    rows = table(as_victor, url, ordering="-average_net")
    assert [(r["rank"], r["name"], r["average_net"]) for r in rows] == [
        (1, "Ann", 416.0),
        (2, "Cleo", 340.0),
        (3, "Ben", 173.0),
        (4, "Dev", -65.0),
    ]
    rows = table(as_victor, url, ordering="matches_played")
    assert [(r["rank"], r["name"]) for r in rows] == [
        (1, "Cleo"),
        (1, "Dev"),
        (3, "Ann"),
        (3, "Ben"),
    ]
    rows = table(as_victor, url, ordering="-hands_played,name")
    assert [(r["rank"], r["name"]) for r in rows] == [
        (1, "Ann"),
        (2, "Ben"),
        (3, "Cleo"),
        (4, "Dev"),
    ]


def test_an_unknown_ordering_key_is_refused(as_victor, league):
    response = as_victor.get(f"/api/v1/clubs/{league.pk}/standings/", {"ordering": "-secret"})
    assert response.status_code == 400
    assert [(e["code"], e["attr"]) for e in response.json()["errors"]] == [
        ("invalid_ordering", "ordering")
    ]


def test_a_correction_changes_who_leads_at_once(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    hands = [full_packs(ann.pk, ben.pk, second_holds="KC")] * 2
    match_id = play(as_carol, club, [ann, ben], hands)
    url = f"/api/v1/clubs/{club.pk}/standings/"
    before = table(as_victor, url)
    assert [(r["name"], r["wins"], r["points"]) for r in before] == [
        ("Ann", 1, 1060),
        ("Ben", 0, 1040),
    ]
    # In hand 2 Ann was caught holding Q♠ (440) and Ben nothing but a 3 (530): 970 to 1,050.
    response = correct(as_carol, match_id, 2, full_packs(ann.pk, ben.pk, first_holds="QS"))
    assert response.status_code == 200, response.json()
    after = table(as_victor, url)
    assert [(r["rank"], r["name"], r["wins"], r["points"]) for r in after] == [
        (1, "Ben", 1, 1050),
        (2, "Ann", 0, 970),
    ]


@pytest.fixture
def seasons(as_carol, club, roster):
    """Spring: Ann beats Ben. Summer: Ben beats Ann twice. One friendly, in no season."""
    ann, ben, cleo = roster[:3]
    spring = Season.objects.create(club=club, name="Spring")
    summer = Season.objects.create(club=club, name="Summer")
    outright(as_carol, club, ann, ben, season=spring.pk)
    outright(as_carol, club, ben, ann, season=summer.pk)
    outright(as_carol, club, ben, ann, season=summer.pk)
    outright(as_carol, club, cleo, ann)
    return spring, summer


def test_a_season_table_counts_only_its_matches(as_victor, club, seasons):
    spring, summer = seasons
    rows = table(as_victor, f"/api/v1/seasons/{summer.pk}/standings/")
    assert [(r["rank"], r["name"], r["wins"], r["points"]) for r in rows] == [
        (1, "Ben", 2, 2040),
        (2, "Ann", 0, -390),
    ]
    same = table(as_victor, f"/api/v1/clubs/{club.pk}/standings/", season=summer.pk)
    assert same == rows
    spring_rows = table(as_victor, f"/api/v1/seasons/{spring.pk}/standings/")
    assert [(r["name"], r["wins"]) for r in spring_rows] == [("Ann", 1), ("Ben", 0)]
    all_time = by_name(table(as_victor, f"/api/v1/clubs/{club.pk}/standings/"))
    assert all_time["Ann"]["matches_played"] == 4
    assert all_time["Cleo"]["wins"] == 1


def test_a_season_of_another_club_is_refused(as_bob, as_victor, club, bobs_club):
    theirs = Season.objects.create(club=bobs_club, name="Theirs")
    response = as_victor.get(f"/api/v1/clubs/{club.pk}/standings/", {"season": theirs.pk})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "season_not_in_club"


def test_from_and_to_filter_on_the_day_a_match_finished(as_victor, club, seasons):
    ids = list(Match.objects.filter(club=club).order_by("id").values_list("id", flat=True))
    days = [dt.datetime(2026, 3, d, 21, 30, tzinfo=dt.UTC) for d in (1, 10, 20, 30)]
    for match_id, day in zip(ids, days, strict=True):
        Match.objects.filter(pk=match_id).update(finished_at=day)
    url = f"/api/v1/clubs/{club.pk}/standings/"
    rows = by_name(table(as_victor, url, **{"from": "2026-03-10", "to": "2026-03-20"}))
    assert rows["Ben"]["wins"] == 2
    assert rows["Ann"]["matches_played"] == 2
    assert "Cleo" not in rows
    rows = by_name(table(as_victor, url, **{"from": "2026-03-20"}))
    assert (rows["Ben"]["wins"], rows["Cleo"]["wins"], rows["Ann"]["matches_played"]) == (1, 1, 2)
    rows = by_name(table(as_victor, url, to="2026-03-01"))
    assert (rows["Ann"]["wins"], rows["Ann"]["matches_played"]) == (1, 1)
    bad = as_victor.get(url, {"from": "2026-03-20", "to": "2026-03-10"})
    assert bad.status_code == 400
    assert as_victor.get(url, {"from": "March"}).status_code == 400


def test_the_json_table_is_what_drf_renders_from_the_rows(as_victor, league):
    """The view writes JSON itself (and keeps it); the bytes are DRF's, decimals included."""
    url = f"/api/v1/clubs/{league.pk}/standings/"
    answers = [as_victor.get(url), as_victor.get(url, {"ordering": "name"})]
    rows = standings.standings_for_club(club=league).rows()
    by_name_rows = standings.standings_for_club(club=league, ordering=["name"]).rows()
    assert any(isinstance(row["victory_points"], Decimal) for row in rows)
    assert [a.content for a in answers] == [
        JSONRenderer().render(rows),
        JSONRenderer().render(by_name_rows),
    ]
    assert {a["Content-Type"] for a in answers} == {"application/json"}
    assert answers[0]["Vary"] == "Accept, Accept-Language"


def test_json_with_media_type_parameters_is_written_as_asked(as_victor, league):
    """Only the plain JSON answer is kept whole; ``indent`` is honoured, as DRF does."""
    url = f"/api/v1/clubs/{league.pk}/standings/"
    plain = as_victor.get(url)
    indented = as_victor.get(url, HTTP_ACCEPT="application/json; indent=2")
    assert indented.status_code == 200
    assert indented.content.startswith(b'[\n  {\n    "rank": 1,')
    assert json.loads(indented.content) == json.loads(plain.content)
    assert as_victor.get(url).content == plain.content


def test_the_table_as_csv_opens_as_a_spreadsheet(as_victor, league):
    Player.objects.filter(name="Cleo").update(name="Cléo")
    response = as_victor.get(f"/api/v1/clubs/{league.pk}/standings/", {"format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0] == [
        "rank",
        "player",
        "name",
        "matches_played",
        "wins",
        "shared_wins",
        "victory_points",
        "hands_played",
        "went_out",
        "points",
        "average_net",
        "unconfirmed_matches",
        "rating",
    ]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4"]
    assert rows[1][2:-1] == ["Ann", "2", "1", "1", "1.5000", "5", "3", "2080", "416.00", ""]
    assert rows[2][2] == "Cléo"
    assert rows[4][2:-1] == ["Dev", "1", "0", "0", "0.0000", "3", "0", "-195", "-65.00", ""]
    assert all(row[-1].isdigit() for row in rows[1:])


def test_the_csv_for_a_spreadsheet_set_to_french_has_semicolons_and_decimal_commas(
    as_victor, league
):
    """``?separator=semicolon``: cells apart by ``;`` and decimals with a comma, as a
    spreadsheet set to French or Portuguese reads them; the JSON is the same either way."""
    url = f"/api/v1/clubs/{league.pk}/standings/csv/"
    comma = as_victor.get(url)
    semicolon = as_victor.get(url, {"separator": "semicolon"})
    assert semicolon.status_code == 200
    assert semicolon["Content-Type"] == "text/csv; charset=utf-8"
    text = semicolon.content.decode("utf-8-sig")
    assert text.splitlines()[0].startswith("rank;player;name;matches_played;")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[1][2:-1] == ["Ann", "2", "1", "1", "1,5000", "5", "3", "2080", "416,00", ""]
    by_comma = list(csv.reader(io.StringIO(comma.content.decode("utf-8-sig"))))
    assert [row[:6] for row in rows] == [row[:6] for row in by_comma]
    assert as_victor.get(url, {"separator": "comma"}).content == comma.content
    table = f"/api/v1/clubs/{league.pk}/standings/"
    as_text = as_victor.get(table, {"separator": "semicolon"}, HTTP_ACCEPT="text/csv")
    assert as_text.content == semicolon.content
    assert as_victor.get(table, {"separator": "semicolon"}).json() == as_victor.get(table).json()


def test_an_unknown_separator_is_refused_in_json_naming_it(as_victor, league):
    url = f"/api/v1/clubs/{league.pk}/standings/csv/"
    refused = as_victor.get(url, {"separator": "tab"})
    assert refused.status_code == 400
    assert refused["Content-Type"] == "application/json"
    assert "Content-Disposition" not in refused
    [error] = refused.json()["errors"]
    assert (error["code"], error["attr"]) == ("invalid_choice", "separator")
    assert error["detail"] == 'Cells are separated by "comma" or "semicolon", not "tab".'


def test_csv_is_also_chosen_by_the_accept_header(as_victor, league):
    response = as_victor.get(
        f"/api/v1/seasons/{Season.objects.create(club=league, name='S').pk}/standings/",
        HTTP_ACCEPT="text/csv",
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows == []
    header = response.content.decode("utf-8-sig").splitlines()[0]
    assert header.startswith("rank,player,name,")


def test_a_name_that_looks_like_a_formula_is_quoted_in_csv(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    outright(as_carol, club, ann, ben)
    Player.objects.filter(pk=ben.pk).update(name="=HYPERLINK(1)")
    response = as_victor.get(f"/api/v1/clubs/{club.pk}/standings/", {"format": "csv"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[1]["name"] == "'=HYPERLINK(1)"
    assert rows[1]["points"] == "-195"


def test_outsiders_get_404_in_json_even_when_asking_for_csv(as_bob, league):
    season = Season.objects.create(club=league, name="Autumn")
    for url in (f"/api/v1/clubs/{league.pk}/standings/", f"/api/v1/seasons/{season.pk}/standings/"):
        assert as_bob.get(url).status_code == 404
        response = as_bob.get(url, {"format": "csv"})
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["errors"][0]["code"] == "not_found"


def test_options_asking_for_csv_describes_the_table_in_json(as_victor, league):
    response = as_victor.options(f"/api/v1/clubs/{league.pk}/standings/?format=csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json()["name"]


def test_anonymous_requests_are_refused(client, league):
    assert client.get(f"/api/v1/clubs/{league.pk}/standings/").status_code in (401, 403)


def queries_for(client, url: str) -> int:
    """Queries of a request that computes its table: the cache is emptied first."""
    empty_caches()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_queries_do_not_grow_with_matches(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    url = f"/api/v1/clubs/{club.pk}/standings/"
    for _ in range(2):
        tied(as_carol, club, ann, ben)
    with_two = queries_for(as_victor, url)
    for _ in range(4):
        tied(as_carol, club, ann, ben)
    assert table(as_victor, url)[0]["matches_played"] == 6
    assert queries_for(as_victor, url) == with_two


def test_queries_do_not_grow_with_players(as_carol, as_victor, club, roster):
    url = f"/api/v1/clubs/{club.pk}/standings/"
    tied(as_carol, club, roster[0], roster[1])
    with_two = queries_for(as_victor, url)
    ids = [p.pk for p in roster]
    play(as_carol, club, roster, [went_out(roster[2].pk, ids)] * 3)
    assert len(table(as_victor, url)) == 5
    assert queries_for(as_victor, url) == with_two


def test_moving_a_finished_match_to_another_season_moves_its_figures(
    as_carol, as_victor, club, roster
):
    ann, ben = roster[:2]
    spring = Season.objects.create(club=club, name="Spring")
    autumn = Season.objects.create(club=club, name="Autumn")
    match_id = outright(as_carol, club, ann, ben, season=spring.pk)
    assert [r["name"] for r in table(as_victor, f"/api/v1/seasons/{spring.pk}/standings/")] == [
        "Ann",
        "Ben",
    ]
    match_services.match_update(match=Match.objects.get(pk=match_id), table="", season=autumn)
    assert table(as_victor, f"/api/v1/seasons/{spring.pk}/standings/") == []
    moved = table(as_victor, f"/api/v1/seasons/{autumn.pk}/standings/")
    assert [(r["name"], r["wins"]) for r in moved] == [("Ann", 1), ("Ben", 0)]


def test_the_last_representable_day_is_an_open_end(as_victor, league):
    rows = table(as_victor, f"/api/v1/clubs/{league.pk}/standings/", to="9999-12-31")
    assert [r["name"] for r in rows] == ["Ann", "Cleo", "Ben", "Dev"]
