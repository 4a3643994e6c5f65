"""CUPS as the client of a printer with out-of-paper: a driverless queue (lpadmin -m everywhere) in the stage's
private cupsd reports the media reason while the job waits, and CUPS and vprinter both see the job completed after
the tray is refilled."""
import pytest

from vptest import cups, names, waiting

# Seconds CUPS gets to reach each state, and how often it is asked.
CUPS_LIMIT = 90
POLL = 0.5
MEDIA_REASONS = {"media-empty-error", "media-needed-error"}


@pytest.mark.cups
@pytest.mark.scenario("cups:out-of-paper")
def test_cups_out_of_paper(scenario_printer, log_folder):
    cups.private_server()
    played = scenario_printer(scenario="out-of-paper")
    queue = names.unique("out-of-paper")
    cups.add_everywhere_queue(queue, played.printer.uri)
    try:
        answer = cups.lp(queue, played.document, "out of paper")
        job = cups.request_id(answer)
        assert job, "lp named no job: %s" % answer

        def waiting_for_paper():
            # CUPS lists the printer's reasons under Alerts (lpstat -l -p).
            return cups.job_listed(queue, job) and cups.alerts(queue) & MEDIA_REASONS

        waiting.wait_for(waiting_for_paper, "lpstat -l -p to show a media reason while %s waits" % job, CUPS_LIMIT,
                         POLL)
        (log_folder / "lpstat-waiting.txt").write_text(cups.lpstat("-l", "-p", queue))
        played.api("POST", "/trays", {"source": "main"})

        def recorded():
            records = played.records()
            return records and records[-1]["job-state"] == "completed" and records

        records = waiting.wait_for(recorded, "vprinter to record the job completed", CUPS_LIMIT, POLL)
        assert len(records) == 1, "CUPS sent one job: %s" % [record["job-id"] for record in records]
        assert "processing-stopped" in played.states_of(records[0]["job-id"]), "the job waited for paper"
        waiting.wait_for(lambda: cups.job_listed(queue, job, "completed"), "CUPS to list %s as completed" % job,
                         CUPS_LIMIT, POLL)
        (log_folder / "lpstat-after.txt").write_text(cups.lpstat("-l", "-p", queue))
    finally:
        cups.remove_queue(queue)
