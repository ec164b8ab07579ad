"""Drafts of a match's next hand: one hand entered by several phones before one records it.

A draft is a set of parts: the ending (how the hand ended, who went out, its flags) and one
part per seated player (their melds and the cards left in their hand). Each part has its own
version, so that phones entering different players never conflict, and a phone writes a part
only from the version it last saw (compare-and-set), so that two phones entering the same part
never lose an update silently. A draft is unfinished work: its melds are not ruled on, only
kept as read from notation; the hand is ruled when it is recorded (``hand_record``,
which empties its draft: ``HandDraftPart.set_aside``).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from matches import errors, locking
from matches.models import HandDraftPart, MatchStatus, Player
from matches.services import hands as hand_services
from scoring import Ending, rulesets
from scoring.violations import label


@dataclass(frozen=True)
class DraftPart:
    """One part of a draft as it stands: what it says, its version, and who wrote it last."""

    player: int | None
    data: Mapping[str, Any]
    version: int
    by: str | None
    device: str
    at: datetime.datetime
    contest: Mapping[str, Any] | None = None
    declined: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        stamp = {"version": self.version, "by": self.by, "device": self.device, "at": self.at}
        if self.player is None:
            return {**self.data, **stamp}
        offers = {"contest": self.contest, "declined": self.declined}
        return {"player": self.player, **self.data, **stamp, **offers}


@dataclass(frozen=True)
class Draft:
    """A draft of hand ``number``: its ending part, if written, and its players' parts in seat
    order."""

    number: int
    ending: DraftPart | None
    players: tuple[DraftPart, ...]
    # The sum of every part's version, discarded parts included: each write and each discard
    # moves it on, so it tells two drafts apart that read alike (empty before anything was
    # written, and empty again after a discard).
    revision: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "ending": None if self.ending is None else self.ending.to_json(),
            "players": [part.to_json() for part in self.players],
        }


def _check_number(match: locking.LockedMatch, number: int) -> None:
    """A draft is of the match's next hand only: a finished match has none to come."""
    if match.status == MatchStatus.FINISHED:
        raise errors.MatchFinished(match=match.id)
    following = match.hands_played + 1
    if number != following:
        raise errors.DraftNumberNotNext(number=number, played=match.hands_played, next=following)


def _draft(match: locking.LockedMatch, number: int) -> Draft:
    columns = ("player_id", "data", "version", "by__username", "device", "updated_at")
    rows = HandDraftPart.objects.filter(match_id=match.id, number=number).values_list(
        *columns, "contest", "declined"
    )
    parts = [DraftPart(*row) for row in rows if row[1]]  # a discarded part is kept empty
    positions = {seat.player: seat.position for seat in match.seats}
    return Draft(
        number=number,
        revision=sum(row[2] for row in rows),
        ending=next((part for part in parts if part.player is None), None),
        players=tuple(
            sorted(
                (part for part in parts if part.player is not None),
                key=lambda part: positions.get(part.player, len(positions)),  # type: ignore[arg-type]
            )
        ),
    )


def draft_of(*, match_id: int, number: int) -> Draft:
    """The draft of hand ``number`` of a match; empty if nobody has written any of it.

    Raises ``errors.MatchFinished`` and ``errors.HandNumberNotNext`` (the hand was recorded
    meanwhile, maybe from another phone), and ``errors.NoSuchMatch``.
    """
    match = locking.read_match(match_id)
    _check_number(match, number)
    return _draft(match, number)


def _ending_data(
    match: locking.LockedMatch, names: Mapping[int, str], data: Mapping[str, Any]
) -> dict[str, Any]:
    """The ending part as kept: an ending of the match's game, a seated player or none, and the
    game's flags that were given."""
    rules = rulesets.ruleset(match.ruleset)
    ending = str(data["ending"])
    if ending not in [str(e) for e in rules.endings]:
        raise errors.EndingNotInGame(
            ruleset=gettext(rules.label),
            ending=label(ending, gettext),
            endings="; ".join(label(str(e), gettext) for e in rules.endings),
        )
    went_out = data.get("went_out")
    if went_out is not None and went_out not in names:
        raise errors.PlayerNotSeated(
            attr="went_out", player=hand_services.unseated_name(went_out, match.club)
        )
    if went_out is not None and ending != str(Ending.WENT_OUT):
        raise errors.WentOutNotAllowed(player=names[went_out])  # it could never be recorded
    known = {flag.name for flag in rules.flags}
    flags = {name: bool(value) for name, value in data.get("flags", {}).items() if name in known}
    return {"ending": ending, "went_out": went_out, "flags": flags}


