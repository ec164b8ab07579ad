"""Between rounds: entrants come and go (tournaments/{id}/entrants/), the last round is undone
(DELETE tournaments/{id}/rounds/{n}/), and the night leaves as CSV files."""

from __future__ import annotations

import csv
import io
import re

from clubnight.models import Round
from matches.models import Match, Player
from tests.api import openapi
from tests.clubnight.test_tournaments import create, draw_round, finish_round
from tests.factories import record, went_out


def entrants_url(tournament):
    return f"/api/v1/tournaments/{tournament}/entrants/"


def enter(client, tournament, player):
    return client.post(entrants_url(tournament), {"player": player.pk}, format="json")


def seated(body):
    return sorted(seat["player"] for table in body["tables"] for seat in table["seats"])


def codes(response):
    return [error["code"] for error in response.json()["errors"]]


def test_a_late_arrival_is_seated_in_the_next_round(as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:8]).json()["id"]
    finish_round(as_carol, draw_round(as_carol, tournament).json())
    response = enter(as_carol, tournament, crowd[8])
    assert response.status_code == 201, response.json()
    assert response.json() == {"player": crowd[8].pk, "name": crowd[8].name, "withdrawn": False}
    assert response["Location"].endswith(f"{entrants_url(tournament)}{crowd[8].pk}/")
    read = as_carol.get(response["Location"])  # where it points can be read
    assert (read.status_code, read.json()) == (200, response.json())
    second = draw_round(as_carol, tournament).json()
    assert seated(second) == sorted(p.pk for p in crowd[:9])


def test_a_withdrawn_player_is_not_seated_and_keeps_their_results(as_carol, club, crowd):
    players = crowd[:6]
    tournament = create(as_carol, club, players).json()["id"]
    first = draw_round(as_carol, tournament).json()
    finish_round(as_carol, first)
    leaving = players[0]
    response = as_carol.delete(f"{entrants_url(tournament)}{leaving.pk}/")
    assert response.status_code == 204
    second = draw_round(as_carol, tournament).json()
    assert leaving.pk not in seated(second)
    assert seated(second) == sorted(p.pk for p in players[1:])
    board = as_carol.get(f"/api/v1/tournaments/{tournament}/leaderboard/").json()
    row = next(r for r in board if r["player"] == leaving.pk)
    assert row["withdrawn"] is True and row["matches"] == 1 and row["rounds"][1] is None
    listed = as_carol.get(entrants_url(tournament)).json()
    assert [e["withdrawn"] for e in listed if e["player"] == leaving.pk] == [True]
    detail = as_carol.get(f"/api/v1/tournaments/{tournament}/").json()
    assert leaving.pk not in [e["player"] for e in detail["entrants"]]


