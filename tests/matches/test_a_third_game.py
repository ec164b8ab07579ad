"""A third game defined here alone plays through every part of the service (nothing else edited).

"Sets" is a toy: one pack, sets only (three or four of a rank), seven cards each for two to
four players, the top discard taken alone, lay-offs on any meld. A melded card scores 1, a
held card costs 1, and going out earns 5; the match is played to 20. A hand may be "doubled".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence

import pytest
from rest_framework.test import APIClient

from scoring import (
    Card,
    Code,
    Ending,
    HandInput,
    HandRuling,
    MeldCard,
    MeldKind,
    MeldRuling,
    PlayerResult,
    TurnRuling,
    rummy,
)
from scoring.match import Finish
from scoring.rulesets import (
    BaseRuleset,
    Extends,
    Flag,
    MeldSizes,
    Options,
    Take,
    register,
    registered,
    unregister,
)
from scoring.violations import violation
from tests.factories import record, start_match
from tests.matches.test_live_api import Table


class Sets(BaseRuleset):
    name = "sets"
    label = "Sets"
    description = "A toy: one pack, sets only, played to 20."
    min_players, max_players = 2, 4
    packs = 1
    meld_sizes = MeldSizes(3, 4)
    target = 20
    endings = (Ending.WENT_OUT,)
    flags = (Flag("doubled", "Doubled"),)
    take = Take.DISCARD
    extends = Extends.ANY
    turn_over_keeps_top = False
    card_count_code = rummy.RummyCode.CARD_COUNT_EXCEEDED

    def deal_size(self, players: int) -> int:
        return 7

    def card_points(self, card: Card) -> int:
        return 1

    def rule_meld(self, cards: Sequence[MeldCard], options: Options) -> MeldRuling:
        text = " ".join(c.code for c in cards)
        found = []
        if len(cards) < 3:
            found.append(violation(Code.MELD_TOO_SHORT, meld=text, count=len(cards)))
        if len(cards) > 4:
            found.append(violation(Code.MELD_TOO_LONG, meld=text, count=len(cards)))
        ranks = {c.card.rank for c in cards}
        if len(ranks) > 1 or any(c.wild for c in cards):
            names = ", ".join(sorted(r.value for r in ranks))
            found.append(violation(Code.SET_MIXED_RANKS, meld=text, ranks=names))
        return MeldRuling(tuple(cards), None if found else MeldKind.SET, len(cards), tuple(found))

    def rule_hand(
        self,
        hand: HandInput,
        options: Options,
        *,
        flags: Mapping[str, bool],
        seated: Sequence[Hashable] | None = None,
    ) -> HandRuling:
        times = 2 if flags.get("doubled") else 1
        found = []
        results = []
        for i, entry in enumerate(hand.results):
            melds = tuple(self.rule_meld(meld, options) for meld in entry.melds)
            for j, meld in enumerate(melds):
                found.extend(v.at(f"results.{i}.melds.{j}") for v in meld.violations)
            out = entry.player == hand.went_out
            if out and entry.held:
                found.append(
                    violation(
                        Code.WENT_OUT_WITH_CARDS,
                        f"results.{i}.hand",
                        player=entry.player,
                        problem="holds_cards",
                        cards=" ".join(c.code for c in entry.held),
                    )
                )
            results.append(
                PlayerResult(
                    player=entry.player,
                    melds=melds,
                    held=entry.held,
                    melded_points=times * sum(len(m) for m in entry.melds),
                    hand_penalty=times * len(entry.held),
                    bonus=5 if out else 0,
                )
            )
        if seated is not None and Counter(e.player for e in hand.results) != Counter(seated):
            found.append(violation(Code.PLAYERS_MISMATCH, "results", problem="missing", player="?"))
        return HandRuling(tuple(results), tuple(found))

    def rule_add(
        self,
        meld: Sequence[MeldCard],
        add: Sequence[MeldCard],
        options: Options,
        *,
        player: Hashable | None = None,
        owner: Hashable | None = None,
    ) -> TurnRuling:
        extended = (*meld, *add)
        return TurnRuling(extended, self.rule_meld(extended, options).violations)

    def rule_discard(
        self, card: Card, options: Options, *, taken_from_discards: Card | None = None
    ) -> TurnRuling:
        return TurnRuling(None, ())

    def decide_finish(self, totals: Mapping[Hashable, int], options: Options) -> Finish:
        return rummy.decide_finish(totals, target=self.target)

    def winner_deals(self, seats: int) -> bool:
        return False

    def next_dealer(self, *, seats: int, dealer: int, went_out: int | None) -> int:
        return (dealer + 1) % seats


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture(autouse=True)
def sets() -> Iterator[Sets]:
    with registered(Sets()) as game:
        yield game  # type: ignore[misc]


ANN_MELDS = [["3H", "3D", "3C"], ["9H", "9D", "9C", "9S"]]  # 7 cards and one drawn


def test_the_game_describes_itself(api_client):
    listed = [item["name"] for item in api_client.get("/api/v1/rulesets/").json()]
    assert listed == ["arlington", "rummy", "sets"]
    described = api_client.get("/api/v1/rulesets/sets/").json()
    assert described["players"] == {"min": 2, "max": 4}
    assert (described["packs"], described["wild_rank"], described["target"]) == (1, None, 20)
    assert described["flags"] == [{"name": "doubled", "label": "Doubled", "default": False}]
    assert described["live"] == {"take": "discard"}


def test_the_rulings_rule_by_the_game(api_client):
    meld = api_client.post(
        "/api/v1/rulings/sets/meld/", {"cards": ["5H", "6H", "7H"]}, format="json"
    )
    assert [v["code"] for v in meld.json()["violations"]] == ["set_mixed_ranks"]
    ok = api_client.post("/api/v1/rulings/sets/meld/", {"cards": ["5H", "5D", "5S"]}, format="json")
    assert ok.json()["valid"] is True and ok.json()["points"] == 3
    add = api_client.post(
        "/api/v1/rulings/sets/lay-off/", {"meld": ["5H", "5D", "5S"], "add": ["5C"]}, format="json"
    )
    assert add.json()["allowed"] is True
    assert api_client.post("/api/v1/rulings/sets/extend/", {}, format="json").status_code == 404
    hand = api_client.post(
        "/api/v1/rulings/sets/hand/",
        {
            "ending": "went_out",
            "went_out": "ann",
            "doubled": True,
            "results": [
                {"player": "ann", "melds": ANN_MELDS, "hand": []},
                {"player": "bob", "melds": [], "hand": ["KD", "4H"]},
            ],
        },
        format="json",
    ).json()
    assert hand["doubled"] is True
    assert [r["net"] for r in hand["results"]] == [14 + 5, -4]


def test_a_match_records_hands_finishes_and_counts_in_its_own_standings(as_carol, club, roster):
    too_many = as_carol.post(
        "/api/v1/matches/",
        {"club": club.pk, "players": [p.pk for p in roster], "ruleset": "sets"},
        format="json",
    )
    assert too_many.status_code == 400
    assert too_many.json()["errors"][0]["code"] == "seat_count"
    match = start_match(as_carol, club, roster[:2], ruleset="sets")
    assert match["ruleset"] == "sets"
    ann, ben = roster[0].pk, roster[1].pk
    body = {
        "ending": "went_out",
        "went_out": ann,
        "flags": {"doubled": True},
        "results": [
            {"player": ann, "melds": ANN_MELDS, "hand": []},
            {"player": ben, "melds": [], "hand": ["KD", "4H"]},
        ],
    }
    first = record(as_carol, match["id"], body)
    assert first.status_code == 201, first.json()
    assert first.json()["flags"] == {"doubled": True}
    assert first.json()["match"]["status"] == "in_progress"  # 19 < 20
    second = record(as_carol, match["id"], {**body, "flags": {}})
    assert second.status_code == 201, second.json()
    assert second.json()["match"]["status"] == "finished"
    assert second.json()["match"]["winners"] == [ann]
    rows = as_carol.get(f"/api/v1/clubs/{club.pk}/standings/?ruleset=sets").json()
    assert [(r["player"], r["wins"], r["hands_played"]) for r in rows] == [(ann, 1, 2), (ben, 0, 2)]
    arlington = as_carol.get(f"/api/v1/clubs/{club.pk}/standings/").json()
    assert all(r["matches_played"] == 0 for r in arlington)


def test_the_live_table_plays_it(as_carol, club, roster):
    match = start_match(as_carol, club, roster[:2], ruleset="sets")
    ann, ben = roster[0].pk, roster[1].pk
    table = Table(as_carol, match)
    state = table.start("7H").json()
    assert (state["stock"], state["turn"]) == (52 - 14 - 1, ben)
    table.play(
        {"type": "take_discard", "player": ben}, {"type": "discard", "player": ben, "card": "KC"}
    )
    state = table.play(
        {"type": "draw", "player": ann},
        *({"type": "meld", "player": ann, "cards": cards} for cards in ANN_MELDS),
        {"type": "discard", "player": ann, "card": "JC"},
    ).json()
    assert (state["phase"], state["went_out"]) == ("ended", ann)
    done = table.send(
        {"type": "finish", "held": {str(ben): ["KD", "4H", "5S", "6S", "7S", "8S", "7H"]}}
    )
    assert done.status_code == 201, done.json()
    assert {r["player"]: r["net"] for r in done.json()["results"]} == {ann: 7 + 5, ben: -7}


def test_the_model_s_choices_are_the_registry_s_and_every_game_fits_a_row():
    from matches.models import MAX_SEATS, MIN_SEATS, Match
    from scoring.rulesets import RULESETS

    assert [name for name, _ in Match._meta.get_field("ruleset").choices] == list(RULESETS)
    assert all(MIN_SEATS <= r.min_players <= r.max_players <= MAX_SEATS for r in RULESETS.values())


def _ruleset_enums(document: Mapping[str, object]) -> list[list[str]]:
    """Every enum of the document that lists Arlington: the games a ruleset may name."""
    found: list[list[str]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            enum = node.get("enum")
            if isinstance(enum, list) and "arlington" in enum:
                found.append(enum)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    return found


def test_the_document_lists_the_games_registered_when_it_is_built(sets):
    """Every field and path parameter naming a game reads the registry when the document is
    built, not when its module was imported: tests that register a game leave no trace."""
    from tests.api import openapi

    def enums() -> list[list[str]]:
        document, warnings = openapi.built()
        assert warnings == ()
        return _ruleset_enums(document)

    with_sets = enums()
    assert sum("sets" in enum for enum in with_sets) >= 5, with_sets
    unregister(sets.name)
    try:
        without = enums()
    finally:
        register(sets)
    assert without == [[name for name in enum if name != "sets"] for enum in with_sets]


class Trusting(Sets):
    """A game whose own ruling checks nothing about who is at the table, as a package's game
    may well forget to: the service's shared checks still hold for it."""

    name = "trusting"
    label = "Trusting"

    def rule_hand(
        self,
        hand: HandInput,
        options: Options,
        *,
        flags: Mapping[str, bool],
        seated: Sequence[Hashable] | None = None,
    ) -> HandRuling:
        return super().rule_hand(hand, options, flags=flags, seated=None)


