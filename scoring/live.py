"""A hand refereed as it is played: the live table, from what the table can see.

The state is a value. :func:`deal` starts a hand of any ruleset (:mod:`scoring.rulesets`),
:func:`play` rules on one event and answers the next state or every violation (the state it was
given is left as it was), and :func:`finish` scores the ended hand with the same ruling as a
hand entered whole. Every rule of a move is the ruleset's: the deal's sizes, what may be taken
from the discard pile, melds, adding to melds, discards and the score. No hidden card is ever
assumed: a card drawn from the dealt stock stays private, and only cards the table has seen
(the turned-up card, the discard pile, melds, a turned-over stock) are tracked.

>>> table = deal(["ann", "bob"], dealer="ann", turned_up=Card.parse("7H"))
>>> table.turn_player, table.phase.value, table.stock
('bob', 'draw', 77)
>>> table = play(table, Draw("bob")).state
>>> [v.code.value for v in play(table, Discard("bob", Card.parse("QS"))).violations]
['queen_of_spades_discard']
>>> table = play(table, Discard("bob", Card.parse("9C"))).state
>>> table.turn_player, [c.code for c in table.discards]
('ann', ['7H', '9C'])
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from scoring.cards import ALL_CARDS, Card, MeldCard, parse_cards, parse_meld
from scoring.hands import Ending, HandInput, HandRuling, PlayerInput
from scoring.rulesets import ARLINGTON, Options, Ruleset, Take
from scoring.violations import Code, Violation, violation

T_ = TypeVar("T_")

PACK_SIZE = 52
"""One pack, no jokers."""


class Phase(enum.StrEnum):
    """Where the player whose turn it is stands in the turn."""

    DRAW = "draw"
    """The turn starts: draw from the stock or take from the discard pile, as the game allows."""
    PLAY = "play"
    """Drawn: meld, add to melds, then discard (or go out, or pass when nothing else is legal)."""
    ENDED = "ended"
    """A player went out, or nothing was left to turn over: only the held cards remain."""


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the stock; ``card`` only when it is known (a turned-over stock)."""

    player: Hashable
    card: Card | None = None

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Draw(17).as_dict(), Draw(17, Card.parse("5h")).as_dict()
        ({'type': 'draw', 'player': 17}, {'type': 'draw', 'player': 17, 'card': '5H'})
        """
        data: dict[str, object] = {"type": "draw", "player": self.player}
        if self.card is not None:
            data["card"] = self.card.code
        return data


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the whole discard pile: ``meld`` is the new meld of its top card and 2+ from hand."""

    player: Hashable
    meld: tuple[MeldCard, ...]

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> TakePile(17, parse_meld(["7H", "7D", "2C=7S"])).as_dict()
        {'type': 'take_pile', 'player': 17, 'meld': ['7H', '7D', '2C=7S']}
        """
        return {"type": "take_pile", "player": self.player, "meld": [c.code for c in self.meld]}


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile into the hand (games whose ``take`` is ``discard``)."""

    player: Hashable

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> TakeDiscard(17).as_dict()
        {'type': 'take_discard', 'player': 17}
        """
        return {"type": "take_discard", "player": self.player}


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without discarding, holding only cards that can never be played (ruling 20)."""

    player: Hashable

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Pass(17).as_dict()
        {'type': 'pass', 'player': 17}
        """
        return {"type": "pass", "player": self.player}


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay a new meld from hand."""

    player: Hashable
    cards: tuple[MeldCard, ...]

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Meld(17, parse_meld(["JS", "QS", "KS"])).as_dict()
        {'type': 'meld', 'player': 17, 'cards': ['JS', 'QS', 'KS']}
        """
        return {"type": "meld", "player": self.player, "cards": [c.code for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Extend:
    """Add cards from hand to a meld on the table, by its index (the game says whose melds)."""

    player: Hashable
    meld: int
    cards: tuple[MeldCard, ...]

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Extend(17, 3, parse_meld(["8H"])).as_dict()
        {'type': 'extend', 'player': 17, 'meld': 3, 'cards': ['8H']}
        """
        return {
            "type": "extend",
            "player": self.player,
            "meld": self.meld,
            "cards": [c.code for c in self.cards],
        }


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn by discarding one card (going out if it was the last)."""

    player: Hashable
    card: Card

    def as_dict(self) -> dict[str, object]:
        """The event as JSON data.

        >>> Discard(17, Card.parse("9c")).as_dict()
        {'type': 'discard', 'player': 17, 'card': '9C'}
        """
        return {"type": "discard", "player": self.player, "card": self.card.code}


Event = Draw | TakePile | TakeDiscard | Meld | Extend | Discard | Pass


def event_from_dict(data: Mapping[str, object]) -> Event:
    """Read back an event written by its ``as_dict`` (raises ``NotationError`` on a bad card).

    >>> event_from_dict({"type": "extend", "player": 17, "meld": 0, "cards": ["2c=as"]})
    Extend(player=17, meld=0, cards=(MeldCard.parse('2C=AS'),))
    """
    kind, player = data["type"], data["player"]
    assert isinstance(player, Hashable)
    if kind == "draw":
        card = data.get("card")
        return Draw(player, None if card is None else parse_cards([card])[0])
    if kind == "take_pile":
        return TakePile(player, parse_meld(data["meld"]))
    if kind == "take_discard":
        return TakeDiscard(player)
    if kind == "pass":
        return Pass(player)
    if kind == "meld":
        return Meld(player, parse_meld(data["cards"]))
    if kind == "extend":
        index = data["meld"]
        assert isinstance(index, int)
        return Extend(player, index, parse_meld(data["cards"]))
    if kind == "discard":
        return Discard(player, parse_cards([data["card"]])[0])
    raise ValueError(f"not an event type: {kind!r}")


# --- the state -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its place, its owner and its declared cards (fixed once melded)."""

    index: int
    owner: Hashable
    cards: tuple[MeldCard, ...]


