"""Random legal Rummy hands of 2-6 players played on the live table, hand after hand.

A real one-pack deck (tests/scoring/rummy_table.py) chooses legal moves; the engine sees only
what the table sees. At every step each illegal event of a generated set is refused and changes
nothing; at the end the engine's scores and its rummy flag equal the whole-hand ruling of the
real final table.
"""

from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import HealthCheck, settings
from hypothesis import event as note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from scoring import ALL_CARDS, Card, Code, MeldCard, rummy
from scoring.games.rummy import RULESET as RUMMY
from scoring.live import (
    Discard,
    Draw,
    Event,
    Extend,
    Meld,
    Pass,
    Phase,
    TakeDiscard,
    TakePile,
    deal,
    finish,
    play,
    public_state,
    replay_events,
)
from tests.scoring.rummy_table import RummyTable

NOBODY = "nobody"


class RummyLiveHands(RuleBasedStateMachine):
    """Deal, play legal Rummy moves chosen from the real cards, finish, and deal the next hand."""

    @initialize(count=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), first=st.integers(0, 5))
    def seat_the_table(self, count: int, seed: int, first: int) -> None:
        self.rng = Random(seed)
        self.players = tuple(f"p{seat}" for seat in range(count))
        self.number = 0
        self.dealer = first % count
        self.deal_next()

    def deal_next(self) -> None:
        self.number += 1
        self.real = RummyTable.shuffled(self.players, self.rng)
        self.state = deal(
            self.players,
            dealer=self.players[self.dealer],
            turned_up=self.real.pile[0],
            number=self.number,
            rules=RUMMY,
        )
        self.dealt = self.state
        self.log: list[Event] = []
        self.finished = False
        self.turned_over = 0
        self.dealer = (self.dealer + 1) % len(self.players)

    @property
    def seat(self) -> int:
        return self.state.turn

    @property
    def player(self) -> str:
        return self.players[self.seat]

    def accept(self, event: Event) -> None:
        step = play(self.state, event)
        assert step.accepted, (event, step.violations)
        self.state = step.state
        self.log.append(event)

    # --- legal moves ------------------------------------------------------------------

    @rule(choice=st.integers(0, 9))
    def next_move(self, choice: int) -> None:
        """One legal move of the player whose turn it is; then the hand's end and the next deal."""
        state, seat = self.state, self.state.turn
        if self.finished:
            self.deal_next()
        elif state.phase is Phase.ENDED:
            self.finish_the_hand(leave_out_winner=choice % 2 == 0)
        elif state.phase is Phase.DRAW:
            if state.discards and choice < 4:
                self.real.take_discard(seat)
                self.accept(TakeDiscard(self.player))
            else:
                self.draw()
        else:
            moves = [self.meld] * 5 + [self.extend] * 3 + [self.discard] * 2
            for move in moves[choice:] + moves[:choice]:
                if move():
                    break

    def draw(self) -> None:
        turned_over = self.state.stock == 0
        known = bool(self.state.stock_known) or turned_over
        drawn = self.real.draw(self.seat)
        self.accept(Draw(self.player, drawn if known and self.rng.random() < 0.5 else None))
        self.turned_over += turned_over

    def meld(self) -> bool:
        melds = self.real.hand_melds(self.seat)
        if melds:
            cards = self.rng.choice(melds)
            self.real.meld(self.seat, cards)
            self.accept(Meld(self.player, cards))
        return bool(melds)

    def extend(self) -> bool:
        extensions = self.real.extensions(self.seat)
        if extensions:
            index, cards = self.rng.choice(extensions)
            self.real.extend(self.seat, index, cards)
            self.accept(Extend(self.player, index, cards))
        return bool(extensions)

    def discard(self) -> bool:
        cards = self.real.discards(self.seat)
        if cards:
            card = self.rng.choice(cards)
            self.real.discard(self.seat, card)
            self.accept(Discard(self.player, card))
        return bool(cards)

    def finish_the_hand(self, *, leave_out_winner: bool) -> None:
        held = {p: tuple(self.real.hands[s]) for s, p in enumerate(self.players)}
        if leave_out_winner and self.state.went_out is not None:
            del held[self.state.went_out]
        done = finish(self.state, held)
        assert done.valid, done.violations
        went_rummy = self.real.went_rummy
        assert dict(done.flags) == {"rummy": went_rummy}
        whole = rummy.rule_hand(self.real.final_table(), rummy=went_rummy, seated=self.players)
        assert whole.valid, whole.violations
        assert done.hand == self.real.final_table()
        assert done.ruling is not None and done.ruling.results == whole.results
        assert sum(r.net for r in done.ruling.results) == 0
        assert replay_events(self.dealt, self.log) == self.state
        self.finished = True
        note(f"a Rummy hand of {len(self.players)} ended" + (": rummy" if went_rummy else ""))
        if self.turned_over:
            note("the Rummy stock was turned over")

    # --- what must hold at every step ---------------------------------------------------

    @invariant()
    def the_engine_sees_what_the_table_sees(self) -> None:
        state, real = self.state, self.real
        assert state.hand_sizes == tuple(len(hand) for hand in real.hands)
        for seat, known in enumerate(state.known):
            assert not Counter(known) - Counter(real.hands[seat])
        assert state.stock == len(real.stock)
        assert not state.stock_known or list(state.stock_known) == real.stock
        assert list(state.discards) == real.pile
        assert [(m.owner, m.cards) for m in state.melds] == [
            (self.players[seat], cards) for seat, cards in real.melds
        ]
        assert (state.phase is Phase.ENDED) == (real.ending is not None)
        assert state.went_out == real.went_out
        assert max(state.seen) <= 1
        assert public_state(state)["events"] == len(self.log)

    @invariant()
    def every_illegal_event_is_refused_and_changes_nothing(self) -> None:
        before = self.state
        for event, code in self.illegal_events():
            step = play(before, event)
            assert not step.accepted, event
            assert code in {v.code for v in step.violations}, (event, step.violations)
            assert step.state is before
        assert self.state is before

    def illegal_events(self) -> list[tuple[Event, str]]:
        state, real = self.state, self.real
        some = real.hands[self.seat][0] if real.hands[self.seat] else Card.parse("5C")
        found: list[tuple[Event, str]] = [(Draw(NOBODY), Code.PLAYERS_MISMATCH)]
        if state.phase is Phase.ENDED:
            return [*found, (TakeDiscard(self.players[0]), Code.HAND_ENDED)]
        other = self.players[(self.seat + 1) % len(self.players)]
        found.append((TakeDiscard(other), Code.NOT_YOUR_TURN))
        player, natural = self.player, MeldCard.natural(some)
        if state.phase is Phase.DRAW:
            found.append((TakePile(player, (natural,) * 3), Code.TAKE_PILE_NOT_ALLOWED))
            found.append((Pass(player), Code.DRAW_FIRST))
            return found
        found.append((TakeDiscard(player), Code.ALREADY_DRAWN))
        found.append((Pass(player), Code.PASS_NOT_ALLOWED))
        wild = MeldCard(Card.parse("2C"), Card.parse("3C"))
        found.append((Meld(player, (wild, natural, natural)), rummy.RummyCode.NO_WILD_CARDS))
        if state.taken is not None:
            found.append((Discard(player, state.taken), rummy.RummyCode.DISCARD_TAKEN_CARD))
        for index, count in enumerate(state.seen):
            card = ALL_CARDS[index]
            if count == 1 and card not in state.known[self.seat]:
                found.append((Discard(player, card), rummy.RummyCode.CARD_COUNT_EXCEEDED))
                break
        return found


RummyLiveHands.TestCase.settings = settings(
    max_examples=20,
    stateful_step_count=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestRummyLiveHands = RummyLiveHands.TestCase