def test_a_withdrawn_player_can_come_back(as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    finish_round(as_carol, draw_round(as_carol, tournament).json())
    assert as_carol.delete(f"{entrants_url(tournament)}{crowd[0].pk}/").status_code == 204
    assert enter(as_carol, tournament, crowd[0]).status_code == 201
    assert crowd[0].pk in seated(draw_round(as_carol, tournament).json())


def test_withdrawing_twice_names_the_player_and_why(as_carol, bobs_club, club, crowd):
    """A second phone's tap after the first: a 404 that says what happened, not "Not found."."""
    tournament = create(as_carol, club, crowd[:6]).json()["id"]
    finish_round(as_carol, draw_round(as_carol, tournament).json())
    url = f"{entrants_url(tournament)}{crowd[0].pk}/"
    assert as_carol.delete(url).status_code == 204
    again = as_carol.delete(url)
    assert again.status_code == 404
    assert [(e["code"], e["attr"]) for e in again.json()["errors"]] == [
        ("already_withdrawn", "player")
    ]
    assert again.json()["errors"][0]["detail"] == (
        f"{crowd[0].name} was already withdrawn from this tournament."
    )
    outside = as_carol.delete(f"{entrants_url(tournament)}{crowd[7].pk}/")  # never entered
    assert (outside.status_code, codes(outside)) == (404, ["player_not_entered"])
    assert crowd[7].name in outside.json()["errors"][0]["detail"]
    stranger = Player.objects.create(club=bobs_club, name="Quentin Stranger")
    elsewhere = as_carol.delete(f"{entrants_url(tournament)}{stranger.pk}/")
    assert (elsewhere.status_code, codes(elsewhere)) == (404, ["not_found"])
    assert "Quentin" not in elsewhere.content.decode()  # another club's player is not named


def test_a_player_withdrawn_before_playing_leaves_no_row(as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    assert as_carol.delete(f"{entrants_url(tournament)}{crowd[3].pk}/").status_code == 204
    board = as_carol.get(f"/api/v1/tournaments/{tournament}/leaderboard/").json()
    assert crowd[3].pk not in [row["player"] for row in board]
    assert as_carol.delete(f"{entrants_url(tournament)}{crowd[3].pk}/").status_code == 404
    for beyond in (2**63, 10**30):  # no row has such an id: 404, never sent to the database
        assert as_carol.delete(f"{entrants_url(tournament)}{beyond}/").status_code == 404


def test_entrants_do_not_change_while_a_round_is_played(as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    draw_round(as_carol, tournament)
    late = enter(as_carol, tournament, crowd[5])
    assert late.status_code == 409 and codes(late) == ["round_in_progress"]
    leaving = as_carol.delete(f"{entrants_url(tournament)}{crowd[0].pk}/")
    assert leaving.status_code == 409 and codes(leaving) == ["round_in_progress"]
    assert len(as_carol.get(entrants_url(tournament)).json()) == 4
    sentence = late.json()["errors"][0]["detail"]
    assert sentence.startswith("Round 1 still has a match in progress") and "join" in sentence


def test_an_entrant_must_be_of_the_club_and_not_entered_yet(as_carol, club, crowd, bobs_club):
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    stranger = Player.objects.create(club=bobs_club, name="Stranger")
    response = enter(as_carol, tournament, stranger)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "player_not_in_club"
    assert response.json()["errors"][0]["attr"] == "player"
    again = enter(as_carol, tournament, crowd[0])
    assert again.status_code == 409 and codes(again) == ["already_entered"]
    unreadable = as_carol.post(entrants_url(tournament), {"player": "Ann"}, format="json")
    assert unreadable.status_code == 400 and unreadable.json()["errors"][0]["attr"] == "player"


def test_only_directors_change_entrants_and_outsiders_see_nothing(
    as_victor, as_bob, as_carol, club, crowd
):
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    assert as_victor.get(entrants_url(tournament)).status_code == 200
    refused = enter(as_victor, tournament, crowd[5])
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["detail"] == (
        "Only the club's scorekeepers and owners may do this, and you are a viewer in it."
    )
    assert as_victor.delete(f"{entrants_url(tournament)}{crowd[0].pk}/").status_code == 403
    assert as_bob.get(entrants_url(tournament)).status_code == 404
    assert enter(as_bob, tournament, crowd[5]).status_code == 404
    assert as_bob.delete(f"/api/v1/tournaments/{tournament}/rounds/1/").status_code == 404


def test_the_last_round_is_undone_while_no_hand_is_recorded(as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:9]).json()["id"]
    drawn = draw_round(as_carol, tournament, seed=5).json()
    response = as_carol.delete(f"/api/v1/tournaments/{tournament}/rounds/1/")
    assert response.status_code == 204
    assert not Match.objects.filter(pk__in=drawn["matches"]).exists()
    assert not Round.objects.filter(tournament_id=tournament).exists()
    again = draw_round(as_carol, tournament, seed=5).json()
    assert again["number"] == 1 and seated(again) == seated(drawn)
    assert as_carol.get(f"/api/v1/tournaments/{tournament}/rounds/1/").json()["number"] == 1


def test_the_matches_of_a_round_undone_are_announced_as_deleted(as_carol, club, crowd):
    """The feed announced each table's match as started: it announces each as deleted when the
    round is undone, so that an app following the feed keeps no table that is gone."""
    tournament = create(as_carol, club, crowd[:9]).json()["id"]
    drawn = draw_round(as_carol, tournament, seed=5).json()
    feed = f"/api/v1/clubs/{club.pk}/events/"
    seen = as_carol.get(feed).json()["results"]
    started = sorted(e["data"]["match"] for e in seen if e["type"] == "match.started")
    assert started == sorted(drawn["matches"])
    after = max(e["position"] for e in seen)
    assert as_carol.delete(f"/api/v1/tournaments/{tournament}/rounds/1/").status_code == 204
    news = as_carol.get(feed, {"after": after}).json()["results"]
    assert [e["type"] for e in news] == ["match.deleted"] * len(drawn["matches"])
    assert sorted(e["data"]["match"] for e in news) == started
    assert {(e["data"]["tournament"], e["data"]["round"]) for e in news} == {(tournament, 1)}


def test_a_round_with_a_hand_or_before_the_last_cannot_be_undone(as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    first = draw_round(as_carol, tournament).json()
    table = first["tables"][0]
    ids = [s["player"] for s in table["seats"]]
    assert record(as_carol, table["match"], went_out(ids[0], ids)).status_code == 201
    refused = as_carol.delete(f"/api/v1/tournaments/{tournament}/rounds/1/")
    assert refused.status_code == 409 and codes(refused) == ["round_has_hands"]
    assert Match.objects.filter(pk__in=first["matches"]).count() == 1
    for _ in range(2):
        record(as_carol, table["match"], went_out(ids[0], ids))
    draw_round(as_carol, tournament)
    earlier = as_carol.delete(f"/api/v1/tournaments/{tournament}/rounds/1/")
    assert earlier.status_code == 409 and codes(earlier) == ["not_last_round"]
    assert as_carol.delete(f"/api/v1/tournaments/{tournament}/rounds/3/").status_code == 404
    assert as_carol.delete(f"/api/v1/tournaments/{tournament}/rounds/2/").status_code == 204


def test_a_drawn_round_answers_its_own_url_and_its_tag(as_carol, club, crowd):
    """The director's phone that drew the round can undo it with If-Match at once, without
    reading it again, and knows where to read it."""
    tournament = create(as_carol, club, crowd[:9]).json()["id"]
    drawn = draw_round(as_carol, tournament, seed=5)
    assert drawn.status_code == 201
    assert drawn["ETag"] == drawn.json()["etag"]
    assert drawn["Location"].endswith(f"/api/v1/tournaments/{tournament}/rounds/1/")
    assert as_carol.get(drawn["Location"])["ETag"] == drawn["ETag"]
    assert as_carol.delete(drawn["Location"], HTTP_IF_MATCH=drawn["ETag"]).status_code == 204


def test_an_undo_names_the_drawing_it_saw_and_spares_a_round_drawn_again(as_carol, club, crowd):
    """Two directors' phones show round 1; one undoes it and draws it again. The other's undo,
    naming the round it saw (If-Match: its etag), must not delete tables it never saw."""
    tournament = create(as_carol, club, crowd[:9]).json()["id"]
    seen = draw_round(as_carol, tournament, seed=5).json()
    url = f"/api/v1/tournaments/{tournament}/rounds/1/"
    read = as_carol.get(url)
    assert read.headers["ETag"] == seen["etag"]
    assert as_carol.delete(url, HTTP_IF_MATCH=seen["etag"]).status_code == 204
    again = draw_round(as_carol, tournament, seed=6).json()
    assert again["etag"] != seen["etag"]

    stale = as_carol.delete(url, HTTP_IF_MATCH=seen["etag"])
    assert stale.status_code == 412 and codes(stale) == ["precondition_failed"]
    assert "Round 1 was drawn again since you read it" in stale.json()["errors"][0]["detail"]
    # a tag that was never round 1's (mistyped, or another round's) is not said to be an old
    # drawing of it
    for tag in ('"round-x"', again["etag"].replace("round-", "round-9")):
        wrong = as_carol.delete(url, HTTP_IF_MATCH=tag)
        assert wrong.status_code == 412 and codes(wrong) == ["precondition_failed"]
        assert wrong.json()["errors"][0]["detail"] == (
            f"{tag} is not an ETag of round 1: it is not undone. Send the ETag that reading the "
            "round answers."
        )
    assert Match.objects.filter(pk__in=again["matches"]).count() == len(again["matches"])
    board = as_carol.get(f"/api/v1/tournaments/{tournament}/board/").json()
    assert board["round"]["etag"] == again["etag"]

    assert as_carol.delete(url, HTTP_IF_MATCH=again["etag"]).status_code == 204
    gone = as_carol.delete(url, HTTP_IF_MATCH=again["etag"])
    assert gone.status_code == 404 and codes(gone) == ["not_found"]
    assert gone.json()["errors"][0]["detail"] == (
        "There is no round 1: it may have been undone on another phone."
    )


def test_only_directors_undo_a_round(as_victor, as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    draw_round(as_carol, tournament)
    assert as_victor.delete(f"/api/v1/tournaments/{tournament}/rounds/1/").status_code == 403
    assert Round.objects.filter(tournament_id=tournament).count() == 1


def read_csv(response):
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text[1:])))


def test_the_leaderboard_downloads_as_csv_with_every_rounds_points(
    as_carol, as_victor, club, crowd
):
    players = crowd[:4]
    tournament = create(as_carol, club, players, name="Tuesday = night").json()["id"]
    tables = [[players[0].pk, players[1].pk], [players[2].pk, players[3].pk]]
    finish_round(as_carol, draw_round(as_carol, tournament, tables=tables).json())
    second = draw_round(as_carol, tournament, tables=[[p.pk for p in players]]).json()
    record(as_carol, second["matches"][0], went_out(players[3].pk, [p.pk for p in players]))
    response = as_victor.get(f"/api/v1/tournaments/{tournament}/leaderboard/csv/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    disposition = response["Content-Disposition"]
    named = r'attachment; filename="arlington-card-club-tuesday-night-leaderboard-[\d-]{10}\.csv"'
    assert re.fullmatch(named, disposition), disposition
    rows = read_csv(response)
    assert list(rows[0]) == [
        "rank", "player", "name", "victory_points", "points", "matches", "finished", "wins",
        "round_1", "round_2", "withdrawn",
    ]  # fmt: skip
    by_name = {row["name"]: row for row in rows}
    assert by_name[players[0].name]["round_1"] == "1020"
    assert by_name[players[0].name]["round_2"] == "-65"
    assert by_name[players[3].name]["round_2"] == "340"
    assert by_name[players[0].name]["victory_points"] == "1.0000"
    # for a spreadsheet set to French: semicolons, and a decimal comma
    french = as_victor.get(
        f"/api/v1/tournaments/{tournament}/leaderboard/csv/", {"separator": "semicolon"}
    )
    text = french.content.decode("utf-8-sig")
    assert text.splitlines()[0].startswith("rank;player;name;victory_points;points;")
    lines = {row["name"]: row for row in csv.DictReader(io.StringIO(text), delimiter=";")}
    assert lines[players[0].name]["victory_points"] == "1,0000"
    assert lines[players[0].name]["round_2"] == "-65"


def test_the_csv_of_another_clubs_night_is_a_404_in_json(as_bob, as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    response = as_bob.get(f"/api/v1/tournaments/{tournament}/leaderboard/csv/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"
    assert "Content-Disposition" not in response


def test_the_leaderboard_csv_asked_for_json_is_a_406_in_json(as_victor, as_carol, club, crowd):
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    url = f"/api/v1/tournaments/{tournament}/leaderboard/csv/"
    response = as_victor.get(url, {"format": "json"})
    assert response.status_code == 406
    assert response.json()["errors"][0]["code"] == "not_acceptable"
    assert response.json()["errors"][0]["attr"] == "format"
    assert as_victor.get(url, {"format": "csv"})["Content-Type"] == "text/csv; charset=utf-8"


def declared_404_codes(method: str) -> set[str]:
    return openapi.declared_codes("/api/v1/tournaments/{id}/entrants/{player}/", method, 404)


def test_an_entrants_404s_carry_codes_the_description_lists(as_carol, bobs_club, club, crowd):
    """A generated client with strict enums reads every 404 an entrant's URL gives."""
    tournament = create(as_carol, club, crowd[:4]).json()["id"]
    url = f"{entrants_url(tournament)}{crowd[0].pk}/"
    assert as_carol.get(url).json()["withdrawn"] is False
    assert as_carol.delete(url).status_code == 204
    stranger = Player.objects.create(club=bobs_club, name="Quentin Stranger")
    seen = {"get": set(), "delete": set()}
    for player in (crowd[0], crowd[7], stranger):  # withdrawn, never entered, another club's
        for method in seen:
            answer = getattr(as_carol, method)(f"{entrants_url(tournament)}{player.pk}/")
            assert answer.status_code == 404, (method, player.name, answer.content)
            seen[method].update(codes(answer))
    assert seen == {
        "get": {"player_not_entered", "not_found"},  # withdrawn before playing: no row left
        "delete": {"player_not_entered", "not_found"},
    }
    for method, found in seen.items():
        assert found <= declared_404_codes(method), method
    assert "already_withdrawn" in declared_404_codes("delete")
    assert "already_withdrawn" not in declared_404_codes("get")  # a read never answers it


def test_a_draw_that_cannot_fill_a_table_says_what_to_do(as_carol, club, crowd):
    """Two entrants, one withdrawn before playing: one player cannot sit at tables of 2 to 5.
    The sentence reads right for one entrant as for several, and names no field of the
    request (the draw's body has none such)."""
    tournament = create(as_carol, club, crowd[:2]).json()["id"]
    assert as_carol.delete(f"{entrants_url(tournament)}{crowd[1].pk}/").status_code == 204
    sentences = {}
    for language in ("en", "pt", "fr"):
        answer = as_carol.post(
            f"/api/v1/tournaments/{tournament}/rounds/",
            {},
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert answer.status_code == 400, answer.content
        (error,) = answer.json()["errors"]
        assert (error["code"], error["attr"]) == ("cannot_seat", None)
        sentences[language] = error["detail"]
    assert sentences == {
        "en": "The entrants (1) cannot fill tables of 2 to 5 players: enter or withdraw a player.",
        "pt": "Os inscritos (1) não preenchem mesas de 2 a 5 jogadores: inscreva ou retire um "
        "jogador.",
        "fr": "Les inscrits (1) ne peuvent pas remplir des tables de 2 à 5 joueurs\u00a0: "
        "inscrivez ou retirez un joueur.",
    }
    assert not Round.objects.filter(tournament_id=tournament).exists()


def test_a_directors_draw_with_nobody_left_to_seat_is_refused(as_carol, club, crowd):
    """Every entrant withdrawn: a director's draw of no tables passed every check of the tables
    (none to check) and made an empty round, round after round. It is refused as the drawn one
    is."""
    tournament = create(as_carol, club, crowd[:2]).json()["id"]
    for player in crowd[:2]:
        assert as_carol.delete(f"{entrants_url(tournament)}{player.pk}/").status_code == 204
    answer = draw_round(as_carol, tournament, tables=[])
    assert answer.status_code == 400, answer.content
    assert codes(answer) == ["cannot_seat"]
    assert not Round.objects.filter(tournament_id=tournament).exists()
