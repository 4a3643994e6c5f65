"""Fixtures of the browser tests of the web page (scripts/web-test).

The browser is Debian's Chromium driven by Selenium (Debian's python3-selenium) through Debian's chromium-driver:
nothing is downloaded. Printers are the built binary (VPRINTER) on free ports, advertised on the loopback-only
Avahi daemon that scripts/web-test makes reachable, each with a name of its own. Screenshots and measured figures
go to $VP_ARTIFACTS/web-test/; with VP_UPDATE_DOC_IMAGES=1 the README's screenshots in docs/images/ are
replaced by the ones this run took.
"""
import base64
import json
import os
import pathlib
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.chrome.service import Service

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = pathlib.Path(os.environ.get("VP_ARTIFACTS", str(REPO / "artifacts"))) / "web-test"
# The longest any wait of these tests lasts, in seconds.
WAIT_LIMIT = 30
# The window of the desktop screenshots, and a phone's (an iPhone 13's CSS pixels).
DESKTOP = (1280, 1000)
PHONE = (390, 844)
# Screenshots the README shows: artifact name -> file in docs/images/.
DOC_IMAGES = {"front-panel": "web-front-panel.png", "viewer": "web-viewer.png", "phone": "web-phone.png",
              "job-list": "web-page.png"}

# RFC 8010 section 3.5.1 tags and RFC 8011 operation codes.
OPERATION_ATTRIBUTES, JOB_ATTRIBUTES, END_OF_ATTRIBUTES = 0x01, 0x02, 0x03
INTEGER, ENUM, KEYWORD, NAME, URI, CHARSET, LANGUAGE, MIME_TYPE = 0x21, 0x23, 0x44, 0x42, 0x45, 0x47, 0x48, 0x49
PRINT_JOB = 0x0002


def unique(prefix):
    """A printer name no other test on this machine uses (multicast on loopback is shared)."""
    return "%s-%d-%s" % (prefix, os.getpid(), uuid.uuid4().hex[:6])


