"""One rule for every door (docs/security.md): under --user, every route of the API but the open ones asks for
credentials; the rule is read from docs/openapi.json, so that a route added later is checked too."""
import json
import urllib.parse

from vptest.paths import DOCS

# The calls open to anyone under --user (docs/security.md, "Credentials and admins").
OPEN = {("get", "/api/v1/printers"), ("get", "/api/v1/printers/{name}"), ("get", "/livez"), ("get", "/readyz"),
        ("get", "/metrics")}


def test_every_route_but_the_open_ones_asks_for_credentials(secured):
    name = secured.http("GET", "/api/v1/printers").json()[0]["printer-name"]
    values = {"name": urllib.parse.quote(name), "id": "1", "file": "page-0001.png", "scenario": "toner-low"}
    paths = json.loads((DOCS / "openapi.json").read_text())["paths"]
    checked = []
    for path, operations in paths.items():
        for method in operations:
            if method not in ("get", "post", "delete") or (method, path) in OPEN:
                continue
            target = path.format(**values)
            body = {} if method == "post" else None
            answer = secured.http(method.upper(), target, body, headers={"Accept": "application/json"})
            assert answer.status == 401, (method, target, answer)
            assert answer.headers["www-authenticate"].startswith("Basic")
            checked.append((method, path))
    assert ("get", "/api/v1/printers/{name}/scenarios") in checked and len(checked) > 25
