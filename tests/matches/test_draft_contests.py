"""Two versions of a player's cards, on two phones: the one sent beside the part (a contest),
seen by every phone, and settled by a write of the part or the contest's withdrawal."""

from __future__ import annotations

import pytest

from matches.models import HandDraftPart
from tests.matches.test_hand_drafts import codes, draft_url, put_player

pytestmark = pytest.mark.django_db

ANN_ON_CAROLS_PHONE = {"melds": [["6H", "7H", "8H"]], "hand": ["KC"]}
ANN_ON_ALICES_PHONE = {"melds": [["6S", "7S", "8S"]], "hand": ["KC"]}


@pytest.fixture
def match(as_carol, club, roster) -> dict:
    from tests.factories import start_match

    return start_match(as_carol, club, roster[:3])


def contest_url(match_id: int, player: int) -> str:
    return f"{draft_url(match_id)}players/{player}/contest/"


def part_of(answer, player: int) -> dict:
    return next(p for p in answer.json()["players"] if p["player"] == player)


def offer(client, match, player, version=1):
    body = {**ANN_ON_ALICES_PHONE, "version": version}
    return client.put(contest_url(match["id"], player), body, format="json")


def written(as_carol, match, ann) -> dict:
    answer = put_player(as_carol, match["id"], ann, {**ANN_ON_CAROLS_PHONE, "version": 0})
    assert answer.status_code == 200, answer.json()
    return part_of(answer, ann)


def test_a_different_version_is_kept_beside_the_part_for_every_phone(
    as_carol, as_alice, as_victor, match, roster
):
    ann = roster[0].pk
    part = written(as_carol, match, ann)
    assert part["contest"] is None
    offered = as_alice.put(
        contest_url(match["id"], ann), {**ANN_ON_ALICES_PHONE, "version": 1}, format="json"
    )
    assert offered.status_code == 200, offered.json()
    # the part is as Carol's phone wrote it, at its version; Alice's version is beside it
    seen = part_of(as_victor.get(draft_url(match["id"])), ann)
    assert (seen["melds"], seen["hand"], seen["version"]) == ([["6H", "7H", "8H"]], ["KC"], 1)
    contest = seen["contest"]
    assert (contest["melds"], contest["hand"]) == (ANN_ON_ALICES_PHONE["melds"], ["KC"])
    assert (contest["by"], contest["version"]) == ("alice", 1)


def test_writing_the_part_settles_the_choice(as_carol, as_alice, match, roster):
    """Carol's phone keeps Alice's version: it writes it as the part, and the contest is gone."""
    ann = roster[0].pk
    written(as_carol, match, ann)
    as_alice.put(
        contest_url(match["id"], ann), {**ANN_ON_ALICES_PHONE, "version": 1}, format="json"
    )
    kept = put_player(as_carol, match["id"], ann, {**ANN_ON_ALICES_PHONE, "version": 1})
    assert kept.status_code == 200
    part = part_of(kept, ann)
    assert (part["melds"], part["version"], part["contest"]) == (
        ANN_ON_ALICES_PHONE["melds"],
        2,
        None,
    )


def test_withdrawing_keeps_the_part_as_written(as_carol, as_alice, match, roster):
    """Either phone keeps the written version: DELETE withdraws the other, and the part moves
    to its next version with the same cards; twice is harmless."""
    ann = roster[0].pk
    written(as_carol, match, ann)
    as_alice.put(
        contest_url(match["id"], ann), {**ANN_ON_ALICES_PHONE, "version": 1}, format="json"
    )
    dropped = as_carol.delete(contest_url(match["id"], ann))
    assert dropped.status_code == 200
    part = part_of(dropped, ann)
    assert (part["melds"], part["version"], part["contest"]) == ([["6H", "7H", "8H"]], 2, None)
    assert (part["declined"]["version"], part["declined"]["by"]) == (1, "carol")
    again = as_alice.delete(contest_url(match["id"], ann))
    assert again.status_code == 200
    assert (part_of(again, ann)["contest"], part_of(again, ann)["version"]) == (None, 2)


def drop(client, match, player, version):
    return client.delete(f"{contest_url(match['id'], player)}?version={version}")


