"""vprinter as a Testcontainers module: ``VprinterContainer`` runs the vprinter image through the ``testcontainers``
package (``pip install "./python[testcontainers]"``), waits until ``GET /readyz`` answers 200 and hands over a
``vprinter.Client`` of it::

    from vprinter.testcontainers import VprinterContainer

    with VprinterContainer("registry.example.com/qa/vprinter", profile="color-inkjet") as printer:
        client = printer.get_client()
        my_app.print_invoice(printer_uri=printer.get_printer_uri())
        [job] = client.wait(1)

The image is the project's ``Containerfile`` built where your CI pulls from (there is no public one); the default is
``VPRINTER_IMAGE``, else ``vprinter:latest``. Any engine Testcontainers drives works: Docker, or podman through its
Docker-compatible socket (``DOCKER_HOST=unix:///run/podman/podman.sock``).
"""
import ipaddress
import os
import secrets
import time
import urllib.error
import urllib.request

from testcontainers.core.config import ConnectionMode
from testcontainers.core.container import DockerContainer

from .client import Client

# The port the image's printer listens on (Containerfile: VPRINTER_PORT=8631).
PORT = 8631
# Seconds a container may take to answer GET /readyz with 200, and how often it is asked.
READY_TIMEOUT = 60
READY_INTERVAL = 0.2


class ContainerNotReady(Exception):
    """The container did not answer GET /readyz with 200 in time, or exited first; the message holds its logs."""


class VprinterContainer(DockerContainer):
    """A container of the vprinter image. ``profile`` (a shipped profile's name), ``name``, ``scenario`` and any
    other option (``options={"render-dpi": 72}``, as ``VPRINTER_<OPTION>`` variables, docs/config.md) set the
    printer. DNS-SD is off: multicast does not leave a container's network.

    The JSON API changes (reset, faults, printers) come from outside the container, not from its loopback, so they
    need a token: ``api_token`` (default: a random one), sent by the client that ``get_client()`` returns.
    """

    def __init__(self, image=None, profile=None, name=None, scenario=None, options=None, api_token=None,
                 ready_timeout=READY_TIMEOUT, **kwargs):
        super().__init__(image or os.environ.get("VPRINTER_IMAGE") or "vprinter:latest", **kwargs)
        self.api_token = api_token or secrets.token_urlsafe(24)
        self.ready_timeout = ready_timeout
        self.with_exposed_ports(PORT)
        settings = {"no-dnssd": "1", "api-token": self.api_token}
        if profile:
            settings["profile"] = profile
        if name:
            settings["name"] = name
        if scenario:
            settings["scenario"] = scenario
        settings.update({option: str(value) for option, value in (options or {}).items()})
        for option, value in settings.items():
            self.with_env("VPRINTER_" + option.upper().replace("-", "_"), value)

    def start(self):
        # The name the tests reach the engine's host by, when they reach the container through it: vprinter answers
        # only its own names (addresses, localhost, .local) and the ones it is told (docs/security.md, "Browsers").
        # Through a gateway or bridge address (Testcontainers inside a container) the host is an address.
        client = self.get_docker_client()
        if client.get_connection_mode() == ConnectionMode.docker_host and not _is_own_name(client.host()):
            self.with_env("VPRINTER_ALLOWED_HOST", client.host())
        super().start()
        self._wait_until_ready()
        return self

    def get_api_url(self):
        """The JSON API's base URL: ``http://HOST:PORT``."""
        return "http://%s:%s" % (_uri_host(self.get_container_host_ip()), self.get_exposed_port(PORT))

    def get_printer_uri(self):
        """The printer's IPP URI, as a client under test uses it: ``ipp://HOST:PORT/ipp/print``."""
        return "ipp://%s:%s/ipp/print" % (_uri_host(self.get_container_host_ip()), self.get_exposed_port(PORT))

    def get_client(self, printer=None):
        """A ``vprinter.Client`` of the container's printers (``printer`` scopes it to one by name), with the
        API token."""
        return Client(self.get_printer_uri(), printer=printer, api_token=self.api_token)

    def _wait_until_ready(self):
        deadline = time.monotonic() + self.ready_timeout
        problem = "no answer"
        while time.monotonic() < deadline:
            wrapped = self.get_wrapped_container()
            wrapped.reload()
            if wrapped.status in ("exited", "dead"):
                raise ContainerNotReady("the vprinter container exited:\n%s" % self._log_text())
            try:
                with urllib.request.urlopen(self.get_api_url() + "/readyz", timeout=5) as response:
                    if response.status == 200:
                        return
                    problem = "GET /readyz answered %d" % response.status
            except urllib.error.HTTPError as error:
                problem = "GET /readyz answered %d: %s" % (error.code, error.read()[:200])
            except OSError as error:
                problem = str(error)
            time.sleep(READY_INTERVAL)
        raise ContainerNotReady("the vprinter container was not ready within %d s (%s):\n%s"
                                % (self.ready_timeout, problem, self._log_text()))

    def _log_text(self):
        out, err = self.get_logs()
        return (out + err).decode("utf-8", "replace")[-4000:]


def _is_own_name(host):
    """Whether vprinter answers requests whose Host is ``host`` without being told: an address or localhost."""
    if host in ("localhost", "localhost.") or host.endswith(".local"):
        return True
    try:
        ipaddress.ip_address(host.strip("[]"))
        return True
    except ValueError:
        return False


def _uri_host(host):
    """``host`` as a URI's host: an IPv6 address in brackets."""
    return "[%s]" % host if ":" in host and not host.startswith("[") else host
