"""A real browser against the printer from another site's page (docs/security.md "Browsers"): the page's simple
requests (no-cors fetches with text/plain bodies, sent without a preflight) arrive and change nothing, and a site
name resolved to this machine (what DNS rebinding does) is answered 421 instead of the printer's pages. Before these
defences the page created a printer and switched it off, and the rebound name showed the job list."""
import http.server
import threading

from conftest import REBOUND_SITE, state, wait_for
from vptest.names import unique

# The attacker's page: two changes a script of any site may send without asking, then a title that says they went.
ATTACK = """<!doctype html><title>waiting</title><script>
Promise.allSettled([
  fetch('%(base)s/api/v1/printers', {method: 'POST', mode: 'no-cors', body: '{"name": "%(planted)s"}'}),
  fetch('%(base)s/api/v1/printers/%(name)s/power', {method: 'POST', mode: 'no-cors', body: '{"on": false}'}),
]).then(function () { document.title = 'sent'; });
</script>"""


class AttackerSite:
    """A page of another origin (another port of this machine), served from a thread."""

    def __init__(self, page):
        body = page.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = "http://127.0.0.1:%d/" % self.server.server_address[1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_another_sites_page_changes_nothing(browser, start_printer):
    printer = start_printer(name=unique("cross"))
    planted = unique("planted")
    site = AttackerSite(ATTACK % {"base": "http://127.0.0.1:%d" % printer.port, "planted": planted,
                                  "name": printer.name.replace(" ", "%20")})
    try:
        browser.get(site.url)
        wait_for(lambda: browser.title == "sent", "the page's requests")
    finally:
        site.close()
    # Both requests reached the printer (the journal has them), and were refused for their origin.
    posts = [entry for entry in printer.checked("GET", "/api/v1/requests?client=127.0.0.1")
             if entry["http"]["method"] == "POST"]
    assert sorted(entry["http"]["status"] for entry in posts) == [403, 403], posts
    names = [entry["printer-name"] for entry in printer.checked("GET", "/api/v1/printers")]
    assert planted not in names
    assert state(printer)["power"] == "on"


def test_a_rebound_site_name_gets_no_page(browser, start_printer):
    printer = start_printer(name=unique("rebound"))
    printer.print_job()
    browser.get("http://%s:%d/" % (REBOUND_SITE, printer.port))
    assert "does not answer to the name %s" % REBOUND_SITE in browser.page_source
    assert printer.name not in browser.page_source
    # The printer's own name for it still shows the page.
    browser.get("http://localhost:%d/" % printer.port)
    assert printer.name in browser.page_source
