"""CUPS as the client of a printer that is switched off (docs/api.md "Power"): a driverless queue (lpadmin -m
everywhere) in the stage's private cupsd to a printer with a port of its own keeps a job while the printer refuses
connections, says so in the queue's state message, and prints the job once the printer is switched on again."""
import time

import pytest

from vptest import cups, names, waiting

# Seconds CUPS gets to reach each state, and how often it is asked.
CUPS_LIMIT = 90
POLL = 0.5
# Seconds the printer stays off with the job waiting: long enough for CUPS's backend to try and fail.
OFF_SECONDS = 5
# What CUPS's ipp backend says of a printer it cannot reach (its printer-state-message, in `lpstat -l -p`): "The
# printer may not exist or is unavailable at this time." or "The printer is not responding."
UNREACHABLE = ("unavailable", "not responding")


@pytest.mark.cups
@pytest.mark.scenario("cups:power-off")
def test_cups_keeps_a_job_while_the_printer_is_off_and_prints_it_once_on(scenario_printer, log_folder):
    cups.private_server()
    played = scenario_printer()
    created = played.printer.checked("POST", "/api/v1/printers", 201, {"name": names.unique("off"), "port": 0})
    name, uri = created["printer-name"], created["printer-uri-supported"]
    power = "/api/v1/printers/%s/power" % name
    queue = names.unique("power-off")
    cups.add_everywhere_queue(queue, uri)
    try:
        played.printer.checked("POST", power, 200, {"on": False})
        job = cups.request_id(cups.lp(queue, played.document, "while off"))
        assert job, "lp made no job"
        time.sleep(OFF_SECONDS)
        waiting_message = cups.lpstat("-l", "-p", queue)
        (log_folder / "lpstat-off.txt").write_text(waiting_message)
        assert any(words in waiting_message for words in UNREACHABLE), (
            "CUPS does not show the printer as unreachable:\n%s" % waiting_message)
        assert cups.job_listed(queue, job), "CUPS dropped the job while the printer was off:\n%s" % (
            cups.queue_jobs(queue))
        assert played.printer.checked("GET", "/api/v1/jobs?printer=%s" % name) == [], "a job arrived while off"
        played.printer.checked("POST", power, 200, {"on": True})
        started = time.monotonic()
        waiting.wait_for(lambda: cups.job_listed(queue, job, "completed"), "CUPS to print %s once on" % job,
                         CUPS_LIMIT, POLL)
        printed = time.monotonic() - started
        records = played.printer.wait(1, printer=name)
        assert records[0]["job-state"] == "completed"
        (log_folder / "lpstat-on.txt").write_text(cups.lpstat("-l", "-p", queue))
        print("CUPS while the printer was off:\n%s\nprinted %.1f s after power on" % (waiting_message, printed))
    finally:
        cups.remove_queue(queue)
