"""Play a match of the installed game "threes" through the API; print what was answered.

Run by tests/matches/test_a_game_package.py in the virtual environment where the game's
package is installed, against the test database named by DATABASE_URL.
"""

from __future__ import annotations

import json
import sys

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test.utils import override_settings, setup_test_environment  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from scoring.rulesets import RULESETS  # noqa: E402

setup_test_environment()
override_settings(SECURE_SSL_REDIRECT=False).enable()  # the test client speaks plain HTTP
client = APIClient()
client.force_authenticate(get_user_model().objects.create_user(username="dana"))
club = client.post("/api/v1/clubs/", {"name": "Threes Club"}, format="json").json()
ann, ben = (
    client.post("/api/v1/players/", {"club": club["id"], "name": name}, format="json").json()["id"]
    for name in ("Ann", "Ben")
)
match = client.post(
    "/api/v1/matches/",
    {"club": club["id"], "players": [ann, ben], "ruleset": "threes"},
    format="json",
)
hand = client.post(
    f"/api/v1/matches/{match.json()['id']}/hands/",
    {
        "ending": "went_out",
        "went_out": ann,
        "results": [
            {"player": ann, "melds": [["3H", "3D", "3C"], ["9H", "9D", "9C", "9S"]], "hand": []},
            {"player": ben, "melds": [["KH", "KD", "KC"]], "hand": ["4H", "5S"]},
        ],
    },
    format="json",
)
ruling = client.post(
    "/api/v1/rulings/threes/meld/", {"cards": ["5H", "6H", "7H"]}, format="json"
).json()
schema = client.get("/api/schema/?format=json").json()
print(
    json.dumps(
        {
            "origin": RULESETS.origin("threes"),
            "module": sys.modules[type(RULESETS["threes"]).__module__].__file__,
            "rulesets": client.get("/api/v1/rulesets/").json(),
            "in_portuguese": client.get("/api/v1/rulesets/threes/?lang=pt").json(),
            "match": [match.status_code, match.json()],
            "hand": [hand.status_code, hand.json()],
            "ruling": ruling,
            "documented": sorted(p for p in schema["paths"] if "/rulings/threes/" in p),
            "ace_enums": {
                name: component["enum"]
                for name, component in schema["components"]["schemas"].items()
                if name.startswith("Ace")
            },
        }
    )
)
