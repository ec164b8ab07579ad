"""A player's record: GET players/{id}/ (roster fields and record) and players/{id}/matches/.

Figures are worked out by hand from the card values: Q♠ 50, A 20, 2 20, K Q J 10 9 8 = 10,
7 6 5 4 3 = 5; a builders' went_out hand is +340 for the player out and -65 (80 held) for
the others.
"""

from __future__ import annotations

import pytest

from tests.factories import correct, full_packs, record, start_match, went_out


def wild_two_hand(winner: int, other: int) -> dict[str, object]:
    """``winner`` goes out with a wild two in a set of sevens; ``other`` is caught with Q♠.

    Winner: 80 + 30 + 30 + 15 (the 2C stands for the 7S: 5) = 155, +100 = 255.
    Other: a 15-point run melded, 120 held (Q♠ 50, 3C 4C 3D 4D 5 each, 8H 9H 10H JH 8C 10
    each): 15 - 120 = -105.
    """
    return {
        "ending": "went_out",
        "went_out": winner,
        "results": [
            {
                "player": winner,
                "hand": [],
                "melds": [
                    ["AS", "AH", "AD", "AC"],
                    ["KS", "KH", "KD"],
                    ["QH", "QD", "QC"],
                    ["7H", "7D", "2C=7S"],
                ],
            },
            {
                "player": other,
                "melds": [["5D", "6D", "7D"]],
                "hand": ["QS", "3C", "4C", "8H", "9H", "10H", "JH", "3D", "4D", "8C"],
            },
        ],
    }


@pytest.fixture
def finished(as_carol, club, roster):
    """Ann and Ben: the wild-two hand, then Ann goes out three times: 1,275 to -300."""
    ann, ben = roster[:2]
    match = start_match(as_carol, club, [ann, ben])
    hands = [wild_two_hand(ann.pk, ben.pk)] + [went_out(ann.pk, [ann.pk, ben.pk])] * 3
    for body in hands:
        response = record(as_carol, match["id"], body)
        assert response.status_code == 201, response.json()
    assert response.json()["match"]["status"] == "finished"
    return match["id"]


def test_the_record_of_the_winner(as_victor, finished, roster):
    ann = roster[0]
    body = as_victor.get(f"/api/v1/players/{ann.pk}/").json()
    assert (body["id"], body["name"], body["club"]) == (ann.pk, "Ann", ann.club_id)
    assert body["record"] == {
        "matches_played": 1,
        "wins": 1,
        "shared_wins": 0,
        "victory_points": 1.0,
        "hands_played": 4,
        "went_out": 4,
        "went_out_rate": 1.0,
        "average_net": (255 + 3 * 340) / 4,
        "best_hand": {"match": finished, "number": 2, "net": 340},
        "wild_twos_melded": 1,
        "queen_of_spades_held": 0,
        "average_hand_penalty": 0.0,
    }


def test_the_record_of_the_loser_counts_the_queen_of_spades_caught(as_victor, finished, roster):
    ben = roster[1]
    record_ = as_victor.get(f"/api/v1/players/{ben.pk}/").json()["record"]
    assert record_ == {
        "matches_played": 1,
        "wins": 0,
        "shared_wins": 0,
        "victory_points": 0.0,
        "hands_played": 4,
        "went_out": 0,
        "went_out_rate": 0.0,
        "average_net": (-105 - 3 * 65) / 4,
        "best_hand": {"match": finished, "number": 2, "net": -65},
        "wild_twos_melded": 0,
        "queen_of_spades_held": 1,
        "average_hand_penalty": (120 + 3 * 80) / 4,
    }


