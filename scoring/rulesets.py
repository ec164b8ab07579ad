"""The games the service scores, behind one interface, and the registry that finds them.

A ruleset owns its meld rules, deal rules, turn rules, scoring, finish and codes, and describes
itself (:func:`describe`); the rulesets share the card notation and the value types. The
matches app, the rulings and the live table ask a match's ruleset, never a game's module
directly. The games are found, not listed: each module of :mod:`scoring.games` (Arlington and
classic Rummy ship there) and each installed package's entry point in the group
``arlington.rulesets``, so a third game is one module, in the tree or in a package of its own.

>>> from scoring import parse_meld
>>> [ruleset(name).rule_meld(parse_meld(["3H", "4H", "5H", "6H", "7H"]), {}).valid
...  for name in ("arlington", "rummy")]
[False, True]
>>> ruleset("rummy").options_with_defaults({"target": 250})
{'target': 250, 'ace': 'low'}
>>> describe(ruleset("arlington"))["meld_sizes"], describe(ruleset("rummy"))["live"]
({'min': 3, 'max': 4}, {'take': 'discard'})
"""

from __future__ import annotations

import difflib
import enum
import importlib
import importlib.util
import pkgutil
import re
import threading
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.metadata import distributions, entry_points
from pathlib import Path
from typing import Final, Protocol

from scoring import games
from scoring.cards import Card, MeldCard, Rank
from scoring.hands import Ending, HandInput, HandRuling, check_table
from scoring.match import Finish
from scoring.melds import MeldRuling
from scoring.turns import TurnRuling
from scoring.violations import RuleCode

Options = Mapping[str, object]
"""A match's options, as stored: each of the ruleset's :class:`Option` names with its value."""


@dataclass(frozen=True, slots=True)
class Option:
    """A setting fixed when a match is created: an integer in a range, or one of some words."""

    name: str
    default: int | str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    description: str = field(default="", compare=False)
    """What the option does, in English, for the API's documentation (empty: a generic one)."""

    def as_dict(self) -> dict[str, object]:
        """The option as :func:`describe` shows it.

        >>> Option("target", 100, minimum=1, maximum=500).as_dict()
        {'name': 'target', 'default': 100, 'min': 1, 'max': 500}
        """
        if self.choices:
            return {"name": self.name, "default": self.default, "choices": list(self.choices)}
        bounds = {"min": self.minimum, "max": self.maximum}
        return {"name": self.name, "default": self.default, **bounds}


@dataclass(frozen=True, slots=True)
class Flag:
    """A yes/no fact a recorded hand states besides its melds and cards (Rummy: ``rummy``)."""

    name: str
    label: str
    """In English, marked for translation."""
    default: bool = False


@dataclass(frozen=True, slots=True)
class MeldSizes:
    """How many cards a meld holds: at least ``min``, at most ``max`` (None: no limit)."""

    min: int
    max: int | None


class Extends(enum.StrEnum):
    """Whose melds a player may add cards to."""

    OWN = "own"
    """Only the player's own melds (the ruling is called ``extend``)."""
    ANY = "any"
    """Any meld on the table, whoever put it down (the ruling is called ``lay-off``)."""


class Take(enum.StrEnum):
    """What a player may take from the discard pile at the live table, instead of drawing."""

    PILE = "pile"
    """The whole pile, by melding its top card with cards from hand (``take_pile``)."""
    DISCARD = "discard"
    """The top discard only, into the hand (``take_discard``)."""


