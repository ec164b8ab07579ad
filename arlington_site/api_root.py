"""The API root, /api/v1/: what a newcomer can call, and where to sign in."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.rulings import ROUTES
from scoring.rulesets import DEFAULT, RULESETS, turn_rulings

RESOURCES = {
    "clubs": "club-list",
    "players": "player-list",
    "seasons": "season-list",
    "matches": "match-list",
    "tournaments": "tournament-list",
    "invitations": "my-invitations",
    "rulesets": "ruleset-list",
}
RULINGS = {
    "meld": "ruling-meld",
    "hand": "ruling-hand",
    "discard": "ruling-discard",
    "take-discards": "ruling-take-discards",
    "extend": "ruling-extend",
}
AUTH = {"tokens": "auth-tokens", "logout": "auth-logout", "token": "auth-token"}


@extend_schema(exclude=True)  # a map for people and crawlers, not an operation to generate
class ApiRootView(APIView):
    """The Arlington scoring API, version 1.

    Sign in for a device token with `POST auth/tokens/` (`{"username", "password", "name"}`)
    and send it as `Authorization: Token <token>`; in this browsable view, use "Log in".
    The rulings need no login: Arlington's at `rulings`, each other game's at `game_rulings`.
    The OpenAPI description is at `schema`, its page at `docs` (Swagger UI).
    """

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer]

    def get(self, request: Request) -> Response:
        def url(name: str) -> str:
            return request.build_absolute_uri(reverse(name))

        sign_in = url("rest_framework:login") + "?next=" + reverse("api-root")
        body: dict[str, Any] = {name: url(route) for name, route in RESOURCES.items()}
        body["rulings"] = {name: url(route) for name, route in RULINGS.items()}
        body["game_rulings"] = {  # the other games' rulings, as the games registered now have them
            game: {
                ruling: request.build_absolute_uri(
                    reverse(f"ruling-any-{ruling}", kwargs={"ruleset": game})
                )
                for ruling in ("meld", "hand", *turn_rulings(rules))
                if ruling in ROUTES
            }
            for game, rules in RULESETS.items()
            if game != DEFAULT
        }
        body["auth"] = {**{name: url(route) for name, route in AUTH.items()}, "sign_in": sign_in}
        body.update(schema=url("schema"), docs=url("swagger-ui"))
        return Response(body)
