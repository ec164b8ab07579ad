"""The service worker's script: served from the site's root, never cached stale, naming the
whole app shell, and changing whenever a file of the shell changes."""

from __future__ import annotations

import json
import re

import pytest

from web import entry_views


def settings_of(script: str) -> dict:
    match = re.match(r"const SETTINGS = (\{.*\});\n", script)
    assert match, script[:200]
    return json.loads(match.group(1))


@pytest.fixture
def served(client):
    def get():
        response = client.get("/sw.js")
        assert response.status_code == 200
        return response

    return get


def test_the_worker_is_served_from_the_root_for_the_whole_site(served):
    response = served()

    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert "Content-Security-Policy" in response  # the app's policy governs the worker too


def test_the_shell_holds_every_script_and_style_of_the_app_and_no_other_origin(served):
    shell = settings_of(served().content.decode())["shell"]

    for name in (
        "web/app.css",
        "web/entry.css",
        "web/api.js",
        "web/outbox.js",
        "web/pages/entry.js",
        "web/pages/match.js",
        "web/pages/clubs.js",
    ):
        assert f"/static/{name}" in shell
    assert all(url.startswith("/static/") for url in shell)


def test_a_changed_file_of_the_shell_makes_a_new_worker(served, tmp_path, monkeypatch):
    before = settings_of(served().content.decode())["version"]
    copy = tmp_path / "web"
    copy.mkdir()
    for path in (entry_views.STATIC / "web").rglob("*.js"):
        target = copy / path.relative_to(entry_views.STATIC / "web")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    monkeypatch.setattr(entry_views, "STATIC", tmp_path)
    same_files = settings_of(served().content.decode())["version"]
    (copy / "outbox.js").write_text("// changed\n")

    assert settings_of(served().content.decode())["version"] != same_files
    assert before != same_files  # the copy left out the styles and icons: another shell