class Ruleset(Protocol):
    """What a game's rules answer; options are already read and hold every option's value.

    Its description (:func:`describe`) comes from the attributes; the turn rules (taking from
    the discard pile, adding to a meld, discarding, passing) and the deal are for live play.
    """

    @property
    def name(self) -> str:
        """The stable name, as a match's ``ruleset`` holds it."""

    @property
    def label(self) -> str:
        """The game's name for people, in English, marked for translation."""

    @property
    def description(self) -> str:
        """One sentence on the game, in English, marked for translation."""

    @property
    def packs(self) -> int:
        """How many 52-card packs are shuffled together: each card exists that many times."""

    @property
    def wild_rank(self) -> Rank | None:
        """The rank whose cards may stand for another card, if any."""

    @property
    def meld_sizes(self) -> MeldSizes:
        """How many cards a meld holds."""

    @property
    def target(self) -> int:
        """The total that ends a match, unless its options say otherwise."""

    @property
    def endings(self) -> tuple[Ending, ...]:
        """How a hand of this game may end."""

    @property
    def flags(self) -> tuple[Flag, ...]:
        """Yes/no facts a recorded hand states besides its melds and cards."""

    @property
    def take(self) -> Take | None:
        """What a player may take from the discard pile live; None: no live play."""

    @property
    def extends(self) -> Extends:
        """Whose melds a player may add cards to."""

    @property
    def turn_over_keeps_top(self) -> bool:
        """Whether the discard pile turned over as a new stock leaves its top card showing."""

    @property
    def card_count_code(self) -> RuleCode:
        """The code of a card seen more often than the packs hold it (its sentence says so)."""

    @property
    def never_discarded(self) -> Card | None:
        """A card no player may ever discard (Arlington's Q♠): holding only it, a player passes."""

    @property
    def min_players(self) -> int:
        """The fewest players at a table."""

    @property
    def max_players(self) -> int:
        """The most players at a table."""

    @property
    def options(self) -> tuple[Option, ...]:
        """The options a match of this game is created with."""

    def deal_size(self, players: int) -> int:
        """How many cards each player is dealt."""

    def card_points(self, card: Card) -> int:
        """What a card held at the end of a hand counts."""

    def rule_meld(self, cards: Sequence[MeldCard], options: Options) -> MeldRuling:
        """Classify and validate one meld."""

    def rule_hand(
        self,
        hand: HandInput,
        options: Options,
        *,
        flags: Mapping[str, bool],
        seated: Sequence[Hashable] | None = None,
    ) -> HandRuling:
        """Score a finished hand and report every violation; ``net`` adds to a total."""

    def rule_add(
        self,
        meld: Sequence[MeldCard],
        add: Sequence[MeldCard],
        options: Options,
        *,
        player: Hashable | None = None,
        owner: Hashable | None = None,
    ) -> TurnRuling:
        """May ``player`` add these cards to the meld ``owner`` put down?"""

    def rule_discard(
        self, card: Card, options: Options, *, taken_from_discards: Card | None = None
    ) -> TurnRuling:
        """May this card be discarded, given the card taken from the discard pile this turn?"""

    def rule_take(
        self, top_card: MeldCard, from_hand: Sequence[MeldCard], options: Options
    ) -> TurnRuling:
        """May the whole discard pile be taken with this new meld (``take`` is ``pile``)?"""

    def live_flags(self, *, all_at_once: bool) -> dict[str, bool]:
        """The hand's flags as the live table saw them: did the winner go out all at once?"""

    def suggest(
        self, cards: Sequence[MeldCard], options: Options
    ) -> tuple[tuple[MeldCard, ...], ...]:
        """Legal melds made by declaring what a bare wild card stands for (never assumed)."""

    def decide_finish(self, totals: Mapping[Hashable, int], options: Options) -> Finish:
        """After a completed hand: is the match over, and who won?"""

    def winner_deals(self, seats: int) -> bool:
        """Whether the winner of a hand deals the next one (else the deal passes left)."""

    def next_dealer(self, *, seats: int, dealer: int, went_out: int | None) -> int:
        """The seat that deals the next hand, from this hand's dealer and who went out."""

    def options_with_defaults(self, given: Options) -> dict[str, object]:
        """Every option's value: the given ones (already checked) and the defaults."""


class BaseRuleset:
    """Defaults a ruleset may keep: no options, no flags, nothing never discarded."""

    options: tuple[Option, ...] = ()
    flags: tuple[Flag, ...] = ()
    never_discarded: Card | None = None
    wild_rank: Rank | None = None

    def options_with_defaults(self, given: Options) -> dict[str, object]:
        """Every option's value: the given ones (already checked) and the defaults."""
        return {option.name: given.get(option.name, option.default) for option in self.options}

    def live_flags(self, *, all_at_once: bool) -> dict[str, bool]:
        """Each flag's default."""
        return {flag.name: flag.default for flag in self.flags}

    def suggest(
        self, cards: Sequence[MeldCard], options: Options
    ) -> tuple[tuple[MeldCard, ...], ...]:
        """None: a game without wild cards has nothing to declare."""
        return ()

    def rule_take(
        self, top_card: MeldCard, from_hand: Sequence[MeldCard], options: Options
    ) -> TurnRuling:
        """Only a game whose ``take`` is ``pile`` is asked (the live table refuses the others)."""
        raise NotImplementedError("this game never takes the discard pile whole")


