"""`vprinter exec [options] -- COMMAND`: the printers start, COMMAND runs with their addresses in VPRINTER_URI,
VPRINTER_URIS, VPRINTER_API and VPRINTER_URL and prints with CUPS's ipptool, the jobs still printing when it ends are
waited for, the printers stop, a summary of the jobs is printed, the JUnit file is read by junitparser (a JUnit
reader CI tools use) and the exit status is COMMAND's, or 1 when --expect-jobs is not met."""
import os
import signal
import subprocess
import time
import xml.etree.ElementTree

import junitparser
from vptest.documents import SAMPLE_PDF
from vptest.paths import REPO
from vptest.printer import COMMAND_LIMIT, binary

# Options every run here takes: a free port, no DNS-SD, a low resolution (quick renders).
QUIET = ("--port", "0", "--no-dnssd", "--render-dpi", "72")


def vprinter_exec(tmp_path, *arguments, command, env=None):
    """Runs `vprinter exec QUIET ARGUMENTS -- COMMAND` in the checkout, with ``env`` added to the environment;
    returns (status, stdout, stderr)."""
    done = subprocess.run([binary(), "exec", *QUIET, "--output-dir", str(tmp_path / "output"), *arguments, "--",
                           *command], capture_output=True, text=True, timeout=COMMAND_LIMIT, cwd=REPO,
                          env=dict(os.environ, **(env or {})))
    return done.returncode, done.stdout, done.stderr


def test_the_command_prints_and_the_junit_file_has_each_job(tmp_path):
    good = tmp_path / "good.pdf"
    good.write_bytes(SAMPLE_PDF)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\nnot a PDF past its first line\n")
    seen = tmp_path / "environment.txt"
    # The command prints one good and one broken PDF (aborted: document-format-error), then asks the printer with
    # `vprinter wait`, which finds it through VPRINTER_URL alone.
    script = """
        set -e
        printf '%s\\n' "$VPRINTER_URI" "$VPRINTER_URIS" "$VPRINTER_API" "$VPRINTER_URL" > "$SEEN"
        ipptool -tq -f "$GOOD" -d filetype=application/pdf "$VPRINTER_URI" print-job.test
        ipptool -q -f "$BROKEN" -d filetype=application/pdf "$VPRINTER_URI" print-job.test || true
        "$VPRINTER_BIN" wait --count 2 --timeout 60 > /dev/null
        echo "the command's own output"
    """
    junit = tmp_path / "report.xml"
    status, out, err = vprinter_exec(
        tmp_path, "--junit", str(junit), "--expect-jobs", "2", command=["sh", "-c", script],
        env={"SEEN": str(seen), "GOOD": str(good), "BROKEN": str(broken), "VPRINTER_BIN": binary()})
    assert status == 0, err
    # Standard output is the command's alone.
    assert out == "the command's own output\n"
    uri, uris, api, url = seen.read_text().splitlines()
    assert uri.startswith("ipp://localhost:") and uri.endswith("/ipp/print")
    assert uris == uri
    assert api == url == "http://" + uri.split("/")[2]
    assert "printer 'vprinter duplex-laser': 2 jobs (1 completed, 1 aborted)" in err
    # The variables exec sets are known to the vprinter the command runs: it warns of none.
    assert "names no option" not in err

    root = xml.etree.ElementTree.parse(junit).getroot()
    assert root.tag == "testsuites"
    report = junitparser.JUnitXml.fromfile(str(junit))
    [suite] = list(report)
    assert (suite.name, suite.tests, suite.failures, suite.errors, suite.skipped) == (
        "vprinter duplex-laser", 2, 1, 0, 0)
    first, second = list(suite)
    assert first.classname == "vprinter duplex-laser"
    assert first.name.startswith("job 1: ") and first.is_passed
    assert second.name.startswith("job 2: ") and not second.is_passed
    [failure] = second.result
    assert isinstance(failure, junitparser.Failure)
    assert failure.type == "aborted"
    assert "document-format-error" in failure.message
    # Each case says where the job's record is.
    record = tmp_path / "output" / "jobs" / "2" / "job.json"
    assert record.is_file()
    assert "record: %s" % record in second.system_out