def test_a_write_racing_the_choice_to_keep_the_part_is_refused(as_carol, as_alice, match, roster):
    """Carol's phone keeps the part as written while Alice's keeps her own version from the
    same version: the first choice counts, the second is refused with the draft, whichever
    comes first, so that both phones end on one version and the other one learns it lost."""
    ann = roster[0].pk
    written(as_carol, match, ann)
    assert offer(as_alice, match, ann).status_code == 200
    assert drop(as_carol, match, ann, 1).status_code == 200
    late = put_player(as_alice, match["id"], ann, {**ANN_ON_ALICES_PHONE, "version": 1})
    assert late.status_code == 409 and codes(late) == ["draft_changed"]
    seen = next(p for p in late.json()["draft"]["players"] if p["player"] == ann)
    assert (seen["melds"], seen["version"], seen["declined"]["version"]) == (
        ANN_ON_CAROLS_PHONE["melds"],
        2,
        1,
    )


def test_keeping_the_part_after_the_other_version_was_written_is_refused(
    as_carol, as_alice, match, roster
):
    ann = roster[0].pk
    written(as_carol, match, ann)
    assert offer(as_alice, match, ann).status_code == 200
    kept = put_player(as_alice, match["id"], ann, {**ANN_ON_ALICES_PHONE, "version": 1})
    assert kept.status_code == 200
    late = drop(as_carol, match, ann, 1)
    assert late.status_code == 409 and codes(late) == ["draft_changed"]
    part = HandDraftPart.objects.get(player_id=ann)
    assert (part.data["melds"], part.version, part.declined) == (
        ANN_ON_ALICES_PHONE["melds"],
        2,
        None,
    )


def test_the_record_of_a_declined_version_outlasts_later_writes(as_carol, as_alice, match, roster):
    """Carol keeps the part and sends the card she tapped while choosing: the phone that
    offered the other version still reads that its offer was declined, and from which
    version."""
    ann = roster[0].pk
    written(as_carol, match, ann)
    assert offer(as_alice, match, ann).status_code == 200
    assert drop(as_carol, match, ann, 1).status_code == 200
    further = {"melds": [["6H", "7H", "8H", "9H"]], "hand": ["KC"], "version": 2}
    assert put_player(as_carol, match["id"], ann, further).status_code == 200
    part = part_of(as_alice.get(draft_url(match["id"])), ann)
    assert (part["version"], part["declined"]["version"], part["declined"]["by"]) == (
        3,
        1,
        "carol",
    )
    assert as_carol.delete(draft_url(match["id"])).status_code == 204
    assert HandDraftPart.objects.filter(declined__isnull=False).count() == 0


def test_a_version_to_keep_that_is_no_number_is_refused(as_carol, match, roster):
    ann = roster[0].pk
    written(as_carol, match, ann)
    refused = as_carol.delete(f"{contest_url(match['id'], ann)}?version=first")
    assert refused.status_code == 400 and codes(refused) == ["invalid"]
    assert refused.json()["errors"][0]["attr"] == "version"


def test_a_contest_of_a_version_the_part_has_left_is_refused(as_carol, as_alice, match, roster):
    """The part moved on meanwhile: the phone is given the draft as it stands to compare
    again, and nothing is kept; nor can a part never written be differed from."""
    ann, ben = roster[0].pk, roster[1].pk
    written(as_carol, match, ann)
    put_player(as_carol, match["id"], ann, {**ANN_ON_CAROLS_PHONE, "hand": [], "version": 1})
    stale = as_alice.put(
        contest_url(match["id"], ann), {**ANN_ON_ALICES_PHONE, "version": 1}, format="json"
    )
    assert stale.status_code == 409 and codes(stale) == ["draft_changed"]
    assert all(p["contest"] is None for p in stale.json()["draft"]["players"])
    nothing = as_alice.put(
        contest_url(match["id"], ben), {**ANN_ON_ALICES_PHONE, "version": 0}, format="json"
    )
    assert nothing.status_code == 409 and codes(nothing) == ["draft_changed"]
    assert HandDraftPart.objects.filter(contest__isnull=False).count() == 0


