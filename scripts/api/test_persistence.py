"""Restarting on the same output folder: earlier jobs are listed and ids go on; a job a SIGKILL interrupted is
printed again after the restart (or aborted with --on-restart abort) with every record intact; --max-jobs keeps the
newest. scripts/api/test_crash_recovery.py kills the printer many times under load."""
import json
import os

from vptest import documents, records
from vptest.waiting import WAIT_LIMIT, wait_until


def test_a_restart_lists_earlier_jobs_and_continues_the_ids(start_printer):
    first = start_printer()
    first.print_job(name="before restart 1")
    first.print_job(name="before restart 2")
    first.checked("GET", "/api/v1/wait?jobs=2", 200)
    first.stop()

    second = first.restart()
    jobs = second.checked("GET", "/api/v1/jobs", 200)
    assert [(job["job-id"], job["job-name"]) for job in jobs] == [(1, "before restart 1"), (2, "before restart 2")]
    assert all(job["job-state"] == "completed" for job in jobs)
    second.print_job(name="after restart")
    ended = second.checked("GET", "/api/v1/wait?jobs=3", 200)
    assert ended[-1]["job-id"] == 3 and ended[-1]["job-name"] == "after restart"


# Pages of the job a kill interrupts: at 300 dpi it is still being rendered when the kill comes.
PAGES = 60


def kill_while_processing(start_printer, folder, *arguments):
    """Prints a slow job and kills the printer (SIGKILL) once it renders; every record left is valid. Returns the
    killed printer."""
    # Ghostscript's pages: slow enough to render that a kill lands in the middle.
    document = documents.pdf_of_program(os.path.join(folder, "many.pdf"), "1 1 %d { /Helvetica findfont 48 scalefont"
                                        " setfont 72 600 moveto 10 string cvs show showpage } for" % PAGES)
    first = start_printer("--render-dpi", "300", *arguments)
    first.print_job(document, name="slow job")
    processing = wait_until(lambda: [job for job in first.checked("GET", "/api/v1/jobs?state=processing", 200)
                                     if job["impressions"]])
    assert processing, "the job never started processing"
    first.kill()
    records.check_folder(first.output_dir)
    return first


def record_on_disk(output_dir, job_id):
    with open("%s/jobs/%d/job.json" % (output_dir, job_id)) as file:
        return json.load(file)


def test_a_sigkill_while_a_job_is_processing_prints_it_again_after_the_restart(start_printer, tmp_path):
    second = kill_while_processing(start_printer, tmp_path).restart("--render-dpi", "20")
    [job] = second.checked("GET", "/api/v1/wait?jobs=1&timeout=%d" % WAIT_LIMIT, 200)
    assert job["job-state"] == "completed", job["job-state-message"]
    states = [entry["job-state"] for entry in job["history"]]
    assert states == ["pending", "pending", "processing", "pending", "processing", "completed"], states
    assert "restarted" in job["history"][3]["job-state-message"]
    pages = sorted(name for name in os.listdir(second.output_dir + "/jobs/1") if name.startswith("page-"))
    # Each side's image and, for a PDF, its text file, made again once.
    expected = [name % number for number in range(1, PAGES + 1) for name in ("page-%04d.png", "page-%04d.txt")]
    assert pages == expected, "page images made again, once"
    assert len(job["impressions"]) == PAGES and job["impressions"][0]["dpi"] == 20
    records.validate_record(record_on_disk(second.output_dir, 1))


def test_on_restart_abort_aborts_a_job_the_kill_interrupted(start_printer, tmp_path):
    second = kill_while_processing(start_printer, tmp_path, "--on-restart", "abort").restart("--on-restart", "abort")
    [job] = second.checked("GET", "/api/v1/jobs", 200)
    assert job["job-state"] == "aborted"
    assert "aborted-by-system" in job["job-state-reasons"]
    # Rewritten before the printer lists it: disk and API agree.
    assert record_on_disk(second.output_dir, 1)["job-state"] == "aborted"
    records.validate_record(record_on_disk(second.output_dir, 1))


def test_max_jobs_keeps_the_newest_jobs_and_their_folders(start_printer):
    running = start_printer("--max-jobs", "3")
    for number in range(1, 6):
        running.print_job(name="job %d" % number)
        running.checked("GET", "/api/v1/wait?jobs=1&state=ended&name=job%%20%d" % number, 200)
    ids = wait_until(lambda: [job["job-id"] for job in running.checked("GET", "/api/v1/jobs", 200)] == [3, 4, 5])
    assert ids
    # The folders go just after the jobs leave the list (outside the printer's lock): wait for that, bounded.
    jobs = running.output_dir + "/jobs"
    folders = wait_until(lambda: sorted(os.listdir(jobs)) == ["3", "4", "5"])
    assert folders, "jobs/ holds %s" % {name: os.listdir(jobs + "/" + name) for name in os.listdir(jobs)}
