"""A Python client generated from the served schema plays a whole match, with no raw HTTP.

openapi-python-client generates the package from what `/api/schema/` serves on a live server
(PostgreSQL); the test imports it and does everything a third-party app would: device tokens,
a club, an invitation accepted by a second user, a season, players, a three-player match to
the 1,000-point finish, a correction with If-Match taken from the ETag, a replayed
Idempotency-Key, the CSV export as text, every ruling, and signing out. Every body is built
from the generated models.
"""

from __future__ import annotations

import csv
import datetime as dt
import importlib
import io
import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.factories import went_out

pytestmark = pytest.mark.django_db(transaction=True)

PACKAGE = "arlington_api_client"
GENERATOR = Path(sys.executable).parent / "openapi-python-client"


@pytest.fixture
def live_server(plain_http, transactional_db):
    """pytest-django's live server, started after the test's plain-HTTP settings: the server
    builds its middleware (the HTTPS redirect among it) when it starts."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer("localhost")
    yield server
    server.stop()


@pytest.fixture
def generated(live_server, tmp_path) -> ModuleType:
    """The client package, generated from the served schema into a temporary directory."""
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json") as served:
        (tmp_path / "schema.json").write_bytes(served.read())
    (tmp_path / "config.yml").write_text("post_hooks: []\n")
    made = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            "schema.json",
            "--meta",
            "none",
            "--output-path",
            PACKAGE,
            "--config",
            "config.yml",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Warning" not in made.stdout, made.stdout
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture
def opened() -> Any:
    """The generated clients a test opens, closed after it: a kept-alive HTTP connection would
    keep its server thread, and that thread's database session, open."""
    clients: list[Any] = []
    yield clients
    for client in clients:
        client.get_httpx_client().close()


