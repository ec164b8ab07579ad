"""The OpenAPI description tells third-party apps how to choose the language, on every operation."""

import pytest
import yaml
from django.core.management import call_command

METHODS = {"get", "put", "patch", "post", "delete", "head", "options"}


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    target = tmp_path_factory.mktemp("schema") / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    return yaml.safe_load(target.read_text())


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", operation


def test_every_operation_documents_accept_language_and_lang(schema):
    found = list(operations(schema))
    assert found
    for name, operation in found:
        parameters = {(p["in"], p["name"]): p for p in operation.get("parameters", [])}
        assert ("header", "Accept-Language") in parameters, name
        assert sorted(parameters[("query", "lang")]["schema"]["enum"]) == ["en", "fr", "pt"], name


def test_the_meld_ruling_documents_the_kind_label(schema):
    ruling = schema["components"]["schemas"]["MeldRuling"]["properties"]
    assert ruling["kind_label"]["nullable"] is True