@dataclass(frozen=True, slots=True)
class LiveHand:
    """One hand as the table has seen it so far."""

    number: int
    players: tuple[Hashable, ...]
    """Seated clockwise."""
    dealer: Hashable
    turn: int
    """The seat whose turn it is (the player who went out, once the hand has ended)."""
    phase: Phase
    stock: int
    stock_known: tuple[Card, ...]
    """The stock's cards, next first, once it has been turned over; empty while private."""
    discards: tuple[Card, ...]
    """Bottom first, top last."""
    melds: tuple[TableMeld, ...]
    hand_sizes: tuple[int, ...]
    """Cards in each seat's hand."""
    known: tuple[tuple[Card, ...], ...]
    """Cards known to be in each seat's hand (taken from the pile, drawn from a known stock)."""
    seen: tuple[int, ...] = field(repr=False)
    """How many copies of each card (by its index in ``ALL_CARDS``) the table has seen."""
    ending: Ending | None = None
    went_out: Hashable | None = None
    events: int = 0
    """How many events the hand has accepted."""
    taken: Card | None = None
    """The card taken from the discard pile this turn, if one was (it may not be discarded)."""
    discarded: tuple[bool, ...] = ()
    """Whether each seat has ended a turn with a discard: going out before that is going out all
    at once (its last card may be a discard)."""
    rules: Ruleset = field(default=ARLINGTON, repr=False, compare=False)
    options: Options = field(default_factory=dict, repr=False, compare=False)
    """The match's options, every one of them."""

    @property
    def turn_player(self) -> Hashable | None:
        """The player whose turn it is, or ``None`` once the hand has ended."""
        return None if self.phase is Phase.ENDED else self.players[self.turn]


@dataclass(frozen=True, slots=True)
class LiveRuling:
    """The ruling on one event: the state after it, or the unchanged state and every violation."""

    state: LiveHand
    violations: tuple[Violation, ...] = ()

    @property
    def accepted(self) -> bool:
        """Whether the event breaks no rule."""
        return not self.violations


@dataclass(frozen=True, slots=True)
class Finished:
    """The ended hand as a hand entered whole, and its ruling (``hand`` is None if refused)."""

    hand: HandInput | None
    ruling: HandRuling | None
    violations: tuple[Violation, ...]
    flags: Mapping[str, bool] = field(default_factory=dict)
    """The hand's flags as the play decided them (Rummy: ``rummy``, out all at once)."""

    @property
    def valid(self) -> bool:
        """Whether the held cards agree with the play and the hand breaks no rule."""
        return not self.violations


