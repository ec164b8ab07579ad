"""A hand played live on a match: start it, append events, undo, abandon, finish.

The engine (``scoring.live``) rules on every event; these services lock the match, replay the
stored log, ask the engine, save, and tell the match's watchers (``publish``). Finishing
records the hand through ``hand_record`` (matches/services/hands.py), the same service as a hand
entered whole.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import redis
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import scoring
from matches import errors, locking
from matches.models import (
    Hand,
    HandDraftPart,
    LiveEvent,
    LiveHand,
    LiveStatus,
    Match,
    MatchStatus,
    Seat,
)
from matches.services import hands as hand_services
from matches.state import dealer as dealer_of_hand
from scoring import live as engine
from scoring import rulesets

logger = logging.getLogger(__name__)

CHANNEL = "arlington:live:{match}"
"""The Redis pub/sub channel of a match's live states."""


@dataclass(frozen=True)
class Seated:
    """A seated player as the engine sees one: compared by id, named by name in sentences."""

    id: int
    name: str = field(compare=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Answer:
    """What an event produced: the status, the body, and whether it replays a first answer."""

    status: int
    body: Any
    replayed: bool = False
    etag: str | None = None  # the live state's; a finish answers a hand, whose ETag is the API's


def etag(live: LiveHand) -> str:
    """The live state's ETag: the live hand and its version (a new hand never reuses one)."""
    return f'"{live.pk}.{live.version}"'


# --- reading ----------------------------------------------------------------------------


def live_in_play(match_id: int) -> LiveHand:
    """The match's live hand in play; raises ``LiveHand.DoesNotExist`` (404) if none."""
    return LiveHand.objects.get(match_id=match_id, status=LiveStatus.PLAYING)


def live_of_hand(match_id: int, number: int) -> LiveHand:
    """The live hand recorded as hand ``number``, with its log (404 if it was not played live)."""
    return LiveHand.objects.prefetch_related("events__by").get(
        match_id=match_id,
        status=LiveStatus.RECORDED,
        hand__match_id=match_id,
        hand__number=number,
    )


# --- writing ----------------------------------------------------------------------------


def _lock(match_id: int, user: User | None, roles: frozenset[str] | None) -> Match:
    """The match, locked: every live write of a match, and the finish's record, queue here.

    Raises ``errors.NoSuchMatch`` (404) if it was deleted while this request waited for it,
    and ``errors.NotAllowed`` (403) if ``user``'s role, read once the match is locked, is not
    one of ``roles``: demoted or removed meanwhile (``roles`` None: nobody is checked)."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise errors.NoSuchMatch(match=match_id)
    locking.require_role(match.club_id, user, roles)
    return match


def _seats(match: Match) -> list[Seat]:
    return list(match.seats.select_related("player").order_by("position"))


def _players(seats: Sequence[Seat]) -> dict[int, Seated]:
    return {seat.player_id: Seated(seat.player_id, seat.player.name) for seat in seats}


def _public(state: engine.LiveHand, version: int) -> dict[str, object]:
    return engine.public_state(state, version=version, player_id=lambda p: p.id)  # type: ignore[attr-defined]


@transaction.atomic
def live_start(
    *,
    match_id: int,
    turned_up: scoring.Card,
    user: User,
    roles: frozenset[str] | None = None,
) -> LiveHand:
    """Deal the match's next hand live: the dealer from the rotation, ``turned_up`` showing.

    With ``roles``, the roles that may, ``user``'s role is read again under the match's lock,
    as for every live write: one demoted or removed meanwhile is refused (403)."""
    match = _lock(match_id, user, roles)
    if match.status == MatchStatus.FINISHED:
        raise errors.MatchFinished(match=match.pk)
    rules = rulesets.ruleset(match.ruleset)
    if rules.take is None:
        raise errors.LiveRulesetUnsupported(ruleset=match.get_ruleset_display())
    playing = LiveHand.objects.filter(match=match, status=LiveStatus.PLAYING).first()
    if playing is not None:
        raise errors.LiveHandInProgress(number=playing.number)
    number = match.hands_played + 1
    drafted = HandDraftPart.objects.filter(match=match, number=number)
    if any(drafted.values_list("data", flat=True)):  # a discarded part is kept empty
        raise errors.HandDraftInProgress(number=number)
    seats = _seats(match)
    players = _players(seats)
    dealer = dealer_of_hand(
        match.pk,
        match.first_dealer_id,
        [seat.player_id for seat in seats],
        number,
        ruleset=match.ruleset,
    )
    state = engine.deal(
        list(players.values()),
        dealer=players[dealer],
        turned_up=turned_up,
        number=number,
        rules=rules,
        options=match.options,
    )
    live = LiveHand.objects.create(
        match=match,
        number=number,
        dealer_id=dealer,
        turned_up=turned_up.code,
        version=1,
        state=_public(state, 1),
        started_by=user,
    )
    publish(match_id, live.pk, live.state)
    return live


def _replay(live: LiveHand, players: Mapping[int, Seated], match: Match) -> engine.LiveHand:
    dealt = engine.deal(
        list(players.values()),
        dealer=players[live.dealer_id],
        turned_up=scoring.Card.parse(live.turned_up),
        number=live.number,
        rules=rulesets.ruleset(match.ruleset),
        options=match.options,
    )
    events = [
        _event(event.data, players)
        for event in live.events.filter(undone=False).order_by("sequence")
    ]
    return engine.replay_events(dealt, events)


def _event(data: Mapping[str, Any], players: Mapping[int, Seated]) -> engine.Event:
    player = players.get(data["player"], Seated(data["player"], str(data["player"])))
    return engine.event_from_dict({**data, "player": player})


IfMatchTags = tuple[str, ...] | None
"""The ETags a request's If-Match names, as sent (``("*",)`` for any); None without one."""


def _check_if_match(live: LiveHand, if_match: IfMatchTags, *, required: bool = True) -> None:
    """Refuse a change made from another version than the live hand's, as it is under lock."""
    if if_match is None:
        if required:
            raise errors.PreconditionRequired("live")
        return
    if "*" not in if_match and etag(live) not in if_match:
        raise errors.PreconditionFailed("live", version=live.version)


@transaction.atomic
def live_append(
    *,
    match_id: int,
    data: dict[str, Any],
    user: User,
    if_match: IfMatchTags,
    idempotency_key: str | None = None,
    device: str = "",
    roles: frozenset[str] | None = None,
) -> Answer:
    """Append one event (``finish`` records the hand), or replay the first answer to its key.

    ``data`` is an event as the API takes it, with players as ids. ``if_match`` is the ETags
    the client names (If-Match), compared with the live hand's once it is locked. A refused event
    raises ``errors.EventRefused`` and changes nothing. A ``finish`` whose number was recorded
    meanwhile is compared with the recorded hand, as a second entry is (``hand_record``).
    ``roles`` as for ``live_start``, checked after a replay is looked for: a retry of an
    event already accepted is answered as it was.
    """
    match = _lock(match_id, None, None)
    live = LiveHand.objects.filter(match=match).order_by("-id").first()
    if live is None:
        raise LiveHand.DoesNotExist(f"no live hand on match {match_id}")
    if idempotency_key:
        # a key is the user's own: two phones numbering their events alike do not meet
        first = live.events.filter(idempotency_key=idempotency_key, by=user).first()
        if first is not None:
            if first.data != data:
                raise errors.IdempotencyKeyReused()
            state = first.status_code == 200 and first.data["type"] != "finish"
            tag = f'"{live.pk}.{first.answer["version"]}"' if state else None
            return Answer(first.status_code, first.answer, replayed=True, etag=tag)
    locking.require_role(match.club_id, user, roles)
    if live.status != LiveStatus.PLAYING:
        raise LiveHand.DoesNotExist(f"no live hand in play on match {match_id}")
    finishing_a_recorded_number = data["type"] == "finish" and live.number <= match.hands_played
    if live.number != match.hands_played + 1 and not finishing_a_recorded_number:
        raise errors.LiveHandOvertaken(number=live.number, recorded=match.hands_played)
    _check_if_match(live, if_match)
    seats = _seats(match)
    players = _players(seats)
    state = _replay(live, players, match)
    sequence = (
        live.events.order_by("-sequence").values_list("sequence", flat=True).first() or 0
    ) + 1
    for player in [data.get("player"), *(int(p) for p in data.get("held", {}))]:
        if player is not None and player not in players:
            raise errors.PlayerNotSeated(
                attr="player" if "player" in data else f"held.{player}",
                player=hand_services.unseated_name(player, match.club_id),
            )
    if data["type"] == "finish":
        return _finish(live, state, data, players, user, sequence, idempotency_key, device)
    step = engine.play(state, _event(data, players))
    if not step.accepted:
        raise errors.EventRefused(step.violations)
    live.version += 1
    live.state = _public(step.state, live.version)
    live.save(update_fields=["version", "state"])
    LiveEvent.objects.create(
        live=live,
        sequence=sequence,
        data=data,
        answer=live.state,
        idempotency_key=idempotency_key or "",
        by=user,
    )
    publish(match_id, live.pk, live.state)
    return Answer(200, live.state, etag=etag(live))


def _finish(
    live: LiveHand,
    state: engine.LiveHand,
    data: dict[str, Any],
    players: Mapping[int, Seated],
    user: User,
    sequence: int,
    key: str | None,
    device: str = "",
) -> Answer:
    held: dict[Hashable, Sequence[scoring.Card]] = {
        players.get(int(player), Seated(int(player), str(player))): scoring.parse_cards(cards)
        for player, cards in data["held"].items()
    }
    done = engine.finish(state, held)
    if not done.valid or done.hand is None:
        # the engine names a player's part by the player ("held.Ann"); the body named it by id
        paths = {f"held.{seated}": f"held.{seated.id}" for seated in players.values()}
        raise errors.EventRefused(
            [replace(v, path=paths.get(v.path or "", v.path)) for v in done.violations]
        )
    entry = hand_services.HandEntry(
        ending=done.hand.ending,
        went_out=None if done.hand.went_out is None else done.hand.went_out.id,  # type: ignore[attr-defined]
        results=tuple(
            hand_services.PlayerEntry(player=entry.player.id, melds=entry.melds, held=entry.held)  # type: ignore[attr-defined]
            for entry in done.hand.results
        ),
        flags=done.flags,
    )
    recorded = hand_services.hand_record(
        match_id=live.match_id, entry=entry, user=user, number=live.number, device=device, live=True
    )  # the same hand recorded meanwhile: this log is attached to it, as its confirmation
    body = recorded.to_json()
    live.version += 1
    live.status, live.ended_at = LiveStatus.RECORDED, timezone.now()
    live.hand_id = Hand.objects.values_list("pk", flat=True).get(
        match_id=live.match_id, number=recorded.number
    )
    live.state = {**live.state, "version": live.version}
    live.save(update_fields=["version", "status", "hand", "ended_at", "state"])
    LiveEvent.objects.create(
        live=live,
        sequence=sequence,
        data=data,
        answer=body,
        status_code=200 if recorded.agreed else 201,
        idempotency_key=key or "",
        by=user,
    )
    publish(live.match_id, live.pk, {**live.state, "recorded": live.number})
    return Answer(200 if recorded.agreed else 201, body)  # the hand's ETag is the API's to give


@transaction.atomic
def live_undo(
    *,
    match_id: int,
    if_match: IfMatchTags,
    user: User | None = None,
    roles: frozenset[str] | None = None,
) -> LiveHand:
    """Undo the last accepted event: it stays in the log, marked undone. ``user`` and
    ``roles`` as for ``live_start``."""
    match = _lock(match_id, user, roles)
    live = LiveHand.objects.get(match=match, status=LiveStatus.PLAYING)
    _check_if_match(live, if_match)
    last = live.events.filter(undone=False).order_by("-sequence").first()
    if last is None:
        raise errors.NothingToUndo()
    last.undone = True
    last.save(update_fields=["undone"])
    live.version += 1
    live.state = _public(_replay(live, _players(_seats(match)), match), live.version)
    live.save(update_fields=["version", "state"])
    publish(match_id, live.pk, live.state)
    return live


@transaction.atomic
def live_abandon(
    *,
    match_id: int,
    if_match: IfMatchTags = None,
    user: User | None = None,
    roles: frozenset[str] | None = None,
) -> None:
    """Abandon the live hand in play: nothing is recorded, and the log stays in the database.
    ``user`` and ``roles`` as for ``live_start``."""
    match = _lock(match_id, user, roles)
    live = LiveHand.objects.get(match=match, status=LiveStatus.PLAYING)
    _check_if_match(live, if_match, required=False)
    live.status, live.ended_at = LiveStatus.ABANDONED, timezone.now()
    live.version += 1
    live.save(update_fields=["status", "ended_at", "version"])
    publish(match_id, live.pk, {**live.state, "version": live.version, "abandoned": True})


# --- telling the watchers ---------------------------------------------------------------


@lru_cache(maxsize=1)
def _redis(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def publish(match_id: int, live_id: int, state: Mapping[str, object]) -> None:
    """Send a new state of live hand ``live_id`` to the match's watchers on every app server,
    once the write commits.

    The message is ``{"live": live_id, "state": state}``: two writes commit in order, under the
    match's lock, but their messages can leave in the other order (one request slowed between
    its commit and its publish), so the stream passes on a state only when it is newer than the
    last it sent, by live hand then version (matches/api/live_stream.py).
    Without ``REDIS_URL`` there is no stream to feed (the stream answers 503). A Redis outage
    never fails the write: the watchers catch up from the next state, or a GET.
    """
    url = settings.REDIS_URL
    if not url:
        return
    message = json.dumps({"live": live_id, "state": state}, separators=(",", ":"))

    def send() -> None:
        try:
            _redis(url).publish(CHANNEL.format(match=match_id), message)
        except redis.RedisError:
            logger.warning("live state of match %s not published", match_id, exc_info=True)

    transaction.on_commit(send)