@transaction.atomic
def draft_part_save(
    *,
    match_id: int,
    number: int,
    player_id: int | None,
    data: Mapping[str, Any],
    expected_version: int,
    user: User,
    device: str = "",
    part_roles: frozenset[str] | None = None,
) -> Draft:
    """Write one part of the draft of hand ``number``: the ending (``player_id`` None) or a
    seated player's cards; return the whole draft.

    ``data`` is the part already read from notation: ``{"ending", "went_out", "flags"}`` or
    ``{"melds", "hand"}`` in canonical codes. ``expected_version`` is the part's version the
    writer last saw (0 for a part it has not seen written); the part moves to the next version.
    The match is locked as recording a hand locks it, so a part is never written after its
    hand was recorded, and of two writers from the same version exactly one succeeds.
    ``part_roles``: the roles that write any part, the ending included. ``user``'s role is read
    under the match's lock: with another role (a viewer) ``user`` writes only the part of a
    seated player whose login they are, never another's nor the ending; one no longer a member
    (removed while the request waited) writes nothing. None: any part, nobody checked (the
    demo, the tests).

    Raises, writing nothing: ``errors.DraftChanged`` (with the draft as it stands),
    ``errors.MatchFinished``, ``errors.HandNumberNotNext``, ``errors.LiveHandInProgress``,
    ``errors.DraftPlayerNotSeated`` (404), ``errors.EndingNotInGame`` and
    ``errors.PlayerNotSeated`` (a ``went_out`` not seated), ``errors.NotOwnPart`` (a part not
    the user's own, named) and ``errors.NotAllowed``.
    """
    match, names = _writable(match_id, number, player_id, user, part_roles)
    kept = (
        _ending_data(match, names, data)
        if player_id is None
        else {"melds": list(data["melds"]), "hand": list(data["hand"])}
    )
    parts = HandDraftPart.objects.filter(match_id=match_id, number=number)
    current = (
        parts.filter(player__isnull=True)
        if player_id is None
        else parts.filter(player_id=player_id)
    ).first()
    # A discarded part (``draft_discard``) reads as never written, version 0, but keeps its
    # version so that a phone still holding the version it saw before the discard is refused.
    version = 0 if current is None or not current.data else current.version
    if expected_version != version:
        _changed(match, number, player_id, names, version)
    if current is None:
        HandDraftPart.objects.create(
            match_id=match_id, number=number, player_id=player_id, data=kept, by=user, device=device
        )
    else:  # the write settles a choice another phone offered beside the part: it is made
        following = current.version + 1
        current.data, current.version, current.by, current.device = kept, following, user, device
        current.contest = None
        current.save(update_fields=["data", "version", "by", "device", "contest", "updated_at"])
    return _draft(match, number)


def _changed(
    match: locking.LockedMatch,
    number: int,
    player_id: int | None,
    names: Mapping[int, str],
    version: int,
) -> None:
    """Refuse a write from a version the part has left, with the draft as it now stands."""
    draft = _draft(match, number).to_json()
    if player_id is None:
        raise errors.DraftChanged("ending", draft=draft, number=number, version=version)
    raise errors.DraftChanged(
        "player", draft=draft, number=number, version=version, player=names[player_id]
    )


def _writable(
    match_id: int,
    number: int,
    player_id: int | None,
    user: User,
    part_roles: frozenset[str] | None,
) -> tuple[locking.LockedMatch, dict[int, str]]:
    """The match, locked, and its seated players' names, once ``user`` may write the part
    (``part_roles`` as for ``draft_part_save``).

    Raises ``errors.MatchFinished``, ``errors.HandNumberNotNext``,
    ``errors.LiveHandInProgress``, ``errors.DraftPlayerNotSeated``, ``errors.NotOwnPart`` and
    ``errors.NotAllowed``.
    """
    match = locking.lock_match(match_id, user.pk)
    if part_roles is not None and match.role is None:
        raise errors.NotAllowed()  # removed from the club while the request waited
    any_part = part_roles is None or match.role in part_roles
    _check_number(match, number)
    if match.live_number == number:
        raise errors.LiveHandInProgress(attr="number", number=number)
    names = {seat.player: seat.name for seat in match.seats}
    if player_id is not None and player_id not in names:
        raise errors.DraftPlayerNotSeated(player=hand_services.unseated_name(player_id, match.club))
    if not any_part:
        linked = set(Player.objects.filter(pk__in=names, user=user).values_list("pk", flat=True))
        own = ", ".join(names[p] for p in names if p in linked)  # in seat order
        if player_id is None:
            raise errors.NotAllowed()  # the ending: the view refuses it for the role first
        if not own:
            raise errors.NotOwnPart("unlinked")
        if player_id not in linked:
            raise errors.NotOwnPart("player", own=own, player=names[player_id])
    return match, names