def deal(
    players: Sequence[Hashable],
    *,
    dealer: Hashable,
    turned_up: Card,
    number: int = 1,
    rules: Ruleset = ARLINGTON,
    options: Options | None = None,
) -> LiveHand:
    """Deal a hand by the ruleset's sizes, one card turned up to start the discard pile.

    Play starts left of the dealer (the next seat clockwise). ``options`` are the match's
    (the ruleset's defaults fill the rest). Raises ``ValueError`` for a table that cannot be
    dealt (the match guarantees a legal one).

    >>> table = deal([17, 21, 33], dealer=33, turned_up=Card.parse("QS"))
    >>> table.turn_player, table.stock, table.hand_sizes
    (17, 64, (13, 13, 13))
    >>> from scoring.rulesets import RUMMY
    >>> deal([17, 21, 33], dealer=33, turned_up=Card.parse("QS"), rules=RUMMY).stock
    30
    """
    seated = tuple(players)
    if not rules.min_players <= len(set(seated)) == len(seated) <= rules.max_players:
        raise ValueError(f"{rules.min_players} to {rules.max_players} distinct players deal")
    if dealer not in seated:
        raise ValueError(f"the dealer {dealer!r} is not seated")
    seen = [0] * len(ALL_CARDS)
    seen[turned_up.index] = 1
    size = rules.deal_size(len(seated))
    return LiveHand(
        number=number,
        players=seated,
        dealer=dealer,
        turn=(seated.index(dealer) + 1) % len(seated),
        phase=Phase.DRAW,
        stock=PACK_SIZE * rules.packs - size * len(seated) - 1,
        stock_known=(),
        discards=(turned_up,),
        melds=(),
        hand_sizes=(size,) * len(seated),
        known=((),) * len(seated),
        seen=tuple(seen),
        discarded=(False,) * len(seated),
        rules=rules,
        options=rules.options_with_defaults(options or {}),
    )


# --- ruling on an event --------------------------------------------------------------------


def play(state: LiveHand, event: Event) -> LiveRuling:
    """Rule on one event: the next state, or every violation and the state unchanged.

    >>> table = deal(["ann", "bob"], dealer="bob", turned_up=Card.parse("7H"))
    >>> [v.code.value for v in play(table, Draw("bob")).violations]
    ['not_your_turn']
    >>> [v.code.value for v in play(table, Discard("ann", Card.parse("3C"))).violations]
    ['draw_first']
    >>> step = play(table, TakePile("ann", parse_meld(["7H", "7D", "2C=7S"])))
    >>> step.state.hand_sizes, step.state.discards, step.state.phase.value
    ((11, 13), (), 'play')
    """
    found = _check_turn(state, event)
    if found:
        return LiveRuling(state, tuple(found))
    seat = state.players.index(event.player)
    if isinstance(event, Draw):
        return _draw(state, event, seat)
    if isinstance(event, TakePile):
        return _take_pile(state, event, seat)
    if isinstance(event, TakeDiscard):
        return _take_discard(state, event, seat)
    if isinstance(event, Meld):
        return _meld(state, event, seat)
    if isinstance(event, Extend):
        return _extend(state, event, seat)
    if isinstance(event, Pass):
        return _pass(state, event, seat)
    return _discard(state, event, seat)


def _check_turn(state: LiveHand, event: Event) -> list[Violation]:
    player = event.player
    if player not in state.players:
        return [violation(Code.PLAYERS_MISMATCH, "player", problem="not_seated", player=player)]
    if state.phase is Phase.ENDED:
        return [violation(Code.HAND_ENDED, "type")]
    turn = state.players[state.turn]
    if player != turn:
        return [violation(Code.NOT_YOUR_TURN, "player", player=player, turn=turn)]
    starts = isinstance(event, (Draw, TakePile, TakeDiscard))
    if starts and state.phase is Phase.PLAY:
        return [violation(Code.ALREADY_DRAWN, "type", player=player)]
    if not starts and state.phase is Phase.DRAW:
        return [violation(Code.DRAW_FIRST, "type", player=player)]
    return []


