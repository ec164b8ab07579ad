"""The OpenAPI description tells third-party apps how to choose the language, on every operation."""

from tests.api.openapi import resolved

METHODS = {"get", "put", "patch", "post", "delete", "head", "options"}


def operations(openapi_schema):
    for path, item in openapi_schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", operation


def test_every_operation_documents_accept_language_and_lang(openapi_schema):
    found = list(operations(openapi_schema))
    assert found
    for name, operation in found:
        parameters = {
            (p["in"], p["name"]): p
            for p in (resolved(p, openapi_schema) for p in operation.get("parameters", []))
        }
        assert ("header", "Accept-Language") in parameters, name
        # the one Language schema every operation shares
        choices = resolved(parameters[("query", "lang")]["schema"], openapi_schema)
        assert sorted(choices["enum"]) == ["en", "fr", "pt"], name


def test_the_meld_ruling_documents_the_kind_label(openapi_schema):
    ruling = openapi_schema["components"]["schemas"]["MeldRuling"]["properties"]
    assert ruling["kind_label"]["nullable"] is True
