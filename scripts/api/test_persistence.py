"""Restarting on the same output folder: earlier jobs are listed and ids go on; a job a SIGKILL interrupted is
printed again after the restart (or aborted with --on-restart abort) with every record intact; --max-jobs keeps the
newest. scripts/api/test_crash_recovery.py kills the printer many times under load."""
import glob
import json
import os
import subprocess

from conftest import Printer, WAIT_LIMIT, checked, validate_record, wait_until


def test_a_restart_lists_earlier_jobs_and_continues_the_ids(folder):
    first = Printer(folder)
    first.print_pdf("before restart 1")
    first.print_pdf("before restart 2")
    checked("GET", first.base, "/api/v1/wait", "/api/v1/wait?jobs=2", 200)
    first.stop()

    second = Printer(folder)
    try:
        jobs = checked("GET", second.base, "/api/v1/jobs", "/api/v1/jobs", 200)
        assert [(job["job-id"], job["job-name"]) for job in jobs] == [(1, "before restart 1"), (2, "before restart 2")]
        assert all(job["job-state"] == "completed" for job in jobs)
        second.print_pdf("after restart")
        ended = checked("GET", second.base, "/api/v1/wait", "/api/v1/wait?jobs=3", 200)
        assert ended[-1]["job-id"] == 3 and ended[-1]["job-name"] == "after restart"
    finally:
        second.stop()


def many_page_pdf(path, pages):
    """A PDF of `pages` pages made by ghostscript: slow enough to render that a kill lands in the middle."""
    program = "1 1 %d { /Helvetica findfont 48 scalefont setfont 72 600 moveto 10 string cvs show showpage } for" % pages
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-sOutputFile=" + path,
                    "-c", program], check=True)
    with open(path, "rb") as file:
        return file.read()


# Pages of the job a kill interrupts: at 300 dpi it is still being rendered when the kill comes.
PAGES = 60


def kill_while_processing(folder, *arguments):
    """Prints a slow job and kills the printer (SIGKILL) once it renders; every record left is valid."""
    document = many_page_pdf(os.path.dirname(folder) + "/many.pdf", PAGES)
    first = Printer(folder, "--render-dpi", "300", *arguments)
    first.print_pdf("slow job", document=document)
    processing = wait_until(lambda: [job for job in checked("GET", first.base, "/api/v1/jobs",
                                                            "/api/v1/jobs?state=processing", 200)
                                     if job["impressions"]])
    assert processing, "the job never started processing"
    first.kill()
    for path in glob.glob(folder + "/jobs/*/job.json"):
        with open(path) as file:
            validate_record(json.load(file))


def record_on_disk(folder, job_id):
    with open("%s/jobs/%d/job.json" % (folder, job_id)) as file:
        return json.load(file)


def test_a_sigkill_while_a_job_is_processing_prints_it_again_after_the_restart(folder):
    kill_while_processing(folder)
    second = Printer(folder, "--render-dpi", "20")
    try:
        [job] = checked("GET", second.base, "/api/v1/wait", "/api/v1/wait?jobs=1&timeout=%d" % WAIT_LIMIT, 200)
        assert job["job-state"] == "completed", job["job-state-message"]
        states = [entry["job-state"] for entry in job["history"]]
        assert states == ["pending", "pending", "processing", "pending", "processing", "completed"], states
        assert "restarted" in job["history"][3]["job-state-message"]
        pages = sorted(name for name in os.listdir(folder + "/jobs/1") if name.startswith("page-"))
        # Each side's image and, for a PDF, its text file, made again once.
        expected = [name % number for number in range(1, PAGES + 1) for name in ("page-%04d.png", "page-%04d.txt")]
        assert pages == expected, "page images made again, once"
        assert len(job["impressions"]) == PAGES and job["impressions"][0]["dpi"] == 20
        validate_record(record_on_disk(folder, 1))
    finally:
        second.stop()


def test_on_restart_abort_aborts_a_job_the_kill_interrupted(folder):
    kill_while_processing(folder, "--on-restart", "abort")
    second = Printer(folder, "--on-restart", "abort")
    try:
        [job] = checked("GET", second.base, "/api/v1/jobs", "/api/v1/jobs", 200)
        assert job["job-state"] == "aborted"
        assert "aborted-by-system" in job["job-state-reasons"]
        # Rewritten before the printer lists it: disk and API agree.
        assert record_on_disk(folder, 1)["job-state"] == "aborted"
        validate_record(record_on_disk(folder, 1))
    finally:
        second.stop()


def test_max_jobs_keeps_the_newest_jobs_and_their_folders(folder):
    running = Printer(folder, "--max-jobs", "3")
    try:
        for number in range(1, 6):
            running.print_pdf("job %d" % number)
            checked("GET", running.base, "/api/v1/wait", "/api/v1/wait?jobs=1&state=ended&name=job%%20%d" % number,
                    200)
        ids = wait_until(lambda: [job["job-id"] for job in
                                  checked("GET", running.base, "/api/v1/jobs", "/api/v1/jobs", 200)] == [3, 4, 5])
        assert ids
        # The folders go just after the jobs leave the list (outside the printer's lock): wait for that, bounded.
        folders = wait_until(lambda: sorted(os.listdir(folder + "/jobs")) == ["3", "4", "5"])
        assert folders, "jobs/ holds %s" % {name: os.listdir(folder + "/jobs/" + name)
                                            for name in os.listdir(folder + "/jobs")}
    finally:
        running.stop()
