"""The container image (Containerfile): its configuration, printing to it from this machine with ipptool, the job
record and page PNGs in the mounted output folder, health, VPRINTER_* settings, a clean stop, and DNS-SD through
the Avahi daemon's D-Bus socket mounted into it."""
import importlib.metadata
import json
import os
import struct
import subprocess
import sys

from vprinter import documents

from conftest import IMAGE, IMAGE_UID, RUN_FLAGS, podman
from vptest import avahi
from vptest.podman import assert_prints_as_here
from vptest.waiting import wait_until

# ipptool's Print-Job test, with the ticket this test checks in the record.
PRINT_TEST = """{
    NAME "Print-Job from the host"
    OPERATION Print-Job
    GROUP operation-attributes-tag
    ATTR charset attributes-charset utf-8
    ATTR naturalLanguage attributes-natural-language en
    ATTR uri printer-uri $uri
    ATTR name requesting-user-name container-test
    ATTR name job-name "container invoice"
    ATTR mimeMediaType document-format application/pdf
    GROUP job-attributes-tag
    ATTR integer copies 2
    ATTR keyword sides two-sided-long-edge
    FILE $filename
    STATUS successful-ok
    EXPECT job-id
}
"""
# Seconds avahi-browse gets to find a service, or to see it go, and how often it looks.
BROWSE_TIMEOUT = 15
BROWSE_INTERVAL = 0.5


def image_config():
    return json.loads(podman("image", "inspect", IMAGE).stdout)[0]