def test_the_exit_status_is_the_commands(tmp_path):
    status, _, err = vprinter_exec(tmp_path, command=["sh", "-c", "exit 7"])
    assert status == 7, err
    assert "'sh' exited with status 7" in err
    assert "printer 'vprinter duplex-laser': no jobs" in err


def test_a_command_not_found_is_127_and_the_printers_stop(tmp_path):
    status, _, err = vprinter_exec(tmp_path, command=["no-such-command-for-vprinter"])
    assert status == 127, err
    assert "cannot run 'no-such-command-for-vprinter'" in err


def test_expect_jobs_fails_when_another_number_of_jobs_came(tmp_path):
    sample = tmp_path / "sample.pdf"
    sample.write_bytes(SAMPLE_PDF)
    command = ["sh", "-c", 'ipptool -tq -f "$0" -d filetype=application/pdf "$VPRINTER_URI" print-job.test',
               str(sample)]
    status, _, err = vprinter_exec(tmp_path, "--expect-jobs", "2", command=command)
    assert status == 1, err
    assert "--expect-jobs 2, but the printers received 1" in err
    # Jobs of an earlier run on the same output folder are not this run's.
    status, _, err = vprinter_exec(tmp_path, "--expect-jobs", "1", command=command)
    assert status == 0, err
    assert "1 job (1 completed)" in err


def test_jobs_the_command_deleted_still_count(tmp_path):
    """The pytest plugin resets a printer's jobs before each test (DELETE /api/v1/jobs): the run's jobs are
    reported as they last stood."""
    sample = tmp_path / "sample.pdf"
    sample.write_bytes(SAMPLE_PDF)
    script = """
        set -e
        ipptool -tq -f "$0" -d filetype=application/pdf "$VPRINTER_URI" print-job.test
        "$VPRINTER_BIN" wait --count 1 --timeout 60 > /dev/null
        python3 -c 'import os, urllib.request as r; r.urlopen(r.Request(os.environ["VPRINTER_API"] + "/api/v1/jobs",
            method="DELETE")).read()'
        test ! -e "$1"
    """
    junit = tmp_path / "report.xml"
    record = tmp_path / "output" / "jobs" / "1" / "job.json"
    status, _, err = vprinter_exec(tmp_path, "--junit", str(junit), "--expect-jobs", "1",
                                   command=["sh", "-c", script, str(sample), str(record)],
                                   env={"VPRINTER_BIN": binary()})
    assert status == 0, err
    assert "printer 'vprinter duplex-laser': 1 job (1 completed)" in err
    [suite] = list(junitparser.JUnitXml.fromfile(str(junit)))
    [case] = list(suite)
    assert case.is_passed
    assert "(deleted during the run)" in case.system_out


def test_sigterm_reaches_the_command_and_the_summary_is_printed(tmp_path):
    started = tmp_path / "started"
    process = subprocess.Popen(
        [binary(), "exec", *QUIET, "--output-dir", str(tmp_path / "output"), "--", "sh", "-c",
         'touch "$0"; exec sleep 60', str(started)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        deadline = time.monotonic() + COMMAND_LIMIT
        while not started.exists():
            assert process.poll() is None and time.monotonic() < deadline, "the command never started"
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=COMMAND_LIMIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    # sleep ended by the SIGTERM passed on: 128 + 15, as a shell reports it.
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "'sh' exited with status 143" in err
    assert "printer 'vprinter duplex-laser': no jobs" in err


def test_exec_without_a_command_is_a_usage_error(tmp_path):
    done = subprocess.run([binary(), "exec", *QUIET], capture_output=True, text=True, timeout=COMMAND_LIMIT,
                          cwd=REPO)
    assert done.returncode == 2
    assert "exec needs a command" in done.stderr
