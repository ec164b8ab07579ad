"""A Python client generated from the served schema plays a whole match, with no raw HTTP.

openapi-python-client generates the package from what `/api/schema/` serves on a live server
(PostgreSQL); the test imports it and does everything a third-party app would: device tokens,
a club, an invitation accepted by a second user, a season, players, a three-player match to
the 1,000-point finish, a correction with If-Match taken from the ETag, a replayed
Idempotency-Key, the CSV export as text, every ruling, and signing out; then a hand played live,
event by event, to its finish, and the live stream's description (its operation, the models of
its events' data, and its 503 without Redis). Every body is built from the generated models.

Workarounds are counted, not trusted: every HTTP request the test makes is checked to come from
a generated operation (a raw request would be one), and the generated files are checked to be
unchanged at the end (a hand-edited model would be one). Both counts must be zero.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import importlib
import inspect
import io
import subprocess
import sys
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from django.contrib.auth import get_user_model

from tests.factories import BEN_13, CLEO_13, went_out

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
    made_files = fingerprint(tmp_path / PACKAGE)
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
        assert fingerprint(tmp_path / PACKAGE) == made_files, "a generated file was edited"
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


def fingerprint(package: Path) -> dict[str, str]:
    """Each generated source file's SHA-256, by its path in the package."""
    return {
        str(path.relative_to(package)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(package.rglob("*.py"))
    }


@pytest.fixture
def workarounds(monkeypatch) -> Any:
    """Every request sent through httpx, sorted by whether a generated operation (a module of
    the package's `api`) sent it; any other request is a raw one, a workaround."""
    sent: dict[str, list[str]] = {"generated": [], "raw": []}
    send = httpx.Client.send

    def checked(self: httpx.Client, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        callers = {frame.frame.f_globals.get("__name__", "") for frame in inspect.stack()}
        kind = "generated" if any(n.startswith(f"{PACKAGE}.api.") for n in callers) else "raw"
        sent[kind].append(f"{request.method} {request.url.path}")
        return send(self, request, **kwargs)

    monkeypatch.setattr(httpx.Client, "send", checked)
    return sent


def module(package: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{package.__name__}.{name}")


def test_a_generated_client_plays_a_whole_match(
    generated, live_server, settings, opened, workarounds
):
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
    assert isinstance(refused.parsed, m.ErrorResponse401)
    assert refused.parsed.errors[0].code == "authentication_failed"
    assert api("clubs.clubs_list").sync_detailed(client=bob).status_code == 200

    play_live_hand(api, m, bob, club.id, players)

    # Not one request outside a generated operation (the fixture checks the generated files).
    assert workarounds["raw"] == [], workarounds["raw"]
    assert len(workarounds["generated"]) > 40


def play_live_hand(api: Any, m: Any, bob: Any, club: int, players: list[int]) -> None:
    """A new match's first hand, played live: the first two players draw and discard, the
    third takes the pile, melds four sets and goes out; `finish` records it. Whose turn it is is
    read from each state, never assumed."""
    match = api("matches.matches_create").sync(
        client=bob, body=m.MatchCreateRequest(club=club, players=players)
    )
    started = api("matches.matches_live_create").sync_detailed(
        match_pk=match.id, client=bob, body=m.LiveStartRequest(turned_up="7H")
    )
    assert started.status_code == 201, started.content
    state = started.parsed
    assert isinstance(state, m.LiveState) and state.phase == m.PhaseEnum.DRAW
    etag = started.headers["ETag"]
    assert etag.endswith(f'.{state.version}"'), etag

    send = api("matches.matches_live_events_create")

    def event(body: Any, key: str) -> Any:
        nonlocal etag
        answer = send.sync_detailed(
            match_pk=match.id, client=bob, body=body, if_match=etag, idempotency_key=key
        )
        assert answer.status_code in (200, 201), answer.content
        etag = answer.headers.get("ETag", etag)
        return answer.parsed

    first = state.turn
    state = event(m.DrawEventRequest(player=first, type_=m.DrawEventTypeEnum.DRAW), "live-1")
    state = event(
        m.DiscardEventRequest(player=first, type_=m.DiscardEventTypeEnum.DISCARD, card="9C"),
        "live-2",
    )
    second = state.turn
    state = event(m.DrawEventRequest(player=second, type_=m.DrawEventTypeEnum.DRAW), "live-3")
    state = event(
        m.DiscardEventRequest(player=second, type_=m.DiscardEventTypeEnum.DISCARD, card="8D"),
        "live-4",
    )
    third = state.turn
    assert {first, second, third} == set(players)
    state = event(
        m.TakePileEventRequest(
            player=third, type_=m.TakePileEventTypeEnum.TAKE_PILE, meld=["8D", "8C", "2C=8H"]
        ),
        "live-5",
    )
    assert state.discards == []
    for number, cards in enumerate(
        (["3C", "3D", "3H"], ["4C", "4D", "4H"], ["5C", "5D", "5H"], ["7H", "7D", "7C"]), 6
    ):
        state = event(
            m.MeldEventRequest(player=third, type_=m.MeldEventTypeEnum.MELD, cards=cards),
            f"live-{number}",
        )
    state = event(
        m.DiscardEventRequest(player=third, type_=m.DiscardEventTypeEnum.DISCARD, card="9C"),
        "live-10",
    )
    assert isinstance(state, m.LiveState)
    assert (state.phase, state.ending, state.went_out) == (
        m.PhaseEnum.ENDED,
        m.EndingEnum.WENT_OUT,
        third,
    )

    # The live stream, through its generated operation: without Redis it is a 503 the client
    # parses into its own model, with the Retry-After the description declares.
    stream = api("matches.matches_live_stream_retrieve")
    unavailable = stream.sync_detailed(match_pk=match.id, client=bob)
    assert unavailable.status_code == 503
    assert isinstance(unavailable.parsed, m.LiveStreamUnavailableErrorResponse)
    assert unavailable.parsed.errors[0].code.value == "live_stream_unavailable"
    assert int(unavailable.headers["Retry-After"]) > 0
    # The description of its 200: text/event-stream, whose events' data are LiveState,
    # LiveStreamRecorded and LiveStreamAbandoned, all generated.
    assert "Server-Sent Events" in stream.sync_detailed.__doc__
    assert "str" in str(inspect.signature(stream.sync).return_annotation)
    assert m.LiveState.from_dict(state.to_dict()) == state
    recorded = m.LiveStreamRecorded.from_dict({**state.to_dict(), "recorded": 1})
    assert recorded.recorded == 1
    assert "abandoned" in m.LiveStreamAbandoned.__annotations__

    held = m.FinishEventRequestHeld.from_dict({str(first): BEN_13, str(second): CLEO_13})
    hand = event(m.FinishEventRequest(type_=m.FinishEventTypeEnum.FINISH, held=held), "live-11")
    assert isinstance(hand, m.HandWithMatch), hand
    assert (hand.number, hand.went_out) == (1, third)
    assert sorted(r.net for r in hand.results) == [-140, -125, 190]
    log = api("matches.matches_hands_live_retrieve").sync(match_pk=match.id, number=1, client=bob)
    assert [e.data["type"] for e in log.events] == [
        *("draw", "discard") * 2,
        "take_pile",
        *("meld",) * 4,
        "discard",
        "finish",
    ][: len(log.events)]
    assert len(log.events) >= 10