def test_starting_the_hand_again_clears_a_contest(as_carol, as_alice, match, roster):
    ann = roster[0].pk
    written(as_carol, match, ann)
    as_alice.put(
        contest_url(match["id"], ann), {**ANN_ON_ALICES_PHONE, "version": 1}, format="json"
    )
    assert as_carol.delete(draft_url(match["id"])).status_code == 204
    assert HandDraftPart.objects.filter(contest__isnull=False).count() == 0


def test_a_viewer_contests_their_own_part_only(as_carol, as_victor, victor, match, roster):
    ann, ben = roster[0], roster[1]
    ben.user = victor
    ben.save()
    written(as_carol, match, ann.pk)
    put_player(as_carol, match["id"], ben.pk, {**ANN_ON_CAROLS_PHONE, "version": 0})
    other = as_victor.put(
        contest_url(match["id"], ann.pk), {**ANN_ON_ALICES_PHONE, "version": 1}, format="json"
    )
    assert other.status_code == 403 and codes(other) == ["permission_denied"]
    own = as_victor.put(
        contest_url(match["id"], ben.pk), {**ANN_ON_ALICES_PHONE, "version": 1}, format="json"
    )
    assert own.status_code == 200 and part_of(own, ben.pk)["contest"]["by"] == "victor"


def test_a_contest_leaves_who_wrote_the_part_and_when(as_carol, as_alice, match, roster):
    """`at`, `by` and `device` are the part's writer's: offering a version beside it, or
    withdrawing that, changes none of them."""
    ann = roster[0].pk
    part = written(as_carol, match, ann)
    offered = part_of(offer(as_alice, match, ann), ann)
    dropped = part_of(as_alice.delete(contest_url(match["id"], ann)), ann)
    for seen in (offered, dropped):
        assert (seen["at"], seen["by"], seen["device"]) == (part["at"], "carol", part["device"])
    assert offered["contest"]["by"] == "alice"
    # the withdrawal moves the version on (a write racing it is refused), and names who kept it
    assert (offered["version"], dropped["version"], dropped["declined"]["by"]) == (1, 2, "alice")


def test_a_contest_of_a_part_never_written_says_so(as_alice, match, roster):
    ben = roster[1]
    refused = offer(as_alice, match, ben.pk, version=0)
    assert refused.status_code == 409 and codes(refused) == ["draft_changed"]
    detail = refused.json()["errors"][0]["detail"]
    assert f"{ben.name}'s cards in hand 1 have not been written yet" in detail
    assert "has changed" not in detail


def test_a_version_with_the_same_cards_is_no_choice(as_carol, as_alice, match, roster):
    """Alice's phone tapped Ann's cards in another order: the same cards, nothing to choose,
    so no contest is shown to the table."""
    ann = roster[0].pk
    written(as_carol, match, ann)
    same = {"melds": [["8H", "6H", "7H"]], "hand": ["KC"], "version": 1}
    offered = as_alice.put(contest_url(match["id"], ann), same, format="json")
    assert offered.status_code == 200, offered.json()
    assert part_of(offered, ann)["contest"] is None
    assert HandDraftPart.objects.get(player_id=ann).contest is None
    # a version that does differ is still kept beside the part
    assert offer(as_alice, match, ann).status_code == 200
    assert HandDraftPart.objects.get(player_id=ann).contest is not None


def test_a_phone_that_comes_to_the_parts_cards_withdraws_its_own_offer(
    as_carol, as_alice, match, roster
):
    """Alice's phone offered its version, then its player tapped until its cards were the
    part's: its offer is withdrawn, so no phone is left offered cards none holds any more.
    Another phone's offer is not withdrawn by Alice's agreeing."""
    ann = roster[0].pk
    written(as_carol, match, ann)
    assert offer(as_alice, match, ann).status_code == 200
    same = {"melds": [["8H", "6H", "7H"]], "hand": ["KC"], "version": 1}
    agreed = as_alice.put(contest_url(match["id"], ann), same, format="json")
    assert agreed.status_code == 200, agreed.json()
    assert part_of(agreed, ann)["contest"] is None

    assert offer(as_alice, match, ann).status_code == 200  # offered again, by Alice
    as_carol.put(contest_url(match["id"], ann), same, format="json")  # Carol agrees: no change
    assert HandDraftPart.objects.get(player_id=ann).contest["by"] == "alice"
