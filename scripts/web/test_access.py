"""Every page for people who use it differently: each control has a label (its accessible name), text keeps a
contrast of at least 4.5:1 (WCAG 2.1 AA), the keyboard reaches the controls with a visible focus, nothing is
wider than a phone's screen, and the read-only parts are all in the server's HTML (no JavaScript needed). With
--user, a user reads their own jobs only and sees the refusal of a change they may not make."""
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from vprinter.documents import pdf

from conftest import PHONE, enabled, printer_path, screenshot, state, text_of, wait_for
from vptest.names import unique

# For each visible control: its accessible name (label, aria-label or text), or the control if it has none.
UNLABELLED = """
return Array.prototype.filter.call(document.querySelectorAll('input, select, textarea, button'), function (c) {
  if (c.type === 'hidden' || c.offsetParent === null) { return false; }
  var name = c.getAttribute('aria-label') || (c.labels && c.labels.length ? c.labels[0].textContent : '') ||
    (c.tagName === 'BUTTON' ? c.textContent : '');
  return !name.trim();
}).map(function (c) { return c.outerHTML.slice(0, 120); });
"""

# Every element with text of its own: the contrast of its color on the background behind it (WCAG 2.1 1.4.3).
# Disabled controls are exempt (WCAG: inactive user interface components).
LOW_CONTRAST = """
function rgb(text) { var m = text.match(/[\\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; }
function lum(c) { return [c.r, c.g, c.b].map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 :
  Math.pow((v + 0.055) / 1.055, 2.4); }).reduce(function (s, v, i) { return s + v * [0.2126, 0.7152, 0.0722][i]; }, 0); }
function background(e) {
  for (; e; e = e.parentElement) { var c = rgb(getComputedStyle(e).backgroundColor); if (c.a > 0.5) { return c; } }
  return {r: 255, g: 255, b: 255, a: 1};
}
var low = [];
document.querySelectorAll('body *').forEach(function (e) {
  var own = Array.prototype.some.call(e.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim(); });
  if (!own || e.offsetParent === null || e.closest('[disabled]') || e.closest('.visually-hidden') ||
      e.closest('meter')) { return; }
  var a = lum(rgb(getComputedStyle(e).color)), b = lum(background(e));
  var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) { low.push(e.tagName + '.' + e.className + ' "' + e.textContent.trim().slice(0, 30) + '" ' + ratio.toFixed(2)); }
});
return low;
"""


def pages(printer, job, name=None):
    """The paths of the job list, the front panel of the printer (named `name`, else asked), the job's viewer and the
    request journal."""
    return {"home": "/", "panel": "/printers/" + (name or printer.name), "viewer": "/jobs/%d" % job,
            "requests": "/requests"}


def test_labels_contrast_and_keyboard(desktop, printer):
    job = printer.print_job(pdf(["one", "two"]), name="labels", sides="two-sided-long-edge")
    printer.wait_for_job_state(job)
    # Faults and a playing scenario put every kind of row on the panel.
    printer.checked("POST", printer_path(printer) + "/scenarios", 201, {"scenario": "paper-jam"})
    printer.fault(add_reasons=["door-open-error"])
    for name, path in pages(printer, job).items():
        url = printer.base_url + path
        desktop.get(url)
        enabled(desktop)
        assert desktop.execute_script(UNLABELLED) == [], "controls without a label on the %s page" % name
        assert desktop.execute_script(LOW_CONTRAST) == [], "text below 4.5:1 on the %s page" % name
        assert desktop.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
        assert len(desktop.find_elements(By.TAG_NAME, "h1")) == 1

    # The keyboard reaches the panel's controls in order, with a focus ring drawn.
    desktop.get(printer.base_url + pages(printer, job)["panel"])
    enabled(desktop)
    body = desktop.find_element(By.TAG_NAME, "body")
    reached = []
    for _ in range(40):
        body.send_keys(Keys.TAB) if not reached else desktop.switch_to.active_element.send_keys(Keys.TAB)
        active = desktop.switch_to.active_element
        reached.append(active.get_attribute("id") or active.tag_name)
        if reached[-1] == "power-toggle":
            outline = desktop.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
            assert outline != "none", "no visible focus on the power button"
            break
    assert "power-toggle" in reached, "Tab never reached the power switch: %s" % reached
    desktop.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(lambda: state(printer)["power"] == "off", "power off from the keyboard")
    printer.power(True)


