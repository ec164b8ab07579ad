"""GET matches/{id}/live/stream/: Server-Sent Events, served by uvicorn, fanned out by Redis.

Two ASGI servers run on free localhost ports. A device watches the stream on the first; the
events are sent to the second. The only path between them is Redis pub/sub, so each state
the watcher receives has crossed the fan-out, as it would between two app servers.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from django.db import connection
from rest_framework.authtoken.models import Token

from matches import live
from matches.models import LiveHand
from tests import harness
from tests.factories import client_for, start_match
from tests.harness import free_port
from tests.parallel import redis_url

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_URL = redis_url()


@pytest.fixture
def shared_redis(settings, empty_redis):
    settings.REDIS_URL = REDIS_URL
    live._redis.cache_clear()
    return empty_redis


@pytest.fixture
def servers(shared_redis) -> Iterator[list[int]]:
    """Two app servers: the project's ASGI application under uvicorn, each on its own port."""
    running = []
    for _ in range(2):
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(
                "arlington_site.asgi:application",
                host="127.0.0.1",
                port=port,
                log_level="warning",
                lifespan="off",
            )
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        running.append((server, thread, port))
    harness.wait_until(lambda: all(server.started for server, _, _ in running), what="uvicorn")
    yield [port for _, _, port in running]
    for server, thread, _ in running:
        server.should_exit = True
        thread.join(timeout=10)
    with connection.cursor() as cursor:  # the servers' worker threads kept theirs open
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


class Watcher:
    """A device following the stream: reads one Server-Sent Event at a time."""

    def __init__(self, port: int, path: str, token: str | None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        headers = {"Accept": "text/event-stream"}
        if token is not None:
            headers["Authorization"] = f"Token {token}"
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()

    def next_event(self) -> dict[str, str]:
        """The next event's fields (``event``, ``id``, ``data``), heartbeats and retry skipped."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline().decode().rstrip("\n")
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
            elif "data" in fields:
                return fields
            else:
                fields = {}

    def close(self) -> None:
        self.connection.close()


def post(port: int, path: str, body: dict, token: str, etag: str) -> tuple[int, dict, str]:
    """An event sent over HTTP to an app server, as a second device would."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request(
        "POST",
        path,
        body=json.dumps(body),
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "If-Match": etag,
        },
    )
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    return response.status, answer, response.headers.get("ETag", "")


def test_each_new_state_reaches_a_watcher_on_another_app_server(
    servers, carol, victor, club, roster
):
    first, second = servers
    match = start_match(client_for(carol), club, roster[:3])
    ben, cleo = roster[1].pk, roster[2].pk
    started = client_for(carol).post(
        f"/api/v1/matches/{match['id']}/live/", {"turned_up": "7H"}, format="json"
    )
    assert started.status_code == 201
    stream = f"/api/v1/matches/{match['id']}/live/stream/"
    watcher = Watcher(first, stream, Token.objects.create(user=victor).key)
    try:
        assert watcher.response.status == 200
        assert watcher.response.headers["Content-Type"].startswith("text/event-stream")
        current = watcher.next_event()
        assert current["event"] == "state" and json.loads(current["data"]) == started.json()

        events = f"/api/v1/matches/{match['id']}/live/events/"
        token = Token.objects.create(user=carol).key
        etag = started.headers["ETag"]
        for event in (
            {"type": "draw", "player": ben},
            {"type": "discard", "player": ben, "card": "9C"},
        ):
            status, answer, etag = post(second, events, event, token, etag)
            assert status == 200, answer
            pushed = watcher.next_event()
            assert json.loads(pushed["data"]) == answer
            assert pushed["id"] == str(answer["version"])
        assert json.loads(pushed["data"])["turn"] == cleo

        undone = client_for(carol).delete(f"{events}last/", HTTP_IF_MATCH=etag)
        assert undone.status_code == 200
        assert json.loads(watcher.next_event()["data"]) == undone.json()
    finally:
        watcher.close()


def test_a_state_published_late_is_not_sent_after_a_newer_one(servers, carol, club, roster):
    """Two writes commit in order, but the first's message can leave last (its request slowed
    between its commit and its publish): the watcher must not go back to the older state."""
    match = start_match(client_for(carol), club, roster[:3])
    started = client_for(carol).post(
        f"/api/v1/matches/{match['id']}/live/", {"turned_up": "7H"}, format="json"
    )
    assert started.status_code == 201
    hand = LiveHand.objects.get(match_id=match["id"])
    watcher = Watcher(
        servers[0],
        f"/api/v1/matches/{match['id']}/live/stream/",
        Token.objects.create(user=carol).key,
    )
    try:
        assert json.loads(watcher.next_event()["data"])["version"] == 1  # subscribed by now

        def send(live_id: int, version: int) -> None:
            message = {"live": live_id, "state": {**started.json(), "version": version}}
            channel = live.CHANNEL.format(match=match["id"])
            live._redis(REDIS_URL).publish(channel, json.dumps(message))

        send(hand.pk, 3)
        send(hand.pk, 2)  # committed before 3, published after it
        send(hand.pk - 1, 9)  # a live hand of before
        send(hand.pk, 4)
        assert [watcher.next_event()["id"] for _ in range(2)] == ["3", "4"]
        # a server of the release before publishes the bare state: still passed on
        bare = {**started.json(), "version": 5}
        live._redis(REDIS_URL).publish(live.CHANNEL.format(match=match["id"]), json.dumps(bare))
        assert watcher.next_event()["id"] == "5"
    finally:
        watcher.close()