ENTRY_POINT_GROUP: Final = "arlington.rulesets"
"""The entry point group an installed package names its games in (``name = "module:RULESET"``)."""
DEFAULT: Final = "arlington"
"""The game of a match created without one; always registered, always first."""


class GameError(ValueError):
    """A game that cannot be registered: its name is taken, or its package does not load."""


def found_games() -> Iterator[tuple[Ruleset, str]]:
    """Every game found, with where it comes from: each module of :mod:`scoring.games` that
    defines ``RULESET``, then each entry point of :data:`ENTRY_POINT_GROUP` by its name.

    An entry point names a game (``module:RULESET``) or a module that defines ``RULESET``.

    >>> [(rules.name, origin) for rules, origin in found_games()][:2]
    [('arlington', 'scoring.games.arlington'), ('rummy', 'scoring.games.rummy')]
    """
    for info in pkgutil.iter_modules(games.__path__, f"{games.__name__}."):
        rules = getattr(importlib.import_module(info.name), "RULESET", None)
        if rules is not None:
            yield rules, info.name
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        package = point.dist.name if point.dist is not None else point.module
        origin = f"the package {package} (entry point {point.name} = {point.value})"
        try:
            loaded = point.load()
        except Exception as failed:
            raise GameError(
                f"The game of {origin} could not be loaded: {type(failed).__name__}: {failed}"
            ) from failed
        rules = getattr(loaded, "RULESET", loaded)
        if not isinstance(getattr(rules, "name", None), str) or not callable(
            getattr(rules, "rule_hand", None)
        ):
            raise GameError(f"The entry point of {origin} names no game (no name, no rule_hand).")
        yield rules, origin


def near_groups() -> list[tuple[str, str]]:
    """Installed packages that name entry points in a group close to :data:`ENTRY_POINT_GROUP`
    but not it (``arlington.ruleset``, ``arlington_rulesets``), as ``(package, group)``: a
    misspelt group is otherwise silent, and the package's game is simply not there.

    >>> near_groups()
    []
    """
    wanted = ENTRY_POINT_GROUP.replace("_", ".").lower()
    near: list[tuple[str, str]] = []
    for dist in distributions():
        for group in sorted({point.group for point in dist.entry_points}):
            written = group.replace("_", ".").replace("-", ".").lower()
            close = difflib.SequenceMatcher(None, written, wanted).ratio() >= 0.85
            if group != ENTRY_POINT_GROUP and (close or written.startswith("arlington")):
                found = (dist.metadata["Name"] or "?", group)
                if found not in near:
                    near.append(found)
    return sorted(near)


def package_locales() -> list[str]:
    """The ``locale`` folder of each installed package that names a game, if it ships one
    (its translations, ``locale/<language>/LC_MESSAGES/django.mo``), found without importing
    the package: the settings read this before any game is loaded.

    >>> package_locales() == [] or all(path.endswith("locale") for path in package_locales())
    True
    """
    found: list[str] = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        spec = importlib.util.find_spec(point.module.partition(".")[0])
        for folder in (spec.submodule_search_locations or []) if spec else []:
            locale = Path(folder) / "locale"
            if locale.is_dir() and str(locale) not in found:
                found.append(str(locale))
    return found