def _draw(state: LiveHand, event: Draw, seat: int) -> LiveRuling:
    stock, stock_known, discards = state.stock, state.stock_known, state.discards
    kept = 1 if state.rules.turn_over_keeps_top else 0
    if stock == 0:
        if len(discards) <= kept:  # nothing to turn over: the hand ends, nobody goes out
            if event.card is not None:
                return _refuse(
                    state, violation(Code.DRAW_CARD_UNKNOWN, "card", card=event.card.code)
                )
            return LiveRuling(
                replace(
                    state, phase=Phase.ENDED, ending=Ending.STOCK_EXHAUSTED, events=state.events + 1
                )
            )
        # Turned over unshuffled, the oldest first; some games leave the top discard showing.
        stock_known, discards = discards[: len(discards) - kept], discards[len(discards) - kept :]
        stock = len(stock_known)
    known = state.known
    if stock_known:
        drawn, stock_known = stock_known[0], stock_known[1:]
        if event.card is not None and event.card != drawn:
            return _refuse(
                state,
                violation(Code.DRAW_NOT_TOP_CARD, "card", card=event.card.code, top=drawn.code),
            )
        known = _with(known, seat, _sorted((*known[seat], drawn)))
    elif event.card is not None:
        return _refuse(state, violation(Code.DRAW_CARD_UNKNOWN, "card", card=event.card.code))
    return LiveRuling(
        replace(
            state,
            phase=Phase.PLAY,
            stock=stock - 1,
            stock_known=stock_known,
            discards=discards,
            hand_sizes=_with(state.hand_sizes, seat, state.hand_sizes[seat] + 1),
            known=known,
            events=state.events + 1,
        )
    )


def _take_pile(state: LiveHand, event: TakePile, seat: int) -> LiveRuling:
    if state.rules.take is not Take.PILE:
        return _refuse(state, violation(Code.TAKE_PILE_NOT_ALLOWED, "type"))
    if not state.discards:
        return _refuse(state, violation(Code.DISCARD_PILE_EMPTY, "type"))
    top = state.discards[-1]
    at = next((i for i, c in enumerate(event.meld) if c.card == top), None)
    if at is None:
        return _refuse(
            state,
            violation(
                Code.TAKE_PILE_TOP_CARD,
                "meld",
                card=top.code,
                meld=" ".join(c.code for c in event.meld),
            ),
        )
    from_hand = (*event.meld[:at], *event.meld[at + 1 :])
    ruling = state.rules.rule_take(event.meld[at], from_hand, state.options)
    found = [Violation(v.code, v.params, "meld") for v in ruling.violations]
    spent = _from_hand(state, seat, [c.card for c in from_hand], "meld")
    found.extend(spent.violations)
    if found:
        return LiveRuling(state, tuple(found))
    rest = state.discards[:-1]  # public: the player is known to hold them now
    size = state.hand_sizes[seat] - len(from_hand) + len(rest)
    after = replace(
        state,
        phase=Phase.PLAY,
        discards=(),
        seen=spent.seen,
        melds=(*state.melds, TableMeld(len(state.melds), event.player, event.meld)),
        hand_sizes=_with(state.hand_sizes, seat, size),
        known=_with(state.known, seat, _sorted((*spent.known, *rest))),
        events=state.events + 1,
        taken=top,
    )
    return LiveRuling(_out_if_empty(after, seat))


def _take_discard(state: LiveHand, event: TakeDiscard, seat: int) -> LiveRuling:
    if state.rules.take is not Take.DISCARD:
        return _refuse(state, violation(Code.TAKE_DISCARD_NOT_ALLOWED, "type"))
    if not state.discards:
        return _refuse(state, violation(Code.DISCARD_PILE_EMPTY, "type"))
    top = state.discards[-1]
    return LiveRuling(
        replace(
            state,
            phase=Phase.PLAY,
            discards=state.discards[:-1],
            hand_sizes=_with(state.hand_sizes, seat, state.hand_sizes[seat] + 1),
            known=_with(state.known, seat, _sorted((*state.known[seat], top))),
            events=state.events + 1,
            taken=top,
        )
    )


