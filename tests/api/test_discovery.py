"""What a newcomer meets first: the API root, the documentation pages, `make run`, the docs."""

from __future__ import annotations

import re
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

ROOT = Path(__file__).resolve().parents[2]
URL_ATTRIBUTE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
ABSOLUTE = re.compile(r"""(?:https?:)?//[^\s"'<>)]+""")


@pytest.fixture
def anonymous(db) -> APIClient:
    return APIClient()


def test_the_api_root_lists_the_resources_and_rulings(anonymous):
    response = anonymous.get("/api/v1/")
    assert response.status_code == 200
    body = response.json()
    api = "http://testserver/api/v1/"
    for name in ("clubs", "players", "seasons", "matches", "tournaments"):
        assert body[name] == f"{api}{name}/"
    assert body["game_rulings"]["rummy"]["meld"] == f"{api}rulings/rummy/meld/"
    assert set(body["game_rulings"]["rummy"]) >= {"meld", "hand"}
    assert "arlington" not in body["game_rulings"]  # its rulings are "rulings"
    assert body["rulings"] == {
        name: f"{api}rulings/{name}/"
        for name in ("meld", "hand", "discard", "take-discards", "extend")
    }
    assert body["auth"]["tokens"] == f"{api}auth/tokens/"
    assert body["auth"]["token"] == f"{api}auth/token/"
    assert body["auth"]["sign_in"].startswith("http://testserver/api/auth/login/")
    assert body["schema"] == "http://testserver/api/schema/"


def test_every_link_of_the_api_root_leads_somewhere(anonymous, django_user_model):
    user = django_user_model.objects.create_user("rooted", password="rooted-pw-1234")
    anonymous.force_authenticate(user)
    body = anonymous.get("/api/v1/").json()
    names = ("clubs", "players", "seasons", "matches", "tournaments", "schema")
    for link in [body[name] for name in names]:
        assert anonymous.get(link).status_code == 200, link
    game_rulings = [link for game in body["game_rulings"].values() for link in game.values()]
    for link in [*body["rulings"].values(), *game_rulings]:
        assert anonymous.post(link, {}, format="json").status_code == 400, link
    assert anonymous.get(body["auth"]["sign_in"]).status_code == 200


def test_the_api_root_is_browsable_with_a_link_to_sign_in(anonymous):
    response = anonymous.get("/api/v1/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "/api/auth/login/" in response.content.decode()


@pytest.mark.parametrize("page", ["/api/docs/"])
def test_the_documentation_pages_load_nothing_from_another_origin(anonymous, page):
    response = anonymous.get(page)
    assert response.status_code == 200
    html = response.content.decode()
    assert URL_ATTRIBUTE.findall(html), "the page loads its scripts"
    for url in URL_ATTRIBUTE.findall(html):
        assert url.startswith("/") and not url.startswith("//"), url
    assert ABSOLUTE.findall(html) == [], "no other origin named anywhere in the page"


@pytest.mark.parametrize(
    "path",
    sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*") if p.suffix in (".md", ".json")
    ),
)
def test_the_docs_stand_alone(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert "DESIGN.md" not in text and "STYLE.md" not in text


def test_make_run_honours_port_and_host():
    plan = subprocess.run(
        ["make", "-n", "run", "PORT=9123", "HOST=0.0.0.0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "runserver 0.0.0.0:9123" in plan
    assert "PORT=9123" in plan and "seed_demo" in plan


def test_the_demo_prints_its_links_with_the_port_and_host(db, monkeypatch):
    monkeypatch.setenv("PORT", "9123")
    monkeypatch.setenv("HOST", "192.0.2.7")
    out = StringIO()
    call_command("seed_demo", stdout=out)
    links = ABSOLUTE.findall(out.getvalue())
    assert links
    assert all(link.startswith("http://192.0.2.7:9123/") for link in links), links


def test_the_demo_links_name_the_local_machine_when_serving_every_address(db, monkeypatch):
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.delenv("PORT", raising=False)
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert all(
        link.startswith("http://127.0.0.1:8000/") for link in ABSOLUTE.findall(out.getvalue())
    )