def ipptool_print(uri, tmp_path, pages):
    document = tmp_path / "invoice.pdf"
    document.write_bytes(documents.pdf(pages))
    test = tmp_path / "print.test"
    test.write_text(PRINT_TEST)
    done = subprocess.run(["ipptool", "-tf", str(document), uri, str(test)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_image_runs_as_a_user_with_a_health_check_a_volume_and_vprinter_settings():
    config = image_config()["Config"]
    assert config["User"] == "vprinter"
    assert "/output" in config["Volumes"]
    assert "VPRINTER_OUTPUT_DIR=/output" in config["Env"]
    assert "VPRINTER_PORT=8631" in config["Env"]
    assert config["Entrypoint"] == ["vprinter"]
    health = podman("image", "inspect", "--format", "{{json .Healthcheck}}", IMAGE, check=False).stdout
    inspected = json.dumps(image_config())
    assert "/livez" in (health + inspected)
    assert "8631/tcp" in config.get("ExposedPorts", {})


def test_the_image_holds_the_binaries_and_runtime_libraries_but_no_build_tools():
    script = ("id -u; command -v swift || echo no-swift; command -v cc || echo no-cc; "
              "dpkg-query -W -f='${Package}\\n' | grep -c -- '-dev$' || true; vprinter profiles | head -n 1; "
              "ls /usr/local/bin; ldd /usr/local/bin/vprinter /usr/local/bin/vprinter-render | grep -c 'not found'"
              " || true")
    done = podman("run", "--rm", "--entrypoint", "sh", *RUN_FLAGS, IMAGE, "-c", script)
    lines = done.stdout.split()
    assert lines[0] == str(IMAGE_UID)
    assert "no-swift" in lines and "no-cc" in lines
    dev_packages = lines[3]
    assert dev_packages == "0", "the runtime image has -dev packages"
    assert "vprinter" in lines and "vprinter-render" in lines
    assert lines[-1] == "0", "a library of the binaries is missing"
    size = int(image_config()["Size"])
    print("image size: %.0f MB" % (size / 1e6))


def test_a_job_printed_from_the_host_is_recorded_and_rendered_in_the_mounted_folder(start_container, tmp_path):
    name = "container-test-%d" % os.getpid()
    container = start_container(env={"VPRINTER_NAME": name, "VPRINTER_PROFILE": "color-inkjet",
                                     "VPRINTER_RENDER_DPI": "100"})
    client = container.client
    assert client.livez()
    ready, body = client.readyz()
    assert ready and body["printers"] == 1
    [printer] = client.printers()
    assert printer["printer-name"] == name
    # Without the bus socket there is no Avahi daemon: vprinter says so and prints on.
    assert "no Avahi daemon reachable" in container.logs()

    ipptool_print(client.uri, tmp_path, ["Invoice 42\nTotal 99.00", "Page two"])
    [job] = client.wait(1, timeout=60)
    assert job["job-state"] == "completed"
    assert job["job-name"] == "container invoice"
    assert job["attributes"]["copies"] == 2
    assert job["attributes"]["sides"] == "two-sided-long-edge"
    assert job["documents"][0]["document-format-detected"] == "application/pdf"
    assert len(job["impressions"]) == 2 and job["job-impressions"] == 4

    folder = container.output / "jobs" / str(job["job-id"])
    record = json.loads((folder / "job.json").read_text())
    assert record["job-id"] == job["job-id"] and record["job-state"] == "completed"
    for impression in record["impressions"]:
        page = folder / impression["file"]
        data = page.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == (impression["width"], impression["height"])
        assert impression["dpi"] == 100
        assert page.stat().st_uid == IMAGE_UID, "written by the image's user, not root"
    assert "Invoice 42" in client.text(job).sides[0]

    health = podman("healthcheck", "run", container.name, check=False)
    assert health.returncode == 0, health.stdout + health.stderr
    status = podman("inspect", "--format", "{{.State.Health.Status}}", container.name).stdout.strip()
    assert status == "healthy"

    podman("stop", "-t", "20", container.name)
    exit_code = podman("inspect", "--format", "{{.State.ExitCode}}", container.name).stdout.strip()
    assert exit_code == "0", container.logs()
    assert json.loads((folder / "job.json").read_text())["job-state"] == "completed"


# A one-page PostScript document: the worker hands it to Ghostscript, which the runtime stage must hold.
POSTSCRIPT = b"""%!PS-Adobe-3.0
%%Pages: 1
%%EndComments
/Helvetica findfont 24 scalefont setfont
72 700 moveto (PostScript in the container) show
showpage
%%EOF
"""


def test_a_postscript_job_is_rendered_by_the_images_ghostscript(start_container, tmp_path):
    container = start_container(env={"VPRINTER_PROFILE": "enterprise-laser", "VPRINTER_RENDER_DPI": "100"})
    client = container.client
    document = tmp_path / "letter.ps"
    document.write_bytes(POSTSCRIPT)
    client.print_file(document, document_format="application/postscript", job_name="postscript")
    [job] = client.wait(1, timeout=60)
    assert job["job-state"] == "completed", (job.get("job-state-message"), container.logs())
    assert job["documents"][0]["document-format-detected"] == "application/postscript"
    assert len(job["impressions"]) == 1


def test_the_health_check_fails_when_the_printer_does_not_answer(start_container):
    # The process is stopped from outside (the container's PID 1 ignores SIGSTOP sent from inside it): its
    # socket still accepts connections, but nothing answers GET /livez.
    container = start_container()
    assert podman("healthcheck", "run", container.name, check=False).returncode == 0
    podman("kill", "--signal", "SIGSTOP", container.name)
    try:
        health = podman("healthcheck", "run", container.name, check=False, timeout=60)
        assert health.returncode != 0, "the health check passed while the printer was stopped"
    finally:
        podman("kill", "--signal", "SIGCONT", container.name, check=False)
    assert podman("healthcheck", "run", container.name, check=False).returncode == 0


def test_no_dnssd_from_the_environment_turns_advertising_off(start_container):
    container = start_container(env={"VPRINTER_NO_DNSSD": "1"})
    assert container.client.readyz()[0]
    assert "no Avahi daemon reachable" not in container.logs()


def bus_socket():
    address = os.environ.get("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/run/dbus/system_bus_socket")
    assert address.startswith("unix:path="), "the system bus is not a socket path: %s" % address
    return address[len("unix:path="):].split(",")[0]


def resolved(name):
    """The _ipp._tcp service named `name` as avahi-browse resolves it now (avahi.parse_line's fields), or None."""
    return next((entry for entry in avahi.browse("_ipp._tcp", resolve=True)
                 if entry["event"] == "=" and entry["name"] == name), None)


def test_dnssd_goes_through_the_mounted_bus_socket_of_the_hosts_avahi(start_container, tmp_path):
    # The daemon checks who connects: a uid it can look up. The image's own user (10001) is unknown to this
    # machine, so the container runs as a user both know (nobody), as docs/ci.md says.
    name = "container-dnssd-%d" % os.getpid()
    container = start_container(env={"VPRINTER_NAME": name}, host_network=True, user="65534:65534",
                                extra=["-v", "%s:/run/dbus/system_bus_socket" % bus_socket()])
    found = wait_until(lambda: resolved(name), BROWSE_TIMEOUT, BROWSE_INTERVAL)
    assert found, "avahi-browse did not find %r:\n%s" % (name, container.logs())
    assert found["port"] == container.port
    assert ("rp", "ipp/print") in found["txt"]
    assert "no Avahi daemon reachable" not in container.logs()
    ipptool_print(container.client.uri, tmp_path, ["Advertised"])
    assert container.client.wait(1, timeout=60)[0]["job-state"] == "completed"
    podman("stop", "-t", "20", container.name)
    gone = wait_until(lambda: name not in avahi.names("_ipp._tcp"), BROWSE_TIMEOUT, BROWSE_INTERVAL)
    assert gone, "the service stayed after the container stopped"


# A user's suite run with the pytest plugin against the container as a CI service (docs/ci.md): the plugin
# starts nothing, resets the printer between tests and makes a runtime printer for a test that names a profile.
SERVICE_SUITE = """
import pytest
from vprinter import documents

def test_prints_to_the_service(vprinter):
    assert vprinter.jobs() == []
    vprinter.print_file(documents.pdf(["Order 7"]), sides="two-sided-long-edge")
    [job] = vprinter.wait(1)
    assert job["job-state"] == "completed" and job["sides-actual"] == "two-sided-long-edge"
    assert "Order 7" in vprinter.text(job)

def test_each_test_starts_with_no_jobs(vprinter):
    assert vprinter.jobs() == []

@pytest.mark.vprinter("color-inkjet")
def test_a_runtime_printer_of_its_own(vprinter):
    vprinter.print_file(documents.pdf(["Photo"]))
    [job] = vprinter.wait(1)
    assert job["printer-name"] == vprinter.name and vprinter.name.startswith("pytest-")
"""


def plugin_arguments():
    """How pytest loads vprinter's plugin here, as a user's would: through the installed package's pytest11 entry
    point when the package is installed in this environment (python-test installs it into the project's venv; asking
    for it with -p as well would register it twice, and pytest refuses that), else by its module name."""
    installed = any(point.value == "vprinter.pytest_plugin"
                    for point in importlib.metadata.entry_points(group="pytest11"))
    return [] if installed else ["-p", "vprinter.pytest_plugin"]


def test_the_pytest_plugin_uses_the_container_as_a_service(start_container, tmp_path):
    # Requests reach the container from its network's gateway, not from its loopback: changes (reset, faults,
    # printers) need the printer's API token, which the plugin reads from the same variable.
    token = "token-%s" % os.getpid()
    container = start_container(env={"VPRINTER_NO_DNSSD": "1", "VPRINTER_API_TOKEN": token})
    refused = subprocess.run([sys.executable, "-c", "import vprinter; vprinter.Client(%r).reset()" %
                              container.client.base_url], capture_output=True, text=True, timeout=60)
    assert "HTTP 403" in refused.stderr, "a change without the token was not refused: " + refused.stderr[-2000:]
    suite = tmp_path / "test_service.py"
    suite.write_text(SERVICE_SUITE)
    environment = dict(os.environ, VPRINTER_URL=container.client.base_url, VPRINTER_API_TOKEN=token)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin_arguments(),
                           str(suite)], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=environment)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "3 passed" in done.stdout, done.stdout[-2000:]
    assert [printer["printer-name"] for printer in container.client.printers()] == [
        container.client.name], "the runtime printer was deleted after its test"
    assert container.client.jobs(printer=container.client.name) == [], "the first test's job was reset"


def test_the_image_prints_the_font_corpus_with_the_pixels_and_fonts_of_this_machine(tmp_path):
    """docs/snapshots.md: the image's release binaries and packages print every side of the font corpus (fonts not
    embedded, embedded, Japanese, PostScript, PWG, JPEG) as this machine's debug build does, pixel for pixel, with
    the same font substitutions."""
    assert_prints_as_here(IMAGE, os.environ["VPRINTER"], tmp_path)
