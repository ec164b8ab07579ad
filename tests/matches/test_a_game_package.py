"""A game installed as a package of its own is played through the API, settings untouched.

The package (tests/matches/game_package: Threes, sets only, a melded card 1, a held card -1,
going out +5) names its game by the entry point group ``arlington.rulesets``. It is built and
installed with pip into a virtual environment of its own (beside the test's packages, which
it sees through a .pth file); a process started in that environment plays a match against
the test database. The test's own process never sees the game. A package whose game fails to
load stops the service's start, naming the package.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from scoring.rulesets import RULESETS
from tests.database import server_url
from tests.scoring.test_game_discovery import installed

PACKAGE = Path(__file__).parent / "game_package"
ROOT = Path(__file__).resolve().parents[2]


def run(*command: str | Path, **kwargs) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, **kwargs)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def environment(tmp_path_factory) -> Path:
    """A virtual environment with the game's package installed by pip, its translations
    compiled first; the test's own packages are read from where they are."""
    work = tmp_path_factory.mktemp("game")
    source = shutil.copytree(PACKAGE, work / "source")
    catalogue = source / "arlington_threes" / "locale" / "pt" / "LC_MESSAGES" / "django.po"
    run("msgfmt", "--check", "-o", catalogue.with_suffix(".mo"), catalogue)
    venv = work / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
    (Path(purelib.stdout.strip()) / "the_tests_packages.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n"
    )
    run(
        python,
        *("-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", "--quiet"),
        source,
    )
    return python


@pytest.mark.django_db(transaction=True)
def test_an_installed_game_is_listed_documented_and_scored_by_its_own_rules(environment):
    database = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "arlington_site.settings",
        "DATABASE_URL": server_url(database),
        "PYTHONPATH": str(ROOT),
    }
    played = run(environment, Path(__file__).parent / "play_a_game_package.py", cwd=ROOT, env=env)
    answers = json.loads(played.stdout.strip().splitlines()[-1])

    assert answers["module"].startswith(str(environment.parents[1]))  # the installed copy
    assert "the package arlington-threes" in answers["origin"]
    assert [game["name"] for game in answers["rulesets"]] == ["arlington", "rummy", "threes"]
    threes = answers["rulesets"][-1]
    assert (threes["label"], threes["packs"], threes["target"]) == ("Threes", 1, 20)
    assert answers["in_portuguese"]["label"] == "Trincas"
    assert answers["in_portuguese"]["description"] == "Só grupos, com um baralho, até 20 pontos."

    status, match = answers["match"]
    assert status == 201 and match["ruleset"] == "threes", match
    status, hand = answers["hand"]
    assert status == 201, hand
    nets = {result["player"]: result["net"] for result in hand["results"]}
    ann, ben = match["seats"][0]["player"], match["seats"][1]["player"]
    assert nets == {ann: 7 + 5, ben: 3 - 2}  # a melded card 1, a held card -1, out +5
    assert [v["code"] for v in answers["ruling"]["violations"]] == ["set_mixed_ranks"]
    assert answers["documented"] == [
        f"/api/v1/rulings/threes/{ruling}/" for ruling in ("discard", "hand", "lay-off", "meld")
    ]
    # a game's option of the same name as Rummy's leaves Rummy's enum its name
    assert answers["ace_enums"]["AceEnum"] == ["low", "high_or_low"]
    assert ["one", "eleven"] in answers["ace_enums"].values()
    assert "threes" not in RULESETS  # installed over there only


def test_a_package_whose_game_fails_to_load_stops_the_start_naming_the_package(tmp_path):
    installed(tmp_path, "broken-game", "broken = broken_game:RULESET", "import no_such_module\n")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "arlington_site.settings",
        "DEBUG": "true",
        "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}",
    }
    started = subprocess.run(
        (sys.executable, "manage.py", "check"),
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
        env=env,
    )
    assert started.returncode != 0
    assert "GameError" in started.stderr
    assert "the package broken-game" in started.stderr
    assert "ModuleNotFoundError" in started.stderr
