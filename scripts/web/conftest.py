"""Fixtures of the browser tests of the web page (scripts/web-test), on the harness (scripts/harness/vptest).

The browser is Debian's Chromium driven by Selenium (Debian's python3-selenium) through Debian's chromium-driver:
nothing is downloaded. Printers come from vptest's start_printer; ``printer`` here is one advertised on the
loopback-only Avahi daemon that scripts/web-test makes reachable, with a name of its own. Screenshots and measured
figures go to $VP_ARTIFACTS/web-test/; with VP_UPDATE_DOC_IMAGES=1 the README's screenshots in docs/images/ are
replaced by the ones this run took.
"""
import os
import shutil
import time

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from vptest import artifacts, waiting
from vptest.names import unique
from vptest.paths import DOCS

# The longest any wait of these tests lasts, in seconds.
WAIT_LIMIT = waiting.WAIT_LIMIT
# The window of the desktop screenshots, and a phone's (an iPhone 13's CSS pixels).
DESKTOP = (1280, 1000)
PHONE = (390, 844)
# A site name the browser resolves to this machine, as DNS rebinding makes one resolve (test_cross_site.py).
REBOUND_SITE = "rebound.test"
# Screenshots the README shows: artifact name -> file in docs/images/.
DOC_IMAGES = {"front-panel": "web-front-panel.png", "viewer": "web-viewer.png", "phone": "web-phone.png",
              "job-list": "web-page.png"}


def wait_for(predicate, what, limit=WAIT_LIMIT):
    """vptest's wait_for, where an element that went stale meanwhile (the page replaced that part of itself on a
    live update) counts as not yet."""
    return waiting.wait_for(predicate, what, limit, ignore=(StaleElementReferenceException,))


def printer_path(printer):
    """The printer's resource in the JSON API, /api/v1/printers/NAME."""
    return "/api/v1/printers/" + printer.name


def state(printer):
    """The printer as GET /api/v1/printers/NAME shows it."""
    return printer.checked("GET", printer_path(printer))


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole run (starting one costs seconds)."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-extensions", "--window-size=%d,%d" % DESKTOP,
                     "--host-resolver-rules=MAP %s 127.0.0.1" % REBOUND_SITE):
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
def printer(start_printer):
    """A printer advertised over DNS-SD, with a name no other run uses."""
    return start_printer(name=unique("web"), dnssd=True)


def screenshot(driver, name, full_page=True):
    """Saves the page as <name>.png in the artifacts (the whole page's height when `full_page`); returns the
    path."""
    path = artifacts.folder() / (name + ".png")
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
        shutil.copyfile(path, DOCS / "images" / DOC_IMAGES[name])
    return path


def enabled(driver):
    """Waits until the page's script has enabled its controls."""
    wait_for(lambda: driver.execute_script("return document.body.classList.contains('js')"), "the page's script")


# What ChromeDriver answers, instead of a stale element reference, for an element asked about while the page that
# held it is being replaced (CI: "unhandled inspector error: ... Node with given id does not belong to the
# document" in test_live_updates_search_and_a_reset_that_asks_first).
NODE_GONE = "does not belong to the document"


def is_stale(element):
    """Whether `element` is no longer in the page (the page it was found in was left or redrawn)."""
    try:
        element.tag_name
        return False
    except StaleElementReferenceException:
        return True
    except WebDriverException as error:
        if NODE_GONE in str(error.msg):
            return True
        raise


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
