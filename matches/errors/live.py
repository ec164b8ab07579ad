"""Errors of the live table and of a hand's shared draft."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_lazy as _

from matches.errors.base import MatchError
from scoring import Violation


class LiveHandInProgress(MatchError):
    status = 409
    code = "live_hand_in_progress"
    message = _("Hand {number} of this match is already being played live; abandon it first.")


class HandDraftInProgress(MatchError):
    status = 409
    code = "hand_draft_in_progress"
    attr = "number"
    message = _(
        "Hand {number} of this match is being entered on phones: record it, or throw its draft "
        "away, before playing it live."
    )


class LiveRulesetUnsupported(MatchError):
    status = 409
    code = "live_ruleset_unsupported"
    message = _(
        "This match is played by the rules of {ruleset}, which has no live play: enter its hands "
        "whole."
    )


class LiveHandOvertaken(MatchError):
    status = 409
    code = "live_hand_overtaken"
    message = _(
        "Hand {number} is being played live, but the match now has {recorded} hands recorded: "
        "abandon this live hand and start the next one."
    )


class PlayerNotSeated(MatchError):
    code = "player_not_seated"
    message = _("{player} is not seated at this match.")


class NothingToUndo(MatchError):
    status = 409
    code = "nothing_to_undo"
    message = _("No event of this live hand is left to undo.")


class EventRefused(MatchError):
    """An event the rules refuse: every violation, each with its code and path."""

    status = 409
    code = "event_refused"
    message = _("The event breaks the rules.")

    def __init__(self, violations: Sequence[Violation]) -> None:
        self.violations = tuple(violations)
        super().__init__()


class DraftPlayerNotSeated(PlayerNotSeated):
    """A draft's player part named in the URL for a player who is not seated: no such part."""

    status = 404
    code = "not_found"


class EndingNotInGame(MatchError):
    """A draft's ending that the match's game does not have (Rummy's stock never runs out)."""

    code = "invalid_choice"
    attr = "ending"
    message = _("In {ruleset}, a hand never ends this way: {ending}. It ends when: {endings}.")


class WentOutNotAllowed(MatchError):
    """A draft's ending that names who went out although nobody did (the stock ran out)."""

    code = "went_out_not_allowed"
    attr = "went_out"
    message = _("The stock ran out, so nobody went out; {player} cannot be named as going out.")


class NotOwnPart(MatchError):
    """403: a member who keeps no score writes a part of a draft that is not their own.

    ``what`` names the sentence: ``"player"`` (``own``, ``player``) or ``"unlinked"`` (their
    login is no seated player's). The ending is refused by the view, for the role, before.
    """

    status = 403
    code = "permission_denied"
    MESSAGES = {
        "player": _(
            "You may enter only your own part of the hand ({own}), not {player}'s: a "
            "scorekeeper enters the others."
        ),
        "unlinked": _(
            "Your login is no player's at this table, so you may enter no part of its hands: a "
            "scorekeeper enters them, or the club's owner links your login to your player."
        ),
    }

    def __init__(self, what: str, **params: object) -> None:
        self.what = what
        super().__init__(None, **params)

    @property
    def detail(self) -> str:
        return str(self.MESSAGES[self.what]).format(**self.params)


class DraftChanged(MatchError):
    """409: the part of a draft a phone writes has changed since it read it.

    ``what`` names the part: ``"ending"`` or ``"player"`` (``player``, their name); ``draft``
    is the draft as it now stands, given in the answer beside the envelope.
    """

    status = 409
    code = "draft_changed"

    def __init__(self, what: str, *, draft: dict[str, object], **params: object) -> None:
        self.what = what
        self.draft = draft
        super().__init__(None, **params)

    @property
    def detail(self) -> str:
        return str(DRAFT_CHANGED_MESSAGES[self.what]).format(**self.params)


DRAFT_CHANGED_MESSAGES = {
    "ending": _(
        "This part of the draft has changed since the version you sent: the ending of hand "
        "{number} (now at version {version}). Read the draft again and reapply your change."
    ),
    "player": _(
        "This part of the draft has changed since the version you sent: {player}'s cards in "
        "hand {number} (now at version {version}). Read the draft again and reapply your "
        "change."
    ),
    "unwritten": _(
        "{player}'s cards in hand {number} have not been written yet, so there is no version "
        "to offer another one beside. Write the part itself instead."
    ),
}
