"""The printers, power and health endpoints answer as docs/openapi.json says."""


def test_printers_power_and_health_answer_as_documented(printer):
    checked = printer.checked
    assert checked("GET", "/livez", 200) == {"status": "ok"}
    assert checked("GET", "/readyz", 200)["status"] == "ready"
    text = checked("GET", "/metrics", 200, content_type="text/plain")
    assert b"# TYPE vprinter_jobs gauge" in text

    created = checked("POST", "/api/v1/printers", 201, {"name": "contract", "profile": "color-inkjet"})
    assert created["resource"] == "/ipp/print/contract" and created["power"] == "on"
    checked("POST", "/api/v1/printers", 409, {"name": "contract"})
    checked("POST", "/api/v1/printers", 400, {"name": "x", "profile": "none"})
    listed = checked("GET", "/api/v1/printers", 200)
    assert [p["printer-id"] for p in listed] == [1, 2]
    one = checked("GET", "/api/v1/printers/contract", 200)
    assert one["printer-name"] == "contract"
    checked("GET", "/api/v1/printers/nobody", 404)

    off = checked("POST", "/api/v1/printers/contract/power", 200, {"on": False})
    assert off == {"printer-name": "contract", "power": "off"}
    checked("POST", "/api/v1/printers/contract/power", 400, {"on": "off"})
    checked("POST", "/api/v1/printers/nobody/power", 404, {"on": True})

    assert checked("DELETE", "/api/v1/printers/contract", 200) == {"deleted": "contract"}
    checked("DELETE", "/api/v1/printers/contract", 404)
