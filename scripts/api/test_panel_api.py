"""The front panel's calls (docs/api.md "Front panel calls") answer as docs/openapi.json says, and do
what they say: pause and hold new jobs (seen in printer-state-reasons and in a job held, then released), a tray
loaded with a size and type (media-ready, media-col-ready through IPP), a roll run out and reloaded under a job,
scenarios played and stopped, faults grouped and cleared by group or reason. Bad bodies answer 400, unknown
scenarios 404."""
from vptest.documents import ipptool_document
from vptest.waiting import wait_for

PRINTER = "/api/v1/printers/vprinter-duplex-laser"
# The bodies of the front panel's calls are JSON, also when they are not.
JSON_HEADERS = {"Content-Type": "application/json"}


def reasons(printer):
    return printer.checked("GET", "/api/v1/printers", 200)[0]["printer-state-reasons"]


def test_pause_and_hold_new_jobs(printer):
    checked = printer.checked
    paused = checked("POST", PRINTER + "/pause", 200, {"paused": True})
    assert paused["printer-state"] == "stopped" and "paused" in paused["printer-state-reasons"]
    resumed = checked("POST", PRINTER + "/pause", 200, {"paused": False})
    assert "paused" not in resumed["printer-state-reasons"]
    for bad in ({"paused": 1}, {"paused": "yes"}, {}, b"not json"):
        checked("POST", PRINTER + "/pause", 400, bad, headers=JSON_HEADERS)
    checked("POST", "/api/v1/printers/nobody/pause", 404, {"paused": True})

    held = checked("POST", PRINTER + "/hold-new-jobs", 200, {"hold": True})
    assert "hold-new-jobs" in held["printer-state-reasons"]
    printer.print_job(name="held by the panel")
    job = wait_for(lambda: checked("GET", "/api/v1/jobs/1", 200), "the job")
    wait_for(lambda: checked("GET", "/api/v1/jobs/1", 200)["job-state"] == "pending-held", "the job to be held")
    released = checked("POST", PRINTER + "/hold-new-jobs", 200, {"hold": False})
    assert "hold-new-jobs" not in released["printer-state-reasons"]
    done = checked("GET", "/api/v1/wait?jobs=1&timeout=30", 200)
    assert done[0]["job-id"] == job["job-id"] and done[0]["job-state"] == "completed"
    checked("POST", PRINTER + "/hold-new-jobs", 400, {"hold": None})


def test_a_tray_loaded_with_a_size_and_type(printer):
    checked = printer.checked
    checked("POST", PRINTER + "/trays", 200, {"source": "main", "level": 0})
    assert "media-empty-report" in reasons(printer)
    checked("POST", PRINTER + "/trays", 200,
            {"source": "main", "level": 120, "media": "iso_a4_210x297mm", "media-type": "cardstock"})
    listed = checked("GET", "/api/v1/printers", 200)[0]
    main = [tray for tray in listed["trays"] if tray["name"] == "main"][0]
    assert main == {"name": "main", "level": 120, "capacity": 250, "manual": False, "roll": False,
                    "media": "iso_a4_210x297mm", "media-type": "cardstock"}
    assert "iso_a4_210x297mm" in listed["media-ready"] and "na_letter_8.5x11in" not in listed["media-ready"]
    assert "media-empty-report" not in listed["printer-state-reasons"]
    # The manual slot gets its own media-col-ready entry.
    checked("POST", PRINTER + "/trays", 200, {"source": "manual", "media": "na_legal_8.5x14in"})
    listed = checked("GET", "/api/v1/printers", 200)[0]
    assert listed["media-ready"] == ["iso_a4_210x297mm", "na_legal_8.5x14in"]
    checked("POST", PRINTER + "/trays", 400, {"source": "main", "media": "iso_a0_841x1189mm"})
    checked("POST", PRINTER + "/trays", 400, {"source": "main", "media-type": "papyrus"})
    checked("POST", PRINTER + "/trays", 400, {"media": "iso_a4_210x297mm"})
    checked("POST", PRINTER + "/trays", 400, {"source": "main", "media": 4})
    checked("POST", PRINTER + "/trays", 404, {"source": "attic", "media": "iso_a4_210x297mm"})


