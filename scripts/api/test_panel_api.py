"""The front panel's calls (docs/api.md "Front panel calls") answer as docs/openapi.json says, and do
what they say: pause and hold new jobs (seen in printer-state-reasons and in a job held, then released), a tray
loaded with a size and type (media-ready, media-col-ready through IPP), scenarios played and stopped, faults
grouped and cleared by group or reason. Bad bodies answer 400, unknown scenarios 404."""
import json
import time
import urllib.error
import urllib.request

from openapi_schema_validator import OAS30Validator

from conftest import WAIT_LIMIT, checked, response_schema

PRINTER = "/api/v1/printers/vprinter-duplex-laser"


def send(method, base, path_template, path, status, body=None):
    """A call with an optional JSON body (raw bytes are sent as they are), its answer checked against the
    OpenAPI document; returns the decoded JSON."""
    data = body if isinstance(body, bytes) else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(base + path, method=method, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=WAIT_LIMIT) as response:
            got, answer = response.status, response.read()
    except urllib.error.HTTPError as error:
        got, answer = error.code, error.read()
    assert got == status, "%s %s: %d %s" % (method, path, got, answer[:300])
    value = json.loads(answer)
    OAS30Validator(response_schema(path_template, method, status)).validate(value)
    return value


def reasons(base):
    return checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)[0]["printer-state-reasons"]


def wait_for(predicate, what, seconds=WAIT_LIMIT):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def test_pause_and_hold_new_jobs(printer):
    base = printer.base
    template = "/api/v1/printers/{name}/pause"
    paused = send("POST", base, template, PRINTER + "/pause", 200, {"paused": True})
    assert paused["printer-state"] == "stopped" and "paused" in paused["printer-state-reasons"]
    resumed = send("POST", base, template, PRINTER + "/pause", 200, {"paused": False})
    assert "paused" not in resumed["printer-state-reasons"]
    for bad in ({"paused": 1}, {"paused": "yes"}, {}, b"not json"):
        send("POST", base, template, PRINTER + "/pause", 400, bad)
    send("POST", base, template, "/api/v1/printers/nobody/pause", 404, {"paused": True})

    template = "/api/v1/printers/{name}/hold-new-jobs"
    held = send("POST", base, template, PRINTER + "/hold-new-jobs", 200, {"hold": True})
    assert "hold-new-jobs" in held["printer-state-reasons"]
    printer.print_pdf("held by the panel")
    job = wait_for(lambda: checked("GET", base, "/api/v1/jobs/{id}", "/api/v1/jobs/1", 200), "the job")
    wait_for(lambda: checked("GET", base, "/api/v1/jobs/{id}", "/api/v1/jobs/1", 200)["job-state"] == "pending-held",
             "the job to be held")
    released = send("POST", base, template, PRINTER + "/hold-new-jobs", 200, {"hold": False})
    assert "hold-new-jobs" not in released["printer-state-reasons"]
    done = checked("GET", base, "/api/v1/wait", "/api/v1/wait?jobs=1&timeout=30", 200)
    assert done[0]["job-id"] == job["job-id"] and done[0]["job-state"] == "completed"
    send("POST", base, template, PRINTER + "/hold-new-jobs", 400, {"hold": None})


def test_a_tray_loaded_with_a_size_and_type(printer):
    base = printer.base
    template = "/api/v1/printers/{name}/trays"
    send("POST", base, template, PRINTER + "/trays", 200, {"source": "main", "level": 0})
    assert "media-empty-report" in reasons(base)
    send("POST", base, template, PRINTER + "/trays", 200,
         {"source": "main", "level": 120, "media": "iso_a4_210x297mm", "media-type": "cardstock"})
    listed = checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)[0]
    main = [tray for tray in listed["trays"] if tray["name"] == "main"][0]
    assert main == {"name": "main", "level": 120, "capacity": 250, "manual": False, "media": "iso_a4_210x297mm",
                    "media-type": "cardstock"}
    assert "iso_a4_210x297mm" in listed["media-ready"] and "na_letter_8.5x11in" not in listed["media-ready"]
    assert "media-empty-report" not in listed["printer-state-reasons"]
    # The manual slot gets its own media-col-ready entry.
    send("POST", base, template, PRINTER + "/trays", 200, {"source": "manual", "media": "na_legal_8.5x14in"})
    listed = checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)[0]
    assert listed["media-ready"] == ["iso_a4_210x297mm", "na_legal_8.5x14in"]
    send("POST", base, template, PRINTER + "/trays", 400, {"source": "main", "media": "iso_a0_841x1189mm"})
    send("POST", base, template, PRINTER + "/trays", 400, {"source": "main", "media-type": "papyrus"})
    send("POST", base, template, PRINTER + "/trays", 400, {"media": "iso_a4_210x297mm"})
    send("POST", base, template, PRINTER + "/trays", 400, {"source": "main", "media": 4})
    send("POST", base, template, PRINTER + "/trays", 404, {"source": "attic", "media": "iso_a4_210x297mm"})


