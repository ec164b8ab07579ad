"""Dealing a live hand and ruling on each event, move by move."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from scoring.cards import ALL_CARDS, Card, MeldCard
from scoring.games.arlington import RULESET as ARLINGTON
from scoring.hands import Ending
from scoring.live.events import Discard, Draw, Event, Extend, Meld, Pass, TakeDiscard, TakePile
from scoring.live.state import PACK_SIZE, LiveHand, LiveRuling, Phase, TableMeld, reveal
from scoring.rulesets import Options, Ruleset, Take
from scoring.violations import Code, Violation, violation

T_ = TypeVar("T_")


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
    >>> from scoring.games.rummy import RULESET as RUMMY
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
    >>> from scoring.cards import parse_meld
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
    seen, excess = reveal(state.seen, revealed, state.rules.packs)
    found.extend(
        violation(state.rules.card_count_code, path, card=card.code, count=count)
        for card, count in excess
    )
    return _Spent(tuple(known), seen, tuple(found))


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