def _strands_taken_card(state: LiveHand, seat: int, spent: _Spent, count: int) -> list[Violation]:
    """Ruling 21: a move may not leave its player holding only the card taken from the discard
    pile this turn, in a game where that card may not be discarded: no legal move would be
    left. Playing every card, that one included, goes out and stays legal."""
    taken = state.taken
    if taken is None or state.hand_sizes[seat] - count != 1 or spent.known != (taken,):
        return []
    if state.rules.rule_discard(taken, state.options, taken_from_discards=taken).allowed:
        return []
    player = state.players[seat]
    return [violation(Code.WOULD_STRAND_TAKEN_CARD, "cards", player=player, card=taken.code)]


def _meld(state: LiveHand, event: Meld, seat: int) -> LiveRuling:
    found = [v.at("cards") for v in state.rules.rule_meld(event.cards, state.options).violations]
    spent = _from_hand(state, seat, [c.card for c in event.cards], "cards")
    found.extend(spent.violations)
    found.extend(_strands_taken_card(state, seat, spent, len(event.cards)))
    if found:
        return LiveRuling(state, tuple(found))
    after = replace(
        state,
        seen=spent.seen,
        known=_with(state.known, seat, spent.known),
        melds=(*state.melds, TableMeld(len(state.melds), event.player, event.cards)),
        hand_sizes=_with(state.hand_sizes, seat, state.hand_sizes[seat] - len(event.cards)),
        events=state.events + 1,
    )
    return LiveRuling(_out_if_empty(after, seat))


def _extend(state: LiveHand, event: Extend, seat: int) -> LiveRuling:
    if not 0 <= event.meld < len(state.melds):
        return _refuse(
            state, violation(Code.UNKNOWN_MELD, "meld", meld=event.meld, count=len(state.melds))
        )
    target = state.melds[event.meld]
    ruling = state.rules.rule_add(
        target.cards, event.cards, state.options, player=event.player, owner=target.owner
    )
    found = [
        v.at("cards") if v.code is not Code.NOT_YOUR_MELD else v.at("meld")
        for v in ruling.violations
    ]
    spent = _from_hand(state, seat, [c.card for c in event.cards], "cards")
    found.extend(spent.violations)
    found.extend(_strands_taken_card(state, seat, spent, len(event.cards)))
    if found:
        return LiveRuling(state, tuple(found))
    melds = list(state.melds)
    melds[event.meld] = replace(target, cards=(*target.cards, *event.cards))
    after = replace(
        state,
        seen=spent.seen,
        known=_with(state.known, seat, spent.known),
        melds=tuple(melds),
        hand_sizes=_with(state.hand_sizes, seat, state.hand_sizes[seat] - len(event.cards)),
        events=state.events + 1,
    )
    return LiveRuling(_out_if_empty(after, seat))


def _discard(state: LiveHand, event: Discard, seat: int) -> LiveRuling:
    ruling = state.rules.rule_discard(event.card, state.options, taken_from_discards=state.taken)
    found = [v.at("card") for v in ruling.violations]
    spent = _from_hand(state, seat, [event.card], "card")
    found.extend(spent.violations)
    if found:
        return LiveRuling(state, tuple(found))
    size = state.hand_sizes[seat] - 1
    after = replace(
        state,
        seen=spent.seen,
        known=_with(state.known, seat, spent.known),
        discards=(*state.discards, event.card),
        hand_sizes=_with(state.hand_sizes, seat, size),
        events=state.events + 1,
    )
    if size == 0:  # going out with a discard: still all at once if it is the first
        return LiveRuling(_out_if_empty(after, seat))
    return LiveRuling(
        _next_turn(replace(after, discarded=_with(state.discarded, seat, True)), seat)
    )