def module(package: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{package.__name__}.{name}")


def test_a_generated_client_plays_a_whole_match(generated, live_server, settings, opened):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = get_user_model().objects
    users.create_user("alice", password="alice-pw-1234")
    users.create_user("bob", password="bob-pw-1234")
    api = lambda name: module(generated, f"api.{name}")  # noqa: E731
    m = module(generated, "models")
    anonymous = generated.Client(base_url=live_server.url)
    opened.append(anonymous)

    def sign_in(username: str) -> Any:
        issued = api("auth.auth_tokens_create").sync(
            client=anonymous,
            body=m.SignInRequest(
                username=username, password=f"{username}-pw-1234", name=f"{username}'s phone"
            ),
        )
        assert isinstance(issued, m.IssuedToken), issued
        assert issued.expiry > dt.datetime.now(dt.UTC)
        client = generated.AuthenticatedClient(
            base_url=live_server.url, token=issued.token, prefix="Token"
        )
        opened.append(client)
        return client

    alice, bob = sign_in("alice"), sign_in("bob")
    mine = api("auth.auth_tokens_list").sync(client=alice)
    assert [(t.name, t.current) for t in mine.results] == [("alice's phone", True)]

    # A club, and Bob joins it as scorekeeper by accepting an invitation.
    club = api("clubs.clubs_create").sync(client=alice, body=m.ClubRequest(name="Generated"))
    assert club.role == "owner"
    invitation = api("clubs.clubs_invitations_create").sync(
        client=alice,
        id=club.id,
        body=m.InvitationCreateRequest(role=m.RoleEnum.SCOREKEEPER, max_uses=1),
    )
    preview = api("invitations.invitations_retrieve").sync(client=anonymous, code=invitation.code)
    assert (preview.club, preview.role) == ("Generated", m.RoleEnum.SCOREKEEPER)
    joined = api("invitations.invitations_accept_create").sync(client=bob, code=invitation.code)
    assert (joined.club, joined.role) == (club.id, m.RoleEnum.SCOREKEEPER)

    season = api("seasons.seasons_create").sync(
        client=alice,
        body=m.SeasonRequest(club=club.id, name="Winter", starts_on=dt.date(2026, 12, 1)),
    )
    players = [
        api("players.players_create")
        .sync(client=bob, body=m.PlayerRequest(club=club.id, name=name))
        .id
        for name in ("Ann", "Ben", "Cleo")
    ]
    ann, ben, _cleo = players
    match = api("matches.matches_create").sync(
        client=bob, body=m.MatchCreateRequest(club=club.id, season=season.id, players=players)
    )
    assert match.status == m.MatchStatusEnum.IN_PROGRESS

    def hand(winner: int, model: type = m.HandInputRequest, **extra: Any) -> Any:
        entry = went_out(winner, players)
        return model(
            ending=m.EndingEnum.WENT_OUT,
            went_out=entry["went_out"],
            results=[
                m.PlayerEntryRequest(player=r["player"], melds=r["melds"], hand=r["hand"])
                for r in entry["results"]
            ],
            **extra,
        )

    record = api("matches.matches_hands_create")
    first = record.sync_detailed(
        match_pk=match.id, client=bob, body=hand(ann), idempotency_key="generated-hand-1"
    )
    assert first.status_code == 201 and first.parsed.number == 1
    again = record.sync_detailed(
        match_pk=match.id, client=bob, body=hand(ann), idempotency_key="generated-hand-1"
    )
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.parsed.number == 1
    assert record.sync(match_pk=match.id, client=bob, body=hand(ann)).number == 2

    # A correction of hand 2 names the ETag read through the client.
    read = api("matches.matches_hands_retrieve").sync_detailed(
        match_pk=match.id, number=2, client=alice
    )
    etag = read.headers["ETag"]
    correct = api("matches.matches_hands_update")
    body = hand(ben, m.HandCorrectionRequest, reason="Ben went out, not Ann")
    corrected = correct.sync_detailed(
        match_pk=match.id, number=2, client=alice, body=body, if_match=etag
    )
    assert corrected.status_code == 200
    assert corrected.parsed.went_out == ben
    stale = correct.sync_detailed(
        match_pk=match.id, number=2, client=alice, body=body, if_match=etag
    )
    assert stale.status_code == 412
    revisions = api("matches.matches_hands_revisions_list").sync(
        match_pk=match.id, number=2, client=alice
    )
    assert [r.hand.went_out for r in revisions.results] == [ann, ben]

    for number in (3, 4, 5):
        answer = record.sync(match_pk=match.id, client=bob, body=hand(ann))
        assert answer.number == number
    assert answer.match.status == m.MatchStatusEnum.FINISHED
    assert answer.match.winners == [ann]
    assert {seat.player: seat.total for seat in answer.match.seats}[ann] == 340 * 4 - 65

    # The standings, as JSON rows and as CSV text.
    table = api("clubs.clubs_standings_retrieve").sync(client=alice, id=club.id)
    assert [row.name for row in table] == ["Ann", "Ben", "Cleo"]
    text = api("clubs.clubs_standings_csv_retrieve").sync(client=alice, id=club.id)
    assert isinstance(text, str)
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert [(row["name"], row["wins"]) for row in rows] == [
        ("Ann", "1"),
        ("Ben", "0"),
        ("Cleo", "0"),
    ]
    season_text = api("seasons.seasons_standings_csv_retrieve").sync(client=alice, id=season.id)
    assert season_text == text

    # Every ruling, anonymously.
    meld = api("rulings.rulings_meld_create").sync(
        client=anonymous, body=m.MeldRequest(cards=["JS", "2D=QS", "KS"])
    )
    assert meld.valid and meld.points == 70
    ruled = went_out(ann, players)
    ruling = api("rulings.rulings_hand_create").sync(
        client=anonymous,
        body=m.HandRequest(
            ending=m.EndingEnum.WENT_OUT,
            went_out=str(ann),
            results=[
                m.LabelledPlayerHandRequest(
                    player=str(r["player"]), melds=r["melds"], hand=r["hand"]
                )
                for r in ruled["results"]
            ],
        ),
    )
    assert ruling.valid
    discard = api("rulings.rulings_discard_create").sync(
        client=anonymous, body=m.DiscardRequest(card="QS")
    )
    assert not discard.allowed
    assert [v.code for v in discard.violations] == ["queen_of_spades_discard"]
    take = api("rulings.rulings_take_discards_create").sync(
        client=anonymous, body=(m.TakeDiscardsRequest(top_card="7H", from_hand=["7D", "2C=7S"]))
    )
    assert take.allowed
    extend = api("rulings.rulings_extend_create").sync(
        client=anonymous, body=m.ExtendRequest(meld=["5D", "6D", "7D"], add=["8D"])
    )
    assert extend.allowed

    # Signing out revokes the device token: the next call is a 401.
    assert api("auth.auth_logout_create").sync_detailed(client=alice).status_code == 204
    refused = api("clubs.clubs_list").sync_detailed(client=alice)
    assert refused.status_code == 401
    assert json.loads(refused.content)["errors"][0]["code"] == "authentication_failed"
    assert api("clubs.clubs_list").sync_detailed(client=bob).status_code == 200
