"""Random legal hands of 2-5 players played to the end on the live table, hand after hand.

A real deck (tests/scoring/live_table.py) chooses legal moves; the engine sees only what the
table sees. At every step each illegal event of a generated set is refused and changes
nothing; at the end the engine's scores equal the whole-hand ruling of the real final table.
"""

from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import HealthCheck, settings
from hypothesis import event as note
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from scoring import (
    ALL_CARDS,
    QUEEN_OF_SPADES,
    Card,
    Code,
    Ending,
    MeldCard,
    Rank,
    Suit,
    rule_extend,
    rule_hand,
)
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
from tests.scoring.live_table import RealTable

NOBODY = "nobody"


def _set_of(rank: Rank) -> tuple[MeldCard, ...]:
    return tuple(
        MeldCard.natural(Card(rank, suit)) for suit in (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    )


class LiveHands(RuleBasedStateMachine):
    """Deal, play legal moves chosen from the real cards, finish, and deal the next hand."""

    @initialize(count=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), first=st.integers(0, 4))
    def seat_the_table(self, count: int, seed: int, first: int) -> None:
        self.rng = Random(seed)
        self.players = tuple(f"p{seat}" for seat in range(count))
        self.number = 0
        self.dealer = first % count
        self.deal_next()

    def deal_next(self) -> None:
        self.number += 1
        self.real = RealTable.shuffled(self.players, self.rng)
        self.state = deal(
            self.players,
            dealer=self.players[self.dealer],
            turned_up=self.real.pile[0],
            number=self.number,
        )
        self.dealt = self.state
        self.log: list[Event] = []
        self.finished = False
        self.turned_over = 0
        self.passes = 0
        self.dealer = (self.dealer + 1) % len(self.players)

    @property
    def seat(self) -> int:
        return self.state.turn

    @property
    def player(self) -> str:
        return self.players[self.seat]

    def accept(self, event: Event) -> None:
        step = play(self.state, event)
        assert step.accepted, step.violations
        self.state = step.state
        self.log.append(event)

    # --- legal moves ------------------------------------------------------------------

    @rule(choice=st.integers(0, 9))
    def next_move(self, choice: int) -> None:
        """One legal move of the player whose turn it is; then the hand's end and the next deal."""
        state, seat = self.state, self.state.turn
        if self.finished:
            self.deal_next()
        elif state.phase is Phase.PLAY and self.real.stuck(seat):
            self.add_a_queen_or_pass()
        elif state.phase is Phase.ENDED:
            self.finish_the_hand(leave_out_winner=choice % 2 == 0)
        elif state.phase is Phase.DRAW:
            melds = self.real.pile_melds(seat)
            if melds and (choice < 3 or (state.stock == 0 and choice < 7)):
                self.take_the_pile(self.rng.choice(melds))
            else:
                self.draw()
        else:
            moves = [self.meld] * 4 + [self.extend] * 2 + [self.discard] * 4
            for move in moves[choice:] + moves[:choice]:
                if move():
                    break

    def draw(self) -> None:
        turned_over = self.state.stock == 0 and len(self.state.discards) > 1
        known = bool(self.state.stock_known) or turned_over
        drawn = self.real.draw(self.seat)
        self.accept(Draw(self.player, drawn if known and self.rng.random() < 0.5 else None))
        if drawn is None:
            assert self.state.ending is Ending.STOCK_EXHAUSTED
        self.turned_over += turned_over

    def take_the_pile(self, meld: tuple[MeldCard, ...]) -> None:
        self.real.take_pile(self.seat, meld)
        self.accept(TakePile(self.player, meld))

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

    def add_a_queen_or_pass(self) -> None:
        """Holding only queens of spades: add one to an own meld, or pass (ruling 20)."""
        queen = (MeldCard.natural(QUEEN_OF_SPADES),)
        for index, (owner, meld) in enumerate(self.real.melds):
            if owner == self.seat and rule_extend(meld, queen).allowed:
                self.real.extend(self.seat, index, queen)
                self.accept(Extend(self.player, index, queen))
                return
        self.accept(Pass(self.player))
        self.passes += 1
        note("a player passed")

    def finish_the_hand(self, *, leave_out_winner: bool) -> None:
        held = {p: tuple(self.real.hands[s]) for s, p in enumerate(self.players)}
        if leave_out_winner and self.state.went_out is not None:
            del held[self.state.went_out]
        done = finish(self.state, held)
        assert done.valid, done.violations
        whole = rule_hand(self.real.final_table(), seated=self.players)
        assert whole.valid, whole.violations
        assert done.hand == self.real.final_table()
        assert done.ruling is not None and done.ruling.results == whole.results
        assert replay_events(self.dealt, self.log) == self.state
        self.finished = True
        note(f"a hand of {len(self.players)} ended: {self.state.ending}")
        if self.turned_over:
            note("the stock was turned over")
        if self.passes:
            note("a hand with a pass ended")

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
        assert state.ending == real.ending and state.went_out == real.went_out
        assert max(state.seen) <= 2
        public = public_state(state)
        assert public["events"] == len(self.log) and public["phase"] == state.phase.value

    @invariant()
    def every_illegal_event_is_refused_and_changes_nothing(self) -> None:
        before = self.state
        for event, code in self.illegal_events():
            step = play(before, event)
            assert not step.accepted, event
            assert code in {v.code for v in step.violations}, (event, step.violations)
            assert step.state is before
        for held, code in self.illegal_finishes():
            done = finish(before, held)
            assert not done.valid and done.hand is None
            assert code in {v.code for v in done.violations}, (held, done.violations)
        assert self.state is before

    def illegal_events(self) -> list[tuple[Event, Code]]:
        state, real = self.state, self.real
        some = real.hands[self.seat][0] if real.hands[self.seat] else Card.parse("5C")
        found: list[tuple[Event, Code]] = [(Draw(NOBODY), Code.PLAYERS_MISMATCH)]
        if state.phase is Phase.ENDED:
            found.append((Draw(self.players[0]), Code.HAND_ENDED))
            found.append((Discard(self.players[-1], some), Code.HAND_ENDED))
            return found
        other = self.players[(self.seat + 1) % len(self.players)]
        found.append((Draw(other), Code.NOT_YOUR_TURN))
        found.append((Discard(other, some), Code.NOT_YOUR_TURN))
        if state.phase is Phase.DRAW:
            found.extend(self.illegal_starts(some))
        else:
            found.extend(self.illegal_plays(some))
        return found

    def illegal_starts(self, some: Card) -> list[tuple[Event, Code]]:
        state, player = self.state, self.player
        top = state.discards[-1]
        rank = Rank.THREE if top.rank is not Rank.THREE else Rank.FOUR
        found: list[tuple[Event, Code]] = [
            (Discard(player, some), Code.DRAW_FIRST),
            (Meld(player, _set_of(Rank.NINE)), Code.DRAW_FIRST),
            (
                TakePile(player, (MeldCard.natural(top), MeldCard.natural(some))),
                Code.TAKE_DISCARDS_NEEDS_TWO,
            ),
            (TakePile(player, _set_of(rank)), Code.TAKE_PILE_TOP_CARD),
            (TakeDiscard(player), Code.TAKE_DISCARD_NOT_ALLOWED),
            (Pass(player), Code.DRAW_FIRST),
        ]
        turned_over = state.stock == 0 and len(state.discards) > 1
        if state.stock_known or turned_over:
            upcoming = state.stock_known[0] if state.stock_known else state.discards[0]
            wrong = next(c for c in (Card.parse("4D"), Card.parse("5D")) if c != upcoming)
            found.append((Draw(player, wrong), Code.DRAW_NOT_TOP_CARD))
        else:
            found.append((Draw(player, some), Code.DRAW_CARD_UNKNOWN))
        return found

    def illegal_plays(self, some: Card) -> list[tuple[Event, Code]]:
        state, player, seat = self.state, self.player, self.seat
        top = MeldCard.natural(state.discards[-1]) if state.discards else MeldCard.natural(some)
        found: list[tuple[Event, Code]] = [
            (Draw(player), Code.ALREADY_DRAWN),
            (TakePile(player, (top, top, top)), Code.ALREADY_DRAWN),
            (Discard(player, QUEEN_OF_SPADES), Code.QUEEN_OF_SPADES_DISCARD),
            (Extend(player, len(state.melds), (MeldCard.natural(some),)), Code.UNKNOWN_MELD),
        ]
        for index, count in enumerate(state.seen):
            card = ALL_CARDS[index]
            if count == 2 and card not in state.known[seat]:
                found.append((Discard(player, card), Code.CARD_COUNT_EXCEEDED))
                break
        theirs = next((m for m in state.melds if m.owner != player), None)
        if theirs is not None:
            found.append(
                (Extend(player, theirs.index, (MeldCard.natural(some),)), Code.NOT_YOUR_MELD)
            )
        if state.hand_sizes[seat] < 3:
            found.append((Meld(player, _set_of(Rank.FIVE)), Code.MORE_CARDS_THAN_HELD))
        if any(card != QUEEN_OF_SPADES for card in state.known[seat]):
            found.append((Pass(player), Code.PASS_NOT_ALLOWED))
        return found

    def illegal_finishes(self) -> list[tuple[dict[object, tuple[Card, ...]], Code]]:
        state, real = self.state, self.real
        held = {p: tuple(real.hands[s]) for s, p in enumerate(self.players)}
        if state.phase is not Phase.ENDED:
            return [(dict(held), Code.HAND_NOT_ENDED)]
        found: list[tuple[dict[object, tuple[Card, ...]], Code]] = [
            ({**held, NOBODY: ()}, Code.PLAYERS_MISMATCH)
        ]
        seat = next(s for s, cards in enumerate(real.hands) if cards)
        short = {**held, self.players[seat]: held[self.players[seat]][1:]}
        found.append((short, Code.HELD_COUNT_MISMATCH))
        for seat, known in enumerate(state.known):
            if known:
                missing, cards = known[0], list(held[self.players[seat]])
                other = Card.parse("5H") if missing != Card.parse("5H") else Card.parse("6H")
                cards = [other if c == missing else c for c in cards]
                found.append(
                    ({**held, self.players[seat]: tuple(cards)}, Code.HELD_KNOWN_CARD_MISSING)
                )
                break
        return found


LiveHands.TestCase.settings = settings(
    max_examples=20,
    stateful_step_count=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestLiveHands = LiveHands.TestCase
