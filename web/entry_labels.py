"""The words of the hand entry screen, the corrections and the outbox, for their scripts.

Handed to the page with ``json_script`` beside the app's vocabulary (data, never executed).
"%(name)s" placeholders are filled in by the scripts.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from web.plurals import plural_forms

ENTRY_SENTENCES: dict[str, Any] = {
    "suit_S": _("spades"),
    "suit_H": _("hearts"),
    "suit_D": _("diamonds"),
    "suit_C": _("clubs"),
    "meld_n": _("Meld %(n)s"),
    "in_hand": _("Left in hand"),
    "in_hand_label": _("Left in hand:"),
    "new_meld": _("New meld"),
    "remove_card": _("Remove %(card)s"),
    "remove_meld": _("Remove meld %(n)s"),
    "choose_two": _("What does %(card)s stand for?"),
    "two_itself": _("Itself"),
    "suggested": _("Suggested"),
    "any_card": _("Any card"),
    "did_you_mean": _("Did you mean %(meld)s?"),
    "left_of": _("%(count)s left"),
    "none_left": _("None left of %(card)s: two packs hold two of each."),
    "adding_to": _("Tap cards to add them to: %(group)s"),
    "type_cards": _("Or type cards"),
    "type_hint": _("For example 10H QS 2D=QS"),
    "add": _("Add"),
    "melded": _("Melded"),
    "penalty": _("In hand"),
    "bonus": _("Bonus"),
    "net": _("Net"),
    "checking": _("Checking…"),
    "preview_offline": _("No connection: the score will be checked when the hand is sent."),
    "valid_hand": _("This hand can be recorded."),
    "problems": _("There is a problem"),
    "problem_count": _("Problems to fix before recording: %(count)s"),
    "record": _("Record hand"),
    "save_correction": _("Save correction"),
    "reason": _("Reason for the correction (optional)"),
    "recording": _("Recording…"),
    "recorded": _("Hand %(n)s recorded."),
    "corrected": _("Hand %(n)s corrected."),
    "unchanged": _("Hand %(n)s is unchanged: it already held these cards."),
    "queued": _("No connection: the hand is waiting and will be sent when the connection returns."),
    "match_gone": _(
        "Nothing was recorded: this match is no longer there. The director may have taken "
        "its round back, or you are no longer a member of the club."
    ),
    "to_club": _("Back to the club"),
    "stale_title": _("Someone corrected this hand while you were editing it"),
    "stale_yours": _("Your edit"),
    "stale_theirs": _("Now recorded (version %(version)s, by %(by)s)"),
    "stale_hint": _("Cards that differ between the two versions are highlighted."),
    "stale_apply": _("Save my edit over it"),
    "stale_restart": _("Redo my edit on the newer version"),
    "stale_drop": _("Drop my edit"),
    "went_out_label": _("%(name)s went out"),
    "stock_ran_out": _("The stock ran out"),
    "how_ended": _("How did the hand end?"),
    "no_melds": _("No melds"),
    "nothing_held": _("Nothing held"),
    "outbox_title": _("Hands not recorded yet"),
    "outbox_waiting": _("Hand for %(table)s, entered %(when)s: waiting for the connection."),
    "outbox_refused": _("Hand entered %(when)s was refused:"),
    "outbox_edit": _("Edit and send again"),
    "outbox_discard": _("Discard this hand"),
    "outbox_discard_confirm": _("Discard this hand for good? It was never recorded."),
    "outbox_sent": _("A hand that waited for the connection was recorded as hand %(n)s."),
    "send_now": _("Send now"),
    "correct": _("Correct"),
    "correct_hand": _("Correct hand %(n)s"),
    "void": _("Void"),
    "void_hand": _("Void hand %(n)s"),
    "void_confirm": _("Void hand %(n)s? The totals go back to what they were before it."),
    "void_reason": _("Reason (optional)"),
    "void_yes": _("Void the hand"),
    "cancel": _("Cancel"),
    "voided": _("Hand %(n)s voided."),
    "sign_in_again": _("Your session has ended: sign in again to send the waiting hand."),
    "edit_hand": _("Correct hand %(n)s"),
    "new_hand": _("Hand %(n)s"),
    "dealer": _("Dealer: %(name)s"),
    "player_problem": _("%(name)s: check this player"),
    "close": _("Close"),
    "players": _("Players"),
    "next_player": _("Next player"),
    "added": _("Added to %(group)s: %(card)s"),
    "back_to_match": _("Back to the match"),
    "entry_viewer": _("Your role in this club lets you follow its matches, not record hands."),
    "offers": _("Whole melds"),
    "offer": _("Whole meld: %(cards)s"),
    "offer_gap": _("A two for %(card)s: %(cards)s"),
    "gap_two": _("Which two stands for %(card)s?"),
    "the_rest": _("The rest of the cards"),
    "top_discard": _("Which card was left on the discard pile?"),
    "no_top_discard": _("None: all %(count)s cards are on the table"),
    "review_title": _("Check the hand before recording it"),
    "review_fix": _("Fix %(name)s"),
    "review_fix_short": _("Fix"),
    "review_melds": _("Melds of %(name)s"),
    "review_back": _("Back to the cards"),
    "share_on": _("Shared with the other phones at this table."),
    "share_sending": _("Sharing with the other phones at this table…"),
    "share_offline": _("No connection: this entry stays on this phone until it returns."),
    "share_offline_own": _(
        "No connection: your taps stay on this phone and reach the scorekeeper's when it returns."
    ),
    "type_offline": _(
        "Typed cards are read by the server, which cannot be reached: tap the cards instead."
    ),
    "share_recorded": _("Hand %(n)s was recorded on another phone."),
    "share_restarted": _(
        "Hand %(n)s was started again on another phone: what was entered for it is cleared."
    ),
    "share_recorded_unsent": _(
        "Hand %(n)s was recorded on another phone before your last changes reached it."
    ),
    "share_recorded_unsent_own": _(
        "Hand %(n)s was recorded on another phone before your last changes reached it: show "
        "them to the scorekeeper, who can correct the hand."
    ),
    "share_compare": _("Compare with the recorded hand"),
    "share_drop": _("Drop my changes"),
    "share_waiting": _("Not shared: hands entered before it are still waiting on this phone."),
    "share_clash": _(
        "Changed on another phone at the same time (%(parts)s): their version is shown; check it."
    ),
    "shared_from": _("Also entered on another phone by %(by)s."),
    "shared_from_other": _("Also entered on another phone."),
    "shared_from_yours": _("Also entered on another of your phones."),
    "counted_once": _("%(card)s: already entered on another phone, counted once."),
    "own_note": _(
        "Your melds and cards reach the scorekeeper's phone as you tap them: the scorekeeper "
        "records the hand."
    ),
    "progress_done": _("%(name)s ✓ %(melds)s, %(cards)s"),
    "versions_title": _("Two versions of the cards of %(name)s"),
    "versions_hint": _(
        "Two phones entered different cards for this player. Choose the right one: the other "
        "is dropped."
    ),
    "versions_mine": _("On this phone"),
    "versions_theirs": _("On another phone"),
    "versions_theirs_by": _("On the phone of %(by)s"),
    "versions_theirs_yours": _("On another of your phones"),
    "versions_keep_mine": _("Keep this phone's"),
    "versions_keep_theirs": _("Keep the other phone's"),
    "share_renumbered": _(
        "The hand before it was voided: this is hand %(n)s now, and what was entered for it "
        "is shared as hand %(n)s."
    ),
    "versions_kept_elsewhere": _(
        "The other phone kept its version of the cards of %(name)s: it is shown here now."
    ),
    "versions_kept_yours": _(
        "The other phone chose this phone's version of the cards of %(name)s: it is shown "
        "here again."
    ),
    "start_again": _("Start the hand again"),
    "start_again_title": _("Start hand %(n)s again?"),
    "start_again_confirm": _(
        "Everything entered for hand %(n)s is cleared, on every phone at the table. Nothing "
        "recorded changes."
    ),
    "start_again_yes": _("Clear and start again"),
    "started_again": _("Hand %(n)s was cleared: enter it again."),
    "entry_finished": _(
        "This match is finished: no hand can be added. A recorded hand can still be corrected."
    ),
}


# Sentences that change with the number "count" (web.plurals): "1 card", "0 carte", "2 cards".
ENTRY_PLURALS: dict[str, Any] = {
    "melds_count": ngettext_lazy("%(count)s meld", "%(count)s melds", "count"),
    "cards_count": ngettext_lazy("%(count)s card", "%(count)s cards", "count"),
}


def entry_vocabulary() -> dict[str, Any]:
    """The screen's sentences in the active language."""
    return {
        **{key: str(text) for key, text in ENTRY_SENTENCES.items()},
        **{key: plural_forms(text) for key, text in ENTRY_PLURALS.items()},
    }
