"""Crash recovery: vprinter is killed with SIGKILL at random moments while several clients keep printing,
round after round, and started again on the same output folder each time. After a final restart every job whose
submission was acknowledged (Print-Job answered successful-ok, or Create-Job whose Close-Job was answered) must be
completed with exactly the documents that were sent; every job folder must hold a record that validates against
docs/job-record.schema.json; nothing half-written may be left; job ids are never reused.

Kills are made to land in the two dangerous places: while a document is arriving (a client uploads slowly, in
chunks) and while a job is being rendered (documents of many pages at a resolution that takes a while).
"""
import hashlib
import http.client
import json
import os
import random
import threading
import time

from vprinter import ipp
from vprinter.documents import image_pdf
from vptest import artifacts, calls
from vptest.documents import SAMPLE_PDF, pdf_of_program
from vptest.records import validate_record

ROUNDS = 12
PRINT_JOB_CLIENTS = 4
# Unfinished acknowledged jobs a client may have before it waits: keeps the final drain short.
OUTSTANDING_PER_CLIENT = 4
# How long the whole test may wait for the printer to finish the acknowledged jobs after the last restart.
DRAIN_LIMIT = 150
# The longest a kill waits for the moment it is aiming at (a slow upload, a render), in seconds.
AIM_LIMIT = 20
# A slow upload's pieces, and the pause after each, in seconds.
SLOW_PIECE = 32 * 1024
SLOW_PAUSE = 0.01
TEMPORARY_SUFFIXES = (".tmp", ".partial", ".part")
# What a client gets when the printer goes away under it.
CONNECTION_ERRORS = (OSError, http.client.HTTPException)


def make_pdf(path, pages):
    return pdf_of_program(path, "1 1 %d { /Helvetica findfont 40 scalefont setfont 72 600 moveto 10 string cvs show"
                                " 0 0 1 setrgbcolor 72 72 468 400 rectfill showpage } for" % pages)


def random_image_pdf(side):
    """A one-page PDF holding a side x side RGB image of random bytes, uncompressed: big on the wire, quick to
    render."""
    return image_pdf(os.urandom(side * side * 3), side, side)


def unique(document, token):
    """The document with a comment after %%EOF naming the job, so that every job's bytes (and sha256) differ."""
    return document + b"\n% " + token.encode() + b"\n"


def job_request(operation, uri, name=None, job_id=None, last=None):
    attributes = [("requesting-user-name", "crash-test")]
    if job_id is not None:
        attributes.append(("job-id", job_id))
    if name is not None:
        attributes.append(("job-name", name))
    if operation in (ipp.PRINT_JOB, ipp.SEND_DOCUMENT):
        attributes.append(("document-format", "application/pdf"))
    if last is not None:
        attributes.append(("last-document", bool(last)))
    return ipp.request(operation, uri, attributes, request_id=random.randint(1, 1 << 30))


def post(uri, head, document=b"", slow=None):
    """POSTs an IPP request with its document; returns (IPP status, job-id or None), the status None when the
    answer is no IPP answer with HTTP 200. `slow` is a callable told how far an upload got, for uploads sent
    chunked in small pieces with pauses. Raises OSError (or http.client errors) when the printer goes away."""
    if slow is None:
        answer = ipp.exchange(uri, head + document)
    else:
        def pieces():
            yield head
            for offset in range(0, len(document), SLOW_PIECE):
                slow(offset / len(document))
                yield document[offset:offset + SLOW_PIECE]
                time.sleep(SLOW_PAUSE)
        answer = ipp.exchange(uri, pieces())
    try:
        message = ipp.decode_message(answer.body) if answer.status == 200 else None
    except ipp.IPPError:
        message = None
    return (message.status, message.job_id) if message else (None, None)


