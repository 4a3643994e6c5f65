"""The web page in a real browser: headless Chromium loads `/` after a job was printed; the job, its thumbnail and
the printer's supplies and loaded media are in the DOM, and a screenshot is kept in artifacts/api/ (VP_ARTIFACTS).
(The event stream the page listens to is tested in test_api_contract.py.)"""
import os
import re
import shutil
import subprocess
import tempfile

import pytest
from vptest import artifacts

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# The longest one Chromium run may take, in seconds.
BROWSER_LIMIT = 90


def chromium(*arguments):
    profile = tempfile.mkdtemp(prefix="vprinter-chromium-")
    try:
        result = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + profile,
             "--timeout=5000", *arguments],
            capture_output=True, timeout=BROWSER_LIMIT)
        return result.stdout.decode(errors="replace")
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (scripts/setup installs it)")
def test_a_printed_job_and_its_thumbnail_appear_in_the_browser(printer):
    printer.print_job(name="<shown in the browser>")
    printer.checked("GET", "/api/v1/wait?jobs=1", 200)
    dom = chromium("--dump-dom", printer.base_url + "/")
    assert 'id="job-1"' in dom
    assert "&lt;shown in the browser&gt;" in dom
    assert re.search(r'<img class="thumbnail" src="/api/v1/jobs/1/files/page-0001.png"', dom)
    assert "Black Toner" in dom
    assert re.search(r'<script src="/web/vprinter.js\?v=[0-9a-f]+"', dom)
    status, content_type, script = printer.http("GET", "/web/vprinter.js")
    assert status == 200 and content_type.startswith("text/javascript")
    script = script.decode()
    assert "new EventSource('/api/v1/events')" in script

    panel_dom = chromium("--dump-dom", printer.base_url + "/ipp/print")
    assert "na_letter_8.5x11in" in panel_dom and "Black Toner" in panel_dom

    job_dom = chromium("--dump-dom", printer.base_url + "/jobs/1")
    assert '<th scope="row">sides</th>' in job_dom and "document-1.pdf" in job_dom

    screenshot = str(artifacts.folder() / "web-page.png")
    if os.path.exists(screenshot):
        os.remove(screenshot)
    chromium("--screenshot=" + screenshot, "--window-size=1100,800", printer.base_url + "/")
    with open(screenshot, "rb") as file:
        assert file.read(8) == b"\x89PNG\r\n\x1a\n"
