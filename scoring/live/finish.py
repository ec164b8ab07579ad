"""The end of a live hand: its score, the table as a hand entered whole, the public view."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence

from scoring.cards import Card
from scoring.hands import Ending, HandInput, PlayerInput
from scoring.live.state import Finished, LiveHand, Phase, reveal
from scoring.rulesets import rule_hand
from scoring.violations import Code, Violation, violation


def finish(state: LiveHand, held: Mapping[Hashable, Sequence[Card]]) -> Finished:
    """Score the ended hand from the cards left in each hand, as a hand entered whole.

    ``held`` may leave out the player who went out. The count entered for each player must be
    the count the play leaves, and include every card known to be in that hand.

    >>> from scoring.live import deal
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
    _, excess = reveal(state.seen, revealed, state.rules.packs)
    found.extend(
        violation(state.rules.card_count_code, "held", card=card.code, count=count)
        for card, count in excess
    )
    if found:
        return Finished(None, None, tuple(found))
    hand = final_table(state, held)
    out = None if state.went_out is None else state.players.index(state.went_out)
    flags = state.rules.live_flags(all_at_once=out is not None and not state.discarded[out])
    ruling = rule_hand(state.rules, hand, state.options, flags=flags, seated=state.players)
    return Finished(hand, ruling, ruling.violations, flags)


def final_table(state: LiveHand, held: Mapping[Hashable, Sequence[Card]]) -> HandInput:
    """The hand as a scorekeeper would enter it whole: each player's melds and held cards.

    >>> from scoring.cards import parse_cards
    >>> from scoring.live import deal
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

    >>> from scoring.live import deal
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
