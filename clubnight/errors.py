"""What can go wrong with tournaments and public links, each with a stable code.

They are the matches app's errors (``MatchError``), so the API presents them the same way.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from matches.errors import MatchError

MESSAGES = {
    "too_few_entrants": _(
        "A tournament of {ruleset} needs at least {least} players; {count} given."
    ),
    "cannot_seat": _(
        "The entrants ({count}) cannot fill tables of {least} to {most} players: enter or "
        "withdraw a player."
    ),
    "player_not_entered": _("{player} is not entered in this tournament."),
    "entrant_seated_twice": _("{player} is seated at more than one table."),
    "entrant_not_seated": _("{player} is entered but seated at no table."),
    "table_size": _(
        "A table of {ruleset} seats {least} to {most} players; table {table} has {count}."
    ),
    "too_many_table_names": _(
        "{count} table names are given for {tables} tables: give at most one name a table."
    ),
    "table_named_twice": _(
        "Two tables are named {name}: give each table a name of its own, so that every player "
        "finds theirs."
    ),
    "match_not_in_club": _("Match {match} does not belong to this club."),
    "tournament_not_in_club": _("Tournament {tournament} does not belong to this club."),
}


class ClubnightError(MatchError):
    """A request about a tournament or a public link that cannot be carried out (400)."""

    def __init__(self, code: str, attr: str | None = None, **params: object) -> None:
        self.code = code
        super().__init__(attr, **params)

    @property
    def detail(self) -> str:
        return str(MESSAGES[self.code]).format(**self.params)


class RoundInProgress(MatchError):
    status = 409
    code = "round_in_progress"
    message = _(
        "Round {number} still has a match in progress, at {table}; players join or leave, and "
        "the next round is drawn, only once it is finished."
    )


class AlreadyEntered(MatchError):
    status = 409
    code = "already_entered"
    message = _("{player} is already entered in this tournament.")


class NotEntered(MatchError):
    """404: a player of the club's roster who is not entered (withdrawing them again, say)."""

    status = 404
    code = "player_not_entered"
    attr = "player"
    message = MESSAGES["player_not_entered"]


class AlreadyWithdrawn(MatchError):
    """404: an entrant withdrawn before, maybe from another phone a moment ago."""

    status = 404
    code = "already_withdrawn"
    attr = "player"
    message = _("{player} was already withdrawn from this tournament.")


class RoundHasHands(MatchError):
    status = 409
    code = "round_has_hands"
    message = _("Round {number} has hands recorded: it can no longer be undone.")


class RoundChanged(MatchError):
    """412: the round the request names (If-Match) is not the one under that number now."""

    status = 412
    code = "precondition_failed"
    message = _(
        "Round {number} was drawn again since you read it, at other tables: it is not undone. "
        "Read the round again before you undo it."
    )


class RoundTagUnknown(MatchError):
    """412: an If-Match that names no drawing of the round (mistyped, or another round's)."""

    status = 412
    code = "precondition_failed"
    message = _(
        "{tag} is not an ETag of round {number}: it is not undone. Send the ETag that reading "
        "the round answers."
    )


class RoundNotDrawn(MatchError):
    status = 404
    code = "not_found"
    message = _("There is no round {number}: it may have been undone on another phone.")


class NotLastRound(MatchError):
    status = 409
    code = "not_last_round"
    message = _("Only the last round ({last}) can be undone, not round {number}.")
