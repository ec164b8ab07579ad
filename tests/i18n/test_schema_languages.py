"""The OpenAPI description tells third-party apps how to choose the language, on every operation."""

METHODS = {"get", "put", "patch", "post", "delete", "head", "options"}


def operations(openapi_schema):
    for path, item in openapi_schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", operation


def resolved(openapi_schema, parameter):
    """A parameter, or the shared component it refers to."""
    if "$ref" in parameter:
        return openapi_schema["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
    return parameter


def test_every_operation_documents_accept_language_and_lang(openapi_schema):
    found = list(operations(openapi_schema))
    assert found
    for name, operation in found:
        parameters = {
            (p["in"], p["name"]): p
            for p in (resolved(openapi_schema, p) for p in operation.get("parameters", []))
        }
        assert ("header", "Accept-Language") in parameters, name
        choices = parameters[("query", "lang")]["schema"]
        if "$ref" in choices:  # the one Language schema every operation shares
            choices = openapi_schema["components"]["schemas"][choices["$ref"].rsplit("/", 1)[1]]
        assert sorted(choices["enum"]) == ["en", "fr", "pt"], name


def test_the_meld_ruling_documents_the_kind_label(openapi_schema):
    ruling = openapi_schema["components"]["schemas"]["MeldRuling"]["properties"]
    assert ruling["kind_label"]["nullable"] is True
