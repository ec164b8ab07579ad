"""Games are found, not listed: the modules of scoring.games, then installed packages' entry
points (group ``arlington.rulesets``); a package that fails, or a name taken twice, is named."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoring.rulesets import ENTRY_POINT_GROUP, GameError, Registry, near_groups


@pytest.fixture(autouse=True)
def forget_imported_modules(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each test's packages are its own: a module a test imported from its temporary folder
    (its ``broken_game``, or the ``no_such_module`` that mends it) must not be found already
    imported by the next test. The service's own modules stay imported."""
    yield
    base = str(tmp_path_factory.getbasetemp())
    for name, module in list(sys.modules.items()):
        if (getattr(module, "__file__", None) or "").startswith(base):
            del sys.modules[name]
    importlib.invalidate_caches()


def installed(
    root: Path, package: str, entry: str, source: str, group: str = ENTRY_POINT_GROUP
) -> None:
    """A package installed the way pip leaves one: its module and a .dist-info naming the game."""
    module = entry.split("=")[1].strip().split(":")[0]
    (root / f"{module}.py").write_text(source)
    info = root / f"{package.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n{entry}\n")


def test_the_games_in_the_tree_are_found_the_default_first():
    registry = Registry()
    assert list(registry)[:2] == ["arlington", "rummy"]
    assert registry.origin("rummy") == "scoring.games.rummy"


def test_an_installed_package_s_game_is_found_by_its_entry_point(tmp_path, monkeypatch):
    source = "from scoring.games.rummy import Rummy\n\nclass Gin(Rummy):\n    name = 'gin'\n\n"
    installed(tmp_path, "gin-game", "gin = gin_game:RULESET", source + "RULESET = Gin()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry()
    assert list(registry)[-1] == "gin"
    assert registry["gin"].deal_size(3) == 7
    assert "the package gin-game" in registry.origin("gin")


def test_an_entry_point_may_name_the_module_that_defines_the_game(tmp_path, monkeypatch):
    source = "from scoring.games.rummy import Rummy\n\nclass Gin(Rummy):\n    name = 'gin'\n\n"
    installed(tmp_path, "gin-game", "gin = gin_game", source + "RULESET = Gin()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "gin" in Registry()


def test_two_games_of_one_name_are_refused_naming_both(tmp_path, monkeypatch):
    source = "from scoring.games.rummy import Rummy\n\nRULESET = Rummy()\n"
    installed(tmp_path, "other-rummy", "rummy = other_rummy:RULESET", source)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(GameError, match="named 'rummy'") as refused:
        Registry().find()
    assert "scoring.games.rummy" in str(refused.value)
    assert "the package other-rummy" in str(refused.value)


def test_a_package_whose_game_fails_to_load_is_named(tmp_path, monkeypatch):
    installed(tmp_path, "broken-game", "broken = broken_game:RULESET", "import no_such_module\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(GameError, match="the package broken-game") as refused:
        Registry().find()
    assert "ModuleNotFoundError" in str(refused.value)


def test_an_entry_point_that_names_no_game_is_refused(tmp_path, monkeypatch):
    installed(tmp_path, "empty-game", "empty = empty_game:RULESET", "RULESET = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(GameError, match="the package empty-game .* names no game"):
        Registry().find()


def test_a_registry_that_failed_finds_every_game_once_the_package_is_mended(tmp_path, monkeypatch):
    installed(tmp_path, "broken-game", "broken = broken_game:RULESET", "import no_such_module\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry()
    with pytest.raises(GameError):
        registry.find()
    (tmp_path / "no_such_module.py").write_text("")
    mended = "import no_such_module\nfrom scoring.games.rummy import Rummy\n\n"
    mended += "class Broken(Rummy):\n    name = 'broken'\n\nRULESET = Broken()\n"
    (tmp_path / "broken_game.py").write_text(mended)
    importlib.invalidate_caches()
    assert list(registry)[:2] == ["arlington", "rummy"] and list(registry)[-1] == "broken"


@pytest.mark.parametrize(
    ("body", "refusal"),
    [
        ("    name = 'my game'\n", "'my game' of the package odd-game .* has a name"),
        ("    name = 'a_very_long_game_name_x'\n", "1 to 20 lower-case letters"),
        (
            "    name = 'odd'\n    flags = (Flag('ending', 'Ending'),)\n",
            r"The flag 'ending' of the game 'odd' \(the package odd-game",
        ),
        (
            "    name = 'odd'\n    options = (Option('cards', 1),)\n",
            "'cards' of the game 'odd' .* bodies already have a field",
        ),
        (
            "    name = 'odd'\n    options = (Option('target', 20),)\n"
            "    flags = (Flag('target', 'Target'),)\n",
            "The flag 'target' .* another option or flag has it",
        ),
    ],
)
def test_a_game_whose_names_cannot_be_served_is_refused_naming_it(
    tmp_path, monkeypatch, body, refusal
):
    """A name with a space breaks its routes and the OpenAPI names; an option or a flag named
    like a field of the rulings' bodies would hide it, or take its place."""
    source = "from scoring.games.rummy import Rummy\nfrom scoring.rulesets import Flag, Option\n\n"
    source += f"class Odd(Rummy):\n{body}\nRULESET = Odd()\n"
    installed(tmp_path, "odd-game", "odd = odd_game:RULESET", source)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(GameError, match=refusal):
        Registry().find()


def test_the_fields_a_game_may_not_name_are_every_ruling_body_s_own():
    """BODY_FIELDS is kept by hand beside the rulings' bodies: every field those bodies hold
    that is not an option or a flag of the game is in it."""
    from scoring.api.rulings import built_request, offers
    from scoring.rulesets import BODY_FIELDS, RULESETS

    own = set()
    for rules in RULESETS.values():
        given = {o.name for o in rules.options} | {f.name for f in rules.flags}
        for ruling in ("meld", "hand", "extend", "lay-off", "discard", "take-discards"):
            if offers(rules, ruling):
                own |= set(built_request(rules.name, ruling)().fields) - given
    assert own == BODY_FIELDS


@pytest.mark.parametrize("group", ["arlington.ruleset", "arlington_rulesets", "Arlington.Rulesets"])
def test_a_package_naming_its_game_in_a_misspelt_group_is_named(tmp_path, monkeypatch, group):
    source = "from scoring.games.rummy import Rummy\n\nclass Gin(Rummy):\n    name = 'gin'\n\n"
    installed(tmp_path, "gin-game", "gin = gin_game:RULESET", source + "RULESET = Gin()\n", group)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "gin" not in Registry()  # only the group's exact name is read
    assert near_groups() == [("gin-game", group)]


def test_a_package_of_another_group_is_not_named(tmp_path, monkeypatch):
    installed(
        tmp_path, "tool", "tool = tool_module:main", "def main():\n    pass\n", "console_scripts"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert near_groups() == []