def _pass(state: LiveHand, event: Pass, seat: int) -> LiveRuling:
    """Ruling 20: holding only cards never discarded, none of which any meld can take."""
    stuck = state.rules.never_discarded
    size, known = state.hand_sizes[seat], state.known[seat]

    def refuse(problem: str, **params: object) -> LiveRuling:
        found = violation(
            Code.PASS_NOT_ALLOWED, "type", problem=problem, player=event.player, **params
        )
        return _refuse(state, found)

    if stuck is None:
        return refuse("no_pass")
    unseen = size - len(known)
    if any(card != stuck for card in known) or unseen > state.rules.packs - state.seen[stuck.index]:
        return refuse("holds_other")
    stuck_meld = (MeldCard.natural(stuck),)
    for meld in state.melds:
        ruling = state.rules.rule_add(
            meld.cards, stuck_meld, state.options, player=event.player, owner=meld.owner
        )
        if ruling.allowed:
            return refuse("meld", meld=meld.index)
    if state.rules.rule_meld(stuck_meld * size, state.options).valid:
        return refuse("new_meld")
    # Ruling 22: the pass is judged on what the table sees, and reveals nothing. A card drawn
    # privately stays unknown: the pass says only that it may be a queen of spades, not that it
    # is one, so the state records no card the table has not seen.
    return LiveRuling(_next_turn(replace(state, events=state.events + 1), seat))


def _next_turn(state: LiveHand, seat: int) -> LiveHand:
    return replace(state, phase=Phase.DRAW, turn=(seat + 1) % len(state.players), taken=None)


@dataclass(frozen=True, slots=True)
class _Spent:
    known: tuple[Card, ...]
    seen: tuple[int, ...]
    violations: tuple[Violation, ...]


def _from_hand(state: LiveHand, seat: int, cards: Sequence[Card], path: str) -> _Spent:
    """Play ``cards`` from a hand: known cards first, the rest revealed from its private part."""
    player, size = state.players[seat], state.hand_sizes[seat]
    known = list(state.known[seat])
    revealed: list[Card] = []
    for card in cards:
        if card in known:
            known.remove(card)
        else:
            revealed.append(card)
    found: list[Violation] = []
    if len(cards) > size:
        found.append(
            violation(Code.MORE_CARDS_THAN_HELD, path, player=player, held=size, count=len(cards))
        )
    elif len(revealed) > size - len(state.known[seat]):
        found.append(
            violation(
                Code.KNOWN_CARDS_IN_HAND,
                path,
                player=player,
                held=size,
                cards=" ".join(c.code for c in state.known[seat]),
                count=len(revealed),
            )
        )
    seen, excess = _reveal(state.seen, revealed, state.rules.packs)
    found.extend(
        violation(state.rules.card_count_code, path, card=card.code, count=count)
        for card, count in excess
    )
    return _Spent(tuple(known), seen, tuple(found))


def _reveal(
    seen: tuple[int, ...], cards: Sequence[Card], copies: int
) -> tuple[tuple[int, ...], list[tuple[Card, int]]]:
    counts = list(seen)
    excess: dict[Card, int] = {}
    for card in cards:
        counts[card.index] += 1
        if counts[card.index] > copies:
            excess[card] = counts[card.index]
    return tuple(counts), sorted(excess.items(), key=lambda item: item[0].index)


def _out_if_empty(state: LiveHand, seat: int) -> LiveHand:
    """Going out by melding or discarding the last card ends the hand at once."""
    if state.hand_sizes[seat]:
        return state
    return replace(
        state, phase=Phase.ENDED, ending=Ending.WENT_OUT, went_out=state.players[seat], turn=seat
    )


def _refuse(state: LiveHand, found: Violation) -> LiveRuling:
    return LiveRuling(state, (found,))


def _with(values: tuple[T_, ...], index: int, value: T_) -> tuple[T_, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda card: card.index))


# --- the end of the hand -------------------------------------------------------------------