def test_the_stream_is_for_members_only(servers, bob, carol, club, roster):
    match = start_match(client_for(carol), club, roster[:2])
    stream = f"/api/v1/matches/{match['id']}/live/stream/"
    outsider = Watcher(servers[0], stream, Token.objects.create(user=bob).key)
    anonymous = Watcher(servers[0], stream, None)
    try:
        assert outsider.response.status == 404
        assert anonymous.response.status == 401
    finally:
        outsider.close()
        anonymous.close()


def test_a_match_takes_a_limited_number_of_watchers(servers, settings, carol, club, roster):
    settings.LIVE_STREAM_MAX_PER_MATCH = 1
    match = start_match(client_for(carol), club, roster[:2])
    stream = f"/api/v1/matches/{match['id']}/live/stream/"
    token = Token.objects.create(user=carol).key
    first = Watcher(servers[0], stream, token)
    second = Watcher(servers[1], stream, token)
    try:
        assert first.response.status == 200
        assert second.response.status == 429
        assert json.loads(second.response.read())["errors"][0]["code"] == "too_many_watchers"
    finally:
        first.close()
        second.close()


def test_a_device_token_opens_the_stream_like_any_other_request(servers, carol, club, roster):
    match = start_match(client_for(carol), club, roster[:2])
    signed_in = client_for(carol).post(
        "/api/v1/auth/tokens/", {"username": "carol", "password": "carol-pw-1234"}, format="json"
    )
    assert signed_in.status_code == 201, signed_in.content
    device_key = signed_in.json()["token"]
    stream = f"/api/v1/matches/{match['id']}/live/stream/"
    watcher = Watcher(servers[0], stream, device_key)
    wrong = Watcher(servers[0], stream, device_key[:-1] + ("a" if device_key[-1] != "a" else "b"))
    try:
        assert watcher.response.status == 200
        assert wrong.response.status == 401
    finally:
        watcher.close()
        wrong.close()


# --- stream tickets: EventSource cannot send Authorization -----------------------------------


def ticket_url(user, match_id: int) -> str:
    from urllib.parse import urlsplit

    answer = client_for(user).post(f"/api/v1/matches/{match_id}/live/stream-ticket/")
    assert answer.status_code == 201
    assert answer["Location"] == answer.json()["url"]
    url = urlsplit(answer.json()["url"])
    return f"{url.path}?{url.query}"


def test_a_ticket_opens_the_stream_without_a_header(servers, carol, victor, club, roster):
    match = start_match(client_for(carol), club, roster[:3])
    started = client_for(carol).post(
        f"/api/v1/matches/{match['id']}/live/", {"turned_up": "7H"}, format="json"
    )
    path = ticket_url(victor, match["id"])
    assert path.startswith(f"/api/v1/matches/{match['id']}/live/stream/?ticket=")
    assert path.count("=") == 1  # the ticket, and nothing else
    watcher = Watcher(servers[0], path, None)
    try:
        assert watcher.response.status == 200
        assert json.loads(watcher.next_event()["data"]) == started.json()
    finally:
        watcher.close()


def test_a_ticket_is_for_one_match_and_a_minute(servers, carol, victor, club, roster):
    from django.core import signing

    from matches.api import stream_tickets

    first = start_match(client_for(carol), club, roster[:2])
    second = start_match(client_for(carol), club, roster[:2])
    other_match = ticket_url(victor, first["id"]).replace(
        f"/matches/{first['id']}/", f"/matches/{second['id']}/"
    )

    class AnHourAgo(signing.TimestampSigner):
        def timestamp(self) -> str:
            return signing.b62_encode(int(time.time()) - 3600)

    old = AnHourAgo(salt=stream_tickets.SALT).sign_object([victor.pk, first["id"]])
    for path in (
        other_match,
        f"/api/v1/matches/{first['id']}/live/stream/?ticket={old}",
        f"/api/v1/matches/{first['id']}/live/stream/?ticket=forged",
    ):
        refused = Watcher(servers[0], path, None)
        try:
            assert refused.response.status == 401
            body = json.loads(refused.response.read())
            assert body["errors"][0]["code"] == "stream_ticket_invalid"
        finally:
            refused.close()


def test_only_members_get_a_ticket(bob, carol, club, roster, api_client_plain):
    match = start_match(client_for(carol), club, roster[:2])
    url = f"/api/v1/matches/{match['id']}/live/stream-ticket/"
    assert client_for(bob).post(url).status_code == 404
    assert api_client_plain.post(url).status_code == 401
