"""The words the app's scripts show, translated when a page is rendered.

Templates translate the page itself; the scripts build rows from API answers and take their
words from this table, handed over with ``json_script`` (data, never executed, so the page's
Content-Security-Policy needs no inline script). Card names reuse the engine's vocabulary.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from scoring.cards import Rank, Suit
from scoring.violations import ENDING_LABELS, KIND_LABELS, RANK_NAMES, SUIT_PHRASES, WILD_PHRASE
from web import clubnight_labels
from web.entry_labels import entry_vocabulary
from web.plurals import plural_forms
from web.record_labels import record_vocabulary

# Sentences the scripts show, by key; i18n.js fills in their "%(name)s" placeholders.
SENTENCES: dict[str, Any] = {
    "loading": gettext_lazy("Loading…"),
    "offline": gettext_lazy("No connection. Showing what was loaded last."),
    "error": gettext_lazy("Something went wrong. Try again."),
    "not_found": gettext_lazy("Not found, or you are not a member of this club."),
    "no_clubs": gettext_lazy("You are not a member of any club yet."),
    "sign_in": gettext_lazy("Sign in"),
    # one sentence per role, so that each language writes the role as a sentence needs it
    "invited_owner": gettext_lazy("You are invited to join %(club)s as an owner."),
    "invited_scorekeeper": gettext_lazy("You are invited to join %(club)s as a scorekeeper."),
    "invited_viewer": gettext_lazy("You are invited to join %(club)s as a viewer."),
    "invited_as_player": gettext_lazy("You will be %(name)s on the club's roster."),
    "copied": gettext_lazy("Copied: paste it into a message."),
    "login_of": gettext_lazy("Login of %(name)s (this is me)"),
    "no_login": gettext_lazy("No login"),
    "linked": gettext_lazy("%(name)s is now %(user)s: they enter their own hand on their phone."),
    "unlinked": gettext_lazy("%(name)s has no login now."),
    "role_owner": gettext_lazy("Owner"),
    "role_scorekeeper": gettext_lazy("Scorekeeper"),
    "role_viewer": gettext_lazy("Viewer"),
    "your_role": gettext_lazy("Your role: %(role)s"),
    "no_live_matches": gettext_lazy("No match in progress."),
    "no_finished_matches": gettext_lazy("No finished match yet."),
    "no_players": gettext_lazy("No player yet."),
    "no_matches": gettext_lazy("No match yet."),
    "match": gettext_lazy("Match %(id)s"),
    "in_progress": gettext_lazy("In progress"),
    # a player's record counts the matches of the API's default game; its name from rulesets/
    "record_scope": gettext_lazy(
        "Over finished %(game)s matches: a match being played counts once it ends."
    ),
    "finished": gettext_lazy("Finished"),
    "won_by": gettext_lazy("Won by %(name)s"),
    "shared_victory": gettext_lazy("Shared victory: %(names)s"),
    "next_hand": gettext_lazy("Hand %(number)s: %(name)s deals"),
    "winner_total": gettext_lazy("%(name)s wins with %(total)s"),
    "shared_victory_total": gettext_lazy("Shared victory: %(names)s with %(total)s"),
    "deals_next": gettext_lazy("deals next"),
    "winner": gettext_lazy("winner"),
    "total": gettext_lazy("Total"),
    "total_colon": gettext_lazy("Total:"),
    "race_to": gettext_lazy("Race to %(target)s"),
    "hand_title": gettext_lazy("Hand %(number)s"),
    "went_out": gettext_lazy("%(name)s went out"),
    "dealt_by": gettext_lazy("dealt by %(name)s"),
    "hand_corrected": gettext_lazy("Corrected"),
    "hand_corrected_reason": gettext_lazy("Corrected: %(reason)s"),
    "earlier_versions": gettext_lazy("Earlier versions (%(count)s)"),
    "revision_recorded": gettext_lazy("Version %(n)s, recorded by %(by)s, %(when)s"),
    "revision_corrected": gettext_lazy("Version %(n)s, corrected by %(by)s, %(when)s"),
    "revision_reason": gettext_lazy("Reason: %(reason)s"),
    "no_hands": gettext_lazy("No hand recorded yet."),
    "result_no_melds": gettext_lazy("Melded nothing"),
    "held": gettext_lazy("Left in hand:"),
    "held_nothing": gettext_lazy("No card left in hand"),
    "net_total": gettext_lazy("%(net)s, total %(total)s"),
    "sum_melded": gettext_lazy("Melded"),
    "sum_penalty": gettext_lazy("Cards in hand"),
    "sum_bonus": gettext_lazy("Bonus for going out"),
    "sum_net": gettext_lazy("Net"),
    "wake_failed": gettext_lazy("This browser would not keep the screen on."),
    "move_up": gettext_lazy("Move %(name)s up"),
    "players_range": gettext_lazy("Choose %(min)s to %(max)s players."),
    "option_target": gettext_lazy("Target score"),
    "option_ace": gettext_lazy("Aces"),
    "option_ace_low": gettext_lazy("Low only (A 2 3)"),
    "option_ace_high_or_low": gettext_lazy("High or low (Q K A or A 2 3)"),
    "move_down": gettext_lazy("Move %(name)s down"),
    "deal_order": gettext_lazy("%(name)s deals first. Dealing order: %(order)s"),
    "name_required": gettext_lazy("Enter the new player's name."),
    # the page's own words for the API's generic field errors, by "field.code" (api.js sentenceOf)
    "name.blank": gettext_lazy("Enter a name."),
    "players.min_length": gettext_lazy("Choose the players first."),
    "username.blank": gettext_lazy("Choose a username."),
    "username.invalid": gettext_lazy("A username holds letters, digits and @ . + - _ only."),
    "password.blank": gettext_lazy("Choose a password."),
    "all_time": gettext_lazy("All time"),
    "no_standings": gettext_lazy("No finished match counts here yet."),
    "best_hand_value": gettext_lazy("%(net)s in hand %(number)s"),
    "won": gettext_lazy("Won"),
    "shared_win": gettext_lazy("Shared win"),
    "record_matches_played": gettext_lazy("Matches played"),
    "record_wins": gettext_lazy("Wins"),
    "record_shared_wins": gettext_lazy("Shared wins"),
    "record_victory_points": gettext_lazy("Victory points"),
    "record_hands_played": gettext_lazy("Hands played"),
    "record_went_out": gettext_lazy("Went out"),
    "record_average_net": gettext_lazy("Average net per hand"),
    "record_average_hand_penalty": gettext_lazy("Average points left in hand"),
    "record_best_hand": gettext_lazy("Best hand"),
    "record_wild_twos_melded": gettext_lazy("Twos melded as wild cards"),
    "record_queen_of_spades_held": gettext_lazy("Hands ended holding the queen of spades"),
}


# Sentences that change with a number, ``count`` (web.plurals).
PLURALS: dict[str, Any] = {
    "finished_after": ngettext_lazy(
        "Finished after %(count)s hand", "Finished after %(count)s hands", "count"
    ),
    "chart_title": ngettext_lazy(
        "Totals after %(count)s hand, racing to %(target)s: %(totals)s",
        "Totals after %(count)s hands, racing to %(target)s: %(totals)s",
        "count",
    ),
    "total_after": ngettext_lazy(
        "Total %(total)s after %(count)s hand", "Total %(total)s after %(count)s hands", "count"
    ),
}


def vocabulary() -> dict[str, Any]:
    """Every sentence, card word and meld label of the active language, for one page."""
    return {
        "sentences": {
            **{key: str(text) for key, text in SENTENCES.items()},
            **entry_vocabulary(),  # hand entry, corrections and the outbox
            **record_vocabulary(),  # several phones at a table, second entries
            **{key: str(text) for key, text in clubnight_labels.SENTENCES.items()},
            **{key: plural_forms(text) for key, text in PLURALS.items()},
            **{key: plural_forms(text) for key, text in clubnight_labels.PLURALS.items()},
        },
        "ranks": {rank.value: _(RANK_NAMES[rank]) for rank in Rank},
        "suits": {suit.value: _(SUIT_PHRASES[suit]) for suit in Suit},
        "wild": _(WILD_PHRASE),
        "kinds": {key: _(text) for key, text in KIND_LABELS.items()},
        "endings": {key: _(text) for key, text in ENDING_LABELS.items()},
    }