def test_phone_width(browser, printer):
    job = printer.print_job(pdf("phone"), name="on a phone")
    printer.wait_for_job_state(job)
    # A phone's screen (the window cannot be made that narrow; its contents can).
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True})
    try:
        for name, path in pages(printer, job).items():
            browser.get(printer.base_url + path)
            enabled(browser)
            overflow = browser.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, "the %s page is %d px wider than a phone's screen" % (name, overflow)
            if name == "panel":
                screenshot(browser, "phone", full_page=False)
                columns = browser.execute_script(
                    "return getComputedStyle(document.querySelector('.panel')).gridTemplateColumns.split(' ').length")
                assert columns == 1
            if name == "viewer":
                width = browser.execute_script("return document.querySelector('figure.side img').clientWidth")
                assert width > PHONE[0] * 0.7, "the side is %d px wide on a %d px screen" % (width, PHONE[0])
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def html_of(printer, path):
    answer = printer.http("GET", path)
    assert answer.status == 200 and answer.content_type.startswith("text/html"), (path, answer.status)
    return answer.body.decode()


def test_read_only_parts_need_no_javascript(printer):
    job = printer.print_job(pdf("plain HTML"), name="no script <needed>")
    printer.wait_for_job_state(job)
    printer.fault(add_reasons=["cover-open-error"])
    html = {name: html_of(printer, path) for name, path in pages(printer, job).items()}
    assert "no script &lt;needed&gt;" in html["home"] and 'id="job-%d"' % job in html["home"]
    assert "cover-open-error" in html["panel"] and "Black Toner" in html["panel"] and "250 of 250 sheets" in html["panel"]
    assert "plain HTML" in html["viewer"] and "job-completed-successfully" in html["viewer"]
    # The journal: the Print-Job, which opens (a details element) to its attributes and links to its job.
    assert "Print-Job → successful-ok" in html["requests"] and 'href="/jobs/%d"' % job in html["requests"]
    assert "<details><summary>" in html["requests"] and "requesting-user-name" in html["requests"]
    # The controls are there, disabled until the script enables them, and say why.
    assert re.search(r'<fieldset class="controls" data-needs-js disabled>', html["panel"])
    assert "These controls call the JSON API and need JavaScript." in html["panel"]
    # The search is a plain GET form.
    assert '<form class="search" method="get" action="/"' in html["home"]


def test_with_credentials_a_user_sees_their_own_jobs_and_cannot_change_the_printer(desktop, start_printer):
    # docs/security.md: with --user, a user who is not an admin reads their own jobs only and may not change the
    # printer; the page asks for the same credentials as the API and shows the refusal.
    name = unique("web")
    printer = start_printer("--user", "alice:wonder land", "--user", "bob:builder", "--user", "root:r00t", "--admin",
                            "root", "--allow-plain-auth", name=name, auth="root:r00t")
    mine = printer.print_job(pdf("Dear Bob"), name="alice's letter", auth="alice:wonder land")
    theirs = printer.print_job(pdf("secret plans"), name="bob's plans", auth="bob:builder")
    for job in (mine, theirs):
        printer.wait_for_job_state(job)
    desktop.get("http://alice:wonder%%20land@%s/" % printer.authority)  # the browser keeps them for this server
    enabled(desktop)
    listed = [row.get_attribute("id") for row in desktop.find_elements(By.CSS_SELECTOR, "#job-list tr.job")]
    assert listed == ["job-%d" % mine]
    assert "bob's plans" not in desktop.page_source
    desktop.get(printer.base_url + "/jobs/%d" % theirs)
    assert "There is no job %d." % theirs in desktop.page_source
    desktop.get(printer.base_url + "/jobs/%d" % mine)
    enabled(desktop)
    assert "Dear Bob" in text_of(desktop, "side-text-1")
    desktop.get(printer.base_url + pages(printer, mine, name)["panel"])
    enabled(desktop)
    desktop.find_element(By.ID, "pause-toggle").click()
    wait_for(lambda: "403" in (text_of(desktop, "result") or ""), "the refusal on the panel")
    assert "changes are for admins" in text_of(desktop, "result")
    assert "paused" not in printer.checked("GET", "/api/v1/printers/" + name)["printer-state-reasons"]