def test_a_game_that_forgets_the_table_still_gets_no_doubled_or_missing_player(
    as_carol, club, roster, api_client
):
    with registered(Trusting()):
        match = start_match(as_carol, club, roster[:2], ruleset="trusting")
        ann, ben, cleo = (player.pk for player in roster[:3])
        ann_out = {"player": ann, "melds": ANN_MELDS, "hand": []}
        ben_holds = {"player": ben, "melds": [], "hand": ["KD", "4H"]}

        def refused(**changes: object) -> list[tuple[str, str]]:
            body = {"ending": "went_out", "went_out": ann, "results": [ann_out, ben_holds]}
            answer = record(as_carol, match["id"], {**body, **changes})
            assert answer.status_code == 400, answer.content
            return [(e["code"], e["attr"]) for e in answer.json()["errors"]]

        assert refused(results=[ann_out]) == [("players_mismatch", "results")]
        assert ("players_mismatch", "results") in refused(results=[ann_out, ann_out, ben_holds])
        assert refused(results=[ann_out, {**ben_holds, "player": cleo}]) == [
            ("players_mismatch", "results"),
            ("players_mismatch", "results.1.player"),
        ]
        assert refused(went_out=cleo) == [("went_out_unknown_player", "went_out")]
        # one pack holds one king of diamonds
        kings = refused(results=[ann_out, {**ben_holds, "hand": ["KD", "KD"]}])
        assert kings == [("card_count_exceeded", "results.1.hand")]
        assert as_carol.get(f"/api/v1/matches/{match['id']}/hands/").json()["count"] == 0

        ruling = api_client.post(
            "/api/v1/rulings/trusting/hand/",
            {
                "ending": "went_out",
                "went_out": "cleo",
                "results": [
                    {"player": "ann", "melds": ANN_MELDS, "hand": []},
                    {"player": "ann", "melds": [], "hand": ["KD", "4H"]},
                ],
            },
            format="json",
        ).json()
        assert ruling["valid"] is False
        assert {v["code"] for v in ruling["violations"]} == {
            "players_mismatch",
            "went_out_unknown_player",
        }