def test_a_roll_runs_out_and_a_job_waits_with_media_needed_until_it_is_reloaded(start_printer, tmp_path):
    # PWG's IPP Everywhere self-certification test I-20 (media-needed), unattended: the roll is run out through
    # the API, a job then stops with media-needed until the roll is reloaded, as for an empty sheet tray.
    printer = start_printer("--profile", "receipt-printer")
    trays = "/api/v1/printers/vprinter-receipt-printer/trays"
    checked = printer.checked
    checked("POST", trays, 200, {"level": 0})
    listed = checked("GET", "/api/v1/printers", 200)[0]
    assert listed["trays"] == [{"name": "main-roll", "level": 0, "capacity": -2, "manual": False, "roll": True,
                                "media": "om_receipt-80_80x297mm", "media-type": "continuous"}]
    assert listed["printer-state-reasons"] == ["media-empty-report"]
    job = printer.print_job(ipptool_document(tmp_path, "gray.jpg"), document_format="image/jpeg")
    printer.wait_for_job_state(job, "processing-stopped")
    stopped = checked("GET", "/api/v1/printers", 200)[0]
    assert stopped["printer-state"] == "stopped"
    assert stopped["printer-state-reasons"] == ["media-empty-error", "media-needed-error"]
    assert checked("GET", "/api/v1/jobs/%d" % job, 200)["job-state-reasons"] == ["printer-stopped"]
    checked("POST", trays, 200, {})
    printer.wait_for_job_state(job, "completed")
    assert reasons(printer) == ["none"]


def test_scenarios_played_and_stopped(printer):
    checked = printer.checked
    listing = checked("GET", PRINTER + "/scenarios", 200)
    names = [scenario["name"] for scenario in listing["shipped"]]
    assert "toner-low" in names and "paper-jam" in names and listing["playing"] == []
    played = checked("POST", PRINTER + "/scenarios", 201, {"scenario": "toner-low"})
    assert played["scenario"] == "toner-low" and len(played["added"]) == 1
    supply = checked("GET", "/api/v1/printers", 200)[0]["printer-supply"][0]
    assert supply["level"] == 5
    faults = checked("GET", PRINTER + "/faults", 200)
    assert faults[0]["group"] == "toner-low"
    listing = checked("GET", PRINTER + "/scenarios", 200)
    assert listing["playing"] == [{"name": "toner-low", "faults": 1}]
    stopped = checked("DELETE", PRINTER + "/scenarios/toner-low", 200)
    assert stopped == {"stopped": "toner-low", "cleared": 1}
    assert checked("GET", "/api/v1/printers", 200)[0]["printer-supply"][0]["level"] == 100
    checked("DELETE", PRINTER + "/scenarios/toner-low", 404)
    checked("POST", PRINTER + "/scenarios", 404, {"scenario": "../../etc"})
    checked("POST", PRINTER + "/scenarios", 404, {"scenario": "no-such"})
    checked("POST", PRINTER + "/scenarios", 400, {"name": "toner-low"})


def test_faults_cleared_by_group_and_by_reason(printer):
    checked = printer.checked
    path = PRINTER + "/faults"
    checked("POST", path, 201,
            {"faults": [{"group": "door", "effect": {"add-reasons": ["door-open-error"]}},
                        {"group": "jam", "effect": {"add-reasons": ["media-jam-error"]}},
                        {"group": "jam", "trigger": {"operation": "Print-Job"}, "effect": {"delay": 0.1}}]})
    held = checked("GET", path, 200)
    assert [fault.get("reasons") for fault in held] == [["door-open-error"], ["media-jam-error"], None]
    assert {"door-open-error", "media-jam-error"} <= set(reasons(printer))
    cleared = checked("DELETE", path + "?reason=door-open-error", 200)
    assert cleared == {"cleared": 1} and "door-open-error" not in reasons(printer)
    assert checked("DELETE", path + "?group=jam", 200) == {"cleared": 2}
    assert reasons(printer) == ["none"]
    checked("DELETE", path + "?colour=red", 400)
    checked("DELETE", path + "?group=", 400)
    checked("POST", path, 400, {"group": "", "effect": {"add-reasons": ["x"]}})
    checked("POST", path, 400, {"group": 3, "effect": {"add-reasons": ["x"]}})
