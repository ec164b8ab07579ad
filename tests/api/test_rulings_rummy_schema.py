"""The Rummy rulings are in the OpenAPI description, beside Arlington's."""


def test_every_rummy_rulings_endpoint_is_documented_with_examples(openapi_schema):
    for name in ("meld", "hand", "lay-off", "discard"):
        operation = openapi_schema["paths"][f"/api/v1/rulings/rummy/{name}/"]["post"]
        body = operation["requestBody"]["content"]["application/json"]
        assert body["examples"], name
        assert operation["responses"]["200"]["content"]["application/json"]["examples"], name
        assert "400" in operation["responses"], name
        assert "429" in operation["responses"], name


def test_the_rummy_hand_body_documents_the_rummy_flag_and_the_ace_option(openapi_schema):
    operation = openapi_schema["paths"]["/api/v1/rulings/rummy/hand/"]["post"]
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = openapi_schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]["properties"]
    assert fields["rummy"]["type"] == "boolean"
    assert "ace" in fields