def test_a_match_of_a_game_no_longer_installed_is_read_and_refused_clearly(as_carol, club, roster):
    """The package of a game was uninstalled while matches of it are kept: the club's lists
    and the match still read, and entering a hand says which game is missing (no 500)."""
    with registered(Trusting()):
        match = start_match(as_carol, club, roster[:2], ruleset="trusting")
        ann, ben = roster[0].pk, roster[1].pk
        body = {
            "ending": "went_out",
            "went_out": ann,
            "results": [
                {"player": ann, "melds": ANN_MELDS, "hand": []},
                {"player": ben, "melds": [], "hand": ["KD", "4H"]},
            ],
        }
        assert record(as_carol, match["id"], body).status_code == 201
    url = f"/api/v1/matches/{match['id']}/"
    for read in ("/api/v1/matches/", url, f"{url}hands/", f"{url}hands/1/"):
        assert as_carol.get(read).status_code == 200, read
    assert as_carol.get(url).json()["next_dealer"] is None
    refused = record(as_carol, match["id"], body)
    assert refused.status_code == 409
    [error] = refused.json()["errors"]
    assert error["code"] == "game_not_installed"
    assert "No game named trusting is installed" in error["detail"]
    voided = as_carol.delete(f"{url}hands/1/", HTTP_IF_MATCH='"1"')
    draft = as_carol.put(
        f"{url}hands/2/draft/ending/",
        {"ending": "went_out", "went_out": ann, "version": 0},
        format="json",
    )
    assert as_carol.get(f"{url}hands/2/draft/").status_code == 200  # reading it is no harm
    for answer in (voided, draft):
        assert answer.status_code == 409, answer.content
        assert answer.json()["errors"][0]["code"] == "game_not_installed"
