"""A hand refereed as it is played: the live table, from what the table can see.

The state is a value. :func:`deal` starts a hand of any ruleset (:mod:`scoring.rulesets`),
:func:`play` rules on one event and answers the next state or every violation (the state it was
given is left as it was), and :func:`finish` scores the ended hand with the same ruling as a
hand entered whole. Every rule of a move is the ruleset's: the deal's sizes, what may be taken
from the discard pile, melds, adding to melds, discards and the score. No hidden card is ever
assumed: a card drawn from the dealt stock stays private, and only cards the table has seen
(the turned-up card, the discard pile, melds, a turned-over stock) are tracked.

>>> from scoring.cards import Card
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

from scoring.live.events import (
    Discard,
    Draw,
    Event,
    Extend,
    Meld,
    Pass,
    TakeDiscard,
    TakePile,
    event_from_dict,
)
from scoring.live.finish import final_table, finish, public_state
from scoring.live.play import deal, play, replay_events
from scoring.live.state import PACK_SIZE, Finished, LiveHand, LiveRuling, Phase, TableMeld

__all__ = [
    "PACK_SIZE",
    "Discard",
    "Draw",
    "Event",
    "Extend",
    "Finished",
    "LiveHand",
    "LiveRuling",
    "Meld",
    "Pass",
    "Phase",
    "TableMeld",
    "TakeDiscard",
    "TakePile",
    "deal",
    "event_from_dict",
    "final_table",
    "finish",
    "play",
    "public_state",
    "replay_events",
]
