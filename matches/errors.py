"""What can go wrong when a club scores a match, as exceptions that carry a stable code.

Each has an HTTP status for the API's exception handler; the sentences are written here, once.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_lazy as _

from scoring import HandDifferences, Violation


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


# --- one played hand, one record -----------------------------------------------------------


class HandNumberNotNext(MatchError):
    status = 409
    code = "hand_number_not_next"
    attr = "number"
    message = _(
        "Hand {number} cannot be recorded: this match has {played} hands recorded, so the next "
        "is hand {next}."
    )


class LiveHandHoldsNumber(MatchError):
    """A whole-hand entry of the number a live hand in play will be recorded under."""

    status = 409
    code = "live_hand_in_progress"
    attr = "number"
    message = _(
        "Hand {number} is being played live at this table: it is recorded when its play "
        "finishes. Abandon the live hand first to enter it whole."
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