def test_scenarios_played_and_stopped(printer):
    base = printer.base
    listing = send("GET", base, "/api/v1/printers/{name}/scenarios", PRINTER + "/scenarios", 200)
    names = [scenario["name"] for scenario in listing["shipped"]]
    assert "toner-low" in names and "paper-jam" in names and listing["playing"] == []
    played = send("POST", base, "/api/v1/printers/{name}/scenarios", PRINTER + "/scenarios", 201,
                  {"scenario": "toner-low"})
    assert played["scenario"] == "toner-low" and len(played["added"]) == 1
    supply = checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)[0]["printer-supply"][0]
    assert supply["level"] == 5
    faults = checked("GET", base, "/api/v1/printers/{name}/faults", PRINTER + "/faults", 200)
    assert faults[0]["group"] == "toner-low"
    listing = send("GET", base, "/api/v1/printers/{name}/scenarios", PRINTER + "/scenarios", 200)
    assert listing["playing"] == [{"name": "toner-low", "faults": 1}]
    stopped = send("DELETE", base, "/api/v1/printers/{name}/scenarios/{scenario}", PRINTER + "/scenarios/toner-low",
                   200)
    assert stopped == {"stopped": "toner-low", "cleared": 1}
    assert checked("GET", base, "/api/v1/printers", "/api/v1/printers", 200)[0]["printer-supply"][0]["level"] == 100
    send("DELETE", base, "/api/v1/printers/{name}/scenarios/{scenario}", PRINTER + "/scenarios/toner-low", 404)
    send("POST", base, "/api/v1/printers/{name}/scenarios", PRINTER + "/scenarios", 404, {"scenario": "../../etc"})
    send("POST", base, "/api/v1/printers/{name}/scenarios", PRINTER + "/scenarios", 404, {"scenario": "no-such"})
    send("POST", base, "/api/v1/printers/{name}/scenarios", PRINTER + "/scenarios", 400, {"name": "toner-low"})


def test_faults_cleared_by_group_and_by_reason(printer):
    base = printer.base
    path = PRINTER + "/faults"
    send("POST", base, "/api/v1/printers/{name}/faults", path, 201,
         {"faults": [{"group": "door", "effect": {"add-reasons": ["door-open-error"]}},
                     {"group": "jam", "effect": {"add-reasons": ["media-jam-error"]}},
                     {"group": "jam", "trigger": {"operation": "Print-Job"}, "effect": {"delay": 0.1}}]})
    held = checked("GET", base, "/api/v1/printers/{name}/faults", path, 200)
    assert [fault.get("reasons") for fault in held] == [["door-open-error"], ["media-jam-error"], None]
    assert {"door-open-error", "media-jam-error"} <= set(reasons(base))
    cleared = checked("DELETE", base, "/api/v1/printers/{name}/faults", path + "?reason=door-open-error", 200)
    assert cleared == {"cleared": 1} and "door-open-error" not in reasons(base)
    assert checked("DELETE", base, "/api/v1/printers/{name}/faults", path + "?group=jam", 200) == {"cleared": 2}
    assert reasons(base) == ["none"]
    checked("DELETE", base, "/api/v1/printers/{name}/faults", path + "?colour=red", 400)
    checked("DELETE", base, "/api/v1/printers/{name}/faults", path + "?group=", 400)
    send("POST", base, "/api/v1/printers/{name}/faults", path, 400, {"group": "", "effect": {"add-reasons": ["x"]}})
    send("POST", base, "/api/v1/printers/{name}/faults", path, 400, {"group": 3, "effect": {"add-reasons": ["x"]}})
