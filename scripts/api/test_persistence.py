"""Restarting on the same output folder: earlier jobs are listed and ids go on; a SIGKILL in the middle of a job
leaves it aborted (aborted-by-system) after the restart with every record intact; --max-jobs keeps the newest."""
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


def test_a_sigkill_while_a_job_is_processing_aborts_it_after_the_restart(folder):
    document = many_page_pdf(os.path.dirname(folder) + "/many.pdf", 400)
    first = Printer(folder, "--render-dpi", "300")
    first.print_pdf("slow job", document=document)
    processing = wait_until(lambda: checked("GET", first.base, "/api/v1/jobs", "/api/v1/jobs?state=processing", 200))
    assert processing, "the job never started processing"
    first.kill()

    for path in glob.glob(folder + "/jobs/*/job.json"):
        with open(path) as file:
            validate_record(json.load(file))
    second = Printer(folder)
    try:
        [job] = checked("GET", second.base, "/api/v1/jobs", "/api/v1/jobs", 200)
        assert job["job-state"] == "aborted"
        assert "aborted-by-system" in job["job-state-reasons"]
        def record_on_disk():
            with open(folder + "/jobs/1/job.json") as file:
                return json.load(file)
        # The printer rewrites the record just after it takes the job in: wait for that, bounded.
        assert wait_until(lambda: record_on_disk()["job-state"] == "aborted")
        validate_record(record_on_disk())
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
        assert sorted(os.listdir(folder + "/jobs")) == ["3", "4", "5"]
    finally:
        running.stop()
