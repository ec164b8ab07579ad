"""``manage.py seed_demo``: load the demo club, players and matches, and say how to log in."""

from __future__ import annotations

import json
import os
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser

from matches import demo
from matches.models import Club


class Command(BaseCommand):
    help = (
        "Create a demo superuser, club, roster, season and two matches (one finished, one in "
        "progress). Safe to run again: only what is missing is created. For local use only."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing if the database already holds a club.",
        )

    def handle(self, *args: Any, if_empty: bool = False, **options: Any) -> None:
        if if_empty and Club.objects.exists():
            self.stdout.write("seed_demo: the database already holds clubs; no demo data loaded.")
            user = get_user_model().objects.filter(username=demo.USERNAME).first()
            if user is not None:
                self.login(user)
            return
        user, made = demo.seed()
        for item in made:
            self.stdout.write(f"seed_demo: created {item}")
        if not made:
            self.stdout.write("seed_demo: demo data already present; nothing created.")
        self.login(user)

    def login(self, user: User) -> None:
        """Say how to log in as the demo user, with a warning that it is for local use; for the
        API, how to get a device token (the legacy one-per-user token is deprecated)."""
        site = base_url()
        credentials = json.dumps({"username": demo.USERNAME, "password": demo.PASSWORD})
        self.stdout.write(
            self.style.WARNING(
                f"The demo user {demo.USERNAME!r} is a superuser with a published password: "
                "for local use only, never on a shared or public server."
            )
        )
        self.stdout.write(
            "\nDemo login\n"
            f"  user / password : {demo.USERNAME} / {demo.PASSWORD}\n"
            f"  scorekeeper app : {site}/ (sign in with the user above)\n"
            f"  API token       : curl -X POST {site}/api/v1/auth/tokens/ "
            f"-H 'Content-Type: application/json' -d '{credentials}'\n"
            "                    answers the token, for "
            f"curl -H 'Authorization: Token <token>' {site}/api/v1/matches/\n"
            f"  admin           : {site}/admin/\n"
            f"  API docs        : {site}/api/docs/\n"
        )


def base_url() -> str:
    """Where ``make run`` serves, from its HOST and PORT; a server on every address is local."""
    host = os.environ.get("HOST", "").strip() or "127.0.0.1"
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{os.environ.get('PORT', '').strip() or '8000'}"