class Printer:
    """One vprinter process on a free port; `dnssd` advertises it on the test daemon."""

    def __init__(self, *arguments, name=None, dnssd=False, output=None, auth=None):
        self.folder = tempfile.mkdtemp(prefix="vprinter-web-")
        self.output = output or os.path.join(self.folder, "output")
        self.name = name or unique("web")
        self.log = open(os.path.join(self.folder, "vprinter.log"), "ab")
        self._said = None
        # "name:password" sent with every API call and job of this object (printers started with --user).
        self.auth = auth
        command = [os.environ["VPRINTER"], "--port", "0", "--name", self.name, "--output-dir", self.output]
        if not dnssd:
            command.append("--no-dnssd")
        self.process = subprocess.Popen(command + list(arguments), stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.uri = self.process.stdout.readline().strip()
        if not self.uri.startswith("ipp://"):
            self.stop()
            raise AssertionError("vprinter printed no URI: %s" % self.said)
        self.base = "http://" + self.uri[len("ipp://"):].split("/", 1)[0]
        self.segment = "".join(c if c.isalnum() or c in "-_." else "-" for c in self.name)
        self.api_path = "/api/v1/printers/" + self.segment

    @property
    def said(self):
        """The last line the printer wrote on stderr (read before stop removes its folder)."""
        return self._said or "(nothing on stderr)"

    def call(self, method, path, body=None):
        """A JSON API call; returns (status, decoded JSON or None)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, method=method, data=data,
                                         headers=self.credentials({"Content-Type": "application/json"}))
        try:
            with urllib.request.urlopen(request, timeout=WAIT_LIMIT + 10) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, payload = error.code, error.read()
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, None

    def get(self, path):
        status, value = self.call("GET", path)
        assert status == 200, "GET %s: %d %s" % (path, status, value)
        return value

    def state(self):
        """This printer as GET /api/v1/printers/<name> shows it."""
        return self.get(self.api_path)

    def credentials(self, headers, auth=None):
        """`headers` with HTTP Basic credentials (`auth`, or this object's) added when there are any."""
        auth = auth or self.auth
        if auth:
            headers["Authorization"] = "Basic " + base64.b64encode(auth.encode()).decode()
        return headers

    def print_pdf(self, name, document, user="web-test", attributes=(), uri=None, document_format="application/pdf",
                  auth=None):
        """Print-Job with a PDF (or a document of `document_format`) and job template attributes (tag, name,
        value), to this printer or to another printer of the process at `uri`; returns the job-id."""
        uri = uri or self.uri
        body = struct.pack(">BBHI", 2, 0, PRINT_JOB, 1) + bytes([OPERATION_ATTRIBUTES])
        body += attribute(CHARSET, "attributes-charset", "utf-8")
        body += attribute(LANGUAGE, "attributes-natural-language", "en")
        body += attribute(URI, "printer-uri", uri)
        body += attribute(NAME, "requesting-user-name", user)
        body += attribute(NAME, "job-name", name)
        body += attribute(MIME_TYPE, "document-format", document_format)
        body += bytes([JOB_ATTRIBUTES])
        for tag, attribute_name, value in attributes:
            body += attribute(tag, attribute_name, value)
        body += bytes([END_OF_ATTRIBUTES]) + document
        request = urllib.request.Request(uri.replace("ipp://", "http://"), data=body,
                                         headers=self.credentials({"Content-Type": "application/ipp"}, auth))
        with urllib.request.urlopen(request, timeout=WAIT_LIMIT) as response:
            answer = response.read()
        status = struct.unpack(">H", answer[2:4])[0]
        assert status < 0x0100, "Print-Job answered status 0x%04x" % status
        marker = answer.find(b"\x21\x00\x06job-id\x00\x04")
        assert marker > 0, "no job-id in the answer"
        return struct.unpack(">i", answer[marker + 11:marker + 15])[0]

    def wait_for_job(self, job_id, state="completed"):
        return wait_for(lambda: (lambda job: job if job["job-state"] == state else None)(
            self.get("/api/v1/jobs/%d" % job_id)), "job %d to be %s" % (job_id, state))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=WAIT_LIMIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        try:
            with open(os.path.join(self.folder, "vprinter.log"), errors="replace") as log:
                lines = [line.strip() for line in log if line.strip()]
            self._said = lines[-1] if lines else None
        except OSError:
            pass  # stopped before
        shutil.rmtree(self.folder, ignore_errors=True)


def attribute(tag, name, value):
    """One attribute with one value (RFC 8010 section 3.1.4)."""
    encoded = struct.pack(">i", value) if tag in (INTEGER, ENUM) else value.encode()
    return struct.pack(">BH", tag, len(name)) + name.encode() + struct.pack(">H", len(encoded)) + encoded


def pdf(pages, width=612, height=792):
    """A PDF with one page per entry of `pages`, each a list of lines of text in Helvetica."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", None,
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for lines in pages:
        content = b"BT /F1 40 Tf 60 %d Td 48 TL " % (height - 120)
        content += b"".join(b"(%s) '" % line.encode("latin-1").replace(b"(", b"\\(").replace(b")", b"\\)")
                            for line in lines) + b" ET"
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R"
                       b" /Resources << /Font << /F1 3 0 R >> >> >>" % (width, height, len(objects)))
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out


def wait_for(predicate, what, timeout=WAIT_LIMIT, interval=0.05):
    """Polls `predicate` until it returns something true; fails naming `what` after `timeout` seconds. An element
    that went stale meanwhile (the page replaced that part of itself on a live update) counts as not yet."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except StaleElementReferenceException:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %d s waiting for %s" % (timeout, what))
        time.sleep(interval)


class Announcements:
    """avahi-browse -p on _ipp._tcp in the background, for one name: whether it is browsable now, and how long
    a change took to show."""

    def __init__(self, name):
        self.name = name
        self.present = set()
        self.changed = threading.Condition()
        self.process = subprocess.Popen(["avahi-browse", "-p", "-k", "_ipp._tcp"], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            fields = line.rstrip("\n").split(";")
            if len(fields) >= 6 and fields[0] in "+-" and fields[3] == self.name:
                with self.changed:
                    (self.present.add if fields[0] == "+" else self.present.discard)((fields[1], fields[2]))
                    self.changed.notify_all()

    def wait(self, present, limit=WAIT_LIMIT):
        """Seconds until the name is (or is no longer) browsable; None after `limit`."""
        started = time.monotonic()
        with self.changed:
            while bool(self.present) != present:
                left = limit - (time.monotonic() - started)
                if left <= 0:
                    return None
                self.changed.wait(left)
        return time.monotonic() - started

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def pytest_collectreport(report):
    """A test file that cannot be read, in ARTIFACTS/failures.txt as pytest_runtest_logreport does for tests."""
    if report.failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        with open(ARTIFACTS / "failures.txt", "a") as file:
            file.write("%s (collect): %s\n" % (report.nodeid, str(report.longrepr).strip().splitlines()[-1][:300]))


def pytest_runtest_logreport(report):
    """Each failing test's one-line cause, in ARTIFACTS/failures.txt (scripts/web-test ends with the first)."""
    if report.failed:
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message.strip().splitlines()[0] if crash and crash.message.strip() else str(report.longrepr)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        with open(ARTIFACTS / "failures.txt", "a") as file:
            file.write("%s (%s): %s\n" % (report.nodeid.split("::")[-1], report.when, message[:300]))


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole run (starting one costs seconds)."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-extensions", "--window-size=%d,%d" % DESKTOP):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.set_page_load_timeout(WAIT_LIMIT)
    yield driver
    driver.quit()


@pytest.fixture
def desktop(browser):
    """The browser at desktop size, its console read and checked for script errors after the test."""
    browser.set_window_size(*DESKTOP)
    browser.get_log("browser")
    yield browser
    errors = [entry["message"] for entry in browser.get_log("browser")
              if entry["level"] == "SEVERE" and "net::ERR_CONNECTION" not in entry["message"]
              and "Failed to load resource" not in entry["message"]]
    assert errors == [], "the page's script failed: %s" % errors


@pytest.fixture
def printer():
    running = Printer(dnssd=True)
    yield running
    running.stop()


def screenshot(driver, name, full_page=True):
    """Saves the page as ARTIFACTS/<name>.png (the whole page's height when `full_page`); returns the path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / (name + ".png")
    size = driver.get_window_size()
    driver.execute_script("window.scrollTo(0, 0)")
    if full_page:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(size["width"], min(max(height + 40, 600), 4000))
        time.sleep(0.3)
    driver.save_screenshot(str(path))
    if full_page:
        driver.set_window_size(size["width"], size["height"])
    with open(path, "rb") as file:
        assert file.read(8) == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("VP_UPDATE_DOC_IMAGES") == "1" and name in DOC_IMAGES:
        shutil.copyfile(path, REPO / "docs" / "images" / DOC_IMAGES[name])
    return path


def record_figure(**figure):
    """Appends one measured figure to ARTIFACTS/figures.jsonl (printed by scripts/web-test)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / "figures.jsonl", "a") as file:
        file.write(json.dumps(figure, sort_keys=True) + "\n")


def enabled(driver):
    """Waits until the page's script has enabled its controls."""
    wait_for(lambda: driver.execute_script("return document.body.classList.contains('js')"), "the page's script")


def text_of(driver, element_id):
    return driver.execute_script("var e = document.getElementById(arguments[0]); return e ? e.textContent : null;",
                                 element_id)


def click_css(driver, selector):
    """Clicks the element a CSS selector finds, found afresh until the click lands: a live update may replace it
    between finding and clicking."""
    def clicked():
        driver.find_element(By.CSS_SELECTOR, selector).click()
        return True
    wait_for(clicked, "a click on " + selector)
