"""What a hand leaves behind (scoring/after.py): seat figures, the finish, who deals next."""

from __future__ import annotations

from decimal import Decimal

from scoring import rummy
from scoring.after import SeatState, after_hand, dealer, victory_share
from scoring.match import Finish, decide_finish

SEATS = [SeatState("ann", 900, 2), SeatState("bob", 950, 1), SeatState("cat", 400, 0)]


def test_a_new_hand_counts_who_went_out_and_no_winner_below_the_target():
    after = after_hand(SEATS, {"ann": 990, "bob": 900, "cat": 380}, out_after="ann")
    assert [(s.player, s.total, s.went_out) for s in after.seats] == [
        ("ann", 990, 3),
        ("bob", 900, 1),
        ("cat", 380, 0),
    ]
    assert after.finish == Finish(False)
    assert [(s.winner, s.victory_points) for s in after.seats] == [(False, Decimal(0))] * 3


def test_the_highest_total_at_the_target_wins_outright():
    after = after_hand(SEATS, {"ann": 1040, "bob": 1010, "cat": 380}, out_after="ann")
    assert after.winners == ("ann",)
    assert [s.victory_points for s in after.seats] == [Decimal(1), Decimal(0), Decimal(0)]


def test_a_tie_at_the_top_shares_the_victory_in_parts_of_four_places():
    seats = [*SEATS, SeatState("dev", 990, 0)]
    totals = {"ann": 1020, "bob": 1020, "cat": 1020, "dev": 1000}
    after = after_hand(seats, totals, out_after="cat")
    assert after.finish.shared_victory
    assert [s.victory_points for s in after.seats] == [Decimal("0.3333")] * 3 + [Decimal(0)]
    assert victory_share(after.finish) == Decimal("0.3333")


def test_a_correction_moves_the_going_out_from_one_player_to_another():
    after = after_hand(
        SEATS, {"ann": 900, "bob": 950, "cat": 400}, out_before="ann", out_after="bob"
    )
    assert [s.went_out for s in after.seats] == [1, 2, 0]


def test_a_void_takes_the_going_out_back_and_reopens_the_match():
    after = after_hand(SEATS, {"ann": 700, "bob": 900, "cat": 420}, out_before="bob")
    assert [s.went_out for s in after.seats] == [2, 0, 0]
    assert after.finish == Finish(False)


def test_the_finish_is_the_rulesets_own():
    def low_target(totals):
        return decide_finish({p: t + 500 for p, t in totals.items()})

    after = after_hand(SEATS, {"ann": 600, "bob": 510, "cat": 0}, decide=low_target)
    assert after.winners == ("ann",)


def test_the_deal_passes_clockwise_from_the_first_dealer():
    seated = ["ann", "bob", "cat"]
    assert [dealer(seated, n, first_dealer="bob") for n in (1, 2, 3, 4)] == [
        "bob",
        "cat",
        "ann",
        "bob",
    ]


def test_where_the_winner_deals_the_hand_before_decides():
    seated = ["ann", "bob"]
    found = dealer(
        seated,
        3,
        first_dealer="ann",
        previous=("bob", "ann"),
        winner_deals=True,
        next_dealer=rummy.next_dealer,
    )
    assert found == seated[rummy.next_dealer(seats=2, dealer=1, went_out=0)]
    assert dealer(seated, 1, first_dealer="bob", winner_deals=True) == "bob"
