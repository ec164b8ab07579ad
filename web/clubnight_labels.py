"""The words of the ratings, club night and room display scripts, translated per page."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy, ngettext_lazy

SENTENCES = {
    "no_rating": gettext_lazy("No rated match yet."),
    "ruleset_arlington": gettext_lazy("Arlington"),
    "ruleset_rummy": gettext_lazy("Rummy"),
    "round_title": gettext_lazy("Round %(number)s"),
    "no_round": gettext_lazy("No round drawn yet."),
    "no_tournaments": gettext_lazy("No club night yet."),
    "hands_played": gettext_lazy("Hands played: %(count)s"),
    "went_out_last": gettext_lazy("went out last hand"),
    "table_finished": gettext_lazy("Finished"),
    "table_playing": gettext_lazy("Playing"),
    "entrants": gettext_lazy("%(count)s players"),
    "updated_at": gettext_lazy("Updated %(time)s"),
    "name_night": gettext_lazy("Give the night a name."),
    "pick_players": gettext_lazy("Choose at least two players."),
    "nights_of": gettext_lazy("Club nights of %(club)s"),
    "results_of": gettext_lazy("Results of %(name)s, %(day)s"),
    "back_to_night": gettext_lazy("Back to %(name)s"),
    "night_no_players": gettext_lazy("The club has no players yet."),
    "night_add_players": gettext_lazy("Add them on the club's page."),
    "vp_points": gettext_lazy("%(vp)s VP · %(points)s points"),
    "round_playing": gettext_lazy(
        "Round %(number)s is still being played. Once every table has finished, draw the next "
        "round, and add or withdraw players."
    ),
    "round_undo_to_seat": gettext_lazy(
        "No hand has been played in this round yet: to seat someone who came late, undo "
        "round %(number)s, add them, and draw it again."
    ),
    "table_reopened": gettext_lazy(
        "%(table)s of round %(number)s is being played again: a hand was corrected there. "
        "Once it has finished, draw the next round, and add or withdraw players."
    ),
    "table_of_round": gettext_lazy("%(table)s, round %(number)s"),
    "undo_round": gettext_lazy("Undo round %(number)s"),
    "undo_round_confirm": gettext_lazy(
        "Undo round %(number)s? Its tables and their matches are deleted; you can draw it again."
    ),
    "round_undone": gettext_lazy("Round %(number)s is undone."),
    "results_provisional": gettext_lazy(
        "Not final: tables are still playing. Points as they stood at %(time)s."
    ),
    "round_undone_then_redrawn": gettext_lazy(
        "Round %(number)s is undone, and was drawn again on another phone at once: these are "
        "its new tables."
    ),
    "round_undone_elsewhere": gettext_lazy(
        "Round %(number)s was already undone, on another phone: the board is up to date now."
    ),
    "round_redrawn_elsewhere": gettext_lazy(
        "Round %(number)s was undone and drawn again on another phone: these are its new "
        "tables, and they are not undone."
    ),
    "withdraw": gettext_lazy("Withdraw"),
    "withdraw_player": gettext_lazy("Withdraw %(name)s"),
    "player_withdrawn": gettext_lazy("%(name)s is withdrawn."),
    "player_already_withdrawn": gettext_lazy(
        "%(name)s was already withdrawn, on another phone: the list is up to date now."
    ),
    "player_entered": gettext_lazy("%(name)s is entered."),
    "player_already_entered": gettext_lazy(
        "%(name)s was already entered, on another phone: the list is up to date now."
    ),
    "round_drawn_elsewhere": gettext_lazy(
        "Round %(number)s was just drawn on another phone: here it is."
    ),
    "seat_number": gettext_lazy("Seat %(number)s"),
    "deals_first": gettext_lazy("deals first"),
    "round_column": gettext_lazy("R%(number)s"),
    "withdrawn": gettext_lazy("withdrawn"),
    "no_cards": gettext_lazy("No round drawn yet: the cards come with the first draw."),
}

# Sentences that change with the number "count" (see web.labels.PLURALS).
PLURALS: dict[str, Any] = {
    "rating_chart_title": ngettext_lazy(
        "%(ruleset)s rating after %(count)s match: now %(rating)s",
        "%(ruleset)s rating after each of %(count)s matches: now %(rating)s",
        "count",
    ),
    "rating_now": ngettext_lazy(
        "%(ruleset)s: rating %(rating)s after %(count)s match",
        "%(ruleset)s: rating %(rating)s after %(count)s matches",
        "count",
    ),
    "round_drawn": ngettext_lazy(
        "Round %(number)s is drawn: %(count)s table.",
        "Round %(number)s is drawn: %(count)s tables.",
        "count",
    ),
}