class Registry(Mapping[str, Ruleset]):
    """Every game by its stable name, in the order registered: the default first, then the
    games found (:func:`found_games`), looked for on first use, then any :func:`register`-ed.

    >>> list(Registry())[:2]
    ['arlington', 'rummy']
    """

    def __init__(self) -> None:
        self._games: dict[str, Ruleset] = {}
        self._origins: dict[str, str] = {}
        self._found = False
        self._lock = threading.RLock()

    def find(self) -> None:
        """Look for the games now, once (``GameError`` names a package that fails)."""
        with self._lock:
            if self._found:
                return
            games: dict[str, Ruleset] = {}
            origins: dict[str, str] = {}
            for rules, origin in found_games():
                _refuse_unfit(rules, origin)
                _refuse_taken(rules.name, origin, origins)
                games[rules.name], origins[rules.name] = rules, origin
            if DEFAULT not in games:
                raise GameError(f"The default game {DEFAULT!r} is missing.")
            order = [DEFAULT, *(name for name in games if name != DEFAULT)]
            self._games = {name: games[name] for name in order}
            self._origins = {name: origins[name] for name in order}
            self._found = True

    def add(self, rules: Ruleset, origin: str) -> None:
        """Register one more game (``GameError`` if its name is taken)."""
        self.find()
        _refuse_unfit(rules, origin)
        _refuse_taken(rules.name, origin, self._origins)
        self._games[rules.name], self._origins[rules.name] = rules, origin

    def remove(self, name: str) -> None:
        """Take a game out again (never the default)."""
        if name == DEFAULT:
            raise ValueError("the default ruleset stays registered")
        del self._games[name], self._origins[name]

    def origin(self, name: str) -> str:
        """Where the game comes from: its module, or its package and entry point."""
        self.find()
        return self._origins[name]

    def __getitem__(self, name: str) -> Ruleset:
        self.find()
        return self._games[name]

    def __iter__(self) -> Iterator[str]:
        self.find()
        return iter(list(self._games))

    def __len__(self) -> int:
        self.find()
        return len(self._games)


NAME: Final = re.compile(r"[a-z][a-z0-9_]{0,19}")
"""A game's name: it is a match's ``ruleset`` (20 characters at most), a path of the rulings
and a part of the OpenAPI description's names, so plain lower-case letters, digits and ``_``."""

BODY_FIELDS: Final = frozenset(
    {"add", "card", "cards", "ending", "from_hand", "meld", "owner", "player", "results"}
    | {"flags", "taken_from_discards", "top_card", "went_out"}
)
"""The fields the rulings' bodies hold besides a game's options and flags (scoring/api/rulings.py,
checked by a test): an option or a flag of one of these names would hide it or be hidden."""

OPTION_NAME: Final = re.compile(r"[a-z][a-z0-9_]*")


def _refuse_unfit(rules: Ruleset, origin: str) -> None:
    """Refuse a game whose names the service cannot serve, naming the game and what to change."""
    if not NAME.fullmatch(rules.name):
        raise GameError(
            f"The game {rules.name!r} of {origin} has a name the service cannot use: 1 to 20 "
            "lower-case letters, digits or _, starting with a letter."
        )
    seen: set[str] = set()
    for kind, name in [
        *(("option", o.name) for o in rules.options),
        *(("flag", f.name) for f in rules.flags),
    ]:
        if name in seen:
            why = "another option or flag has it"
        elif name in BODY_FIELDS:
            why = "the rulings' bodies already have a field of that name"
        elif not OPTION_NAME.fullmatch(name):
            why = "use lower-case letters, digits or _, starting with a letter"
        else:
            seen.add(name)
            continue
        raise GameError(
            f"The {kind} {name!r} of the game {rules.name!r} ({origin}) cannot be served: {why}."
        )


def _refuse_taken(name: str, origin: str, origins: Mapping[str, str]) -> None:
    if name in origins:
        raise GameError(f"Two games are named {name!r}: {origins[name]} and {origin}.")


RULESETS: Final = Registry()
"""Every ruleset by its stable name, in the order registered; the first is the default."""


