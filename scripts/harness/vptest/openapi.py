"""Answers of the JSON API checked against docs/openapi.json: the status documented for the path and method, the
content type, and a JSON body valid against the documented schema. The path's template (``/api/v1/jobs/{id}``)
is found from the path itself."""
import json
import urllib.parse

from openapi_schema_validator import OAS30Validator

from . import calls
from .paths import DOCS

OPENAPI = json.loads((DOCS / "openapi.json").read_text())


def _segments(path):
    return path.strip("/").split("/")


def template_of(method, path):
    """The documented path template that ``path`` (without its query) matches for ``method``; the one with the
    most literal segments when several do. AssertionError when none does."""
    wanted = _segments(path)
    matches = []
    for template, operations in OPENAPI["paths"].items():
        if method.lower() not in operations:
            continue
        segments = _segments(template)
        if len(segments) != len(wanted):
            continue
        if all(part == got or (part.startswith("{") and part.endswith("}") and got)
               for part, got in zip(segments, wanted)):
            matches.append((sum(not part.startswith("{") for part in segments), template))
    assert matches, "%s %s is not documented in docs/openapi.json" % (method, path)
    return max(matches)[1]


def response_schema(template, method, status, content_type=calls.JSON):
    """The schema docs/openapi.json gives for a response, with the components it refers to."""
    responses = OPENAPI["paths"][template][method.lower()]["responses"]
    assert str(status) in responses, "%s %s: status %d is not documented" % (method, template, status)
    content = responses[str(status)].get("content", {})
    assert content_type in content, "%s %s %d: %s is not documented" % (method, template, status, content_type)
    return dict(content[content_type]["schema"], components=OPENAPI["components"])


def validate_component(name, value):
    """Validates a value against one schema of components/schemas (``Event``...)."""
    OAS30Validator(dict(OPENAPI["components"]["schemas"][name], components=OPENAPI["components"])).validate(value)


def checked(method, url, status, body=None, headers=None, content_type=calls.JSON, auth=None,
            timeout=calls.CALL_LIMIT):
    """Calls the API (see calls.call) and checks the answer: ``status``, ``content_type``, both documented for the
    path, and a JSON body valid against the documented schema. Returns the decoded JSON, or the bytes of another
    content type."""
    answer = calls.call(method, url, body, headers, auth, timeout)
    parts = urllib.parse.urlsplit(url)
    shown = parts.path + ("?" + parts.query if parts.query else "")
    assert answer.status == status, "%s %s: %d %s" % (method, shown, answer.status, answer.body[:300])
    got_type = answer.content_type.split(";")[0]
    assert got_type == content_type, "%s %s: content type %s, not %s" % (method, shown, got_type, content_type)
    schema = response_schema(template_of(method, parts.path), method, status, content_type)
    if content_type != calls.JSON:
        return answer.body
    value = answer.json()
    OAS30Validator(schema).validate(value)
    return value
