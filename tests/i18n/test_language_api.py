"""The API speaks English, Portuguese and French, chosen by Accept-Language or ?lang=."""

import pytest

MELD = "/api/v1/rulings/meld/"
DISCARD = "/api/v1/rulings/discard/"
HAND = "/api/v1/rulings/hand/"


def post(client, url, body, *, language=None, query=""):
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    return client.post(f"{url}{query}", body, format="json", **headers)


def first_error(response):
    return response.json()["errors"][0]


def test_the_same_unreadable_card_keeps_its_code_and_changes_its_detail(api_client):
    answers = {
        language: post(api_client, MELD, {"cards": ["JS", "QX", "KS"]}, language=language)
        for language in ("en", "pt", "fr")
    }
    assert {r.status_code for r in answers.values()} == {400}
    assert {first_error(r)["code"] for r in answers.values()} == {"invalid_card"}
    assert {first_error(r)["attr"] for r in answers.values()} == {"cards.1"}
    details = {language: first_error(r)["detail"] for language, r in answers.items()}
    assert len(set(details.values())) == 3
    assert details["pt"].startswith("QX não é uma carta")
    assert details["fr"].startswith("QX n'est pas une carte")


def test_english_is_the_default(api_client):
    response = post(api_client, DISCARD, {"card": "QS"})
    assert response["Content-Language"] == "en"
    assert response.json()["violations"][0]["detail"].startswith("The queen of spades (Q♠)")


def test_a_violation_in_portuguese_names_the_queen_of_spades(api_client):
    response = post(api_client, DISCARD, {"card": "QS"}, language="pt-PT,pt;q=0.9")
    assert response.status_code == 200
    violation = response.json()["violations"][0]
    assert violation["code"] == "queen_of_spades_discard"
    assert "a dama de espadas (Q♠)" in violation["detail"]
    assert response["Content-Language"] == "pt"


def test_brazilian_portuguese_gets_portuguese(api_client):
    response = post(api_client, DISCARD, {"card": "QS"}, language="pt-BR")
    assert "a dama de espadas" in response.json()["violations"][0]["detail"]


def test_lang_in_the_query_overrides_accept_language(api_client):
    response = post(api_client, DISCARD, {"card": "QS"}, language="fr", query="?lang=pt")
    assert response["Content-Language"] == "pt"
    assert "a dama de espadas" in response.json()["violations"][0]["detail"]


@pytest.mark.parametrize("lang", ["xx", "de", "", "en-us-x-" + "a" * 300])
def test_an_unknown_lang_falls_back_to_english(api_client, lang):
    response = post(api_client, DISCARD, {"card": "QS"}, query=f"?lang={lang}")
    assert response.status_code == 200
    assert response["Content-Language"] == "en"
    assert response.json()["violations"][0]["detail"].startswith("The queen of spades")


def test_a_nul_in_lang_is_refused_like_any_nul_in_a_query(api_client):
    response = post(api_client, DISCARD, {"card": "QS"}, query="?lang=pt%00")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "null_characters_not_allowed"


def test_an_unknown_lang_keeps_the_accept_language_choice(api_client):
    response = post(api_client, DISCARD, {"card": "QS"}, language="fr", query="?lang=xx")
    assert response["Content-Language"] == "fr"
    assert "la dame de pique" in response.json()["violations"][0]["detail"]


def test_the_generic_validation_messages_are_translated(api_client):
    fr = post(api_client, MELD, {}, language="fr")
    pt = post(api_client, MELD, {}, language="pt")
    assert first_error(fr) == {
        "code": "required",
        "detail": "cards\u00a0: Ce champ est obligatoire.",
        "attr": "cards",
    }
    assert first_error(pt)["code"] == "required"
    assert first_error(pt)["detail"] == "cards: Este campo é obrigatório."


def test_the_projects_own_sentences_are_not_led_by_their_field(api_client):
    error = first_error(post(api_client, MELD, {"cards": ["JS", "QX", "KS"]}))
    assert error["attr"].startswith("cards")
    assert "QX" in error["detail"]  # it names the card itself
    assert not error["detail"].startswith(f"{error['attr']}:"), error


def test_an_invalid_choice_is_explained_in_french(api_client):
    body = {"ending": "nobody", "results": []}
    error = first_error(post(api_client, HAND, body, language="fr"))
    assert (error["code"], error["attr"]) == ("invalid_choice", "ending")
    assert "n'est pas un choix valide" in error["detail"]


def test_the_meld_ruling_shows_a_label_beside_the_stable_kind(api_client):
    body = {"cards": ["JS", "2D=QS", "KS"]}
    en = post(api_client, MELD, body).json()
    pt = post(api_client, MELD, body, language="pt").json()
    fr = post(api_client, MELD, body, query="?lang=fr").json()
    assert en["kind"] == pt["kind"] == fr["kind"] == "run"
    assert (en["kind_label"], pt["kind_label"], fr["kind_label"]) == ("run", "sequência", "suite")


def test_an_illegal_meld_has_no_kind_and_no_label(api_client):
    body = post(api_client, MELD, {"cards": ["5H", "2C", "7H"]}, language="pt").json()
    assert body["kind"] is None
    assert body["kind_label"] is None
    assert {v["code"] for v in body["violations"]} == {"run_mixed_suits", "run_not_consecutive"}
    assert all("5♥ 2♣ 7♥" in v["detail"] for v in body["violations"])


def test_hand_violations_are_translated_with_their_clauses(api_client):
    body = {
        "ending": "went_out",
        "went_out": "ann",
        "results": [
            {"player": "ann", "melds": [], "hand": ["4H"]},
            {"player": "ann", "melds": [["5D", "6D", "7D"]], "hand": ["2D"]},
        ],
    }
    answer = post(api_client, HAND, body, language="fr").json()
    details = {}
    for v in answer["violations"]:
        details.setdefault(v["code"], []).append(v["detail"])
    assert all(d.startswith("Chaque joueur assis") for d in details["players_mismatch"])
    assert any(d.endswith("\u00a0: ann figure 2 fois.") for d in details["players_mismatch"])
    assert any(d.endswith("\u202f; il garde 4♥.") for d in details["went_out_with_cards"])
    assert any(d.endswith("\u202f; il n'a rien posé.") for d in details["went_out_with_cards"])


def test_an_unknown_api_path_answers_in_the_language_asked(client):
    response = client.get("/api/v1/no-such-thing/", HTTP_ACCEPT_LANGUAGE="pt")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"
    assert response.json()["errors"][0]["detail"] == "Não encontrado."


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "bob has too few cards, melded and held: 1; every player has at least 13."),
        (
            "fr",
            "bob a trop peu de cartes, posées et en main\u00a0: 1\u202f; chaque joueur en a au "
            "moins 13.",
        ),
        ("pt", "bob tem cartas a menos, baixadas e na mão: 1; cada jogador tem pelo menos 13."),
    ],
)
def test_a_player_with_one_card_is_not_said_to_have_1_cards(api_client, language, sentence):
    """The sentence names the count without a noun to agree with it: "1 cards" never."""
    body = {
        "ending": "stock_exhausted",
        "results": [
            {"player": "ann", "melds": [], "hand": ["4H"]},
            {"player": "bob", "melds": [], "hand": ["9C"]},
        ],
    }
    answer = post(api_client, HAND, body, language=language).json()
    details = [v["detail"] for v in answer["violations"] if v["code"] == "too_few_cards"]
    assert sentence in details
