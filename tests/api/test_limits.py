"""Request bodies over the documented size are refused with 413 before any work."""

import json


def test_an_oversized_body_is_refused_with_413(api_client, settings):
    settings.MAX_REQUEST_BODY_BYTES = 1000
    body = json.dumps({"cards": ["5H"] * 400})
    response = api_client.post("/api/v1/rulings/meld/", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["errors"][0]["code"] == "request_too_large"


def test_a_body_under_the_limit_is_read(api_client, settings):
    settings.MAX_REQUEST_BODY_BYTES = 1000
    response = api_client.post(
        "/api/v1/rulings/meld/", {"cards": ["5H", "6H", "7H"]}, format="json"
    )
    assert response.status_code == 200


def test_the_413_sentence_speaks_the_requested_language(api_client, settings):
    settings.MAX_REQUEST_BODY_BYTES = 1000
    body = json.dumps({"cards": ["5H"] * 400})
    english = api_client.post("/api/v1/rulings/meld/", body, content_type="application/json")
    french = api_client.post("/api/v1/rulings/meld/?lang=fr", body, content_type="application/json")
    assert french.status_code == 413
    assert french.json()["errors"][0]["code"] == english.json()["errors"][0]["code"]
    assert french.json()["errors"][0]["detail"] != english.json()["errors"][0]["detail"]
