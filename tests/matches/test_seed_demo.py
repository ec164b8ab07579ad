"""The seed_demo command loads a playable demo once, through the services."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.models import (
    TARGET_TOTAL,
    Club,
    Hand,
    HandResult,
    HandRevision,
    Match,
    MatchStatus,
    Player,
    Season,
)
from matches.services import clubs as club_services

pytestmark = pytest.mark.django_db


def seed_demo(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> dict[str, int]:
    models = (Club, Player, Season, Match, Hand, HandResult, HandRevision, Token)
    return {model.__name__: model.objects.count() for model in models}


def test_seed_demo_creates_one_finished_and_one_in_progress_match():
    seed_demo()

    assert Match.objects.filter(status=MatchStatus.FINISHED).count() == 1
    in_progress = Match.objects.get(status=MatchStatus.IN_PROGRESS)
    assert in_progress.hands_played >= 2
    assert Club.objects.get().players.count() == 4


def test_seed_demo_makes_a_superuser_who_can_log_in():
    output = seed_demo()

    demo = get_user_model().objects.get(username="demo")
    assert demo.is_superuser and demo.check_password("demo-arlington")
    assert "/admin/" in output and "/api/docs/" in output
    assert "local use" in output


def test_seed_demo_says_how_to_get_a_device_token():
    """The printed curl command, sent as it is, gives a device token that reads the matches;
    no legacy one-per-user token is made (that endpoint is deprecated)."""
    output = seed_demo()

    (command,) = [line for line in output.splitlines() if "auth/tokens/" in line]
    path = re.search(r"http://[^/]+(/api/v1/auth/tokens/)", command).group(1)
    body = json.loads(re.search(r"-d '(.*)'", command).group(1))
    issued = APIClient().post(path, body, format="json")
    assert issued.status_code == 201, issued.json()
    reader = APIClient(HTTP_AUTHORIZATION=f"Token {issued.json()['token']}")
    assert reader.get("/api/v1/matches/").status_code == 200
    assert "Authorization: Token <token>" in output
    assert not Token.objects.exists()


def test_seed_demo_run_twice_creates_nothing_new():
    first = seed_demo()
    before = counts()

    second = seed_demo()

    assert counts() == before
    assert first.split("Demo login")[1] == second.split("Demo login")[1]


def test_seed_demo_if_empty_skips_a_database_with_a_club(alice):
    club_services.club_create(name="Somebody's club", user=alice)

    seed_demo("--if-empty")

    assert Club.objects.count() == 1
    assert not get_user_model().objects.filter(username="demo").exists()
    assert not Match.objects.exists()


def test_seed_demo_if_empty_loads_an_empty_database():
    seed_demo("--if-empty")

    assert Match.objects.count() == 2


def test_finished_demo_match_totals_are_the_sum_of_its_hands():
    seed_demo()
    match = Match.objects.get(status=MatchStatus.FINISHED)
    seats = list(match.seats.all())

    for seat in seats:
        nets = HandResult.objects.filter(hand__match=match, player=seat.player)
        assert seat.total == nets.aggregate(total=Sum("net"))["total"]
    winners = [seat for seat in seats if seat.winner]
    assert len(winners) == 1
    assert winners[0].total == max(seat.total for seat in seats) >= TARGET_TOTAL
    assert match.hands_played == match.hands.count()
    last = match.hands.get(number=match.hands_played).results.get(player=winners[0].player)
    assert last.total == winners[0].total


def test_seed_demo_if_empty_still_shows_the_demo_login_once_loaded():
    seed_demo()
    before = counts()

    output = seed_demo("--if-empty")

    assert counts() == before
    assert "demo / demo-arlington" in output and "/api/v1/auth/tokens/" in output