def test_only_finished_matches_count(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    lost = start_match(as_carol, club, [ann, ben])
    record(as_carol, lost["id"], full_packs(ann.pk, ben.pk))
    record(as_carol, lost["id"], full_packs(ben.pk, ann.pk, second_holds="QS"))
    unfinished = start_match(as_carol, club, [ann, ben])
    record(as_carol, unfinished["id"], wild_two_hand(ann.pk, ben.pk))
    # 530 each, then Ben 530 and Ann 440 (caught with Q♠): Ben wins 1,060 to 970. Ann's wild
    # two is in the unfinished match, so it does not count yet.
    body = as_victor.get(f"/api/v1/players/{ann.pk}/").json()["record"]
    assert (body["matches_played"], body["wins"], body["shared_wins"]) == (1, 0, 0)
    assert body["hands_played"] == 2
    assert body["queen_of_spades_held"] == 1
    assert body["wild_twos_melded"] == 0


def test_a_shared_victory_is_half_a_victory_point(as_carol, as_victor, club, roster):
    ann, ben = roster[:2]
    tie = start_match(as_carol, club, [ann, ben])
    record(as_carol, tie["id"], full_packs(ann.pk, ben.pk))
    record(as_carol, tie["id"], full_packs(ben.pk, ann.pk))
    body = as_victor.get(f"/api/v1/players/{ben.pk}/").json()["record"]
    assert (body["wins"], body["shared_wins"], body["victory_points"]) == (0, 1, 0.5)
    assert body["best_hand"] == {"match": tie["id"], "number": 1, "net": 530}


def test_a_player_who_has_not_played_has_an_empty_record(as_victor, club, roster):
    body = as_victor.get(f"/api/v1/players/{roster[4].pk}/").json()["record"]
    assert body == {
        "matches_played": 0,
        "wins": 0,
        "shared_wins": 0,
        "victory_points": 0.0,
        "hands_played": 0,
        "went_out": 0,
        "went_out_rate": None,
        "average_net": None,
        "best_hand": None,
        "wild_twos_melded": 0,
        "queen_of_spades_held": 0,
        "average_hand_penalty": None,
    }


def test_the_record_follows_a_correction(as_carol, as_victor, finished, roster):
    ann, ben = roster[:2]
    # Hand 1 re-entered without the wild two: Ann melds the 7S itself.
    body = wild_two_hand(ann.pk, ben.pk)
    body["results"][0]["melds"][3] = ["7H", "7D", "7S"]
    response = correct(as_carol, finished, 1, body)
    assert response.status_code == 200, response.json()
    assert as_victor.get(f"/api/v1/players/{ann.pk}/").json()["record"]["wild_twos_melded"] == 0


def test_the_list_of_a_players_matches_is_newest_first(as_carol, as_victor, club, finished, roster):
    ann, ben, cleo = roster[:3]
    later = start_match(as_carol, club, [cleo, ann])
    record(as_carol, later["id"], went_out(cleo.pk, [cleo.pk, ann.pk]))
    body = as_victor.get(f"/api/v1/players/{ann.pk}/matches/").json()
    assert body["count"] == 2
    assert [
        (m["match"], m["status"], m["seat"], m["total"], m["won"], m["shared_victory"])
        for m in body["results"]
    ] == [
        (later["id"], "in_progress", 1, -65, False, False),
        (finished, "finished", 0, 1275, True, False),
    ]
    assert body["results"][1]["hands_played"] == 4
    assert body["results"][1]["finished_at"] is not None


def test_viewers_read_records_and_outsiders_get_404(as_bob, as_victor, finished, roster):
    ann = roster[0]
    for url in (f"/api/v1/players/{ann.pk}/", f"/api/v1/players/{ann.pk}/matches/"):
        assert as_victor.get(url).status_code == 200
        response = as_bob.get(url)
        assert response.status_code == 404
        assert response.json()["errors"][0]["code"] == "not_found"


def test_the_roster_list_stays_without_records(as_victor, club, roster):
    body = as_victor.get("/api/v1/players/", {"club": club.pk}).json()
    assert "record" not in body["results"][0]


def test_a_database_without_postgresqls_json_functions_gives_the_same_card_figures(
    as_carol, club, roster, monkeypatch
):
    """``make run``'s SQLite reads the stored JSON row by row: the same wild twos and queens."""
    from django.db import connection

    from matches.models import Player
    from matches.records import player_record

    ann, ben = roster[:2]
    for winner, other in ((ann, ben), (ben, ann)):
        match = start_match(as_carol, club, [ann, ben])
        record(as_carol, match["id"], wild_two_hand(winner.pk, other.pk))
        record(as_carol, match["id"], full_packs(winner.pk, other.pk, second_holds="QS"))
        record(as_carol, match["id"], full_packs(winner.pk, other.pk))
    player = Player.objects.get(pk=ann.pk)
    on_postgresql = player_record(player=player)
    monkeypatch.setattr(connection, "vendor", "sqlite")
    read = player_record(player=player)

    assert on_postgresql["wild_twos_melded"] == 1 and on_postgresql["queen_of_spades_held"] == 2
    assert read == on_postgresql
