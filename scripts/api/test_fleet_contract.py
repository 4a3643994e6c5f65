"""The printers, power and health endpoints answer as docs/openapi.json says."""
import json
import urllib.error
import urllib.request

from openapi_schema_validator import OAS30Validator

from conftest import checked, response_schema


def send(method, base, path_template, path, status, body):
    """A call with a JSON body, its answer checked against the OpenAPI document; returns the decoded JSON."""
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            got, answer = response.status, response.read()
    except urllib.error.HTTPError as error:
        got, answer = error.code, error.read()
    assert got == status, "%s %s: %d %s" % (method, path, got, answer[:300])
    value = json.loads(answer)
    OAS30Validator(response_schema(path_template, method, status)).validate(value)
    return value


def test_printers_power_and_health_answer_as_documented(printer):
    base = printer.base
    assert checked("GET", base, "/livez", "/livez", 200) == {"status": "ok"}
    assert checked("GET", base, "/readyz", "/readyz", 200)["status"] == "ready"
    text = checked("GET", base, "/metrics", "/metrics", 200, content_type="text/plain")
    assert b"# TYPE vprinter_jobs gauge" in text

    created = send("POST", base, "/api/v1/printers", "/api/v1/printers", 201, {"name": "contract", "profile": "color-inkjet"})
    assert created["resource"] == "/ipp/print/contract" and created["power"] == "on"
    send("POST", base, "/api/v1/printers", "/api/v1/printers", 409, {"name": "contract"})
    send("POST", base, "/api/v1/printers", "/api/v1/printers", 400, {"name": "x", "profile": "none"})
    listed = checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)
    assert [p["printer-id"] for p in listed] == [1, 2]
    one = checked("GET", base, "/api/v1/printers/{name}", "/api/v1/printers/contract", 200)
    assert one["printer-name"] == "contract"
    checked("GET", base, "/api/v1/printers/{name}", "/api/v1/printers/nobody", 404)

    off = send("POST", base, "/api/v1/printers/{name}/power", "/api/v1/printers/contract/power", 200, {"on": False})
    assert off == {"printer-name": "contract", "power": "off"}
    send("POST", base, "/api/v1/printers/{name}/power", "/api/v1/printers/contract/power", 400, {"on": "off"})
    send("POST", base, "/api/v1/printers/{name}/power", "/api/v1/printers/nobody/power", 404, {"on": True})

    assert checked("DELETE", base, "/api/v1/printers/{name}", "/api/v1/printers/contract", 200) == {"deleted": "contract"}
    checked("DELETE", base, "/api/v1/printers/{name}", "/api/v1/printers/contract", 404)
