"""Every domain error of the service, in one home: what can go wrong, with its stable code.

Each error (``MatchError`` and its subclasses) carries a stable code, the HTTP status the API
answers with and a sentence, written here once; services raise them. How the API presents
them is ``matches.api.errors``. The live table's errors live in ``matches.errors.live`` and
the invitations' in ``matches.errors.invitations``; every error is importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_lazy as _

from matches.errors.base import MatchError
from matches.errors.invitations import (
    AlreadyAMember,
    ExpiresInPast,
    InvitationExpired,
    InvitationGone,
    InvitationRevoked,
    InvitationUsedUp,
    UsernameTaken,
)
from matches.errors.live import (
    DraftChanged,
    DraftPlayerNotSeated,
    EndingNotInGame,
    EventRefused,
    HandDraftInProgress,
    LiveHandInProgress,
    LiveHandOvertaken,
    LiveRulesetUnsupported,
    NothingToUndo,
    NotOwnPart,
    PlayerNotSeated,
    WentOutNotAllowed,
)
from scoring import HandDifferences, Violation


class NotAllowed(MatchError):
    """The requester's role does not allow this, as a service found it under its lock.

    Answered as DRF's own 403 (``permission_denied``, with DRF's sentence), like the same
    refusal made by a view before the lock.
    """

    status = 403
    code = "permission_denied"


class MatchFinished(MatchError):
    status = 409
    code = "match_finished"
    message = _("Match {match} is finished: no hand can be added.")


class GameNotInstalled(MatchError):
    status = 409
    code = "game_not_installed"
    message = _(
        "No game named {game} is installed on this server: a match of it can be read, but no "
        "hand of it can be entered, corrected or ruled until the game is installed again."
    )


class CorrectionEndsMatchEarly(MatchError):
    status = 409
    code = "correction_ends_match_early"
    message = _(
        "This correction would end the match after hand {number}, before its last recorded "
        "hand {last}; void the later hands first."
    )


class NoSuchHand(MatchError):
    """A hand the request named is gone: voided since the requester saw it."""

    status = 404
    code = "not_found"
    message = _("Hand {number} does not exist; it may just have been voided.")


class NoSuchMatch(MatchError):
    """The match a request named is gone: deleted (its club night's round undone) meanwhile."""

    status = 404
    code = "not_found"
    message = _("Match {match} does not exist; it may just have been deleted.")


class NotLastHand(MatchError):
    status = 409
    code = "not_last_hand"
    message = _("Only the last hand ({last}) can be voided, not hand {number}.")


class IdempotencyKeyInProgress(MatchError):
    status = 409
    code = "idempotency_key_in_progress"
    message = _(
        "A request with this Idempotency-Key is still being recorded; retry in a moment to "
        "receive its answer."
    )
    retry_after = 1  # the request ahead of it is recording one hand: done within moments


class PreconditionFailed(MatchError):
    """412: what the request names (If-Match) has changed since it was read.

    ``what`` names the sentence: ``"hand"`` (``number``, ``version``), ``"object"`` (``etag``)
    or ``"live"`` (``version``).
    """

    status = 412
    code = "precondition_failed"

    def __init__(self, what: str, **params: object) -> None:
        self.what = what
        super().__init__(None, **params)

    @property
    def detail(self) -> str:
        return str(STALE_MESSAGES[self.what]).format(**self.params)


STALE_MESSAGES = {
    "hand": _(
        "Hand {number} is at version {version}, not the version your If-Match names: it has "
        "changed since you read it. Read it again before you change it."
    ),
    "object": _(
        "It has changed since you read it (its ETag is now {etag}); read it again and reapply "
        "your change."
    ),
    "live": _(
        "The live hand has changed since you read it (it is now at version {version}); read "
        "it again before adding an event."
    ),
}


class InvalidIfMatch(MatchError):
    code = "invalid_if_match"
    attr = "If-Match"
    message = _(
        "If-Match takes ETags exactly as served, in double quotes and separated by commas, "
        'such as If-Match: "3"; or *.'
    )


class PreconditionRequired(MatchError):
    """428: a change that must name the ETag it was made from (``what``: ``"hand"``, ``"live"``)."""

    status = 428
    code = "precondition_required"

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__()

    @property
    def detail(self) -> str:
        return str(REQUIRED_MESSAGES[self.what])


REQUIRED_MESSAGES = {
    "hand": _(
        "Send the If-Match header with the hand's ETag, so that a correction never "
        "overwrites one you have not seen."
    ),
    "live": _(
        "Send the If-Match header with the live hand's ETag, so that two devices at one table "
        "never add events the other has not seen."
    ),
}


class InvalidIfNoneMatch(MatchError):
    code = "invalid_if_none_match"
    attr = "If-None-Match"
    message = _(
        "If-None-Match takes ETags exactly as served, in double quotes and separated by commas, "
        'such as If-None-Match: "4.2"; or *.'
    )


class IdempotencyKeyReused(MatchError):
    status = 422
    code = "idempotency_key_reused"
    message = _("This Idempotency-Key was already used with a different request body.")


class InvalidSetup(MatchError):
    """A match, member or player request that names the wrong people or things."""

    def __init__(
        self, code: str, attr: str | None = None, *, sentence: str | None = None, **params: object
    ) -> None:
        self.code = code
        self.sentence = sentence or code
        super().__init__(attr, **params)

    @property
    def detail(self) -> str:
        return str(SETUP_MESSAGES[self.sentence]).format(**self.params)


SETUP_MESSAGES = {
    "unknown_club": _("Club {club} does not exist or you are not a member."),
    "seat_count_for_ruleset": _(
        "A match of {ruleset} seats {least} to {most} players; {count} given."
    ),
    "unknown_option": _("{option} is not an option of {ruleset}; its options are: {options}."),
    "unknown_option_none": _("{option} is not an option of {ruleset}, which has none."),
    "unknown_flag": _("{flag} is not a flag of {ruleset} hands; their flags are: {flags}."),
    "unknown_flag_none": _("{flag} is not a flag of {ruleset} hands, which have none."),
    "duplicate_player": _("{player} is listed more than once."),
    "player_not_in_club": _("Player {player} is not on this club's roster."),
    "first_dealer_not_seated": _("The first dealer {player} is not seated at this match."),
    "season_not_in_club": _("Season {season} does not belong to this club."),
    "last_owner": _("A club keeps at least one owner."),
    "player_has_login": _(
        "{player} already has a login: an invitation for them would link nobody. Invite the "
        "login by its username instead, or take it off the player first."
    ),
}


class HandRejected(MatchError):
    """A hand that breaks the rules: every violation, each with its code and path."""

    code = "hand_rejected"
    message = _("The hand breaks the rules.")

    def __init__(self, violations: Sequence[Violation]) -> None:
        self.violations = tuple(violations)
        super().__init__()


# --- one played hand, one record -----------------------------------------------------------


class HandNumberNotNext(MatchError):
    status = 409
    code = "hand_number_not_next"
    attr = "number"
    message = _(
        "Hand {number} cannot be recorded: this match has {played} hands recorded, so the next "
        "is hand {next}."
    )


class DraftNumberNotNext(HandNumberNotNext):
    """A draft read or written for another hand than the match's next: the number is the URL's,
    and nothing is being recorded."""

    message = _(
        "Hand {number} is not the hand being entered: this match has {played} hands recorded, "
        "so its draft is hand {next}'s."
    )


class ConfirmationByRecorder(MatchError):
    status = 409
    code = "confirmation_by_recorder"
    message = _(
        "You entered this version of hand {number}: another member of the club confirms it."
    )


DIFFERENCE_SENTENCES = {
    "melds_only_recorded": _("{player} melded {cards} in the recorded hand, not in yours"),
    "melds_only_submitted": _("{player} melded {cards} in yours, not in the recorded hand"),
    "held_only_recorded": _("{player} held {cards} in the recorded hand, not in yours"),
    "held_only_submitted": _("{player} held {cards} in yours, not in the recorded hand"),
    "went_out_recorded": _("{player} went out in the recorded hand, not in yours"),
    "went_out_submitted": _("{player} went out in yours, not in the recorded hand"),
    "ending": _("the recorded hand ended {recorded}, yours {submitted}"),
    "flag": _("the recorded hand and yours disagree on {flag}"),
}


class HandAlreadyRecorded(MatchError):
    """A hand number already recorded, with a different hand: both, and what differs.

    ``recorded`` is the hand as recorded (``hands.RecordedHand``); ``differences`` the
    engine's comparison (``scoring.HandDifferences``) with players as ids; ``names`` the
    seated players' names by id, for the sentence.
    """

    status = 409
    code = "hand_already_recorded"
    attr = "number"
    message = _("Hand {number} is already recorded, and your entry differs: {differences}.")

    def __init__(
        self, *, number: int, recorded: object, differences: HandDifferences, names: dict[int, str]
    ) -> None:
        self.recorded = recorded
        self.differences = differences
        self.names = names
        super().__init__(number=number, differences="")

    @property
    def detail(self) -> str:
        return str(self.message).format(
            number=self.params["number"], differences="; ".join(self.sentences())
        )

    def sentences(self) -> list[str]:
        """Each difference as a sentence, naming the player and the cards."""
        found = self.differences
        said: list[str] = []
        if found.ending is not None:
            said.append(
                str(DIFFERENCE_SENTENCES["ending"]).format(
                    recorded=found.ending[0], submitted=found.ending[1]
                )
            )
        for flag in found.flags:
            said.append(str(DIFFERENCE_SENTENCES["flag"]).format(flag=flag.name))
        for player in found.players:
            name = self.names.get(player.player, str(player.player))  # type: ignore[call-overload]
            for key in ("melds_only_recorded", "melds_only_submitted"):
                melds = getattr(player, key)
                if melds:
                    cards = " / ".join(" ".join(c.code for c in meld) for meld in melds)
                    said.append(str(DIFFERENCE_SENTENCES[key]).format(player=name, cards=cards))
            for key in ("held_only_recorded", "held_only_submitted"):
                held = getattr(player, key)
                if held:
                    cards = " ".join(c.code for c in held)
                    said.append(str(DIFFERENCE_SENTENCES[key]).format(player=name, cards=cards))
            if player.went_out is not None:
                key = "went_out_recorded" if player.went_out[0] else "went_out_submitted"
                said.append(str(DIFFERENCE_SENTENCES[key]).format(player=name))
        return said


__all__ = [
    "AlreadyAMember",
    "ConfirmationByRecorder",
    "CorrectionEndsMatchEarly",
    "DraftChanged",
    "DraftPlayerNotSeated",
    "EndingNotInGame",
    "EventRefused",
    "ExpiresInPast",
    "HandAlreadyRecorded",
    "HandDraftInProgress",
    "HandNumberNotNext",
    "DraftNumberNotNext",
    "HandRejected",
    "IdempotencyKeyInProgress",
    "IdempotencyKeyReused",
    "InvalidIfMatch",
    "InvalidIfNoneMatch",
    "InvalidSetup",
    "InvitationExpired",
    "InvitationGone",
    "InvitationRevoked",
    "InvitationUsedUp",
    "LiveHandInProgress",
    "LiveHandOvertaken",
    "LiveRulesetUnsupported",
    "MatchError",
    "MatchFinished",
    "NoSuchHand",
    "NoSuchMatch",
    "NotAllowed",
    "NotLastHand",
    "NotOwnPart",
    "NothingToUndo",
    "PlayerNotSeated",
    "PreconditionFailed",
    "PreconditionRequired",
    "UsernameTaken",
    "WentOutNotAllowed",
]