class GameMissing(KeyError):
    """No game of that name is installed: a match of a game whose package was uninstalled."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def ruleset(name: str) -> Ruleset:
    """The ruleset of that name (``GameMissing``, a ``KeyError``, for one not installed).

    >>> ruleset("rummy").deal_size(3), ruleset("arlington").deal_size(3)
    (7, 13)
    """
    try:
        return RULESETS[name]
    except KeyError:
        raise GameMissing(name) from None


def register(rules: Ruleset) -> None:
    """Add a game to :data:`RULESETS` (``ValueError`` if its name is taken)."""
    RULESETS.add(rules, f"{type(rules).__module__}.{type(rules).__qualname__}")


def unregister(name: str) -> None:
    """Take a game out of :data:`RULESETS` again (never the default)."""
    RULESETS.remove(name)


@contextmanager
def registered(rules: Ruleset) -> Iterator[Ruleset]:
    """Register a game for the length of a ``with`` block (tests define games this way).

    >>> Gin = type("Gin", (type(ruleset("rummy")),), {"name": "gin"})
    >>> with registered(Gin()):
    ...     "gin" in RULESETS
    True
    >>> "gin" in RULESETS
    False
    """
    register(rules)
    try:
        yield rules
    finally:
        unregister(rules.name)


def rule_hand(
    rules: Ruleset,
    hand: HandInput,
    options: Options,
    *,
    flags: Mapping[str, bool],
    seated: Sequence[Hashable] | None = None,
) -> HandRuling:
    """The game's ruling on a hand, with the checks every game shares added where the game
    left them out (:func:`scoring.hands.check_table`): each seated player listed once, the
    player who went out among them, no card more often than the game's packs hold it. The
    matches, the rulings and the live table ask this, never a game's ``rule_hand`` alone, so
    that a game of a package cannot record a hand of missing or doubled players.

    A shared check is left out when the game reported the same code at the same place itself,
    as the two games that ship here do, so nothing is said twice.

    >>> from scoring import Ending, HandInput, PlayerInput, parse_cards
    >>> bob_twice = HandInput(Ending.WENT_OUT, "ann", (
    ...     PlayerInput("bob", (), parse_cards(["5H"])), PlayerInput("bob", (), ())))
    >>> ruling = rule_hand(ruleset("rummy"), bob_twice, {}, flags={}, seated=["ann", "bob"])
    >>> [v.code.value for v in ruling.violations][:3]
    ['players_mismatch', 'players_mismatch', 'went_out_unknown_player']
    """
    ruling = rules.rule_hand(hand, options, flags=flags, seated=seated)
    reported = {(str(v.code), v.path) for v in ruling.violations}
    shared = check_table(
        hand,
        seated=seated,
        players=(rules.min_players, rules.max_players),
        copies=rules.packs,
        copies_code=rules.card_count_code,
    )
    missed = tuple(v for v in shared if (str(v.code), v.path) not in reported)
    return HandRuling(ruling.results, ruling.violations + missed) if missed else ruling


def turn_rulings(rules: Ruleset) -> tuple[str, ...]:
    """The stateless turn rulings a game has, by their names in ``rulings/<ruleset>/``.

    >>> turn_rulings(ruleset("arlington")), turn_rulings(ruleset("rummy"))
    (('discard', 'take-discards', 'extend'), ('lay-off', 'discard'))
    """
    add = "extend" if rules.extends is Extends.OWN else "lay-off"
    if rules.take is Take.PILE:
        return ("discard", "take-discards", add)
    return (add, "discard")


def describe(rules: Ruleset, translate: Callable[[str], str] = str) -> dict[str, object]:
    """What clients need to know of a game, as JSON data; ``translate`` renders its words.

    >>> data = describe(ruleset("rummy"))
    >>> data["players"], data["packs"], data["wild_rank"], data["meld_sizes"], data["target"]
    ({'min': 2, 'max': 6}, 1, None, {'min': 3, 'max': None}, 100)
    >>> data["flags"], data["endings"]
    ([{'name': 'rummy', 'label': 'Went out all at once (rummy)', 'default': False}], ['went_out'])
    """
    return {
        "name": rules.name,
        "label": translate(rules.label),
        "description": translate(rules.description),
        "players": {"min": rules.min_players, "max": rules.max_players},
        "packs": rules.packs,
        "wild_rank": None if rules.wild_rank is None else rules.wild_rank.value,
        "meld_sizes": {"min": rules.meld_sizes.min, "max": rules.meld_sizes.max},
        "target": rules.target,
        "endings": [ending.value for ending in rules.endings],
        "flags": [
            {"name": flag.name, "label": translate(flag.label), "default": flag.default}
            for flag in rules.flags
        ],
        "options": [option.as_dict() for option in rules.options],
        "live": None if rules.take is None else {"take": rules.take.value},
    }
