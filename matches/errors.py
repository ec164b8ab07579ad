"""What can go wrong when a club scores a match, as exceptions that carry a stable code.

Each has an HTTP status for the API's exception handler; the sentences are written here, once.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_lazy as _

from scoring import Violation


class MatchError(Exception):
    """Base class: a stable ``code``, the ``status`` the API answers with, and a sentence."""

    status = 400
    code = "invalid"
    message = _("The request cannot be carried out.")
    attr: str | None = None

    def __init__(self, attr: str | None = None, **params: object) -> None:
        self.params = params
        if attr is not None:
            self.attr = attr
        super().__init__(self.detail)

    @property
    def detail(self) -> str:
        return str(self.message).format(**self.params)


class MatchFinished(MatchError):
    status = 409
    code = "match_finished"
    message = _("Match {match} is finished: no hand can be added.")


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


class StaleHand(MatchError):
    status = 412
    code = "precondition_failed"
    message = _(
        "Hand {number} has changed since you read it (it is now at version {version}); read "
        "it again and reapply your correction."
    )


class Stale(MatchError):
    status = 412
    code = "precondition_failed"
    message = _(
        "It has changed since you read it (its ETag is now {etag}); read it again and reapply "
        "your change."
    )


class InvalidIfMatch(MatchError):
    code = "invalid_if_match"
    attr = "If-Match"
    message = _(
        "If-Match takes ETags exactly as served, in double quotes and separated by commas, "
        'such as If-Match: "3"; or *.'
    )


class PreconditionRequired(MatchError):
    status = 428
    code = "precondition_required"
    message = _(
        "Send the If-Match header with the hand's ETag, so that a correction never "
        "overwrites one you have not seen."
    )


class InvalidIdempotencyKey(MatchError):
    code = "invalid_idempotency_key"
    message = _("An Idempotency-Key is 1 to {limit} printable ASCII characters.")


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
    "seat_count": _("A match seats 2 to 5 players; {count} given."),
    "seat_count_for_ruleset": _(
        "A match of {ruleset} seats {least} to {most} players; {count} given."
    ),
    "unknown_option": _("{option} is not an option of {ruleset}; its options are: {options}."),
    "duplicate_player": _("{player} is listed more than once."),
    "player_not_in_club": _("Player {player} is not on this club's roster."),
    "first_dealer_not_seated": _("The first dealer {player} is not seated at this match."),
    "season_not_in_club": _("Season {season} does not belong to this club."),
    "last_owner": _("A club keeps at least one owner."),
}


class HandRejected(MatchError):
    """A hand that breaks the rules: every violation, each with its code and path."""

    code = "hand_rejected"
    message = _("The hand breaks the rules.")

    def __init__(self, violations: Sequence[Violation]) -> None:
        self.violations = tuple(violations)
        super().__init__()