class Harness:
    """The printer process across rounds, and what the clients were told."""

    def __init__(self, start_printer, documents):
        self.start_printer = start_printer
        self.documents = documents
        self.lock = threading.Lock()
        self.printer = None
        self.up = threading.Event()
        self.stopping = threading.Event()
        # job-id -> {"name", "sha256": [...], "kind"} for every acknowledged submission.
        self.acknowledged = {}
        self.unanswered = 0
        self.uploading = 0
        self.failures = []

    def uri(self):
        self.up.wait(60)
        with self.lock:
            return self.printer.uri

    def base(self):
        self.up.wait(60)
        with self.lock:
            return self.printer.base_url

    def start(self):
        """Starts the printer, the first time, or again on the same output folder after a kill."""
        if self.printer is None:
            printer = self.start_printer("--render-workers", "2")
        else:
            printer = self.printer.restart()
        with self.lock:
            self.printer = printer
        self.up.set()

    def kill(self):
        self.up.clear()
        with self.lock:
            self.printer.kill()

    def api(self, path):
        try:
            answer = calls.call("GET", self.base() + path, timeout=30)
            return answer.json() if answer.status == 200 else None
        except (ValueError,) + CONNECTION_ERRORS:
            return None

    def acknowledge(self, job_id, name, shas, kind):
        with self.lock:
            if job_id in self.acknowledged:
                self.failures.append("job id %d was acknowledged twice (%s, then %s)"
                                     % (job_id, self.acknowledged[job_id]["name"], name))
            self.acknowledged[job_id] = {"name": name, "sha256": shas, "kind": kind}

    def wait_for_room(self, mine):
        """Blocks while this client has OUTSTANDING_PER_CLIENT acknowledged jobs that have not ended."""
        while not self.stopping.is_set():
            for job_id in list(mine):
                record = self.api("/api/v1/jobs/%d" % job_id)
                if record and record["job-state"] in ("completed", "canceled", "aborted"):
                    mine.remove(job_id)
            if len(mine) < OUTSTANDING_PER_CLIENT:
                return
            time.sleep(0.2)

    def print_job_client(self, number):
        mine = []
        sequence = 0
        while not self.stopping.is_set():
            if number == 1:
                time.sleep(0.2)  # its one-page jobs print quickly: it is paced, not held back
            else:
                self.wait_for_room(mine)
            sequence += 1
            name = "client %d job %d" % (number, sequence)
            # The first client always uploads slowly, so that kills can land during a document's arrival; the
            # others send one-page jobs, and every third job or so one of many pages, slow to render.
            kind = "slow-upload" if number == 1 else random.choice(["small", "small", "many-pages"])
            document = unique(self.documents[kind], name)
            slow = None
            if kind == "slow-upload":
                def slow(fraction):
                    with self.lock:
                        self.uploading = fraction
            try:
                status, job_id = post(self.uri(), job_request(ipp.PRINT_JOB, self.uri(), name=name), document, slow)
            except CONNECTION_ERRORS:
                with self.lock:
                    self.unanswered += 1
                time.sleep(0.1)
                continue
            finally:
                if slow:
                    with self.lock:
                        self.uploading = 0
            if status == 0 and job_id:
                self.acknowledge(job_id, name, [hashlib.sha256(document).hexdigest()], kind)
                mine.append(job_id)

    def create_job_client(self):
        """Create-Job, two Send-Documents and Close-Job; after a kill it goes on with the same job once the
        printer is back, sending only the documents the job does not have yet (as a careful client would after
        asking Get-Documents)."""
        sequence = 0
        mine = []
        while not self.stopping.is_set():
            self.wait_for_room(mine)
            sequence += 1
            name = "multi-document job %d" % sequence
            documents = [unique(self.documents["small"], name + " doc 1"),
                         unique(self.documents["many-pages"], name + " doc 2")]
            shas = [hashlib.sha256(document).hexdigest() for document in documents]
            job_id = None
            while job_id is None:
                try:
                    status, job_id = post(self.uri(), job_request(ipp.CREATE_JOB, self.uri(), name=name))
                except CONNECTION_ERRORS:
                    time.sleep(0.1)
                    continue
                if status != 0:
                    self.failures.append("Create-Job answered %s" % ("0x%04x" % status if status is not None
                                                                      else "no IPP answer"))
                    return
            closed = False
            deadline = time.monotonic() + 120
            while not closed and time.monotonic() < deadline:
                record = self.api("/api/v1/jobs/%d" % job_id)
                if record is None:
                    time.sleep(0.1)
                    continue
                if "job-incoming" not in record["job-state-reasons"]:
                    # Closed by the Close-Job whose answer a kill cut off, or ended without it: a failure.
                    closed = len(record["documents"]) == len(documents) and record["job-state"] not in (
                        "canceled", "aborted")
                    if not closed:
                        self.failures.append("job %d stopped receiving before Close-Job: %s %s" % (
                            job_id, record["job-state"], record["job-state-reasons"]))
                        return
                    break
                have = len(record["documents"])
                try:
                    if have < len(documents):
                        post(self.uri(), job_request(ipp.SEND_DOCUMENT, self.uri(), job_id=job_id, last=False),
                             documents[have])
                    else:
                        status, _ = post(self.uri(), job_request(ipp.CLOSE_JOB, self.uri(), job_id=job_id))
                        closed = status == 0
                except CONNECTION_ERRORS:
                    time.sleep(0.1)
            if not closed:
                self.failures.append("job %d could not be closed within 120 s" % job_id)
                return
            self.acknowledge(job_id, name, shas, "create-job")
            mine.append(job_id)

    def kill_while(self, what):
        """Waits (bounded) for the moment a kill aims at, then kills; returns whether the moment came."""
        deadline = time.monotonic() + AIM_LIMIT
        came = False
        while time.monotonic() < deadline:
            if what == "upload":
                with self.lock:
                    came = 0.2 < self.uploading < 0.9
            else:
                processing = self.api("/api/v1/jobs?state=processing") or []
                came = any(job["impressions"] for job in processing)
            if came:
                break
            time.sleep(random.uniform(0.01, 0.1))
        self.kill()
        return came


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def test_sigkill_at_random_moments_loses_no_acknowledged_job(start_printer, tmp_path):
    documents = {
        "small": SAMPLE_PDF,
        # Rendered in a few seconds: long enough for kills to land in it, short enough to finish between kills.
        "many-pages": make_pdf(str(tmp_path / "many-pages.pdf"), 12),
        # About 1.5 MB: sent in 32 KB chunks 10 ms apart, its upload lasts about half a second.
        "slow-upload": random_image_pdf(700),
    }
    harness = Harness(start_printer, documents)
    harness.start()
    clients = [threading.Thread(target=harness.print_job_client, args=(number,), daemon=True)
               for number in range(1, PRINT_JOB_CLIENTS + 1)]
    clients.append(threading.Thread(target=harness.create_job_client, daemon=True))
    for client in clients:
        client.start()
    aims = {"upload": 0, "render": 0}
    try:
        started = time.monotonic()
        for round_number in range(1, ROUNDS + 1):
            time.sleep(random.uniform(1.5, 4.0))
            what = "upload" if round_number % 2 else "render"
            if harness.kill_while(what):
                aims[what] += 1
            print("round %d: killed (%s) at %.1f s, %d acknowledged" % (
                round_number, what, time.monotonic() - started, len(harness.acknowledged)))
            harness.start()
        harness.stopping.set()
        for client in clients:
            client.join(timeout=180)
        assert not any(client.is_alive() for client in clients), "a client did not finish"

        deadline = time.monotonic() + DRAIN_LIMIT
        while time.monotonic() < deadline:
            jobs = harness.api("/api/v1/jobs") or []
            ended = {job["job-id"] for job in jobs if job["job-state"] in ("completed", "canceled", "aborted")}
            if set(harness.acknowledged) <= ended and all(job["job-id"] in ended for job in jobs):
                break
            time.sleep(0.5)
        print("drained at %.1f s" % (time.monotonic() - started))
    finally:
        harness.stopping.set()
        with harness.lock:
            harness.printer.stop()
        artifacts.keep(harness.printer.log_path, "crash-recovery.stderr.log")

    folder = harness.printer.output_dir
    problems = list(harness.failures)
    records = {}
    for name in sorted(os.listdir(folder + "/jobs")):
        if not name.isdigit():
            problems.append("jobs/%s is not a job folder" % name)
            continue
        path = "%s/jobs/%s" % (folder, name)
        files = os.listdir(path)
        if "job.json" not in files:
            problems.append("jobs/%s has no job.json: %s" % (name, files))
            continue
        leftovers = [file for file in files if file.endswith(TEMPORARY_SUFFIXES)]
        if leftovers:
            problems.append("jobs/%s keeps half-written files: %s" % (name, leftovers))
        with open(path + "/job.json") as file:
            record = json.load(file)
        validate_record(record)
        assert record["job-id"] == int(name)
        records[int(name)] = record
        pages = sorted(file for file in files if file.startswith("page-") and file.endswith(".png"))
        if pages != sorted(impression["file"] for impression in record["impressions"]):
            problems.append("jobs/%s: page images %s do not match the record" % (name, pages))
        if record["job-state"] not in ("completed", "canceled", "aborted"):
            problems.append("job %s never ended: %s %s" % (name, record["job-state"], record["job-state-reasons"]))

    states = {}
    requeued_after_render = 0
    for job_id, sent in sorted(harness.acknowledged.items()):
        record = records.get(job_id)
        if record is None:
            problems.append("acknowledged job %d (%s) has no record" % (job_id, sent["name"]))
            continue
        if record["job-name"] != sent["name"]:
            problems.append("job id %d was reused: %s, not %s" % (job_id, record["job-name"], sent["name"]))
        states[record["job-state"]] = states.get(record["job-state"], 0) + 1
        if record["job-state"] != "completed":
            problems.append("acknowledged job %d (%s) ended %s %s: %s" % (
                job_id, sent["name"], record["job-state"], record["job-state-reasons"], record["job-state-message"]))
        if [document["sha256"] for document in record["documents"]] != sent["sha256"]:
            problems.append("job %d: the recorded documents are not the ones sent" % job_id)
        for document in record["documents"]:
            stored = "%s/jobs/%d/%s" % (folder, job_id, document["file"])
            if not os.path.exists(stored) or sha256_of(stored) != document["sha256"]:
                problems.append("job %d: %s on disk is not what was sent" % (job_id, document["file"]))
        if record["job-state"] == "completed" and not record["impressions"]:
            problems.append("job %d completed without page images" % job_id)
        seen = [entry["job-state"] for entry in record["history"]]
        if "processing" in seen and "pending" in seen[seen.index("processing"):]:
            requeued_after_render += 1
    others = {}
    for job_id, record in records.items():
        if job_id not in harness.acknowledged:
            key = "%s %s" % (record["job-state"], ",".join(record["job-state-reasons"]))
            others[key] = others.get(key, 0) + 1
    summary = ("crash test: %d rounds, kills during upload %d, during render %d; %d acknowledged jobs: %s; "
               "%d printed again after a kill during their render; %d requests unanswered; other jobs: %s"
               % (ROUNDS, aims["upload"], aims["render"], len(harness.acknowledged), states, requeued_after_render,
                  harness.unanswered, others))
    print("\n" + summary)
    for problem in problems:
        print("problem: " + problem)
    artifacts.write("crash-recovery.txt", "\n".join([summary] + ["problem: " + problem for problem in problems]) + "\n")
    assert not problems, "%d problems, the first: %s" % (len(problems), problems[:10])
    assert aims["upload"] >= 2 and aims["render"] >= 2, "kills did not land where they should: %s" % aims
    assert len(harness.acknowledged) >= 20, "too few jobs were acknowledged to tell anything"
    assert requeued_after_render >= 1, "no job was being rendered at a kill and printed again"