@transaction.atomic
def draft_part_contest(
    *,
    match_id: int,
    number: int,
    player_id: int,
    data: Mapping[str, Any],
    expected_version: int,
    user: User,
    device: str = "",
    part_roles: frozenset[str] | None = None,
) -> Draft:
    """Offer a different version of a player's cards beside their part, for a choice.

    A phone whose cards for a player differ from the part another phone wrote (each holds a
    card the other has not) sends its own version here rather than over the part: the part
    stays as written, and every phone reading the draft sees both (``contest``), so that the
    choice can be made on either. ``expected_version`` is the part's version the phone's cards
    differ from; a newer contest replaces an older one. A version with the same cards as the
    part, in whatever order, is no choice: it is not kept, and it withdraws the contest this
    same phone (user and device) offered before, which the phone no longer holds. A write of
    the part (``draft_part_save``: one version kept, or a third) settles it, and so does
    ``draft_contest_drop``.

    Raises, writing nothing: as ``draft_part_save``, and ``errors.DraftChanged`` when the part
    is not at ``expected_version`` (or not written at all: there is nothing to differ from).
    """
    match, names = _writable(match_id, number, player_id, user, part_roles)
    current = HandDraftPart.objects.filter(
        match_id=match_id, number=number, player_id=player_id
    ).first()
    version = 0 if current is None or not current.data else current.version
    if current is None or version == 0:
        draft = _draft(match, number).to_json()
        raise errors.DraftChanged(
            "unwritten", draft=draft, number=number, version=0, player=names[player_id]
        )
    if expected_version != version:
        _changed(match, number, player_id, names, version)
    if _same_cards(current.data, data):  # no choice to make: the part already holds them
        offered = current.contest or {}
        if (offered.get("by"), offered.get("device")) == (user.get_username(), device):
            current.contest = None  # this phone's earlier offer: it now agrees with the part
            current.save(update_fields=["contest"])
        return _draft(match, number)
    current.contest = {
        "melds": list(data["melds"]),
        "hand": list(data["hand"]),
        "by": user.get_username(),
        "device": device,
        "version": version,
    }
    current.save(update_fields=["contest"])  # the part's `at` stays when it was written
    return _draft(match, number)


def _same_cards(part: Mapping[str, Any], offered: Mapping[str, Any]) -> bool:
    """Whether two versions of a player's cards hold the same melds and the same cards in
    hand, in whatever order they were tapped."""

    def melds(cards: Mapping[str, Any]) -> Counter[tuple[str, ...]]:
        return Counter(tuple(sorted(meld)) for meld in cards.get("melds", []))

    same_hand = Counter(part.get("hand", [])) == Counter(offered.get("hand", []))
    return same_hand and melds(part) == melds(offered)


@transaction.atomic
def draft_contest_drop(
    *,
    match_id: int,
    number: int,
    player_id: int,
    user: User,
    device: str = "",
    expected_version: int | None = None,
    part_roles: frozenset[str] | None = None,
) -> Draft:
    """Keep a player's part as written over the version offered beside it (the choice made on
    either phone): the offer is withdrawn and the part moves to its next version, its cards,
    ``by``, ``device`` and ``at`` as they were, with a record of the choice (``declined``: the
    version kept, who kept it and from which device). A write of the part from the version
    kept, racing the choice, is then refused (``errors.DraftChanged``), so that of two phones
    choosing at once exactly one choice counts; and the phone that offered the other version
    learns that it was declined however far the part has moved on since. Withdrawing a contest
    that is no longer there changes nothing.

    ``expected_version``: the part's version the choice was made on; None, not checked.
    Raises ``errors.DraftChanged`` (with the draft as it stands) when the part has left it,
    and as ``draft_part_save`` does for who may write the part.
    """
    match, names = _writable(match_id, number, player_id, user, part_roles)
    current = HandDraftPart.objects.filter(
        match_id=match_id, number=number, player_id=player_id
    ).first()
    version = 0 if current is None or not current.data else current.version
    if expected_version is not None and expected_version != version:
        _changed(match, number, player_id, names, version)
    if current is not None and current.contest is not None:
        current.declined = {"version": version, "by": user.get_username(), "device": device}
        current.contest, current.version = None, version + 1
        # the part's `at` stays when its cards were written
        current.save(update_fields=["contest", "declined", "version"])
    return _draft(match, number)


@transaction.atomic
def draft_discard(
    *,
    match_id: int,
    number: int,
    user: User,
    device: str = "",
    roles: frozenset[str] | None = None,
) -> None:
    """Throw away the draft of hand ``number``: its ending and every player's part.

    Every part then reads as never written (version 0), and the next write of a part starts
    from 0. Its row stays, emptied, with its version moved on, so that a phone that writes from
    a version it saw before the discard is refused (``errors.DraftChanged``, with the empty
    draft) instead of bringing the thrown-away cards back. The match is locked as for a part's
    write, so a part written at the same moment is either discarded with the rest or written
    after the discard, on the empty draft.

    Raises, changing nothing: ``errors.MatchFinished``, ``errors.HandNumberNotNext`` and
    ``errors.LiveHandInProgress`` (the hand is being played live: it has no draft to throw away,
    and a phone that asks is told why, as for a part's write), and ``errors.NotAllowed`` when
    ``user``'s role, read under the match's lock, is not one of ``roles`` (None: nobody is
    checked).
    """
    match = locking.lock_match(match_id, user.pk)
    locking.check_role(match.role, roles)
    _check_number(match, number)
    if match.live_number == number:
        raise errors.LiveHandInProgress(attr="number", number=number)
    HandDraftPart.objects.filter(match_id=match_id, number=number).update(
        data={},
        version=F("version") + 1,
        by=user,
        device=device,
        contest=None,
        declined=None,
        updated_at=timezone.now(),
    )