def finish(state: LiveHand, held: Mapping[Hashable, Sequence[Card]]) -> Finished:
    """Score the ended hand from the cards left in each hand, as a hand entered whole.

    ``held`` may leave out the player who went out. The count entered for each player must be
    the count the play leaves, and include every card known to be in that hand.

    >>> table = deal(["ann", "bob"], dealer="bob", turned_up=Card.parse("7H"))
    >>> [v.code.value for v in finish(table, {}).violations]
    ['hand_not_ended']
    """
    if state.phase is not Phase.ENDED:
        return Finished(None, None, (violation(Code.HAND_NOT_ENDED, "type"),))
    found: list[Violation] = []
    for player in held:
        if player not in state.players:
            found.append(
                violation(
                    Code.PLAYERS_MISMATCH, f"held.{player}", problem="not_seated", player=player
                )
            )
    revealed: list[Card] = []
    for seat, player in enumerate(state.players):
        cards = list(held.get(player, ()))
        path = f"held.{player}"
        if len(cards) != state.hand_sizes[seat]:
            found.append(
                violation(
                    Code.HELD_COUNT_MISMATCH,
                    path,
                    player=player,
                    held=state.hand_sizes[seat],
                    count=len(cards),
                )
            )
        for card in state.known[seat]:
            if card in cards:
                cards.remove(card)
            else:
                found.append(
                    violation(Code.HELD_KNOWN_CARD_MISSING, path, player=player, card=card.code)
                )
        revealed.extend(cards)
    _, excess = _reveal(state.seen, revealed, state.rules.packs)
    found.extend(
        violation(state.rules.card_count_code, "held", card=card.code, count=count)
        for card, count in excess
    )
    if found:
        return Finished(None, None, tuple(found))
    hand = final_table(state, held)
    out = None if state.went_out is None else state.players.index(state.went_out)
    flags = state.rules.live_flags(all_at_once=out is not None and not state.discarded[out])
    ruling = state.rules.rule_hand(hand, state.options, flags=flags, seated=state.players)
    return Finished(hand, ruling, ruling.violations, flags)


def final_table(state: LiveHand, held: Mapping[Hashable, Sequence[Card]]) -> HandInput:
    """The hand as a scorekeeper would enter it whole: each player's melds and held cards.

    >>> table = deal(["ann", "bob"], dealer="bob", turned_up=Card.parse("7H"))
    >>> final_table(table, {"bob": parse_cards(["2D"])}).results[1].held
    (Card.parse('2D'),)
    """
    return HandInput(
        ending=state.ending or Ending.STOCK_EXHAUSTED,
        went_out=state.went_out,
        results=tuple(
            PlayerInput(
                player,
                tuple(meld.cards for meld in state.melds if meld.owner == player),
                tuple(held.get(player, ())),
            )
            for player in state.players
        ),
    )


def public_state(
    state: LiveHand,
    *,
    version: int | None = None,
    player_id: Callable[[Hashable], object] = lambda player: player,
) -> dict[str, object]:
    """The state as the table may see it, as JSON data (``version`` defaults to the event count).

    ``player_id`` turns a player into the identifier clients know.

    >>> table = deal([17, 21], dealer=21, turned_up=Card.parse("7H"))
    >>> data = public_state(table)
    >>> data["turn"], data["phase"], data["stock"], data["discards"], data["hand_sizes"]
    (17, 'draw', 77, ['7H'], {'17': 13, '21': 13})
    """
    return {
        "version": state.events if version is None else version,
        "hand": state.number,
        "dealer": player_id(state.dealer),
        "turn": None if state.phase is Phase.ENDED else player_id(state.players[state.turn]),
        "phase": state.phase.value,
        "stock": state.stock,
        "stock_known": [card.code for card in state.stock_known],
        "discards": [card.code for card in state.discards],
        "melds": [
            {
                "index": meld.index,
                "owner": player_id(meld.owner),
                "cards": [card.code for card in meld.cards],
            }
            for meld in state.melds
        ],
        "hand_sizes": {
            str(player_id(p)): n for p, n in zip(state.players, state.hand_sizes, strict=True)
        },
        "known_in_hand": {
            str(player_id(p)): [card.code for card in cards]
            for p, cards in zip(state.players, state.known, strict=True)
        },
        "ending": None if state.ending is None else state.ending.value,
        "went_out": None if state.went_out is None else player_id(state.went_out),
        "events": state.events,
    }


def replay_events(state: LiveHand, events: Sequence[Event]) -> LiveHand:
    """Play events already accepted once (a stored log); raises ``ValueError`` on a refused one.

    >>> table = deal(["ann", "bob"], dealer="bob", turned_up=Card.parse("7H"))
    >>> replay_events(table, [Draw("ann"), Discard("ann", Card.parse("9C"))]).turn_player
    'bob'
    """
    for number, event in enumerate(events, start=1):
        step = play(state, event)
        if not step.accepted:
            codes = ", ".join(v.code.value for v in step.violations)
            raise ValueError(f"event {number} is refused: {codes}")
        state = step.state
    return state
